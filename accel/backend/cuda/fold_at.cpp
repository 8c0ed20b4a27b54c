#include "accel/backend/cuda/fold_at.h"

#include <algorithm>

#include "accel/backend/cuda/sort_kernels.h"
#include "accel/backend/cuda/stream_order.h"
#include "accel/backend/fold_at.h"
#include "accel/codegen/emit.h"
#include "accel/device_src/reduce_params.h"

namespace accel::cuda {

namespace {

// accel::kernels::<kernel><functor of op, T >. float16 and bfloat16 compute in float and round
// once per step, as their CPU loops (half_loops.h) and the fused kernels (emit.cpp) do.
std::string fold_kernel_name(const char* kernel, OpId op, Dtype dtype) {
  const bool narrow = dtype == Dtype::float16 || dtype == Dtype::bfloat16;
  std::string name = std::string("accel::kernels::") + kernel + "<";
  name += narrow ? "accel::scalar::InFloat<accel::scalar::" : "accel::scalar::";
  name += codegen::functor_name(op);
  name += narrow ? ">, " : ", ";
  name += codegen::c_type(dtype);
  name += " >";
  return name;
}

}  // namespace

std::string fold_at_kernel_name(OpId op, Dtype dtype) { return fold_kernel_name("fold_at", op, dtype); }

std::string fold_segments_kernel_name(OpId op, Dtype dtype) {
  return fold_kernel_name("fold_segments", op, dtype);
}

void run_fold_at(KernelRunner& runner, OpId op, const Array& dst, const Array& positions,
                 const Array& values) {
  const int64_t n = positions.size();
  if (n == 0) return;
  const std::string name = fold_at_kernel_name(op, dst.dtype());
  Array sorted = runner.empty({n}, Dtype::int64);
  Array order = runner.empty({n}, Dtype::int64);
  run_sort(runner, positions, 0, false, &sorted, &order);
  kernels::FoldAtParams p{dst.data(),           values.data(), sorted.data<int64_t>(),
                          order.data<int64_t>(), n,             values.size() == 1 ? 0 : 1};
  // One thread per listed position (most skip: only the first of each run folds).
  const int64_t wanted = (n + kernels::kThreads - 1) / kernels::kThreads;
  const int64_t cap = std::max<int64_t>(runner.threads_wanted() / kernels::kThreads, 1);
  runner.prepare({name});
  runner.launch(name, Grid{static_cast<unsigned>(std::clamp<int64_t>(wanted, 1, cap)), 1}, &p,
                sizeof p);
}

void fold_at(OpId op, const Array& dst, const Array& positions, const Array& values) {
  const int device = dst.device().index;
  const Stream s = current_stream(device);
  for (const Array* a : {&dst, &positions, &values}) order_use(*a, s);
  run_fold_at(*cuda_runner(device), op, dst, positions, values);
}

void run_fold_segments(KernelRunner& runner, OpId op, const Array& out, const Array& src,
                       const Array& starts, int64_t outer, int64_t n, int64_t inner) {
  const int64_t total = out.size();
  if (total == 0) return;
  const std::string name = fold_segments_kernel_name(op, out.dtype());
  kernels::FoldSegmentsParams p{out.data(), src.data(), starts.data<int64_t>(), outer, n, inner,
                                starts.size(), sums_rest_first(op, out.dtype())};
  const int64_t wanted = (total + kernels::kThreads - 1) / kernels::kThreads;
  const int64_t cap = std::max<int64_t>(runner.threads_wanted() / kernels::kThreads, 1);
  runner.prepare({name});
  runner.launch(name, Grid{static_cast<unsigned>(std::clamp<int64_t>(wanted, 1, cap)), 1}, &p,
                sizeof p);
}

void fold_segments(OpId op, const Array& out, const Array& src, const Array& starts,
                   int64_t outer, int64_t n, int64_t inner) {
  const int device = out.device().index;
  const Stream s = current_stream(device);
  for (const Array* a : {&out, &src, &starts}) order_use(*a, s);
  run_fold_segments(*cuda_runner(device), op, out, src, starts, outer, n, inner);
}

}  // namespace accel::cuda
