// The folds behind ufunc_at and ufunc_reduceat (ops/ufunc_at.h) on an array's device, dispatched here by device kind
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

// ufunc.reduceat's segments: src contiguous (outer, n, inner), out contiguous (outer,
// starts.size(), inner), both of the op's dtype; for every (outer, inner) lane, segment k folds
// src rows starts[k], starts[k] + 1, ..., stop - 1 in order, where stop is starts[k + 1] (n for the
// last) if that is past starts[k], else starts[k] + 1. starts: contiguous int64 in [0, n)
// (checked by the caller), at least one; all on out's device, evaluated. Sums of floats and
// complex numbers add a segment's later rows first and its first row to that sum, as NumPy's
// reduceat does (sums_rest_first): a segment's -0.0s sum to -0.0, and short segments are NumPy's
// to the bit (the CPU sums the rest with NumPy's pairwise grouping, so long ones are too there).
void fold_segments_on_device(OpId op, const Array& out, const Array& src, const Array& starts,
                             int64_t outer, int64_t n, int64_t inner);

inline bool sums_rest_first(OpId op, Dtype dtype) { return op == OpId::add && is_inexact(dtype); }

}  // namespace accel
