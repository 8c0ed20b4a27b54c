// The iteration space every backend walks, planned once: an N-d loop over several operands with
// length-1 axes dropped and neighbouring axes merged wherever every operand steps through the
// pair as through one axis, so a C-contiguous N-d walk becomes one row. Used by the CPU's
// strided loops, fused interpreter and host-JIT launcher (cpu/fused_rows.h) and gathers/scatters,
// and by the CUDA launch layouts.
#pragma once
#include <cstdint>
#include <span>
#include <vector>

#include "accel/core/shape.h"

namespace accel::plan {

// In place over raw arrays, so hot paths pay no allocation: shape[0..ndim) and, per operand k,
// steps[k][0..ndim) (any unit, one per operand: bytes, elements). Axis d merges into the kept
// axis before it when, for every operand, outer step == step(d) * length(d). Axes of length 0
// are kept (the space is empty). Returns the number of axes left; 0 when every axis had length 1.
int coalesce_axes(int ndim, int64_t* shape, std::span<int64_t* const> steps);

// The axes of an operand stepping `steps` over `shape` in memory order, outermost first: by
// |step|, largest first, stable (equal steps keep their order), length-1 axes stepping nowhere.
// Writes perm[0..ndim) (walk axis i is axis perm[i]) and returns true, or returns false without
// sorting when the non-length-1 axes are in that order already (C order, the common case).
bool memory_order(int ndim, const int64_t* shape, const int64_t* steps, int* perm);

// Reorders the axes (shape and every operand's steps) so that operand `key`'s steps shrink from
// the outermost axis in, for walks whose order does not matter (elementwise loops): a result
// laid out in its inputs' axis order (ops/result_layout.h: sin(m.T) stored as m.T) is then
// walked in memory order, and merges into rows. A no-op when the key is so ordered already (C
// order), the common case. The order is memory_order's.
void order_axes(int ndim, int64_t* shape, std::span<int64_t* const> steps, size_t key);
void order_axes(Shape& shape, std::vector<Strides>& steps, size_t key);

// The same on vectors: `steps[k]` is operand k's steps over `shape`.
struct IterSpace {
  Shape shape;
  std::vector<Strides> steps;  // steps[k][d]
  int64_t size() const { return shape_size(shape); }
};
IterSpace coalesce(const Shape& shape, std::vector<Strides> steps);

}  // namespace accel::plan
