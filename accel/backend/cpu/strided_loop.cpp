#include "accel/backend/cpu/strided_loop.h"

#include <algorithm>

#include "accel/backend/cpu/thread_pool.h"

namespace accel::cpu {
namespace {

// Below this many (cost-weighted) elements the hand-off to other threads costs more than it saves.
constexpr int64_t kParallelGrain = 32768;

struct Layout {
  Shape shape;                      // coalesced
  std::vector<Strides> strides;     // bytes, per operand, coalesced
};

// Drops size-1 dimensions and merges dimensions that are contiguous with each other in every
// operand, so a C-contiguous N-d array becomes one long row.
Layout coalesce(const Shape& shape, const std::vector<StridedOperand>& ops) {
  Layout l;
  const size_t nops = ops.size();
  l.strides.resize(nops);
  for (size_t d = 0; d < shape.size(); ++d) {
    if (shape[d] == 1) continue;
    bool merge = !l.shape.empty();
    for (size_t k = 0; merge && k < nops; ++k)
      merge = l.strides[k].back() == (*ops[k].strides)[d] * ops[k].itemsize * shape[d];
    if (merge) {
      l.shape.back() *= shape[d];
      for (size_t k = 0; k < nops; ++k) l.strides[k].back() = (*ops[k].strides)[d] * ops[k].itemsize;
    } else {
      l.shape.push_back(shape[d]);
      for (size_t k = 0; k < nops; ++k) l.strides[k].push_back((*ops[k].strides)[d] * ops[k].itemsize);
    }
  }
  if (l.shape.empty()) {
    l.shape.push_back(1);
    for (auto& s : l.strides) s.push_back(0);
  }
  return l;
}

// Runs the rows covering flat indices [begin, end) of the coalesced space.
void run_range(InnerLoop loop, const Layout& l, const std::vector<StridedOperand>& ops,
               int64_t begin, int64_t end) {
  const int nd = static_cast<int>(l.shape.size());
  const size_t nops = ops.size();
  const int64_t inner = l.shape[nd - 1];
  int64_t idx[32];
  int64_t rem = begin;
  for (int d = nd - 1; d >= 0; --d) {
    idx[d] = rem % l.shape[d];
    rem /= l.shape[d];
  }
  char* ptrs[kMaxOperands];
  int64_t inner_strides[kMaxOperands];
  for (size_t k = 0; k < nops; ++k) inner_strides[k] = l.strides[k][nd - 1];
  int64_t pos = begin;
  while (pos < end) {
    for (size_t k = 0; k < nops; ++k) {
      char* p = ops[k].data;
      for (int d = 0; d < nd; ++d) p += idx[d] * l.strides[k][d];
      ptrs[k] = p;
    }
    int64_t n = std::min(inner - idx[nd - 1], end - pos);
    loop(ptrs, inner_strides, n);
    pos += n;
    idx[nd - 1] += n;
    for (int d = nd - 1; d > 0 && idx[d] >= l.shape[d]; --d) {
      idx[d] = 0;
      ++idx[d - 1];
    }
  }
}

}  // namespace

void run_strided(InnerLoop loop, const Shape& shape, const std::vector<StridedOperand>& operands,
                 int cost) {
  const int64_t total = shape_size(shape);
  if (total == 0) return;
  Layout l = coalesce(shape, operands);
  const int64_t grain = std::max<int64_t>(kParallelGrain / std::max(cost, 1), 1024);
  if (total < 2 * grain || num_threads() == 1) return run_range(loop, l, operands, 0, total);
  parallel_for(total, grain, [&](int64_t b, int64_t e) { run_range(loop, l, operands, b, e); });
}

}  // namespace accel::cpu
