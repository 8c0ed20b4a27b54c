// accel::half, the host type of float16: IEEE binary16 storage, arithmetic done by the caller in
// float (as NumPy's float16 loops do). Conversions round to nearest even and keep NaN, inf,
// signed zeros and subnormals; a double is rounded to half directly, never through float, so
// no value is rounded twice (NumPy's npy_double_to_half does the same).
// Self-contained (no accel includes): the host JIT embeds this text in generated kernels.
#pragma once
#ifndef ACCEL_HALF_H
#define ACCEL_HALF_H
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#if defined(__F16C__)
#include <immintrin.h>
#endif

namespace accel {

namespace half_bits {

// Shifts a significand right by `shift` bits, rounding to nearest even.
template <class U> inline U shift_round_even(U sig, int shift) {
  if (shift <= 0) return sig;
  if (shift >= static_cast<int>(sizeof(U) * 8)) return 0;
  const U q = sig >> shift;
  const U rem = sig & ((U(1) << shift) - 1);
  const U halfway = U(1) << (shift - 1);
  return (rem > halfway || (rem == halfway && (q & 1))) ? U(q + 1) : q;
}

// Rounds an IEEE value given as (sign, biased exponent, fraction) of a format with `Frac`
// fraction bits, exponent bias `Bias` and all-ones exponent `MaxExp` to a 16-bit format with
// `ToFrac` fraction bits and bias `ToBias`: binary16 (10, 15) or bfloat16 (7, 127, bfloat16.h).
template <int ToFrac, int ToBias, class U, int Frac, int Bias, int MaxExp>
inline uint16_t round_ieee(U bits) {
  constexpr unsigned kInf = static_cast<unsigned>(2 * ToBias + 1) << ToFrac;
  constexpr unsigned kQuiet = 1u << (ToFrac - 1);
  const uint16_t sign = static_cast<uint16_t>((bits >> (sizeof(U) * 8 - 16)) & 0x8000u);
  const int exp = static_cast<int>((bits >> Frac) & U(MaxExp));
  const U frac = bits & ((U(1) << Frac) - 1);
  if (exp == MaxExp)  // inf, or NaN kept quiet with the top of its payload
    return frac ? static_cast<uint16_t>(sign | kInf | kQuiet | static_cast<uint16_t>(frac >> (Frac - ToFrac)))
                : static_cast<uint16_t>(sign | kInf);
  const int e = exp - Bias;  // unbiased; source subnormals are far below the target's range
  if (e > ToBias) return static_cast<uint16_t>(sign | kInf);
  if (e >= 1 - ToBias) {
    // Normal: a carry out of the fraction steps the exponent, up to inf (binary16: 65520 and up).
    const U q = shift_round_even(frac, Frac - ToFrac);
    return static_cast<uint16_t>(sign | ((static_cast<unsigned>(e + ToBias) << ToFrac) + static_cast<unsigned>(q)));
  }
  if (exp == 0) return sign;
  // Subnormal target: the value in units of its smallest subnormal (2^-24 for binary16),
  // rounded; half of that unit and below go to zero.
  const U sig = frac | (U(1) << Frac);
  return static_cast<uint16_t>(sign | static_cast<uint16_t>(shift_round_even(sig, Frac - (ToBias - 1 + ToFrac) - e)));
}

inline uint16_t from_float(float f) {
#if defined(__F16C__)
  return static_cast<uint16_t>(_cvtss_sh(f, _MM_FROUND_TO_NEAREST_INT));
#else
  uint32_t b;
  std::memcpy(&b, &f, 4);
  return round_ieee<10, 15, uint32_t, 23, 127, 0xff>(b);
#endif
}

inline uint16_t from_double(double d) {
  uint64_t b;
  std::memcpy(&b, &d, 8);
  return round_ieee<10, 15, uint64_t, 52, 1023, 0x7ff>(b);
}

inline float to_float(uint16_t h) {
#if defined(__F16C__)
  return _cvtsh_ss(h);
#else
  const uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
  const uint32_t exp = (h >> 10) & 0x1f;
  uint32_t frac = h & 0x3ffu;
  uint32_t bits;
  if (exp == 0x1f) {
    bits = sign | 0x7f800000u | (frac << 13);
  } else if (exp != 0) {
    bits = sign | ((exp + 112) << 23) | (frac << 13);
  } else if (frac == 0) {
    bits = sign;
  } else {  // subnormal half: normalise
    int e = 113;
    while (!(frac & 0x400u)) {
      frac <<= 1;
      --e;
    }
    bits = sign | (static_cast<uint32_t>(e) << 23) | ((frac & 0x3ffu) << 13);
  }
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
#endif
}

}  // namespace half_bits

struct half {
  uint16_t bits;

