// Scalar functors of every elementwise op in ops.def, each defined once. The CPU loops, the
// CPU interpreter of fused kernels and the code generators all call these.
// Semantics follow NumPy 2, including its answers for the edge cases C++ leaves undefined:
// integer division by zero gives 0, INT_MIN / -1 wraps, shifts past the width give 0 or -1.
// Except where the Array API standard says otherwise (issue 12; docs/ARCHITECTURE.md, "Where
// accel departs from NumPy"): floor_divide at infinities, complex expm1 and tanh at ±inf.
#pragma once
#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <type_traits>

// The 16-bit float storage types: accel::half and accel::bfloat16_t on the host (the library
// includes them; the host JIT prepends their text), CUDA's __half and __nv_bfloat16 where the
// kernel included <cuda_fp16.h> and <cuda_bf16.h>.
#if !defined(__CUDACC_RTC__) && !defined(__CUDACC__) && !defined(ACCEL_HALF_H)
#include "accel/core/half.h"
#endif
#if !defined(__CUDACC_RTC__) && !defined(__CUDACC__) && !defined(ACCEL_BFLOAT16_H)
#include "accel/core/bfloat16.h"
#endif
#if defined(ACCEL_HALF_H)
#define ACCEL_HAS_HALF 1
#elif defined(__CUDA_FP16_H__)
#define ACCEL_HAS_HALF 1
namespace accel {
using half = __half;
}  // namespace accel
#endif
#if defined(ACCEL_BFLOAT16_H)
#define ACCEL_HAS_BFLOAT16 1
#elif defined(__CUDA_BF16_H__)
#define ACCEL_HAS_BFLOAT16 1
namespace accel {
using bfloat16_t = __nv_bfloat16;
}  // namespace accel
#endif

