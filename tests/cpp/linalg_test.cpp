// Products from C++ against a naive reference product computed here in double / int64.
#include <gtest/gtest.h>

#include <complex>
#include <random>
#include <vector>

#include "accel/accel.h"

using namespace accel;

namespace {

const Device cpu = Device::cpu();

// Naive (m x k) @ (k x n) on host vectors in C order.
template <class T>
std::vector<T> reference(const std::vector<T>& a, const std::vector<T>& b, int64_t m, int64_t k,
                         int64_t n) {
  std::vector<T> c(static_cast<size_t>(m * n), T(0));
  for (int64_t i = 0; i < m; ++i)
    for (int64_t p = 0; p < k; ++p)
      for (int64_t j = 0; j < n; ++j) c[i * n + j] += a[i * k + p] * b[p * n + j];
  return c;
}

std::vector<double> random_values(size_t n, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> dist(-1, 1);
  std::vector<double> v(n);
  for (auto& x : v) x = dist(gen);
  return v;
}

void expect_near(const std::vector<double>& got, const std::vector<double>& want, double tol) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], want[i], tol) << "at " << i;
}

}  // namespace

TEST(Linalg, matmul_matches_reference_for_float_and_double) {
  for (Dtype dt : {float32, float64}) {
    const int64_t m = 37, k = 19, n = 23;
    auto a = random_values(m * k, 1), b = random_values(k * n, 2);
    Array x = astype(Array::from_vector(a, {m, k}, cpu), dt);
    Array y = astype(Array::from_vector(b, {k, n}, cpu), dt);
    Array z = matmul(x, y);
    EXPECT_EQ(z.shape(), (Shape{m, n}));
    EXPECT_EQ(z.dtype(), dt);
    expect_near(z.to_vector<double>(), reference(a, b, m, k, n), 1e-4);
  }
}

TEST(Linalg, transposed_and_sliced_operands_give_the_same_product) {
  const int64_t m = 8, k = 6, n = 5;
  auto a = random_values(m * k, 3), b = random_values(k * n, 4);
  Array x = Array::from_vector(a, {m, k}, cpu), y = Array::from_vector(b, {k, n}, cpu);
  auto want = reference(a, b, m, k, n);
  // x stored transposed: a (k, m) array viewed as its transpose.
  Array xt_store = copy(Array::view_of(x, {k, m}, {1, k}, 0)).eval();
  Array x_view = Array::view_of(xt_store, {m, k}, {1, m}, 0);
  expect_near(matmul(x_view, y).to_vector<double>(), want, 1e-12);
  // y with a step of 2 in both axes inside a larger buffer (no BLAS layout: packed first).
  Array big = zeros({2 * k, 2 * n}, float64, cpu);
  Array y_strided = Array::view_of(big, {k, n}, {4 * n, 2}, 0);
  assign(y_strided, y);
  expect_near(matmul(x, y_strided).to_vector<double>(), want, 1e-12);
}

TEST(Linalg, vectors_are_promoted_and_the_axis_removed) {
  Array v = Array::from_vector<double>({1, 2, 3}, {3}, cpu);
  Array mtx = Array::from_vector<double>({1, 0, 0, 0, 1, 0}, {2, 3}, cpu);
  EXPECT_EQ(matmul(v, v).shape(), Shape{});
  EXPECT_EQ(matmul(v, v).item<double>(), 14.0);
  EXPECT_EQ(matmul(mtx, v).to_vector<double>(), (std::vector<double>{1, 2}));
  Array col = Array::from_vector<double>({1, 1}, {2}, cpu);
  EXPECT_EQ(matmul(col, mtx).to_vector<double>(), (std::vector<double>{1, 1, 0}));
}

TEST(Linalg, batch_axes_broadcast) {
  Array a = ones({4, 1, 2, 3}, float32, cpu);
  Array b = ones({5, 3, 2}, float32, cpu);
  Array c = matmul(a, b);
  EXPECT_EQ(c.shape(), (Shape{4, 5, 2, 2}));
  auto v = c.to_vector<float>();
  EXPECT_EQ(std::count(v.begin(), v.end(), 3.0f), static_cast<long>(v.size()));
}

// matmul is a gufunc in NumPy: the batch axes of its result keep the operands' memory order
// (here the first two swapped), each product C-ordered; a vecdot over such a batch reads it so.
TEST(Linalg, batch_axes_keep_the_operands_order_and_vecdot_reads_them) {
  const int64_t m = 3, k = 4, n = 2;
  auto a = random_values(3 * 5 * m * k, 5), b = random_values(3 * 5 * k * n, 6);
  // Stored (5, 3, ...) and viewed as (3, 5, ...).
  Array x = permute_dims(Array::from_vector(a, {5, 3, m, k}, cpu), {1, 0, 2, 3});
  Array y = permute_dims(Array::from_vector(b, {5, 3, k, n}, cpu), {1, 0, 2, 3});
  Array z = matmul(x, y);
  ASSERT_EQ(z.shape(), (Shape{3, 5, m, n}));
  EXPECT_EQ(z.strides(), (Strides{m * n, 3 * m * n, n, 1}));
  auto got = z.to_vector<double>();  // C order
  for (int64_t i = 0; i < 3; ++i)
    for (int64_t j = 0; j < 5; ++j) {
      const size_t ao = static_cast<size_t>((j * 3 + i) * m * k), bo = static_cast<size_t>((j * 3 + i) * k * n);
      auto want = reference(std::vector<double>(a.begin() + ao, a.begin() + ao + m * k),
                            std::vector<double>(b.begin() + bo, b.begin() + bo + k * n), m, k, n);
      for (int64_t e = 0; e < m * n; ++e)
        EXPECT_NEAR(got[static_cast<size_t>((i * 5 + j) * m * n + e)], want[e], 1e-12);
    }
  // A broadcast batch: rows (2, 1, 1) against (2, 3, 1) stored (3, 2, 1), so the product's batch
  // axes are swapped; dot products along the last axis.
  Array r = Array::from_vector(std::vector<double>{0, 1}, {2, 1, 1}, cpu);
  Array w = permute_dims(Array::from_vector(std::vector<double>{0, 1, 0, 1, 0, 1}, {3, 2, 1}, cpu),
                         {1, 0, 2});
  Array v = vecdot(r, w, -1);
  EXPECT_EQ(v.to_vector<double>(), (std::vector<double>{0, 0, 0, 1, 1, 1}));
}

