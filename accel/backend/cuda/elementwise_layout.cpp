#include "accel/backend/cuda/elementwise_layout.h"

#include <algorithm>
#include <cstring>

#include "accel/backend/common/coalesce.h"

namespace accel::cuda {

LoopLayout simplify_layout(const Shape& shape, std::vector<Strides> byte_strides) {
  if (shape_size(shape) == 0) {  // nothing to run; keep a zero-length axis to say so
    LoopLayout l{{0}, std::vector<Strides>(byte_strides.size(), Strides{0})};
    return l;
  }
  plan::IterSpace space = plan::coalesce(shape, std::move(byte_strides));
  return {std::move(space.shape), std::move(space.steps)};
}

namespace {

bool contiguous(const LoopLayout& l, size_t k, int64_t itemsize) {
  int64_t expected = itemsize;
  for (int d = static_cast<int>(l.shape.size()) - 1; d >= 0; --d) {
    if (l.strides[k][d] != expected) return false;
    expected *= l.shape[d];
  }
  return true;
}

}  // namespace

ir::Layout input_layout_of(const LoopLayout& l, size_t k, int64_t itemsize) {
  if (std::all_of(l.strides[k].begin(), l.strides[k].end(), [](int64_t s) { return s == 0; }))
    return ir::Layout::scalar;
  return contiguous(l, k, itemsize) ? ir::Layout::contiguous : ir::Layout::strided;
}

ir::Layout output_layout_of(const LoopLayout& l, size_t k, int64_t itemsize) {
  return contiguous(l, k, itemsize) ? ir::Layout::contiguous : ir::Layout::strided;
}

unsigned grid_blocks(int64_t n, int multiprocessors) {
  const int64_t wanted = (n + kElementwiseBlock - 1) / kElementwiseBlock;
  const int64_t cap = int64_t{std::max(multiprocessors, 1)} * kBlocksPerMultiprocessor;
  return static_cast<unsigned>(std::clamp<int64_t>(wanted, 1, cap));
}

// The dialect's struct: char* ptr[nops]; int64_t n; int32_t ndim; (4 bytes of padding)
// int64_t shape[8]; int64_t strides[nops][8].
size_t args_size(size_t nops) { return 8 * nops + 16 + 8 * kMaxKernelDims * (1 + nops); }

std::string pack_args(const std::vector<char*>& ptrs, const LoopLayout& l) {
  const size_t nops = ptrs.size();
  std::string bytes(args_size(nops), '\0');
  // A 0-d loop has empty shape and strides, whose data() may be null: memcpy from null is
  // undefined even for 0 bytes, so empty copies are skipped.
  auto put = [p = bytes.data()](size_t at, const void* src, size_t size) {
    if (size) std::memcpy(p + at, src, size);
  };
  put(0, ptrs.data(), 8 * nops);
  const int64_t n = l.size();
  const auto ndim = static_cast<int32_t>(l.shape.size());
  put(8 * nops, &n, 8);
  put(8 * nops + 8, &ndim, 4);
  put(8 * nops + 16, l.shape.data(), 8 * l.shape.size());
  for (size_t k = 0; k < nops; ++k)
    put(8 * nops + 16 + 8 * kMaxKernelDims * (1 + k), l.strides[k].data(), 8 * l.strides[k].size());
  return bytes;
}

void for_each_launch(const LoopLayout& l,
                     const std::function<void(const std::vector<int64_t>&, const LoopLayout&)>& launch) {
  const size_t nops = l.strides.size();
  const int ndim = static_cast<int>(l.shape.size());
  if (ndim <= kMaxKernelDims) {
    launch(std::vector<int64_t>(nops, 0), l);
    return;
  }
  const int outer = ndim - kMaxKernelDims;
  LoopLayout inner;
  inner.shape.assign(l.shape.begin() + outer, l.shape.end());
  for (const Strides& s : l.strides) inner.strides.emplace_back(s.begin() + outer, s.end());
  std::vector<int64_t> index(static_cast<size_t>(outer), 0), offsets(nops, 0);
  while (true) {
    launch(offsets, inner);
    int d = outer - 1;  // odometer over the leading axes, offsets kept in step
    for (; d >= 0; --d) {
      for (size_t k = 0; k < nops; ++k) offsets[k] += l.strides[k][d];
      if (++index[d] < l.shape[d]) break;
      for (size_t k = 0; k < nops; ++k) offsets[k] -= l.strides[k][d] * l.shape[d];
      index[d] = 0;
    }
    if (d < 0) return;
  }
}

}  // namespace accel::cuda
