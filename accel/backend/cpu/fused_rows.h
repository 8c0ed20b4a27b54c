// How the CPU walks a fused kernel's operands: the coalesced iteration space
// (backend/common/coalesce.h) bound to the arrays, cut into rows of its last axis, or into
// square tiles of its last two axes when an operand is transposed. Shared by the interpreter and
// the host-JIT launcher, so both see the same rows and the same pointers.
#pragma once
#include <algorithm>
#include <cstdint>
#include <span>
#include <vector>

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

// A transposed operand (a step along the last axis of a cache line or more, and a shorter one
// along the axis before) brings in a line, and a page, for every element of a row; walked row by
// row those are evicted before the next rows use the rest of them (a 3162² float32 m.T: 3162
// pages a row, past the TLB). In tiles of the last two axes the tile's rows use each line while
// it is cached. Measured at 3162² float32, one thread, `m.T * 2 + m - 1` (ms, compiled kernel /
// interpreter): rows 45-68 / 49-68, tiles of 64² 27 / 48, 256² 22 / 34, 512² 22-24 / 19-26;
// narrow tiles (16-64 × 512-1024) were no better than square ones. The walk is cut into units,
// elements or tiles, for the thread pool.
inline constexpr int64_t kFusedTile = 512;

struct FusedWalk {
  bool tiled = false;
  int64_t units = 0;          // elements, or tiles
  int64_t unit_elements = 1;  // at most, per unit
  int64_t tile_r = 0, tile_c = 0;  // rows and columns of a tile
  int64_t tiles_r = 0, tiles_c = 0;
};

FusedWalk plan_walk(const FusedSpace& s);

// Calls row(ptrs, n) for each row of the tiles [begin, end): tiles run along the last axis, then
// down the one before, then over the outer axes.
template <class Row>
void for_each_tile_row(const FusedSpace& s, const FusedWalk& w, int64_t begin, int64_t end,
                       Row&& row) {
  const size_t nd = s.shape.size(), nops = s.base.size();
  const int64_t rows = s.shape[nd - 2], cols = s.shape[nd - 1];
  const int64_t per_block = w.tiles_r * w.tiles_c;
  std::vector<char*> origin(nops), ptrs(nops);
  for (int64_t t = begin; t < end; ++t) {
    int64_t outer = t / per_block;
    for (size_t k = 0; k < nops; ++k) origin[k] = s.base[k];
    for (size_t d = nd - 2; d-- > 0;) {
      const int64_t i = outer % s.shape[d];
      outer /= s.shape[d];
      for (size_t k = 0; k < nops; ++k) origin[k] += i * s.strides[k][d];
    }
    const int64_t r0 = (t % per_block) / w.tiles_c * w.tile_r;
    const int64_t c0 = (t % per_block) % w.tiles_c * w.tile_c;
    const int64_t n = std::min(w.tile_c, cols - c0);
    for (int64_t r = r0; r < std::min(r0 + w.tile_r, rows); ++r) {
      for (size_t k = 0; k < nops; ++k)
        ptrs[k] = origin[k] + r * s.strides[k][nd - 2] + c0 * s.strides[k][nd - 1];
      row(ptrs.data(), n);
    }
  }
}

// The rows of units [begin, end) of `w`, tiled or not.
template <class Row>
void for_each_walk_row(const FusedSpace& s, const FusedWalk& w, int64_t begin, int64_t end,
                       Row&& row) {
  if (w.tiled)
    for_each_tile_row(s, w, begin, end, row);
  else
    for_each_row(s, begin, end, row);
}

}  // namespace accel::cpu
