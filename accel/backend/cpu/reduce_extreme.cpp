#include "accel/backend/cpu/reduce_engine.h"
#include "accel/backend/cpu/reduce_ops.h"
#include "accel/backend/cpu/reduce_typed.h"

namespace accel::cpu {

void reduce_extreme(ReduceOp op, const ReduceLayout& l, Dtype dtype, const void* in, void* out) {
  dispatch_dtype(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    switch (op) {
      case ReduceOp::min: return run_reduce<ExtremeOp<T, false>>(l, in, out);
      case ReduceOp::max: return run_reduce<ExtremeOp<T, true>>(l, in, out);
      case ReduceOp::argmin: return run_reduce<ArgExtremeOp<T, false>>(l, in, out);
      default: return run_reduce<ArgExtremeOp<T, true>>(l, in, out);
    }
  });
}

}  // namespace accel::cpu
