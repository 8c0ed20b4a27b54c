// Creation functions from C++: values, dtypes, shapes and errors (NumPy's results written out).
#include <gtest/gtest.h>

#include <complex>
#include <vector>

#include "accel/accel.h"

using namespace accel;

namespace {
const Device cpu = Device::cpu();
}

TEST(Creation, zeros_ones_and_empty_have_shape_dtype_and_values) {
  Array z = zeros({2, 3}, int32, cpu);
  EXPECT_EQ(z.shape(), (Shape{2, 3}));
  EXPECT_EQ(z.dtype(), int32);
  EXPECT_EQ(z.to_vector<int32_t>(), std::vector<int32_t>(6, 0));
  EXPECT_EQ(ones({4}, complex64, cpu).to_vector<std::complex<float>>(),
            std::vector<std::complex<float>>(4, {1, 0}));
  EXPECT_EQ(empty({0, 5}, float32, cpu).size(), 0);
  EXPECT_EQ(zeros({}, float64, cpu).to_vector<double>(), std::vector<double>{0.0});
}

TEST(Creation, large_fill_uses_every_thread_and_sets_every_element) {
  Array a = ones({1 << 20}, float32, cpu);
  auto v = a.to_vector<float>();
  EXPECT_EQ(std::count(v.begin(), v.end(), 1.0f), 1 << 20);
}

TEST(Creation, negative_dimension_raises_shape_error) {
  EXPECT_THROW(zeros({2, -1}, float32, cpu), ShapeError);
  EXPECT_THROW(full({-3}, 1.0, std::nullopt, cpu), ShapeError);
}

TEST(Creation, full_infers_the_default_dtype_of_the_scalar_kind) {
  EXPECT_EQ(full({2}, true, std::nullopt, cpu).dtype(), bool_);
  EXPECT_EQ(full({2}, 3, std::nullopt, cpu).dtype(), int64);
  EXPECT_EQ(full({2}, 3.5, std::nullopt, cpu).dtype(), float64);
  EXPECT_EQ(full({2}, std::complex<double>(1, 2), std::nullopt, cpu).dtype(), complex128);
  EXPECT_EQ(full({2}, 2.75, int32, cpu).to_vector<int32_t>(), (std::vector<int32_t>{2, 2}));
}

TEST(Creation, full_rejects_integers_out_of_range_like_numpy) {
  EXPECT_THROW(full({2}, 300, int8, cpu), OverflowError);
}

TEST(Creation, full_broadcasts_an_array_fill_value) {
  Array row = Array::from_vector<int64_t>({1, 2, 3}, {3}, cpu);
  EXPECT_EQ(full({2, 3}, row, std::nullopt, cpu).to_vector<int64_t>(),
            (std::vector<int64_t>{1, 2, 3, 1, 2, 3}));
  EXPECT_THROW(full({2, 4}, row, std::nullopt, cpu), ShapeError);
}

TEST(Creation, like_functions_keep_shape_and_take_dtype_override) {
  Array x = Array::from_vector<float>({1, 2, 3, 4, 5, 6}, {2, 3}, cpu);
  EXPECT_EQ(zeros_like(x).shape(), x.shape());
  EXPECT_EQ(ones_like(x, int8).dtype(), int8);
  EXPECT_EQ(full_like(x, weak_scalar(7, cpu)).to_vector<float>(), std::vector<float>(6, 7.0f));
  EXPECT_EQ(empty_like(x).dtype(), float32);
}

TEST(Creation, arange_follows_numpy_length_and_values) {
  EXPECT_EQ(arange(5, std::nullopt, cpu).to_vector<int64_t>(), (std::vector<int64_t>{0, 1, 2, 3, 4}));
  EXPECT_EQ(arange(10, 0, -3, std::nullopt, cpu).to_vector<int64_t>(),
            (std::vector<int64_t>{10, 7, 4, 1}));
  EXPECT_EQ(arange(5.0, 1.0, -1.5, std::nullopt, cpu).to_vector<double>(),
            (std::vector<double>{5.0, 3.5, 2.0}));
  EXPECT_EQ(arange(3, 3, 1, std::nullopt, cpu).size(), 0);
  EXPECT_EQ(arange(3, 0, 1, std::nullopt, cpu).size(), 0);
  // NumPy takes the step from the first two elements converted to the dtype.
  EXPECT_EQ(arange(-3, 3, 0.5, int64, cpu).size(), 12);
  EXPECT_EQ(arange(-3, 3, 0.5, int64, cpu).to_vector<int64_t>()[11], 8);
  // Integer dtypes wrap around like NumPy's.
  EXPECT_EQ(arange(0, 300, 100, int8, cpu).to_vector<int8_t>(), (std::vector<int8_t>{0, 100, -56}));
}

