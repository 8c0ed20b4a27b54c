// Matrix and tensor products (Array API matmul, tensordot, vecdot; NumPy dot, inner, outer,
// vdot). Inputs are promoted to a common dtype and the products run on the device's BLAS (an
// integer/bool loop on the CPU, not BLAS-accelerated). Results are computed, not pending.
#pragma once
#include <vector>

#include "accel/core/array.h"

namespace accel {

// NumPy / Array API matmul: 1-d operands are promoted to a matrix and the added axis removed
// from the result; leading axes are a batch and broadcast against each other.
Array matmul(const Array& x1, const Array& x2);
// Contracts the last `axes` axes of x1 with the first `axes` axes of x2.
Array tensordot(const Array& x1, const Array& x2, int64_t axes = 2);
// Contracts axes1[i] of x1 with axes2[i] of x2 (sizes must match).
Array tensordot(const Array& x1, const Array& x2, const std::vector<int64_t>& axes1,
                const std::vector<int64_t>& axes2);
// sum(conj(x1) * x2) along `axis`, with the other axes broadcast (Array API vecdot).
Array vecdot(const Array& x1, const Array& x2, int64_t axis = -1);
// NumPy dot: multiply for 0-d operands, matmul for 1-d and 2-d ones, and otherwise a sum over
// the last axis of x1 and the second-to-last of x2.
Array dot(const Array& x1, const Array& x2);
// NumPy inner: a sum over the last axes of both (multiply for 0-d operands).
Array inner(const Array& x1, const Array& x2);
// NumPy outer: every element of x1 (flattened) times every element of x2 (flattened).
Array outer(const Array& x1, const Array& x2);
// NumPy vdot: the dot product of the flattened operands, x1 conjugated.
Array vdot(const Array& x1, const Array& x2);

}  // namespace accel
