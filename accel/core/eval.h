// Evaluation of pending elementwise nodes (DESIGN.md "Evaluation").
#pragma once
#include "accel/core/array.h"

namespace accel {

// Longest chain of pending nodes kept before inputs are computed eagerly (bounds recursion and
// the memory held by a graph).
inline constexpr int kMaxPendingDepth = 32;

// Computes a pending array into a new contiguous buffer of its device.
void evaluate(const Array& a);
// Computes a pending array directly into `out` (same shape and dtype, any strides).
void evaluate_into(const Array& pending, const Array& out);

}  // namespace accel
