// How the CUDA reductions, scans and nonzero are laid out and launched: plain functions from
// shapes, strides and the device's size to kernel parameters and grids (no driver, so they are
// unit-tested without a GPU). reduce_kernels.cpp / scan_kernels.cpp run the plans.
#pragma once
#include <cstdint>
#include <vector>

#include "accel/backend/common/reduce_dims.h"
#include "accel/core/shape.h"
#include "accel/device_src/reduce_params.h"

namespace accel::cuda {

struct Grid {
  unsigned x = 1, y = 1;
};

// The shared reduction layout (backend/common/reduce_dims.h), negative strides kept as they are.
using plan::ReduceDim;
using plan::ReduceDims;
ReduceDims reduce_dims(const Shape& shape, const Strides& in_strides, const std::vector<int>& axes,
                       const Strides& out_strides, bool keep_order);

enum class ReduceKernel { rows, columns };

struct ReducePlan {
  ReduceKernel kernel = ReduceKernel::rows;
  kernels::ReduceParams params{};  // in/out/partial left null
  Grid grid;
  // With params.splits > 1: the second pass (reduce_rows over the partial states).
  kernels::ReduceParams final_params{};
  Grid final_grid;
  bool two_pass() const { return params.splits > 1; }
  size_t partial_bytes() const;
};

// `threads_wanted`: resident threads that keep the device busy (multiprocessors x 2048).
ReducePlan plan_reduce(const ReduceDims& dims, int64_t threads_wanted);

enum class ScanKernel { serial, block_rows, tiles };

struct ScanPlan {
  ScanKernel kernel = ScanKernel::serial;
  kernels::ScanParams params{};  // in/out/carries left null
  Grid grid;
  // With params.tiles > 1: the tiles' totals (reduce_columns for serial scans, reduce_rows for
  // tiles) into carries, then their scan (`carry_kernel`, in place on carries).
  ReduceKernel total_kernel = ReduceKernel::rows;
  kernels::ReduceParams total_params{};
  Grid total_grid;
  ScanKernel carry_kernel = ScanKernel::serial;
  kernels::ScanParams carry_params{};
  Grid carry_grid;
  bool empty() const { return params.rows == 0 || params.len == 0; }
  size_t carry_bytes() const;
};

ScanPlan plan_scan(const Shape& shape, const Strides& in_strides, const Strides& out_strides,
                   int axis, int64_t threads_wanted);

struct NonzeroPlan {
  kernels::NonzeroParams params{};  // in/out/counts left null; found set after counting
  Grid grid;
};
NonzeroPlan plan_nonzero(const Shape& shape, const Strides& strides, int64_t threads_wanted);

}  // namespace accel::cuda
