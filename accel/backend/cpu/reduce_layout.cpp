#include "accel/backend/cpu/reduce_layout.h"

#include <algorithm>
#include <cstdlib>
#include <numeric>

namespace accel::cpu {
namespace {

struct Dim {
  int64_t size, in, out;
};

// Sorts dims outermost-first by |input stride| and merges neighbours that are contiguous in
// the input (and in the output, for kept dims).
std::vector<Dim> sort_and_merge(std::vector<Dim> dims, bool sort) {
  if (sort)
    std::stable_sort(dims.begin(), dims.end(), [](const Dim& a, const Dim& b) {
      return std::llabs(a.in) > std::llabs(b.in);
    });
  std::vector<Dim> merged;
  for (const Dim& d : dims) {
    if (!merged.empty()) {
      Dim& m = merged.back();
      if (m.in == d.in * d.size && m.out == d.out * d.size) {
        m.size *= d.size;
        m.in = d.in;
        m.out = d.out;
        continue;
      }
    }
    merged.push_back(d);
  }
  return merged;
}

}  // namespace

ReduceLayout make_reduce_layout(const Shape& shape, const Strides& in_strides,
                                const std::vector<int>& axes, const Strides& out_strides,
                                bool keep_reduced_order) {
  ReduceLayout l;
  std::vector<Dim> kept, red;
  bool kept_empty = false, red_empty = false;
  size_t next_axis = 0, out_dim = 0;
  for (int d = 0; d < static_cast<int>(shape.size()); ++d) {
    const bool reduced = next_axis < axes.size() && axes[next_axis] == d;
    if (reduced) ++next_axis;
    Dim dim{shape[d], in_strides[d], reduced ? 0 : out_strides[out_dim]};
    if (!reduced) ++out_dim;
    if (shape[d] == 0) (reduced ? red_empty : kept_empty) = true;
    if (shape[d] == 1) continue;
    // A negative stride walks memory backwards; flipping it (and the output with it) lets the
    // loops read forwards. Reduced dims of argmin/argmax keep their order: positions count.
    if (dim.in < 0 && !(reduced && keep_reduced_order)) {
      l.in_offset += (dim.size - 1) * dim.in;
      l.out_offset += (dim.size - 1) * dim.out;
      dim.in = -dim.in;
      dim.out = -dim.out;
    }
    (reduced ? red : kept).push_back(dim);
  }
  if (kept_empty) {  // no output elements: nothing to do
    l.kept_shape = {0};
    l.kept_in = l.kept_out = {0};
    return l;
  }
  for (const Dim& d : sort_and_merge(std::move(kept), true)) {
    l.kept_shape.push_back(d.size);
    l.kept_in.push_back(d.in);
    l.kept_out.push_back(d.out);
  }
  // The loops always see at least one dimension of each kind.
  const bool nothing_kept = l.kept_shape.empty();
  if (nothing_kept) l.kept_shape = {1}, l.kept_in = {0}, l.kept_out = {0};
  if (red_empty) {  // every output is the identity
    l.red_shape = {0};
    l.red_in = {0};
    l.in_offset = 0;
    return l;
  }
  for (const Dim& d : sort_and_merge(std::move(red), !keep_reduced_order)) {
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
