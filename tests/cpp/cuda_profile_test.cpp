// The profiler's CUDA paths (backend/profiling_backend.cpp) against the recording fake of the
// driver (fake_cuda_driver.h), without a GPU: transfers with their direction, bytes and stream,
// allocations on the device, kernels timed by a pair of CUDA events resolved when the session
// stops, and the host wait of a read back. The fake's events measure 0 ms: what is checked is
// that the device time was asked for and filled in, not its value.
#include <gtest/gtest.h>

#include <algorithm>

#include "accel/accel.h"
#include "accel/backend/cuda/driver.h"
#include "fake_cuda_driver.h"

namespace cu = accel::cuda;
using accel::Array;
using accel::Device;
using accel::profile::EventKind;

namespace {

const bool kFakeInstalled = fake_cuda::install();

std::vector<accel::profile::Event> of_kind(const std::vector<accel::profile::Event>& events,
                                           EventKind kind) {
  std::vector<accel::profile::Event> out;
  for (const auto& e : events)
    if (e.kind == kind) out.push_back(e);
  return out;
}

TEST(CudaProfile, TransfersAllocationsKernelsAndWaitsAreRecorded) {
  ASSERT_TRUE(kFakeInstalled);
  std::vector<float> host(1000, 1.0f);
  accel::profile::Session s;
  Array x = Array::from_vector(host, {1000}, Device::cuda(0));
  Array z = accel::zeros({1000}, accel::Dtype::float32, Device::cuda(0));
  std::vector<float> back = x.to_vector<float>();
  auto events = s.stop();

  auto transfers = of_kind(events, EventKind::transfer);
  ASSERT_EQ(transfers.size(), 2u);
  EXPECT_EQ(transfers[0].name, "h2d");
  EXPECT_EQ(transfers[1].name, "d2h");
  for (const auto& t : transfers) {
    EXPECT_EQ(t.bytes, 4000);
    EXPECT_EQ(t.device, 0);
    EXPECT_EQ(t.stream, 0);                           // the default stream
    EXPECT_FALSE(t.flags & accel::profile::kPinned);  // a std::vector and a host buffer
  }
  auto allocs = of_kind(events, EventKind::alloc);
  ASSERT_GE(allocs.size(), 2u);
  EXPECT_EQ(allocs[0].device, 0);
  EXPECT_GE(allocs[0].in_use, 4000);

  auto kernels = of_kind(events, EventKind::kernel);
  auto fill =
      std::find_if(kernels.begin(), kernels.end(), [](const auto& k) { return k.name == "fill"; });
  ASSERT_NE(fill, kernels.end());
  EXPECT_EQ(fill->device, 0);
  EXPECT_EQ(fill->stream, 0);
  EXPECT_EQ(fill->gpu_ns, 0);  // resolved from the events (-1 would mean never measured)

  auto waits = of_kind(events, EventKind::sync);
  ASSERT_EQ(waits.size(), 1u);
  EXPECT_EQ(waits[0].name, "to_host");
  EXPECT_NE(waits[0].detail.find("on cuda:0"), std::string::npos);
  EXPECT_EQ(back[999], 1.0f);
}

}  // namespace
