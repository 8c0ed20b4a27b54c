#include "accel/backend/cpu/reduce_layout.h"

#include <cstdlib>

#include "accel/backend/common/reduce_dims.h"

namespace accel::cpu {
namespace {

// Every axis of a non-empty C-contiguous input reduced (`a.sum()`, `a.argmax()`): one run of
// adjacent elements, in C order. The general planner finds the same layout; this skips its
// sorting and merging, a good part of a small reduction's cost.
bool whole_contiguous_reduction(const Shape& shape, const Strides& in_strides,
                                const std::vector<int>& axes) {
  if (axes.size() != shape.size()) return false;
  int64_t expected = 1;
  for (size_t d = shape.size(); d-- > 0;) {
    if (shape[d] == 0) return false;
    if (shape[d] != 1 && in_strides[d] != expected) return false;
    expected *= shape[d];
  }
  return true;
}

}  // namespace

ReduceLayout make_reduce_layout(const Shape& shape, const Strides& in_strides,
                                const std::vector<int>& axes, const Strides& out_strides,
                                bool keep_reduced_order) {
  // One object, built where the caller receives it (NRVO): with a second one in a branch, every
  // return moved five SmallVectors, a tenth of a small a.argmax().
  ReduceLayout l;
  if (whole_contiguous_reduction(shape, in_strides, axes)) {
    l.kept_shape = {1};
    l.kept_in = l.kept_out = {0};
    l.red_shape = {shape_size(shape)};
    l.red_in = {1};
    return l;
  }
  const plan::ReduceDims dims =
      plan::reduce_dims(shape, in_strides, axes, out_strides, keep_reduced_order, true);
  if (dims.no_output) {  // no output elements: nothing to do
    l.kept_shape = {0};
    l.kept_in = l.kept_out = {0};
    return l;
  }
  l.in_offset = dims.in_offset;
  l.out_offset = dims.out_offset;
  for (const plan::ReduceDim& d : dims.kept) {
    l.kept_shape.push_back(d.size);
    l.kept_in.push_back(d.in);
    l.kept_out.push_back(d.out);
  }
  // The loops always see at least one dimension of each kind.
  const bool nothing_kept = l.kept_shape.empty();
  if (nothing_kept) l.kept_shape = {1}, l.kept_in = {0}, l.kept_out = {0};
  if (dims.reduced_empty) {  // every output is the identity
    l.red_shape = {0};
    l.red_in = {0};
    l.in_offset = 0;
    return l;
  }
  for (const plan::ReduceDim& d : dims.reduced) {
    l.red_shape.push_back(d.size);
    l.red_in.push_back(d.in);
  }
  // Mode A also when nothing is kept (a full reduction); mode B when nothing is reduced.
  l.inner_reduced =
      !l.red_shape.empty() &&
      (nothing_kept || std::llabs(l.red_in.back()) <= std::llabs(l.kept_in.back()));
  if (l.red_shape.empty()) l.red_shape = {1}, l.red_in = {0};
  return l;
}

Odometer::Odometer(const Shape& shape, const Strides& strides, int64_t start)
    : shape_(shape), strides_(strides) {
  for (int d = static_cast<int>(shape.size()) - 1; d >= 0; --d) {
    idx_[d] = start % shape[d];
    start /= shape[d];
    offset_ += idx_[d] * strides[d];
  }
}

void Odometer::next() {
  for (int d = static_cast<int>(shape_.size()) - 1; d >= 0; --d) {
    offset_ += strides_[d];
    if (++idx_[d] < shape_[d]) return;
    offset_ -= idx_[d] * strides_[d];
    idx_[d] = 0;
  }
}

}  // namespace accel::cpu
