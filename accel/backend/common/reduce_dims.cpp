#include "accel/backend/common/reduce_dims.h"

#include <algorithm>
#include <cstdlib>

#include "accel/backend/common/coalesce.h"

namespace accel::plan {
namespace {

int64_t product(const std::vector<ReduceDim>& dims) {
  int64_t n = 1;
  for (const ReduceDim& d : dims) n *= d.size;
  return n;
}

}  // namespace

std::vector<ReduceDim> sort_and_merge(std::vector<ReduceDim> dims, bool sort) {
  if (sort)
    std::stable_sort(dims.begin(), dims.end(), [](const ReduceDim& a, const ReduceDim& b) {
      return std::llabs(a.in) > std::llabs(b.in);
    });
  Shape size;
  Strides in, out;
  for (const ReduceDim& d : dims) {
    size.push_back(d.size);
    in.push_back(d.in);
    out.push_back(d.out);
  }
  int64_t* steps[] = {in.data(), out.data()};
  const int nd = coalesce_axes(static_cast<int>(size.size()), size.data(), steps);
  dims.resize(static_cast<size_t>(nd));
  for (size_t d = 0; d < dims.size(); ++d) dims[d] = {size[d], in[d], out[d]};
  return dims;
}

int64_t ReduceDims::kept_count() const { return no_output ? 0 : product(kept); }
int64_t ReduceDims::reduced_count() const { return reduced_empty ? 0 : product(reduced); }

ReduceDims reduce_dims(const Shape& shape, const Strides& in_strides, const std::vector<int>& axes,
                       const Strides& out_strides, bool keep_reduced_order, bool flip_negative) {
  ReduceDims r;
  std::vector<ReduceDim> kept, red;
  size_t next = 0, out_dim = 0;
  for (int d = 0; d < static_cast<int>(shape.size()); ++d) {
    const bool reduced = next < axes.size() && axes[next] == d;
    if (reduced) ++next;
    ReduceDim dim{shape[d], in_strides[d], reduced ? 0 : out_strides[out_dim]};
    if (!reduced) ++out_dim;
    if (shape[d] == 0) (reduced ? r.reduced_empty : r.no_output) = true;
    if (shape[d] <= 1) continue;
    if (flip_negative && dim.in < 0 && !(reduced && keep_reduced_order)) {
      r.in_offset += (dim.size - 1) * dim.in;
      r.out_offset += (dim.size - 1) * dim.out;
      dim.in = -dim.in;
      dim.out = -dim.out;
    }
    (reduced ? red : kept).push_back(dim);
  }
  r.kept = sort_and_merge(std::move(kept), true);
  r.reduced = sort_and_merge(std::move(red), !keep_reduced_order);
  return r;
}

}  // namespace accel::plan
