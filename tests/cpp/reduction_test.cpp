// Reductions and scans from C++: values, dtypes, shapes, views and errors (NumPy's results
// written out).
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <limits>
#include <numeric>
#include <vector>

#include "accel/accel.h"
#include "accel/backend/cpu/thread_pool.h"

using namespace accel;

namespace {

const Device host = Device::cpu();

// 0, 1, ..., n-1 as float64 in the given shape.
Array iota(const Shape& shape) {
  std::vector<double> v(static_cast<size_t>(shape_size(shape)));
  std::iota(v.begin(), v.end(), 0.0);
  return Array::from_vector(v, shape, host);
}

Array transposed(const Array& a) {
  Shape s(a.shape().rbegin(), a.shape().rend());
  Strides st(a.strides().rbegin(), a.strides().rend());
  return Array::view_of(a, s, st, a.offset());
}

}  // namespace

TEST(Reduction, sum_over_all_one_and_several_axes) {
  Array x = iota({2, 3, 4});
  EXPECT_EQ(sum(x).item<double>(), 276.0);
  EXPECT_EQ(sum(x, 0).to_vector<double>(),
            (std::vector<double>{12, 14, 16, 18, 20, 22, 24, 26, 28, 30, 32, 34}));
  EXPECT_EQ(sum(x, {0, 2}).to_vector<double>(), (std::vector<double>{60, 92, 124}));
  EXPECT_EQ(sum(x, -1, true).shape(), (Shape{2, 3, 1}));
  EXPECT_EQ(sum(x, {}, true).shape(), (Shape{1, 1, 1}));
}

TEST(Reduction, sum_of_a_transposed_view_reduces_rows_of_the_view) {
  Array t = transposed(iota({3, 4}));  // shape (4, 3): t[i][j] = 4 * j + i
  EXPECT_EQ(sum(t, 0).to_vector<double>(), (std::vector<double>{6, 22, 38}));
  EXPECT_EQ(sum(t, 1).to_vector<double>(), (std::vector<double>{12, 15, 18, 21}));
}

TEST(Reduction, sum_and_prod_dtypes_follow_numpy) {
  EXPECT_EQ(sum(Array::from_vector<int32_t>({1, 2}, {2}, host)).dtype(), int64);
  EXPECT_EQ(sum(Array::from_vector<uint8_t>({1, 2}, {2}, host)).dtype(), uint64);
  EXPECT_EQ(prod(Array::from_vector<int16_t>({1, 2}, {2}, host)).dtype(), int64);
  EXPECT_EQ(sum(Array::from_vector<float>({1, 2}, {2}, host)).dtype(), float32);
  EXPECT_EQ(sum(Array::from_vector<float>({1, 2}, {2}, host), {}, false, float64).dtype(), float64);
  EXPECT_EQ(mean(Array::from_vector<int8_t>({1, 2}, {2}, host)).dtype(), float64);
  EXPECT_EQ(var(Array::from_vector<std::complex<float>>({{1, 1}, {2, 0}}, {2}, host)).dtype(), float32);
  EXPECT_EQ(argmax(iota({3})).dtype(), int64);
}

TEST(Reduction, bool_sum_counts_true_values) {
  const bool v[] = {true, false, true, true};
  Array b = Array::from_host(v, bool_, {4}, host);
  EXPECT_EQ(sum(b).item<int64_t>(), 3);
  EXPECT_EQ(count_nonzero(iota({5})).item<int64_t>(), 4);
}

TEST(Reduction, integer_sums_wrap_around) {
  const int64_t big = std::numeric_limits<int64_t>::max();
  Array x = Array::from_vector<int64_t>({big, 2}, {2}, host);
  EXPECT_EQ(sum(x).item<int64_t>(), std::numeric_limits<int64_t>::min() + 1);
  Array y = Array::from_vector<int8_t>({100, 100, 100}, {3}, host);
  EXPECT_EQ(sum(y, {}, false, int8).item<int64_t>(), 44);  // 300 mod 256
}

TEST(Reduction, min_max_propagate_nan_and_argmax_picks_the_first_nan) {
  const double nan = std::nan("");
  Array x = Array::from_vector<double>({1, nan, 7, nan, -2}, {5}, host);
  EXPECT_TRUE(std::isnan(max(x).item<double>()));
  EXPECT_TRUE(std::isnan(min(x).item<double>()));
  EXPECT_EQ(argmax(x).item<int64_t>(), 1);
  EXPECT_EQ(argmin(x).item<int64_t>(), 1);
  Array y = Array::from_vector<double>({1, 7, 7, -2, -2}, {5}, host);
  EXPECT_EQ(argmax(y).item<int64_t>(), 1);
  EXPECT_EQ(argmin(y).item<int64_t>(), 3);
}

