// The fold behind ufunc_at (ops/ufunc_at.h) on an array's device, dispatched here by device kind
// (cpu/fold_at.h, cuda/fold_at.h), as sorting.h's entry points are.
#pragma once
#include "accel/core/array.h"
#include "accel/core/op_id.h"

namespace accel {

// dst[positions[k]] = op(dst[positions[k]], values[k]) for k = 0, 1, ... in order: each element
// takes its operands in the order they are listed, as NumPy's unbuffered ufunc.at does. dst:
// contiguous 1-d of the op's dtype (it computes in and returns it); positions: contiguous int64
// in [0, dst.size()) (checked by the caller); values: contiguous, dst's dtype, positions' length
// or one value for every position; all on dst's device, evaluated.
void fold_at_on_device(OpId op, const Array& dst, const Array& positions, const Array& values);

}  // namespace accel
