#include "accel/backend/cpu/reduce_engine.h"
#include "accel/backend/cpu/reduce_ops.h"
#include "accel/backend/cpu/reduce_typed.h"

namespace accel::cpu {

void reduce_logical(ReduceOp op, const ReduceLayout& l, Dtype dtype, const void* in, void* out) {
  dispatch_dtype(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if (op == ReduceOp::any) run_reduce<LogicalOp<T, true>>(l, in, out);
    else run_reduce<LogicalOp<T, false>>(l, in, out);
  });
}

}  // namespace accel::cpu
