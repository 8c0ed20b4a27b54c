#include "accel/ops/sorting.h"

#include <array>
#include <string>

#include "accel/backend/sorting.h"
#include "accel/ops/copy.h"
#include "accel/ops/indexing.h"
#include "accel/ops/promotion.h"
#include "accel/ops/result_layout.h"
#include "accel/runtime/errors.h"

namespace accel {
namespace {

// A 0-d input has no axis to sort along: NumPy raises AxisError for axis=-1 as for any other.
int sort_axis(const Array& x, int64_t axis, const char* op) {
  return normalize_axis(axis, x.ndim(), op);
}

}  // namespace

Array sort(const Array& x, int64_t axis, bool descending, bool /*stable*/) {
  const int ax = sort_axis(x, axis, "sort");
  x.eval();
  // Laid out as x, as NumPy's sort (a copy in x's order, sorted in place).
  Array values = Array::empty(x.shape(), x.dtype(), x.device(), like_layout(x));
  sort_on_device(x, ax, descending, &values, nullptr);
  return values;
}

Array argsort(const Array& x, int64_t axis, bool descending, bool /*stable*/) {
  const int ax = sort_axis(x, axis, "argsort");
  x.eval();
  Array indices = Array::empty(x.shape(), Dtype::int64, x.device());
  sort_on_device(x, ax, descending, nullptr, &indices);
  return indices;
}

Array searchsorted(const Array& sorted, const Array& values, bool right,
                   const std::optional<Array>& sorter) {
  if (sorted.ndim() != 1)
    throw ValueError("[searchsorted] the sorted array must be 1-d, got shape " +
                     shape_str(sorted.shape()));
  if (sorted.device() != values.device())
    throw DeviceError("[searchsorted] the sorted array is on " + sorted.device().str() +
                      " and the values on " + values.device().str());
  Array a = sorted;
  if (sorter) {
    if (!is_integer(sorter->dtype()) || sorter->ndim() != 1 || sorter->size() != sorted.size())
      throw ValueError("[searchsorted] sorter must be a 1-d integer array of the sorted array's "
                       "length " + std::to_string(sorted.size()) + ", got " +
                       dtype_name(sorter->dtype()) + " of shape " + shape_str(sorter->shape()));
    a = take(sorted, *sorter);
  }
  const std::array<Array, 2> operands{a, values};
  const Dtype common = result_type(operands);
  Array a_c = astype(a, common, false);
  Array v_c = astype(values, common, false);
  a_c.eval();
  v_c.eval();
  Array out = Array::empty(values.shape(), Dtype::int64, values.device());
  searchsorted_on_device(a_c, v_c, right, out);
  return out;
}

}  // namespace accel
