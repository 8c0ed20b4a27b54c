// OpenBLAS calls for matmul (gemm, or gemv when one side is a vector) and BLAS introspection.
#include <cblas.h>

#include <algorithm>
#include <climits>
#include <complex>

#include "accel/backend/cpu/blas.h"
#include "accel/backend/cpu/matmul_kernels.h"

namespace accel::cpu {
namespace {

CBLAS_TRANSPOSE op(bool trans) { return trans ? CblasTrans : CblasNoTrans; }

bool fits_int(int64_t v) { return v >= 0 && v <= INT_MAX; }

// One typed entry point per BLAS precision, so blas_matmul is written once.
template <class T> struct Blas;
template <> struct Blas<float> {
  static void gemm(CBLAS_TRANSPOSE ta, CBLAS_TRANSPOSE tb, int m, int n, int k, const float* a,
                   int lda, const float* b, int ldb, float* c, int ldc) {
    cblas_sgemm(CblasRowMajor, ta, tb, m, n, k, 1.0f, a, lda, b, ldb, 0.0f, c, ldc);
  }
  static void gemv(CBLAS_TRANSPOSE t, int m, int n, const float* a, int lda, const float* x,
                   int incx, float* y) {
    cblas_sgemv(CblasRowMajor, t, m, n, 1.0f, a, lda, x, incx, 0.0f, y, 1);
  }
};
template <> struct Blas<double> {
  static void gemm(CBLAS_TRANSPOSE ta, CBLAS_TRANSPOSE tb, int m, int n, int k, const double* a,
                   int lda, const double* b, int ldb, double* c, int ldc) {
    cblas_dgemm(CblasRowMajor, ta, tb, m, n, k, 1.0, a, lda, b, ldb, 0.0, c, ldc);
  }
  static void gemv(CBLAS_TRANSPOSE t, int m, int n, const double* a, int lda, const double* x,
                   int incx, double* y) {
    cblas_dgemv(CblasRowMajor, t, m, n, 1.0, a, lda, x, incx, 0.0, y, 1);
  }
};
template <> struct Blas<std::complex<float>> {
  using T = std::complex<float>;
  static void gemm(CBLAS_TRANSPOSE ta, CBLAS_TRANSPOSE tb, int m, int n, int k, const T* a,
                   int lda, const T* b, int ldb, T* c, int ldc) {
    const T one(1), zero(0);
    cblas_cgemm(CblasRowMajor, ta, tb, m, n, k, &one, a, lda, b, ldb, &zero, c, ldc);
  }
  static void gemv(CBLAS_TRANSPOSE t, int m, int n, const T* a, int lda, const T* x, int incx,
                   T* y) {
    const T one(1), zero(0);
    cblas_cgemv(CblasRowMajor, t, m, n, &one, a, lda, x, incx, &zero, y, 1);
  }
};
template <> struct Blas<std::complex<double>> {
  using T = std::complex<double>;
  static void gemm(CBLAS_TRANSPOSE ta, CBLAS_TRANSPOSE tb, int m, int n, int k, const T* a,
                   int lda, const T* b, int ldb, T* c, int ldc) {
    const T one(1), zero(0);
    cblas_zgemm(CblasRowMajor, ta, tb, m, n, k, &one, a, lda, b, ldb, &zero, c, ldc);
  }
  static void gemv(CBLAS_TRANSPOSE t, int m, int n, const T* a, int lda, const T* x, int incx,
                   T* y) {
    const T one(1), zero(0);
    cblas_zgemv(CblasRowMajor, t, m, n, &one, a, lda, x, incx, &zero, y, 1);
  }
};

template <class T>
void typed_matmul(int m, int n, int k, const T* a, BlasOperand la, const T* b, BlasOperand lb,
                  T* c) {
  if (n == 1) {
    // c (m) = A x, where x is B's only column: the stored matrix is A (m x k) or A^T (k x m).
    const int incx = lb.trans ? 1 : static_cast<int>(lb.ld);
    if (la.trans)
      Blas<T>::gemv(CblasTrans, k, m, a, static_cast<int>(la.ld), b, incx, c);
    else
      Blas<T>::gemv(CblasNoTrans, m, k, a, static_cast<int>(la.ld), b, incx, c);
  } else if (m == 1) {
    // c (n) = B^T x, where x is A's only row: the stored matrix is B (k x n) or B^T (n x k).
    const int incx = la.trans ? static_cast<int>(la.ld) : 1;
    if (lb.trans)
      Blas<T>::gemv(CblasNoTrans, n, k, b, static_cast<int>(lb.ld), a, incx, c);
    else
      Blas<T>::gemv(CblasTrans, k, n, b, static_cast<int>(lb.ld), a, incx, c);
  } else {
    Blas<T>::gemm(op(la.trans), op(lb.trans), m, n, k, a, static_cast<int>(la.ld), b,
                  static_cast<int>(lb.ld), c, n);
  }
}

}  // namespace

std::optional<BlasOperand> blas_operand(int64_t rows, int64_t cols, int64_t s0, int64_t s1) {
  // Strides of length-1 axes never matter; BLAS only needs ld >= the stored row length.
  if ((cols == 1 || s1 == 1) && (rows == 1 || s0 >= std::max<int64_t>(cols, 1)))
    return BlasOperand{false, rows == 1 ? std::max<int64_t>(cols, 1) : s0};
  if ((rows == 1 || s0 == 1) && (cols == 1 || s1 >= std::max<int64_t>(rows, 1)))
    return BlasOperand{true, cols == 1 ? std::max<int64_t>(rows, 1) : s1};
  return std::nullopt;
}

bool blas_supports(Dtype dt, int64_t m, int64_t n, int64_t k, BlasOperand a, BlasOperand b) {
  return is_inexact(dt) && fits_int(m) && fits_int(n) && fits_int(k) && fits_int(a.ld) &&
         fits_int(b.ld);
}

void blas_matmul(Dtype dt, int64_t m, int64_t n, int64_t k, const void* a, BlasOperand la,
                 const void* b, BlasOperand lb, void* c) {
  dispatch_dtype(dt, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_floating_point_v<T> || is_complex_v<T>)
      typed_matmul<T>(static_cast<int>(m), static_cast<int>(n), static_cast<int>(k),
                      static_cast<const T*>(a), la, static_cast<const T*>(b), lb,
                      static_cast<T*>(c));
  });
}

BlasInfo blas_info() {
  BlasInfo info;
  info.config = openblas_get_config();
  info.core = openblas_get_corename();
  info.threads = openblas_get_num_threads();
  return info;
}

}  // namespace accel::cpu
