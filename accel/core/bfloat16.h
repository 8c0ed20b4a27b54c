// accel::bfloat16_t, the host type of bfloat16: the top 16 bits of a float32 (1 sign, 8 exponent,
// 7 fraction bits), arithmetic done by the caller in float, as float16 (half.h). To float is a
// shift; from float rounds to nearest even with integer ops only, so loops of it vectorise
// (half_loops.h). A double or a wide integer is rounded to bfloat16 directly, never through
// float, so no value is rounded twice; a NaN becomes the quiet NaN 0x7fc0 with its sign. Both
// as ml_dtypes, the bfloat16 NumPy works with.
// Self-contained but for half.h (the host JIT embeds both texts in generated kernels).
#pragma once
#ifndef ACCEL_BFLOAT16_H
#define ACCEL_BFLOAT16_H
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#if !defined(ACCEL_HALF_H)
#include "accel/core/half.h"
#endif

namespace accel {

namespace bfloat16_bits {

inline constexpr uint16_t kQuietNan = 0x7fc0;

// Round to nearest even on the 16 bits shifted out; a NaN (which the carry could turn into inf)
// is replaced by the quiet NaN. Branch-free, so a loop of it compiles to vector blends.
inline uint16_t from_float_bits(uint32_t b) {
  const uint32_t rounded = (b + 0x7fffu + ((b >> 16) & 1u)) >> 16;
  const uint32_t nan = ((b >> 16) & 0x8000u) | kQuietNan;
  return static_cast<uint16_t>((b & 0x7fffffffu) > 0x7f800000u ? nan : rounded);
}

inline uint16_t from_float(float f) {
  uint32_t b;
  std::memcpy(&b, &f, 4);
  return from_float_bits(b);
}

inline uint16_t from_double(double d) {
  uint64_t b;
  std::memcpy(&b, &d, 8);
  if ((b & 0x7fffffffffffffffull) > 0x7ff0000000000000ull)
    return static_cast<uint16_t>(((b >> 48) & 0x8000u) | kQuietNan);
  return half_bits::round_ieee<7, 127, uint64_t, 52, 1023, 0x7ff>(b);
}

// An integer's magnitude rounded once to bfloat16's 8 significant bits (through float, a value
// of more than 24 bits would be rounded twice).
inline uint16_t from_magnitude(uint64_t m, bool negative) {
  const uint16_t sign = negative ? 0x8000u : 0u;
  if (m == 0) return sign;
  int n = 64 - __builtin_clzll(m);  // significant bits
  uint64_t q = n > 8 ? half_bits::shift_round_even(m, n - 8) : m << (8 - n);
  if (q >> 8) {  // rounding carried into a ninth bit: the next power of two
    q >>= 1;
    ++n;
  }
  return static_cast<uint16_t>(sign | (static_cast<unsigned>(n - 1 + 127) << 7) |
                               static_cast<unsigned>(q & 0x7fu));
}

inline float to_float(uint16_t h) {
  const uint32_t b = static_cast<uint32_t>(h) << 16;
  float f;
  std::memcpy(&f, &b, 4);
  return f;
}

}  // namespace bfloat16_bits

struct bfloat16_t {
  uint16_t bits;

  bfloat16_t() = default;
  explicit bfloat16_t(float f) : bits(bfloat16_bits::from_float(f)) {}
  explicit bfloat16_t(double d) : bits(bfloat16_bits::from_double(d)) {}
  explicit bfloat16_t(long double d) : bfloat16_t(static_cast<double>(d)) {}
  template <class I, std::enable_if_t<std::is_integral_v<I>, int> = 0>
  explicit bfloat16_t(I v) {
    if constexpr (std::is_signed_v<I>)
      bits = bfloat16_bits::from_magnitude(
          v < 0 ? uint64_t(0) - static_cast<uint64_t>(v) : static_cast<uint64_t>(v), v < 0);
    else bits = bfloat16_bits::from_magnitude(static_cast<uint64_t>(v), false);
  }
  // Implicit: comparisons and float math read a bfloat16 as the float it is exactly.
  operator float() const { return bfloat16_bits::to_float(bits); }

  static bfloat16_t from_bits(uint16_t b) {
    bfloat16_t h;
    h.bits = b;
    return h;
  }
};

inline bfloat16_t nextafter(bfloat16_t a, bfloat16_t b) {
  return half_bits::step_toward(a, b, bfloat16_bits::kQuietNan, false);
}

}  // namespace accel

template <> class std::numeric_limits<accel::bfloat16_t> {
 public:
  static constexpr bool is_specialized = true;
  static constexpr bool is_signed = true;
  static constexpr bool is_integer = false;
  static constexpr bool is_exact = false;
  static constexpr bool has_infinity = true;
  static constexpr bool has_quiet_NaN = true;
  static constexpr bool is_iec559 = false;  // not an IEEE interchange format
  static constexpr int digits = 8;
  static constexpr int digits10 = 2;
  static constexpr int max_digits10 = 4;
  static constexpr int radix = 2;
  static constexpr int min_exponent = -125;
  static constexpr int max_exponent = 128;
  static accel::bfloat16_t min() { return accel::bfloat16_t::from_bits(0x0080); }
  static accel::bfloat16_t lowest() { return accel::bfloat16_t::from_bits(0xff7f); }
  static accel::bfloat16_t max() { return accel::bfloat16_t::from_bits(0x7f7f); }
  static accel::bfloat16_t epsilon() { return accel::bfloat16_t::from_bits(0x3c00); }
  static accel::bfloat16_t infinity() { return accel::bfloat16_t::from_bits(0x7f80); }
  static accel::bfloat16_t quiet_NaN() { return accel::bfloat16_t::from_bits(0x7fc0); }
  static accel::bfloat16_t denorm_min() { return accel::bfloat16_t::from_bits(0x0001); }
};

#endif  // ACCEL_BFLOAT16_H
