// Result dtypes of mixed operands: NumPy 2 / Array API promotion with NEP 50 weak scalars.
#pragma once
#include <span>

#include "accel/core/array.h"

namespace accel {

// The dtype of an op on `arrays`; weak (Python scalar) operands adapt to the others.
Dtype result_type(std::span<const Array> arrays);
// Throws OverflowError when a weak integer does not fit `target` (NumPy 2 behaviour).
void check_weak_fits(const Array& weak_scalar, Dtype target, const char* op);

}  // namespace accel
