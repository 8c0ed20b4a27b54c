#include "accel/backend/cpu/strided_loop.h"

#include <algorithm>

#include "accel/backend/common/coalesce.h"
#include "accel/backend/cpu/thread_pool.h"
#include "accel/backend/cpu/tile_walk.h"
#include "accel/runtime/errors.h"

#include <string>

namespace accel::cpu {
namespace {

// Below this many (cost-weighted) elements the hand-off to other threads costs more than it saves.
constexpr int64_t kParallelGrain = 32768;

constexpr int kMaxDims = 64;

// Fixed-size so that small arrays pay no heap allocation per op.
struct Layout {
  int ndim = 0;
  int64_t shape[kMaxDims];                     // coalesced
  int64_t strides[kMaxOperands][kMaxDims];     // bytes, per operand, coalesced
};

// The coalesced space (backend/common/coalesce.h), in byte strides, walked in the output's
// memory order: a C-contiguous N-d array, or one laid out as a transposed input, becomes one
// long row.
void coalesce(const Shape& shape, std::span<const StridedOperand> ops, Layout& l) {
  const size_t nops = ops.size();
  const int nd = static_cast<int>(shape.size());
  int64_t* steps[kMaxOperands];
  for (size_t k = 0; k < nops; ++k) {
    steps[k] = l.strides[k];
    for (int d = 0; d < nd; ++d) l.strides[k][d] = (*ops[k].strides)[d] * ops[k].itemsize;
  }
  std::copy(shape.begin(), shape.end(), l.shape);
  plan::order_axes(nd, l.shape, std::span(steps, nops), nops - 1);  // the output's order
  l.ndim = plan::coalesce_axes(nd, l.shape, std::span(steps, nops));
  if (l.ndim == 0) {
    l.shape[0] = 1;
    for (size_t k = 0; k < nops; ++k) l.strides[k][0] = 0;
    l.ndim = 1;
  }
}

// Runs the rows covering flat indices [begin, end) of the coalesced space.
void run_range(InnerLoop loop, const Layout& l, std::span<const StridedOperand> ops,
               int64_t begin, int64_t end) {
  const int nd = l.ndim;
  const size_t nops = ops.size();
  const int64_t inner = l.shape[nd - 1];
  int64_t idx[kMaxDims];
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

void run_strided(InnerLoop loop, const Shape& shape, std::span<const StridedOperand> operands,
                 int cost) {
  const int64_t total = shape_size(shape);
  if (total == 0) return;
  if (shape.size() > kMaxDims)
    throw ShapeError("[loop] arrays of more than 64 dimensions are not supported; got " +
                     std::to_string(shape.size()));
  const int64_t grain = std::max<int64_t>(kParallelGrain / std::max(cost, 1), 1024);
  const int nops = static_cast<int>(operands.size());
  // 0-d and 1-d operands (most small calls) are one row already: no coalescing or tiling plan.
  if (shape.size() <= 1 && (total < 2 * grain || num_threads() == 1)) {
    char* ptrs[kMaxOperands];
    int64_t steps[kMaxOperands];
    for (int k = 0; k < nops; ++k) {
      ptrs[k] = operands[k].data;
      steps[k] = shape.empty() ? 0 : (*operands[k].strides)[0] * operands[k].itemsize;
    }
    return loop(ptrs, steps, total);
  }
  Layout l;
  coalesce(shape, operands, l);
  const int64_t* strides[kMaxOperands];
  for (int k = 0; k < nops; ++k) strides[k] = l.strides[k];
  if (const TileWalk w = plan_tiles(l.ndim, l.shape, nops, strides); w.tiled) {
    char* base[kMaxOperands];
    int64_t inner[kMaxOperands];
    for (int k = 0; k < nops; ++k) {
      base[k] = operands[k].data;
      inner[k] = l.strides[k][l.ndim - 1];
    }
    auto tiles = [&](int64_t b, int64_t e) {
      for_each_tile_row(l.ndim, l.shape, nops, base, strides, w, b, e,
                        [&](char* const* ptrs, int64_t n) { loop(ptrs, inner, n); });
    };
    if (total < 2 * grain || num_threads() == 1) return tiles(0, w.units);
    return parallel_for(w.units, std::max<int64_t>(grain / w.unit_elements, 1), tiles);
  }
  if (total < 2 * grain || num_threads() == 1) return run_range(loop, l, operands, 0, total);
  parallel_for(total, grain, [&](int64_t b, int64_t e) { run_range(loop, l, operands, b, e); });
}

}  // namespace accel::cpu
