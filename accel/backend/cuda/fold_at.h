// ufunc_at's fold on the GPU (backend/fold_at.h says what it computes) with fold_at.cuh, planned
// here and launched through a KernelRunner (reduce_kernels.h): a CUDA device, or the tests' host
// emulator running the same source.
#pragma once
#include <string>

#include "accel/backend/cuda/reduce_kernels.h"

namespace accel::cuda {

// The name expression (of reduction_source()) of the fold of `op` on `dtype`.
std::string fold_at_kernel_name(OpId op, Dtype dtype);
// The positions sorted stably on `runner` (sort.cuh), then one fold kernel.
void run_fold_at(KernelRunner& runner, OpId op, const Array& dst, const Array& positions,
                 const Array& values);
// On the arrays' CUDA device, ordered on its current stream.
void fold_at(OpId op, const Array& dst, const Array& positions, const Array& values);

}  // namespace accel::cuda
