// How the CPU walks a fused kernel's operands: the coalesced iteration space
// (backend/common/coalesce.h) bound to the arrays, cut into rows of its last axis, or into
// tiles of its last two axes when an operand is transposed (tile_walk.h). Shared by the interpreter and
// the host-JIT launcher, so both see the same rows and the same pointers.
#pragma once
#include <algorithm>
#include <cstdint>
#include <span>
#include <vector>

#include "accel/backend/cpu/tile_walk.h"
#include "accel/core/array.h"

namespace accel::cpu {

struct FusedSpace {
  std::vector<char*> base;       // operand element 0: inputs, then outputs
  Shape shape;                   // coalesced, at least one axis
  std::vector<Strides> strides;  // bytes, per operand
  std::vector<int64_t> inner;    // bytes, per operand: its step along the last axis
};

FusedSpace bind_fused(const Shape& shape, std::span<const Array> inputs,
                      std::span<const Array> outputs);
// The space of `inputs` and one contiguous output of `out_itemsize`-byte elements that is not
// an array: a window of cache-sized blocks that set_window points at memory, one at a time.
FusedSpace bind_fused_window(const Shape& shape, std::span<const Array> inputs,
                             size_t out_itemsize);
// Points the window (the last operand) at `dst`, which receives flat elements [begin, ...).
void set_window(FusedSpace& s, void* dst, int64_t begin, size_t out_itemsize);

// Calls row(ptrs, n) for each run of flat elements [begin, end) along the last axis: ptrs[k] is
// operand k's first element of the run, the run has n elements. The start is found by div/mod
// once; then an odometer steps from row to row.
template <class Row>
void for_each_row(const FusedSpace& s, int64_t begin, int64_t end, Row&& row) {
  const size_t nd = s.shape.size(), nops = s.base.size();
  std::vector<int64_t> idx(nd);
  int64_t rem = begin;
  for (size_t d = nd; d-- > 0;) {
    idx[d] = rem % s.shape[d];
    rem /= s.shape[d];
  }
  std::vector<char*> ptrs(nops);
  const int64_t last = s.shape[nd - 1];
  for (int64_t pos = begin; pos < end;) {
    for (size_t k = 0; k < nops; ++k) {
      char* p = s.base[k];
      for (size_t d = 0; d < nd; ++d) p += idx[d] * s.strides[k][d];
      ptrs[k] = p;
    }
    const int64_t n = std::min(last - idx[nd - 1], end - pos);
    row(ptrs.data(), n);
    pos += n;
    idx[nd - 1] += n;
    for (size_t d = nd - 1; d > 0 && idx[d] >= s.shape[d]; --d) {
      idx[d] = 0;
      ++idx[d - 1];
    }
  }
}

// The walk of a fused kernel: rows, or tiles when an operand is transposed (tile_walk.h).
TileWalk plan_walk(const FusedSpace& s);

// The rows of units [begin, end) of `w`, tiled or not.
template <class Row>
void for_each_walk_row(const FusedSpace& s, const TileWalk& w, int64_t begin, int64_t end,
                       Row&& row) {
  if (!w.tiled) return for_each_row(s, begin, end, row);
  SmallVector<const int64_t*, 16> strides;
  for (const Strides& st : s.strides) strides.push_back(st.data());
  for_each_tile_row(static_cast<int>(s.shape.size()), s.shape.data(),
                    static_cast<int>(s.base.size()), s.base.data(), strides.data(), w, begin, end,
                    row);
}

}  // namespace accel::cpu
