// take, take_along_axis, put, and the nonzero family: thin layers over the same gather,
// scatter and nonzero backend primitives that getitem / setitem use.
#include <string>

#include "accel/backend/backend.h"
#include "accel/ops/advanced_index.h"
#include "accel/ops/copy.h"
#include "accel/ops/creation.h"
#include "accel/ops/elementwise.h"
#include "accel/ops/indexing.h"
#include "accel/ops/manipulation.h"
#include "accel/runtime/errors.h"

namespace accel {
namespace {

using detail::AxisIndex;

std::string tag(const char* op) { return std::string("[") + op + "] "; }

// Applies take/put's mode to int64 indices over an axis of n elements.
Array apply_mode(const Array& index, int64_t n, IndexMode mode, const char* op) {
  if (mode == IndexMode::raise) return index;
  if (n == 0) {
    if (index.size() == 0) return index;
    throw IndexError(tag(op) + "cannot do a non-empty " + op + " from an empty axis");
  }
  Array bound = Array::scalar(static_cast<int64_t>(n), false, index.device());
  if (mode == IndexMode::wrap) return remainder(index, bound).eval();
  Array zero = Array::scalar(int64_t{0}, false, index.device());
  Array last = Array::scalar(n - 1, false, index.device());
  return clip(index, &zero, &last).eval();
}

void check_integer(const Array& indices, const char* op) {
  if (!is_integer(indices.dtype()))
    throw DTypeError(tag(op) + "indices must be an integer array; got " + indices.describe());
}

}  // namespace

Array take(const Array& x, const Array& indices, std::optional<int64_t> axis, IndexMode mode) {
  check_integer(indices, "take");
  Array src = axis ? x : detail::flatten(x);
  const int ax = axis ? normalize_axis(*axis, x.ndim(), "take") : 0;
  Array index = detail::int64_index(indices, x.device(), "take");
  index = apply_mode(index, src.shape()[ax], mode, "take");
  std::vector<AxisIndex> idx{{index, ax, ax}};
  return detail::gather_new(src, idx, ax, "take");
}

Array take_along_axis(const Array& x, const Array& indices, std::optional<int64_t> axis) {
  check_integer(indices, "take_along_axis");
  if (!axis) {
    if (indices.ndim() != 1)
      throw ShapeError("[take_along_axis] with axis=None the indices must be 1-d; got shape " +
                       shape_str(indices.shape()));
    return take_along_axis(detail::flatten(x), indices, 0);
  }
  if (indices.ndim() != x.ndim())
    throw ShapeError("[take_along_axis] indices and x must have the same number of dimensions; "
                     "got " + shape_str(indices.shape()) + " and " + shape_str(x.shape()));
  const int ax = normalize_axis(*axis, x.ndim(), "take_along_axis");
  // NumPy's construction: aranges along every other axis, broadcast against the indices.
  std::vector<AxisIndex> idx;
  for (int d = 0; d < x.ndim(); ++d) {
    if (d == ax) {
      idx.push_back({detail::int64_index(indices, x.device(), "take_along_axis"), d, d});
      continue;
    }
    Shape s(static_cast<size_t>(x.ndim()), 1);
    s[d] = x.shape()[d];
    Array range = arange(x.shape()[d], Dtype::int64, x.device());
    Strides st(static_cast<size_t>(x.ndim()), 0);
    st[d] = 1;
    idx.push_back({Array::view_of(range, s, st, 0), d, d});
  }
  detail::broadcast_indices(idx, x, "take_along_axis");
  return detail::gather_new(x, idx, 0, "take_along_axis");
}

void put(const Array& x, const Array& indices, const Array& values, IndexMode mode) {
  check_writable(x, "put");
  check_integer(indices, "put");
  Array index = detail::flatten(detail::int64_index(indices, x.device(), "put"));
  index = apply_mode(index, x.size(), mode, "put");
  if (index.size() == 0) return;
  Array v = detail::flatten(values);
  if (v.size() == 0) return;  // NumPy: nothing to put
  if (v.size() != index.size()) v = take(v, remainder(arange(index.size(), Dtype::int64, v.device()),
                                                      Array::scalar(v.size(), false, v.device())));
  std::vector<AxisIndex> idx{{index, 0, 0}};
  x.eval();
  if (x.is_contiguous()) {
    detail::scatter_into(Array::view_of(x, {x.size()}, {1}, x.offset()), idx, 0, v, "put");
    return;
  }
  // A strided x is written through a contiguous copy so flat positions stay C order.
  Array flat = detail::flatten(copy(x).eval());
  detail::scatter_into(flat, idx, 0, v, "put");
  assign(x, Array::view_of(flat, x.shape(), contiguous_strides(x.shape()), flat.offset()), "put");
}

std::vector<Array> nonzero(const Array& x) {
  if (x.ndim() == 0)
    throw ValueError("[nonzero] calling nonzero on 0-d arrays is not allowed; use "
                     "nonzero(atleast_1d(x)) instead");
  Array coords = backend_for(x.device()).nonzero(x.eval());
  const int64_t count = coords.shape()[1];
  std::vector<Array> out;
  for (int d = 0; d < x.ndim(); ++d) out.push_back(Array::view_of(coords, {count}, {1}, d * count));
  return out;
}

Array argwhere(const Array& x) {
  Array coords = backend_for(x.device()).nonzero(x.eval());
  const int64_t count = coords.shape()[1];
  // NumPy's argwhere is transpose(nonzero(x)): a view of the (ndim, count) coordinates, laid
  // out column by column; a later reshape copies or not as NumPy's does.
  return Array::view_of(coords, {count, x.ndim()}, {1, count}, 0);
}

Array flatnonzero(const Array& x) { return nonzero(detail::flatten(x))[0]; }

Array compress(const Array& condition, const Array& x, std::optional<int64_t> axis) {
  if (condition.ndim() != 1)
    throw ShapeError("[compress] condition must be a 1-d array; got shape " +
                     shape_str(condition.shape()));
  // A bool condition as long as axis 0 (the usual case) picks rows in one pass, as x[mask]
  // does. Other axes gather through take, whose result is C-ordered as NumPy's (rows picked
  // along a moved axis and moved back were not: a reshape of the result copied where NumPy's
  // is a view; fuzz seed 952965). Other dtypes (truthiness) and shorter conditions (NumPy
  // truncates) go through nonzero too.
  if (is_bool(condition.dtype()) && condition.device() == x.device()) {
    const Array src = axis ? x : detail::flatten(x);
    const int ax = axis ? normalize_axis(*axis, x.ndim(), "compress") : 0;
    if (ax == 0 && condition.shape()[0] == src.shape()[0]) {
      src.eval();
      condition.eval();
      return backend_for(x.device()).compress_rows(src, condition);
    }
  }
  Array picked = nonzero(condition)[0];
  return take(x, picked, axis);
}

Array extract(const Array& condition, const Array& x) {
  if (is_bool(condition.dtype()) && condition.device() == x.device() &&
      condition.size() == x.size()) {  // one pass, as compress
    const Array flat = detail::flatten(x), picks = detail::flatten(condition);
    flat.eval();
    picks.eval();
    return backend_for(x.device()).compress_rows(flat, picks);
  }
  return take(detail::flatten(x), flatnonzero(condition));
}

}  // namespace accel