TEST(Linalg, integer_matmul_wraps_around_like_numpy) {
  Array a = full({1, 2}, 100, int8, cpu);
  Array b = full({2, 1}, 2, int8, cpu);
  EXPECT_EQ(matmul(a, b).item<int8_t>(), static_cast<int8_t>(400 % 256));
  Array c = full({2, 3}, 70000, int32, cpu), d = full({3, 2}, 70000, int32, cpu);
  const int32_t want = static_cast<int32_t>(static_cast<uint32_t>(3ull * 70000 * 70000));
  EXPECT_EQ(matmul(c, d).to_vector<int32_t>(), std::vector<int32_t>(4, want));
}

TEST(Linalg, bool_matmul_is_or_of_ands) {
  bool av[] = {true, false, false, false};
  bool bv[] = {false, true, true, false};
  Array a = Array::from_host(av, bool_, {2, 2}, cpu), b = Array::from_host(bv, bool_, {2, 2}, cpu);
  Array c = matmul(a, b);
  EXPECT_EQ(c.dtype(), bool_);
  EXPECT_EQ(c.to_vector<int32_t>(), (std::vector<int32_t>{0, 1, 0, 0}));
}

TEST(Linalg, complex_matmul_and_vecdot_conjugates_x1) {
  using C = std::complex<double>;
  Array a = Array::from_vector<C>({{1, 2}, {3, -1}}, {1, 2}, cpu);
  Array b = Array::from_vector<C>({{0, 1}, {2, 2}}, {2, 1}, cpu);
  EXPECT_EQ(matmul(a, b).item<C>(), C(1, 2) * C(0, 1) + C(3, -1) * C(2, 2));
  Array x = Array::from_vector<C>({{1, 2}, {3, -1}}, {2}, cpu);
  Array y = Array::from_vector<C>({{0, 1}, {2, 2}}, {2}, cpu);
  EXPECT_EQ(vecdot(x, y).item<C>(), std::conj(C(1, 2)) * C(0, 1) + std::conj(C(3, -1)) * C(2, 2));
}

TEST(Linalg, empty_and_zero_length_contractions) {
  EXPECT_EQ(matmul(ones({0, 3}, float32, cpu), ones({3, 4}, float32, cpu)).shape(), (Shape{0, 4}));
  Array z = matmul(ones({2, 0}, float64, cpu), ones({0, 3}, float64, cpu));
  EXPECT_EQ(z.to_vector<double>(), std::vector<double>(6, 0.0));
}

TEST(Linalg, shape_errors_name_both_shapes) {
  try {
    matmul(ones({2, 3}, float32, cpu), ones({4, 5}, float32, cpu));
    FAIL() << "expected ShapeError";
  } catch (const ShapeError& e) {
    EXPECT_NE(std::string(e.what()).find("(2, 3) and (4, 5)"), std::string::npos) << e.what();
  }
  EXPECT_THROW(matmul(ones({2, 2, 3}, float32, cpu), ones({3, 3, 2}, float32, cpu)), ShapeError);
  EXPECT_THROW(matmul(Array::scalar(1.0), ones({2}, float64, cpu)), ShapeError);
}

TEST(Linalg, tensordot_dot_inner_outer_vdot) {
  Array a = astype(arange(24, std::nullopt, cpu), float64);
  Array a3 = Array::view_of(a, {2, 3, 4}, {12, 4, 1}, 0);
  Array b = astype(arange(12, std::nullopt, cpu), float64);
  Array b2 = Array::view_of(b, {4, 3}, {3, 1}, 0);
  EXPECT_EQ(tensordot(a3, b2, 1).shape(), (Shape{2, 3, 3}));
  EXPECT_EQ(tensordot(a3, a3, {1, 2}, {1, 2}).shape(), (Shape{2, 2}));
  EXPECT_EQ(tensordot(a3, a3, {1, 2}, {1, 2}).to_vector<double>()[0], 506.0);  // sum of i^2, i < 12
  EXPECT_EQ(dot(a3, b2).shape(), (Shape{2, 3, 3}));
  EXPECT_EQ(inner(a3, a3).shape(), (Shape{2, 3, 2, 3}));
  EXPECT_EQ(outer(b2, a3).shape(), (Shape{12, 24}));
  EXPECT_EQ(vdot(b2, b).item<double>(), 506.0);
  EXPECT_THROW(tensordot(a3, b2, {0}, {0}), ShapeError);
  EXPECT_THROW(vdot(a3, b), ShapeError);
}
