// CudaBackend::gather / scatter (Backend's contract: backend.h) with the kernels of
// device_src/gather_scatter.cuh. A bad index is reported as the first in C order over the index
// shape (then in argument order), as on the CPU. Scatter checks every index before writing, and
// among positions that write the same element the one latest in C order wins, as on the CPU: a
// hash table over destinations keeps each one's largest position (atomicMax), so the result
// does not depend on thread scheduling.
#pragma once
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "accel/backend/backend.h"

namespace accel::cuda {

std::optional<IndexFault> gather(int device, const Array& src, std::span<const int> axes,
                                 std::span<const Array> indices, const Array& out);
std::optional<IndexFault> scatter(int device, const Array& dst, std::span<const int> axes,
                                  std::span<const Array> indices, const Array& values);

// The walk the kernels take, planned on the host (tested without a GPU). `table` is the layout
// gather_scatter.cuh reads: [nb, k, nblk, B's shape, per index array (address, axis size, axis
// stride, strides over B), the other operand's strides over B, the block's shape, its strides in
// the indexed array, in the other operand]. B's axes of length 1 are dropped and neighbours
// that are contiguous in every operand merged; likewise the block's.
struct IndexWalk {
  std::vector<int64_t> table;
  int64_t positions = 0;  // elements of B
  int64_t block = 1;      // elements of the block (0 when a remaining axis is empty)
};
IndexWalk index_walk(const Array& indexed, std::span<const int> axes,
                     std::span<const Array> indices, const Array& other);

// The kernel source as NVRTC compiles it and every instantiation the backend launches, for
// tests that compile them all.
std::string gather_scatter_kernel_source();
std::vector<std::string> gather_scatter_kernel_names();

}  // namespace accel::cuda
