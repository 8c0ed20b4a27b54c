#include "accel/ops/advanced_index.h"

#include <algorithm>
#include <climits>
#include <string>

#include "accel/backend/backend.h"
#include "accel/ops/copy.h"
#include "accel/ops/elementwise.h"
#include "accel/ops/result_layout.h"
#include "accel/runtime/errors.h"

namespace accel::detail {
namespace {

std::string tag(const char* op) { return std::string("[") + op + "] "; }

// `a` laid out as the user sees it (rest[:at] + B + rest[at:]) viewed in the backend's order
// (B + rest).
Array backend_view(const Array& a, int nb, int at) {
  Shape s;
  Strides st;
  auto take_dims = [&](int from, int to) {
    for (int d = from; d < to; ++d) {
      s.push_back(a.shape()[d]);
      st.push_back(a.strides()[d]);
    }
  };
  take_dims(at, at + nb);
  take_dims(0, at);
  take_dims(at + nb, a.ndim());
  return Array::view_of(a, s, st, a.offset());
}

std::vector<int> axes_of(const std::vector<AxisIndex>& indices) {
  std::vector<int> axes;
  for (const AxisIndex& ai : indices) axes.push_back(ai.axis);
  return axes;
}

// The index arrays for the backend; any that share memory with `dst` are copied first so a
// scatter cannot change its own indices.
std::vector<Array> arrays_of(const std::vector<AxisIndex>& indices, const Array* dst = nullptr) {
  std::vector<Array> arrays;
  for (const AxisIndex& ai : indices) {
    Array a = ai.index;
    if (dst && a.shares_memory_with(*dst)) {
      Array c = copy(a).eval();
      a = c;
    }
    arrays.push_back(a);
  }
  return arrays;
}

[[noreturn]] void throw_fault(const IndexFault& f, const std::vector<AxisIndex>& indices,
                              const Array& indexed, const char* op) {
  const AxisIndex& ai = indices[static_cast<size_t>(f.which)];
  throw IndexError(tag(op) + "index " + std::to_string(f.value) + " is out of bounds for axis " +
                   std::to_string(ai.source_axis) + " with size " +
                   std::to_string(indexed.shape()[ai.axis]));
}

}  // namespace

Array int64_index(const Array& index, Device device, const char* op) {
  if (!is_integer(index.dtype()))
    throw IndexError(tag(op) + "arrays used as indices must be of integer (or boolean) type; got " +
                     index.describe());
  if (index.device() != device)
    throw DeviceError(tag(op) + "index array is on " + index.device().str() +
                      " but the indexed array is on " + device.str() +
                      "; move it with to_device() first");
  if (index.dtype() == Dtype::uint64) {
    // Values past int64's range would wrap to negative (valid-looking) indices; capped, they
    // stay out of bounds for every axis.
    Array cap = Array::scalar(static_cast<uint64_t>(INT64_MAX), false, index.device());
    return astype(minimum(index, cap), Dtype::int64);
  }
  return astype(index, Dtype::int64, false);
}

// Checks one index array against an axis of n elements by gathering from a length-n view of a
// single byte (stride 0): it costs one byte per index and works for any axis, even empty ones.
void check_index(const AxisIndex& ai, int64_t n, const char* op) {
  Array byte = Array::empty({1}, Dtype::uint8, ai.index.device());
  Array axis = Array::view_of(byte, {n}, {0}, 0);
  Array sink = Array::empty(ai.index.shape(), Dtype::uint8, ai.index.device());
  const int zero = 0;
  if (auto fault = backend_for(axis.device()).gather(axis, std::span<const int>(&zero, 1),
                                                     std::span<const Array>(&ai.index, 1), sink))
    throw IndexError(tag(op) + "index " + std::to_string(fault->value) + " is out of bounds for axis " +
                     std::to_string(ai.source_axis) + " with size " + std::to_string(n));
}

Shape broadcast_indices(std::vector<AxisIndex>& indices, const Array& indexed, const char* op) {
  std::vector<Shape> shapes;
  for (const AxisIndex& ai : indices) shapes.push_back(ai.index.shape());
  Shape b;
  try {
    b = broadcast_shapes(shapes, op);
  } catch (const ShapeError&) {
    std::string msg = tag(op) + "shape mismatch: indexing arrays could not be broadcast together "
                                "with shapes";
    for (const Shape& s : shapes) msg += " " + shape_str(s);
    throw IndexError(msg);
  }
  // An empty broadcast visits no index; NumPy still rejects a bad integer (x[[], 5]: it checks
  // integers, 0-d index arrays among them, before broadcasting), not a bad index array
  // (x[[], [5]] is empty, no error).
  if (shape_size(b) == 0)
    for (const AxisIndex& ai : indices)
      if (ai.index.ndim() == 0) check_index(ai, indexed.shape()[ai.axis], op);
  for (AxisIndex& ai : indices)
    if (ai.index.shape() != b)
      ai.index = Array::view_of(ai.index, b, broadcast_strides(ai.index.shape(), ai.index.strides(), b),
                                ai.index.offset());
  return b;
}

Shape gathered_shape(const Array& src, const std::vector<AxisIndex>& indices, int at) {
  Shape rest;
  for (int d = 0; d < src.ndim(); ++d)
    if (std::none_of(indices.begin(), indices.end(), [d](const AxisIndex& ai) { return ai.axis == d; }))
      rest.push_back(src.shape()[d]);
  const Shape& b = indices[0].index.shape();
  rest.insert(rest.begin() + at, b.begin(), b.end());
  return rest;
}

Strides getitem_layout(const Array& src, std::span<const int> axes,
                       std::span<const Array> index_arrays, int at) {
  Shape rest_shape;
  Strides rest_steps;
  for (int d = 0; d < src.ndim(); ++d)
    if (std::find(axes.begin(), axes.end(), d) == axes.end()) {
      rest_shape.push_back(src.shape()[d]);
      rest_steps.push_back(src.strides()[d]);
    }
  const Shape& b = index_arrays[0].shape();
  Strides rest;
  if (rest_shape.size() >= 2)
    rest = like_layout(Array::view_of(src, rest_shape, rest_steps, src.offset()));
  int64_t span = 1;
  for (int64_t d : rest_shape) span *= std::max<int64_t>(d, 1);
  // Without a subspace to copy (one element per index), NumPy walks the index arrays in their
  // memory order and lays the index dimensions out so (kept_layout); with one, C-ordered.
  Strides index_steps = span == 1 ? kept_layout(b, index_arrays) : Strides{};
  if (rest.empty() && index_steps.empty() && at == 0) return {};  // C order
  if (rest.empty()) rest = contiguous_strides(rest_shape);
  if (index_steps.empty()) index_steps = contiguous_strides(b);
  for (int64_t& step : index_steps) step *= span;
  Strides out(rest.begin(), rest.begin() + at);
  out.insert(out.end(), index_steps.begin(), index_steps.end());
  out.insert(out.end(), rest.begin() + at, rest.end());
  return out;
}

Array gather_new(const Array& src, const std::vector<AxisIndex>& indices, int at, const char* op,
                 bool numpy_layout) {
  const int nb = static_cast<int>(indices[0].index.ndim());
  const std::vector<int> indexed = axes_of(indices);
  std::vector<Array> arrays = arrays_of(indices);
  const Strides layout = numpy_layout ? getitem_layout(src, indexed, arrays, at) : Strides{};
  Array out = Array::empty(gathered_shape(src, indices, at), src.dtype(), src.device(), layout);
  if (auto fault = backend_for(src.device()).gather(src, indexed, arrays, backend_view(out, nb, at)))
    throw_fault(*fault, indices, src, op);
  return out;
}

Array take_rows(const Array& x, const Array& index, const char* op) {
  Array idx = int64_index(index, x.device(), op);
  x.eval();
  idx.eval();
  Shape shape = idx.shape();
  shape.insert(shape.end(), x.shape().begin() + 1, x.shape().end());
  const int axis = 0;
  // x's other axes keep their memory order (NumPy's getitem), C for the usual C-ordered x.
  const Strides layout = x.ndim() >= 3 || idx.ndim() >= 2
                             ? getitem_layout(x, {&axis, 1}, {&idx, 1}, 0)
                             : Strides{};
  Array out = Array::empty(shape, x.dtype(), x.device(), layout);
  if (auto fault = backend_for(x.device()).gather(x, std::span<const int>(&axis, 1),
                                                  std::span<const Array>(&idx, 1), out))
    throw IndexError(tag(op) + "index " + std::to_string(fault->value) +
                     " is out of bounds for axis 0 with size " + std::to_string(x.shape()[0]));
  return out;
}

void scatter_into(const Array& dst, const std::vector<AxisIndex>& indices, int at,
                  const Array& value, const char* op) {
  const int nb = static_cast<int>(indices[0].index.ndim());
  const Shape target = gathered_shape(dst, indices, at);
  if (value.device() != dst.device() && !value.weak())
    throw DeviceError(tag(op) + "cannot assign an array on " + value.device().str() +
                      " into one on " + dst.device().str() + "; move it with to_device() first");
  check_writable(dst, op);
  bool fits = value.ndim() <= static_cast<int>(target.size());
  for (int i = 1; fits && i <= value.ndim(); ++i) {
    int64_t v = value.shape()[value.ndim() - i], t = target[target.size() - i];
    fits = v == t || v == 1;
  }
  if (!fits)
    throw ShapeError(tag(op) + "shape mismatch: value array of shape " + shape_str(value.shape()) +
                     " could not be broadcast to indexing result of shape " + shape_str(target));
  Array v = value.device() == dst.device() ? value : to_device(value, dst.device());
  v = astype(v, dst.dtype(), false);
  v.eval();
  if (v.shares_memory_with(dst)) v = copy(v).eval();
  Array spread = Array::view_of(v, target, broadcast_strides(v.shape(), v.strides(), target), v.offset());
  std::vector<int> axes = axes_of(indices);
  std::vector<Array> arrays = arrays_of(indices, &dst);
  // Arrays still to be computed from dst's memory must see its old values.
  dst.buffer()->evaluate_pending_readers();
  if (auto fault = backend_for(dst.device()).scatter(dst, axes, arrays, backend_view(spread, nb, at)))
    throw_fault(*fault, indices, dst, op);
}

Array flatten(const Array& x) {
  Array c = ascontiguousarray(x);
  return Array::view_of(c, {c.size()}, {1}, c.offset());
}

}  // namespace accel::detail