TEST(Creation, arange_float_step_uses_numpys_delta) {
  auto v = arange(0.1, 1.0, 0.3, std::nullopt, cpu).to_vector<double>();
  ASSERT_EQ(v.size(), 3u);
  const double delta = (0.1 + 0.3) - 0.1;
  EXPECT_EQ(v[2], 0.1 + 2 * delta);
}

TEST(Creation, arange_errors) {
  EXPECT_THROW(arange(0, 5, 0, std::nullopt, cpu), ValueError);
  EXPECT_THROW(arange(0, 3, 1, bool_, cpu), DTypeError);
  EXPECT_EQ(arange(0, 2, 1, bool_, cpu).size(), 2);
}

TEST(Creation, linspace_has_exact_endpoints_and_floors_integers) {
  auto v = linspace(0.0, 1.0, 5, true, std::nullopt, cpu).to_vector<double>();
  EXPECT_EQ(v, (std::vector<double>{0.0, 0.25, 0.5, 0.75, 1.0}));
  EXPECT_EQ(linspace(0.1, 0.7, 7, true, std::nullopt, cpu).to_vector<double>().back(), 0.7);
  EXPECT_EQ(linspace(-1.0, -10.0, 4, true, int64, cpu).to_vector<int64_t>(),
            (std::vector<int64_t>{-1, -4, -7, -10}));
  EXPECT_EQ(linspace(0.0, 1.0, 4, false, std::nullopt, cpu).to_vector<double>(),
            (std::vector<double>{0.0, 0.25, 0.5, 0.75}));
  EXPECT_EQ(linspace(2.0, 3.0, 1, true, std::nullopt, cpu).to_vector<double>(), std::vector<double>{2.0});
  EXPECT_EQ(linspace(2.0, 3.0, 0, true, std::nullopt, cpu).size(), 0);
  EXPECT_THROW(linspace(0.0, 1.0, -1, true, std::nullopt, cpu), ValueError);
  EXPECT_EQ(linspace(std::complex<double>(0, 0), std::complex<double>(2, 4), 3, true, std::nullopt, cpu)
                .to_vector<std::complex<double>>()[1],
            std::complex<double>(1, 2));
}

TEST(Creation, eye_places_the_kth_diagonal) {
  EXPECT_EQ(eye(2, 3, 1, int32, cpu).to_vector<int32_t>(), (std::vector<int32_t>{0, 1, 0, 0, 0, 1}));
  EXPECT_EQ(eye(3, 2, -1, int32, cpu).to_vector<int32_t>(), (std::vector<int32_t>{0, 0, 1, 0, 0, 1}));
  EXPECT_EQ(eye(2, 2, 5, int32, cpu).to_vector<int32_t>(), std::vector<int32_t>(4, 0));
  EXPECT_EQ(identity(2, float32, cpu).to_vector<float>(), (std::vector<float>{1, 0, 0, 1}));
  EXPECT_EQ(eye(0, std::nullopt, 0, float32, cpu).size(), 0);
}

TEST(Creation, tril_and_triu_are_batched_over_leading_axes) {
  Array x = ones({2, 2, 3}, int32, cpu);
  EXPECT_EQ(tril(x).to_vector<int32_t>(),
            (std::vector<int32_t>{1, 0, 0, 1, 1, 0, 1, 0, 0, 1, 1, 0}));
  EXPECT_EQ(triu(x, 1).to_vector<int32_t>(),
            (std::vector<int32_t>{0, 1, 1, 0, 0, 1, 0, 1, 1, 0, 0, 1}));
  EXPECT_EQ(tril(x).dtype(), int32);
  EXPECT_THROW(tril(ones({3}, int32, cpu)), ShapeError);
}

TEST(Creation, meshgrid_xy_and_ij) {
  Array a = arange(3, std::nullopt, cpu), b = arange(2, std::nullopt, cpu);
  auto xy = meshgrid({a, b});
  EXPECT_EQ(xy[0].shape(), (Shape{2, 3}));
  EXPECT_EQ(xy[0].to_vector<int64_t>(), (std::vector<int64_t>{0, 1, 2, 0, 1, 2}));
  EXPECT_EQ(xy[1].to_vector<int64_t>(), (std::vector<int64_t>{0, 0, 0, 1, 1, 1}));
  auto ij = meshgrid({a, b}, "ij", true);
  EXPECT_EQ(ij[0].shape(), (Shape{3, 1}));
  EXPECT_EQ(ij[1].shape(), (Shape{1, 2}));
  EXPECT_THROW(meshgrid({a, b}, "xz"), ValueError);
}

