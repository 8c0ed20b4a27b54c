// C++ operators on arrays, with C++ numbers acting as weak scalars (like Python's): x * 2.0f
// stays float32 for a float32 x.
#pragma once
#include <complex>
#include <type_traits>

#include "accel/ops/elementwise.h"

namespace accel {

// A C++ number as a weak 0-d array on `device`.
template <class T> Array weak_scalar(T v, Device device) {
  if constexpr (std::is_same_v<T, bool>) return Array::scalar(v, true, device);
  else if constexpr (std::is_integral_v<T> && std::is_unsigned_v<T> && sizeof(T) == 8)
    return Array::scalar(static_cast<uint64_t>(v), true, device);
  else if constexpr (std::is_integral_v<T>) return Array::scalar(static_cast<int64_t>(v), true, device);
  else if constexpr (std::is_floating_point_v<T>) return Array::scalar(static_cast<double>(v), true, device);
  else return Array::scalar(std::complex<double>(v), true, device);
}

template <class T>
concept Number = std::is_arithmetic_v<T> || std::is_same_v<T, std::complex<float>> ||
                 std::is_same_v<T, std::complex<double>>;

#define ACCEL_BINARY_OPERATOR(sym, fn)                                                        \
  inline Array operator sym(const Array& a, const Array& b) { return fn(a, b); }              \
  template <Number T> Array operator sym(const Array& a, T b) {                               \
    return fn(a, weak_scalar(b, a.device()));                                                 \
  }                                                                                           \
  template <Number T> Array operator sym(T a, const Array& b) {                               \
    return fn(weak_scalar(a, b.device()), b);                                                 \
  }
ACCEL_BINARY_OPERATOR(+, add)
ACCEL_BINARY_OPERATOR(-, subtract)
ACCEL_BINARY_OPERATOR(*, multiply)
ACCEL_BINARY_OPERATOR(/, divide)
ACCEL_BINARY_OPERATOR(%, remainder)
ACCEL_BINARY_OPERATOR(&, bitwise_and)
ACCEL_BINARY_OPERATOR(|, bitwise_or)
ACCEL_BINARY_OPERATOR(^, bitwise_xor)
ACCEL_BINARY_OPERATOR(<<, bitwise_left_shift)
ACCEL_BINARY_OPERATOR(>>, bitwise_right_shift)
ACCEL_BINARY_OPERATOR(==, equal)
ACCEL_BINARY_OPERATOR(!=, not_equal)
ACCEL_BINARY_OPERATOR(<, less)
ACCEL_BINARY_OPERATOR(<=, less_equal)
ACCEL_BINARY_OPERATOR(>, greater)
ACCEL_BINARY_OPERATOR(>=, greater_equal)
#undef ACCEL_BINARY_OPERATOR

inline Array operator-(const Array& a) { return negative(a); }
inline Array operator~(const Array& a) { return bitwise_invert(a); }

}  // namespace accel
