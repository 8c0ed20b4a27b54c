// Stable LSD radix sort for the CPU's sort and argsort of integer, bool and real rows
// (sort.cpp). Comparison sorts cost n log n comparisons with unpredictable branches; a radix
// sort makes one pass per byte of the key (fewer when a byte is the same in every key, as in
// small-range integers), each a sequential read and a scatter, and splits every pass across the
// pool. Keys are first mapped to unsigned integers whose order is the sort order (RadixKey).
#pragma once
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "accel/core/array.h"
#include "accel/core/dtype.h"
#include "accel/core/half.h"
#include "accel/device_src/sort_key.h"

namespace accel::cpu {

// T's sort order as an unsigned integer: NumPy's order (NaN after every number), -0.0 equal to
// 0.0 (they keep their input order, as in the stable comparison sort), and descending as the
// complement (NaNs first, ties still in input order). `exact` is false for the values the key
// cannot give back (NaN payloads, -0.0): rows holding one sort their positions and gather.
template <class T, class Enable = void>
struct RadixKey;

template <class T>
struct RadixKey<T, std::enable_if_t<std::is_integral_v<T>>> {
  using U = std::make_unsigned_t<std::conditional_t<std::is_same_v<T, bool>, uint8_t, T>>;
  static constexpr U kFlip = std::is_signed_v<T> ? U(U(1) << (8 * sizeof(U) - 1)) : U(0);
  static U encode(T x, bool descending, bool* exact) {
    (void)exact;
    const U k = U(U(x) ^ kFlip);
    return descending ? U(~k) : k;
  }
  static T decode(U k, bool descending) { return T(U((descending ? U(~k) : k) ^ kFlip)); }
};

template <class T>
struct RadixKey<T, std::enable_if_t<std::is_floating_point_v<T> || is_narrow_float_v<T>>> {
  using U = std::conditional_t<sizeof(T) == 2, uint16_t, std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>>;
  static constexpr int kExponent = std::is_same_v<T, bfloat16_t> ? 8 : kernels::float_exponent_bits<U>();
  static constexpr U kSign = U(U(1) << (8 * sizeof(U) - 1));
  static U encode(T x, bool descending, bool* exact) {
    U b;
    std::memcpy(&b, &x, sizeof b);
    if (kernels::float_key_merges<U, kExponent>(b)) *exact = false;
    const U k = U(kernels::float_key<U, kExponent>(b));  // the CUDA sort's key (device_src/sort_key.h)
    return descending ? U(~k) : k;
  }
  static T decode(U k, bool descending) {
    if (descending) k = U(~k);
    const U b = (k & kSign) ? U(k & ~kSign) : U(~k);
    T x;
    std::memcpy(&x, &b, sizeof b);
    return x;
  }
};

template <class T, class = void>
struct has_radix_key : std::false_type {};
template <class T>
struct has_radix_key<T, std::void_t<typename RadixKey<T>::U>> : std::true_type {};

// n elements of scratch memory from the CPU allocator's cache, alive as long as `holder`: big
// blocks there start on huge pages and are reused between calls, where fresh memory costs a
// page fault per 4 KB on first touch (20 ms for the 40 MB of 1e7 keys on this VM, most of a
// sort's time beside the passes).
template <class E> E* scratch(int64_t n, Array& holder) {
  holder = Array::empty({n * static_cast<int64_t>(sizeof(E))}, Dtype::uint8, Device::cpu());
  return static_cast<E*>(holder.data());
}

// Sorts keys[0, n) stably, carrying `positions` (may be null) along; `parallel`: split each
// pass across the pool. Defined for uint8_t, uint16_t, uint32_t and uint64_t keys.
template <class U>
void radix_sort(U* keys, int64_t* positions, int64_t n, bool parallel);

}  // namespace accel::cpu
