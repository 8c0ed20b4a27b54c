// Python numbers in elementwise ops on a CUDA array reach the kernel as parameters
// (ir::Layout::by_value): no device memory, no host-to-device copy, one launch whose parameter
// holds the value in the operand's dtype. Checked on the recording fake of the driver
// (fake_cuda_driver.h), without a GPU; the kernels themselves are compiled by NVRTC for sm_90.
#include <gtest/gtest.h>

#include <cstring>

#include "accel/accel.h"
#include "accel/backend/backend.h"
#include "accel/backend/cuda/driver.h"
#include "accel/backend/cuda/elementwise_layout.h"
#include "fake_cuda_driver.h"

namespace cu = accel::cuda;
using accel::Array;
using accel::Device;

namespace {

const bool kFakeInstalled = fake_cuda::install();

const Device kGpu = Device::cuda(0);

// What the driver was asked while `work` ran.
struct Traffic {
  size_t allocations = 0;  // allocate() calls on the device (cached blocks included)
  size_t uploads = 0;      // host-to-device copies
  std::vector<fake_cuda::Launch> launches;
};

template <class F> Traffic traffic_of(F&& work) {
  auto& st = fake_cuda::state();
  {
    std::lock_guard<std::recursive_mutex> lock(st.mutex);
    st.log.clear();
    st.launches.clear();
  }
  const size_t allocations = accel::backend_for(kGpu).memory_stats().allocations;
  work();
  Traffic t;
  t.allocations = accel::backend_for(kGpu).memory_stats().allocations - allocations;
  std::lock_guard<std::recursive_mutex> lock(st.mutex);
  for (const std::string& l : st.log) t.uploads += l.rfind("cuMemcpyHtoDAsync", 0) == 0;
  t.launches = st.launches;
  return t;
}

template <class T> Array gpu_array(int64_t n, T value) {
  return Array::from_vector(std::vector<T>(static_cast<size_t>(n), value), {n}, kGpu);
}

// Parameter `i` of a launch read as T (it must be exactly T's size).
template <class T> T param(const fake_cuda::Launch& l, size_t i) {
  EXPECT_LT(i, l.params.size()) << l.name;
  EXPECT_EQ(l.params.at(i).size(), sizeof(T)) << l.name << " parameter " << i;
  T v{};
  std::memcpy(&v, l.params.at(i).data(), sizeof(T));
  return v;
}

class ScalarParams : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_TRUE(kFakeInstalled); }
};

}  // namespace

TEST_F(ScalarParams, float_times_python_float_is_one_launch_with_the_value_as_a_parameter) {
  Array x = gpu_array<float>(1000, 1.0f);
  Array y;
  const Traffic t = traffic_of([&] {
    y = x * 2.5;  // a weak float64 scalar, as Python's `x * 2.5` makes it
    y.eval();
  });
  EXPECT_EQ(t.allocations, 1u) << "only the result is allocated";
  EXPECT_EQ(t.uploads, 0u);
  ASSERT_EQ(t.launches.size(), 1u);
  const fake_cuda::Launch& l = t.launches[0];
  ASSERT_EQ(l.params.size(), 2u) << "the args struct, then the scalar";
  EXPECT_EQ(l.params[0].size(), cu::args_size(2)) << "x and y in memory, the scalar not";
  EXPECT_EQ(param<float>(l, 1), 2.5f) << "converted to the compute dtype float32";
  EXPECT_EQ(y.dtype(), accel::float32);
}

TEST_F(ScalarParams, fused_chain_with_two_python_numbers_passes_both_by_value) {
  Array x = gpu_array<double>(5000, 3.0);
  Array y;
  const Traffic t = traffic_of([&] {
    y = (x * 0.1 - 7) * x;  // 0.1 (float) and 7 (int) become float64 parameters
    y.eval();
  });
  EXPECT_EQ(t.allocations, 1u);
  EXPECT_EQ(t.uploads, 0u);
  ASSERT_EQ(t.launches.size(), 1u);
  const fake_cuda::Launch& l = t.launches[0];
  ASSERT_EQ(l.params.size(), 3u);
  EXPECT_EQ(l.params[0].size(), cu::args_size(2));
  EXPECT_EQ(param<double>(l, 1), 0.1);
  EXPECT_EQ(param<double>(l, 2), 7.0);
}

TEST_F(ScalarParams, python_int_into_int8_array_is_an_int8_parameter) {
  Array x = gpu_array<int8_t>(300, int8_t{5});
  Array y, z;
  const Traffic t = traffic_of([&] {
    y = x + 3;     // NEP 50: stays int8, and 3 is checked to fit without reading the device
    z = x * -100;  // converted as the CPU's cast: -100 in int8
    accel::eval({y, z});
  });
  EXPECT_EQ(t.allocations, 2u);
  EXPECT_EQ(t.uploads, 0u);
  ASSERT_EQ(t.launches.size(), 1u) << "one region with two outputs";
  const fake_cuda::Launch& l = t.launches[0];
  ASSERT_EQ(l.params.size(), 3u);
  EXPECT_EQ(l.params[0].size(), cu::args_size(3));
  EXPECT_EQ(param<int8_t>(l, 1), int8_t{3});
  EXPECT_EQ(param<int8_t>(l, 2), int8_t{-100});
  EXPECT_EQ(y.dtype(), accel::int8);
  EXPECT_THROW(x + 300, accel::OverflowError);  // NumPy 2: 300 does not fit int8
}

TEST_F(ScalarParams, fusion_off_still_passes_the_number_by_value) {
  accel::set_fusion_enabled(false);
  Array x = gpu_array<float>(100, 1.0f);
  Array y;
  const Traffic t = traffic_of([&] {
    y = x - 0.5;
    y.eval();
  });
  accel::set_fusion_enabled(true);
  EXPECT_EQ(t.allocations, 1u);
  EXPECT_EQ(t.uploads, 0u);
  ASSERT_EQ(t.launches.size(), 1u);
  EXPECT_EQ(param<float>(t.launches[0], 1), 0.5f);
}

TEST_F(ScalarParams, a_python_number_is_uploaded_once_when_its_memory_is_needed) {
  Array s = Array::scalar(2.5, /*weak=*/true, kGpu);
  EXPECT_TRUE(s.is_pending());
  const Traffic t = traffic_of([&] { s.eval(); });
  EXPECT_EQ(t.allocations, 1u);
  EXPECT_EQ(t.uploads, 1u);
  EXPECT_TRUE(t.launches.empty());
  EXPECT_EQ(s.item<double>(), 2.5);
  EXPECT_TRUE(s.weak());
  // Now in device memory, it is read from there like any 0-d array: nothing uploaded again.
  Array x = gpu_array<double>(10, 1.0);
  const Traffic again = traffic_of([&] { (x * s).eval(); });
  EXPECT_EQ(again.uploads, 0u);
  ASSERT_EQ(again.launches.size(), 1u);
  EXPECT_EQ(again.launches[0].params.size(), 1u) << "read from memory: no by-value parameter";
}

TEST_F(ScalarParams, square_of_a_gpu_array_needs_no_exponent) {
  Array x = gpu_array<float>(64, 3.0f);
  Array y;
  const Traffic t = traffic_of([&] {
    y = accel::pow(x, Array::scalar(int64_t{2}, true, kGpu));
    y.eval();
  });
  EXPECT_EQ(t.uploads, 0u);
  ASSERT_EQ(t.launches.size(), 1u);
  EXPECT_EQ(t.launches[0].params.size(), 1u) << "x * x: the 2 is not passed at all";
}
