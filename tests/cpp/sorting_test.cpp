// The C++ API of interp (ops/interp.h): hand-worked values (between, at and beyond the sample
// points, NaN, left / right, complex fp, period) and its typed errors. The Python tests compare
// it with NumPy on random inputs, bit for bit.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <vector>

#include "accel/accel.h"

using namespace accel;

namespace {

Array f64(std::vector<double> v) {
  const auto n = static_cast<int64_t>(v.size());
  return Array::from_vector(std::move(v), {n});
}

}  // namespace

TEST(Interp, values_between_at_and_beyond_the_points) {
  const Array xp = f64({0.0, 1.0, 3.0}), fp = f64({0.0, 10.0, 30.0});
  const Array x = f64({-1.0, 0.0, 0.25, 1.0, 2.0, 3.0, 4.0, std::nan("")});
  const std::vector<double> got = interp(x, xp, fp).to_vector<double>();
  const std::vector<double> want = {0.0, 0.0, 2.5, 10.0, 20.0, 30.0, 30.0};
  for (size_t i = 0; i < want.size(); ++i) EXPECT_EQ(got[i], want[i]) << i;
  EXPECT_TRUE(std::isnan(got[7]));
  const std::vector<double> ends = interp(x, xp, fp, -5.0, 50.0).to_vector<double>();
  EXPECT_EQ(ends[0], -5.0);
  EXPECT_EQ(ends[6], 50.0);
  EXPECT_EQ(ends[1], 0.0);  // at xp[0] is not below it
}

TEST(Interp, a_complex_fp_and_integer_operands) {
  const Array xp = Array::from_vector<int64_t>({0, 2}, {2});
  const Array fp = Array::from_vector<std::complex<double>>({{0.0, 4.0}, {2.0, 0.0}}, {2});
  const Array got = interp(Array::from_vector<int64_t>({1, 5}, {2}), xp, fp, std::nullopt,
                           std::complex<double>(0.0, -1.0));
  ASSERT_EQ(got.dtype(), Dtype::complex128);
  const auto v = got.to_vector<std::complex<double>>();
  EXPECT_EQ(v[0], std::complex<double>(1.0, 2.0));
  EXPECT_EQ(v[1], std::complex<double>(0.0, -1.0));
}

TEST(Interp, period_wraps_x_and_the_points) {
  // Points 350, 10 (degrees) with values 0, 20: 0 (= 360) lies halfway between them.
  const Array got = interp(f64({0.0, 720.0, -5.0}), f64({10.0, 350.0}), f64({20.0, 0.0}),
                           std::nullopt, std::nullopt, -360.0);
  const std::vector<double> v = got.to_vector<double>();
  EXPECT_EQ(v[0], 10.0);
  EXPECT_EQ(v[1], 10.0);
  EXPECT_EQ(v[2], 5.0);
}

TEST(Interp, bad_points_raise_typed_errors) {
  const Array x = f64({0.5});
  EXPECT_THROW(interp(x, f64({0.0, 1.0}), f64({1.0})), ValueError);
  EXPECT_THROW(interp(x, f64({}), f64({})), ValueError);
  EXPECT_THROW(interp(x, reshape(f64({0.0, 1.0}), {1, 2}), f64({1.0, 2.0})), ValueError);
  EXPECT_THROW(interp(x, f64({0.0, 1.0}), f64({1.0, 2.0}), std::nullopt, std::nullopt, 0.0),
               ValueError);
  const Array cx = Array::from_vector<std::complex<double>>({{0.5, 1.0}}, {1});
  EXPECT_THROW(interp(cx, f64({0.0, 1.0}), f64({1.0, 2.0})), DTypeError);
}
