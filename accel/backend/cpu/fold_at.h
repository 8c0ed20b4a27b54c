// The CPU's fold behind ufunc_at (fold_at.cpp); accel/backend/fold_at.h says what it computes.
#pragma once
#include "accel/core/array.h"
#include "accel/core/op_id.h"

namespace accel::cpu {

void fold_at(OpId op, const Array& dst, const Array& positions, const Array& values);

}  // namespace accel::cpu
