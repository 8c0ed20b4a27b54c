// accel.linalg's CPU kernels over LAPACK (lapack_library.h). The op layer
// (ops/linalg_decompose.cpp) checks shapes, promotes to float32/float64/complex64/complex128 and
// allocates the outputs; these read inputs of shape (batch..., rows, cols) through any strides
// (a broadcast batch axis has stride 0), write outputs through theirs, and spread the batch over
// the thread pool. Failures LAPACK reports (a singular matrix, no convergence) are LinAlgError.
#pragma once
#include "accel/core/array.h"

namespace accel::cpu {

// x = a^-1 b for a (batch..., n, n) and b, x (batch..., n, k).
void lapack_solve(const Array& a, const Array& b, const Array& x);
void lapack_inv(const Array& a, const Array& out);
// sign (a's dtype) and log|det| (its real dtype), both of shape (batch...): sign 0 and -inf for a
// singular matrix, as NumPy. With `det` (a's dtype), writes the determinant there instead (the
// signed product of the pivots) and leaves sign and logabsdet unused.
void lapack_slogdet(const Array& a, const Array& sign, const Array& logabsdet,
                    const Array* det = nullptr);
// The lower (upper: upper) Cholesky factor; the other triangle of `out` is zeroed.
void lapack_cholesky(const Array& a, bool upper, const Array& out);
// Eigenvalues ascending into w (batch..., n), real; eigenvectors as columns of v when v is given.
// Reads a's lower triangle (NumPy's UPLO='L').
void lapack_eigh(const Array& a, const Array& w, const Array* v);
// Eigenvalues of a general matrix into w (complex), right eigenvectors into v's columns
// (complex, unit norm) when v is given.
void lapack_eig(const Array& a, const Array& w, const Array* v);
// Singular values descending into s (batch..., k), k = min(m, n); u (batch..., m, m or k) and
// vh (batch..., n or k, n) when given (full: the square ones).
void lapack_svd(const Array& a, const Array& s, const Array* u, const Array* vh, bool full);
// a = q r: r (batch..., k or m, n) upper triangular; q (batch..., m, k or m) when given.
void lapack_qr(const Array& a, const Array* q, const Array& r, bool complete);
// geqrf's raw output (NumPy's mode 'raw'): h (batch..., n, m) is LAPACK's column-major m x n
// result (R above the diagonal, the Householder vectors below) read in C order, i.e. transposed;
// tau (batch..., min(m, n)) the reflectors' scales.
void lapack_qr_raw(const Array& a, const Array& h, const Array& tau);

}  // namespace accel::cpu