TEST(Reduction, argmax_along_an_axis_and_of_a_transposed_view) {
  Array x = Array::from_vector<int32_t>({3, 9, 1, 9, 0, 5}, {2, 3}, host);
  EXPECT_EQ(argmax(x, 1).to_vector<int64_t>(), (std::vector<int64_t>{1, 0}));
  EXPECT_EQ(argmax(x, 0).to_vector<int64_t>(), (std::vector<int64_t>{1, 0, 1}));
  // The flat index counts in C order of the view, not of memory.
  EXPECT_EQ(argmax(transposed(x)).item<int64_t>(), 1);
  EXPECT_EQ(argmin(x, 0, true).shape(), (Shape{1, 3}));
}

TEST(Reduction, empty_reductions_give_the_identity_or_raise) {
  Array e = Array::from_vector<float>({}, {0, 3}, host);
  EXPECT_EQ(sum(e, 0).to_vector<float>(), (std::vector<float>{0, 0, 0}));
  EXPECT_EQ(prod(e, 0).to_vector<float>(), (std::vector<float>{1, 1, 1}));
  EXPECT_EQ(all(e).item<bool>(), true);
  EXPECT_EQ(any(e).item<bool>(), false);
  EXPECT_TRUE(std::isnan(mean(e).item<float>()));
  EXPECT_EQ(max(e, 1).shape(), (Shape{0}));
  EXPECT_THROW(max(e), ValueError);
  EXPECT_THROW(argmin(e), ValueError);
  try {
    min(e, 0);
    FAIL() << "min of an empty axis must raise";
  } catch (const ValueError& err) {
    EXPECT_NE(std::string(err.what()).find("[min] zero-size array"), std::string::npos);
  }
}

TEST(Reduction, bad_axes_raise_axis_error) {
  Array x = iota({2, 3});
  EXPECT_THROW(sum(x, 2), AxisError);
  EXPECT_THROW(sum(x, {0, -2}), AxisError);
  EXPECT_THROW(argmax(x, -3), AxisError);
  EXPECT_THROW(cumulative_sum(x, 5), AxisError);
  EXPECT_THROW(cumulative_sum(x), ValueError);  // axis required for ndim > 1
}

TEST(Reduction, mean_var_std_with_correction) {
  Array x = Array::from_vector<double>({1, 2, 3, 4}, {4}, host);
  EXPECT_DOUBLE_EQ(mean(x).item<double>(), 2.5);
  EXPECT_DOUBLE_EQ(var(x).item<double>(), 1.25);
  EXPECT_DOUBLE_EQ(var(x, {}, 1.0).item<double>(), 5.0 / 3.0);
  EXPECT_DOUBLE_EQ(accel::std(x, {}, 1.0).item<double>(), std::sqrt(5.0 / 3.0));
  EXPECT_TRUE(std::isinf(var(x, {}, 4.0).item<double>()));
}

TEST(Reduction, float32_sum_of_many_ones_is_exact) {
  // A running float32 sum stops at 2^24; pairwise and blocked sums do not.
  const int64_t n = (1 << 24) + 1000;
  Array x = Array::from_vector(std::vector<float>(static_cast<size_t>(n), 1.0f), {n}, host);
  EXPECT_EQ(sum(x).item<double>(), static_cast<double>(n));
  Array cols = Array::view_of(x, {n / 8, 8}, {8, 1}, 0);
  for (float v : sum(cols, 0).to_vector<float>()) EXPECT_EQ(v, static_cast<float>(n / 8));
}

TEST(Reduction, same_results_with_one_thread_and_with_many) {
  Array x = iota({64, 1000, 3});
  std::vector<std::vector<double>> results;
  const int original = cpu::num_threads();
  for (int threads : {1, 2, 4}) {
    cpu::set_num_threads(threads);
    results.push_back(sum(x, 1).to_vector<double>());
    results.back().push_back(sum(x).item<double>());
    results.back().push_back(static_cast<double>(argmax(x, 1).to_vector<int64_t>()[5]));
  }
  cpu::set_num_threads(original);
  EXPECT_EQ(results[0], results[1]);
  EXPECT_EQ(results[0], results[2]);
}

TEST(Reduction, cumulative_sum_and_prod_with_include_initial) {
  Array x = Array::from_vector<int32_t>({1, 2, 3, 4, 5, 6}, {2, 3}, host);
  Array c = cumulative_sum(x, 1);
  EXPECT_EQ(c.dtype(), int64);
  EXPECT_EQ(c.to_vector<int64_t>(), (std::vector<int64_t>{1, 3, 6, 4, 9, 15}));
  Array p = cumulative_prod(x, 0, std::nullopt, true);
  EXPECT_EQ(p.shape(), (Shape{3, 3}));
  EXPECT_EQ(p.to_vector<int64_t>(), (std::vector<int64_t>{1, 1, 1, 1, 2, 3, 4, 10, 18}));
  EXPECT_EQ(cumulative_sum(transposed(x), 0).to_vector<int64_t>(),
            (std::vector<int64_t>{1, 4, 3, 9, 6, 15}));
}