  half() = default;
  explicit half(float f) : bits(half_bits::from_float(f)) {}
  explicit half(double d) : bits(half_bits::from_double(d)) {}
  explicit half(long double d) : half(static_cast<double>(d)) {}
  // Integers go through float: exact below 2^24, and anything larger is past half's range.
  template <class I, std::enable_if_t<std::is_integral_v<I>, int> = 0>
  explicit half(I v) : half(static_cast<float>(v)) {}
  // Implicit: comparisons and float math read a half as the float it is exactly.
  operator float() const { return half_bits::to_float(bits); }

  static half from_bits(uint16_t b) {
    half h;
    h.bits = b;
    return h;
  }
};

namespace half_bits {

// Adjacent value of a 16-bit float type H (sign and magnitude bits, .bits) from a towards b,
// as NumPy's npy_half_nextafter: computing in float and rounding would step by a float ulp and
// round back to a. Equal operands give `a` where equal_gives_a (npy_half_nextafter: the sign of
// nextafter(0.0, -0.0) is a's), else b (C's nextafter, and ml_dtypes' for bfloat16).
template <class H> inline H step_toward(H a, H b, uint16_t quiet_nan, bool equal_gives_a) {
  const float fa = a, fb = b;
  if (fa != fa || fb != fb) return H::from_bits(quiet_nan);
  if (fa == fb) return equal_gives_a ? a : b;
  if (fa == 0) return H::from_bits(static_cast<uint16_t>((b.bits & 0x8000u) | 1u));
  const bool away = (fa < fb) == (fa > 0);  // moving away from zero grows the magnitude bits
  return H::from_bits(static_cast<uint16_t>(away ? a.bits + 1 : a.bits - 1));
}

}  // namespace half_bits

inline half nextafter(half a, half b) { return half_bits::step_toward(a, b, 0x7e00, true); }

}  // namespace accel

template <> class std::numeric_limits<accel::half> {
 public:
  static constexpr bool is_specialized = true;
  static constexpr bool is_signed = true;
  static constexpr bool is_integer = false;
  static constexpr bool is_exact = false;
  static constexpr bool has_infinity = true;
  static constexpr bool has_quiet_NaN = true;
  static constexpr bool is_iec559 = true;
  static constexpr int digits = 11;
  static constexpr int digits10 = 3;
  static constexpr int max_digits10 = 5;
  static constexpr int radix = 2;
  static constexpr int min_exponent = -13;
  static constexpr int max_exponent = 16;
  static accel::half min() { return accel::half::from_bits(0x0400); }
  static accel::half lowest() { return accel::half::from_bits(0xfbff); }
  static accel::half max() { return accel::half::from_bits(0x7bff); }
  static accel::half epsilon() { return accel::half::from_bits(0x1400); }
  static accel::half infinity() { return accel::half::from_bits(0x7c00); }
  static accel::half quiet_NaN() { return accel::half::from_bits(0x7e00); }
  static accel::half denorm_min() { return accel::half::from_bits(0x0001); }
};

#endif  // ACCEL_HALF_H
