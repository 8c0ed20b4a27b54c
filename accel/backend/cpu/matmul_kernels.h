// The per-matrix kernels behind CpuBackend::matmul: the loaded BLAS (blas_library.h) for float
// and complex matrices whose layout BLAS accepts, and a plain blocked loop for everything else
// (integers, bool, sizes beyond an LP64 BLAS's 32-bit integers, and all dtypes without a BLAS).
#pragma once
#include <cstdint>

#include "accel/backend/common/blas_operand.h"
#include "accel/core/dtype.h"

namespace accel::cpu {

struct BlasLibrary;

// How BLAS sees one strided matrix (shared with cuBLAS's plans).
using plan::BlasOperand;
using plan::blas_operand;

// Can this BLAS take this product (dtype, and sizes within its integer width)?
bool blas_supports(const BlasLibrary& blas, Dtype dt, int64_t m, int64_t n, int64_t k,
                   BlasOperand a, BlasOperand b);

// C (m x n, row-major, contiguous) = A (m x k) @ B (k x n) through BLAS; picks gemv when one
// side is a vector. A and B as described by blas_operand.
void blas_matmul(const BlasLibrary& blas, Dtype dt, int64_t m, int64_t n, int64_t k,
                 const void* a, BlasOperand la, const void* b, BlasOperand lb, void* c);

// Rows [row_begin, row_end) of C = A @ B for any dtype and any strides of A; B must have unit
// column stride (rows ldb apart). Integers wrap around like NumPy; bool is OR of ANDs.
void loop_matmul(Dtype dt, int64_t n, int64_t k, const void* a, int64_t sa0, int64_t sa1,
                 const void* b, int64_t ldb, void* c, int64_t row_begin, int64_t row_end);

}  // namespace accel::cpu
