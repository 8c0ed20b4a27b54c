// How a generated elementwise kernel (codegen/dialect.cpp, the CUDA dialect) addresses its
// operands: the loop shape is simplified first (length-1 axes dropped, neighbouring axes merged
// where every operand steps through them as one), each operand is then contiguous, scalar or
// strided over that shape, and the kernel's `args` struct is packed byte for byte. All of it is
// plain host code, tested without a GPU.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "accel/core/shape.h"
#include "accel/ir/kernel_ir.h"

namespace accel::cuda {

inline constexpr int kMaxKernelDims = 8;     // the dialect's args.shape[8]
inline constexpr int kElementwiseBlock = 256;  // threads per block
// Blocks per multiprocessor in a grid-stride launch: 8 x 256 = 2048 threads, what one SM of
// sm_70 and later holds at once; more blocks would only wait for a free SM.
inline constexpr int kBlocksPerMultiprocessor = 8;

// The loop over one shape shared by every operand, strides in bytes.
struct LoopLayout {
  Shape shape;                   // C order; no length-1 axes
  std::vector<Strides> strides;  // strides[k][d]: operand k's byte step along axis d
  int64_t size() const { return shape_size(shape); }
};

// `shape` with each operand's byte strides over it, coalesced (backend/common/coalesce.h). An empty shape (0-d, or every
// axis of length 1) is one element; a zero-length axis gives a layout of size 0.
LoopLayout simplify_layout(const Shape& shape, std::vector<Strides> byte_strides);

// The addressing operand k of `itemsize` bytes allows: scalar (every stride 0; inputs only),
// contiguous (C order with no gaps), else strided.
ir::Layout input_layout_of(const LoopLayout& l, size_t k, int64_t itemsize);
ir::Layout output_layout_of(const LoopLayout& l, size_t k, int64_t itemsize);

// Blocks of kElementwiseBlock threads for n elements: one element per thread up to
// kBlocksPerMultiprocessor blocks per SM, the grid-stride loop doing the rest. At least 1.
unsigned grid_blocks(int64_t n, int multiprocessors);

// Bytes of the args struct of a kernel with `nops` operands (inputs then outputs).
size_t args_size(size_t nops);
// The args struct: ptr[k] = ptrs[k], n, ndim and shape (at most kMaxKernelDims axes), byte
// strides[k][d]. Laid out as the dialect declares it (8-byte pointers and int64s).
std::string pack_args(const std::vector<char*>& ptrs, const LoopLayout& l);

// Splits a layout of more than kMaxKernelDims axes into launches over its last kMaxKernelDims
// axes: calls `launch(offsets, inner)` once per index of the leading axes, offsets[k] being
// operand k's byte offset there. A layout that fits is one call with zero offsets.
void for_each_launch(const LoopLayout& l,
                     const std::function<void(const std::vector<int64_t>&, const LoopLayout&)>& launch);

}  // namespace accel::cuda
