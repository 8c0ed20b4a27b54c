#include "accel/backend/cuda/matmul_plan.h"

#include <climits>

#include "accel/backend/common/blas_operand.h"
#include "accel/backend/cuda/cublas.h"

namespace accel::cuda {
namespace {

bool fits_int(int64_t v) { return v >= 0 && v <= INT_MAX; }

}  // namespace

bool gemm_accepts(int64_t rows, int64_t cols, int64_t s0, int64_t s1) {
  return plan::blas_operand(rows, cols, s0, s1).has_value();
}

std::vector<int64_t> batch_offsets(const Shape& batch_shape, const Strides& batch_strides) {
  const int nd = static_cast<int>(batch_shape.size());
  std::vector<int64_t> offsets(static_cast<size_t>(shape_size(batch_shape)));
  std::vector<int64_t> idx(static_cast<size_t>(nd), 0);
  int64_t off = 0;
  for (int64_t& o : offsets) {
    o = off;
    for (int d = nd - 1; d >= 0; --d) {
      off += batch_strides[d];
      if (++idx[d] < batch_shape[d]) break;
      off -= batch_strides[d] * batch_shape[d];
      idx[d] = 0;
    }
  }
  return offsets;
}

std::optional<int64_t> uniform_step(const std::vector<int64_t>& offsets) {
  if (offsets.size() < 2) return int64_t{0};
  const int64_t step = offsets[1] - offsets[0];
  if (offsets[0] != 0 || step < 0) return std::nullopt;
  for (size_t i = 2; i < offsets.size(); ++i)
    if (offsets[i] != static_cast<int64_t>(i) * step) return std::nullopt;
  return step;
}

std::optional<GemmPlan> plan_gemm(const Shape& batch_shape, int64_t m, int64_t n, int64_t k,
                                  const Strides& sa, const Strides& sb) {
  const size_t bn = batch_shape.size();
  // The same row-/column-major test the CPU's BLAS path uses (strides of length-1 axes are
  // free), so vectors and transposed views go to cuBLAS as they are.
  const auto la = plan::blas_operand(m, k, sa[bn], sa[bn + 1]);
  const auto lb = plan::blas_operand(k, n, sb[bn], sb[bn + 1]);
  if (!la || !lb) return std::nullopt;
  const int64_t batch = shape_size(batch_shape);
  if (!fits_int(m) || !fits_int(n) || !fits_int(k) || !fits_int(la->ld) || !fits_int(lb->ld) ||
      !fits_int(batch))
    return std::nullopt;
  GemmPlan p;
  // cuBLAS's first operand is B: row-major B (ld) is the column-major n x k matrix B^T as
  // stored (op N); a column-major B is op T of what is stored. Likewise A second.
  p.transa = lb->trans ? kCublasOpT : kCublasOpN;
  p.transb = la->trans ? kCublasOpT : kCublasOpN;
  p.m = static_cast<int>(n);
  p.n = static_cast<int>(m);
  p.k = static_cast<int>(k);
  p.lda = static_cast<int>(lb->ld);
  p.ldb = static_cast<int>(la->ld);
  p.ldc = static_cast<int>(std::max<int64_t>(n, 1));
  p.batch = batch;
  p.stride_c = m * n;
  const Strides batch_a(sa.begin(), sa.begin() + static_cast<int64_t>(bn));
  const Strides batch_b(sb.begin(), sb.begin() + static_cast<int64_t>(bn));
  std::vector<int64_t> offsets_a = batch_offsets(batch_shape, batch_a);
  std::vector<int64_t> offsets_b = batch_offsets(batch_shape, batch_b);
  const auto step_a = uniform_step(offsets_a), step_b = uniform_step(offsets_b);
  if (step_a && step_b) {
    p.stride_a = *step_a;
    p.stride_b = *step_b;
    return p;
  }
  if (batch > kMaxGemmCalls && m * n * k < kLargeGemm) return std::nullopt;
  p.strided = false;
  p.offsets_a = std::move(offsets_a);
  p.offsets_b = std::move(offsets_b);
  return p;
}

MatmulKernelPlan plan_matmul_kernel(const Shape& out_shape, int64_t k, const Strides& sa,
                                    const Strides& sb) {
  const int bn = static_cast<int>(out_shape.size()) - 2;
  MatmulKernelPlan p;
  MatmulKernelShape& s = p.shape;
  s.m = out_shape[bn];
  s.n = out_shape[bn + 1];
  s.k = k;
  s.sa0 = sa[bn];
  s.sa1 = sa[bn + 1];
  s.sb0 = sb[bn];
  s.sb1 = sb[bn + 1];
  for (int d = 0; d < bn; ++d) {
    if (out_shape[d] == 1) continue;  // length-1 axes move nothing
    s.batch *= out_shape[d];
    p.table.push_back(out_shape[d]);
  }
  s.batch_nd = static_cast<int>(p.table.size());
  for (const Strides* x : {&sa, &sb})
    for (int d = 0; d < bn; ++d)
      if (out_shape[d] != 1) p.table.push_back((*x)[d]);
  return p;
}

}  // namespace accel::cuda
