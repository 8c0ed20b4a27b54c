// The small part of the C++ standard library that device_src/scalar_ops.h uses, for NVRTC,
// which has no standard headers: fixed-width integers, type traits, numeric_limits, the <cmath>
// functions (CUDA's device math) and std::complex. Generated CUDA kernels put this first and
// compile everything as device code (-default-device).
#pragma once

// Shared memory is declared through this macro, so that the tests' host emulator (simt_host.h,
// which defines it first) sees each shared variable and fills it with garbage at block start.
// The 16-bit floats' device types, __half and __nv_bfloat16: scalar_ops.h's InFloat and the
// dtype table (dtype.def) use them. NVRTC finds the headers with the toolkit's include
// directory (compiler.cpp passes -I).
#if defined(__CUDACC_RTC__)
#include <cuda_fp16.h>
#include <cuda_bf16.h>
namespace accel {
using half = __half;
using bfloat16_t = __nv_bfloat16;
}  // namespace accel
#endif

#ifndef ACCEL_SHARED
#define ACCEL_SHARED(type, name) __shared__ type name
#endif

typedef signed char int8_t;
typedef short int16_t;
typedef int int32_t;
typedef long long int64_t;
typedef unsigned char uint8_t;
typedef unsigned short uint16_t;
typedef unsigned int uint32_t;
typedef unsigned long long uint64_t;

