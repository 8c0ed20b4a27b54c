// CpuBackend::reduce: lays the reduction out (reduce_layout.h) and hands it to the typed loops
// (reduce_typed.h); conversions sum/prod cannot do while reading go through one converted copy.
#include <string>

#include "accel/backend/cpu/cpu_backend.h"
#include "accel/backend/cpu/reduce_layout.h"
#include "accel/backend/cpu/reduce_typed.h"
#include "accel/runtime/errors.h"

namespace accel::cpu {

void CpuBackend::reduce(ReduceOp op, const Array& in, const std::vector<int>& axes,
                        const Array& out) {
  const bool arg = op == ReduceOp::argmin || op == ReduceOp::argmax;
  if (arg && axes.size() != 1)
    throw ValueError("[reduce] argmin/argmax take exactly one axis; got " +
                     std::to_string(axes.size()));
  const ReduceLayout l = make_reduce_layout(in.shape(), in.strides(), axes, out.strides(), arg);
  switch (op) {
    case ReduceOp::sum:
    case ReduceOp::prod:
      if (!reduce_sum_prod(op, l, in.dtype(), in.data(), out.dtype(), out.data())) {
        Array converted = Array::empty(in.shape(), out.dtype(), in.device());
        cast(in, converted);
        reduce(op, converted, axes, out);
      }
      return;
    case ReduceOp::min:
    case ReduceOp::max:
    case ReduceOp::argmin:
    case ReduceOp::argmax: return reduce_extreme(op, l, in.dtype(), in.data(), out.data());
    case ReduceOp::any:
    case ReduceOp::all: return reduce_logical(op, l, in.dtype(), in.data(), out.data());
  }
}

}  // namespace accel::cpu
