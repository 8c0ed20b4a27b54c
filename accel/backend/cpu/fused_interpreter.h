// The reference interpreter of KernelIR (accel/ir/kernel_ir.h): runs a fused kernel in one pass
// over memory with no compiler at run time, and defines what the IR means.
#pragma once
#include <functional>
#include <span>

#include "accel/backend/cpu/fused_rows.h"
#include "accel/core/array.h"
#include "accel/ir/kernel_ir.h"

namespace accel::cpu {

// Elements per block: every instruction runs over a block before the next one, on temporaries
// of this many elements that stay in L1/L2, through the same typed loops as unfused ops.
inline constexpr int64_t kFusedBlock = 1024;

// Runs `ir` over the space bound to its inputs and outputs (bind_fused: inputs may be broadcast
// views with 0 strides, outputs any non-overlapping strided views). Threaded on the pool.
void interpret_fused(const ir::KernelIR& ir, const FusedSpace& space);

// Runs flat elements [begin, end) (C order over the space's shape) of `ir` over a space bound as
// `s` is bound, on the calling thread: the plan is made once for `s`'s steps and reused for any
// space with the same steps (only the operands' addresses may differ).
using FusedRangeRunner = std::function<void(const FusedSpace& s, int64_t begin, int64_t end)>;
FusedRangeRunner fused_range_runner(const ir::KernelIR& ir, const FusedSpace& s);

}  // namespace accel::cpu
