// Vectorised float32/float64 transcendental functions from glibc's libmvec (AVX2: 8 floats or
// 4 doubles per call, <= 4 ulp, special values handled), used by the contiguous inner loops.
// Scalar std:: math costs 5-10x more per element; NumPy vectorises these too.
#pragma once
#include <cstdint>
#include <cstring>

#include "accel/device_src/scalar_ops.h"

#if defined(__AVX__)
#include <immintrin.h>
#endif

namespace accel::cpu {

template <class Op, class T> struct VectorMath {
  static constexpr bool available = false;
};
// The same for functions of two arguments: run(a, b, o, n) over contiguous a, b and o.
template <class Op, class T> struct VectorMath2 {
  static constexpr bool available = false;
};

#if defined(__AVX__)
// sqrt is one instruction, correctly rounded as std::sqrt is (so bit-identical). Left to the
// compiler, std::sqrt in a loop stays scalar: it must set errno for negative inputs
// (-fmath-errno), so each element branches to libm's sqrtf; float32 sqrt of 1e7 took 2.6x as
// long as exp.
template <> struct VectorMath<scalar::SqrtOp, float> {
  static constexpr bool available = true;
  static void run(const float* a, float* o, int64_t n) {
    int64_t i = 0;
    for (; i + 8 <= n; i += 8) _mm256_storeu_ps(o + i, _mm256_sqrt_ps(_mm256_loadu_ps(a + i)));
    for (; i < n; ++i) _mm_store_ss(o + i, _mm_sqrt_ss(_mm_load_ss(a + i)));
  }
};
template <> struct VectorMath<scalar::SqrtOp, double> {
  static constexpr bool available = true;
  static void run(const double* a, double* o, int64_t n) {
    int64_t i = 0;
    for (; i + 4 <= n; i += 4) _mm256_storeu_pd(o + i, _mm256_sqrt_pd(_mm256_loadu_pd(a + i)));
    for (; i < n; ++i) {
      const __m128d x = _mm_load_sd(a + i);
      _mm_store_sd(o + i, _mm_sqrt_sd(x, x));
    }
  }
};

// floor, ceil, trunc and round are one rounding instruction each, exact as std:: is (-0.0, NaN and
// infinities kept). Left to the compiler they call libm per element (it may not assume the
// inexact flag away): floor of 2000² float32 took 3x NumPy's time.
#define ACCEL_VECTOR_ROUND(Op, mode)                                                          \
  template <> struct VectorMath<scalar::Op, float> {                                         \
    static constexpr bool available = true;                                                  \
    static void run(const float* a, float* o, int64_t n) {                                   \
      int64_t i = 0;                                                                         \
      for (; i + 8 <= n; i += 8)                                                             \
        _mm256_storeu_ps(o + i, _mm256_round_ps(_mm256_loadu_ps(a + i), mode | _MM_FROUND_NO_EXC)); \
      for (; i < n; ++i) o[i] = scalar::Op::apply(a[i]);                                     \
    }                                                                                        \
  };                                                                                         \
  template <> struct VectorMath<scalar::Op, double> {                                        \
    static constexpr bool available = true;                                                  \
    static void run(const double* a, double* o, int64_t n) {                                 \
      int64_t i = 0;                                                                         \
      for (; i + 4 <= n; i += 4)                                                             \
        _mm256_storeu_pd(o + i, _mm256_round_pd(_mm256_loadu_pd(a + i), mode | _MM_FROUND_NO_EXC)); \
      for (; i < n; ++i) o[i] = scalar::Op::apply(a[i]);                                     \
    }                                                                                        \
  };
ACCEL_VECTOR_ROUND(FloorOp, _MM_FROUND_TO_NEG_INF)
ACCEL_VECTOR_ROUND(CeilOp, _MM_FROUND_TO_POS_INF)
ACCEL_VECTOR_ROUND(TruncOp, _MM_FROUND_TO_ZERO)
// round (rint): to nearest, half to even, as std::nearbyint in the default rounding mode.
ACCEL_VECTOR_ROUND(RoundOp, _MM_FROUND_TO_NEAREST_INT)
#undef ACCEL_VECTOR_ROUND
#endif

// signbit is the top bit read as an integer (NaNs' too, as std::signbit): the compiler
// vectorises the shift and the narrowing to bool, where std::signbit of a double stays scalar
// (float64 signbit of 2e6 values took twice NumPy's time).
template <class T, class Bits> struct SignBitVector {
  static constexpr bool available = true;
  static void run(const T* a, bool* o, int64_t n) {
    for (int64_t i = 0; i < n; ++i) {
      Bits b;
      std::memcpy(&b, a + i, sizeof b);
      o[i] = (b >> (8 * sizeof(Bits) - 1)) != 0;
    }
  }
};
template <> struct VectorMath<scalar::SignbitOp, float> : SignBitVector<float, uint32_t> {};
template <> struct VectorMath<scalar::SignbitOp, double> : SignBitVector<double, uint64_t> {};

}  // namespace accel::cpu

