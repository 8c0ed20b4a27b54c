// The reference interpreter of KernelIR (accel/ir/kernel_ir.h): runs a fused kernel in one pass
// over memory with no compiler at run time, and defines what the IR means.
#pragma once
#include <span>

#include "accel/core/array.h"
#include "accel/ir/kernel_ir.h"

namespace accel::cpu {

// Elements per block: every instruction runs over a block before the next one, on temporaries
// of this many elements that stay in L1/L2, through the same typed loops as unfused ops.
inline constexpr int64_t kFusedBlock = 1024;

// Runs `ir` with inputs and outputs bound to arrays of one shape (inputs may be broadcast views
// with 0 strides, outputs any non-overlapping strided views). Threaded on the pool.
void interpret_fused(const ir::KernelIR& ir, std::span<const Array> inputs,
                     std::span<const Array> outputs);

}  // namespace accel::cpu