namespace std {

template <class T, T v> struct integral_constant { static constexpr T value = v; };
using true_type = integral_constant<bool, true>;
using false_type = integral_constant<bool, false>;
template <class A, class B> struct is_same : false_type {};
template <class A> struct is_same<A, A> : true_type {};
template <class A, class B> inline constexpr bool is_same_v = is_same<A, B>::value;

template <class T> struct is_integral : false_type {};
#define ACCEL_INTEGRAL(T) template <> struct is_integral<T> : true_type {};
ACCEL_INTEGRAL(bool) ACCEL_INTEGRAL(char) ACCEL_INTEGRAL(signed char) ACCEL_INTEGRAL(unsigned char)
ACCEL_INTEGRAL(short) ACCEL_INTEGRAL(unsigned short) ACCEL_INTEGRAL(int) ACCEL_INTEGRAL(unsigned int)
ACCEL_INTEGRAL(long) ACCEL_INTEGRAL(unsigned long) ACCEL_INTEGRAL(long long)
ACCEL_INTEGRAL(unsigned long long)
#undef ACCEL_INTEGRAL
template <class T> inline constexpr bool is_integral_v = is_integral<T>::value;
template <class T> struct is_floating_point : false_type {};
template <> struct is_floating_point<float> : true_type {};
template <> struct is_floating_point<double> : true_type {};
template <class T> inline constexpr bool is_floating_point_v = is_floating_point<T>::value;
template <class T> inline constexpr bool is_signed_v = T(-1) < T(0);
template <class T> inline constexpr bool is_unsigned_v = is_integral_v<T> && !(T(-1) < T(0));

template <class T> struct make_unsigned { using type = T; };
template <> struct make_unsigned<bool> { using type = bool; };
template <> struct make_unsigned<signed char> { using type = unsigned char; };
template <> struct make_unsigned<short> { using type = unsigned short; };
template <> struct make_unsigned<int> { using type = unsigned int; };
template <> struct make_unsigned<long> { using type = unsigned long; };
template <> struct make_unsigned<long long> { using type = unsigned long long; };
template <class T> using make_unsigned_t = typename make_unsigned<T>::type;

template <class T> struct numeric_limits;
template <> struct numeric_limits<float> {
  static float quiet_NaN() { return __int_as_float(0x7fc00000); }
  static float infinity() { return __int_as_float(0x7f800000); }
  static constexpr float epsilon() { return 1.1920929e-7f; }
};
template <> struct numeric_limits<double> {
  static double quiet_NaN() { return __longlong_as_double(0x7ff8000000000000ll); }
  static double infinity() { return __longlong_as_double(0x7ff0000000000000ll); }
  static constexpr double epsilon() { return 2.220446049250313e-16; }
};

using ::acos; using ::acosh; using ::asin; using ::asinh; using ::atan; using ::atan2;
using ::atanh; using ::cbrt; using ::ceil; using ::copysign; using ::cos; using ::cosh;
using ::exp; using ::exp2; using ::expm1; using ::fabs; using ::floor; using ::fmod;
using ::hypot; using ::log; using ::log10; using ::log1p; using ::log2; using ::nearbyint;
using ::nextafter; using ::pow; using ::sin; using ::sinh; using ::sqrt; using ::tan;
using ::tanh; using ::trunc;
// Sine and cosine of one float in one call, CUDA's sincosf (generated kernels that need both:
// codegen/dialect.cpp).
inline void sincos(float x, float* s, float* c) { ::sincosf(x, s, c); }
inline bool isnan(float x) { return ::isnan(x); }
inline bool isnan(double x) { return ::isnan(x); }
inline bool isinf(float x) { return ::isinf(x); }
inline bool isinf(double x) { return ::isinf(x); }
inline bool isfinite(float x) { return ::isfinite(x); }
inline bool isfinite(double x) { return ::isfinite(x); }
inline bool signbit(float x) { return ::signbit(x); }
inline bool signbit(double x) { return ::signbit(x); }

template <class T> struct complex {
  T re, im;
  constexpr complex(T r = T(0), T i = T(0)) : re(r), im(i) {}
  template <class U> explicit constexpr complex(const complex<U>& o) : re(T(o.real())), im(T(o.imag())) {}
  constexpr T real() const { return re; }
  constexpr T imag() const { return im; }
};
template <class T> complex<T> operator+(complex<T> a, complex<T> b) { return {a.re + b.re, a.im + b.im}; }
template <class T> complex<T> operator-(complex<T> a, complex<T> b) { return {a.re - b.re, a.im - b.im}; }
template <class T> complex<T> operator-(complex<T> a) { return {-a.re, -a.im}; }
template <class T> complex<T> operator*(complex<T> a, complex<T> b) {
  return {a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re};
}
template <class T> complex<T> operator*(complex<T> a, T s) { return {a.re * s, a.im * s}; }
template <class T> complex<T> operator/(complex<T> a, T s) { return {a.re / s, a.im / s}; }
template <class T> complex<T> operator/(complex<T> a, complex<T> b) {
  // Smith's algorithm: no overflow for large |b|.
  if (fabs(b.re) >= fabs(b.im)) {
    T r = b.im / b.re, d = b.re + b.im * r;
    return {(a.re + a.im * r) / d, (a.im - a.re * r) / d};
  }
  T r = b.re / b.im, d = b.re * r + b.im;
  return {(a.re * r + a.im) / d, (a.im * r - a.re) / d};
}
template <class T> bool operator==(complex<T> a, complex<T> b) { return a.re == b.re && a.im == b.im; }
template <class T> bool operator!=(complex<T> a, complex<T> b) { return !(a == b); }
template <class T> T abs(complex<T> a) { return hypot(a.re, a.im); }
template <class T> T arg(complex<T> a) { return atan2(a.im, a.re); }
template <class T> complex<T> conj(complex<T> a) { return {a.re, -a.im}; }
template <class T> complex<T> polar(T r, T t) { return {r * cos(t), r * sin(t)}; }
template <class T> complex<T> exp(complex<T> a) { return polar(exp(a.re), a.im); }
template <class T> complex<T> log(complex<T> a) { return {log(abs(a)), arg(a)}; }
template <class T> complex<T> log10(complex<T> a) { return log(a) / T(2.302585092994045684); }
template <class T> complex<T> sqrt(complex<T> a) {
  if (a.re == T(0) && a.im == T(0)) return {T(0), a.im};
  T t = sqrt((fabs(a.re) + abs(a)) / T(2));
  if (a.re >= T(0)) return {t, a.im / (T(2) * t)};
  return {fabs(a.im) / (T(2) * t), copysign(t, a.im)};
}
template <class T> complex<T> pow(complex<T> a, complex<T> b) {
  if (a.re == T(0) && a.im == T(0)) return (b.re == T(0) && b.im == T(0)) ? complex<T>(T(1)) : complex<T>();
  return exp(b * log(a));
}
template <class T> complex<T> sinh(complex<T> a) { return {sinh(a.re) * cos(a.im), cosh(a.re) * sin(a.im)}; }
template <class T> complex<T> cosh(complex<T> a) { return {cosh(a.re) * cos(a.im), sinh(a.re) * sin(a.im)}; }
// Kahan's form (as glibc's ctanh): sinh(a) / cosh(a) overflows to inf / inf = NaN once |re|
// passes ~89 (float) or ~710 (double). The axes are exact: tanh(x + 0i) = tanh(x) + 0i,
// tanh(0 + yi) = i tan(y) (0 + NaN i at y = inf or NaN, as the Array API standard lists).
template <class T> complex<T> tanh(complex<T> a) {
  if (a.im == T(0)) return {tanh(a.re), a.im};
  if (a.re == T(0)) return {a.re, tan(a.im)};
  // Past |re| = 22 tanh(re) rounds to ±1; the imaginary part is 4 sin cos e^-2|re|.
  if (fabs(a.re) > T(22) && isfinite(a.im)) {
    return {copysign(T(1), a.re), T(4) * sin(a.im) * cos(a.im) * exp(T(-2) * fabs(a.re))};
  }
  const T t = tan(a.im), beta = T(1) + t * t, s = sinh(a.re), rho = sqrt(T(1) + s * s);
  const T den = T(1) + beta * s * s;
  return {beta * rho * s / den, t / den};
}
template <class T> complex<T> sin(complex<T> a) { return {sin(a.re) * cosh(a.im), cos(a.re) * sinh(a.im)}; }
template <class T> complex<T> cos(complex<T> a) { return {cos(a.re) * cosh(a.im), -sin(a.re) * sinh(a.im)}; }
template <class T> complex<T> tan(complex<T> a) { return sin(a) / cos(a); }
template <class T> complex<T> asinh(complex<T> a) { return log(a + sqrt(a * a + complex<T>(T(1)))); }
template <class T> complex<T> acosh(complex<T> a) {
  return log(a + sqrt(a + complex<T>(T(1))) * sqrt(a - complex<T>(T(1))));
}
template <class T> complex<T> atanh(complex<T> a) {
  return (log(complex<T>(T(1)) + a) - log(complex<T>(T(1)) - a)) * T(0.5);
}
template <class T> complex<T> asin(complex<T> a) {  // -i asinh(i a)
  complex<T> r = asinh(complex<T>(-a.im, a.re));
  return {r.im, -r.re};
}
template <class T> complex<T> acos(complex<T> a) {
  complex<T> s = asin(a);
  return {T(1.57079632679489661923) - s.re, -s.im};
}
template <class T> complex<T> atan(complex<T> a) {  // -i atanh(i a)
  complex<T> r = atanh(complex<T>(-a.im, a.re));
  return {r.im, -r.re};
}

}  // namespace std
