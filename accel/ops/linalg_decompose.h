// accel::linalg: the decompositions and solvers of NumPy's linalg and the Array API linalg
// extension. Each op checks shapes (NumPy's LinAlgError for fewer than 2 axes or a non-square
// matrix), promotes the input to float32/float64/complex64/complex128 (integers and bool to
// float64, as NumPy) and runs once per matrix of the leading (batch) axes. On the CPU through
// LAPACK (backend/cpu/lapack.h), on CUDA through cuSOLVER (ops/linalg_cusolver.h),
// dispatched by ops/linalg_device.h (eig/eigvals on CUDA need cuSOLVER's cusolverDnXgeev, CUDA
// 12.6).
// Results are computed, not pending.
#pragma once
#include <optional>

#include "accel/core/array.h"

namespace accel::linalg {

// The lower Cholesky factor L of a Hermitian positive-definite matrix (a = L L^H), or the upper
// U (a = U^H U) when `upper`. LinAlgError when a matrix is not positive definite.
Array cholesky(const Array& x, bool upper = false);
// The inverse; LinAlgError "Singular matrix" when a matrix has none.
Array inv(const Array& x);
// x with a x = b. b is one vector when b.ndim == 1 (NumPy 2 and the Array API 2023.12), else
// a stack of matrices (..., n, k) whose batch axes broadcast against a's.
Array solve(const Array& a, const Array& b);
// The determinant: the signed product of the LU pivots; 0 for a singular matrix (no error).
Array det(const Array& x);
struct SlogdetResult {
  Array sign;       // x's dtype: +-1 (real), on the unit circle (complex), 0 when singular
  Array logabsdet;  // its real dtype: log|det|, -inf when singular
};
SlogdetResult slogdet(const Array& x);
struct EighResult {
  Array eigenvalues;   // real dtype, ascending
  Array eigenvectors;  // columns; each determined up to a sign (a phase for complex)
};
// Eigen-decomposition of a Hermitian matrix, reading its lower triangle (NumPy's UPLO='L').
EighResult eigh(const Array& x);
Array eigvalsh(const Array& x);
struct EigResult {
  Array eigenvalues;
  Array eigenvectors;
};
// Eigen-decomposition of a general matrix: complex results always, real input included, as the
// Array API standard and torch.linalg.eig (NumPy gives real ones where all eigenvalues are real;
// issue 13). LinAlgError for input with infs or NaNs, as NumPy.
EigResult eig(const Array& x);
Array eigvals(const Array& x);
struct SVDResult {
  Array U, S, Vh;  // x = U diag(S) Vh; S descending, real
};
// full_matrices: U (m, m) and Vh (n, n); else U (m, k) and Vh (k, n), k = min(m, n).
SVDResult svd(const Array& x, bool full_matrices = true);
Array svdvals(const Array& x);
enum class QRMode { reduced, complete, r };
struct QRResult {
  Array Q;  // absent (invalid) for mode r
  Array R;
};
// x = Q R with Q's columns orthonormal and R upper triangular: reduced Q (m, k), R (k, n);
// complete Q (m, m), R (m, n); r: R (k, n) alone.
QRResult qr(const Array& x, QRMode mode = QRMode::reduced);

// From the SVD: singular values at or below rtol times each matrix's largest count as zero.
// rtol is a scalar or an array broadcasting against the batch shape; by default max(M, N) * eps
// of the computing dtype (the Array API's default).
// The Moore-Penrose pseudo-inverse, (batch..., n, m) for x (batch..., m, n).
Array pinv(const Array& x, const std::optional<Array>& rtol = std::nullopt);
// The number of singular values above the cutoff, per matrix (int64); `atol`, when given, is an
// absolute cutoff used instead (NumPy's tol=).
Array matrix_rank(const Array& x, const std::optional<Array>& rtol = std::nullopt,
                  const std::optional<Array>& atol = std::nullopt);

}  // namespace accel::linalg
