// How CudaBackend::matmul maps one batched product a (..., m, k) @ b (..., k, n) -> out
// (contiguous) onto cuBLAS, planned on the host from shapes and strides alone (so it is tested
// without a GPU). cuBLAS is column-major: a row-major C is a column-major C^T, and
// C^T = B^T A^T, so cuBLAS's first operand is our B and its second our A. A transposed view is
// passed as a transpose (op T), never copied.
#pragma once
#include <cstdint>
#include <optional>
#include <vector>

#include "accel/core/shape.h"

namespace accel::cuda {

// Batch elements above which a batch that is not uniformly strided goes to accel's kernel (one
// launch) instead of one cuBLAS call each, unless each product is large.
inline constexpr int64_t kMaxGemmCalls = 64;
inline constexpr int64_t kLargeGemm = int64_t(1) << 21;  // multiply-adds per product

// Products of at least this many multiply-adds whose operands cuBLAS cannot take as they are
// (steps in both axes, reversed, broadcast inside the matrix) are worth packing for it.
inline constexpr int64_t kPackForGemm = int64_t(1) << 18;

struct GemmPlan {
  // cublas<t>gemm's arguments (its m, n, k are our n, m, k).
  int transa = 0, transb = 0;  // kCublasOpN / kCublasOpT
  int m = 0, n = 0, k = 0;
  int lda = 0, ldb = 0, ldc = 0;
  // Element offsets of each batch element's matrix in A and B (row-major, ours) and C; when
  // `strided`, offsets are i * stride and one cublas<t>gemmStridedBatched call does them all.
  int64_t batch = 1;
  bool strided = true;
  int64_t stride_a = 0, stride_b = 0, stride_c = 0;  // ours: A's, B's, C's
  std::vector<int64_t> offsets_a, offsets_b;         // filled when !strided
};

// Whether cuBLAS can read a rows x cols matrix with these strides as it is (row- or column-major
// with a leading dimension; length-1 axes take any stride).
bool gemm_accepts(int64_t rows, int64_t cols, int64_t s0, int64_t s1);
// Element offset of each batch element's matrix, in C order over batch_shape.
std::vector<int64_t> batch_offsets(const Shape& batch_shape, const Strides& batch_strides);
// The step s when offsets[i] == i * s for every i and s >= 0 (cuBLAS's batch strides are
// non-negative), else nullopt. A single offset gives step 0.
std::optional<int64_t> uniform_step(const std::vector<int64_t>& offsets);
// The plan for a (batch..., m, k) with strides sa and b (batch..., k, n) with strides sb (both
// already broadcast to batch_shape, strides in elements, batch axes first), or nullopt when
// cuBLAS cannot take it: a matrix that is neither row- nor column-major (two steps, negative
// strides), sizes past int32, or too many non-uniform batch elements.
std::optional<GemmPlan> plan_gemm(const Shape& batch_shape, int64_t m, int64_t n, int64_t k,
                                  const Strides& sa, const Strides& sb);

// accel's kernel (device_src/matmul.cuh): its accel_mm::Shape, passed by value, and the batch
// table it reads from device memory, [shape, a strides, b strides] over the batch axes of
// length > 1 (C order; batch element z writes C at z * m * n).
struct MatmulKernelShape {
  long long m = 0, n = 0, k = 0;
  long long sa0 = 0, sa1 = 0, sb0 = 0, sb1 = 0;  // elements
  long long batch = 1;
  int batch_nd = 0;
};
struct MatmulKernelPlan {
  MatmulKernelShape shape;
  std::vector<int64_t> table;
};
MatmulKernelPlan plan_matmul_kernel(const Shape& out_shape, int64_t k, const Strides& sa,
                                    const Strides& sb);

}  // namespace accel::cuda
