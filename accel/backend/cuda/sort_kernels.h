// CUDA sort, searchsorted and interp (accel/backend/sorting.h has what they compute) with the
// radix sort kernels of device_src/sort.cuh and interp.cuh's, planned here and launched through a
// KernelRunner (reduce_kernels.h): a CUDA device, or the tests' host emulator running the same
// source.
#pragma once
#include <string>

#include "accel/backend/cuda/reduce_kernels.h"
#include "accel/device_src/interp.h"

namespace accel::cuda {

// Name expressions (of reduction_source(), which holds sort.cuh) of the kernels a dtype uses:
// typed ones per dtype, the others shared by every dtype.
struct SortKernelNames {
  std::string keys, write, search;
};
SortKernelNames sort_kernel_names(Dtype dtype);
inline constexpr const char* kSortSegmentKeys = "accel::kernels::sort_segment_keys";
inline constexpr const char* kSortCount = "accel::kernels::sort_count";
inline constexpr const char* kSortScanCounts = "accel::kernels::sort_scan_counts";
inline constexpr const char* kSortScatter = "accel::kernels::sort_scatter";
inline constexpr const char* kInterpValues = "accel::kernels::interp_values";

// sort_on_device / searchsorted_on_device / interp_on_device on `runner`.
void run_sort(KernelRunner& runner, const Array& in, int axis, bool descending, const Array* values,
              const Array* indices);
void run_searchsorted(KernelRunner& runner, const Array& sorted, const Array& values, bool right,
                      const Array& out);
void run_interp(KernelRunner& runner, const kernels::InterpParams& p);

// On the arrays' CUDA device, ordered on its current stream.
void sort(const Array& in, int axis, bool descending, const Array* values, const Array* indices);
void searchsorted(const Array& sorted, const Array& values, bool right, const Array& out);
// interp_params' kernel over these arrays.
void interp(const Array& x, const Array& xp, const Array& fp, const Array& out,
            const kernels::InterpParams& p);

}  // namespace accel::cuda
