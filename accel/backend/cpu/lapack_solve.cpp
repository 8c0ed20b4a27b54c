// solve, inv, slogdet and cholesky over LAPACK's LU (gesv, getrf + getrs) and Cholesky (potrf).
#include <cmath>
#include <limits>
#include <optional>
#include <type_traits>

#include "accel/backend/cpu/lapack.h"
#include "accel/backend/cpu/lapack_batch.h"
#include "accel/backend/cpu/small_lu.h"

namespace accel::cpu {
namespace {

// x = a^-1 b, or a^-1 itself when b is null. Small matrices take small_lu; larger ones go to
// LAPACK in row-major order, which it reads as A^T, so that no transposing copy of A is
// needed: inv solves A^T X = I (gesv, NumPy's call), whose X read row-major is A^-1 and lands in
// x directly; solve factors A^T (getrf) and solves A x = b with that factor transposed
// (getrs 'T'), b and x going through the column-major copies.
void gesv_batch(const Array& a, const Array* b, const Array& x, const char* op) {
  with_lapack(op, a.dtype(), [&](const auto& api, auto tag) {
    using T = typename decltype(tag)::type;
    using Int = ACCEL_LAPACK_INT(api);
    constexpr int t = kLapackType<T>;
    const Matrices<T> am(a), xm(x);
    const int64_t n = am.rows, k = xm.cols;
    const Int ni = lapack_int<Int>(n, op), ki = lapack_int<Int>(k, op), ld = std::max<Int>(1, ni);
    std::optional<Matrices<T>> bm;
    if (b) bm.emplace(*b);
    for_each_matrix(batch_count(x), n, [&](int64_t begin, int64_t end) {
      // A large inverse is written in x itself when x is row-major: no scratch for it.
      const bool inverse_in_x = !b && n > kSmallLu && xm.row_major();
      std::vector<T> la(static_cast<size_t>(n * n));
      std::vector<T> lb(inverse_in_x ? 0 : static_cast<size_t>(n * k));
      std::vector<Int> ipiv(static_cast<size_t>(n));
      with_small_size(n, [&](auto nn) {
        for (int64_t i = begin; i < end; ++i) {
          if constexpr (!std::is_same_v<decltype(nn), int64_t>) {
            am.gather_small(i, la.data(), nn);
            if (bm) {
              bm->gather_small(i, lb.data(), nn);
            } else {
              std::fill(lb.begin(), lb.end(), T(0));
              for (int64_t d = 0; d < n; ++d) lb[static_cast<size_t>(d * n + d)] = T(1);
            }
            int64_t piv[kSmallLu];
            if (!small_lu(la.data(), nn, piv))
              throw LinAlgError(std::string("[") + op + "] Singular matrix");
            small_lu_solve(la.data(), piv, nn, lb.data(), k);
            xm.scatter_small(i, lb.data(), nn);
          } else {
            am.gather_rows(i, la.data());
            Int info = 0;
            if (bm) {
              bm->gather(i, lb.data(), n);
              const char trans = 'T';
              api.getrf[t](&ni, &ni, la.data(), &ld, ipiv.data(), &info);
              if (info == 0)
                api.getrs[t](&trans, &ni, &ki, la.data(), &ld, ipiv.data(), lb.data(), &ld, &info,
                             1);
            } else {
              T* inverse = inverse_in_x ? xm.at(i) : lb.data();
              std::fill(inverse, inverse + n * n, T(0));
              for (int64_t d = 0; d < n; ++d) inverse[d * n + d] = T(1);
              api.gesv[t](&ni, &ni, la.data(), &ld, ipiv.data(), inverse, &ld, &info);
            }
            if (info > 0) throw LinAlgError(std::string("[") + op + "] Singular matrix");
            if (bm)
              xm.scatter(i, lb.data(), n);
            else if (!inverse_in_x)
              xm.scatter_rows(i, lb.data());
          }
        }
      });
    });
  });
}

}  // namespace

void lapack_solve(const Array& a, const Array& b, const Array& x) { gesv_batch(a, &b, x, "solve"); }

void lapack_inv(const Array& a, const Array& out) { gesv_batch(a, nullptr, out, "inv"); }

void lapack_slogdet(const Array& a, const Array& sign, const Array& logabsdet, const Array* det) {
  const char* op = det ? "det" : "slogdet";
  with_lapack(op, a.dtype(), [&](const auto& api, auto tag) {
    using T = typename decltype(tag)::type;
    using R = real_t<T>;
    using Int = ACCEL_LAPACK_INT(api);
    const Matrices<T> am(a);
    T* sign_base = det ? nullptr : static_cast<T*>(sign.data());
    R* log_base = det ? nullptr : static_cast<R*>(logabsdet.data());
    T* det_base = det ? static_cast<T*>(det->data()) : nullptr;
    const int64_t n = am.rows;
    const Int ni = lapack_int<Int>(n, op), ld = std::max<Int>(1, ni);
    // sign and logabsdet are fresh contiguous arrays of the batch shape: element i is matrix i.
    for_each_matrix(batch_count(a), n, [&](int64_t begin, int64_t end) {
      std::vector<T> la(static_cast<size_t>(n * n));
      std::vector<Int> ipiv(static_cast<size_t>(n));
      with_small_size(n, [&](auto nn) {
        constexpr bool small = !std::is_same_v<decltype(nn), int64_t>;
        for (int64_t i = begin; i < end; ++i) {
          if constexpr (small)
            am.gather_small(i, la.data(), nn);
          else
            am.gather(i, la.data(), n);
          Int info = 0;
          int64_t small_piv[kSmallLu];
          if constexpr (small)
            info = small_lu(la.data(), nn, small_piv) ? 0 : 1;
          else if (n > 0)
            api.getrf[kLapackType<T>](&ni, &ni, la.data(), &ld, ipiv.data(), &info);
          // getrf's pivots count from 1, small_lu's from 0.
          auto swapped = [&](int64_t d) {
            if constexpr (small)
              return small_piv[d] != d;
            else
              return ipiv[static_cast<size_t>(d)] != static_cast<Int>(d + 1);
          };
          T s(1);
          if (det_base) {
            // det: the product of U's diagonal (NumPy's sign * exp(sum log|u|) to rounding,
            // without a log per pivot); exactly 0 for a zero pivot.
            for (int64_t d = 0; d < nn; ++d)
              s *= swapped(d) ? -la[static_cast<size_t>(d * n + d)]
                              : la[static_cast<size_t>(d * n + d)];
            det_base[i] = info > 0 ? T(0) : s;
            continue;
          }
          R logabs(0);
          // info > 0: an exactly zero pivot, so the determinant is 0 (NumPy: sign 0, log -inf).
          if (info > 0) {
            s = T(0);
            logabs = -std::numeric_limits<R>::infinity();
          } else {
            for (int64_t d = 0; d < nn; ++d) {
              const T u = la[static_cast<size_t>(d * n + d)];
              const R m = std::abs(u);
              if (swapped(d)) s = -s;
              s *= u / m;
              logabs += std::log(m);
            }
          }
          sign_base[i] = s;
          log_base[i] = logabs;
        }
      });
    });
  });
}

void lapack_cholesky(const Array& a, bool upper, const Array& out) {
  with_lapack("cholesky", a.dtype(), [&](const auto& api, auto tag) {
    using T = typename decltype(tag)::type;
    using Int = ACCEL_LAPACK_INT(api);
    const Matrices<T> am(a), om(out);
    const int64_t n = am.rows;
    const Int ni = lapack_int<Int>(n, "cholesky"), ld = std::max<Int>(1, ni);
    // The matrix goes in row-major, which potrf reads as A^T: its other triangle holds our
    // triangle of A, and the factor it returns, read row-major, is ours (for complex too: the
    // Hermitian matrix it sees is conj(A), and conj swaps with the transpose). NumPy's
    // transposing copies in and out took half of a single-threaded 1024x1024 cholesky.
    const char uplo = upper ? 'L' : 'U';
    for_each_matrix(batch_count(a), n, [&](int64_t begin, int64_t end) {
      std::vector<T> scratch(om.row_major() ? 0 : static_cast<size_t>(n * n));
      for (int64_t i = begin; i < end; ++i) {
        T* f = om.row_major() ? om.at(i) : scratch.data();
        am.gather_rows(i, f);
        Int info = 0;
        if (n > 0) api.potrf[kLapackType<T>](&uplo, &ni, f, &ld, &info, 1);
        if (info > 0) throw LinAlgError("[cholesky] Matrix is not positive definite");
        // potrf leaves the other triangle as it was; the factor has zeros there.
        for (int64_t r = 0; r < n; ++r) {
          T* row = f + r * n;
          if (upper)
            std::fill(row, row + r, T(0));
          else
            std::fill(row + r + 1, row + n, T(0));
        }
        if (!om.row_major()) om.scatter_rows(i, f);
      }
    });
  });
}

}  // namespace accel::cpu
