#include "accel/ops/reduction.h"

#include <algorithm>
#include <numeric>
#include <string>

#include "accel/backend/backend.h"
#include "accel/eval/eval.h"
#include "accel/ops/copy.h"
#include "accel/ops/creation.h"
#include "accel/ops/elementwise.h"
#include "accel/ops/manipulation.h"
#include "accel/ops/result_layout.h"
#include "accel/runtime/errors.h"

namespace accel {
namespace {

std::vector<int> resolve_axes(const Array& x, const ReduceAxes& axis, const char* op) {
  if (!axis.all()) return normalize_axes(axis.list(), x.ndim(), op);
  std::vector<int> all(static_cast<size_t>(x.ndim()));
  std::iota(all.begin(), all.end(), 0);
  return all;
}

int64_t reduced_count(const Array& x, const std::vector<int>& axes) {
  int64_t n = 1;
  for (int a : axes) n *= x.shape()[a];
  return n;
}

std::string axes_str(const std::vector<int>& axes) {
  return shape_str(Shape(axes.begin(), axes.end()));
}

// out (x's shape without `axes`) seen with the reduced axes kept as size 1, laid out as out.
Array with_kept_dims(const Array& out, const Array& x, const std::vector<int>& axes,
                     bool x_order) {
  Shape shape = x.shape();
  for (int a : axes) shape[a] = 1;
  Strides strides = x_order ? reduced_layout(x, axes, true) : Strides{};
  if (strides.empty()) strides = contiguous_strides(shape);
  return Array::view_of(out, shape, std::move(strides), out.offset());
}

// The result laid out as NumPy's, so that a later reshape views or copies as NumPy's does (the
// values do not depend on it): a ufunc reduction's in x's axis order (reduced_layout), argmax's
// and argmin's C-ordered (NumPy moves the axis last and copies x C-ordered first).
Array reduce_to(ReduceOp op, const Array& x, const std::vector<int>& axes, bool keepdims,
                Dtype out_dtype) {
  const bool x_order = op != ReduceOp::argmax && op != ReduceOp::argmin;
  Shape shape;
  for (int d = 0, next = 0; d < x.ndim(); ++d) {
    if (next < static_cast<int>(axes.size()) && axes[next] == d) ++next;
    else shape.push_back(x.shape()[d]);
  }
  Array out = Array::empty(shape, out_dtype, x.device(),
                           x_order ? reduced_layout(x, axes, false) : Strides{});
  // A pending input is reduced as it is computed, never stored, where its backend can.
  if (!x.is_pending() || !reduce_pending(op, x, axes, out)) {
    x.eval();
    backend_for(x.device()).reduce(op, x, axes, out);
  }
  return keepdims ? with_kept_dims(out, x, axes, x_order) : out;
}

void check_not_empty(const Array& x, const std::vector<int>& axes, const char* op) {
  if (reduced_count(x, axes) == 0)
    throw ValueError(std::string("[") + op + "] zero-size array to reduction operation " + op +
                     " which has no identity (input shape " + shape_str(x.shape()) +
                     ", axes " + axes_str(axes) + ")");
}

Array weak_scalar(double v) { return Array::scalar(v, true); }

Array arg_extreme(ReduceOp op, const Array& x, std::optional<int64_t> axis, bool keepdims,
                  const char* name) {
  if (!axis) {
    if (x.size() == 0)
      throw ValueError(std::string("[") + name + "] attempt to get " + name +
                       " of an empty sequence (input shape " + shape_str(x.shape()) + ")");
    // Positions count in C order of the whole array: reduce its contiguous 1-d view; a
    // contiguous 1-d array is its own (reduced where it is: a copy of its handle costs an
    // atomic increment and decrement).
    x.eval();
    Array flat;
    if (x.ndim() != 1 || !x.is_contiguous()) {
      flat = ascontiguousarray(x);
      flat = Array::view_of(flat, {flat.size()}, {1}, flat.offset());
    }
    static const std::vector<int> axis0{0};  // not a vector made (a malloc) per call
    Array out = reduce_to(op, flat.valid() ? flat : x, axis0, false, Dtype::int64);
    if (!keepdims) return out;
    Shape ones(static_cast<size_t>(x.ndim()), 1);
    return Array::view_of(out, ones, Strides(ones.size(), 0), out.offset());
  }
  const int ax = normalize_axis(*axis, x.ndim(), name);
  if (x.shape()[ax] == 0)
    throw ValueError(std::string("[") + name + "] attempt to get " + name +
                     " of an empty sequence (axis " + std::to_string(ax) + " of shape " +
                     shape_str(x.shape()) + " has length 0)");
  return reduce_to(op, x, {ax}, keepdims, Dtype::int64);
}

Array cumulative(ScanOp op, const Array& x, std::optional<int64_t> axis, std::optional<Dtype> dtype,
                 bool include_initial, const char* name) {
  if (!axis && x.ndim() > 1)
    throw ValueError(std::string("[") + name + "] axis is required for an array of " +
                     std::to_string(x.ndim()) + " dimensions (shape " + shape_str(x.shape()) + ")");
  Array in = x;
  if (x.ndim() == 0) in = Array::view_of(x, {1}, {0}, x.offset());
  in.eval();
  const int ax = normalize_axis(axis.value_or(0), in.ndim(), name);
  const Dtype acc = dtype.value_or(sum_dtype(x.dtype()));
  // Laid out in x's axis order (broadcast axes telling nothing), as NumPy's accumulate.
  Array out = Array::empty(in.shape(), acc, in.device(), kept_layout(in.shape(), {&in, 1}));
  backend_for(in.device()).scan(op, in, ax, out);
  if (!include_initial) return out;
  // NumPy joins the initial value, full_like(out, shape=...) of length 1 along the axis, before
  // the scan with concatenate, whose layout rule decides the result's: where the axis had
  // length 1 it told nothing about its place, and the join puts it where C order has it.
  Shape first = in.shape();
  first[ax] = 1;
  const Array parts[] = {
      full_like(out, Array::scalar_of(acc, op == ScanOp::sum ? 0.0 : 1.0, in.device()),
                std::nullopt, std::nullopt, Order::K, first),
      out};
  return concat(parts, ax);
}

}  // namespace

Dtype sum_dtype(Dtype x) {
  if (is_bool(x) || dtype_kind(x) == DtypeKind::SignedInt) return Dtype::int64;
  if (is_unsigned(x)) return Dtype::uint64;
  return x;
}

Array sum(const Array& x, const ReduceAxes& axis, bool keepdims, std::optional<Dtype> dtype) {
  return reduce_to(ReduceOp::sum, x, resolve_axes(x, axis, "sum"), keepdims,
                   dtype.value_or(sum_dtype(x.dtype())));
}

Array prod(const Array& x, const ReduceAxes& axis, bool keepdims, std::optional<Dtype> dtype) {
  return reduce_to(ReduceOp::prod, x, resolve_axes(x, axis, "prod"), keepdims,
                   dtype.value_or(sum_dtype(x.dtype())));
}

Array min(const Array& x, const ReduceAxes& axis, bool keepdims) {
  auto axes = resolve_axes(x, axis, "min");
  check_not_empty(x, axes, "min");
  return reduce_to(ReduceOp::min, x, axes, keepdims, x.dtype());
}

Array max(const Array& x, const ReduceAxes& axis, bool keepdims) {
  auto axes = resolve_axes(x, axis, "max");
  check_not_empty(x, axes, "max");
  return reduce_to(ReduceOp::max, x, axes, keepdims, x.dtype());
}

Array mean(const Array& x, const ReduceAxes& axis, bool keepdims, std::optional<Dtype> dtype) {
  const Dtype result = dtype.value_or(is_inexact(x.dtype()) ? x.dtype() : Dtype::float64);
  // NumPy sums float16 in float32 and divides there, rounding the quotient once; bfloat16 too.
  const bool narrow = result == Dtype::float16 || result == Dtype::bfloat16;
  const Dtype acc = !dtype && narrow ? Dtype::float32 : result;
  auto axes = resolve_axes(x, axis, "mean");
  Array s = reduce_to(ReduceOp::sum, x, axes, keepdims, acc);
  // An empty reduction divides 0 by 0: NaN, as NumPy.
  return astype(divide(s, weak_scalar(static_cast<double>(reduced_count(x, axes)))), result, false);
}

Array var(const Array& x, const ReduceAxes& axis, double correction, bool keepdims,
          std::optional<Dtype> dtype) {
  const Dtype acc = dtype.value_or(is_inexact(x.dtype()) ? x.dtype() : Dtype::float64);
  auto axes = resolve_axes(x, axis, "var");
  // Cast as NumPy's ufuncs cast inside their loops: laid out as x's deviations are.
  Array xa = cast_operand(x, acc);
  Array m = mean(xa, ReduceAxes(std::vector<int64_t>(axes.begin(), axes.end())), true);
  Array sq;
  {
    // No handle on the deviations outlives this block: held, they would have to be stored
    // when sq is summed, instead of being computed as the sum reads them.
    Array d = subtract(xa, m);
    sq = is_complex(acc) ? real(multiply(d, conj(d))) : square(d);
  }
  Array s = reduce_to(ReduceOp::sum, sq, axes, keepdims, real_dtype(acc));
  // NumPy divides by max(N - ddof, 0): infinity or NaN when no degrees of freedom are left.
  const double dof = std::max(static_cast<double>(reduced_count(x, axes)) - correction, 0.0);
  return divide(s, weak_scalar(dof));
}

Array std(const Array& x, const ReduceAxes& axis, double correction, bool keepdims,
          std::optional<Dtype> dtype) {
  return sqrt(var(x, axis, correction, keepdims, dtype));
}

Array any(const Array& x, const ReduceAxes& axis, bool keepdims) {
  return reduce_to(ReduceOp::any, x, resolve_axes(x, axis, "any"), keepdims, Dtype::bool_);
}

Array all(const Array& x, const ReduceAxes& axis, bool keepdims) {
  return reduce_to(ReduceOp::all, x, resolve_axes(x, axis, "all"), keepdims, Dtype::bool_);
}

Array count_nonzero(const Array& x, const ReduceAxes& axis, bool keepdims) {
  auto axes = resolve_axes(x, axis, "count_nonzero");
  // As NumPy's: x as bools (astype, laid out as x is), summed.
  Array nonzero = astype(x, Dtype::bool_, false);
  return reduce_to(ReduceOp::sum, nonzero, axes, keepdims, Dtype::int64);
}

Array argmin(const Array& x, std::optional<int64_t> axis, bool keepdims) {
  return arg_extreme(ReduceOp::argmin, x, axis, keepdims, "argmin");
}

Array argmax(const Array& x, std::optional<int64_t> axis, bool keepdims) {
  return arg_extreme(ReduceOp::argmax, x, axis, keepdims, "argmax");
}

Array cumulative_sum(const Array& x, std::optional<int64_t> axis, std::optional<Dtype> dtype,
                     bool include_initial) {
  return cumulative(ScanOp::sum, x, axis, dtype, include_initial, "cumulative_sum");
}

Array cumulative_prod(const Array& x, std::optional<int64_t> axis, std::optional<Dtype> dtype,
                      bool include_initial) {
  return cumulative(ScanOp::prod, x, axis, dtype, include_initial, "cumulative_prod");
}

}  // namespace accel
