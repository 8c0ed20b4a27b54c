#include "accel/backend/cpu/fused_rows.h"

#include "accel/backend/common/coalesce.h"

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

TileWalk plan_walk(const FusedSpace& s) {
  SmallVector<const int64_t*, 16> strides;
  for (const Strides& st : s.strides) strides.push_back(st.data());
  return plan_tiles(static_cast<int>(s.shape.size()), s.shape.data(),
                    static_cast<int>(s.base.size()), strides.data());
}

}  // namespace accel::cpu
