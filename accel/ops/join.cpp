// Ops that assemble a new array from pieces of others: concat, stack and roll. Each piece is one
// strided Backend::cast from an input view into a view of the output (dtype conversion included),
// so the work runs on the arrays' device with the backend's own loops.
#include <string>

#include "accel/backend/backend.h"
#include "accel/ops/axis_view.h"
#include "accel/ops/manipulation.h"
#include "accel/ops/promotion.h"
#include "accel/ops/result_layout.h"
#include "accel/runtime/errors.h"

namespace accel {
namespace {

Device common_device(std::span<const Array> arrays, const char* op) {
  for (const Array& a : arrays)
    if (a.device() != arrays[0].device())
      throw DeviceError(std::string("[") + op + "] arrays are on different devices (" +
                        arrays[0].device().str() + " and " + a.device().str() +
                        "); move them with to_device() first");
  return arrays[0].device();
}

void require_some(std::span<const Array> arrays, const char* op) {
  if (arrays.empty())
    throw ValueError(std::string("[") + op + "] need at least one array to join");
}

}  // namespace

Array concat(std::span<const Array> arrays, std::optional<int64_t> axis, std::optional<Dtype> dtype,
             Casting casting) {
  require_some(arrays, "concat");
  Device device = common_device(arrays, "concat");
  if (!axis) {
    std::vector<Array> flat;
    for (const Array& a : arrays) flat.push_back(ravel(a));
    return concat(flat, 0, dtype, casting);
  }
  const Array& first = arrays[0];
  if (first.ndim() == 0)
    throw ShapeError("[concat] zero-dimensional arrays cannot be concatenated");
  const int ax = normalize_axis(*axis, first.ndim(), "concat");
  Shape shape = first.shape();
  shape[ax] = 0;
  for (size_t i = 0; i < arrays.size(); ++i) {
    const Array& a = arrays[i];
    if (a.ndim() != first.ndim())
      throw ShapeError("[concat] all arrays must have the same number of dimensions; array 0 has " +
                       std::to_string(first.ndim()) + " and array " + std::to_string(i) + " has " +
                       std::to_string(a.ndim()));
    for (int d = 0; d < a.ndim(); ++d)
      if (d != ax && a.shape()[d] != first.shape()[d])
        throw ShapeError("[concat] array dimensions must match except on axis " +
                         std::to_string(ax) + "; array 0 has shape " + shape_str(first.shape()) +
                         " and array " + std::to_string(i) + " has shape " + shape_str(a.shape()));
    shape[ax] += a.shape()[ax];
  }
  const Dtype out_dtype = dtype.value_or(result_type(arrays));
  for (const Array& a : arrays)
    if (!can_cast(a.dtype(), out_dtype, casting))
      throw DTypeError(std::string("[concat] cannot cast ") + dtype_name(a.dtype()) + " to " +
                       dtype_name(out_dtype) + " with casting='" + casting_name(casting) + "'");
  // Laid out in the axis order the inputs share, C where they disagree: NumPy's rule for
  // concatenate (join_layout), which stack follows too.
  Array out = Array::empty(shape, out_dtype, device, join_layout(shape, arrays));
  Backend& backend = backend_for(device);
  int64_t start = 0;
  for (const Array& a : arrays) {
    const int64_t n = a.shape()[ax];
    if (n > 0 && a.size() > 0) backend.cast(a, axis_slice(out, ax, start, start + n));
    start += n;
  }
  return out;
}

Array stack(std::span<const Array> arrays, int64_t axis, std::optional<Dtype> dtype,
            Casting casting) {
  require_some(arrays, "stack");
  common_device(arrays, "stack");
  for (size_t i = 1; i < arrays.size(); ++i)
    if (arrays[i].shape() != arrays[0].shape())
      throw ShapeError("[stack] all arrays must have the same shape; array 0 has shape " +
                       shape_str(arrays[0].shape()) + " and array " + std::to_string(i) +
                       " has shape " + shape_str(arrays[i].shape()));
  const int ax = normalize_axis(axis, arrays[0].ndim() + 1, "stack");
  std::vector<Array> expanded;
  expanded.reserve(arrays.size());
  for (const Array& a : arrays) expanded.push_back(expand_dims(a, {ax}));
  return concat(expanded, ax, dtype, casting);
}

Array roll(const Array& x, const Axes& shifts, const std::optional<Axes>& axes) {
  if (!axes) return reshape(roll(ravel(x), shifts, Axes{0}), x.shape());
  const size_t n = std::max(shifts.size(), axes->size());
  if ((shifts.size() != n && shifts.size() != 1) || (axes->size() != n && axes->size() != 1))
    throw ShapeError("[roll] shift " + shape_str(shifts) + " and axis " + shape_str(*axes) +
                     " must have the same length (or be single integers)");
  // Net shift per axis, in [0, length).
  std::vector<int64_t> net(x.ndim(), 0);
  for (size_t i = 0; i < n; ++i) {
    int a = normalize_axis((*axes)[axes->size() == 1 ? 0 : i], x.ndim(), "roll");
    net[a] += shifts[shifts.size() == 1 ? 0 : i];
  }
  std::vector<int> rolled;
  for (int d = 0; d < x.ndim(); ++d) {
    const int64_t len = x.shape()[d];
    net[d] = len > 0 ? ((net[d] % len) + len) % len : 0;
    if (net[d] != 0) rolled.push_back(d);
  }
  Array out = Array::empty(x.shape(), x.dtype(), x.device(), like_layout(x));  // NumPy's empty_like
  Backend& backend = backend_for(x.device());
  // Along each rolled axis the output is two blocks: out[s:] = x[:len-s] and out[:s] = x[len-s:];
  // over k rolled axes that is 2^k blocks, each one strided copy.
  for (unsigned mask = 0; mask < (1u << rolled.size()); ++mask) {
    Array src = x, dst = out;
    for (size_t j = 0; j < rolled.size(); ++j) {
      const int d = rolled[j];
      const int64_t len = x.shape()[d], s = net[d];
      if (mask & (1u << j)) {
        src = axis_slice(src, d, len - s, len);
        dst = axis_slice(dst, d, 0, s);
      } else {
        src = axis_slice(src, d, 0, len - s);
        dst = axis_slice(dst, d, s, len);
      }
    }
    if (dst.size() > 0) backend.cast(src, dst);
  }
  return out;
}

}  // namespace accel
