// The typed CPU reductions, one source file per family so they compile in parallel.
#pragma once
#include "accel/backend/backend.h"
#include "accel/backend/cpu/reduce_layout.h"
#include "accel/core/dtype.h"

namespace accel::cpu {

// sum / prod of `in` (dtype in_dtype) accumulated in acc_dtype. Returns false, doing nothing,
// when that conversion is not done while reading (the caller converts the input first).
bool reduce_sum_prod(ReduceOp op, const ReduceLayout& l, Dtype in_dtype, const void* in,
                     Dtype acc_dtype, void* out);  // reduce_sum.cpp
// min / max (out: dtype) and argmin / argmax (out: int64).
void reduce_extreme(ReduceOp op, const ReduceLayout& l, Dtype dtype, const void* in,
                    void* out);  // reduce_extreme.cpp
// any / all (out: bool).
void reduce_logical(ReduceOp op, const ReduceLayout& l, Dtype dtype, const void* in,
                    void* out);  // reduce_logical.cpp

}  // namespace accel::cpu
