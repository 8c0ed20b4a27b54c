#include "accel/backend/cpu/tile_walk.h"

#include <cstdlib>

#include "accel/backend/cpu/thread_pool.h"

namespace accel::cpu {

TileWalk plan_tiles(int ndim, const int64_t* shape, int nops, const int64_t* const* strides) {
  TileWalk w;
  int64_t total = 1;
  for (int d = 0; d < ndim; ++d) total *= shape[d];
  w.units = total;
  if (ndim < 2 || total == 0) return w;
  const int64_t rows = shape[ndim - 2], cols = shape[ndim - 1];
  if (rows < 2 || cols < 2) return w;
  bool transposed = false;
  for (int k = 0; k < nops; ++k) {
    const int64_t along = std::abs(strides[k][ndim - 1]), before = std::abs(strides[k][ndim - 2]);
    transposed = transposed || (along >= 64 && before < along);
  }
  if (!transposed) return w;
  const int64_t matrices = total / (rows * cols);
  int64_t tile = kTile;
  while (tile > 64 && matrices * ((rows + tile - 1) / tile) * ((cols + tile - 1) / tile) <
                          4 * static_cast<int64_t>(num_threads()))
    tile /= 2;
  w.tiled = true;
  w.tile_r = w.tile_c = tile;
  w.tiles_r = (rows + tile - 1) / tile;
  w.tiles_c = (cols + tile - 1) / tile;
  w.units = matrices * w.tiles_r * w.tiles_c;
  w.unit_elements = tile * tile;
  return w;
}

}  // namespace accel::cpu
