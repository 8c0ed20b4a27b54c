// accel::linalg over the run-time loaded LAPACK (the system search finds Debian's LP64 OpenBLAS
// here; Python's tests use NumPy's ILP64 one): a few decompositions checked by their defining
// identities, the LinAlgError cases, and the BackendUnavailable raised when there is no LAPACK.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>

#include "accel/accel.h"
#include "accel/backend/cpu/cpu.h"
#include "accel/backend/cpu/lapack.h"

using namespace accel;

namespace {

bool have_blas() { return cpu::blas_info().loaded; }

Array matrix(const std::vector<double>& v, Shape shape) { return Array::from_vector(v, shape); }

void expect_near(const std::vector<double>& got, const std::vector<double>& want, double tol) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], want[i], tol) << "at " << i;
}

TEST(Lapack, solve_and_inv_and_det_of_a_batch) {
  if (!have_blas()) GTEST_SKIP() << "no BLAS/LAPACK library on this machine";
  // Two 2x2 matrices: [[4, 1], [2, 3]] (det 10) and [[0, 2], [1, 0]] (det -2, needs a pivot).
  Array a = matrix({4, 1, 2, 3, 0, 2, 1, 0}, {2, 2, 2});
  expect_near(linalg::det(a).to_vector<double>(), {10, -2}, 1e-12);
  expect_near(linalg::inv(a).to_vector<double>(), {0.3, -0.1, -0.2, 0.4, 0, 1, 0.5, 0}, 1e-12);
  // a x = b for the vector b = (1, 2), broadcast over the batch.
  Array x = linalg::solve(a, matrix({1, 2}, {2}));
  EXPECT_EQ(x.shape(), (Shape{2, 2}));
  expect_near(x.to_vector<double>(), {0.1, 0.6, 2, 0.5}, 1e-12);
}

TEST(Lapack, cholesky_eigh_svd_qr_reconstruct) {
  if (!have_blas()) GTEST_SKIP() << "no BLAS/LAPACK library on this machine";
  Array a = matrix({4, 2, 2, 3}, {2, 2});
  Array l = linalg::cholesky(a);
  expect_near(matmul(l, matrix_transpose(l)).to_vector<double>(), {4, 2, 2, 3}, 1e-12);
  expect_near(l.to_vector<double>(), {2, 0, 1, std::sqrt(2.0)}, 1e-12);
  // Eigenvalues of [[4, 2], [2, 3]]: (7 -+ sqrt(17)) / 2, ascending.
  linalg::EighResult e = linalg::eigh(a);
  expect_near(e.eigenvalues.to_vector<double>(),
              {(7 - std::sqrt(17.0)) / 2, (7 + std::sqrt(17.0)) / 2}, 1e-12);
  Array b = matrix({1, 2, 3, 4, 5, 6}, {3, 2});
  linalg::SVDResult s = linalg::svd(b, false);
  Array us = multiply(s.U, expand_dims(s.S, {0}));
  expect_near(matmul(us, s.Vh).to_vector<double>(), {1, 2, 3, 4, 5, 6}, 1e-12);
  linalg::QRResult q = linalg::qr(b, linalg::QRMode::complete);
  EXPECT_EQ(q.Q.shape(), (Shape{3, 3}));
  expect_near(matmul(q.Q, q.R).to_vector<double>(), {1, 2, 3, 4, 5, 6}, 1e-12);
}

TEST(Lapack, singular_and_indefinite_matrices_raise_linalgerror) {
  if (!have_blas()) GTEST_SKIP() << "no BLAS/LAPACK library on this machine";
  Array singular = matrix({1, 2, 2, 4}, {2, 2});
  EXPECT_THROW(linalg::inv(singular), LinAlgError);
  EXPECT_EQ(linalg::det(singular).item<double>(), 0.0);
  EXPECT_THROW(linalg::cholesky(matrix({-1, 0, 0, 1}, {2, 2})), LinAlgError);
  EXPECT_THROW(linalg::inv(matrix({1, 2, 3, 4, 5, 6}, {2, 3})), LinAlgError);
}

// The kernels work in a row-major output itself and copy through the strides of any other: a
// transposed view as the output must hold what a fresh one does (the op layer always passes
// fresh ones, so only this test reaches that path). 12x12 takes LAPACK, not the small-matrix LU.
TEST(Lapack, outputs_through_strides_equal_fresh_outputs) {
  if (!have_blas()) GTEST_SKIP() << "no BLAS/LAPACK library on this machine";
  const int64_t n = 12;
  Array g = random::Generator(5).standard_normal({n, n});
  Array spd = add(matmul(g, matrix_transpose(g)), multiply(eye(n), full({n, n}, double(n))));
  Array b = random::Generator(6).standard_normal({n, 3});
  auto transposed_out = [](int64_t rows, int64_t cols) {
    return matrix_transpose(Array::empty({cols, rows}, Dtype::float64, Device::cpu()));
  };
  for (bool upper : {false, true}) {
    Array out = transposed_out(n, n);
    cpu::lapack_cholesky(spd, upper, out);
    expect_near(out.to_vector<double>(), linalg::cholesky(spd, upper).to_vector<double>(), 1e-12);
  }
  Array inv = transposed_out(n, n);
  cpu::lapack_inv(spd, inv);
  expect_near(inv.to_vector<double>(), linalg::inv(spd).to_vector<double>(), 1e-12);
  Array x = transposed_out(n, 3);
  cpu::lapack_solve(g, b, x);
  expect_near(x.to_vector<double>(), linalg::solve(g, b).to_vector<double>(), 1e-12);
  Array a = random::Generator(7).standard_normal({n, 5});
  for (bool full : {false, true}) {
    const int64_t k = full ? n : 5;
    Array s = Array::empty({5}, Dtype::float64, Device::cpu());
    Array u = transposed_out(n, k), vh = transposed_out(5, 5);
    cpu::lapack_svd(a, s, &u, &vh, full);
    linalg::SVDResult want = linalg::svd(a, full);
    expect_near(s.to_vector<double>(), want.S.to_vector<double>(), 1e-12);
    expect_near(u.to_vector<double>(), want.U.to_vector<double>(), 1e-12);
    expect_near(vh.to_vector<double>(), want.Vh.to_vector<double>(), 1e-12);
  }
}

// Re-executed in a fresh process (threadsafe death tests), so the library search runs again
// under ACCEL_BLAS_PATH=none.
TEST(LapackDeathTest, without_a_library_raises_backend_unavailable_naming_lapack) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        setenv("ACCEL_BLAS_PATH", "none", 1);
        try {
          linalg::inv(Array::from_vector(std::vector<double>{1, 0, 0, 1}, {2, 2}));
        } catch (const BackendUnavailable& e) {
          const std::string what = e.what();
          std::exit(what.find("[inv] needs LAPACK") != std::string::npos &&
                            what.find("ACCEL_BLAS_PATH=none") != std::string::npos
                        ? 0
                        : 2);
        }
        std::exit(1);
      },
      ::testing::ExitedWithCode(0), "");
}

}  // namespace
