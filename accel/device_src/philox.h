// Philox4x32-10 (Salmon et al. 2011, as in Random123 and cuRAND) and accel's random
// distributions, written once: the CPU backend compiles this header, and the CUDA kernel
// (random.cuh) is this text after nvrtc_std.cuh. Element k of a draw uses counter
// (offset + k, attempt, 0) under the stream's key (normals: a block per pair of elements, see
// normal_pair), so a value depends on the seed, the call sequence, the element's index, the
// dtype and the distribution only: never on threads, blocks or grid. Only +, -, *, / and
// sqrt (IEEE, correctly rounded on both devices; no FMA contraction: -ffp-contract=off here,
// --fmad=false under NVRTC) and integer operations are used, with accel's own log and sin/cos,
// so the CPU and the GPU agree bit for bit.
#pragma once
#ifndef __CUDACC_RTC__
#include <cmath>
#include <cstdint>
#include <cstring>
#endif

// The small functions the draws are made of are inlined into the CPU's element loops, which
// vectorise only when no call is left in them (GCC declines to inline log_unit by itself).
#ifdef __CUDACC_RTC__
#define ACCEL_PHILOX_INLINE inline
#else
#define ACCEL_PHILOX_INLINE inline __attribute__((always_inline))
#endif

namespace accel::philox {

struct Block {
  uint32_t v[4];
};

// What one draw computes (the kernel's parameters, passed by value on CUDA).
enum Distribution : int32_t {
  kUniform = 0,      // [0, 1): float32 from 24 bits, float64 from 53 bits
  kNormal = 1,       // standard normal, Box-Muller (both branches: normal_pair), in float64
  kExponential = 2,  // standard exponential, -log1p(-u), computed in float64
  kIntegers = 3,     // low + [0, range) by Lemire's multiply with rejection; range 0 = 2^64
  kGamma = 4,        // standard gamma of shape param[0] (Marsaglia-Tsang), computed in float64
  kPoisson = 5,      // Poisson of mean param[0]: inversion below 10, else Hormann's PTRS
  kBinomial = 6,     // binomial of param[0] trials, probability param[1]: inversion or BTRS
};
struct DrawParams {
  uint64_t key;     // the stream (seed-derived; spawned streams have their own)
  uint64_t offset;  // the counter of element 0: counters used by earlier calls are skipped
  int64_t low;      // kIntegers
  uint64_t range;   // kIntegers
  int32_t distribution;
  int32_t affine;   // real draws: nonzero writes value * scale + shift (in float64)
  double scale;
  double shift;
  double param[2];  // the distribution's parameters (see Distribution)
  // Per-element parameters: when per_element[i] is set, element k's param[i] is
  // per_element[i][k] (contiguous float64, one per element of the draw; the backends set these
  // from the arrays they are given).
  const double* per_element[2];
};
static_assert(sizeof(DrawParams) == 88, "DrawParams layout (host and NVPTX64 alike)");

// Parameter i of element k of the draw.
inline double parameter(const DrawParams& p, int i, uint64_t k) {
  const double* a = p.per_element[i];
  return a ? a[k] : p.param[i];
}

// A real draw's value as stored: `uniform(low, high)`, `normal(loc, scale)` and
// `exponential(scale)` apply their scalars in the draw's own pass, rounding as the separate
// multiply and add would (float64, no FMA contraction on either device). kAffine: 1 scaled,
// 0 plain, -1 as p.affine says (the CUDA kernel; the CPU's loops decide at compile time, so
// that they vectorise).
template <class T, int kAffine = -1>
inline T finish(const DrawParams& p, double v) {
  if constexpr (kAffine == 1) return T(v * p.scale + p.shift);
  else if constexpr (kAffine == 0) return T(v);
  else return p.affine ? T(v * p.scale + p.shift) : T(v);
}

// One Philox4x32 round: two 32x32 -> 64-bit products, their halves mixed with the other words.
ACCEL_PHILOX_INLINE Block philox_round(Block c, uint32_t k0, uint32_t k1) {
  const uint64_t p0 = uint64_t(0xD2511F53u) * c.v[0];
  const uint64_t p1 = uint64_t(0xCD9E8D57u) * c.v[2];
  Block r;
  r.v[0] = uint32_t(p1 >> 32) ^ c.v[1] ^ k0;
  r.v[1] = uint32_t(p1);
  r.v[2] = uint32_t(p0 >> 32) ^ c.v[3] ^ k1;
  r.v[3] = uint32_t(p0);
  return r;
}

// Philox4x32 with 10 rounds; the key is bumped by the Weyl constants between rounds.
ACCEL_PHILOX_INLINE Block philox4x32_10(Block c, uint32_t k0, uint32_t k1) {
  for (int i = 0; i < 10; ++i) {
    c = philox_round(c, k0, k1);
    k0 += 0x9E3779B9u;
    k1 += 0xBB67AE85u;
  }
  return c;
}

// Block (g, g >> 32, word2, domain): every draw's blocks have this form. The functions below
// that take Blocks take them made here, so that the CPU can make many at a time
// (backend/cpu/philox_blocks.h) and hand them in.
ACCEL_PHILOX_INLINE Block element_block(uint64_t key, uint64_t g, uint32_t word2, uint32_t domain) {
  return philox4x32_10({{uint32_t(g), uint32_t(g >> 32), word2, domain}}, uint32_t(key),
                       uint32_t(key >> 32));
}
ACCEL_PHILOX_INLINE Block block_at(uint64_t key, uint64_t counter, uint32_t attempt) {
  return element_block(key, counter, attempt, 0);
}

ACCEL_PHILOX_INLINE uint64_t word64(const Block& b, int i) {
  return uint64_t(b.v[2 * i]) | (uint64_t(b.v[2 * i + 1]) << 32);
}

ACCEL_PHILOX_INLINE double bits_as_double(uint64_t u) {
#ifdef __CUDACC_RTC__
  return __longlong_as_double(static_cast<long long>(u));
#else
  double d;
  std::memcpy(&d, &u, sizeof d);
  return d;
#endif
}
ACCEL_PHILOX_INLINE uint64_t double_bits(double d) {
#ifdef __CUDACC_RTC__
  return static_cast<uint64_t>(__double_as_longlong(d));
#else
  uint64_t u;
  std::memcpy(&u, &d, sizeof u);
  return u;
#endif
}

// The integer m < 2^52 as a double, from its bits: 2^52 + m has m as its mantissa. The
// conversions below are written with it (and with 32-bit ones) because x86 has no 64-bit
// integer <-> double conversion below AVX-512, and GCC leaves every loop that holds one scalar:
// with them, the CPU's draws (normals, exponentials, float64 uniforms) ran 4x slower.
ACCEL_PHILOX_INLINE double double_of_u52(uint64_t m) {
  return bits_as_double(0x4330000000000000ull | m) - 0x1.0p52;
}
// y < 2^53 as a double (exact): 2 (y >> 1) + (y & 1), each part exact, so the sum is too.
ACCEL_PHILOX_INLINE double double_of_u53(uint64_t y) {
  return double_of_u52(y >> 1) * 2.0 + double_of_u52(y & 1);
}

// [0, 1) in steps of 2^-53, and (0, 1] (for logarithms): (y + 1) 2^-53, y + 1 <= 2^53 exact.
ACCEL_PHILOX_INLINE double unit_closed_open(uint64_t x) { return double_of_u53(x >> 11) * 0x1.0p-53; }
ACCEL_PHILOX_INLINE double unit_open_closed(uint64_t x) {
  return (double_of_u53(x >> 11) + 1.0) * 0x1.0p-53;
}

// Natural log of a positive normal number (fdlibm's __ieee754_log, < 1 ulp; the draws take it of
// uniforms in (0, 1] and of gamma's v): x = 2^e m
// with m in [sqrt(2)/2, sqrt(2)), log(m) = 2s + s R(s^2) with s = (m - 1) / (m + 1).
ACCEL_PHILOX_INLINE double log_unit(double x) {
  const uint64_t bits = double_bits(x);
  uint64_t mbits = (bits & 0x000FFFFFFFFFFFFFull) | 0x3FF0000000000000ull;
  // m in [1, 2): fold the upper part to [sqrt(2)/2, 1) so that |f| is small.
  const bool high = mbits > 0x3FF6A09E667F3BCDull;
  mbits -= high ? 0x0010000000000000ull : 0;
  // The exponent (x > 0: no sign bit), as a double without an integer conversion.
  const double e = double_of_u52(bits >> 52) - 1023.0 + (high ? 1.0 : 0.0);
  const double f = bits_as_double(mbits) - 1.0;
  const double s = f / (2.0 + f);
  const double z = s * s, w = z * z;
  const double t1 = w * (3.999999999940941908e-01 +
                         w * (2.222219843214978396e-01 + w * 1.531383769920937332e-01));
  const double t2 = z * (6.666666666666735130e-01 +
                         w * (2.857142874366239149e-01 +
                              w * (1.818357216161805012e-01 + w * 1.479819860511658591e-01)));
  const double r = t2 + t1, hfsq = 0.5 * f * f, k = e;
  return k * 6.93147180369123816490e-01 -
         ((hfsq - (s * (hfsq + r) + k * 1.90821492927058770002e-10)) - f);
}

// cos(2 pi u) and sin(2 pi u) for u in [0, 1): u * 4 = q + r exactly (u has 53 bits), q the
// quadrant and r in [-1/2, 1/2], then fdlibm's kernel sin/cos at r pi/2, which is within
// [-pi/4, pi/4].
struct CosSin {
  double cos, sin;
};
ACCEL_PHILOX_INLINE CosSin cos_sin_two_pi(double u) {
  const double u4 = u * 4.0;
  const double q = double(int32_t(u4 + 0.5));  // 0 .. 4
  const double x = (u4 - q) * 1.57079632679489661923;
  const double z = x * x;
  const double sin_x =
      x + x * z *
              (-1.66666666666666324348e-01 +
               z * (8.33333333332248946124e-03 +
                    z * (-1.98412698298579493134e-04 +
                         z * (2.75573137070700676789e-06 +
                              z * (-2.50507602534068634195e-08 + z * 1.58969099521155010221e-10)))));
  const double cos_x =
      1.0 - 0.5 * z +
      z * z *
          (4.16666666666666019037e-02 +
           z * (-1.38888888888741095749e-03 +
                z * (2.48015872894767294178e-05 +
                     z * (-2.75573143513906633035e-07 +
                          z * (2.08757232129817482790e-09 + z * -1.13596475577881948265e-11)))));
  // cos and sin of q pi/2 + x: quadrants 0..4 (4 is a full turn), told apart as doubles so
  // that the vector loops compare in the doubles' own lanes.
  const bool odd = (q == 1.0) | (q == 3.0);
  const double c = odd ? sin_x : cos_x, s = odd ? cos_x : sin_x;
  return {((q == 1.0) | (q == 2.0)) ? -c : c, ((q == 2.0) | (q == 3.0)) ? -s : s};
}

// Normals come in pairs: elements g = 2j and 2j + 1 of the stream (g = offset + k) are
// Box-Muller's cosine and sine branches of one block, so a block, a log and a sqrt give two
// values. The block's fourth counter word is 1, apart from every other draw's blocks (0), which
// the pair counter j = g / 2 would otherwise meet.
struct NormalPair {
  double z[2];
};
inline constexpr uint32_t kNormalDomain = 1;
ACCEL_PHILOX_INLINE NormalPair normal_pair_of(const Block& b) {
  const double radius = std::sqrt(-2.0 * log_unit(unit_open_closed(word64(b, 0))));
  const CosSin t = cos_sin_two_pi(unit_closed_open(word64(b, 1)));
  return {{radius * t.cos, radius * t.sin}};
}
ACCEL_PHILOX_INLINE NormalPair normal_pair(uint64_t key, uint64_t j) {
  return normal_pair_of(element_block(key, j, 0, kNormalDomain));
}

// The pairs a draw of n normals at `offset` touches: its first and last may hold one element.
inline uint64_t normal_pair_count(uint64_t offset, uint64_t n) {
  return n == 0 ? 0 : ((offset + n - 1) >> 1) - (offset >> 1) + 1;
}

// Writes the elements of the draw's pair i (of normal_pair_count) that fall in out[0, n).
template <class T, int kAffine = -1>
inline void store_normal_pair(T* out, int64_t n, const DrawParams& p, int64_t i) {
  const NormalPair z = normal_pair(p.key, (p.offset >> 1) + uint64_t(i));
  const int64_t k = 2 * i - int64_t(p.offset & 1);  // the element of z[0]; -1 for none
  if (k >= 0) out[k] = finish<T, kAffine>(p, z.z[0]);
  if (k + 1 < n) out[k + 1] = finish<T, kAffine>(p, z.z[1]);
}

// e^x (fdlibm's __ieee754_exp, < 1 ulp) for x <= 0, as gamma's u^(1/k) needs: x = k ln2 + r,
// |r| <= ln2 / 2, e^r from a rational approximation. Branch-free (both scalings computed, x clamped before its conversion to an integer), so that
// the CPU's gamma loop vectorises with it.
ACCEL_PHILOX_INLINE double exp_nonpositive(double x_in) {
  const bool underflow = x_in < -745.2;
  const double x = underflow ? -745.2 : x_in;
  const double ln2_hi = 6.93147180369123816490e-01, ln2_lo = 1.90821492927058770002e-10;
  const int32_t k = int32_t(x * 1.44269504088896338700e+00 - 0.5);  // -1076 .. 0
  const double hi = x - double(k) * ln2_hi, lo = double(k) * ln2_lo, r = hi - lo;
  const double t = r * r;
  const double c =
      r - t * (1.66666666666666019037e-01 +
               t * (-2.77777777770155933842e-03 +
                    t * (6.61375632143793436117e-05 +
                         t * (-1.65339022054652515390e-06 + t * 4.13813679705723846039e-08))));
  const double y = 1.0 - ((lo - (r * c) / (2.0 - c)) - hi);
  // y 2^k as y 2^(k + 1000) 2^-1000: the first product is exact, the second rounds only where
  // the result is subnormal (k < -1021), so this is y 2^k correctly rounded for every k here.
  const double scaled = y * bits_as_double(uint64_t(uint32_t(1023 + k + 1000)) << 52) * 0x1.0p-1000;
  return scaled * (underflow ? 0.0 : 1.0);  // a product, not a branch: it vectorises
}

// Exponentials take a 64-bit word each: elements 2q and 2q + 1 of the stream are block
// (q, 0, 0, 9)'s two words, -log of a uniform in (0, 1] (1 - u exactly, u in [0, 1)).
inline constexpr uint32_t kExponentialDomain = 9;
ACCEL_PHILOX_INLINE double standard_exponential(const Block& b, int word) {
  return -log_unit(unit_open_closed(word64(b, word)));
}

// x * range / 2^64 (the high word of the 128-bit product) and its low word.
inline uint64_t mul_high(uint64_t x, uint64_t range, uint64_t& low) {
  low = x * range;
#ifdef __CUDACC_RTC__
  return __umul64hi(x, range);
#else
  return uint64_t((static_cast<unsigned __int128>(x) * range) >> 64);
#endif
}

// Lemire's nearly-divisionless method (2019), unbiased: a 64-bit candidate x maps to
// floor(x * range / 2^64), rejected when the product's low word falls below 2^64 mod range.
// Each block holds two candidates; when both are rejected (probability below (range/2^64)^2)
// the next attempt takes the block at the same counter with the attempt word increased.
inline uint64_t bounded(uint64_t key, uint64_t counter, Block b, uint64_t range) {
  if (range == 0) return word64(b, 0);  // the full 64-bit range
  for (uint32_t attempt = 1;; ++attempt) {
    for (int i = 0; i < 2; ++i) {
      uint64_t low;
      const uint64_t high = mul_high(word64(b, i), range, low);
      // The threshold is below range, so the division is needed only when low < range.
      if (low >= range || low >= (0 - range) % range) return high;
    }
    b = block_at(key, counter, attempt);
  }
}

// Uniforms use every bit a block has: float32 takes 24 bits of one 32-bit word, so elements
// g = 4q .. 4q + 3 of the stream are the four words of block q; float64 takes 53 bits of a 64-bit
// word, so elements 2q and 2q + 1 are the two words of block q. Their blocks have their own
// fourth counter word (2 and 3), as normals' pairs do, apart from every other draw's blocks.
ACCEL_PHILOX_INLINE Block uniform_block(uint64_t key, uint64_t q, uint32_t domain) {
  return element_block(key, q, 0, domain);
}
inline constexpr uint32_t kUniformFloat32Domain = 2, kUniformFloat64Domain = 3;
ACCEL_PHILOX_INLINE float uniform_float32(const Block& b, int word) { return float(b.v[word] >> 8) * 0x1.0p-24f; }
ACCEL_PHILOX_INLINE double uniform_float64(const Block& b, int word) { return unit_closed_open(word64(b, word)); }

// Standard gamma of shape a >= 0 for element g (Marsaglia and Tsang 2000): d = a - 1/3,
// c = 1 / sqrt(9d); a normal x and a uniform u per attempt, from blocks (g, attempt, 0, 4) and
// (g, attempt, 0, 5); accept d v with v = (1 + c x)^3 > 0 when u < 1 - 0.0331 x^4 or
// log u < x^2 / 2 + d (1 - v + log v). Shapes below 1 draw shape a + 1 and multiply by
// u^(1/a), u from block (g, 0, 0, 6). Expected attempts: at most 1.05.
// Marsaglia and Tsang's constants for shape a (shapes below 1 draw shape a + 1).
struct GammaShape {
  double d, c;
};
ACCEL_PHILOX_INLINE GammaShape gamma_shape(double a) {
  const double d = (a < 1.0 ? a + 1.0 : a) - 1.0 / 3.0;
  return {d, 1.0 / std::sqrt(9.0 * d)};
}

// Attempt `attempt` of element g: true, with d v in value, when accepted. Branch-free (both
// tests evaluated), so that the CPU can run every element's first attempt in a vector loop
// and redo the few rejected ones through standard_gamma, with the same bits.
inline constexpr uint32_t kGammaNormalDomain = 4, kGammaUniformDomain = 5, kGammaBoostDomain = 6;
ACCEL_PHILOX_INLINE bool gamma_attempt(const Block& bn, const Block& bu, GammaShape s,
                                       double& value) {
  const double x = std::sqrt(-2.0 * log_unit(unit_open_closed(word64(bn, 0)))) *
                   cos_sin_two_pi(unit_closed_open(word64(bn, 1))).cos;
  const double t = 1.0 + s.c * x;
  const double v = t * t * t;  // its log is read only where t > 0
  const double u = unit_open_closed(word64(bu, 0));
  const double x2 = x * x;
  value = s.d * v;
  return (t > 0.0) & ((u < 1.0 - 0.0331 * x2 * x2) |
                      (log_unit(u) < 0.5 * x2 + s.d * (1.0 - v + log_unit(v))));
}

// The u^(1/a) factor of a shape a below 1, u from block (g, 0, 0, 6).
ACCEL_PHILOX_INLINE double gamma_boost(const Block& bb, double a) {
  return exp_nonpositive(log_unit(unit_open_closed(word64(bb, 0))) / a);
}

inline double standard_gamma(uint64_t key, uint64_t g, double a) {
  if (a == 0.0) return 0.0;  // the limit, as NumPy's
  const GammaShape s = gamma_shape(a);
  double value = 0.0;
  for (uint32_t attempt = 0;
       !gamma_attempt(element_block(key, g, attempt, kGammaNormalDomain),
                      element_block(key, g, attempt, kGammaUniformDomain), s, value);
       ++attempt) {
  }
  return a >= 1.0 ? value : value * gamma_boost(element_block(key, g, 0, kGammaBoostDomain), a);
}

// Counts (Poisson and binomial) draw element g's uniforms from blocks (g, i, 0, domain), i = 0,
// 1, ... as they need them, two 53-bit uniforms per block.
inline constexpr uint32_t kPoissonDomain = 7, kBinomialDomain = 8;

// log(1 + x) for x > -1, accurate for small x too (Goldberg's correction of log(1 + x) by
// the rounding of 1 + x).
ACCEL_PHILOX_INLINE double log_one_plus(double x) {
  const double w = 1.0 + x;
  if (w == 1.0) return x;
  return log_unit(w) * (x / (w - 1.0));
}

// log(k!) - ((k + 1/2) log(k + 1) - (k + 1) + log(2 pi) / 2): Stirling's formula's error at
// x = k + 1, from a table below 10 and the asymptotic series (Bernoulli numbers) above, where
// the first omitted term is below 1e-15. Counts compare log-probabilities through it, so that
// the large terms cancel exactly instead of in rounded log-gammas.
// Branch-free, and safe for any k (rejection attempts evaluate it before testing k's range):
// the table is a chain of selects, which vectorises where a lookup would be a gather.
ACCEL_PHILOX_INLINE double stirling_tail(double k) {
  double table = 0x1.10f9d4c0743a7p-7;
  table = k < 9.0 ? 0x1.2f4871b12ab64p-7 : table;
  table = k < 8.0 ? 0x1.552805e7b3076p-7 : table;
  table = k < 7.0 ? 0x1.85d4d612e4a86p-7 : table;
  table = k < 6.0 ? 0x1.c6b167bebdf36p-7 : table;
  table = k < 5.0 ? 0x1.10b4e513fcbedp-6 : table;
  table = k < 4.0 ? 0x1.54a2662fd78a9p-6 : table;
  table = k < 3.0 ? 0x1.c579a268d80b3p-6 : table;
  table = k < 2.0 ? 0x1.52a9b923ea649p-5 : table;
  table = k < 1.0 ? 0x1.4c071bcda0a5bp-4 : table;
  const double x = k + 1.0, z = 1.0 / (x * x);
  const double series = (0.08333333333333333 -
                         z * (0.002777777777777778 -
                              z * (0.0007936507936507937 -
                                   z * (0.0005952380952380953 -
                                        z * (0.0008417508417508417 -
                                             z * 0.0019175269175269176))))) /
                        x;
  return k < 10.0 ? table : series;
}

// Hormann's PTRS for a Poisson mean lam >= 10: its constants, and one attempt (block
// (g, attempt, 0, 7)): true, with the count in k, when accepted. Branch-free (every test
// evaluated, the acceptance their combination), so that the CPU runs every element's first
// attempt in a vector loop; the test is log V + log(1/alpha) - log(a / us^2 + b) <=
// log(lam^k e^-lam / k!), written with stirling_tail and log_one_plus so that it stays exact
// for large lam.
struct PtrsSetup {
  double lam, b, a, log_inv_alpha, vr;
};
ACCEL_PHILOX_INLINE PtrsSetup ptrs_setup(double lam) {
  const double b = 0.931 + 2.53 * std::sqrt(lam);
  return {lam, b, -0.059 + 0.02483 * b, log_unit(1.1239 + 1.1328 / (b - 3.4)),
          0.9277 - 3.6224 / (b - 2.0)};
}
// A transformed-rejection attempt's two uniforms (PTRS and BTRS alike): u in [-1/2, 1/2),
// v in (0, 1] (so that log v is finite), and us = 1/2 - |u|.
struct TrsUniforms {
  double u, v, us;
};
ACCEL_PHILOX_INLINE TrsUniforms trs_uniforms(const Block& blk) {
  const double u = unit_closed_open(word64(blk, 0)) - 0.5;
  return {u, unit_open_closed(word64(blk, 1)), 0.5 - std::fabs(u)};
}

ACCEL_PHILOX_INLINE bool ptrs_attempt(const Block& blk, const PtrsSetup& s, double& k) {
  const auto [u, v, us] = trs_uniforms(blk);
  k = std::floor((2.0 * s.a / us + s.b) * u + s.lam + 0.43);
  const bool squeeze = (us >= 0.07) & (v <= s.vr);
  const bool skip = (us < 0.013) & (v > us);
  // log(lam^k e^-lam / k!) = (k + 1 - lam) + k log(lam / (k + 1)) - log(k + 1) / 2
  //                          - log(2 pi) / 2 - stirling_tail(k)
  const double log_p = (k + 1.0 - s.lam) + k * log_one_plus((s.lam - (k + 1.0)) / (k + 1.0)) -
                       0.5 * log_unit(k + 1.0) - 0.91893853320467274 - stirling_tail(k);
  const bool test = log_unit(v) + s.log_inv_alpha - log_unit(s.a / (us * us) + s.b) <= log_p;
  return (k >= 0.0) & (squeeze | (!skip & test));
}

// Poisson of mean lam >= 0 for element g. Below 10: inversion of one uniform, walking the
// probabilities up from e^-lam (a few steps on average; the walk stops where the probabilities
// left are below 2^-60). From 10: Hormann's transformed rejection with squeeze (PTRS, 1993;
// NumPy's method too), one block per attempt, about 1.15 attempts on average.
inline int64_t poisson(uint64_t key, uint64_t g, double lam) {
  if (lam == 0.0) return 0;
  if (lam < 10.0) {
    const Block b = element_block(key, g, 0, kPoissonDomain);
    double u = unit_closed_open(word64(b, 0));
    double prob = exp_nonpositive(-lam);
    int64_t k = 0;
    while (u > prob) {
      u -= prob;
      ++k;
      prob *= lam / double(k);
      if (prob < 0x1.0p-60 && double(k) > lam) break;
    }
    return k;
  }
  const PtrsSetup s = ptrs_setup(lam);
  double k = 0.0;
  for (uint32_t attempt = 0;
       !ptrs_attempt(element_block(key, g, attempt, kPoissonDomain), s, k); ++attempt) {
  }
  return int64_t(k);
}

// Hormann's BTRS for n trials with probability q <= 1/2, n q >= 10: its constants, and one
// attempt (block (g, attempt, 0, 8)): true, with the count in k, when accepted. Branch-free,
// as ptrs_attempt.
struct BtrsSetup {
  double n, b, a, c, vr, alpha, r, m, log_mode_terms;
};
ACCEL_PHILOX_INLINE BtrsSetup btrs_setup(double n, double q) {
  const double spq = std::sqrt(n * q * (1.0 - q));
  const double b = 1.15 + 2.53 * spq;
  const double r = q / (1.0 - q);
  const double m = std::floor((n + 1.0) * q);
  return {n,
          b,
          -0.0873 + 0.0248 * b + 0.01 * q,
          n * q + 0.5,
          0.92 - 4.2 / b,
          (2.83 + 5.1 / b) * spq,
          r,
          m,
          (m + 0.5) * log_unit((m + 1.0) / (r * (n - m + 1.0))) + stirling_tail(m) +
              stirling_tail(n - m)};
}
ACCEL_PHILOX_INLINE bool btrs_attempt(const Block& blk, const BtrsSetup& s, double& k) {
  const auto [u, v, us] = trs_uniforms(blk);
  k = std::floor((2.0 * s.a / us + s.b) * u + s.c);
  const bool in_range = (k >= 0.0) & (k <= s.n);
  const bool squeeze = (us >= 0.07) & (v <= s.vr);
  // log(f(k) / f(m)) for f the binomial probabilities, by Stirling's formula at k, n - k, m
  // and n - m: the linear terms cancel.
  const double log_ratio = s.log_mode_terms +
                           (s.n + 1.0) * log_one_plus((k - s.m) / (s.n - k + 1.0)) +
                           (k + 0.5) * log_unit(s.r * (s.n - k + 1.0) / (k + 1.0)) -
                           stirling_tail(k) - stirling_tail(s.n - k);
  const bool test = log_unit(v * s.alpha / (s.a / (us * us) + s.b)) <= log_ratio;
  return in_range & (squeeze | test);
}

// Binomial of n trials (an integer below 2^53, as a double) with probability p in [0, 1] for
// element g. Draws with q = min(p, 1 - p) and returns n - k for p > 1/2. Where n q < 10:
// inversion of one uniform from (1 - q)^n up (at most n q + a few steps on average); else
// Hormann's BTRS (1993, as in TensorFlow and JAX), one block per attempt, its acceptance test
// log V <= log(f(k) / f(m)) at the mode m written with stirling_tail, exact for large n.
inline int64_t binomial(uint64_t key, uint64_t g, double n, double p) {
  const bool flip = p > 0.5;
  const double q = flip ? 1.0 - p : p;  // exact for p > 1/2
  if (n == 0.0 || q == 0.0) return flip ? int64_t(n) : 0;
  double k;
  if (n * q < 10.0) {
    const Block b = element_block(key, g, 0, kBinomialDomain);
    double u = unit_closed_open(word64(b, 0));
    const double odds = q / (1.0 - q);
    double prob = exp_nonpositive(n * log_one_plus(-q));
    k = 0.0;
    while (u > prob && k < n) {
      u -= prob;
      k += 1.0;
      prob *= odds * ((n - k + 1.0) / k);
      if (prob < 0x1.0p-60 && k > n * q) break;
    }
  } else {
    const BtrsSetup s = btrs_setup(n, q);
    for (uint32_t attempt = 0;
         !btrs_attempt(element_block(key, g, attempt, kBinomialDomain), s, k); ++attempt) {
    }
  }
  return int64_t(flip ? n - k : k);
}

// Element k of a draw, as type T (float, double, or an integer type for kIntegers); normals
// are drawn by pairs instead (store_normal_pair).
template <class T, int kDistribution, int kAffine = -1>
inline T draw(const DrawParams& p, uint64_t k) {
  static_assert(kDistribution != kNormal, "normals are drawn by pairs: store_normal_pair");
  const uint64_t counter = p.offset + k;
  if constexpr (kDistribution == kUniform) {
    if constexpr (sizeof(T) == 4)
      return finish<T, kAffine>(p, uniform_float32(uniform_block(p.key, counter >> 2,
                                                        kUniformFloat32Domain),
                                          int(counter & 3)));
    else
      return finish<T, kAffine>(p, uniform_float64(uniform_block(p.key, counter >> 1,
                                                        kUniformFloat64Domain),
                                          int(counter & 1)));
  } else if constexpr (kDistribution == kGamma) {
    return finish<T, kAffine>(p, standard_gamma(p.key, counter, parameter(p, 0, k)));
  } else if constexpr (kDistribution == kPoisson) {
    return T(poisson(p.key, counter, parameter(p, 0, k)));
  } else if constexpr (kDistribution == kBinomial) {
    return T(binomial(p.key, counter, parameter(p, 0, k), parameter(p, 1, k)));
  } else {
    if constexpr (kDistribution == kExponential)
      return finish<T, kAffine>(
          p, standard_exponential(uniform_block(p.key, counter >> 1, kExponentialDomain),
                                  int(counter & 1)));
    else
      return T(uint64_t(p.low) + bounded(p.key, counter, block_at(p.key, counter, 0), p.range));
  }
}

}  // namespace accel::philox
