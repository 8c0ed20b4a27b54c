// Result dtypes of mixed operands: NumPy 2 / Array API promotion with NEP 50 weak scalars.
#pragma once
#include <span>
#include <string_view>

#include "accel/core/array.h"

namespace accel {

// The dtype of an op on `arrays`; weak (Python scalar) operands adapt to the others.
Dtype result_type(std::span<const Array> arrays);
// The float dtype float math (sin, atan2, hypot, ...) runs in when every input is bool or an
// integer: like NumPy, the smallest float each strong input casts to safely, promoted
// (int8 with uint16 -> float32, where the float of their promoted int32 would be float64).
Dtype float_math_type(std::span<const Array> arrays);
// Where a weak integer lies against the range of integer dtype `target`: -1 below, +1 above,
// 0 inside (also for non-integers). Comparisons use it: NumPy 2 answers int8_array < 300.
int weak_int_side(const Array& weak_scalar, Dtype target);
// Throws OverflowError when a weak integer does not fit `target` (NumPy 2 behaviour).
void check_weak_fits(const Array& weak_scalar, Dtype target, const char* op);
// NumPy's rules for storing a Python number into an array of `target` (x[i] = v, x.fill(v)):
// check_weak_fits, and a float stored into integers as int(v) is (NaN: ValueError, infinity
// or a value beyond the dtype: OverflowError), a complex into integers or floats: TypeError
// (its imaginary part is never dropped silently). Other values (arrays, NumPy scalars) cast.
void check_weak_store(const Array& value, Dtype target, const char* op);

// NumPy's casting= rules: no/equiv (the same dtype), safe (every value fits), same_kind (the
// kind stays or rises: float64 -> float32, int -> float, uint -> int, not int -> uint; see
// can_cast_same_kind in core/dtype.h), unsafe (anything).
enum class Casting : unsigned char { no, equiv, safe, same_kind, unsafe };
bool can_cast(Dtype from, Dtype to, Casting casting);
// "same_kind" -> Casting::same_kind; throws ValueError naming `op` for other names.
Casting casting_from_name(std::string_view name, const char* op);
const char* casting_name(Casting casting);

}  // namespace accel
