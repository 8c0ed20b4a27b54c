// Eigenvalues: eigh over syevd/heevd (divide and conquer, as NumPy) and eig over geev.
#include <cmath>

#include "accel/backend/cpu/lapack.h"
#include "accel/backend/cpu/lapack_batch.h"

namespace accel::cpu {

void lapack_eigh(const Array& a, const Array& w, const Array* v) {
  const char* op = v ? "eigh" : "eigvalsh";
  with_lapack(op, a.dtype(), [&](const auto& api, auto tag) {
    using T = typename decltype(tag)::type;
    using R = real_t<T>;
    using Int = ACCEL_LAPACK_INT(api);
    constexpr int t = kLapackType<T>;
    const Matrices<T> am(a);
    std::optional<Matrices<T>> vm;
    if (v) vm.emplace(*v);
    R* w_base = static_cast<R*>(w.data());  // fresh and contiguous: row i is matrix i's values
    const int64_t n = am.rows;
    const Int ni = lapack_int<Int>(n, op), ld = std::max<Int>(1, ni);
    const char jobz = v ? 'V' : 'N', uplo = 'L';
    for_each_matrix(batch_count(a), n, [&](int64_t begin, int64_t end) {
      if (n == 0) return;
      std::vector<T> la(static_cast<size_t>(n * n));
      // Workspace sizes from a query (lwork = -1) on this chunk's first matrix shape.
      T work_q{};
      R rwork_q{};
      Int iwork_q = 0, info = 0, minus1 = -1;
      if constexpr (is_complex_v<T>)
        api.heevd[t](&jobz, &uplo, &ni, la.data(), &ld, nullptr, &work_q, &minus1, &rwork_q,
                     &minus1, &iwork_q, &minus1, &info, 1, 1);
      else
        api.syevd[t](&jobz, &uplo, &ni, la.data(), &ld, nullptr, &work_q, &minus1, &iwork_q,
                     &minus1, &info, 1, 1);
      const Int lwork = static_cast<Int>(workspace_size(work_q));
      const Int lrwork = static_cast<Int>(workspace_size(rwork_q));
      const Int liwork = std::max<Int>(1, iwork_q);
      std::vector<T> work(static_cast<size_t>(lwork));
      std::vector<R> rwork(static_cast<size_t>(lrwork));
      std::vector<Int> iwork(static_cast<size_t>(liwork));
      for (int64_t i = begin; i < end; ++i) {
        am.gather(i, la.data(), n);
        R* wi = w_base + i * n;
        if constexpr (is_complex_v<T>)
          api.heevd[t](&jobz, &uplo, &ni, la.data(), &ld, wi, work.data(), &lwork, rwork.data(),
                       &lrwork, iwork.data(), &liwork, &info, 1, 1);
        else
          api.syevd[t](&jobz, &uplo, &ni, la.data(), &ld, wi, work.data(), &lwork, iwork.data(),
                       &liwork, &info, 1, 1);
        if (info > 0) throw LinAlgError(std::string("[") + op + "] Eigenvalues did not converge");
        if (vm) vm->scatter(i, la.data(), n);
      }
    });
  });
}

void lapack_eig(const Array& a, const Array& w, const Array* v) {
  const char* op = v ? "eig" : "eigvals";
  with_lapack(op, a.dtype(), [&](const auto& api, auto tag) {
    using T = typename decltype(tag)::type;
    using R = real_t<T>;
    using C = std::complex<R>;
    using Int = ACCEL_LAPACK_INT(api);
    constexpr int t = kLapackType<T>;
    const Matrices<T> am(a);
    std::optional<Matrices<C>> vm;
    if (v) vm.emplace(*v);
    C* w_base = static_cast<C*>(w.data());  // fresh and contiguous
    const int64_t n = am.rows;
    const Int ni = lapack_int<Int>(n, op), ld = std::max<Int>(1, ni), one = 1;
    const char jobvl = 'N', jobvr = v ? 'V' : 'N';
    for_each_matrix(batch_count(a), n, [&](int64_t begin, int64_t end) {
      if (n == 0) return;
      std::vector<T> la(static_cast<size_t>(n * n)), vr(v ? static_cast<size_t>(n * n) : 1);
      std::vector<R> wr(static_cast<size_t>(n)), wi(static_cast<size_t>(n)), rwork(2 * n);
      std::vector<C> wc(static_cast<size_t>(n)), vc(v ? static_cast<size_t>(n * n) : 0);
      const Int ldvr = v ? ld : one;
      T work_q{};
      Int info = 0, minus1 = -1;
      if constexpr (is_complex_v<T>)
        api.geev_complex[t](&jobvl, &jobvr, &ni, la.data(), &ld, wc.data(), nullptr, &one,
                            vr.data(), &ldvr, &work_q, &minus1, rwork.data(), &info, 1, 1);
      else
        api.geev_real[t](&jobvl, &jobvr, &ni, la.data(), &ld, wr.data(), wi.data(), nullptr, &one,
                         vr.data(), &ldvr, &work_q, &minus1, &info, 1, 1);
      const Int lwork = static_cast<Int>(workspace_size(work_q));
      std::vector<T> work(static_cast<size_t>(lwork));
      for (int64_t i = begin; i < end; ++i) {
        am.gather(i, la.data(), n);
        // NumPy checks first: geev would loop or return garbage on them.
        for (const T& e : la)
          if (!std::isfinite(std::real(e)) || !std::isfinite(std::imag(e)))
            throw LinAlgError(std::string("[") + op + "] Array must not contain infs or NaNs");
        if constexpr (is_complex_v<T>) {
          api.geev_complex[t](&jobvl, &jobvr, &ni, la.data(), &ld, wc.data(), nullptr, &one,
                              vr.data(), &ldvr, work.data(), &lwork, rwork.data(), &info, 1, 1);
          if (v) std::copy(vr.begin(), vr.end(), vc.begin());
        } else {
          api.geev_real[t](&jobvl, &jobvr, &ni, la.data(), &ld, wr.data(), wi.data(), nullptr, &one,
                           vr.data(), &ldvr, work.data(), &lwork, &info, 1, 1);
          // A complex pair j, j+1 comes as wi[j] > 0 with vectors vr[:, j] +- i vr[:, j+1].
          for (int64_t j = 0; j < n; ++j) {
            wc[j] = C(wr[j], wi[j]);
            if (!v) continue;
            for (int64_t r = 0; r < n; ++r) {
              if (wi[j] == 0) {
                vc[j * n + r] = C(vr[j * n + r], 0);
              } else if (wi[j] > 0 && j + 1 < n) {
                vc[j * n + r] = C(vr[j * n + r], vr[(j + 1) * n + r]);
                vc[(j + 1) * n + r] = C(vr[j * n + r], -vr[(j + 1) * n + r]);
              }
            }
            if (wi[j] > 0) {
              wc[j + 1] = C(wr[j + 1], wi[j + 1]);
              ++j;
            }
          }
        }
        if (info > 0) throw LinAlgError(std::string("[") + op + "] Eigenvalues did not converge");
        std::copy(wc.begin(), wc.end(), w_base + i * n);
        if (vm) vm->scatter(i, vc.data(), n);
      }
    });
  });
}

}  // namespace accel::cpu
