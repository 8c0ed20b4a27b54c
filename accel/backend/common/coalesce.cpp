#include "accel/backend/common/coalesce.h"

namespace accel::plan {

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
