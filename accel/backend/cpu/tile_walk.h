// Tiles of the last two axes for CPU loops whose operands include a transposed one. Such an
// operand (a step along the last axis of a cache line or more, and a shorter one along the axis
// before) brings in a line, and a page, for every element of a row; walked row by row those are
// evicted before the next rows use the rest of them (a 3162² float32 m.T: 3162 pages a row, past
// the TLB). In tiles the tile's rows use each line while it is cached. Used by the strided loops
// of single ops (strided_loop.cpp) and the fused kernels' walk (fused_rows.h).
//
// Measured at 3162² float32, one thread, `m.T * 2 + m - 1` (ms, compiled kernel / interpreter):
// rows 45-68 / 49-68, tiles of 64² 27 / 48, 256² 22 / 34, 512² 22-24 / 19-26; narrow tiles
// (16-64 × 512-1024) were no better than square ones.
#pragma once
#include <algorithm>
#include <cstdint>

#include "accel/core/small_vector.h"

namespace accel::cpu {

inline constexpr int64_t kTile = 512;

// The walk cut into units for the thread pool: elements when not tiled, else tiles, which run
// along the last axis, then down the one before, then over the outer axes.
struct TileWalk {
  bool tiled = false;
  int64_t units = 0;          // elements, or tiles
  int64_t unit_elements = 1;  // at most, per unit
  int64_t tile_r = 0, tile_c = 0;  // rows and columns of a tile
  int64_t tiles_r = 0, tiles_c = 0;
};

// `strides[k][d]`: operand k's byte step along axis d of `shape` (ndim axes, coalesced). Tiles
// of kTile², halved down to 64 until each thread has four.
TileWalk plan_tiles(int ndim, const int64_t* shape, int nops, const int64_t* const* strides);

// Calls row(ptrs, n) for each row of tiles [begin, end): ptrs[k] is operand k's first element of
// the row (from base[k], its element 0), n its length.
template <class Row>
void for_each_tile_row(int ndim, const int64_t* shape, int nops, char* const* base,
                       const int64_t* const* strides, const TileWalk& w, int64_t begin,
                       int64_t end, Row&& row) {
  const int64_t rows = shape[ndim - 2], cols = shape[ndim - 1];
  const int64_t per_matrix = w.tiles_r * w.tiles_c;
  SmallVector<char*, 16> origin(static_cast<size_t>(nops)), ptrs(static_cast<size_t>(nops));
  for (int64_t t = begin; t < end; ++t) {
    int64_t outer = t / per_matrix;
    for (int k = 0; k < nops; ++k) origin[k] = base[k];
    for (int d = ndim - 2; d-- > 0;) {
      const int64_t i = outer % shape[d];
      outer /= shape[d];
      for (int k = 0; k < nops; ++k) origin[k] += i * strides[k][d];
    }
    const int64_t r0 = (t % per_matrix) / w.tiles_c * w.tile_r;
    const int64_t c0 = (t % per_matrix) % w.tiles_c * w.tile_c;
    const int64_t n = std::min(w.tile_c, cols - c0);
    for (int64_t r = r0; r < std::min(r0 + w.tile_r, rows); ++r) {
      for (int k = 0; k < nops; ++k)
        ptrs[k] = origin[k] + r * strides[k][ndim - 2] + c0 * strides[k][ndim - 1];
      row(static_cast<char* const*>(ptrs.data()), n);
    }
  }
}

}  // namespace accel::cpu
