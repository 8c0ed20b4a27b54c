#include "accel/ops/ufunc_at.h"

#include <algorithm>
#include <string>
#include <utility>

#include "accel/backend/fold_at.h"
#include "accel/ops/advanced_index.h"
#include "accel/ops/copy.h"
#include "accel/ops/creation.h"
#include "accel/ops/elementwise.h"
#include "accel/ops/manipulation.h"
#include "accel/ops/reduction.h"
#include "accel/runtime/errors.h"

namespace accel {
namespace {

std::string tag(OpId op, const char* method = "at") {
  return std::string("[") + op_name(op) + "." + method + "] ";
}

// The loop of a binary op on two x.dtype operands must compute in and give x's dtype.
void check_folds(OpId op, Dtype dtype, const char* method, const char* entry) {
  if (op_info(op).arity != 2)
    throw ValueError(tag(op, method) + op_name(op) + " takes " +
                     std::to_string(op_info(op).arity) + " operands; " + entry +
                     " folds binary ops");
  const OpTypes types = resolve_op_types(op, dtype);
  if (types.compute != dtype || types.out != dtype)
    throw DTypeError(tag(op, method) + op_name(op) + " of two " + dtype_name(dtype) +
                     " operands computes in " + dtype_name(types.compute) + " and gives " +
                     dtype_name(types.out) + "; " + entry + " needs an op that keeps x's dtype");
}

// The lowest and highest of a non-empty contiguous int64 array, evaluated.
std::pair<int64_t, int64_t> lowest_and_highest(const Array& index) {
  if (index.device().is_cpu() && index.size() < (1 << 16)) {
    // A few host positions in one pass: two reductions cost more than the walk at this size.
    const int64_t* p = index.data<int64_t>();
    int64_t low = p[0], high = p[0];
    for (int64_t i = 1, count = index.size(); i < count; ++i) {
      low = std::min(low, p[i]);
      high = std::max(high, p[i]);
    }
    return {low, high};
  }
  return {min(index).item<int64_t>(), max(index).item<int64_t>()};
}

// The flat positions of `indices` (int64, 1-d, contiguous) in [0, n): negative ones counted
// from the end; IndexError naming the first that is outside [-n, n). The lowest and highest
// settle the common case (all in [0, n)) without another pass (min and max: threaded,
// vectorized reductions for many positions).
Array checked_positions(OpId op, const Array& indices, int64_t n, Device device) {
  Array index = detail::flatten(detail::int64_index(indices, device, op_name(op))).eval();
  if (index.size() == 0) return index;
  const auto [low, high] = lowest_and_highest(index);
  if (low >= 0 && high < n) return index;
  const Array size = Array::scalar(n, false, device);
  if (low < -n || high >= n) {
    Array bad = logical_or(less(index, negative(size)), greater_equal(index, size));
    const int64_t first = argmax(bad).item<int64_t>();
    const int64_t value = Array::view_of(index, {}, {}, index.offset() + first).item<int64_t>();
    throw IndexError(tag(op) + "index " + std::to_string(value) + " is out of bounds for an "
                     "array of size " + std::to_string(n));
  }
  const Array zero = Array::scalar(int64_t{0}, false, device);
  return detail::flatten(where(less(index, zero), add(index, size), index)).eval();
}

}  // namespace

void ufunc_at(OpId op, const Array& x, const Array& indices, const Array& values) {
  check_folds(op, x.dtype(), "at", "ufunc_at");
  check_writable(x, "ufunc_at");
  if (!is_integer(indices.dtype()))
    throw DTypeError(tag(op) + "indices must be an integer array; got " + indices.describe());
  if (values.device() != x.device())
    throw DeviceError(tag(op) + "values on " + values.device().str() + " for an array on " +
                      x.device().str() + "; move them with to_device() first");
  // Checked first, so nothing is written when the values do not fit.
  Array spread = broadcast_to(values, indices.shape());
  const Array positions = checked_positions(op, indices, x.size(), x.device());
  if (positions.size() == 0) return;
  // One value for every position stays one (the fold steps 0 through it).
  Array v = values.size() == 1 && positions.size() > 1
                ? detail::flatten(astype(values, x.dtype(), false)).eval()
                : detail::flatten(astype(spread, x.dtype(), false)).eval();
  if (v.shares_memory_with(x)) v = copy(v).eval();
  x.eval();
  // Arrays still to be computed from x's memory must see its old values.
  x.buffer()->evaluate_pending_readers();
  if (x.is_contiguous()) {
    fold_at_on_device(op, Array::view_of(x, {x.size()}, {1}, x.offset()), positions, v);
    return;
  }
  // A strided x is folded in a contiguous copy, so flat positions stay C order (as put).
  Array flat = detail::flatten(copy(x).eval());
  fold_at_on_device(op, flat, positions, v);
  assign(x, Array::view_of(flat, x.shape(), contiguous_strides(x.shape()), flat.offset()),
         "ufunc_at");
}

Array ufunc_reduceat(OpId op, const Array& x, const Array& indices, int64_t axis) {
  check_folds(op, x.dtype(), "reduceat", "ufunc_reduceat");
  if (x.ndim() == 0)
    throw ValueError(tag(op, "reduceat") + "x must have at least one axis; got a 0-d array");
  const int ax = normalize_axis(axis, x.ndim(), "ufunc_reduceat");
  if (!is_integer(indices.dtype()) || indices.ndim() != 1)
    throw DTypeError(tag(op, "reduceat") + "indices must be a 1-d integer array; got " +
                     indices.describe());
  const int64_t n = x.shape()[ax];
  Array starts = detail::int64_index(indices, x.device(), "ufunc_reduceat");
  starts = starts.is_contiguous() ? starts.eval() : copy(starts).eval();
  const int64_t m = starts.size();
  if (m > 0) {
    // NumPy takes no negative index here: each must be a row of the axis.
    const auto [low, high] = lowest_and_highest(starts);
    if (low < 0 || high >= n) {
      const int64_t bad = low < 0 ? low : high;
      throw IndexError(tag(op, "reduceat") + "index " + std::to_string(bad) +
                       " is out of bounds for axis " + std::to_string(ax) + " of size " +
                       std::to_string(n));
    }
  }
  Shape shape = x.shape();
  shape[static_cast<size_t>(ax)] = m;
  Array out = Array::empty(shape, x.dtype(), x.device());
  if (out.size() == 0) return out;
  int64_t outer = 1, inner = 1;
  for (int d = 0; d < ax; ++d) outer *= x.shape()[static_cast<size_t>(d)];
  for (int d = ax + 1; d < x.ndim(); ++d) inner *= x.shape()[static_cast<size_t>(d)];
  const Array src = x.is_contiguous() ? x.eval() : copy(x).eval();
  fold_segments_on_device(op, out, src, starts, outer, n, inner);
  return out;
}

Array bincount(const Array& x, const std::optional<Array>& weights, int64_t minlength) {
  if (x.ndim() != 1) throw ValueError("[bincount] x must be 1-d; got " + x.describe());
  if (!is_integer(x.dtype()) && !is_bool(x.dtype()))
    throw DTypeError("[bincount] x must hold integers or bools; got " + x.describe());
  if (minlength < 0)
    throw ValueError("[bincount] minlength must not be negative; got " + std::to_string(minlength));
  if (weights) {
    if (weights->shape() != x.shape())
      throw ValueError("[bincount] weights must have x's shape " + x.describe() + "; got " +
                       weights->describe());
    if (weights->device() != x.device())
      throw DeviceError("[bincount] weights on " + weights->device().str() + " for x on " +
                        x.device().str() + "; move them with to_device() first");
    if (is_complex(weights->dtype()))
      throw DTypeError("[bincount] weights must be real (they are added as float64); got " +
                       weights->describe());
  }
  const Dtype sums = weights ? Dtype::float64 : Dtype::int64;
  Array index = detail::flatten(astype(x, Dtype::int64, false)).eval();
  if (index.size() == 0) return zeros({minlength}, Dtype::int64, x.device());
  const auto [low, high] = lowest_and_highest(index);
  if (low < 0)
    throw ValueError("[bincount] x must have no negative elements; got " + std::to_string(low));
  Array out = zeros({std::max(minlength, high + 1)}, sums, x.device()).eval();
  const Array values = weights ? detail::flatten(astype(*weights, sums, false)).eval()
                               : detail::flatten(Array::scalar(int64_t{1}, false, x.device())).eval();
  fold_at_on_device(OpId::add, out, index, values);
  return out;
}

}  // namespace accel
