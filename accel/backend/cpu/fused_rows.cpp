#include "accel/backend/cpu/fused_rows.h"

#include <cstdint>

#include "accel/backend/common/coalesce.h"

namespace accel::cpu {

namespace {

// The space walked in the memory order of operand `key` (the first output).
FusedSpace bind(Shape shape, std::vector<char*> base, std::vector<Strides> steps, size_t key) {
  plan::order_axes(shape, steps, key);
  plan::IterSpace space = plan::coalesce(shape, std::move(steps));
  if (space.shape.empty()) {
    space.shape.push_back(1);
    for (auto& s : space.steps) s.push_back(0);
  }
  std::vector<int64_t> inner;
  for (const Strides& s : space.steps) inner.push_back(s.back());
  return {std::move(base), std::move(space.shape), std::move(space.steps), std::move(inner)};
}

void add_operand(const Array& a, std::vector<char*>& base, std::vector<Strides>& steps) {
  base.push_back(static_cast<char*>(a.data()));
  Strides& s = steps.emplace_back(a.strides());
  for (int64_t& v : s) v *= static_cast<int64_t>(a.itemsize());
}

}  // namespace

FusedSpace bind_fused(const Shape& shape, std::span<const Array> inputs,
                      std::span<const Array> outputs) {
  std::vector<char*> base;
  std::vector<Strides> steps;
  for (std::span<const Array> group : {inputs, outputs})
    for (const Array& a : group) add_operand(a, base, steps);
  return bind(shape, std::move(base), std::move(steps), inputs.size());
}

FusedSpace bind_fused_window(const Shape& shape, std::span<const Array> inputs,
                             size_t out_itemsize) {
  std::vector<char*> base;
  std::vector<Strides> steps;
  for (const Array& a : inputs) add_operand(a, base, steps);
  base.push_back(nullptr);
  Strides& s = steps.emplace_back(contiguous_strides(shape));
  for (int64_t& v : s) v *= static_cast<int64_t>(out_itemsize);
  return bind(shape, std::move(base), std::move(steps), inputs.size());
}

void set_window(FusedSpace& s, void* dst, int64_t begin, size_t out_itemsize) {
  // The address element 0 would have, so that element `begin` lands at dst (as an integer: the
  // pointer itself may lie outside any object).
  s.base.back() = reinterpret_cast<char*>(reinterpret_cast<uintptr_t>(dst) -
                                          static_cast<uintptr_t>(begin) * out_itemsize);
}

TileWalk plan_walk(const FusedSpace& s) {
  SmallVector<const int64_t*, 16> strides;
  for (const Strides& st : s.strides) strides.push_back(st.data());
  return plan_tiles(static_cast<int>(s.shape.size()), s.shape.data(),
                    static_cast<int>(s.base.size()), strides.data());
}

}  // namespace accel::cpu
