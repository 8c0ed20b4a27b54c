#include "accel/backend/common/coalesce.h"

#include <algorithm>
#include <climits>
#include <cstdlib>

namespace accel::plan {

bool memory_order(int ndim, const int64_t* shape, const int64_t* steps, int* perm) {
  auto step = [&](int d) { return shape[d] == 1 ? 0 : std::llabs(steps[d]); };
  bool ordered = true;
  int64_t last = INT64_MAX;
  for (int d = 0; d < ndim && ordered; ++d) {
    if (shape[d] == 1) continue;
    ordered = step(d) <= last;
    last = step(d);
  }
  if (ordered) return false;
  for (int d = 0; d < ndim; ++d) perm[d] = d;
  std::stable_sort(perm, perm + ndim, [&](int a, int b) { return step(a) > step(b); });
  return true;
}

void order_axes(int ndim, int64_t* shape, std::span<int64_t* const> steps, size_t key) {
  constexpr int kMax = 64;
  int perm[kMax];
  if (ndim < 2 || ndim > kMax || !memory_order(ndim, shape, steps[key], perm)) return;
  int64_t tmp[kMax];
  auto apply = [&](int64_t* v) {
    for (int d = 0; d < ndim; ++d) tmp[d] = v[perm[d]];
    std::copy(tmp, tmp + ndim, v);
  };
  apply(shape);
  for (int64_t* s : steps) apply(s);
}

void order_axes(Shape& shape, std::vector<Strides>& steps, size_t key) {
  std::vector<int64_t*> ptrs;
  for (Strides& s : steps) ptrs.push_back(s.data());
  order_axes(static_cast<int>(shape.size()), shape.data(), ptrs, key);
}

int coalesce_axes(int ndim, int64_t* shape, std::span<int64_t* const> steps) {
  int kept = 0;  // axes [0, kept) are final; the last of them may still grow
  for (int d = 0; d < ndim; ++d) {
    const int64_t n = shape[d];
    if (n == 1) continue;
    bool merge = kept > 0;
    for (size_t k = 0; merge && k < steps.size(); ++k)
      merge = steps[k][kept - 1] == steps[k][d] * n;
    const int at = merge ? kept - 1 : kept++;
    shape[at] = merge ? shape[at] * n : n;
    for (int64_t* s : steps) s[at] = s[d];
  }
  return kept;
}

IterSpace coalesce(const Shape& shape, std::vector<Strides> steps) {
  IterSpace space{shape, std::move(steps)};
  std::vector<int64_t*> ptrs;
  for (Strides& s : space.steps) ptrs.push_back(s.data());
  const int nd = coalesce_axes(static_cast<int>(shape.size()), space.shape.data(), ptrs);
  space.shape.resize(static_cast<size_t>(nd));
  for (Strides& s : space.steps) s.resize(static_cast<size_t>(nd));
  return space;
}

}  // namespace accel::plan