namespace accel::scalar {

template <class T> inline constexpr bool is_half = false;
template <class T> inline constexpr bool is_bfloat16 = false;
#if defined(ACCEL_HAS_HALF)
template <> inline constexpr bool is_half<accel::half> = true;
#if defined(ACCEL_HALF_H)
inline float to_float(accel::half h) { return h; }
inline accel::half to_half(float f) { return accel::half(f); }
inline accel::half to_half(double d) { return accel::half(d); }
#else
inline float to_float(__half h) { return __half2float(h); }
inline __half to_half(float f) { return __float2half_rn(f); }
inline __half to_half(double d) { return __double2half(d); }
inline __half nextafter(__half a, __half b) {
  const float fa = __half2float(a), fb = __half2float(b);
  const unsigned short ba = __half_as_ushort(a), bb = __half_as_ushort(b);
  if (fa != fa || fb != fb) return __ushort_as_half(0x7e00);
  if (fa == fb) return a;  // as npy_half_nextafter (half.h's step_toward)
  if (fa == 0) return __ushort_as_half(static_cast<unsigned short>((bb & 0x8000u) | 1u));
  const bool away = (fa < fb) == (fa > 0);
  return __ushort_as_half(static_cast<unsigned short>(away ? ba + 1 : ba - 1));
}
#endif
#endif
#if defined(ACCEL_HAS_BFLOAT16)
template <> inline constexpr bool is_bfloat16<accel::bfloat16_t> = true;
#if defined(ACCEL_BFLOAT16_H)
inline float to_float(accel::bfloat16_t h) { return h; }
inline accel::bfloat16_t to_bfloat16(float f) { return accel::bfloat16_t(f); }
inline accel::bfloat16_t to_bfloat16(double d) { return accel::bfloat16_t(d); }
inline accel::bfloat16_t to_bfloat16(long long v) { return accel::bfloat16_t(v); }
inline accel::bfloat16_t to_bfloat16(unsigned long long v) { return accel::bfloat16_t(v); }
#else
// CUDA's conversions round to nearest even and from double directly, as the host's; a NaN
// becomes CUDA's canonical NaN (0x7fff), not ml_dtypes' 0x7fc0.
inline float to_float(__nv_bfloat16 h) { return __bfloat162float(h); }
inline __nv_bfloat16 to_bfloat16(float f) { return __float2bfloat16_rn(f); }
inline __nv_bfloat16 to_bfloat16(double d) { return __double2bfloat16(d); }
// An integer rounded once: toward zero into double, the last bit set where that dropped bits
// (round to odd, which a second rounding to far fewer bits cannot turn into a double rounding).
inline __nv_bfloat16 to_bfloat16(long long v) {
  double d = __ll2double_rz(v);
  if (static_cast<long long>(d) != v) d = __longlong_as_double(__double_as_longlong(d) | 1);
  return __double2bfloat16(d);
}
inline __nv_bfloat16 to_bfloat16(unsigned long long v) {
  double d = __ull2double_rz(v);
  if (static_cast<unsigned long long>(d) != v) d = __longlong_as_double(__double_as_longlong(d) | 1);
  return __double2bfloat16(d);
}
inline __nv_bfloat16 nextafter(__nv_bfloat16 a, __nv_bfloat16 b) {
  const float fa = __bfloat162float(a), fb = __bfloat162float(b);
  const unsigned short ba = __bfloat16_as_ushort(a), bb = __bfloat16_as_ushort(b);
  if (fa != fa || fb != fb) return __ushort_as_bfloat16(0x7fc0);
  if (fa == fb) return b;
  if (fa == 0) return __ushort_as_bfloat16(static_cast<unsigned short>((bb & 0x8000u) | 1u));
  const bool away = (fa < fb) == (fa > 0);
  return __ushort_as_bfloat16(static_cast<unsigned short>(away ? ba + 1 : ba - 1));
}
#endif
#endif

// float16 and bfloat16: stored in 16 bits, computed in float (InFloat below).
template <class T> inline constexpr bool is_narrow = is_half<T> || is_bfloat16<T>;

// A float or double rounded once to the 16-bit float type N.
template <class N, class F> inline N to_narrow(F v) {
#if defined(ACCEL_HAS_HALF)
  if constexpr (is_half<N>) return to_half(v);
#endif
#if defined(ACCEL_HAS_BFLOAT16)
  if constexpr (is_bfloat16<N>) return to_bfloat16(v);
#endif
}

template <class T> struct RealOf { using type = T; };
template <class T> struct RealOf<std::complex<T>> { using type = T; };
template <class T> using real_of_t = typename RealOf<T>::type;

template <class T> inline constexpr bool is_cplx = false;
template <class T> inline constexpr bool is_cplx<std::complex<T>> = true;
template <class T> inline constexpr bool is_int = std::is_integral_v<T> && !std::is_same_v<T, bool>;
template <class T> inline constexpr bool is_flt = std::is_floating_point_v<T>;
template <class T> inline constexpr bool is_bool = std::is_same_v<T, bool>;

// Value conversion between any two dtypes, NumPy style (complex -> real keeps the real part).
// float16 and bfloat16 go through float, except from double, which is rounded to them directly,
// and integers to bfloat16, rounded once from their exact value.
template <class To, class From> inline To convert(From v) {
  if constexpr (std::is_same_v<To, From>) {
    return v;
  } else if constexpr (is_narrow<From>) {
    return convert<To>(to_float(v));
  } else if constexpr (is_narrow<To>) {
    if constexpr (is_cplx<From>) return convert<To>(v.real());
    else if constexpr (std::is_same_v<From, double>) return to_narrow<To>(v);
    else if constexpr (is_bfloat16<To> && is_int<From> && std::is_signed_v<From>)
      return to_narrow<To>(static_cast<long long>(v));
    else if constexpr (is_bfloat16<To> && is_int<From>)
      return to_narrow<To>(static_cast<unsigned long long>(v));
    else return to_narrow<To>(static_cast<float>(v));
  } else if constexpr (is_bool<To>) {
    if constexpr (is_cplx<From>) return v.real() != 0 || v.imag() != 0;
    else return v != From(0);
  } else if constexpr (is_cplx<To>) {
    using R = real_of_t<To>;
    if constexpr (is_cplx<From>) return To(R(v.real()), R(v.imag()));
    else return To(R(v), R(0));
  } else if constexpr (is_cplx<From>) {
    return static_cast<To>(v.real());
  } else {
    return static_cast<To>(v);
  }
}

// Lexicographic ordering of complex numbers, as NumPy compares them: by real part, then by
// imaginary part; a NaN in either part of either number makes the comparison false.
template <class T> inline bool lt(T a, T b) {
  if constexpr (is_cplx<T>)
    return (a.real() < b.real() && a.imag() == a.imag() && b.imag() == b.imag()) ||
           (a.real() == b.real() && a.imag() < b.imag());
  else return a < b;
}
template <class T> inline bool le(T a, T b) {
  if constexpr (is_cplx<T>)
    return (a.real() < b.real() && a.imag() == a.imag() && b.imag() == b.imag()) ||
           (a.real() == b.real() && a.imag() <= b.imag());
  else return a <= b;
}
template <class T> inline bool isnan_(T a) {
  if constexpr (is_cplx<T>) return std::isnan(a.real()) || std::isnan(a.imag());
  else if constexpr (is_flt<T>) return std::isnan(a);
  else return false;
}

// Complex arithmetic as NumPy does it, not as C's Annex G does (std::complex's operators call
// __mulsc3/__divsc3, which recover infinities from NaNs and are slow): the textbook product,
// Smith's quotient and NumPy's reciprocal. So (nan+inf j) * 2 is nan+nan j, as in NumPy.
// NumPy's SIMD loops (x86-64-v3 and up, the hardware -march=native builds for) evaluate the
// product with fused multiply-adds: re = fma(ar, br, -(ai bi)), im = fma(ar, bi, ai br). That
// decides inf against nan when a product overflows, so the host does the same where it has FMA.
template <class T> inline T cmul(T a, T b) {
#if defined(__FMA__) && !defined(__CUDACC_RTC__)
  return T(std::fma(a.real(), b.real(), -(a.imag() * b.imag())),
           std::fma(a.real(), b.imag(), a.imag() * b.real()));
#else
  return T(a.real() * b.real() - a.imag() * b.imag(), a.real() * b.imag() + a.imag() * b.real());
#endif
}
// The textbook product, never fused: NumPy's scalar complex code (npy_cpow's repeated
// multiplication) is built without FMA, and where a product overflows, fusing decides inf
// against nan ((3.8-0.2j) ** 81 in complex64 is nan+inf j in NumPy).
// Each product is rounded on its own even where the compiler vectorises: -ffp-contract=off does
// not stop GCC 12's vectoriser from pairing the four products and the two sums into one
// vfmaddsub (it did, in one of the CPU loop tables, and (1e153+1e153j) ** 3 became inf+inf j
// instead of NumPy's nan+inf j). The empty asm makes each product a value it cannot see into.
template <class R> inline R rounded_product(R x, R y) {
  R p = x * y;
#if !defined(__CUDACC__) && !defined(__CUDACC_RTC__) && (defined(__GNUC__) || defined(__clang__))
#if defined(__x86_64__) || defined(__i386__)
  asm("" : "+x"(p));
#elif defined(__aarch64__)
  asm("" : "+w"(p));
#else
  asm("" : "+m"(p));
#endif
#endif
  return p;
}
template <class T> inline T cmul_unfused(T a, T b) {
  return T(rounded_product(a.real(), b.real()) - rounded_product(a.imag(), b.imag()),
           rounded_product(a.real(), b.imag()) + rounded_product(a.imag(), b.real()));
}
template <class T> inline T cdiv(T a, T b) {
  using R = real_of_t<T>;
  const R br = std::fabs(b.real()), bi = std::fabs(b.imag());
  if (br >= bi) {
    if (br == 0 && bi == 0) return T(a.real() / br, a.imag() / br);  // inf or nan, as NumPy
    const R rat = b.imag() / b.real(), scl = R(1) / (b.real() + b.imag() * rat);
    return T((a.real() + a.imag() * rat) * scl, (a.imag() - a.real() * rat) * scl);
  }
  const R rat = b.real() / b.imag(), scl = R(1) / (b.imag() + b.real() * rat);
  return T((a.real() * rat + a.imag()) * scl, (a.imag() * rat - a.real()) * scl);
}
template <class T> inline T crecip(T a) {
  using R = real_of_t<T>;
  if (std::fabs(a.imag()) <= std::fabs(a.real())) {
    const R r = a.imag() / a.real(), d = a.real() + a.imag() * r;
    return T(R(1) / d, -r / d);
  }
  const R r = a.real() / a.imag(), d = a.real() * r + a.imag();
  return T(r / d, R(-1) / d);
}

// Integer +, -, * and negation wrap around, as in NumPy. Signed overflow is undefined in C++
// (and types narrower than int are promoted to int, so even uint16 * uint16 can overflow), so
// they are computed in the unsigned type of the promoted operands, where arithmetic wraps, and
// converted back (modulo 2^bits).
template <class T> using wrap_t = std::make_unsigned_t<decltype(T() + T())>;
template <class T> inline T wrap_add(T a, T b) { return static_cast<T>(wrap_t<T>(a) + wrap_t<T>(b)); }
template <class T> inline T wrap_sub(T a, T b) { return static_cast<T>(wrap_t<T>(a) - wrap_t<T>(b)); }
template <class T> inline T wrap_mul(T a, T b) { return static_cast<T>(wrap_t<T>(a) * wrap_t<T>(b)); }
template <class T> inline T wrap_neg(T a) { return static_cast<T>(wrap_t<T>(0) - wrap_t<T>(a)); }

struct CastOp { template <class T> static T apply(T a) { return a; } };

struct AddOp {
  template <class T> static T apply(T a, T b) {
    if constexpr (is_bool<T>) return a || b;
    else if constexpr (is_int<T>) return wrap_add(a, b);
    else return a + b;
  }
};
struct SubtractOp {
  template <class T> static T apply(T a, T b) {
    if constexpr (is_int<T>) return wrap_sub(a, b);
    else return a - b;
  }
};
struct MultiplyOp {
  template <class T> static T apply(T a, T b) {
    if constexpr (is_bool<T>) return a && b;
    else if constexpr (is_cplx<T>) return cmul(a, b);
    else if constexpr (is_int<T>) return wrap_mul(a, b);
    else return a * b;
  }
};
struct DivideOp {
  template <class T> static T apply(T a, T b) {
    if constexpr (is_cplx<T>) return cdiv(a, b);
    else return a / b;
  }
};

// NumPy's npy_divmod for floats: quotient floored, remainder with the divisor's sign. Except
// where exactly one operand is infinite: there the Array API standard (issue 12) wants
// floor(a / b), which a / b already is (an infinity, or a zero with the quotient's sign), where
// NumPy gives NaN for inf // 2 and -1.0 for -2 // inf (Python's divmod pairing).
template <class T> inline T float_floor_div(T a, T b) {
  if (std::isinf(a) != std::isinf(b)) return a / b;
  T mod = std::fmod(a, b);
  if (b == 0) return a / b;
  T div = (a - mod) / b;
  if (mod != 0 && ((b < 0) != (mod < 0))) div -= T(1);
  if (div == 0) return std::copysign(T(0), a / b);
  T fl = std::floor(div);
  if (div - fl > T(0.5)) fl += T(1);
  return fl;
}
template <class T> inline T float_remainder(T a, T b) {
  T mod = std::fmod(a, b);
  if (b == 0) return mod;
  if (mod != 0) {
    if ((b < 0) != (mod < 0)) mod += b;
  } else {
    mod = std::copysign(T(0), b);
  }
  return mod;
}

struct FloorDivideOp {
  template <class T> static T apply(T a, T b) {
    if constexpr (is_flt<T>) {
      return float_floor_div(a, b);
    } else if constexpr (std::is_signed_v<T>) {
      if (b == 0) return 0;
      if (b == -1) return wrap_neg(a);  // wraps for the minimum, as NumPy
      T q = static_cast<T>(a / b);
      if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
      return q;
    } else {
      return b == 0 ? T(0) : static_cast<T>(a / b);
    }
  }
};
struct RemainderOp {
  template <class T> static T apply(T a, T b) {
    if constexpr (is_flt<T>) {
      return float_remainder(a, b);
    } else if constexpr (std::is_signed_v<T>) {
      if (b == 0 || b == -1) return 0;
      T r = static_cast<T>(a % b);
      if (r != 0 && ((r < 0) != (b < 0))) r = static_cast<T>(r + b);
      return r;
    } else {
      return b == 0 ? T(0) : static_cast<T>(a % b);
    }
  }
};
struct FmodOp {
  template <class T> static T apply(T a, T b) {
    if constexpr (is_flt<T>) return std::fmod(a, b);
    else if constexpr (std::is_signed_v<T>) return (b == 0 || b == -1) ? T(0) : static_cast<T>(a % b);
    else return b == 0 ? T(0) : static_cast<T>(a % b);
  }
};
// NumPy's complex power: exact answers for zero exponents and bases, repeated (textbook)
// multiplication for small integer exponents, the C library's cpow otherwise.
template <class T> inline T complex_pow(T a, T b) {
  using R = real_of_t<T>;
  const R nan = std::numeric_limits<R>::quiet_NaN();
  if (b.real() == 0 && b.imag() == 0) return T(1);
  if (a.real() == 0 && a.imag() == 0) return b.real() > 0 ? T(0) : T(nan, nan);
  if (b.imag() == 0 && std::fabs(b.real()) < 100 && b.real() == std::trunc(b.real())) {
    const int64_t n = static_cast<int64_t>(b.real());
    if (n == 1) return a;
    if (n == 2) return cmul_unfused(a, a);
    if (n == 3) return cmul_unfused(cmul_unfused(a, a), a);
    uint64_t e = static_cast<uint64_t>(n < 0 ? -n : n);
    T acc(1), p = a;
    for (uint64_t mask = 1;; mask <<= 1) {
      if (e & mask) acc = cmul_unfused(acc, p);
      if (e < (mask << 1)) break;
      p = cmul_unfused(p, p);
    }
    return n < 0 ? cdiv(T(1), acc) : acc;
  }
  return std::pow(a, b);
}

struct PowOp {
  template <class T> static T apply(T a, T b) {
    if constexpr (is_int<T>) {
      if constexpr (std::is_signed_v<T>) {
        // NumPy raises for negative integer exponents; inside a loop we return what the
        // exact result truncates to (1, -1 or 0).
        if (b < 0) return a == 1 ? T(1) : (a == -1 ? (b % 2 ? T(-1) : T(1)) : T(0));
      }
      using U = std::make_unsigned_t<T>;
      U base = static_cast<U>(a), result = 1;
      auto e = static_cast<U>(b);
      while (e) {
        if (e & 1) result = static_cast<U>(result * base);
        base = static_cast<U>(base * base);
        e >>= 1;
      }
      return static_cast<T>(result);
    } else if constexpr (is_cplx<T>) {
      return complex_pow(a, b);
    } else {
      return std::pow(a, b);
    }
  }
};

struct MaximumOp {
  template <class T> static T apply(T a, T b) {
    if constexpr (is_bool<T>) return a || b;
    else if constexpr (is_int<T>) return a < b ? b : a;
    else return (isnan_(a) || (!isnan_(b) && !lt(a, b))) ? a : b;  // NaN propagates
  }
};
struct MinimumOp {
  template <class T> static T apply(T a, T b) {
    if constexpr (is_bool<T>) return a && b;
    else if constexpr (is_int<T>) return b < a ? b : a;
    else return (isnan_(a) || le(a, b)) ? a : b;
  }
};
// NaN ignored: a unless b is the better number or a is NaN and b is not; both NaN gives a
// (NumPy's loop, which matters for complex NaNs, whose other part is kept).
struct FmaxOp {
  template <class T> static T apply(T a, T b) {
    if constexpr (is_bool<T>) return a || b;
    else if constexpr (is_int<T>) return a < b ? b : a;
    else return (isnan_(b) || le(b, a)) ? a : b;
  }
};
struct FminOp {
  template <class T> static T apply(T a, T b) {
    if constexpr (is_bool<T>) return a && b;
    else if constexpr (is_int<T>) return b < a ? b : a;
    else return (isnan_(b) || le(a, b)) ? a : b;
  }
};
struct Atan2Op { template <class T> static T apply(T a, T b) { return std::atan2(a, b); } };
struct HypotOp { template <class T> static T apply(T a, T b) { return std::hypot(a, b); } };
struct CopysignOp { template <class T> static T apply(T a, T b) { return std::copysign(a, b); } };
#if !defined(__CUDACC__) && !defined(__CUDACC_RTC__)
// nextafter on the host as integer steps of the bits, with selects for zero, equal and NaN
// operands: std::nextafter's bits, without its libm call per element, so the CPU's loops and
// compiled kernels vectorise it (spacing is built on it). One step toward y moves the magnitude
// up when y lies beyond x, away from zero, down otherwise; from zero the first step is the
// smallest subnormal of y's sign.
template <class T, class Bits> inline T nextafter_bits(T x, T y) {
  constexpr Bits sign = Bits(1) << (8 * sizeof(Bits) - 1);
  Bits bx, by;
  __builtin_memcpy(&bx, &x, sizeof bx);
  __builtin_memcpy(&by, &y, sizeof by);
  const Bits step = (x < y) == (x > T(0)) ? Bits(1) : Bits(~Bits(0));
  const Bits r = x == T(0) ? ((by & sign) | Bits(1)) : bx + step;
  T v;
  __builtin_memcpy(&v, &r, sizeof v);
  v = x == y ? y : v;
  return (x != x || y != y) ? x + y : v;
}
#endif
struct NextafterOp {
  template <class T> static T apply(T a, T b) {
#if !defined(__CUDACC__) && !defined(__CUDACC_RTC__)
    if constexpr (std::is_same_v<T, float>) return nextafter_bits<float, uint32_t>(a, b);
    if constexpr (std::is_same_v<T, double>) return nextafter_bits<double, uint64_t>(a, b);
#endif
    return std::nextafter(a, b);
  }
};
// NumPy's spacing (npy_spacing): the gap from x to the next value away from zero, signed as
// x; +-0 give the smallest subnormal, +-max +-inf, a NaN itself quieted (its sign and payload
// kept, which a GPU's arithmetic would not), +-inf NumPy's quiet NaN. Selects over nextafter,
// so the CPU's loops vectorise it. float16 and bfloat16 step in their own values (InFloat).
struct SpacingOp {
  // A NaN with its quiet bit set, sign and payload kept (NumPy's NaN - NaN on the host).
  template <class T> static T quieted(T x) {
#if defined(__CUDACC__) || defined(__CUDACC_RTC__)
    if constexpr (sizeof(T) == 4) return __uint_as_float(__float_as_uint(x) | 0x00400000u);
    else return __longlong_as_double(__double_as_longlong(x) | 0x0008000000000000ll);
#else
    return x + x;
#endif
  }
  template <class T> static T apply(T x) {
    const T inf = std::numeric_limits<T>::infinity();
    const T gap = NextafterOp::apply(x, x < T(0) ? -inf : inf) - x;
    if (x != x) return quieted(x);
    return (x == inf || x == -inf) ? std::numeric_limits<T>::quiet_NaN() : gap;
  }
};
// NumPy's heaviside: 0 below zero, 1 above, h at zero (of either sign), the quiet NaN where x
// is a NaN (its own payload and sign are not kept, as NumPy's npy_heaviside). Selects only, so
// the CPU's loops vectorise it.
struct HeavisideOp {
  template <class T> static T apply(T x, T h) {
    if (lt(x, T(0))) return T(0);
    if (lt(T(0), x)) return T(1);
    return isnan_(x) ? std::numeric_limits<T>::quiet_NaN() : h;
  }
};
struct LogaddexpOp {
  template <class T> static T apply(T a, T b) {
    if (a == b) return a + T(0.693147180559945309417232121458176568);  // also keeps inf + inf
    T d = a - b;
    if (d > 0) return a + std::log1p(std::exp(-d));
    if (d <= 0) return b + std::log1p(std::exp(d));
    return d;  // NaN
  }
};
struct Logaddexp2Op {
  template <class T> static T apply(T a, T b) {
    const T inv_ln2 = T(1.442695040888963407359924681001892137);
    if (a == b) return a + T(1);
    T d = a - b;
    if (d > 0) return a + std::log1p(std::exp2(-d)) * inv_ln2;
    if (d <= 0) return b + std::log1p(std::exp2(d)) * inv_ln2;
    return d;
  }
};

struct EqualOp { template <class T> static bool apply(T a, T b) { return a == b; } };
struct NotEqualOp { template <class T> static bool apply(T a, T b) { return a != b; } };
struct LessOp { template <class T> static bool apply(T a, T b) { return lt(a, b); } };
struct LessEqualOp { template <class T> static bool apply(T a, T b) { return le(a, b); } };
struct GreaterOp { template <class T> static bool apply(T a, T b) { return lt(b, a); } };
struct GreaterEqualOp { template <class T> static bool apply(T a, T b) { return le(b, a); } };
struct LogicalAndOp { template <class T> static bool apply(T a, T b) { return a && b; } };
struct LogicalOrOp { template <class T> static bool apply(T a, T b) { return a || b; } };
struct LogicalXorOp { template <class T> static bool apply(T a, T b) { return a != b; } };
struct LogicalNotOp { template <class T> static bool apply(T a) { return !a; } };

struct BitwiseAndOp { template <class T> static T apply(T a, T b) { return static_cast<T>(a & b); } };
struct BitwiseOrOp { template <class T> static T apply(T a, T b) { return static_cast<T>(a | b); } };
struct BitwiseXorOp { template <class T> static T apply(T a, T b) { return static_cast<T>(a ^ b); } };
struct BitwiseInvertOp {
  template <class T> static T apply(T a) {
    if constexpr (is_bool<T>) return !a;
    else return static_cast<T>(~a);
  }
};
struct LeftShiftOp {
  template <class T> static T apply(T a, T b) {
    // A negative or too-large shift gives 0, as NumPy (C++ leaves it undefined).
    if (static_cast<std::make_unsigned_t<T>>(b) < sizeof(T) * 8)
      return static_cast<T>(static_cast<std::make_unsigned_t<T>>(a) << b);
    return 0;
  }
};
struct RightShiftOp {
  template <class T> static T apply(T a, T b) {
    if (static_cast<std::make_unsigned_t<T>>(b) < sizeof(T) * 8) return static_cast<T>(a >> b);
    if constexpr (std::is_signed_v<T>) return a < 0 ? T(-1) : T(0);
    else return 0;
  }
};

struct AbsOp {
  template <class T> static real_of_t<T> apply(T a) {
    if constexpr (is_cplx<T>) return std::abs(a);
    else if constexpr (is_flt<T>) return std::fabs(a);
    else if constexpr (is_bool<T> || std::is_unsigned_v<T>) return a;
    else return a < 0 ? wrap_neg(a) : a;  // the minimum stays itself, as in NumPy
  }
};
struct NegativeOp {
  template <class T> static T apply(T a) {
    if constexpr (is_int<T>) return wrap_neg(a);
    else return -a;
  }
};
struct PositiveOp { template <class T> static T apply(T a) { return a; } };
struct SignOp {
  template <class T> static T apply(T a) {
    if constexpr (is_cplx<T>) {
      using R = real_of_t<T>;
      const R nan = std::numeric_limits<R>::quiet_NaN();
      const R m = std::abs(a);  // inf when either part is, even beside a NaN
      if (std::isnan(m)) return T(nan, nan);
      if (std::isinf(m)) {
        // NumPy: the direction of the infinite part; both infinite has none.
        if (std::isinf(a.real())) return std::isinf(a.imag()) ? T(nan, nan) : T(a.real() > 0 ? 1 : -1, 0);
        return T(0, a.imag() > 0 ? 1 : -1);
      }
      return m == 0 ? T(0) : T(a.real() / m, a.imag() / m);
    } else if constexpr (is_flt<T>) {
      return a > 0 ? T(1) : (a < 0 ? T(-1) : (a == 0 ? T(0) : a));
    } else {
      return static_cast<T>((T(0) < a) - (a < T(0)));
    }
  }
};
struct SquareOp {
  template <class T> static T apply(T a) {
    if constexpr (is_cplx<T>) return cmul(a, a);
    else if constexpr (is_int<T>) return wrap_mul(a, a);
    else return a * a;
  }
};
struct ReciprocalOp {
  template <class T> static T apply(T a) {
    if constexpr (is_int<T>) return a == 0 ? T(0) : static_cast<T>(T(1) / a);
    else if constexpr (is_cplx<T>) return crecip(a);
    else return T(1) / a;
  }
};
struct ConjOp {
  template <class T> static T apply(T a) {
    if constexpr (is_cplx<T>) return std::conj(a);
    else return a;
  }
};
struct RealOp {
  template <class T> static real_of_t<T> apply(T a) {
    if constexpr (is_cplx<T>) return a.real();
    else return a;
  }
};
struct ImagOp {
  template <class T> static real_of_t<T> apply(T a) {
    if constexpr (is_cplx<T>) return a.imag();
    else return real_of_t<T>(0);
  }
};
struct FloorOp {
  template <class T> static T apply(T a) {
    if constexpr (is_flt<T>) return std::floor(a);
    else return a;
  }
};
struct CeilOp {
  template <class T> static T apply(T a) {
    if constexpr (is_flt<T>) return std::ceil(a);
    else return a;
  }
};
struct TruncOp {
  template <class T> static T apply(T a) {
    if constexpr (is_flt<T>) return std::trunc(a);
    else return a;
  }
};
struct RoundOp {
  template <class T> static T apply(T a) {
    // Half to even, as NumPy (std::nearbyint under the default rounding mode).
    if constexpr (is_cplx<T>) return T(std::nearbyint(a.real()), std::nearbyint(a.imag()));
    else if constexpr (is_flt<T>) return std::nearbyint(a);
    else return a;
  }
};
struct IsnanOp { template <class T> static bool apply(T a) { return isnan_(a); } };
struct IsinfOp {
  template <class T> static bool apply(T a) {
    if constexpr (is_cplx<T>) return std::isinf(a.real()) || std::isinf(a.imag());
    else if constexpr (is_flt<T>) return std::isinf(a);
    else return false;
  }
};
struct IsfiniteOp {
  template <class T> static bool apply(T a) {
    if constexpr (is_cplx<T>) return std::isfinite(a.real()) && std::isfinite(a.imag());
    else if constexpr (is_flt<T>) return std::isfinite(a);
    else return true;
  }
};
struct SignbitOp {
  template <class T> static bool apply(T a) {
    if constexpr (is_flt<T>) return std::signbit(a);
    else if constexpr (std::is_signed_v<T>) return a < 0;
    else return false;
  }
};

#define ACCEL_UNARY_MATH(Functor, fn)                              \
  struct Functor {                                                 \
    template <class T> static T apply(T a) { return std::fn(a); } \
  };
ACCEL_UNARY_MATH(SqrtOp, sqrt)
ACCEL_UNARY_MATH(CbrtOp, cbrt)
ACCEL_UNARY_MATH(ExpOp, exp)
ACCEL_UNARY_MATH(LogOp, log)
ACCEL_UNARY_MATH(Log10Op, log10)
ACCEL_UNARY_MATH(SinOp, sin)
ACCEL_UNARY_MATH(CosOp, cos)
ACCEL_UNARY_MATH(TanOp, tan)
ACCEL_UNARY_MATH(AsinOp, asin)
ACCEL_UNARY_MATH(AcosOp, acos)
ACCEL_UNARY_MATH(AtanOp, atan)
ACCEL_UNARY_MATH(SinhOp, sinh)
ACCEL_UNARY_MATH(CoshOp, cosh)
ACCEL_UNARY_MATH(AsinhOp, asinh)
ACCEL_UNARY_MATH(AcoshOp, acosh)
ACCEL_UNARY_MATH(AtanhOp, atanh)
#undef ACCEL_UNARY_MATH

struct TanhOp {
  template <class T> static T apply(T a) {
    // tanh(±inf + yi) is ±1 + 0i with the sign of y, as the Array API standard lists it (issue
    // 12); C99's ctanh (glibc, so NumPy) gives the imaginary zero the sign of sin(2y).
    if constexpr (is_cplx<T>) {
      using R = real_of_t<T>;
      if (std::isinf(a.real()))
        return T(std::copysign(R(1), a.real()), std::copysign(R(0), a.imag()));
    }
    return std::tanh(a);
  }
};

// The C library has no complex exp2/expm1/log1p/log2: build them from exp and log.
struct Exp2Op {
  template <class T> static T apply(T a) {
    if constexpr (is_cplx<T>) return std::exp(a * real_of_t<T>(0.693147180559945309417232121458176568));
    else return std::exp2(a);
  }
};
struct Expm1Op {
  template <class T> static T apply(T a) {
    if constexpr (is_cplx<T>) {
      using R = real_of_t<T>;
      const R x = a.real(), y = a.imag();
      // The Array API standard's special values (C99 Annex G's cexp less 1; issue 12), where
      // NumPy's formula below makes NaNs of inf * 0 and inf - inf: on the real axis the real
      // expm1 (+0 at ±0), at -inf exactly -1, at +inf with y infinite or NaN inf + NaN i.
      if (y == 0) return T(x == 0 ? R(0) : std::expm1(x), y);
      if (std::isinf(x) && x < 0)
        return T(R(-1), std::isfinite(y) ? R(0) * std::sin(y) : std::copysign(R(0), y));
      if (std::isinf(x) && !std::isfinite(y)) return T(x, y - y);
      // NumPy's complex form keeps precision near 0: expm1(x)cos(y) - 2 sin^2(y/2), e^x sin(y).
      const auto h = std::sin(y / 2);
      return T(std::expm1(x) * std::cos(y) - 2 * h * h, std::exp(x) * std::sin(y));
    } else {
      return std::expm1(a);
    }
  }
};
struct Log1pOp {
  template <class T> static T apply(T a) {
    // NumPy's complex form: log|1 + a| + i arg(1 + a).
    if constexpr (is_cplx<T>) return T(std::log(std::hypot(a.real() + 1, a.imag())), std::atan2(a.imag(), a.real() + 1));
    else return std::log1p(a);
  }
};
struct Log2Op {
  template <class T> static T apply(T a) {
    if constexpr (is_cplx<T>) return std::log(a) * real_of_t<T>(1.442695040888963407359924681001892137);
    else return std::log2(a);
  }
};
struct Deg2radOp { template <class T> static T apply(T a) { return a * T(0.017453292519943295769236907684886127); } };
struct Rad2degOp { template <class T> static T apply(T a) { return a * T(57.29577951308232087679815481410517033); } };

struct WhereOp { template <class T> static T apply(T c, T x, T y) { return c != T(0) ? x : y; } };

// An op on float16 or bfloat16: its arguments read as float, the op computed in float and a
// float result rounded once to the arguments' type, as NumPy's float16 loops and ml_dtypes'
// bfloat16 ones (exact for + - * / sqrt: float carries more than twice their precision).
// nextafter steps in the narrow type itself.
template <class Op> struct InFloat {
  template <class N, class... More> static auto apply(N a, More... b) {
    using R = decltype(Op::apply(to_float(a), to_float(b)...));
    if constexpr (std::is_same_v<R, float>) return to_narrow<N>(Op::apply(to_float(a), to_float(b)...));
    else return Op::apply(to_float(a), to_float(b)...);
  }
};
template <> struct InFloat<NextafterOp> {
  template <class N> static N apply(N a, N b) { return nextafter(a, b); }
};
// spacing in the narrow type's own steps (the difference of two neighbours is exact in float);
// NaN for NaN and +-inf. float16's is NumPy's npy_half_spacing: never negative (for a negative
// x the gap toward zero, smaller at a power of two), +0's and -0's the smallest subnormal.
// bfloat16's is ml_dtypes' (NumPy's oracle for it): away from zero, signed as x, -0 included.
template <> struct InFloat<SpacingOp> {
  template <class N> static N apply(N x) {
    const float f = to_float(x), inf = std::numeric_limits<float>::infinity();
    if (f != f || f == inf || f == -inf) return to_narrow<N>(std::numeric_limits<float>::quiet_NaN());
    float to;
    if constexpr (is_half<N>) {
      if (f == 0.0f) return nextafter(to_narrow<N>(0.0f), to_narrow<N>(inf));
      to = f < 0.0f ? 0.0f : inf;
    } else {
      to = std::signbit(f) ? -inf : inf;
    }
    return to_narrow<N>(to_float(nextafter(x, to_narrow<N>(to))) - f);
  }
};

}  // namespace accel::scalar
