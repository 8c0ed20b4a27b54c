// CpuBackend::random: philox.h's draws over element ranges split across the pool. Each element
// computes its own counter from its index (offset + k), so the split does not change a value;
// the loop body is branch-free and vectorises (AVX2/AVX-512 here), for integers too where the
// range is below 2^32 (fill_integers_narrow); uniforms fill a block's worth of elements at once.
#include <algorithm>

#include "accel/backend/cpu/cpu_backend.h"
#include "accel/backend/cpu/philox_blocks.h"
#include "accel/backend/cpu/thread_pool.h"
#include "accel/device_src/philox.h"
#include "accel/runtime/errors.h"

namespace accel::cpu {
namespace {

constexpr int64_t kParallelGrain = 16384;

#define ACCEL_INLINE_LAMBDA __attribute__((always_inline))

// Blocks q0 .. q0 + count - 1 (philox::element_block(key, q, word2, domain)) a chunk at a time:
// body(chunk, first, m) gets the chunk of m blocks whose first is block q0 + first.
template <class Body>
inline void for_each_chunk(uint64_t key, uint64_t q0, int64_t count, uint32_t word2,
                           uint32_t domain, Body body) {
  PhiloxChunk chunk;
  for (int64_t first = 0; first < count; first += PhiloxChunk::kSize) {
    const int64_t m = std::min(PhiloxChunk::kSize, count - first);
    chunk.fill(key, q0 + uint64_t(first), m, word2, domain);
    body(chunk, first, m);
  }
}

template <class T, int kDistribution, int kAffine>
void fill_range(T* __restrict out, int64_t begin, int64_t end, const philox::DrawParams& p) {
  for (int64_t k = begin; k < end; ++k)
    out[k] = philox::draw<T, kDistribution, kAffine>(p, uint64_t(k));
}

template <class T, int kDistribution>
void fill(const Array& out, const philox::DrawParams& p) {
  T* data = out.data<T>();
  parallel_for(out.size(), kParallelGrain, [&](int64_t begin, int64_t end) {
    if (p.affine)
      fill_range<T, kDistribution, 1>(data, begin, end, p);
    else
      fill_range<T, kDistribution, 0>(data, begin, end, p);
  });
}

// Exponentials a block at a time (two per block, philox.h); the range's ends one by one.
template <class T, int kAffine>
void fill_exponential_range(T* __restrict out, int64_t begin, int64_t end,
                            const philox::DrawParams& p) {
  int64_t k = begin;
  for (; k < end && (p.offset + uint64_t(k)) % 2 != 0; ++k)
    out[k] = philox::draw<T, philox::kExponential, kAffine>(p, uint64_t(k));
  const int64_t blocks = (end - k) / 2;
  const uint64_t q0 = (p.offset + uint64_t(k)) / 2;
  T* __restrict o = out + k;
  for_each_chunk(p.key, q0, blocks, 0, philox::kExponentialDomain,
                 [&](const PhiloxChunk& c, int64_t first, int64_t m) ACCEL_INLINE_LAMBDA {
                   T* __restrict oc = o + 2 * first;
                   for (int64_t i = 0; i < m; ++i) {
                     const philox::Block b = c.block(i);
                     oc[2 * i] = philox::finish<T, kAffine>(p, philox::standard_exponential(b, 0));
                     oc[2 * i + 1] =
                         philox::finish<T, kAffine>(p, philox::standard_exponential(b, 1));
                   }
                 });
  for (k += blocks * 2; k < end; ++k)
    out[k] = philox::draw<T, philox::kExponential, kAffine>(p, uint64_t(k));
}

template <class T>
void fill_exponential(const Array& out, const philox::DrawParams& p) {
  T* data = out.data<T>();
  parallel_for(out.size(), kParallelGrain, [&](int64_t begin, int64_t end) {
    if (p.affine)
      fill_exponential_range<T, 1>(data, begin, end, p);
    else
      fill_exponential_range<T, 0>(data, begin, end, p);
  });
}

// Uniforms a block at a time (philox.h: four float32 or two float64 per block): a range that
// starts or ends inside a block draws those elements one by one, as the CUDA kernel draws each.
template <class T>
void fill_uniform_range(T* __restrict out, int64_t begin, int64_t end,
                        const philox::DrawParams& p) {
  constexpr int kPer = sizeof(T) == 4 ? 4 : 2;
  constexpr uint32_t kDomain =
      sizeof(T) == 4 ? philox::kUniformFloat32Domain : philox::kUniformFloat64Domain;
  int64_t k = begin;
  for (; k < end && (p.offset + uint64_t(k)) % kPer != 0; ++k)
    out[k] = philox::draw<T, philox::kUniform>(p, uint64_t(k));
  const int64_t blocks = (end - k) / kPer;
  const uint64_t q0 = (p.offset + uint64_t(k)) / kPer;
  T* __restrict o = out + k;
  auto run = [&](auto value) {
    for_each_chunk(p.key, q0, blocks, 0, kDomain,
                   [&](const PhiloxChunk& c, int64_t first, int64_t m) ACCEL_INLINE_LAMBDA {
                     T* __restrict oc = o + kPer * first;
                     for (int64_t i = 0; i < m; ++i) {
                       const philox::Block b = c.block(i);
                       for (int w = 0; w < kPer; ++w) {
                         if constexpr (kPer == 4)
                           oc[kPer * i + w] = value(philox::uniform_float32(b, w));
                         else
                           oc[kPer * i + w] = value(philox::uniform_float64(b, w));
                       }
                     }
                   });
  };
  // Two loops, so the plain one keeps float32 arithmetic and vectorises as before.
  if (p.affine)
    run([&](double u) { return T(u * p.scale + p.shift); });
  else
    run([](auto u) { return T(u); });
  for (k += blocks * kPer; k < end; ++k) out[k] = philox::draw<T, philox::kUniform>(p, uint64_t(k));
}

template <class T>
void fill_uniform(const Array& out, const philox::DrawParams& p) {
  T* data = out.data<T>();
  parallel_for(out.size(), kParallelGrain,
               [&](int64_t begin, int64_t end) { fill_uniform_range<T>(data, begin, end, p); });
}

// The shape of every rejection sampler's CPU loop: `prepare(s, e)` makes the first attempts'
// blocks of elements s .. e - 1 (PhiloxChunks), `first(k, k - s)` writes element k's first
// attempt from them and returns whether it must be redone; it is branch-free, so that this loop
// over chunks of elements vectorises (the lambdas passed as `first` are ACCEL_INLINE_LAMBDA: GCC
// otherwise keeps a body this large as a call, and a loop with a call stays scalar; gamma and
// Poisson ran at a third of their vector speed). `redo(k)` then draws the elements it did not
// finish through philox.h's scalar function, which repeats the same first attempt: every value
// is the one the CUDA kernel draws.
template <class Prepare, class First, class Redo>
inline void first_attempts_then_redo(int64_t begin, int64_t end, Prepare prepare, First first,
                                     Redo redo) {
  constexpr int64_t kSub = PhiloxChunk::kSize;
  uint8_t again[kSub];
  for (int64_t s = begin; s < end; s += kSub) {
    const int64_t e = std::min(end, s + kSub);
    prepare(s, e);
    uint8_t any = 0;
    for (int64_t k = s; k < e; ++k) {
      const uint8_t a = first(k, k - s);
      again[k - s] = a;
      any |= a;
    }
    if (!any) continue;
    for (int64_t k = s; k < e; ++k)
      if (again[k - s]) redo(k);
  }
}

// x * range (range < 2^32) as philox::mul_high computes it, from 32 x 32-bit products, which
// SIMD units have (they have no 64-bit high multiply): x = xh 2^32 + xl, so the product is
// (xh range) 2^32 + xl range, whose middle sum cannot overflow.
inline uint64_t mul_high_narrow(uint64_t x, uint64_t range, uint64_t& low) {
  const uint64_t pl = (x & 0xFFFFFFFFu) * range, ph = (x >> 32) * range;
  low = (ph << 32) + pl;
  return (ph + (pl >> 32)) >> 32;
}

// philox::bounded's values for ranges below 2^32, in a loop that vectorises: the rejection
// threshold (2^64 mod range) once per draw instead of a test per element, and the product from
// 32-bit halves. Elements whose two candidates are both rejected (probability (range / 2^64)^2)
// are redone by philox::bounded itself afterwards, so every value is the one the CUDA kernel
// draws.
template <class T>
void fill_integers_narrow(T* __restrict out, int64_t begin, int64_t end,
                          const philox::DrawParams& p) {
  const uint64_t range = p.range, threshold = (0 - range) % range;
  // out, range and threshold by value: a store through a char-sized out may alias anything in
  // memory, the closure included, and would keep them from being hoisted out of the loop.
  PhiloxChunk c;  // philox::block_at(key, g, 0): element_block(key, g, 0, 0)
  first_attempts_then_redo(
      begin, end,
      [&](int64_t s, int64_t e) { c.fill(p.key, p.offset + uint64_t(s), e - s, 0, 0); },
      [&c, &p, out, range, threshold](int64_t k, int64_t j) ACCEL_INLINE_LAMBDA {
        uint64_t low0, low1;
        const uint64_t high0 = mul_high_narrow(c.lo[j], range, low0);
        const uint64_t high1 = mul_high_narrow(c.hi[j], range, low1);
        const bool first = low0 >= threshold;
        out[k] = T(uint64_t(p.low) + (first ? high0 : high1));
        return uint8_t(!first & (low1 < threshold));
      },
      [&](int64_t k) { out[k] = philox::draw<T, philox::kIntegers>(p, uint64_t(k)); });
}

template <class T>
void fill_integers(const Array& out, const philox::DrawParams& p) {
  if (p.range == 0 || p.range > 0xFFFFFFFFu) return fill<T, philox::kIntegers>(out, p);
  T* data = out.data<T>();
  parallel_for(out.size(), kParallelGrain, [&](int64_t begin, int64_t end) {
    fill_integers_narrow<T>(data, begin, end, p);
  });
}

// Normals by pairs (philox::normal_pair), split over the pool by pair: whole pairs in a loop
// without the bounds tests of store_normal_pair, so that it vectorises; the draw's first and
// last pair, which may hold one element, through store_normal_pair.
template <class T, int kAffine>
void fill_normal(const Array& out, const philox::DrawParams& p) {
  T* data = out.data<T>();
  const int64_t n = out.size();
  const auto pairs = static_cast<int64_t>(philox::normal_pair_count(p.offset, uint64_t(n)));
  if (pairs == 0) return;
  philox::store_normal_pair<T, kAffine>(data, n, p, 0);
  if (pairs > 1) philox::store_normal_pair<T, kAffine>(data, n, p, pairs - 1);
  // Pair i holds elements 2i - (offset & 1) and the next.
  const int64_t odd = int64_t(p.offset & 1);
  const uint64_t j0 = p.offset >> 1;
  parallel_for(pairs - 2, kParallelGrain / 2, [&](int64_t begin, int64_t end) {
    for_each_chunk(p.key, j0 + uint64_t(begin + 1), end - begin, 0, philox::kNormalDomain,
                   [&](const PhiloxChunk& c, int64_t first, int64_t m) ACCEL_INLINE_LAMBDA {
                     T* __restrict o = data + 2 * (begin + 1 + first) - odd;
                     for (int64_t i = 0; i < m; ++i) {
                       const philox::NormalPair z = philox::normal_pair_of(c.block(i));
                       o[2 * i] = philox::finish<T, kAffine>(p, z.z[0]);
                       o[2 * i + 1] = philox::finish<T, kAffine>(p, z.z[1]);
                     }
                   });
  });
}

// Gamma's first attempt for every element in a loop that vectorises (philox::gamma_attempt and
// gamma_boost are branch-free; about 98% of first attempts are accepted at shape 1, more
// above), then the elements rejected, or of shape 0, redone by philox::standard_gamma, which
// repeats the same first attempt: every value is the CUDA kernel's. kBoost: shapes below 1
// may occur (their u^(1/a) factor is computed, and applied where a < 1).
template <class T, int kAffine, bool kPerElement, bool kBoost>
void fill_gamma_range(T* __restrict out, int64_t begin, int64_t end, const philox::DrawParams& p) {
  PhiloxChunk normals, uniforms, boosts;
  first_attempts_then_redo(
      begin, end,
      [&](int64_t s, int64_t e) {
        const uint64_t g = p.offset + uint64_t(s);
        normals.fill(p.key, g, e - s, 0, philox::kGammaNormalDomain);
        uniforms.fill(p.key, g, e - s, 0, philox::kGammaUniformDomain);
        if constexpr (kBoost) boosts.fill(p.key, g, e - s, 0, philox::kGammaBoostDomain);
      },
      [&](int64_t k, int64_t j) ACCEL_INLINE_LAMBDA {
        const double a = kPerElement ? p.per_element[0][k] : p.param[0];
        double value;
        const bool accepted = philox::gamma_attempt(normals.block(j), uniforms.block(j),
                                                    philox::gamma_shape(a), value);
        if constexpr (kBoost) {
          const double boosted = value * philox::gamma_boost(boosts.block(j), a);
          value = a < 1.0 ? boosted : value;
        }
        out[k] = philox::finish<T, kAffine>(p, value);
        return uint8_t(!accepted | (a == 0.0));
      },
      [&](int64_t k) { out[k] = philox::draw<T, philox::kGamma, kAffine>(p, uint64_t(k)); });
}

template <class T>
void fill_gamma(const Array& out, const philox::DrawParams& p) {
  T* data = out.data<T>();
  const bool per_element = p.per_element[0], boost = per_element || p.param[0] < 1.0;
  parallel_for(out.size(), kParallelGrain / 4, [&](int64_t begin, int64_t end) {
    if (per_element) {
      if (p.affine) fill_gamma_range<T, 1, true, true>(data, begin, end, p);
      else fill_gamma_range<T, 0, true, true>(data, begin, end, p);
    } else if (boost) {
      if (p.affine) fill_gamma_range<T, 1, false, true>(data, begin, end, p);
      else fill_gamma_range<T, 0, false, true>(data, begin, end, p);
    } else {
      if (p.affine) fill_gamma_range<T, 1, false, false>(data, begin, end, p);
      else fill_gamma_range<T, 0, false, false>(data, begin, end, p);
    }
  });
}

// Counts: the first attempt of the rejection methods (philox::ptrs_attempt, btrs_attempt,
// branch-free) for every element in a loop that vectorises, then the elements rejected, and
// those drawn by inversion (Poisson means below 10, binomials with n min(p, 1 - p) below 10),
// redone by philox::poisson / binomial, which repeat the same first attempt: every value is
// the CUDA kernel's.
template <int kDistribution, bool kPerElement>
void fill_counts_range(int64_t* __restrict out, int64_t begin, int64_t end,
                       const philox::DrawParams& p) {
  constexpr uint32_t kDomain =
      kDistribution == philox::kPoisson ? philox::kPoissonDomain : philox::kBinomialDomain;
  PhiloxChunk c;
  first_attempts_then_redo(
      begin, end,
      [&](int64_t s, int64_t e) { c.fill(p.key, p.offset + uint64_t(s), e - s, 0, kDomain); },
      [&](int64_t k, int64_t j) ACCEL_INLINE_LAMBDA {
        const double first = kPerElement ? p.per_element[0][k] : p.param[0];
        double count = 0.0;
        bool fast;
        if constexpr (kDistribution == philox::kPoisson) {
          fast = philox::ptrs_attempt(c.block(j), philox::ptrs_setup(first), count) &
                 (first >= 10.0);
        } else {
          const double prob = kPerElement ? p.per_element[1][k] : p.param[1];
          const bool flip = prob > 0.5;
          const double q = flip ? 1.0 - prob : prob;
          fast = philox::btrs_attempt(c.block(j), philox::btrs_setup(first, q), count) &
                 (first * q >= 10.0);
          count = flip ? first - count : count;
        }
        // The count's integer from its bits (count + 2^52 has it as its mantissa): x86 has no
        // vector double -> int64 conversion below AVX-512. Counts from 2^52 are redone.
        fast = fast & (count < 0x1.0p52);
        out[k] = int64_t(philox::double_bits(count + 0x1.0p52) & 0x000FFFFFFFFFFFFFull);
        return uint8_t(!fast);
      },
      [&](int64_t k) { out[k] = philox::draw<int64_t, kDistribution, 0>(p, uint64_t(k)); });
}

template <int kDistribution>
void fill_counts(const Array& out, const philox::DrawParams& p) {
  int64_t* data = out.data<int64_t>();
  const bool per_element = p.per_element[0];
  // One parameter set drawn by inversion for every element: the scalar loop alone.
  const double q = p.param[1] > 0.5 ? 1.0 - p.param[1] : p.param[1];
  const bool inversion = kDistribution == philox::kPoisson ? p.param[0] < 10.0 : p.param[0] * q < 10.0;
  parallel_for(out.size(), kParallelGrain / 8, [&](int64_t begin, int64_t end) {
    if (per_element) fill_counts_range<kDistribution, true>(data, begin, end, p);
    else if (!inversion) fill_counts_range<kDistribution, false>(data, begin, end, p);
    else fill_range<int64_t, kDistribution, 0>(data, begin, end, p);
  });
}

template <class T>
void fill_real(const Array& out, const philox::DrawParams& p) {
  switch (p.distribution) {
    case philox::kUniform:
      return fill_uniform<T>(out, p);
    case philox::kNormal:
      return p.affine ? fill_normal<T, 1>(out, p) : fill_normal<T, 0>(out, p);
    case philox::kExponential:
      return fill_exponential<T>(out, p);
    case philox::kGamma:
      return fill_gamma<T>(out, p);
    default:
      throw DTypeError("[random] integers cannot be drawn as " + std::string(dtype_name(out.dtype())));
  }
}

}  // namespace

void CpuBackend::random(const Array& out, const philox::DrawParams& drawn,
                        std::span<const Array> per_element) {
  philox::DrawParams params = drawn;
  for (size_t i = 0; i < per_element.size() && i < 2; ++i)
    params.per_element[i] = per_element[i].data<double>();
  const Dtype dt = out.dtype();
  if (params.distribution == philox::kPoisson || params.distribution == philox::kBinomial) {
    if (dt != Dtype::int64)
      throw DTypeError("[random] counts are drawn as int64, not " + std::string(dtype_name(dt)));
    return params.distribution == philox::kPoisson ? fill_counts<philox::kPoisson>(out, params)
                                                   : fill_counts<philox::kBinomial>(out, params);
  }
  if (params.distribution != philox::kIntegers) {
    if (dt == Dtype::float32) return fill_real<float>(out, params);
    if (dt == Dtype::float64) return fill_real<double>(out, params);
    throw DTypeError("[random] real distributions are drawn as float32 or float64, not " +
                     std::string(dtype_name(dt)));
  }
  switch (dt) {
#define ACCEL_DTYPE(name, ctype, str, kind) \
  case Dtype::name:                         \
    if constexpr (std::is_integral_v<ctype>) return fill_integers<ctype>(out, params); \
    else break;
#include "accel/core/dtype.def"
#undef ACCEL_DTYPE
    default:
      break;
  }
  throw DTypeError("[random] integers are drawn as an integer dtype or bool, not " +
                   std::string(dtype_name(dt)));
}

}  // namespace accel::cpu
