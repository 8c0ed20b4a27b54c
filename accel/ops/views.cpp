// The manipulation ops that return views of x's memory: new shapes and strides, no data moved
// (reshape copies only when no strides can describe the result, as NumPy's).
#include <algorithm>
#include <string>

#include "accel/ops/axis_view.h"
#include "accel/ops/copy.h"
#include "accel/ops/creation.h"
#include "accel/ops/manipulation.h"
#include "accel/ops/result_layout.h"
#include "accel/runtime/errors.h"

namespace accel {
namespace {

std::string axes_str(const Axes& axes) { return shape_str(axes); }

// The requested shape with -1 replaced by what makes the sizes agree.
Shape resolve_shape(const Shape& requested, int64_t size) {
  Shape out = requested;
  int unknown = -1;
  int64_t known = 1;
  for (size_t i = 0; i < requested.size(); ++i) {
    int64_t d = requested[i];
    if (d == -1) {
      if (unknown >= 0)
        throw ShapeError("[reshape] can only specify one unknown dimension (-1); got shape " +
                         shape_str(requested));
      unknown = static_cast<int>(i);
    } else if (d < 0) {
      throw ShapeError("[reshape] negative dimension " + std::to_string(d) + " in shape " +
                       shape_str(requested));
    } else {
      known *= d;
    }
  }
  bool fits = unknown >= 0 ? known != 0 && size % known == 0 : known == size;
  if (!fits)
    throw ShapeError("[reshape] cannot reshape array of size " + std::to_string(size) +
                     " into shape " + shape_str(requested));
  if (unknown >= 0) out[unknown] = size / known;
  return out;
}

// Strides that show memory laid out as (shape, strides) in `target`'s shape without copying,
// if there are any: each run of old axes that merges into new axes (or splits into them) must
// be contiguous with itself (NumPy's _attempt_nocopy_reshape).
std::optional<Strides> reshape_strides(const Shape& shape, const Strides& strides,
                                       const Shape& target) {
  Shape os;
  Strides ost;
  for (size_t d = 0; d < shape.size(); ++d)
    if (shape[d] != 1) {
      os.push_back(shape[d]);
      ost.push_back(strides[d]);
    }
  const size_t nold = os.size(), nnew = target.size();
  Strides out(nnew, 1);
  size_t oi = 0, oj = 1, ni = 0, nj = 1;
  while (ni < nnew && oi < nold) {
    int64_t np = target[ni], op = os[oi];
    while (np != op) {
      if (np < op)
        np *= target[nj++];
      else
        op *= os[oj++];
    }
    for (size_t k = oi; k + 1 < oj; ++k)
      if (ost[k] != ost[k + 1] * os[k + 1]) return std::nullopt;
    out[nj - 1] = ost[oj - 1];
    for (size_t k = nj - 1; k > ni; --k) out[k - 1] = out[k] * target[k];
    ni = nj++;
    oi = oj++;
  }
  // Trailing size-1 axes: any stride works; continue the last group's.
  int64_t last = ni > 0 ? out[ni - 1] : 1;
  for (size_t k = ni; k < nnew; ++k) out[k] = last;
  return out;
}

// Size-1 axes may take any stride; give them the one a C-contiguous layout would have.
int64_t unit_axis_stride(const Shape& shape, const Strides& strides, size_t pos) {
  return pos < shape.size() ? strides[pos] * std::max<int64_t>(shape[pos], 1) : 1;
}

}  // namespace

Array reshape(const Array& x, const Shape& shape, std::optional<bool> copy_mode) {
  Shape target = resolve_shape(shape, x.size());
  if (copy_mode.value_or(false)) return reshape(copy(x), target, false);
  x.eval();
  std::optional<Strides> strides =
      x.size() == 0 ? contiguous_strides(target) : reshape_strides(x.shape(), x.strides(), target);
  if (strides) return Array::view_of(x, target, *strides, x.offset());
  if (copy_mode.has_value())
    throw ValueError("[reshape] cannot reshape " + x.describe() + " with strides " +
                     shape_str(x.strides()) + " into shape " + shape_str(target) +
                     " without a copy, and copy=False was given");
  return reshape(ascontiguousarray(x), target, false);
}

Array reshape(const Array& x, const Shape& shape, std::optional<bool> copy_mode, Order order) {
  order = resolve_order(order, &x);
  if (order == Order::K)
    throw ValueError("[reshape] order 'K' is not permitted for reshaping (NumPy's rule)");
  if (order == Order::C) return reshape(x, shape, copy_mode);
  // Fortran order reads and writes the first axis fastest: x.T reshaped C-wise to the reversed
  // shape, transposed back (a view where the strides allow one, as NumPy's).
  Shape target = resolve_shape(shape, x.size());
  Shape reversed(target.rbegin(), target.rend());
  return transpose(reshape(transpose(x), reversed, copy_mode));
}

Array ravel(const Array& x) {
  // NumPy's ravel is always C-contiguous: a strided 1-d input is copied, not re-viewed.
  x.eval();
  if (!x.is_contiguous()) return reshape(x, {-1}, true);
  // A contiguous array's 1-d view, written straight into the view (reshape's shape resolution
  // and stride search were most of a small ravel).
  Array v = Array::view_copy(x);
  ArrayImpl& view = *v.impl();
  const int64_t n = x.size();
  view.shape.assign(1, n);
  view.strides.assign(1, 1);
  return v;
}

namespace {

// x's axes in memory order (NumPy's ravel order 'K'): permuted from the largest step to the
// smallest (like_layout's order); an axis of negative stride is still read first to last, as
// NumPy's ("except for reversing the data when strides are negative").
Array in_memory_order(const Array& x) {
  x.eval();
  Strides layout = like_layout(x);
  if (layout.empty()) return x;
  Axes axes(static_cast<size_t>(x.ndim()));
  for (int d = 0; d < x.ndim(); ++d) axes[d] = d;
  std::stable_sort(axes.begin(), axes.end(),
                   [&](int64_t a, int64_t b) { return layout[a] > layout[b]; });
  return permute_dims(x, axes);
}

}  // namespace

Array ravel(const Array& x, Order order) {
  order = resolve_order(order, &x);
  if (order == Order::F) return ravel(transpose(x));
  if (order == Order::K) return ravel(in_memory_order(x));
  return ravel(x);
}

Array flatten(const Array& x) { return reshape(x, {-1}, true); }

Array flatten(const Array& x, Order order) {
  order = resolve_order(order, &x);
  if (order == Order::F) return flatten(transpose(x));
  if (order == Order::K) return flatten(in_memory_order(x));
  return flatten(x);
}

Array permute_dims(const Array& x, const Axes& axes) {
  const int nd = x.ndim();
  if (static_cast<int>(axes.size()) != nd)
    throw ValueError("[permute_dims] axes " + axes_str(axes) + " do not match an array of " +
                     std::to_string(nd) + " dimensions");
  Shape shape(nd);
  Strides strides(nd);
  SmallVector<bool, 8> seen(nd, false);  // a vector<bool> was a heap allocation per view
  for (int i = 0; i < nd; ++i) {
    int a = normalize_axis(axes[i], nd, "permute_dims");
    if (seen[a]) throw AxisError("[permute_dims] repeated axis in " + axes_str(axes));
    seen[a] = true;
    shape[i] = x.shape()[a];
    strides[i] = x.strides()[a];
  }
  return Array::view_of(x, shape, strides, x.offset());
}

Array transpose(const Array& x) {
  Axes axes(x.ndim());
  for (int i = 0; i < x.ndim(); ++i) axes[i] = x.ndim() - 1 - i;
  return permute_dims(x, axes);
}

Array matrix_transpose(const Array& x) {
  if (x.ndim() < 2)
    throw ShapeError("[matrix_transpose] needs an array of at least 2 dimensions; got " +
                     x.describe());
  return swapaxes(x, -1, -2);
}

Array swapaxes(const Array& x, int64_t axis1, int64_t axis2) {
  int a = normalize_axis(axis1, x.ndim(), "swapaxes");
  int b = normalize_axis(axis2, x.ndim(), "swapaxes");
  Axes axes(x.ndim());
  for (int i = 0; i < x.ndim(); ++i) axes[i] = i;
  std::swap(axes[a], axes[b]);
  return permute_dims(x, axes);
}

Array moveaxis(const Array& x, const Axes& source, const Axes& destination) {
  if (source.size() != destination.size())
    throw ValueError("[moveaxis] source " + axes_str(source) + " and destination " +
                     axes_str(destination) + " must have the same number of axes");
  const int nd = x.ndim();
  normalize_axes(source, nd, "moveaxis");  // range and repeat checks
  normalize_axes(destination, nd, "moveaxis");
  std::vector<std::pair<int, int>> moves;  // (destination, source)
  for (size_t i = 0; i < source.size(); ++i)
    moves.emplace_back(normalize_axis(destination[i], nd, "moveaxis"),
                       normalize_axis(source[i], nd, "moveaxis"));
  std::sort(moves.begin(), moves.end());
  Axes order;
  for (int d = 0; d < nd; ++d)
    if (std::none_of(moves.begin(), moves.end(), [d](auto m) { return m.second == d; }))
      order.push_back(d);
  for (auto [dst, src] : moves) order.insert(order.begin() + dst, src);
  return permute_dims(x, order);
}

Array squeeze(const Array& x, const std::optional<Axes>& axes) {
  std::vector<bool> drop(x.ndim(), false);
  if (axes) {
    for (int a : normalize_axes(*axes, x.ndim(), "squeeze")) {
      if (x.shape()[a] != 1)
        throw ShapeError("[squeeze] cannot remove axis " + std::to_string(a) + " of size " +
                         std::to_string(x.shape()[a]) + " from shape " + shape_str(x.shape()) +
                         "; only axes of size 1 can be squeezed");
      drop[a] = true;
    }
  } else {
    for (int d = 0; d < x.ndim(); ++d) drop[d] = x.shape()[d] == 1;
  }
  Shape shape;
  Strides strides;
  for (int d = 0; d < x.ndim(); ++d)
    if (!drop[d]) {
      shape.push_back(x.shape()[d]);
      strides.push_back(x.strides()[d]);
    }
  return Array::view_of(x, shape, strides, x.offset());
}

Array expand_dims(const Array& x, const Axes& axes) {
  const int nd = x.ndim() + static_cast<int>(axes.size());
  std::vector<int> inserted = normalize_axes(axes, nd, "expand_dims");
  Shape shape;
  Strides strides;
  size_t src = 0;
  for (int d = 0; d < nd; ++d) {
    if (std::binary_search(inserted.begin(), inserted.end(), d)) {
      shape.push_back(1);
      strides.push_back(unit_axis_stride(x.shape(), x.strides(), src));
    } else {
      shape.push_back(x.shape()[src]);
      strides.push_back(x.strides()[src]);
      ++src;
    }
  }
  return Array::view_of(x, shape, strides, x.offset());
}

Array broadcast_to(const Array& x, const Shape& shape) {
  bool ok = x.ndim() <= static_cast<int>(shape.size());
  size_t lead = shape.size() - std::min<size_t>(shape.size(), x.ndim());
  for (size_t i = 0; i < shape.size() && ok; ++i) {
    if (shape[i] < 0) ok = false;
    else if (i >= lead) ok = x.shape()[i - lead] == shape[i] || x.shape()[i - lead] == 1;
  }
  if (!ok)
    throw ShapeError("[broadcast_to] cannot broadcast an array of shape " + shape_str(x.shape()) +
                     " to shape " + shape_str(shape));
  shape_size(shape);  // raises ShapeError for a shape too big for any array
  x.eval();
  Array out = Array::view_of(x, shape, broadcast_strides(x.shape(), x.strides(), shape), x.offset());
  // As NumPy's: a stride-0 axis makes many elements one address, so a write would reach them all.
  out.impl()->read_only = true;
  return out;
}

std::vector<Array> broadcast_arrays(std::span<const Array> arrays) {
  std::vector<Shape> shapes;
  for (const Array& a : arrays) shapes.push_back(a.shape());
  Shape shape = broadcast_shapes(shapes, "broadcast_arrays");
  std::vector<Array> out;
  // As NumPy's: arrays already of the shape come back as they are (writable); broadcast ones
  // are read-only (NumPy still lets them be written, with a FutureWarning).
  for (const Array& a : arrays) out.push_back(a.shape() == shape ? a : broadcast_to(a, shape));
  return out;
}

std::vector<Array> unstack(const Array& x, int64_t axis) {
  int a = normalize_axis(axis, x.ndim(), "unstack");
  std::vector<Array> out;
  for (int64_t i = 0; i < x.shape()[a]; ++i) out.push_back(axis_index(x, a, i));
  return out;
}

std::vector<Array> split_at(const Array& x, const Axes& indices, int64_t axis) {
  int a = normalize_axis(axis, x.ndim(), "split");
  const int64_t n = x.shape()[a];
  // Python slice bounds: negative counts from the end, out of range clamps, stop < start is empty.
  auto bound = [n](int64_t i) { return i < 0 ? std::max<int64_t>(i + n, 0) : std::min(i, n); };
  std::vector<Array> out;
  int64_t start = 0;
  for (int64_t index : indices) {
    int64_t stop = bound(index);
    out.push_back(axis_slice(x, a, start, std::max(start, stop)));
    start = stop;
  }
  out.push_back(axis_slice(x, a, start, n));
  return out;
}

std::vector<Array> split(const Array& x, int64_t sections, int64_t axis, bool equal) {
  int a = normalize_axis(axis, x.ndim(), "split");
  if (sections <= 0)
    throw ValueError("[split] the number of sections must be positive; got " +
                     std::to_string(sections));
  const int64_t n = x.shape()[a];
  if (equal && n % sections != 0)
    throw ShapeError("[split] an axis of length " + std::to_string(n) + " does not split into " +
                     std::to_string(sections) + " equal sections");
  // Each part is an array of its own (hundreds of bytes, more as a Python object): a count no
  // memory holds is refused before it is tried (NumPy's list of section sizes fails at once,
  // MemoryError; accel's loop would run until the process is killed).
  constexpr int64_t kMaxSections = int64_t(1) << 32;
  if (sections > kMaxSections)
    throw ValueError("[split] " + std::to_string(sections) + " sections are more arrays than " +
                     "memory holds (at most 2^32)");
  const int64_t each = n / sections, extra = n % sections;
  std::vector<Array> out;
  out.reserve(static_cast<size_t>(sections));
  int64_t start = 0;
  for (int64_t i = 0; i < sections; ++i) {
    int64_t len = each + (i < extra ? 1 : 0);
    out.push_back(axis_slice(x, a, start, start + len));
    start += len;
  }
  return out;
}

Array flip(const Array& x, const std::optional<Axes>& axes) {
  std::vector<int> flipped;
  if (axes) {
    flipped = normalize_axes(*axes, x.ndim(), "flip");
  } else {
    for (int d = 0; d < x.ndim(); ++d) flipped.push_back(d);
  }
  x.eval();
  Strides strides = x.strides();
  int64_t offset = x.offset();
  for (int d : flipped) {
    if (x.shape()[d] > 0) offset += (x.shape()[d] - 1) * strides[d];
    strides[d] = -strides[d];
  }
  return Array::view_of(x, x.shape(), strides, offset);
}

Array diagonal(const Array& x, int64_t offset, int64_t axis1, int64_t axis2, bool writable) {
  if (x.ndim() < 2)
    throw ValueError("[diagonal] diagonal requires an array of at least two dimensions, got " +
                     x.describe());
  const int a1 = normalize_axis(axis1, x.ndim(), "diagonal");
  const int a2 = normalize_axis(axis2, x.ndim(), "diagonal");
  if (a1 == a2)
    throw ValueError("[diagonal] axis1 and axis2 cannot be the same (both are axis " +
                     std::to_string(a1) + ")");
  x.eval();
  const int64_t rows = x.shape()[a1] - std::max<int64_t>(-offset, 0);
  const int64_t cols = x.shape()[a2] - std::max<int64_t>(offset, 0);
  const int64_t n = std::max<int64_t>(0, std::min(rows, cols));
  Shape shape;
  Strides strides;
  for (int d = 0; d < x.ndim(); ++d) {
    if (d == a1 || d == a2) continue;
    shape.push_back(x.shape()[d]);
    strides.push_back(x.strides()[d]);
  }
  shape.push_back(n);
  strides.push_back(x.strides()[a1] + x.strides()[a2]);
  int64_t start = x.offset();
  if (n > 0) start += offset >= 0 ? offset * x.strides()[a2] : -offset * x.strides()[a1];
  Array out = Array::view_of(x, shape, strides, start);
  if (!writable) out.impl()->read_only = true;  // as NumPy's: its diagonal views may not be written
  return out;
}

Array sliding_window_view(const Array& x, const Shape& window_shape,
                          const std::optional<Axes>& axes) {
  std::vector<int> on;
  if (!axes) {
    if (window_shape.size() != static_cast<size_t>(x.ndim()))
      throw ValueError("[sliding_window_view] without axis, window_shape " +
                       shape_str(window_shape) + " needs one length per axis of " + x.describe());
    for (int d = 0; d < x.ndim(); ++d) on.push_back(d);
  } else {
    if (axes->size() != window_shape.size())
      throw ValueError("[sliding_window_view] window_shape " + shape_str(window_shape) +
                       " and axis " + shape_str(*axes) + " must have the same length");
    for (int64_t a : *axes) on.push_back(normalize_axis(a, x.ndim(), "sliding_window_view"));
  }
  Shape shape = x.shape();
  Strides strides = x.strides();
  for (size_t i = 0; i < on.size(); ++i) {
    const int64_t w = window_shape[i];
    if (w < 0)
      throw ValueError("[sliding_window_view] window_shape cannot contain negative values, got " +
                       shape_str(window_shape));
    if (shape[on[i]] < w)
      throw ValueError("[sliding_window_view] window shape cannot be larger than input array "
                       "shape: a window of " + std::to_string(w) + " along axis " +
                       std::to_string(on[i]) + " of " + x.describe());
    shape[on[i]] -= w - 1;
  }
  for (size_t i = 0; i < on.size(); ++i) {
    shape.push_back(window_shape[i]);
    strides.push_back(x.strides()[on[i]]);
  }
  shape_size(shape);  // raises ShapeError for a view too big to index
  x.eval();
  Array out = Array::view_of(x, shape, strides, x.offset());
  out.impl()->read_only = true;  // windows overlap: one element is many of the view's
  return out;
}

namespace {

// A view of complex x's memory as its float parts: part 0 real, 1 imaginary.
Array complex_part(const Array& x, int part) {
  Array out = Array::view_copy(x);
  ArrayImpl& v = *out.impl();
  v.dtype = x.dtype() == Dtype::complex64 ? Dtype::float32 : Dtype::float64;
  for (auto& s : v.strides) s *= 2;
  v.offset = v.offset * 2 + part;
  return out;
}

}  // namespace

Array real_part(const Array& x) {
  if (is_complex(x.dtype())) return complex_part(x, 0);
  return Array::view_copy(x);
}

Array imag_part(const Array& x) {
  if (is_complex(x.dtype())) return complex_part(x, 1);
  // New zeros laid out as NumPy's (order A): Fortran where x is Fortran- and not C-contiguous.
  Array zero = zeros(x.shape(), x.dtype(), x.device());
  if (x.ndim() >= 2 && x.is_f_contiguous() && !x.is_contiguous()) {
    Shape reversed(x.shape().rbegin(), x.shape().rend());
    zero = transpose(zeros(reversed, x.dtype(), x.device()));
  }
  zero.impl()->read_only = true;  // as NumPy's: nothing to write the parts of a real array into
  return zero;
}

Array view_as(const Array& x, Dtype dtype) {
  const auto from = static_cast<int64_t>(x.itemsize());
  const auto to = static_cast<int64_t>(accel::itemsize(dtype));
  auto refuse = [&](const std::string& why) {
    return ValueError("[view] cannot view " + x.describe() + " as " + dtype_name(dtype) + ": " +
                      why);
  };
  // accel's bools are the bytes 0 and 1 (kernels read them as numbers): other bytes read as
  // bool would be wrong answers, and so would a write of other bytes into bool memory.
  const bool to_bool = dtype == Dtype::bool_, from_bool = x.dtype() == Dtype::bool_;
  if (to_bool && !from_bool)
    throw refuse("accel's bools are the bytes 0 and 1; x != 0 or x.astype(bool) reads them");
  Array out = Array::view_copy(x);
  ArrayImpl& v = *out.impl();
  v.dtype = dtype;
  if (from_bool && !to_bool) v.read_only = true;
  if (from == to) return out;
  if (x.ndim() == 0)
    throw refuse("a 0-d array cannot change its item size (" + std::to_string(from) + " to " +
                 std::to_string(to) + " bytes)");
  const int last = x.ndim() - 1;
  const bool empty = x.size() == 0;  // no memory read: any strides and start describe it
  if (!empty && x.shape()[last] != 1 && x.strides()[last] != 1)
    throw refuse("the last axis must be contiguous to change the item size (its stride is " +
                 std::to_string(x.strides()[last] * from) + " bytes)");
  if (x.shape()[last] * from % to != 0)
    throw refuse("the last axis spans " + std::to_string(x.shape()[last] * from) +
                 " bytes, not a multiple of " + std::to_string(to));
  for (int d = 0; d < last; ++d) {
    if (!empty && x.shape()[d] > 1 && x.strides()[d] * from % to != 0)
      throw refuse("axis " + std::to_string(d) + "'s stride of " +
                   std::to_string(x.strides()[d] * from) + " bytes is not a whole number of items");
    v.strides[d] = x.strides()[d] * from / to;
  }
  if (!empty && x.offset() * from % to != 0)
    throw refuse("it starts " + std::to_string(x.offset() * from) +
                 " bytes into its memory, not on a whole item");
  v.offset = x.offset() * from / to;
  v.shape[last] = x.shape()[last] * from / to;
  v.strides[last] = 1;
  return out;
}

Array field_view(const Array& x, Dtype dtype, int64_t offset) {
  const auto from = static_cast<int64_t>(x.itemsize());
  const auto to = static_cast<int64_t>(accel::itemsize(dtype));
  if (to > from)
    throw ValueError(std::string("[getfield] ") + dtype_name(dtype) + " (" + std::to_string(to) +
                     " bytes) is larger than the " + std::to_string(from) + "-byte items of " +
                     x.describe());
  if (offset < 0 || offset > from - to)
    throw ValueError("[getfield] need 0 <= offset <= " + std::to_string(from - to) + " for " +
                     dtype_name(dtype) + " in " + dtype_name(x.dtype()) + " items; got offset " +
                     std::to_string(offset));
  auto refuse = [&](const std::string& why) {
    return ValueError(std::string("[getfield] cannot read ") + dtype_name(dtype) + " at byte " +
                      std::to_string(offset) + " of " + x.describe() + ": " + why);
  };
  if (dtype == Dtype::bool_ && x.dtype() != Dtype::bool_)
    throw refuse("accel's bools are the bytes 0 and 1; x != 0 or x.astype(bool) reads them");
  const bool empty = x.size() == 0;
  const int64_t start = x.offset() * from + offset;
  if (!empty && start % to != 0)
    throw refuse("the field starts " + std::to_string(start) +
                 " bytes into the memory, not on a whole item");
  Array out = Array::view_copy(x);
  ArrayImpl& v = *out.impl();
  for (int d = 0; d < x.ndim(); ++d) {
    if (!empty && x.shape()[d] > 1 && x.strides()[d] * from % to != 0)
      throw refuse("axis " + std::to_string(d) + "'s stride of " +
                   std::to_string(x.strides()[d] * from) + " bytes is not a whole number of items");
    v.strides[d] = x.strides()[d] * from / to;
  }
  v.offset = empty ? 0 : start / to;
  v.dtype = dtype;
  if (x.dtype() == Dtype::bool_ && dtype != Dtype::bool_) v.read_only = true;
  return out;
}

}  // namespace accel
