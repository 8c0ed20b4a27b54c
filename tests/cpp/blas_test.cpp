// The run-time loaded CPU BLAS: found on a machine that has one (scripts/setup installs
// OpenBLAS's run-time library), described by blas_info(), and giving the same products as
// accel's own loop for every BLAS dtype, including the gemv and transposed-operand paths.
#include "accel/backend/cpu/cpu.h"

#include <gtest/gtest.h>

#include <complex>
#include <random>
#include <vector>

#include "accel/accel.h"
#include "accel/backend/cpu/blas_library.h"
#include "accel/backend/cpu/matmul_kernels.h"

using namespace accel;

namespace {

const Device cpu = Device::cpu();

template <class T>
std::vector<T> random_values(int64_t n, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> dist(-1, 1);
  std::vector<T> v(static_cast<size_t>(n));
  for (auto& x : v) {
    if constexpr (is_complex_v<T>)
      x = T(dist(gen), dist(gen));
    else
      x = T(dist(gen));
  }
  return v;
}

// C = A @ B by accel's own loop, for contiguous A (m x k) and B (k x n).
template <class T>
std::vector<T> loop_product(const std::vector<T>& a, const std::vector<T>& b, int64_t m, int64_t k,
                            int64_t n) {
  std::vector<T> c(static_cast<size_t>(m * n));
  cpu::loop_matmul(dtype_of<T>, n, k, a.data(), k, 1, b.data(), n, c.data(), 0, m);
  return c;
}

template <class T>
void expect_close(const std::vector<T>& got, const std::vector<T>& want, double tol,
                  const std::string& what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  for (size_t i = 0; i < got.size(); ++i)
    EXPECT_LE(std::abs(got[i] - want[i]), tol) << what << " at " << i;
}

template <class T>
void check_products_match_loop(double tol) {
  // Sizes above the tiny-product cutoff (8x8x8), so BLAS runs: gemm, and gemv both ways.
  const int64_t shapes[][3] = {{37, 23, 19}, {1, 40, 31}, {40, 1, 31}, {64, 64, 64}};
  unsigned seed = 1;
  for (const auto& s : shapes) {
    const int64_t m = s[0], n = s[1], k = s[2];
    const auto a = random_values<T>(m * k, seed++), b = random_values<T>(k * n, seed++);
    const auto want = loop_product(a, b, m, k, n);
    const std::string what = std::string(dtype_name(dtype_of<T>)) + " " + std::to_string(m) + "x" +
                             std::to_string(k) + " @ " + std::to_string(k) + "x" +
                             std::to_string(n);
    Array x = Array::from_vector(a, {m, k}, cpu), y = Array::from_vector(b, {k, n}, cpu);
    expect_close(matmul(x, y).to_vector<T>(), want, tol, what);
    // The same matrices stored transposed: BLAS reads them with kCblasTrans, no copy.
    Array xt = matrix_transpose(copy(matrix_transpose(x)));
    Array yt = matrix_transpose(copy(matrix_transpose(y)));
    expect_close(matmul(xt, yt).to_vector<T>(), want, tol, what + " (transposed storage)");
  }
}

}  // namespace

TEST(Blas, a_blas_is_found_here_and_describes_itself) {
  const cpu::BlasInfo info = cpu::blas_info();
  if (!info.loaded)
    GTEST_SKIP() << "no CBLAS library on this machine (" << info.problem
                 << "); scripts/setup installs libopenblas0-pthread";
  EXPECT_FALSE(info.path.empty());
  EXPECT_TRUE(info.flavour == "LP64" || info.flavour == "ILP64") << info.flavour;
  EXPECT_NE(info.symbol.find("cblas_sgemm"), std::string::npos) << info.symbol;
  EXPECT_TRUE(info.problem.empty()) << info.problem;
  const cpu::BlasLibrary* blas = cpu::blas_library();
  ASSERT_NE(blas, nullptr);
  EXPECT_EQ(blas->flavour.ilp64, info.flavour == "ILP64");
  if (!info.config.empty()) {  // OpenBLAS describes its build and the kernels it chose
    EXPECT_FALSE(info.core.empty());
    EXPECT_GE(info.threads, 1);
  }
}

TEST(Blas, products_match_the_own_loop_for_every_blas_dtype) {
  // Without a BLAS this compares the loop with itself through matmul's batching and packing,
  // which still holds; with one, it is BLAS against the loop.
  check_products_match_loop<float>(1e-4);
  check_products_match_loop<double>(1e-12);
  check_products_match_loop<std::complex<float>>(1e-4);
  check_products_match_loop<std::complex<double>>(1e-12);
}

TEST(Blas, lp64_sizes_limit_what_goes_to_blas) {
  const cpu::BlasLibrary* blas = cpu::blas_library();
  if (!blas) GTEST_SKIP() << "no CBLAS library on this machine";
  const cpu::BlasOperand row{false, 4};
  const int64_t big = int64_t{1} << 31;  // INT_MAX + 1
  EXPECT_TRUE(cpu::blas_supports(*blas, float32, 4, 4, 4, row, row));
  EXPECT_FALSE(cpu::blas_supports(*blas, int32, 4, 4, 4, row, row));
  EXPECT_EQ(cpu::blas_supports(*blas, float32, big, 4, 4, row, row), blas->flavour.ilp64);
}