TEST(Creation, order_lays_new_arrays_and_likes_out_as_numpy) {
  // np.zeros((2, 3, 4), order='F').strides / itemsize == (1, 2, 6)
  EXPECT_EQ(zeros({2, 3, 4}, float32, cpu, Order::F).strides(), (Strides{1, 2, 6}));
  EXPECT_EQ(full({2, 3}, 2.5, float64, cpu, Order::F).to_vector<double>(),
            std::vector<double>(6, 2.5));
  Array t = transpose(zeros({3, 4}, float32, cpu));  // Fortran-ordered, not C
  EXPECT_EQ(empty_like(t).strides(), (Strides{1, 4}));                        // K: as t
  EXPECT_EQ(empty_like(t, std::nullopt, std::nullopt, Order::C).strides(), (Strides{3, 1}));
  EXPECT_EQ(ones_like(t, std::nullopt, std::nullopt, Order::A).strides(), (Strides{1, 4}));
  Array s = getitem(zeros({4, 6}, float32, cpu), {Slice{std::nullopt, std::nullopt, 2}});
  EXPECT_EQ(zeros_like(s, std::nullopt, std::nullopt, Order::A).strides(), (Strides{6, 1}));
  EXPECT_THROW(order_from_name("X", "zeros"), ValueError);
  EXPECT_EQ(order_from_name("f", "zeros"), Order::F);
}

TEST(Creation, likes_with_another_shape_keep_the_axis_order_of_the_same_rank) {
  Array t = transpose(zeros({3, 4}, float32, cpu));  // (4, 3), Fortran-ordered
  // np.empty_like(t, shape=(2, 5)).strides / 4 == (1, 2); another rank is C-ordered.
  EXPECT_EQ(empty_like(t, std::nullopt, std::nullopt, Order::K, Shape{2, 5}).strides(),
            (Strides{1, 2}));
  EXPECT_EQ(zeros_like(t, std::nullopt, std::nullopt, Order::K, Shape{2, 5, 2}).strides(),
            (Strides{10, 2, 1}));
  Array f = full_like(t, weak_scalar(1.5, cpu), float64, std::nullopt, Order::C, Shape{2, 2});
  EXPECT_EQ(f.strides(), (Strides{2, 1}));
  EXPECT_EQ(f.to_vector<double>(), std::vector<double>(4, 1.5));
  EXPECT_EQ(ones_like(t, int8, std::nullopt, Order::A, Shape{2, 3}).strides(), (Strides{1, 2}));
}

TEST(Creation, meshgrid_without_copies_views_its_inputs) {
  Array a = arange(3, std::nullopt, cpu), b = arange(2, std::nullopt, cpu);
  auto dense = meshgrid({a, b}, "xy", false, /*copy_grids=*/false);
  EXPECT_EQ(dense[0].to_vector<int64_t>(), (std::vector<int64_t>{0, 1, 2, 0, 1, 2}));
  EXPECT_EQ(dense[0].strides(), (Strides{0, 1}));
  EXPECT_TRUE(is_read_only(dense[0]));  // each element repeats along the other axis
  auto sparse = meshgrid({a, b}, "ij", true, false);
  EXPECT_FALSE(is_read_only(sparse[0]));
  EXPECT_EQ(sparse[0].data(), a.data());  // the input's own memory
}

TEST(Creation, copies_reshapes_and_ravels_in_fortran_order) {
  Array x = reshape(arange(int64_t{0}, int64_t{6}, int64_t{1}, int32, cpu), {2, 3});
  // np.arange(6).reshape(2, 3).ravel('F') == [0, 3, 1, 4, 2, 5]
  EXPECT_EQ(ravel(x, Order::F).to_vector<int32_t>(), (std::vector<int32_t>{0, 3, 1, 4, 2, 5}));
  EXPECT_EQ(reshape(x, {3, 2}, std::nullopt, Order::F).to_vector<int32_t>(),
            (std::vector<int32_t>{0, 4, 3, 2, 1, 5}));
  Array f = copy(x, Order::F);
  EXPECT_EQ(f.strides(), (Strides{1, 2}));
  EXPECT_EQ(f.to_vector<int32_t>(), x.to_vector<int32_t>());
  EXPECT_TRUE(ravel(f, Order::F).shares_memory_with(f));  // a view: F-contiguous already
  EXPECT_TRUE(astype(f, int32, false, Order::F).is(f));
  EXPECT_FALSE(astype(f, int32, false, Order::C).is(f));
  EXPECT_EQ(ravel(transpose(x), Order::K).to_vector<int32_t>(),
            (std::vector<int32_t>{0, 1, 2, 3, 4, 5}));  // memory order of x.T: x's
  EXPECT_THROW(reshape(x, {3, 2}, std::nullopt, Order::K), ValueError);
}
