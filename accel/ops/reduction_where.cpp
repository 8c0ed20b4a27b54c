// NumPy's where= and initial= of the reductions (reduction.h: ReduceOptions), composed from the
// plain reductions: the elements left out are replaced by the identity (0 for sums, 1 for
// products, False/True for any/all, initial for max/min) before reducing, and initial joins the
// result. The counts of mean/var/std are sums of the broadcast mask.
#include <string>

#include "accel/ops/copy.h"
#include "accel/ops/creation.h"
#include "accel/ops/elementwise.h"
#include "accel/ops/manipulation.h"
#include "accel/ops/promotion.h"
#include "accel/ops/reduction.h"
#include "accel/ops/result_layout.h"
#include "accel/runtime/errors.h"

namespace accel {
namespace {

// where= as a bool array of x's shape (NumPy casts it under the 'safe' rule: only bools).
Array where_mask(const Array& x, const Array& where, const char* op) {
  if (!is_bool(where.dtype()))
    throw DTypeError(std::string("[") + op + "] where= must be a bool array; got " +
                     where.describe());
  return broadcast_to(where, x.shape());
}

Array with_identity(const Array& x, const ReduceOptions& o, const Array& identity,
                    const char* op) {
  return o.where ? accel::where(where_mask(x, *o.where, op), x, identity) : x;
}

Array weak_integer(int64_t v) { return Array::scalar(v, true); }

// initial= as `dtype`, converted as NumPy stores a Python number there (int(2.5) into integers,
// OverflowError out of range, TypeError for a complex into reals: promotion.h).
Array initial_as(const Array& initial, Dtype dtype, const char* op) {
  check_weak_store(initial, dtype, op);
  return astype(initial, dtype, false);
}

// sum/prod with initial: reduced and combined in float32 for the half floats (NumPy's float16
// sums accumulate in float), rounded to the result dtype once.
template <Array (*Reduce)(const Array&, const ReduceAxes&, bool, std::optional<Dtype>),
          Array (*Combine)(const Array&, const Array&)>
Array combined_with_initial(const Array& y, const ReduceAxes& axis, bool keepdims,
                            std::optional<Dtype> dtype, const Array& initial, const char* op) {
  const Dtype result = dtype.value_or(sum_dtype(y.dtype()));
  const bool narrow = !dtype && (result == Dtype::float16 || result == Dtype::bfloat16);
  const Dtype acc = narrow ? Dtype::float32 : result;
  Array r = Combine(Reduce(y, axis, keepdims, acc), initial_as(initial, acc, op));
  return astype(r, result, false);
}

// max/min with initial: the masked elements take initial's value; an empty reduction is
// initial itself (of x's dtype), as NumPy's.
template <Array (*Reduce)(const Array&, const ReduceAxes&, bool),
          Array (*Combine)(const Array&, const Array&)>
Array extreme_with_initial(const Array& x, const ReduceAxes& axis, bool keepdims,
                           const ReduceOptions& o, const char* op, const char* ufunc) {
  if (!o.initial) {
    if (o.where)
      throw ValueError(std::string("[") + op + "] reduction operation '" + ufunc +
                       "' does not have an identity, so to use a where mask one has to "
                       "specify 'initial'");
    return Reduce(x, axis, keepdims);
  }
  const Array init = initial_as(*o.initial, x.dtype(), op);
  if (x.size() == 0) {
    const Shape shape = sum(x, axis, keepdims).shape();  // the result's shape, from a cheap sum
    return full(shape, init, x.dtype(), x.device());
  }
  return Combine(Reduce(with_identity(x, o, init, op), axis, keepdims), init);
}

// The number of elements taken along the reduced axes, as `dtype`.
Array count_taken(const Array& x, const ReduceOptions& o, const ReduceAxes& axis, bool keepdims,
            Dtype dtype, const char* op) {
  return sum(where_mask(x, *o.where, op), axis, keepdims, dtype);
}

// sum / count laid out as the sum: NumPy divides the masked sum by its count in place
// (out=), so mean's and var's results keep the sum's layout (x's axis order), where an
// elementwise divide of the sum and the count of a broadcast mask, C-ordered, would be C.
Array divided_in_place(const Array& sum, const Array& count, const char* op) {
  Array q = divide(sum, count);
  if (sum.is_contiguous() || q.strides() == sum.strides()) return q;
  Array out = Array::empty(q.shape(), q.dtype(), q.device(), like_layout(sum));
  assign(out, q, op);
  return out;
}

}  // namespace

Array sum(const Array& x, const ReduceAxes& axis, bool keepdims, std::optional<Dtype> dtype,
          const ReduceOptions& o) {
  Array y = with_identity(x, o, weak_integer(0), "sum");
  if (!o.initial) return sum(y, axis, keepdims, dtype);
  return combined_with_initial<&sum, &add>(y, axis, keepdims, dtype, *o.initial, "sum");
}

Array prod(const Array& x, const ReduceAxes& axis, bool keepdims, std::optional<Dtype> dtype,
           const ReduceOptions& o) {
  Array y = with_identity(x, o, weak_integer(1), "prod");
  if (!o.initial) return prod(y, axis, keepdims, dtype);
  return combined_with_initial<&prod, &multiply>(y, axis, keepdims, dtype, *o.initial, "prod");
}

Array max(const Array& x, const ReduceAxes& axis, bool keepdims, const ReduceOptions& o) {
  return extreme_with_initial<&max, &maximum>(x, axis, keepdims, o, "max", "maximum");
}

Array min(const Array& x, const ReduceAxes& axis, bool keepdims, const ReduceOptions& o) {
  return extreme_with_initial<&min, &minimum>(x, axis, keepdims, o, "min", "minimum");
}

Array any(const Array& x, const ReduceAxes& axis, bool keepdims, const ReduceOptions& o) {
  return any(with_identity(x, o, Array::scalar(false, true), "any"), axis, keepdims);
}

Array all(const Array& x, const ReduceAxes& axis, bool keepdims, const ReduceOptions& o) {
  return all(with_identity(x, o, Array::scalar(true, true), "all"), axis, keepdims);
}

Array mean(const Array& x, const ReduceAxes& axis, bool keepdims, std::optional<Dtype> dtype,
           const ReduceOptions& o) {
  if (!o.where) return mean(x, axis, keepdims, dtype);
  // mean's dtypes (reduction.cpp): float16 sums in float32 and divides there.
  const Dtype result = dtype.value_or(is_inexact(x.dtype()) ? x.dtype() : Dtype::float64);
  const bool narrow = result == Dtype::float16 || result == Dtype::bfloat16;
  const Dtype acc = !dtype && narrow ? Dtype::float32 : result;
  Array s = sum(with_identity(x, o, weak_integer(0), "mean"), axis, keepdims, acc);
  Array n = count_taken(x, o, axis, keepdims, real_dtype(acc), "mean");
  // nothing taken: 0 / 0, NaN as NumPy's
  return astype(divided_in_place(s, n, "mean"), result, false);
}

Array var(const Array& x, const ReduceAxes& axis, double correction, bool keepdims,
          std::optional<Dtype> dtype, const ReduceOptions& o) {
  if (!o.where && !o.mean) return var(x, axis, correction, keepdims, dtype);
  const Dtype acc = dtype.value_or(is_inexact(x.dtype()) ? x.dtype() : Dtype::float64);
  const Array xa = cast_operand(x, acc);  // laid out as the deviations (reduction.cpp)
  const Array zero = weak_integer(0);
  // Without where= every element is taken (the counts below are then the plain ones).
  ReduceOptions taken = o;
  if (!taken.where) taken.where = Array::scalar(true, false, x.device());
  Array m = o.mean ? *o.mean
                   : divided_in_place(sum(with_identity(xa, o, zero, "var"), axis, true, acc),
                                      count_taken(xa, taken, axis, true, real_dtype(acc), "var"),
                                      "var");
  if (m.device() != x.device())
    throw DeviceError("[var] mean= is on " + m.device().str() + " and x on " +
                      x.device().str());
  // A given mean of another dtype promotes the deviations, as NumPy's arr - mean does; their
  // squares are summed in the deviations' real dtype unless dtype= says otherwise.
  Array d = subtract(xa, m);
  const Dtype sum_dtype = dtype ? real_dtype(acc) : real_dtype(d.dtype());
  Array sq = is_complex(d.dtype()) ? real(multiply(d, conj(d))) : square(d);
  Array s = sum(with_identity(sq, o, zero, "var"), axis, keepdims, sum_dtype);
  // NumPy divides by max(N - ddof, 0), N the elements taken.
  Array dof = maximum(subtract(count_taken(xa, taken, axis, keepdims, sum_dtype, "var"),
                               Array::scalar(correction, true)),
                      zero);
  return divided_in_place(s, dof, "var");
}

Array std(const Array& x, const ReduceAxes& axis, double correction, bool keepdims,
          std::optional<Dtype> dtype, const ReduceOptions& o) {
  return sqrt(var(x, axis, correction, keepdims, dtype, o));
}

}  // namespace accel
