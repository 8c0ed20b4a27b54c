#include "accel/backend/cpu/fused_rows.h"

#include <cstdlib>

#include "accel/backend/common/coalesce.h"
#include "accel/backend/cpu/thread_pool.h"

namespace accel::cpu {

FusedSpace bind_fused(const Shape& shape, std::span<const Array> inputs,
                      std::span<const Array> outputs) {
  std::vector<char*> base;
  std::vector<Strides> steps;
  for (std::span<const Array> group : {inputs, outputs})
    for (const Array& a : group) {
      base.push_back(static_cast<char*>(a.data()));
      Strides& s = steps.emplace_back(a.strides());
      for (int64_t& v : s) v *= static_cast<int64_t>(a.itemsize());
    }
  plan::IterSpace space = plan::coalesce(shape, std::move(steps));
  if (space.shape.empty()) {
    space.shape.push_back(1);
    for (auto& s : space.steps) s.push_back(0);
  }
  std::vector<int64_t> inner;
  for (const Strides& s : space.steps) inner.push_back(s.back());
  return {std::move(base), std::move(space.shape), std::move(space.steps), std::move(inner)};
}

FusedWalk plan_walk(const FusedSpace& s) {
  FusedWalk w;
  const size_t nd = s.shape.size();
  const int64_t total = shape_size(s.shape);
  w.units = total;
  if (nd < 2 || total == 0) return w;
  const int64_t rows = s.shape[nd - 2], cols = s.shape[nd - 1];
  if (rows < 2 || cols < 2) return w;
  bool transposed = false;
  for (const Strides& st : s.strides) {
    const int64_t along = std::abs(st[nd - 1]), before = std::abs(st[nd - 2]);
    transposed = transposed || (along >= 64 && before < along);
  }
  if (!transposed) return w;
  w.tiled = true;
  // Halved (down to 64) until every thread has a few tiles to take.
  const int64_t matrices = total / (rows * cols);
  int64_t tile = kFusedTile;
  while (tile > 64 && matrices * ((rows + tile - 1) / tile) * ((cols + tile - 1) / tile) <
                          4 * static_cast<int64_t>(num_threads()))
    tile /= 2;
  w.tile_r = w.tile_c = tile;
  w.tiles_r = (rows + w.tile_r - 1) / w.tile_r;
  w.tiles_c = (cols + w.tile_c - 1) / w.tile_c;
  w.units = matrices * w.tiles_r * w.tiles_c;
  w.unit_elements = w.tile_r * w.tile_c;
  return w;
}

}  // namespace accel::cpu
