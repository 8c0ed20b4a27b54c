// Dtypes: the enum, their properties, C++ type mapping and NEP 50 / Array API promotion.
#pragma once
#include <complex>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>

#include "accel/core/bfloat16.h"
#include "accel/core/half.h"

namespace accel {

enum class DtypeKind : uint8_t { Bool, SignedInt, UnsignedInt, Float, Complex };

enum class Dtype : uint8_t {
#define ACCEL_DTYPE(name, ctype, str, kind) name,
#include "accel/core/dtype.def"
#undef ACCEL_DTYPE
};

inline constexpr int kNumDtypes = 0
#define ACCEL_DTYPE(name, ctype, str, kind) +1
#include "accel/core/dtype.def"
#undef ACCEL_DTYPE
    ;

// Public constants so C++ reads like Python: accel::float32.
#define ACCEL_DTYPE(name, ctype, str, kind) inline constexpr Dtype name = Dtype::name;
#include "accel/core/dtype.def"
#undef ACCEL_DTYPE

namespace detail {
struct DtypeInfo {
  const char* name;
  size_t itemsize;
  DtypeKind kind;
};
// In the header: itemsize and the kind tests run on every op's per-call path.
inline constexpr DtypeInfo kDtypeInfo[] = {
#define ACCEL_DTYPE(name, ctype, str, kind) {str, sizeof(ctype), DtypeKind::kind},
#include "accel/core/dtype.def"
#undef ACCEL_DTYPE
};
}  // namespace detail

inline size_t itemsize(Dtype dt) { return detail::kDtypeInfo[static_cast<size_t>(dt)].itemsize; }
inline const char* dtype_name(Dtype dt) { return detail::kDtypeInfo[static_cast<size_t>(dt)].name; }
inline DtypeKind dtype_kind(Dtype dt) { return detail::kDtypeInfo[static_cast<size_t>(dt)].kind; }
Dtype dtype_from_name(std::string_view name);  // "float32", "f4", "int", "float", ... ; throws DTypeError

inline bool is_bool(Dtype dt) { return dtype_kind(dt) == DtypeKind::Bool; }
inline bool is_integer(Dtype dt) {
  auto k = dtype_kind(dt);
  return k == DtypeKind::SignedInt || k == DtypeKind::UnsignedInt;
}
inline bool is_unsigned(Dtype dt) { return dtype_kind(dt) == DtypeKind::UnsignedInt; }
inline bool is_floating(Dtype dt) { return dtype_kind(dt) == DtypeKind::Float; }
inline bool is_complex(Dtype dt) { return dtype_kind(dt) == DtypeKind::Complex; }
inline bool is_inexact(Dtype dt) { return is_floating(dt) || is_complex(dt); }
inline bool is_numeric(Dtype dt) { return !is_bool(dt); }

// NumPy 2 promotion of two dtypes (int64 + uint64 -> float64, like NumPy). bfloat16, which NumPy
// lacks, promotes as ml_dtypes and JAX: bool and 8-bit ints join it, float16 meets it in
// float32, wider ints and floats as they do with float16.
Dtype promote_types(Dtype a, Dtype b);
// The real dtype of a complex one (complex64 -> float32); identity otherwise.
Dtype real_dtype(Dtype dt);
// The complex dtype holding a real one (float32 -> complex64).
Dtype complex_dtype(Dtype dt);
// Result dtype of float-only math on dt (sin, sqrt): the smallest float holding every value of
// an integer dtype, as NumPy's loop selection: bool and 8-bit ints -> float16, 16-bit ->
// float32, wider -> float64.
Dtype inexact_dtype(Dtype dt);
// Default integer / float / complex dtypes (NumPy 2 on 64-bit Linux).
inline constexpr Dtype default_int = Dtype::int64;
inline constexpr Dtype default_float = Dtype::float64;
inline constexpr Dtype default_complex = Dtype::complex128;
// Can every value of `from` be represented in `to` (NumPy's can_cast "safe").
bool can_cast_safely(Dtype from, Dtype to);
// NumPy's "same_kind" casting: casts that keep or raise the kind in the order bool < unsigned
// < signed < float < complex (uint16 -> int8 is allowed, int8 -> uint16 and float -> int not).
bool can_cast_same_kind(Dtype from, Dtype to);

// C++ type <-> Dtype.
template <class T> struct DtypeOf;
#define ACCEL_DTYPE(name, ctype, str, kind) \
  template <> struct DtypeOf<ctype> { static constexpr Dtype value = Dtype::name; };
#include "accel/core/dtype.def"
#undef ACCEL_DTYPE
template <class T> inline constexpr Dtype dtype_of = DtypeOf<T>::value;

template <class T> struct TypeTag { using type = T; };

// Calls f(TypeTag<T>{}) with the C++ type of dt: the one switch every typed loop goes through.
template <class F> decltype(auto) dispatch_dtype(Dtype dt, F&& f) {
  switch (dt) {
#define ACCEL_DTYPE(name, ctype, str, kind) \
  case Dtype::name: return f(TypeTag<ctype>{});
#include "accel/core/dtype.def"
#undef ACCEL_DTYPE
  }
  return f(TypeTag<bool>{});
}

// The 16-bit floats, stored narrow and computed in float (half.h, bfloat16.h).
template <class T> inline constexpr bool is_narrow_float_v =
    std::is_same_v<T, half> || std::is_same_v<T, bfloat16_t>;

template <class T> inline constexpr bool is_complex_v = false;
template <class T> inline constexpr bool is_complex_v<std::complex<T>> = true;

}  // namespace accel
