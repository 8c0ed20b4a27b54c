// Compile-time comparison of accel's declarations of a runtime-loaded library's functions (the
// cuBLAS, cuFFT and cuSOLVER .def files) with the toolkit headers' own. A parameter list that
// differs (an int where the library takes a long long, a missing argument) compiles and then
// corrupts the call on a GPU, so each pair must have the same number of parameters, each of the
// same kind (pointer, integer or enum, floating point) and size. Pointees are not compared:
// accel passes matrices, scalars and handles as void*.
#pragma once
#include <cstddef>
#include <type_traits>

namespace accel::test::abi {

template <class T>
constexpr int kind() {
  if constexpr (std::is_pointer_v<T>)
    return 1;
  else if constexpr (std::is_integral_v<T> || std::is_enum_v<T>)
    return 2;
  else if constexpr (std::is_floating_point_v<T>)
    return 3;
  else if constexpr (std::is_void_v<T>)
    return 4;
  else
    return 5;
}
template <class T>
constexpr size_t size_of() {
  if constexpr (std::is_void_v<T>)
    return 0;
  else
    return sizeof(T);
}
template <class A, class B>
constexpr bool same_slot() {
  return kind<A>() == kind<B>() && size_of<A>() == size_of<B>();
}
template <class R1, class... A1, class R2, class... A2>
constexpr bool call_compatible(R1 (*)(A1...), R2 (*)(A2...)) {
  if constexpr (sizeof...(A1) != sizeof...(A2))
    return false;
  else
    return same_slot<R1, R2>() && (same_slot<A1, A2>() && ...);
}

}  // namespace accel::test::abi
