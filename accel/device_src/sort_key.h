// NumPy's sort order as unsigned integers, for radix sorts: written once, for the CPU's radix
// sort (backend/cpu/radix_sort.h) and the CUDA sort (sort.cuh, compiled after this file in
// the same NVRTC source). Unsigned order of the keys is the sort order; descending is the
// complemented key.
#pragma once
#include <cstdint>

namespace accel::kernels {

constexpr uint64_t low_mask(int bits) {
  return bits >= 64 ? ~uint64_t(0) : (uint64_t(1) << bits) - 1;
}

// Exponent bits of a float held in Bits: half 5, float 8, double 11; bfloat16 (16 bits, 8 of
// exponent) passes 8.
template <class Bits>
constexpr int float_exponent_bits() {
  return sizeof(Bits) == 2 ? 5 : sizeof(Bits) == 4 ? 8 : 11;
}

// The sign bit and +inf's bits of a float of Bits' width with E exponent bits.
template <class Bits, int E>
struct FloatBits {
  static constexpr int W = int(sizeof(Bits) * 8);
  static constexpr uint64_t sign = uint64_t(1) << (W - 1);
  static constexpr uint64_t inf = ((uint64_t(1) << E) - 1) << (W - 1 - E);
};

// The key of an IEEE float of Bits' width (half, float, double; bfloat16 with E = 8): positives
// get the sign bit set, negatives are complemented, so unsigned order is numeric order. Both
// zeros map to +0's key: they compare equal, and a stable sort keeps their input order. Every
// NaN maps to all ones, after +inf.
template <class Bits, int E = float_exponent_bits<Bits>()>
inline uint64_t float_key(Bits bits) {
  using F = FloatBits<Bits, E>;
  const uint64_t x = bits;
  const uint64_t magnitude = x & (F::sign - 1);
  if (magnitude > F::inf) return low_mask(F::W);
  if (magnitude == 0) return F::sign;
  return (x & F::sign) ? (~x & low_mask(F::W)) : (x | F::sign);
}

// Whether float_key(bits) does not give the value back: a NaN (every payload shares one key)
// or -0.0 (it shares +0.0's).
template <class Bits, int E = float_exponent_bits<Bits>()>
inline bool float_key_merges(Bits bits) {
  using F = FloatBits<Bits, E>;
  const uint64_t x = bits;
  return (x & (F::sign - 1)) > F::inf || x == F::sign;
}

}  // namespace accel::kernels