#if defined(ACCEL_HAVE_LIBMVEC) && defined(__AVX2__)
#include <immintrin.h>

#define ACCEL_MVEC_FUNCS(X) \
  X(SinOp, sin)             \
  X(CosOp, cos)             \
  X(TanOp, tan)             \
  X(ExpOp, exp)             \
  X(Exp2Op, exp2)           \
  X(Expm1Op, expm1)         \
  X(LogOp, log)             \
  X(Log2Op, log2)           \
  X(Log10Op, log10)         \
  X(Log1pOp, log1p)         \
  X(AsinOp, asin)           \
  X(AcosOp, acos)           \
  X(AtanOp, atan)           \
  X(SinhOp, sinh)           \
  X(CoshOp, cosh)           \
  X(TanhOp, tanh)           \
  X(AsinhOp, asinh)         \
  X(AcoshOp, acosh)         \
  X(AtanhOp, atanh)         \
  X(CbrtOp, cbrt)

// The widest variants the build's CPU has: AVX-512's (16 floats or 8 doubles a call) where
// -march=native gives it, which are what the host JIT's kernels call too (its loops vectorise at
// that width), so both compute the same bits (AVX2's tanh and cbrt differ from AVX-512's in the
// last place); they ran exp, tanh, cbrt and pow 1.3-3.3x faster here, sin and log the same.
// Every element goes through the same variant: a tail is padded to a whole vector.
namespace accel::cpu {

#if defined(__AVX512F__)
using MvecF = __m512;
using MvecD = __m512d;
inline constexpr int kMvecF = 16, kMvecD = 8;
inline MvecF mvec_load(const float* p) { return _mm512_loadu_ps(p); }
inline MvecD mvec_load(const double* p) { return _mm512_loadu_pd(p); }
inline void mvec_store(float* p, MvecF v) { _mm512_storeu_ps(p, v); }
inline void mvec_store(double* p, MvecD v) { _mm512_storeu_pd(p, v); }
#define ACCEL_MVEC_F1(fn) _ZGVeN16v_##fn##f
#define ACCEL_MVEC_D1(fn) _ZGVeN8v_##fn
#define ACCEL_MVEC_F2(fn) _ZGVeN16vv_##fn##f
#define ACCEL_MVEC_D2(fn) _ZGVeN8vv_##fn
#else
using MvecF = __m256;
using MvecD = __m256d;
inline constexpr int kMvecF = 8, kMvecD = 4;
inline MvecF mvec_load(const float* p) { return _mm256_loadu_ps(p); }
inline MvecD mvec_load(const double* p) { return _mm256_loadu_pd(p); }
inline void mvec_store(float* p, MvecF v) { _mm256_storeu_ps(p, v); }
inline void mvec_store(double* p, MvecD v) { _mm256_storeu_pd(p, v); }
#define ACCEL_MVEC_F1(fn) _ZGVdN8v_##fn##f
#define ACCEL_MVEC_D1(fn) _ZGVdN4v_##fn
#define ACCEL_MVEC_F2(fn) _ZGVdN8vv_##fn##f
#define ACCEL_MVEC_D2(fn) _ZGVdN4vv_##fn
#endif

// Functions of two arguments (special values through libmvec's scalar callout, as the
// one-argument ones): atan2 (glibc 2.35) and pow. Element by element, atan2f took 13x NumPy's
// time and powf 7x; NumPy vectorises both.
#define ACCEL_MVEC_FUNCS2(X) \
  X(Atan2Op, atan2)          \
  X(PowOp, pow)

extern "C" {
#define ACCEL_DECLARE_MVEC(Op, fn) \
  MvecF ACCEL_MVEC_F1(fn)(MvecF x); \
  MvecD ACCEL_MVEC_D1(fn)(MvecD x);
ACCEL_MVEC_FUNCS(ACCEL_DECLARE_MVEC)
#undef ACCEL_DECLARE_MVEC
#define ACCEL_DECLARE_MVEC2(Op, fn)          \
  MvecF ACCEL_MVEC_F2(fn)(MvecF x, MvecF y); \
  MvecD ACCEL_MVEC_D2(fn)(MvecD x, MvecD y);
ACCEL_MVEC_FUNCS2(ACCEL_DECLARE_MVEC2)
#undef ACCEL_DECLARE_MVEC2
}  // extern "C" (the namespace is not part of a C name)

// o[i] = f(a[i]) (and f(a[i], b[i])) a vector at a time, the tail through a padded vector.
template <class T, class V, int W, class F> inline void mvec_run(const T* a, T* o, int64_t n, F f) {
  int64_t i = 0;
  for (; i + W <= n; i += W) mvec_store(o + i, f(mvec_load(a + i)));
  if (i == n) return;
  alignas(64) T tail[W] = {};
  for (int64_t j = i; j < n; ++j) tail[j - i] = a[j];
  mvec_store(tail, f(mvec_load(tail)));
  for (int64_t j = i; j < n; ++j) o[j] = tail[j - i];
}
template <class T, class V, int W, class F>
inline void mvec_run2(const T* a, const T* b, T* o, int64_t n, F f) {
  int64_t i = 0;
  for (; i + W <= n; i += W) mvec_store(o + i, f(mvec_load(a + i), mvec_load(b + i)));
  if (i == n) return;
  alignas(64) T ta[W] = {}, tb[W] = {};
  for (int64_t j = i; j < n; ++j) ta[j - i] = a[j], tb[j - i] = b[j];
  mvec_store(ta, f(mvec_load(ta), mvec_load(tb)));
  for (int64_t j = i; j < n; ++j) o[j] = ta[j - i];
}

#define ACCEL_VECTOR_MATH(Op, fn)                                                    \
  template <> struct VectorMath<scalar::Op, float> {                                \
    static constexpr bool available = true;                                         \
    static void run(const float* a, float* o, int64_t n) {                          \
      mvec_run<float, MvecF, kMvecF>(a, o, n, [](MvecF x) { return ACCEL_MVEC_F1(fn)(x); }); \
    }                                                                               \
  };                                                                                \
  template <> struct VectorMath<scalar::Op, double> {                               \
    static constexpr bool available = true;                                         \
    static void run(const double* a, double* o, int64_t n) {                        \
      mvec_run<double, MvecD, kMvecD>(a, o, n, [](MvecD x) { return ACCEL_MVEC_D1(fn)(x); }); \
    }                                                                               \
  };
ACCEL_MVEC_FUNCS(ACCEL_VECTOR_MATH)
#undef ACCEL_VECTOR_MATH

#define ACCEL_VECTOR_MATH2(Op, fn)                                                          \
  template <> struct VectorMath2<scalar::Op, float> {                                      \
    static constexpr bool available = true;                                                \
    static void run(const float* a, const float* b, float* o, int64_t n) {                 \
      mvec_run2<float, MvecF, kMvecF>(a, b, o, n,                                          \
                                      [](MvecF x, MvecF y) { return ACCEL_MVEC_F2(fn)(x, y); }); \
    }                                                                                      \
  };                                                                                       \
  template <> struct VectorMath2<scalar::Op, double> {                                     \
    static constexpr bool available = true;                                                \
    static void run(const double* a, const double* b, double* o, int64_t n) {              \
      mvec_run2<double, MvecD, kMvecD>(a, b, o, n,                                         \
                                       [](MvecD x, MvecD y) { return ACCEL_MVEC_D2(fn)(x, y); }); \
    }                                                                                      \
  };
ACCEL_MVEC_FUNCS2(ACCEL_VECTOR_MATH2)
#undef ACCEL_VECTOR_MATH2

}  // namespace accel::cpu

#endif