TEST(Reduction, complex_sum_and_max) {
  using C = std::complex<double>;
  Array z = Array::from_vector<C>({{1, 2}, {3, -1}, {3, 0}}, {3}, host);
  EXPECT_EQ(sum(z).item<C>(), C(7, 1));
  EXPECT_EQ(max(z).item<C>(), C(3, 0));  // lexicographic, like NumPy
  EXPECT_EQ(argmin(z).item<int64_t>(), 0);
}

TEST(Reduction, where_and_initial_as_numpy) {
  // x = [[1, 2, 3], [4, 5, 6]], mask = [[T, F, T], [F, F, T]]
  Array x = Array::from_vector(std::vector<double>{1, 2, 3, 4, 5, 6}, {2, 3});
  const bool mask[] = {true, false, true, false, false, true};
  Array m = Array::from_host(mask, Dtype::bool_, {2, 3});
  ReduceOptions where{m, std::nullopt};
  // np.sum(x, axis=1, where=m) == [4, 6]; np.mean(x, where=m) == 10 / 3
  EXPECT_EQ(sum(x, 1, false, std::nullopt, where).to_vector<double>(), (std::vector<double>{4, 6}));
  EXPECT_DOUBLE_EQ(mean(x, {}, false, std::nullopt, where).item<double>(), 10.0 / 3.0);
  // np.var(x, axis=0, where=m) == [0, nan, 2.25]: nothing taken in column 1
  auto v = var(x, 0, 0.0, false, std::nullopt, where).to_vector<double>();
  EXPECT_EQ(v[0], 0.0);
  EXPECT_TRUE(std::isnan(v[1]));
  EXPECT_EQ(v[2], 2.25);
  ReduceOptions with_initial{m, Array::scalar(int64_t{5}, true)};
  // np.max(x, axis=0, where=m, initial=5) == [5, 5, 6]
  EXPECT_EQ(max(x, 0, false, with_initial).to_vector<double>(), (std::vector<double>{5, 5, 6}));
  EXPECT_EQ(prod(x, {}, false, std::nullopt, with_initial).item<double>(), 5.0 * 1 * 3 * 6);
  EXPECT_THROW(max(x, 0, false, where), ValueError);  // no identity: initial needed
  // An empty max with initial is initial; without one it raises.
  Array empty = zeros({0, 3}, float64, Device::cpu());
  EXPECT_EQ(max(empty, 0, false, ReduceOptions{std::nullopt, Array::scalar(2.0, true)})
                .to_vector<double>(),
            (std::vector<double>{2, 2, 2}));
  Array ints = Array::from_vector(std::vector<int32_t>{1, 0, 1}, {3});
  EXPECT_THROW(sum(x, {}, false, std::nullopt, ReduceOptions{ints, std::nullopt}), DTypeError);
}

TEST(Reduction, results_keep_the_input_axis_order_as_numpys) {
  // NumPy allocates a reduction's result through its iterator: the kept axes in the input's
  // axis order (a Fortran-ordered input gives a Fortran-ordered sum); argmax copies the axis
  // last first, so its result is C-ordered. The values do not depend on it.
  Array x = transposed(iota({4, 3, 2}));  // shape (2, 3, 4), x[i, j, k] = 6k + 2j + i
  Array s = sum(x, 0);
  EXPECT_EQ(s.strides(), (Strides{1, 3}));
  EXPECT_EQ(s.to_vector<double>(),
            (std::vector<double>{1, 13, 25, 37, 5, 17, 29, 41, 9, 21, 33, 45}));
  Array kept = sum(x, 0, true);
  EXPECT_EQ(kept.shape(), (Shape{1, 3, 4}));
  EXPECT_TRUE(kept.is_f_contiguous());
  EXPECT_EQ(kept.to_vector<double>(), s.to_vector<double>());
  EXPECT_TRUE(mean(x, 1).is_f_contiguous());
  EXPECT_TRUE(argmax(x, 0).is_contiguous());
  EXPECT_EQ(argmax(x, 0).to_vector<int64_t>(), std::vector<int64_t>(12, 1));
  // A lazily computed input reduced as it is computed is laid out alike.
  Array y = multiply(x, Array::scalar(2.0, true));
  EXPECT_EQ(sum(y, 2).strides(), (Strides{1, 2}));
  EXPECT_TRUE(sum(iota({2, 3, 4}), 0).is_contiguous());
}
