#include "accel/ops/interp.h"

#include <array>
#include <cmath>
#include <string>

#include "accel/backend/sorting.h"
#include "accel/ops/copy.h"
#include "accel/ops/indexing.h"
#include "accel/ops/manipulation.h"
#include "accel/ops/operators.h"
#include "accel/ops/sorting.h"
#include "accel/runtime/errors.h"

namespace accel {
namespace {

void check_points(const Array& x, const Array& xp, const Array& fp) {
  if (xp.device() != x.device() || fp.device() != x.device())
    throw DeviceError("[interp] x is on " + x.device().str() + ", xp on " + xp.device().str() +
                      " and fp on " + fp.device().str() + "; move them to one device");
  if (xp.ndim() != 1 || fp.ndim() != 1)
    throw ValueError("[interp] Data points must be 1-D sequences: xp has shape " +
                     shape_str(xp.shape()) + " and fp " + shape_str(fp.shape()));
  if (xp.size() != fp.size())
    throw ValueError("[interp] fp and xp are not of the same length: xp has " +
                     std::to_string(xp.size()) + " points and fp " + std::to_string(fp.size()));
  if (xp.size() == 0) throw ValueError("[interp] array of sample points is empty");
  for (const Array* a : {&x, &xp})
    if (is_complex(a->dtype()))
      throw DTypeError(std::string("[interp] ") + (a == &x ? "x" : "xp") + " is " +
                       dtype_name(a->dtype()) + "; the points are real (cannot cast to float64)");
}

// NumPy's periodic form: x and xp modulo the period, xp sorted (fp with it) and extended by one
// point at each end, the last point one period down and the first one period up.
void wrap_by_period(double period, Array& x, Array& xp, Array& fp) {
  if (period == 0) throw ValueError("[interp] period must be a non-zero value");
  period = std::abs(period);
  x = x % period;
  xp = xp % period;
  const Array order = argsort(xp);
  xp = take(xp, order);
  fp = take(fp, order);
  const Slice last{-1, {}, {}}, first{{}, 1, {}};
  const std::array<Array, 3> xs{getitem(xp, {last}) - period, xp, getitem(xp, {first}) + period};
  const std::array<Array, 3> fs{getitem(fp, {last}), fp, getitem(fp, {first})};
  xp = concat(xs);
  fp = concat(fs);
}

// An operand for the kernel: the dtype it reads, computed and C-contiguous.
Array kernel_operand(const Array& a, Dtype dtype) {
  Array c = ascontiguousarray(astype(a, dtype, false));
  c.eval();
  return c;
}

}  // namespace

Array interp(const Array& x_in, const Array& xp_in, const Array& fp_in,
             std::optional<std::complex<double>> left, std::optional<std::complex<double>> right,
             std::optional<double> period) {
  check_points(x_in, xp_in, fp_in);
  const Dtype out_dtype = is_complex(fp_in.dtype()) ? Dtype::complex128 : Dtype::float64;
  Array x = astype(x_in, Dtype::float64, false);
  Array xp = astype(xp_in, Dtype::float64, false);
  Array fp = astype(fp_in, out_dtype, false);
  if (period) {
    wrap_by_period(*period, x, xp, fp);
    left = right = std::nullopt;
  }
  x = kernel_operand(x, Dtype::float64);
  xp = kernel_operand(xp, Dtype::float64);
  fp = kernel_operand(fp, out_dtype);
  Array out = Array::empty(x.shape(), out_dtype, x.device());
  interp_on_device(x, xp, fp, left, right, out);
  return out;
}

}  // namespace accel
