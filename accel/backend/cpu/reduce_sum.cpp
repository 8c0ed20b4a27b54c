#include "accel/backend/cpu/reduce_engine.h"
#include "accel/backend/cpu/reduce_ops.h"
#include "accel/backend/cpu/reduce_typed.h"

namespace accel::cpu {

bool reduce_sum_prod(ReduceOp op, const ReduceLayout& l, Dtype in_dtype, const void* in,
                     Dtype acc_dtype, void* out) {
  return dispatch_dtype(in_dtype, [&](auto in_tag) {
    using In = typename decltype(in_tag)::type;
    return dispatch_dtype(acc_dtype, [&](auto acc_tag) {
      using Acc = typename decltype(acc_tag)::type;
      if constexpr (kFusedConversion<In, Acc>) {
        if (op == ReduceOp::sum) run_reduce<SumProdOp<In, Acc, true>>(l, in, out);
        else run_reduce<SumProdOp<In, Acc, false>>(l, in, out);
        return true;
      } else {
        return false;
      }
    });
  });
}

}  // namespace accel::cpu
