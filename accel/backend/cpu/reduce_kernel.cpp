// CpuBackend::reduce_kernel: a reduction of a fused kernel's output that never stores it.
// Blocks of the output are computed into a cache-resident buffer (the compiled kernel or the
// interpreter, as run_kernel would) and reduced there by the ordinary reduce(): sum(a * a),
// any(x > t) and var's squared deviations read their inputs once and write nothing but the
// result. Measured on 2000² float32 before this path: sum(a * a) took 9x as long as sum(a).
#include <algorithm>
#include <vector>

#include "accel/backend/cpu/cpu_backend.h"
#include "accel/backend/cpu/fused_interpreter.h"
#include "accel/backend/cpu/fused_rows.h"
#include "accel/backend/cpu/host_jit.h"
#include "accel/backend/cpu/thread_pool.h"

namespace accel::cpu {
namespace {

// Elements of a block: 64 KB of float32, in L2 while it is reduced.
constexpr int64_t kBlockElements = 16384;

// Blocks' partial results are combined in out's dtype, so that must be the dtype the reduction
// accumulates in: not float16/bfloat16 sums (accumulated in float32, rounded once at the end),
// and not a complex product, whose overflow to inf or NaN depends on the grouping (NumPy
// multiplies in order). argmin/argmax positions are not block-local.
bool blockwise(ReduceOp op, Dtype out) {
  switch (op) {
    case ReduceOp::sum:
    case ReduceOp::prod:
      if (out == Dtype::float16 || out == Dtype::bfloat16) return false;
      return op == ReduceOp::sum || !is_complex(out);
    case ReduceOp::min:
    case ReduceOp::max:
    case ReduceOp::any:
    case ReduceOp::all: return true;
    case ReduceOp::argmin:
    case ReduceOp::argmax: return false;
  }
  return false;
}

}  // namespace

bool CpuBackend::reduces_kernel_output(ReduceOp op, const Shape& shape,
                                      const std::vector<int>& axes, const Array& out) const {
  if (!blockwise(op, out.dtype()) || !out.is_contiguous() || shape_size(shape) == 0) return false;
  // The reduced axes are the trailing ones: flat element k * R + r is position r of output k.
  const size_t kept = shape.size() - axes.size();
  for (size_t i = 0; i < axes.size(); ++i)
    if (axes[i] != static_cast<int>(kept + i)) return false;
  return true;
}

void CpuBackend::reduce_kernel(ReduceOp op, const ir::KernelIR& ir, std::span<const Array> inputs,
                               const Shape& shape, const std::vector<int>& axes,
                               const Array& out) {
  const size_t kept = shape.size() - axes.size();
  int64_t K = 1, R = 1;
  for (size_t d = 0; d < shape.size(); ++d) (d < kept ? K : R) *= shape[d];
  const Dtype value = ir.outputs[0].dtype;
  const size_t isz = itemsize(value);
  const FusedSpace space = bind_fused_window(shape, inputs, isz);
  const HostKernel compiled = host_kernel_for(ir, K * R);
  const FusedRangeRunner interpret = compiled ? nullptr : fused_range_runner(ir, space);
  auto compute = [&](FusedSpace& s, void* dst, int64_t begin, int64_t end) {
    set_window(s, dst, begin, isz);
    if (!compiled) return interpret(s, begin, end);
    for_each_row(s, begin, end,
                 [&](char* const* row, int64_t n) { compiled(row, s.inner.data(), n); });
  };
  // Short reductions take whole outputs per block, reduced straight into out; long ones cut
  // each output's positions into blocks whose partial results are then reduced in order (a
  // sum's pairwise, as reduce() folds runs).
  const bool whole = R <= kBlockElements;
  const int64_t per = whole ? std::max<int64_t>(1, kBlockElements / R) : 0;
  const int64_t parts = whole ? 1 : (R + kBlockElements - 1) / kBlockElements;
  const int64_t blocks = whole ? (K + per - 1) / per : K * parts;
  const Array partial = whole ? out : Array::empty({K, parts}, out.dtype(), Device::cpu());
  auto run_block = [&](FusedSpace& s, const Array& buf, int64_t b) {
    if (whole) {
      const int64_t k0 = b * per, k1 = std::min(K, k0 + per);
      compute(s, buf.data(), k0 * R, k1 * R);
      reduce(op, Array::view_of(buf, {k1 - k0, R}, {R, 1}, buf.offset()), {1},
             Array::view_of(out, {k1 - k0}, {1}, out.offset() + k0));
      return;
    }
    const int64_t k = b / parts, r0 = b % parts * kBlockElements;
    const int64_t n = std::min(kBlockElements, R - r0);
    compute(s, buf.data(), k * R + r0, k * R + r0 + n);
    reduce(op, Array::view_of(buf, {n}, {1}, buf.offset()), {0},
           Array::view_of(partial, {}, {}, partial.offset() + b));
  };
  // One block buffer per chunk of blocks (a thread's share), allocated once up front.
  const int64_t chunks = std::min<int64_t>(num_threads(), blocks);
  std::vector<Array> bufs;
  for (int64_t c = 0; c < chunks; ++c)
    bufs.push_back(Array::empty({whole ? per * R : kBlockElements}, value, Device::cpu()));
  parallel_for(chunks, 1, [&](int64_t c0, int64_t c1) {
    FusedSpace s = space;
    for (int64_t c = c0; c < c1; ++c)
      for (int64_t b = blocks / chunks * c + std::min(c, blocks % chunks),
                   e = blocks / chunks * (c + 1) + std::min(c + 1, blocks % chunks);
           b < e; ++b)
        run_block(s, bufs[static_cast<size_t>(c)], b);
  });
  if (!whole) reduce(op, partial, {1}, out);
}

}  // namespace accel::cpu
