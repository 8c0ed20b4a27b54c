#include "accel/backend/cuda/reduce_plan.h"

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <string>

#include "accel/runtime/errors.h"

namespace accel::cuda {
namespace {

using kernels::kMaxDims;
using kernels::kScanTile;
using kernels::kThreads;

// A thread folds at least this many inputs per chunk before splitting a reduction pays for the
// second pass.
constexpr int64_t kMinPerThread = 32;
// Reductions (and scans) this short run a thread per output.
constexpr int64_t kTiny = 16;
// Scans of rows up to this long run a block per row, one tile after another.
constexpr int64_t kBlockRowsLen = 4 * kScanTile;
constexpr int64_t kMaxGridX = INT_MAX;
constexpr int64_t kMaxGridY = 65535;

int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

unsigned grid_x(int64_t blocks) {
  return static_cast<unsigned>(std::clamp<int64_t>(blocks, 1, kMaxGridX));
}
unsigned grid_y(int64_t blocks) {
  return static_cast<unsigned>(std::clamp<int64_t>(blocks, 1, kMaxGridY));
}

using plan::sort_and_merge;

void check_ndim(size_t ndim, const char* what) {
  if (ndim > static_cast<size_t>(kMaxDims))
    throw ValueError(std::string("[") + what + "] the CUDA kernels take at most " +
                     std::to_string(kMaxDims) +
                     " dimensions that cannot be merged; this view has " + std::to_string(ndim) +
                     " (make it contiguous first)");
}

int64_t product(const std::vector<ReduceDim>& dims) {
  int64_t n = 1;
  for (const ReduceDim& d : dims) n *= d.size;
  return n;
}

void set_kept(kernels::ReduceParams& p, const std::vector<ReduceDim>& kept) {
  check_ndim(kept.size(), "reduce");
  p.kept_ndim = static_cast<int32_t>(kept.size());
  for (size_t d = 0; d < kept.size(); ++d) {
    p.kept_size[d] = kept[d].size;
    p.kept_in[d] = kept[d].in;
    p.kept_out[d] = kept[d].out;
  }
}

void set_reduced(kernels::ReduceParams& p, const std::vector<ReduceDim>& red) {
  check_ndim(red.size(), "reduce");
  p.red_ndim = static_cast<int32_t>(red.size());
  for (size_t d = 0; d < red.size(); ++d) {
    p.red_size[d] = red[d].size;
    p.red_in[d] = red[d].in;
  }
}

// Threads per output of reduce_rows: a whole block when outputs are too few to fill the
// device with warps and each has enough inputs for a block.
int32_t row_group(int64_t outputs, int64_t inputs, int64_t threads_wanted) {
  return outputs * 32 < threads_wanted && inputs >= 2 * kThreads ? kThreads : 32;
}

// Splits `inputs` into chunks when `threads` would leave the device idle, each thread still
// folding at least kMinPerThread inputs of every chunk (`per_chunk_threads` share a chunk).
void split(kernels::ReduceParams& p, int64_t threads, int64_t per_chunk_threads,
           int64_t threads_wanted) {
  const int64_t inputs = p.red_count;
  int64_t splits = 1;
  if (threads < threads_wanted && inputs >= 2 * per_chunk_threads * kMinPerThread)
    splits =
        std::min(ceil_div(threads_wanted, threads), inputs / (per_chunk_threads * kMinPerThread));
  splits = std::clamp<int64_t>(splits, 1, kMaxGridY);
  if (splits == 1) {
    p.splits = 1;
    p.chunk = std::max<int64_t>(inputs, 1);
    return;
  }
  p.chunk = ceil_div(ceil_div(inputs, splits), 32) * 32;  // whole warps' worth per chunk
  p.splits = ceil_div(inputs, p.chunk);
}

}  // namespace

ReduceDims reduce_dims(const Shape& shape, const Strides& in_strides, const std::vector<int>& axes,
                       const Strides& out_strides, bool keep_order) {
  return plan::reduce_dims(shape, in_strides, axes, out_strides, keep_order, false);
}

size_t ReducePlan::partial_bytes() const {
  return static_cast<size_t>(params.kept_count) * static_cast<size_t>(params.splits) *
         kernels::kMaxStateBytes;
}

ReducePlan plan_reduce(const ReduceDims& dims, int64_t threads_wanted) {
  ReducePlan plan;
  kernels::ReduceParams& p = plan.params;
  set_kept(p, dims.kept);
  set_reduced(p, dims.reduced);
  const int64_t outputs = dims.kept_count(), inputs = dims.reduced_count();
  p.kept_count = outputs;
  p.red_count = inputs;
  p.group = 32;
  // The reduced axes are the input's fastest (or nothing is kept): a group per output reads
  // neighbouring inputs. Otherwise neighbouring outputs are neighbours in memory: a thread each.
  const bool inner_reduced =
      !dims.reduced.empty() &&
      (dims.kept.empty() || std::llabs(dims.reduced.back().in) <= std::llabs(dims.kept.back().in));
  int64_t blocks;
  if (inputs <= kTiny || (!inner_reduced && outputs >= 32)) {
    plan.kernel = ReduceKernel::columns;
    blocks = ceil_div(outputs, kThreads);
    split(p, blocks * kThreads, 1, threads_wanted);
  } else {
    plan.kernel = ReduceKernel::rows;
    p.group = row_group(outputs, inputs, threads_wanted);
    blocks = ceil_div(outputs, kThreads / p.group);
    split(p, blocks * kThreads, p.group, threads_wanted);
  }
  plan.grid = {grid_x(blocks), grid_y(p.splits)};
  if (!plan.two_pass()) return plan;

  // Second pass: output k combines partial[k * splits, (k + 1) * splits) in order.
  kernels::ReduceParams& f = plan.final_params;
  f = p;
  int64_t stride = p.splits;
  for (int d = p.kept_ndim - 1; d >= 0; --d) {
    f.kept_in[d] = stride;
    stride *= p.kept_size[d];
  }
  f.red_ndim = 1;
  f.red_size[0] = p.splits;
  f.red_in[0] = 1;
  f.red_count = p.splits;
  f.splits = 1;
  f.chunk = p.splits;
  f.group = row_group(outputs, p.splits, threads_wanted);
  plan.final_grid = {grid_x(ceil_div(outputs, kThreads / f.group)), 1};
  return plan;
}

size_t ScanPlan::carry_bytes() const {
  return static_cast<size_t>(params.rows) * static_cast<size_t>(params.tiles) *
         kernels::kMaxStateBytes;
}

ScanPlan plan_scan(const Shape& shape, const Strides& in_strides, const Strides& out_strides,
                   int axis, int64_t threads_wanted) {
  ScanPlan plan;
  kernels::ScanParams& p = plan.params;
  std::vector<ReduceDim> rows;
  bool no_rows = false;
  for (int d = 0; d < static_cast<int>(shape.size()); ++d) {
    if (d == axis) continue;
    if (shape[d] == 0) no_rows = true;
    if (shape[d] > 1) rows.push_back({shape[d], in_strides[d], out_strides[d]});
  }
  rows = sort_and_merge(std::move(rows), true);
  check_ndim(rows.size(), "scan");
  p.len = shape[axis];
  p.in_step = in_strides[axis];
  p.out_step = out_strides[axis];
  p.rows = no_rows ? 0 : product(rows);
  p.ndim = static_cast<int32_t>(rows.size());
  for (size_t d = 0; d < rows.size(); ++d) {
    p.size[d] = rows[d].size;
    p.in_stride[d] = rows[d].in;
    p.out_stride[d] = rows[d].out;
  }
  p.tiles = 1;
  p.chunk = p.len;
  if (plan.empty()) return plan;

  const int64_t n_rows = p.rows, len = p.len;
  // The scanned axis is the input's fastest: a block reads a row's neighbours together.
  // Otherwise threads take neighbouring rows.
  const bool along_fastest = rows.empty() || std::llabs(p.in_step) <= std::llabs(rows.back().in);
  kernels::ReduceParams& t = plan.total_params;  // the tiles' totals, when there are tiles
  if (len <= kTiny || (!along_fastest && n_rows >= threads_wanted)) {
    plan.kernel = ScanKernel::serial;
  } else if (along_fastest) {
    if (n_rows * kThreads >= threads_wanted || len <= kBlockRowsLen) {
      plan.kernel = ScanKernel::block_rows;
    } else {
      // Chunks of whole tiles, about two blocks' worth per resident block of the device: a
      // short carry scan, and every multiprocessor busy.
      plan.kernel = ScanKernel::tiles;
      const int64_t per_row = ceil_div(2 * threads_wanted / kThreads, n_rows);
      p.chunk = ceil_div(ceil_div(len, per_row), kScanTile) * kScanTile;
      p.tiles = ceil_div(len, p.chunk);
      plan.total_kernel = ReduceKernel::rows;
      t.group = kThreads;
    }
  } else {
    plan.kernel = ScanKernel::serial;
    const int64_t tiles =
        std::min({ceil_div(threads_wanted, n_rows), len / (2 * kMinPerThread), kMaxGridY});
    if (tiles > 1) {
      p.chunk = ceil_div(len, tiles);
      p.tiles = ceil_div(len, p.chunk);
      plan.total_kernel = ReduceKernel::columns;
      t.group = 32;
    }
  }
  switch (plan.kernel) {
    case ScanKernel::serial:
      plan.grid = {grid_x(ceil_div(n_rows, kThreads)), grid_y(p.tiles)};
      break;
    case ScanKernel::block_rows:
      plan.grid = {grid_x(n_rows), 1};
      break;
    case ScanKernel::tiles:
      plan.grid = {grid_x(p.tiles), grid_y(n_rows)};
      break;
  }
  if (p.tiles == 1) return plan;

  // Totals: row k's tile s reduced into carries[k * tiles + s] (the row dims in the same order
  // as the scan's, so k is the same row).
  for (ReduceDim& d : rows) d.out = 0;
  set_kept(t, rows);
  set_reduced(t, {{len, p.in_step, 0}});
  t.kept_count = n_rows;
  t.red_count = len;
  t.splits = p.tiles;
  t.chunk = p.chunk;
  plan.total_grid = plan.total_kernel == ReduceKernel::rows
                        ? Grid{grid_x(n_rows), grid_y(p.tiles)}
                        : Grid{grid_x(ceil_div(n_rows, kThreads)), grid_y(p.tiles)};
  // Carries: each row's totals scanned in place.
  kernels::ScanParams& c = plan.carry_params;
  c.len = p.tiles;
  c.in_step = c.out_step = 1;
  c.rows = n_rows;
  c.tiles = 1;
  c.chunk = p.tiles;
  c.ndim = 1;
  c.size[0] = n_rows;
  c.in_stride[0] = c.out_stride[0] = p.tiles;
  if (p.tiles <= kBlockRowsLen / 8 && n_rows * kThreads >= threads_wanted) {
    plan.carry_kernel = ScanKernel::serial;
    plan.carry_grid = {grid_x(ceil_div(n_rows, kThreads)), 1};
  } else {
    plan.carry_kernel = ScanKernel::block_rows;
    plan.carry_grid = {grid_x(n_rows), 1};
  }
  return plan;
}

NonzeroPlan plan_nonzero(const Shape& shape, const Strides& strides, int64_t threads_wanted) {
  NonzeroPlan plan;
  kernels::NonzeroParams& p = plan.params;
  check_ndim(shape.size(), "nonzero");
  // A 0-d array is read as one element; it has no coordinates to write.
  const Shape s = shape.empty() ? Shape{1} : shape;
  const Strides st = shape.empty() ? Strides{0} : strides;
  p.ndim = static_cast<int32_t>(s.size());
  p.total = 1;
  for (size_t d = 0; d < s.size(); ++d) {
    p.size[d] = s[d];
    p.stride[d] = st[d];
    p.total *= s[d];
  }
  if (p.total == 0) return plan;
  const int64_t blocks = std::clamp<int64_t>(ceil_div(p.total, kThreads), 1,
                                             std::max<int64_t>(threads_wanted / kThreads, 1));
  p.chunk = ceil_div(ceil_div(p.total, blocks), kThreads) * kThreads;
  plan.grid = {grid_x(ceil_div(p.total, p.chunk)), 1};
  return plan;
}

}  // namespace accel::cuda
