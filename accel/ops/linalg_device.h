// accel.linalg's factorisations on an array's device, dispatched here by device kind
// (backend/cpu/lapack.h over LAPACK, ops/linalg_cusolver.h over cuSOLVER; inv, solve and det of
// batches of small matrices over cuBLAS's batched LU, ops/linalg_cublas_batched.h) rather than
// through the Backend interface, as backend/sorting.h is. In the ops layer because the CUDA side
// composes accel's ops (layout copies, triangles, the determinant's product) around the library
// calls. Each has cpu/lapack.h's contract: inputs of shape (batch..., rows, cols) through any
// strides, outputs allocated by the op layer on the same device. Without cuSOLVER, CUDA arrays
// raise BackendUnavailable instead of moving data to the CPU behind the caller's back.
#pragma once
#include "accel/core/array.h"

namespace accel::linalg {

// Throws BackendUnavailable naming `op` unless the factorisations run on `device` (the CPU;
// CUDA with cuSOLVER).
void require_dense_linalg_device(const Device& device, const char* op);

void solve_on_device(const Array& a, const Array& b, const Array& x);
void inv_on_device(const Array& a, const Array& out);
void slogdet_on_device(const Array& a, const Array& sign, const Array& logabsdet,
                       const Array* det = nullptr);
void cholesky_on_device(const Array& a, bool upper, const Array& out);
void eigh_on_device(const Array& a, const Array& w, const Array* v, const char* op);
void eig_on_device(const Array& a, const Array& w, const Array* v, const char* op);
void svd_on_device(const Array& a, const Array& s, const Array* u, const Array* vh, bool full);
void qr_on_device(const Array& a, const Array* q, const Array& r, bool complete);

}  // namespace accel::linalg
