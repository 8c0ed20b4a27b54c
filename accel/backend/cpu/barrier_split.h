// Barrier splitting for user kernels on the CPU (POCL's "work-group loops"): a kernel whose
// __syncthreads() sit at block-uniform places is rewritten so that each stretch of code between
// barriers runs as a loop over the threads of the block. No fiber and no context switch remains,
// and the compiler sees plain loops over threads (which it can vectorise). Kernels it cannot
// prove safe to split keep running as fibers (raw_kernel.h).
//
// What splits: a non-template __global__ function whose barriers are `__syncthreads();`
// statements at the top level of its body, or inside `for` loops and `if`s (nested freely) whose
// headers are block-uniform: they read only kernel parameters the body never assigns, blockIdx,
// blockDim, gridDim, literals, names the kernel does not declare (constants, macros that do not
// mention threadIdx) and locals declared at a uniform level from uniform values and never
// assigned. Locals declared between barriers and used after one become per-thread arrays.
// Everything else keeps the module on fibers: warp functions, __syncthreads_count/_and/_or, a
// barrier in a __device__ function or a template, `break`/`continue` across a barrier, a
// parameter assigned in the body, a per-thread local declared with `auto`, an array or a
// reference.
#pragma once
#include <string>
#include <vector>

namespace accel::cpu {

struct SplitSource {
  std::string text;                  // the source with the split kernels' bodies rewritten
  std::vector<std::string> kernels;  // the kernels that were split, by name
  // True when every barrier of the source was in a split kernel: the other kernels have none
  // and run as plain loops.
  bool all_barriers_split = false;
};

// `text`: a prepared source (raw_kernel_source.h); `program_name` for the #line directives that
// keep assert messages and compiler errors on the user's lines. Nothing is split (kernels empty)
// unless every barrier and warp function of the source can be.
SplitSource split_at_barriers(const std::string& text, const std::string& program_name);

}  // namespace accel::cpu
