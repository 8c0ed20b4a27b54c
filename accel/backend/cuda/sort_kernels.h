// CUDA sort and searchsorted (accel/backend/sorting.h has what they compute) with the radix
// sort kernels of device_src/sort.cuh, planned here and launched through a KernelRunner
// (reduce_kernels.h): a CUDA device, or the tests' host emulator running the same source.
#pragma once
#include <string>

#include "accel/backend/cuda/reduce_kernels.h"

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

// sort_on_device / searchsorted_on_device on `runner`.
void run_sort(KernelRunner& runner, const Array& in, int axis, bool descending, const Array* values,
              const Array* indices);
void run_searchsorted(KernelRunner& runner, const Array& sorted, const Array& values, bool right,
                      const Array& out);

// On the arrays' CUDA device, ordered on its current stream.
void sort(const Array& in, int axis, bool descending, const Array* values, const Array* indices);
void searchsorted(const Array& sorted, const Array& values, bool right, const Array& out);

}  // namespace accel::cuda
