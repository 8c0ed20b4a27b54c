// Factorisations of rectangular matrices: svd over gesdd (as NumPy) and qr over geqrf + orgqr
// (ungqr for complex).
#include "accel/backend/cpu/lapack.h"
#include "accel/backend/cpu/lapack_batch.h"

namespace accel::cpu {
namespace {

// Column-major identity of m x n (used when an empty matrix still has square factors).
template <class T>
void identity(std::vector<T>& dst, int64_t m, int64_t n) {
  std::fill(dst.begin(), dst.end(), T(0));
  for (int64_t d = 0; d < std::min(m, n); ++d) dst[static_cast<size_t>(d * m + d)] = T(1);
}

}  // namespace

void lapack_svd(const Array& a, const Array& s, const Array* u, const Array* vh, bool full) {
  const char* op = u ? "svd" : "svdvals";
  with_lapack(op, a.dtype(), [&](const auto& api, auto tag) {
    using T = typename decltype(tag)::type;
    using R = real_t<T>;
    using Int = ACCEL_LAPACK_INT(api);
    constexpr int t = kLapackType<T>;
    const Matrices<T> am(a);
    std::optional<Matrices<T>> um, vm;
    if (u) um.emplace(*u), vm.emplace(*vh);
    R* s_base = static_cast<R*>(s.data());  // fresh and contiguous
    const int64_t m = am.rows, n = am.cols, k = std::min(m, n), mx = std::max(m, n);
    const int64_t ucols = full ? m : k, vrows = full ? n : k;
    // gesdd factors A^T = W S Z^H, the n x m matrix it reads in A's row-major copy: then
    // A = conj(Z) S W^T, and Z^H (ucols x m) and W (n x vrows), as LAPACK writes them
    // column-major, read row-major are conj(Z) and W^T: A's U and Vh, with no transposing
    // copy in or out (and in the outputs themselves when they are row-major).
    const Int mi = lapack_int<Int>(n, op), ni = lapack_int<Int>(m, op);
    const Int lda = std::max<Int>(1, mi);
    const Int ldw = u ? lda : 1, ldz = u ? std::max<Int>(1, lapack_int<Int>(ucols, op)) : 1;
    const char jobz = !u ? 'N' : full ? 'A' : 'S';
    for_each_matrix(batch_count(a), mx, [&](int64_t begin, int64_t end) {
      std::vector<T> la(static_cast<size_t>(m * n));
      if (k == 0) {  // LAPACK returns at once; the factors of an empty matrix are identities
        std::vector<T> lu(u ? static_cast<size_t>(m * ucols) : 1),
            lvt(u ? static_cast<size_t>(vrows * n) : 1);
        identity(lu, m, ucols);
        identity(lvt, vrows, n);
        for (int64_t i = begin; i < end && u; ++i)
          um->scatter(i, lu.data(), m), vm->scatter(i, lvt.data(), vrows);
        return;
      }
      // Scratch for the factors only where an output is not row-major.
      std::vector<T> lw(u && !vm->row_major() ? static_cast<size_t>(vrows * n) : 1),
          lz(u && !um->row_major() ? static_cast<size_t>(m * ucols) : 1);
      const size_t lrwork =
          jobz == 'N' ? 7 * k : std::max(5 * k * k + 5 * k, 2 * mx * k + 2 * k * k + k);
      std::vector<R> rwork(is_complex_v<T> ? lrwork : 1);
      std::vector<Int> iwork(static_cast<size_t>(8 * k));
      T work_q{};
      Int info = 0, minus1 = -1;
      auto call = [&](R* sv, T* w, T* zh, T* work, const Int* lwork) {
        if constexpr (is_complex_v<T>)
          api.gesdd_complex[t](&jobz, &mi, &ni, la.data(), &lda, sv, w, &ldw, zh, &ldz, work,
                               lwork, rwork.data(), iwork.data(), &info, 1);
        else
          api.gesdd_real[t](&jobz, &mi, &ni, la.data(), &lda, sv, w, &ldw, zh, &ldz, work, lwork,
                            iwork.data(), &info, 1);
      };
      std::vector<R> sq(static_cast<size_t>(k));
      call(sq.data(), lw.data(), lz.data(), &work_q, &minus1);
      const Int lwork = static_cast<Int>(workspace_size(work_q));
      std::vector<T> work(static_cast<size_t>(lwork));
      for (int64_t i = begin; i < end; ++i) {
        am.gather_rows(i, la.data());
        T* w = u && vm->row_major() ? vm->at(i) : lw.data();
        T* zh = u && um->row_major() ? um->at(i) : lz.data();
        call(s_base + i * k, w, zh, work.data(), &lwork);
        if (info != 0) throw LinAlgError(std::string("[") + op + "] SVD did not converge");
        if (u && !vm->row_major()) vm->scatter_rows(i, w);
        if (u && !um->row_major()) um->scatter_rows(i, zh);
      }
    });
  });
}

void lapack_qr(const Array& a, const Array* q, const Array& r, bool complete) {
  with_lapack("qr", a.dtype(), [&](const auto& api, auto tag) {
    using T = typename decltype(tag)::type;
    using Int = ACCEL_LAPACK_INT(api);
    constexpr int t = kLapackType<T>;
    const Matrices<T> am(a), rm(r);
    std::optional<Matrices<T>> qm;
    if (q) qm.emplace(*q);
    const int64_t m = am.rows, n = am.cols, k = std::min(m, n);
    const int64_t rrows = rm.rows, qcols = complete ? m : k;
    // Scratch wide enough to become Q in place: orgqr builds Q's qcols columns from the
    // reflectors geqrf left in the first k.
    const int64_t wcols = std::max(n, qcols);
    const Int mi = lapack_int<Int>(m, "qr"), ni = lapack_int<Int>(n, "qr"),
              ki = lapack_int<Int>(k, "qr"), qi = lapack_int<Int>(qcols, "qr");
    const Int lda = std::max<Int>(1, mi);
    for_each_matrix(batch_count(a), std::max(m, n), [&](int64_t begin, int64_t end) {
      std::vector<T> la(static_cast<size_t>(std::max<int64_t>(1, m * wcols))),
          tau(static_cast<size_t>(std::max<int64_t>(1, k)));
      std::vector<T> lr(static_cast<size_t>(rrows * n));
      T wq1{}, wq2{};
      Int info = 0, minus1 = -1;
      if (k > 0) {
        api.geqrf[t](&mi, &ni, la.data(), &lda, tau.data(), &wq1, &minus1, &info);
        if constexpr (is_complex_v<T>)
          api.ungqr[t](&mi, &qi, &ki, la.data(), &lda, tau.data(), &wq2, &minus1, &info);
        else
          api.orgqr[t](&mi, &qi, &ki, la.data(), &lda, tau.data(), &wq2, &minus1, &info);
      }
      const Int lwork = static_cast<Int>(std::max(workspace_size(wq1), workspace_size(wq2)));
      std::vector<T> work(static_cast<size_t>(lwork));
      for (int64_t i = begin; i < end; ++i) {
        std::fill(la.begin(), la.end(), T(0));
        am.gather(i, la.data(), m);
        if (k > 0) api.geqrf[t](&mi, &ni, la.data(), &lda, tau.data(), work.data(), &lwork, &info);
        // R: the upper triangle of the first rrows rows (zeros below the diagonal).
        for (int64_t c = 0; c < n; ++c)
          for (int64_t row = 0; row < rrows; ++row)
            lr[static_cast<size_t>(c * rrows + row)] =
                row <= c ? la[static_cast<size_t>(c * m + row)] : T(0);
        rm.scatter(i, lr.data(), rrows);
        if (!qm) continue;
        if (k > 0) {
          if constexpr (is_complex_v<T>)
            api.ungqr[t](&mi, &qi, &ki, la.data(), &lda, tau.data(), work.data(), &lwork, &info);
          else
            api.orgqr[t](&mi, &qi, &ki, la.data(), &lda, tau.data(), work.data(), &lwork, &info);
        } else {
          identity(la, m, qcols);  // no reflectors: Q of an empty factorisation is the identity
        }
        qm->scatter(i, la.data(), m);
      }
    });
  });
}

void lapack_qr_raw(const Array& a, const Array& h, const Array& tau) {
  with_lapack("qr", a.dtype(), [&](const auto& api, auto tag) {
    using T = typename decltype(tag)::type;
    using Int = ACCEL_LAPACK_INT(api);
    constexpr int t = kLapackType<T>;
    const Matrices<T> am(a), hm(h);
    // tau is a fresh contiguous (batch..., k) array: matrix i's scales start at i * k.
    T* tau_base = static_cast<T*>(tau.data());
    const int64_t m = am.rows, n = am.cols, k = std::min(m, n);
    const Int mi = lapack_int<Int>(m, "qr"), ni = lapack_int<Int>(n, "qr");
    const Int lda = std::max<Int>(1, mi);
    for_each_matrix(batch_count(a), std::max(m, n), [&](int64_t begin, int64_t end) {
      std::vector<T> la(static_cast<size_t>(std::max<int64_t>(1, m * n)));
      std::vector<T> tau_query(1);
      T wq{};
      Int info = 0, minus1 = -1;
      if (k > 0) api.geqrf[t](&mi, &ni, la.data(), &lda, tau_query.data(), &wq, &minus1, &info);
      const Int lwork = static_cast<Int>(workspace_size(wq));
      std::vector<T> work(static_cast<size_t>(lwork));
      for (int64_t i = begin; i < end; ++i) {
        am.gather(i, la.data(), m);
        if (k > 0)
          api.geqrf[t](&mi, &ni, la.data(), &lda, tau_base + i * k, work.data(), &lwork, &info);
        // Column j of the column-major result is row j of h.
        T* hp = hm.at(i);
        for (int64_t j = 0; j < n; ++j)
          for (int64_t r = 0; r < m; ++r)
            hp[j * hm.rs + r * hm.cs] = la[static_cast<size_t>(j * m + r)];
      }
    });
  });
}

}  // namespace accel::cpu
