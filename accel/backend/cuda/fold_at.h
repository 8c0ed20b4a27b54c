// ufunc_at's fold and ufunc_reduceat's segmented fold on the GPU (backend/fold_at.h says what it computes) with fold_at.cuh, planned
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

// The name expression of the segmented fold (ufunc_reduceat) of `op` on `dtype`.
std::string fold_segments_kernel_name(OpId op, Dtype dtype);
// One kernel: a thread per output element.
void run_fold_segments(KernelRunner& runner, OpId op, const Array& out, const Array& src,
                       const Array& starts, int64_t outer, int64_t n, int64_t inner);
void fold_segments(OpId op, const Array& out, const Array& src, const Array& starts,
                   int64_t outer, int64_t n, int64_t inner);

}  // namespace accel::cuda
