// Matrix products through the loaded BLAS: gemm, or gemv when one side is a vector, with the
// library's own integer width (32-bit LP64 or 64-bit ILP64 builds).
#include <algorithm>
#include <complex>
#include <limits>

#include "accel/backend/cpu/blas_library.h"
#include "accel/backend/cpu/matmul_kernels.h"

namespace accel::cpu {
namespace {

CblasTranspose op(bool trans) { return trans ? kCblasTrans : kCblasNoTrans; }

// One typed entry point per precision, so typed_matmul is written once for every flavour.
template <class T, class Int>
struct Blas;
template <class Int>
struct Blas<float, Int> {
  static void gemm(const CblasApi<Int>& api, CblasTranspose ta, CblasTranspose tb, Int m, Int n,
                   Int k, const float* a, Int lda, const float* b, Int ldb, float* c, Int ldc) {
    api.sgemm(kCblasRowMajor, ta, tb, m, n, k, 1.0f, a, lda, b, ldb, 0.0f, c, ldc);
  }
  static void gemv(const CblasApi<Int>& api, CblasTranspose t, Int m, Int n, const float* a,
                   Int lda, const float* x, Int incx, float* y) {
    api.sgemv(kCblasRowMajor, t, m, n, 1.0f, a, lda, x, incx, 0.0f, y, 1);
  }
  static bool dot(const CblasApi<Int>& api, Int k, const float* x, Int incx, const float* y,
                  Int incy, float* c) {
    if (!api.sdot) return false;
    *c = api.sdot(k, x, incx, y, incy);
    return true;
  }
  static auto syrk(const CblasApi<Int>& api) { return api.ssyrk; }
  static void syrk(const CblasApi<Int>& api, CblasTranspose t, Int n, Int k, const float* a,
                   Int lda, float* c) {
    api.ssyrk(kCblasRowMajor, kCblasUpper, t, n, k, 1.0f, a, lda, 0.0f, c, n);
  }
};
template <class Int>
struct Blas<double, Int> {
  static void gemm(const CblasApi<Int>& api, CblasTranspose ta, CblasTranspose tb, Int m, Int n,
                   Int k, const double* a, Int lda, const double* b, Int ldb, double* c, Int ldc) {
    api.dgemm(kCblasRowMajor, ta, tb, m, n, k, 1.0, a, lda, b, ldb, 0.0, c, ldc);
  }
  static void gemv(const CblasApi<Int>& api, CblasTranspose t, Int m, Int n, const double* a,
                   Int lda, const double* x, Int incx, double* y) {
    api.dgemv(kCblasRowMajor, t, m, n, 1.0, a, lda, x, incx, 0.0, y, 1);
  }
  static bool dot(const CblasApi<Int>& api, Int k, const double* x, Int incx, const double* y,
                  Int incy, double* c) {
    if (!api.ddot) return false;
    *c = api.ddot(k, x, incx, y, incy);
    return true;
  }
  static auto syrk(const CblasApi<Int>& api) { return api.dsyrk; }
  static void syrk(const CblasApi<Int>& api, CblasTranspose t, Int n, Int k, const double* a,
                   Int lda, double* c) {
    api.dsyrk(kCblasRowMajor, kCblasUpper, t, n, k, 1.0, a, lda, 0.0, c, n);
  }
};
template <class R, class Int>
struct Blas<std::complex<R>, Int> {
  using T = std::complex<R>;
  static constexpr bool single = std::is_same_v<R, float>;
  static void gemm(const CblasApi<Int>& api, CblasTranspose ta, CblasTranspose tb, Int m, Int n,
                   Int k, const T* a, Int lda, const T* b, Int ldb, T* c, Int ldc) {
    const T one(1), zero(0);
    (single ? api.cgemm : api.zgemm)(kCblasRowMajor, ta, tb, m, n, k, &one, a, lda, b, ldb, &zero,
                                     c, ldc);
  }
  static void gemv(const CblasApi<Int>& api, CblasTranspose t, Int m, Int n, const T* a, Int lda,
                   const T* x, Int incx, T* y) {
    const T one(1), zero(0);
    (single ? api.cgemv : api.zgemv)(kCblasRowMajor, t, m, n, &one, a, lda, x, incx, &zero, y, 1);
  }
  static bool dot(const CblasApi<Int>& api, Int k, const T* x, Int incx, const T* y, Int incy,
                  T* c) {
    auto fn = single ? api.cdotu_sub : api.zdotu_sub;
    if (!fn) return false;
    fn(k, x, incx, y, incy, c);
    return true;
  }
  static auto syrk(const CblasApi<Int>& api) { return single ? api.csyrk : api.zsyrk; }
  static void syrk(const CblasApi<Int>& api, CblasTranspose t, Int n, Int k, const T* a, Int lda,
                   T* c) {
    const T one(1), zero(0);
    syrk(api)(kCblasRowMajor, kCblasUpper, t, n, k, &one, a, lda, &zero, c, n);
  }
};

template <class T, class Int>
void typed_matmul(const CblasApi<Int>& api, Int m, Int n, Int k, const T* a, BlasOperand la,
                  const T* b, BlasOperand lb, T* c) {
  using B = Blas<T, Int>;
  const Int lda = static_cast<Int>(la.ld), ldb = static_cast<Int>(lb.ld);
  // A's only row times B's only column: a dot product where the library has one.
  if (m == 1 && n == 1 && B::dot(api, k, a, la.trans ? lda : 1, b, lb.trans ? 1 : ldb, c)) return;
  if (n == 1) {
    // c (m) = A x, where x is B's only column: the stored matrix is A (m x k) or A^T (k x m).
    const Int incx = lb.trans ? 1 : ldb;
    if (la.trans)
      B::gemv(api, kCblasTrans, k, m, a, lda, b, incx, c);
    else
      B::gemv(api, kCblasNoTrans, m, k, a, lda, b, incx, c);
  } else if (m == 1) {
    // c (n) = B^T x, where x is A's only row: the stored matrix is B (k x n) or B^T (n x k).
    const Int incx = la.trans ? lda : 1;
    if (lb.trans)
      B::gemv(api, kCblasNoTrans, n, k, b, ldb, a, incx, c);
    else
      B::gemv(api, kCblasTrans, k, n, b, ldb, a, incx, c);
  } else if (a == b && m == n && la.trans != lb.trans && lda == ldb && B::syrk(api)) {
    // B is A's transpose (m.T @ m, m @ m.T): the product is symmetric, so syrk computes the
    // upper triangle with half the multiply-adds and it is mirrored, as NumPy does (so the
    // result is exactly symmetric, and rounds as NumPy's).
    B::syrk(api, op(la.trans), m, k, a, lda, c);
    for (Int i = 0; i < m; ++i)
      for (Int j = i + 1; j < m; ++j) c[j * m + i] = c[i * m + j];
  } else {
    B::gemm(api, op(la.trans), op(lb.trans), m, n, k, a, lda, b, ldb, c, n);
  }
}

template <class Int>
void flavoured_matmul(const CblasApi<Int>& api, Dtype dt, int64_t m, int64_t n, int64_t k,
                      const void* a, BlasOperand la, const void* b, BlasOperand lb, void* c) {
  dispatch_dtype(dt, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_floating_point_v<T> || is_complex_v<T>)
      typed_matmul<T, Int>(api, static_cast<Int>(m), static_cast<Int>(n), static_cast<Int>(k),
                           static_cast<const T*>(a), la, static_cast<const T*>(b), lb,
                           static_cast<T*>(c));
  });
}

}  // namespace

bool blas_supports(const BlasLibrary& blas, Dtype dt, int64_t m, int64_t n, int64_t k,
                   BlasOperand a, BlasOperand b) {
  // An LP64 library takes 32-bit sizes only; ILP64 takes every size an array can have.
  const int64_t max =
      blas.flavour.ilp64 ? std::numeric_limits<int64_t>::max() : std::numeric_limits<int>::max();
  auto fits = [&](int64_t v) { return v >= 0 && v <= max; };
  return is_inexact(dt) && fits(m) && fits(n) && fits(k) && fits(a.ld) && fits(b.ld);
}

void blas_matmul(const BlasLibrary& blas, Dtype dt, int64_t m, int64_t n, int64_t k, const void* a,
                 BlasOperand la, const void* b, BlasOperand lb, void* c) {
  if (blas.flavour.ilp64)
    flavoured_matmul(blas.ilp64, dt, m, n, k, a, la, b, lb, c);
  else
    flavoured_matmul(blas.lp64, dt, m, n, k, a, la, b, lb, c);
}

}  // namespace accel::cpu
