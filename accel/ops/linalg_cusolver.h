// accel.linalg's factorisations on CUDA arrays, over cuSOLVER's dense API
// (backend/cuda/cusolver.h): the same contract as the CPU's LAPACK kernels (backend/cpu/lapack.h)
// so the op layer (ops/linalg_decompose.cpp) is shared. Inputs (any strides, batch axes may be
// broadcast) are copied into column-major scratch (cuSOLVER overwrites them), the batch is a loop
// of calls on the current stream with one devInfo per matrix, read back once after the loop and
// turned into the CPU's LinAlgError; outputs are written through their strides by accel's own
// copies. Workspaces come from accel's allocator, stream-ordered.
#pragma once
#include "accel/core/array.h"

namespace accel::linalg {

// x = a^-1 b for a (batch..., n, n) and b, x (batch..., n, k); `op` names the caller ("solve",
// "inv") in "[op] Singular matrix".
void cusolver_solve(const Array& a, const Array& b, const Array& x, const char* op = "solve");
void cusolver_inv(const Array& a, const Array& out);
// As cpu::lapack_slogdet: sign and log|det|, or the determinant into *det.
void cusolver_slogdet(const Array& a, const Array& sign, const Array& logabsdet,
                      const Array* det = nullptr);
void cusolver_cholesky(const Array& a, bool upper, const Array& out);
// Reads a's lower triangle; eigenvalues ascending; `op` names the caller (eigh, eigvalsh).
void cusolver_eigh(const Array& a, const Array& w, const Array* v, const char* op);
// Eigenvalues (complex) of a general matrix into w, right eigenvectors (complex, unit norm) into
// v's columns when v is given; `op` names the caller (eig, eigvals). Needs cusolverDnXgeev (CUDA
// 12.6): without it BackendUnavailable, the other factorisations unaffected.
void cusolver_eig(const Array& a, const Array& w, const Array* v, const char* op);
// Real geev's right eigenvectors as complex ones, by accel's ops on any device (so tested on the
// CPU). VR's columns, here the rows of vr_rows (batch..., n, n), hold a real eigenvalue's vector
// as it is and a complex pair w_j, w_j+1 = conj(w_j) (Im w_j > 0 first, as LAPACK) as
// v_j = VR_j + i VR_j+1, v_j+1 = VR_j - i VR_j+1; `values` (batch..., n) are the eigenvalues.
// Returns the vectors as rows, in values' complex dtype.
Array unpack_real_eigenvectors(const Array& vr_rows, const Array& values);
void cusolver_svd(const Array& a, const Array& s, const Array* u, const Array* vh, bool full);
void cusolver_qr(const Array& a, const Array* q, const Array& r, bool complete);

}  // namespace accel::linalg
