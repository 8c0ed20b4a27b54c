// Vectorised float32/float64 transcendental functions from glibc's libmvec (AVX2: 8 floats or
// 4 doubles per call, <= 4 ulp, special values handled), used by the contiguous inner loops.
// Scalar std:: math costs 5-10x more per element; NumPy vectorises these too.
#pragma once
#include <cstdint>

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

// floor, ceil and trunc are one rounding instruction each, exact as std:: is (-0.0, NaN and
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
#undef ACCEL_VECTOR_ROUND
#endif

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

extern "C" {
#define ACCEL_DECLARE_MVEC(Op, fn)          \
  __m256 _ZGVdN8v_##fn##f(__m256 x);        \
  __m256d _ZGVdN4v_##fn(__m256d x);
ACCEL_MVEC_FUNCS(ACCEL_DECLARE_MVEC)
#undef ACCEL_DECLARE_MVEC
}

namespace accel::cpu {

#define ACCEL_VECTOR_MATH(Op, fn)                                                             \
  template <> struct VectorMath<scalar::Op, float> {                                         \
    static constexpr bool available = true;                                                  \
    static void run(const float* a, float* o, int64_t n) {                                   \
      int64_t i = 0;                                                                         \
      for (; i + 8 <= n; i += 8) _mm256_storeu_ps(o + i, _ZGVdN8v_##fn##f(_mm256_loadu_ps(a + i))); \
      if (i < n) {                                                                           \
        alignas(32) float tail[8] = {};                                                      \
        for (int64_t j = i; j < n; ++j) tail[j - i] = a[j];                                  \
        _mm256_store_ps(tail, _ZGVdN8v_##fn##f(_mm256_load_ps(tail)));                       \
        for (int64_t j = i; j < n; ++j) o[j] = tail[j - i];                                  \
      }                                                                                      \
    }                                                                                        \
  };                                                                                         \
  template <> struct VectorMath<scalar::Op, double> {                                        \
    static constexpr bool available = true;                                                  \
    static void run(const double* a, double* o, int64_t n) {                                 \
      int64_t i = 0;                                                                         \
      for (; i + 4 <= n; i += 4) _mm256_storeu_pd(o + i, _ZGVdN4v_##fn(_mm256_loadu_pd(a + i))); \
      if (i < n) {                                                                           \
        alignas(32) double tail[4] = {};                                                     \
        for (int64_t j = i; j < n; ++j) tail[j - i] = a[j];                                  \
        _mm256_store_pd(tail, _ZGVdN4v_##fn(_mm256_load_pd(tail)));                          \
        for (int64_t j = i; j < n; ++j) o[j] = tail[j - i];                                  \
      }                                                                                      \
    }                                                                                        \
  };
ACCEL_MVEC_FUNCS(ACCEL_VECTOR_MATH)
#undef ACCEL_VECTOR_MATH

// Functions of two arguments from libmvec (special values through its scalar callout, as the
// one-argument ones): atan2 (glibc 2.35) and pow. Element by element, atan2f took 13x NumPy's
// time and powf 7x; NumPy vectorises both.
extern "C" {
__m256 _ZGVdN8vv_atan2f(__m256 y, __m256 x);
__m256d _ZGVdN4vv_atan2(__m256d y, __m256d x);
__m256 _ZGVdN8vv_powf(__m256 x, __m256 y);
__m256d _ZGVdN4vv_pow(__m256d x, __m256d y);
}
#define ACCEL_VECTOR_MATH2(Op, fn)                                                            \
  template <> struct VectorMath2<scalar::Op, float> {                                        \
    static constexpr bool available = true;                                                  \
    static void run(const float* a, const float* b, float* o, int64_t n) {                   \
      int64_t i = 0;                                                                         \
      for (; i + 8 <= n; i += 8)                                                             \
        _mm256_storeu_ps(o + i, _ZGVdN8vv_##fn##f(_mm256_loadu_ps(a + i), _mm256_loadu_ps(b + i))); \
      if (i < n) {                                                                           \
        alignas(32) float ta[8] = {}, tb[8] = {};                                            \
        for (int64_t j = i; j < n; ++j) ta[j - i] = a[j], tb[j - i] = b[j];                  \
        _mm256_store_ps(ta, _ZGVdN8vv_##fn##f(_mm256_load_ps(ta), _mm256_load_ps(tb)));      \
        for (int64_t j = i; j < n; ++j) o[j] = ta[j - i];                                    \
      }                                                                                      \
    }                                                                                        \
  };                                                                                         \
  template <> struct VectorMath2<scalar::Op, double> {                                       \
    static constexpr bool available = true;                                                  \
    static void run(const double* a, const double* b, double* o, int64_t n) {                \
      int64_t i = 0;                                                                         \
      for (; i + 4 <= n; i += 4)                                                             \
        _mm256_storeu_pd(o + i, _ZGVdN4vv_##fn(_mm256_loadu_pd(a + i), _mm256_loadu_pd(b + i))); \
      if (i < n) {                                                                           \
        alignas(32) double ta[4] = {}, tb[4] = {};                                           \
        for (int64_t j = i; j < n; ++j) ta[j - i] = a[j], tb[j - i] = b[j];                  \
        _mm256_store_pd(ta, _ZGVdN4vv_##fn(_mm256_load_pd(ta), _mm256_load_pd(tb)));         \
        for (int64_t j = i; j < n; ++j) o[j] = ta[j - i];                                    \
      }                                                                                      \
    }                                                                                        \
  };
ACCEL_VECTOR_MATH2(Atan2Op, atan2)
ACCEL_VECTOR_MATH2(PowOp, pow)
#undef ACCEL_VECTOR_MATH2

}  // namespace accel::cpu

#endif
