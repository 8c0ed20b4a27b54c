// The CPU's folds behind ufunc_at and ufunc_reduceat (fold_at.cpp); accel/backend/fold_at.h
// says what they compute.
#pragma once
#include "accel/core/array.h"
#include "accel/core/op_id.h"

namespace accel::cpu {

void fold_at(OpId op, const Array& dst, const Array& positions, const Array& values);

void fold_segments(OpId op, const Array& out, const Array& src, const Array& starts,
                   int64_t outer, int64_t n, int64_t inner);

}  // namespace accel::cpu
