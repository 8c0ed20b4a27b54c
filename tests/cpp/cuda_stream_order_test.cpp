// The CUDA layer against a recording fake of the driver (fake_cuda_driver.h), without a GPU:
// the stream model of docs/ARCHITECTURE.md ("Streams and memory lifetime") is checked by the
// fake's race detector over every copy, memset and launch accel queues, and the driver-facing
// details (kernel parameter sizes asked once, shared memory opt-in, sticky errors, destructors
// on threads without a context, version messages) by what the fake was asked. Each hazard test
// fails on the code before the stream model: there the fake reports the race.
#include <gtest/gtest.h>

#include <cstring>
#include <map>
#include <thread>

#include "accel/accel.h"
#include "accel/backend/cuda/caching_allocator.h"
#include "accel/backend/cuda/devices.h"
#include "accel/backend/cuda/driver.h"
#include "accel/backend/cuda/kernel.h"
#include "accel/backend/cuda/memory.h"
#include "accel/backend/cuda/nvrtc.h"
#include "accel/backend/cuda/stream_order.h"
#include "accel/runtime/errors.h"
#include "fake_cuda_driver.h"

namespace cu = accel::cuda;
using accel::Array;
using accel::Device;

namespace {

const bool kFakeInstalled = fake_cuda::install();

const Device kGpu = Device::cuda(0);

// Reads and writes its array: a stand-in for any user kernel.
const char* kScale = R"(
extern "C" __global__ void scale(float* x, float f, long long n) {
  long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (i < n) x[i] *= f;
})";

const cu::Kernel& scale_kernel() {
  static const cu::Kernel* k = new cu::Kernel(cu::raw_kernel(kScale, "scale", {}, 0));
  return *k;
}

void scale(const Array& x, float f, std::optional<cu::Stream> stream = std::nullopt) {
  cu::KernelArgs args;
  args.add(x).add(f).add(static_cast<long long>(x.size()));
  scale_kernel()(cu::Dim3{1}, cu::Dim3{256}, args, 0, stream);
}

Array upload(size_t n) {
  std::vector<float> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = static_cast<float>(i);
  return Array::from_vector(v, {static_cast<int64_t>(n)}, kGpu);
}

class StreamOrder : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(kFakeInstalled);
    std::lock_guard<std::recursive_mutex> lock(fake_cuda::state().mutex);
    fake_cuda::state().races.clear();
    fake_cuda::state().accesses.clear();  // each test starts with no history
    fake_cuda::state().log.clear();
  }
  static std::vector<std::string> races() {
    std::lock_guard<std::recursive_mutex> lock(fake_cuda::state().mutex);
    return fake_cuda::state().races;
  }
  static std::string log() {
    std::string s;
    for (const auto& l : fake_cuda::state().log) s += "  " + l + "\n";
    return s;
  }
};

std::string joined(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += "\n  " + x;
  return s;
}

}  // namespace

TEST(FakeDriver, implements_every_function_of_the_driver_table) {
  const cu::DriverApi api = fake_cuda::driver_table();
#define ACCEL_CU_FN(member, symbol, required, params) \
  EXPECT_NE(reinterpret_cast<void*>(api.member), nullptr) << symbol;
#include "accel/backend/cuda/driver_api.def"
#undef ACCEL_CU_FN
}

TEST(FakeDriver, reports_a_race_between_streams_that_nothing_orders) {
  // The detector itself: a copy on a non-blocking stream writing what the legacy stream wrote.
  fake_cuda::current_context = fake_cuda::kContext;
  auto& st = fake_cuda::state();
  cu::CUdeviceptr p = 0;
  ASSERT_EQ(fake_cuda::fMemAlloc(&p, 64), cu::CUDA_SUCCESS);
  cu::CUstream s = nullptr;
  ASSERT_EQ(fake_cuda::fStreamCreate(&s, cu::CU_STREAM_NON_BLOCKING), cu::CUDA_SUCCESS);
  char host[64] = {};
  const size_t before = st.races.size();
  fake_cuda::fMemcpyHtoDAsync(p, host, 64, nullptr);
  fake_cuda::fMemcpyHtoDAsync(p, host, 64, s);
  EXPECT_EQ(st.races.size(), before + 1);
  // Ordered by an event, the same pair is no race.
  st.accesses.clear();
  cu::CUevent e = nullptr;
  fake_cuda::fEventCreate(&e, 0);
  fake_cuda::fMemcpyHtoDAsync(p, host, 64, nullptr);
  fake_cuda::fEventRecord(e, nullptr);
  fake_cuda::fStreamWaitEvent(s, e, 0);
  fake_cuda::fMemcpyHtoDAsync(p, host, 64, s);
  EXPECT_EQ(st.races.size(), before + 1);
  fake_cuda::fEventDestroy(e);
  fake_cuda::fStreamDestroy(s);
  fake_cuda::fMemFree(p);
  st.races.resize(before);
}

TEST_F(StreamOrder, new_streams_block_with_the_legacy_default_stream_unless_asked) {
  cu::Stream blocking = cu::Stream::create(0);
  EXPECT_EQ(fake_cuda::state().last_stream_flags, 0u);
  EXPECT_FALSE(blocking.non_blocking());
  cu::Stream free_running = cu::Stream::create(0, /*non_blocking=*/true);
  EXPECT_EQ(fake_cuda::state().last_stream_flags, cu::CU_STREAM_NON_BLOCKING);
  EXPECT_NE(blocking.id(), free_running.id());
  EXPECT_EQ(cu::Stream::default_stream(0).id(), 0u);
}

TEST_F(StreamOrder, upload_on_default_launch_on_stream_read_on_default) {
  for (bool non_blocking : {true, false}) {
    cu::Stream s = cu::Stream::create(0, non_blocking);
    Array a = upload(1000);   // on the default stream
    scale(a, 2.0f, s);        // on s: must wait for the upload
    auto host = a.to_vector<float>();  // on the default stream: must wait for the kernel
    EXPECT_TRUE(races().empty()) << "non_blocking=" << non_blocking << joined(races()) << "\n"
                                 << log();
  }
}

TEST_F(StreamOrder, with_stream_work_is_waited_for_by_later_work_on_the_default_stream) {
  cu::Stream s = cu::Stream::create(0, /*non_blocking=*/true);
  Array a = upload(1000);
  Array c;
  {
    cu::StreamGuard on_s(s);  // Python's `with s:`
    c = (a * 3.0f).eval();    // a generated elementwise kernel on s
  }
  Array d = (c + a).eval();   // on the default stream again
  auto host = d.to_vector<float>();
  EXPECT_TRUE(races().empty()) << joined(races()) << "\n" << log();
}

TEST_F(StreamOrder, block_used_on_another_stream_is_reused_only_after_that_work) {
  cu::Stream s = cu::Stream::create(0, /*non_blocking=*/true);
  const void* freed = nullptr;
  {
    Array a = upload(4096);  // allocated on the default stream's pool
    scale(a, 2.0f, s);       // still queued on s when a is dropped
    freed = a.data();
  }
  Array b = upload(4096);  // the same block, from the default stream's pool
  ASSERT_EQ(b.data(), freed) << "the test needs the allocator to hand out the freed block";
  EXPECT_TRUE(races().empty()) << joined(races()) << "\n" << log();
}

TEST_F(StreamOrder, pools_are_keyed_by_stream_id_not_by_the_reused_handle) {
  const void* freed = nullptr;
  cu::CUstream first_handle = nullptr;
  {
    cu::Stream s1 = cu::Stream::create(0, /*non_blocking=*/true);
    first_handle = s1.handle();
    cu::StreamGuard on_s1(s1);
    Array a = Array::empty({4096}, accel::float32, kGpu);  // from s1's pool
    scale(a, 2.0f);  // queued on s1, which is destroyed with the work still running
    freed = a.data();
  }
  cu::Stream s2 = cu::Stream::create(0, /*non_blocking=*/true);
  ASSERT_EQ(s2.handle(), first_handle) << "the fake hands a destroyed stream's handle out again";
  cu::StreamGuard on_s2(s2);
  Array b = Array::empty({4096}, accel::float32, kGpu);
  EXPECT_NE(b.data(), freed) << "s2 got the block s1's queued kernel still uses";
  scale(b, 2.0f);
  EXPECT_TRUE(races().empty()) << joined(races()) << "\n" << log();
}

// host_mirror copies the bytes a view spans into a host block, which the host allocator may
// round up to a size class; copying the block's size instead of the span read past the end of
// the device allocation (CUDA_ERROR_INVALID_VALUE on the H200, x[::MiB] of 100 MiB). 6M floats
// get a 24 MiB segment of their own; x[1000:] spans 24 MiB - 4000 bytes, a host block of 24 MiB.
TEST_F(StreamOrder, a_views_host_copy_reads_only_the_span_it_covers) {
  const size_t n = 6u << 20;
  Array x = upload(n);
  for (int64_t start : {int64_t{1000}, int64_t{1}}) {
    Array tail = getitem(x, std::vector<accel::Index>{accel::Slice{start, std::nullopt, std::nullopt}});
    std::vector<float> got = to_device(tail, Device::cpu()).to_vector<float>();
    ASSERT_EQ(got.size(), n - static_cast<size_t>(start));
    EXPECT_EQ(got.front(), static_cast<float>(start));
    EXPECT_EQ(got.back(), static_cast<float>(n - 1));
  }
  Array strided = getitem(x, std::vector<accel::Index>{accel::Slice{int64_t{7}, std::nullopt, int64_t{1000}}});
  std::vector<float> got = to_device(strided, Device::cpu()).to_vector<float>();
  for (size_t i = 0; i < got.size(); ++i) ASSERT_EQ(got[i], static_cast<float>(7 + 1000 * i));
}

TEST_F(StreamOrder, copy_on_a_stream_waits_for_earlier_kernels_on_the_default_stream) {
  cu::Stream s = cu::Stream::create(0, /*non_blocking=*/true);
  Array a = upload(1000);
  scale(a, 2.0f);  // default stream
  std::vector<float> host(1000, 1.0f);
  cu::copy_async(a.data(), host.data(), a.nbytes(), cu::CopyKind::host_to_device, s);
  s.synchronize();
  EXPECT_TRUE(races().empty()) << joined(races()) << "\n" << log();
}

TEST_F(StreamOrder, dlpack_consumer_stream_waits_and_the_block_outlives_its_reads) {
  cu::Stream s = cu::Stream::create(0, /*non_blocking=*/true);
  cu::make_current(0);
  cu::CUstream consumer = nullptr;  // another library's stream, not accel's
  ASSERT_EQ(fake_cuda::fStreamCreate(&consumer, cu::CU_STREAM_NON_BLOCKING), cu::CUDA_SUCCESS);
  std::vector<float> host(4096);
  const void* exported = nullptr;
  {
    Array a = upload(4096);
    scale(a, 2.0f, s);
    cu::order_dlpack_export(a, static_cast<int64_t>(reinterpret_cast<uintptr_t>(consumer)));
    exported = a.data();
    // The consumer reads it on its stream, after accel's kernel.
    fake_cuda::fMemcpyDtoHAsync(host.data(), reinterpret_cast<cu::CUdeviceptr>(a.data()),
                                a.nbytes(), consumer);
  }
  // The consumer's read may still be queued: the block's next user must come after it.
  Array b = upload(4096);
  ASSERT_EQ(b.data(), exported);
  EXPECT_TRUE(races().empty()) << joined(races()) << "\n" << log();
  EXPECT_THROW(cu::order_dlpack_export(b, 0), accel::ValueError);
  fake_cuda::fStreamDestroy(consumer);
}

TEST_F(StreamOrder, cuda_array_interface_stream_follows_accel_and_the_block_outlives_its_reads) {
  cu::Stream s = cu::Stream::create(0, /*non_blocking=*/true);
  cu::Stream current = cu::Stream::create(0, /*non_blocking=*/true);
  cu::make_current(0);
  std::vector<float> host(4096);
  const void* exported = nullptr;
  {
    Array a = upload(4096);
    scale(a, 2.0f, s);
    cu::StreamGuard guard(current);
    const int64_t stream = cu::order_interface_export(a);
    ASSERT_EQ(stream, static_cast<int64_t>(reinterpret_cast<uintptr_t>(current.handle())));
    exported = a.data();
    // The consumer reads on the stream the interface names, after accel's kernel on s.
    fake_cuda::fMemcpyDtoHAsync(host.data(), reinterpret_cast<cu::CUdeviceptr>(a.data()),
                                a.nbytes(), current.handle());
  }
  Array b = upload(4096);  // the same block: after the consumer's read
  ASSERT_EQ(b.data(), exported);
  EXPECT_TRUE(races().empty()) << joined(races()) << "\n" << log();
  EXPECT_EQ(cu::order_interface_export(b), 1);  // the default stream is the legacy one
}

TEST_F(StreamOrder, imported_memory_is_used_after_the_producers_stream) {
  cu::Stream s = cu::Stream::create(0, /*non_blocking=*/true);
  cu::make_current(0);
  cu::CUstream producer = nullptr;  // another library's stream, not accel's
  ASSERT_EQ(fake_cuda::fStreamCreate(&producer, cu::CU_STREAM_NON_BLOCKING), cu::CUDA_SUCCESS);
  Array a = upload(1024);
  cu::synchronize_device(0);
  // The producer writes the memory on its stream; accel's kernel on s reads and writes it.
  fake_cuda::fMemsetD8Async(reinterpret_cast<cu::CUdeviceptr>(a.data()), 0, a.nbytes(), producer);
  cu::wait_for_external(s, producer);
  scale(a, 2.0f, s);
  EXPECT_TRUE(races().empty()) << joined(races()) << "\n" << log();
  fake_cuda::fStreamDestroy(producer);
}

TEST_F(StreamOrder, parameter_sizes_are_asked_once_per_kernel) {
  Array a = upload(100);
  scale(a, 1.0f);
  const int calls = fake_cuda::state().param_info_calls;
  for (int i = 0; i < 3; ++i) scale(a, 1.0f);
  EXPECT_EQ(fake_cuda::state().param_info_calls, calls);
  ASSERT_TRUE(scale_kernel().parameter_sizes().has_value());
  EXPECT_EQ(*scale_kernel().parameter_sizes(), (std::vector<size_t>{8, 4, 8}));
}

TEST_F(StreamOrder, dynamic_shared_memory_opt_in_counts_static_shared_memory) {
  // A kernel of its own, so that its static shared memory is what the fake reports now.
  fake_cuda::state().static_shared = 20 * 1024;
  cu::Kernel k = cu::raw_kernel(std::string(kScale) + "// 20 KiB static", "scale", {}, 0);
  fake_cuda::state().static_shared = 0;
  EXPECT_EQ(k.static_shared_bytes(), 20u * 1024);
  Array a = upload(100);
  cu::KernelArgs args;
  args.add(a).add(1.0f).add(static_cast<long long>(a.size()));
  fake_cuda::state().dynamic_shared_opt_ins.clear();
  k(cu::Dim3{1}, cu::Dim3{32}, args, 20 * 1024);  // 40 KiB in all: under the default 48
  EXPECT_TRUE(fake_cuda::state().dynamic_shared_opt_ins.empty());
  k(cu::Dim3{1}, cu::Dim3{32}, args, 30 * 1024);  // 50 KiB in all: must opt in
  EXPECT_EQ(fake_cuda::state().dynamic_shared_opt_ins, (std::vector<int>{30 * 1024}));
  k(cu::Dim3{1}, cu::Dim3{32}, args, 30 * 1024);  // already opted in
  EXPECT_EQ(fake_cuda::state().dynamic_shared_opt_ins.size(), 1u);
  try {
    k(cu::Dim3{1}, cu::Dim3{32}, args, 210 * 1024);  // 230 KiB: past the 227 KiB opt-in limit
    ADD_FAILURE() << "expected LaunchError";
  } catch (const accel::LaunchError& e) {
    EXPECT_NE(std::string(e.what()).find("20480 static"), std::string::npos) << e.what();
  }
}

TEST_F(StreamOrder, blocks_past_the_kernels_launch_bounds_are_refused_before_the_launch) {
  fake_cuda::state().max_threads = 128;  // as for __launch_bounds__(128)
  cu::Kernel k = cu::raw_kernel(std::string(kScale) + "// bounded", "scale", {}, 0);
  fake_cuda::state().max_threads = 1024;
  EXPECT_EQ(k.max_threads_per_block(), 128);
  Array a = upload(100);
  cu::KernelArgs args;
  args.add(a).add(1.0f).add(static_cast<long long>(a.size()));
  k(cu::Dim3{1}, cu::Dim3{128}, args);
  try {
    k(cu::Dim3{1}, cu::Dim3{256}, args);
    ADD_FAILURE() << "expected LaunchError";
  } catch (const accel::LaunchError& e) {
    EXPECT_NE(std::string(e.what()).find("at most 128"), std::string::npos) << e.what();
  }
}

TEST_F(StreamOrder, sticky_errors_say_the_process_must_restart) {
  for (cu::CUresult r : {700, 702, 710, 714, 715, 716, 717, 718, 719, 999})
    EXPECT_TRUE(cu::is_sticky_error(r)) << r;
  EXPECT_FALSE(cu::is_sticky_error(cu::CUDA_ERROR_OUT_OF_MEMORY));
  for (cu::CUresult r : {714, 717, 718, 999}) {
    try {
      cu::driver().check(r, "cuLaunchKernel", "test");
      ADD_FAILURE() << "expected LaunchError";
    } catch (const accel::LaunchError& e) {
      EXPECT_NE(std::string(e.what()).find("restart the process"), std::string::npos) << e.what();
    }
  }
}

TEST_F(StreamOrder, destructors_make_a_context_current_on_threads_without_one) {
  auto stream = std::make_unique<cu::Stream>(cu::Stream::create(0));
  auto event = std::make_unique<cu::Event>(cu::Event::create(0));
  std::shared_ptr<void> pinned = cu::allocate_pinned(4096);
  const int before = fake_cuda::state().missing_context;
  std::thread([&] {
    ASSERT_EQ(fake_cuda::current_context, nullptr);
    stream.reset();
    event.reset();
    pinned.reset();
  }).join();
  EXPECT_EQ(fake_cuda::state().missing_context, before) << log();
}

TEST_F(StreamOrder, a_module_the_driver_refuses_names_both_versions_and_the_fix) {
  fake_cuda::state().module_load_result = cu::CUDA_ERROR_UNSUPPORTED_PTX_VERSION;
  try {
    cu::raw_kernel(std::string(kScale) + "// refused", "scale", {}, 0);
    ADD_FAILURE() << "expected LaunchError";
  } catch (const accel::LaunchError& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("supports CUDA 13.0"), std::string::npos) << m;
    EXPECT_NE(m.find("produced code for CUDA"), std::string::npos) << m;
    EXPECT_NE(m.find("install"), std::string::npos) << m;
  }
  fake_cuda::state().module_load_result = cu::CUDA_SUCCESS;
}

TEST_F(StreamOrder, a_python_two_as_exponent_squares_on_cuda_as_on_the_cpu) {
  Array a = upload(10);
  const Array two = Array::scalar(2.0, /*weak=*/true, kGpu);  // what Python's `x ** 2` passes
  Array r = accel::pow(a, two);
  ASSERT_TRUE(r.is_pending());
  EXPECT_EQ(r.impl()->node->op, accel::OpId::square);
  EXPECT_EQ(accel::pow(a, Array::scalar(0.5, true, kGpu)).impl()->node->op, accel::OpId::sqrt);
  EXPECT_EQ(accel::pow(a, Array::scalar(3.0, true, kGpu)).impl()->node->op, accel::OpId::pow);
  EXPECT_TRUE(accel::is_read_only(two));  // so its host copy of the value cannot go stale
}

TEST_F(StreamOrder, a_sort_on_a_stream_runs_its_radix_passes_there_and_is_read_without_races) {
  cu::Stream s = cu::Stream::create(0, /*non_blocking=*/true);
  Array a = upload(5000);  // on the default stream
  size_t modules_before;
  {
    std::lock_guard<std::recursive_mutex> lock(fake_cuda::state().mutex);
    fake_cuda::state().launches.clear();
    modules_before = fake_cuda::state().modules.size();
  }
  Array values, indices, found;
  {
    cu::StreamGuard on_s(s);
    values = accel::sort(a, -1, false, true);
    indices = accel::argsort(a, -1, true, true);
    found = accel::searchsorted(values, a, false, std::nullopt);
  }
  auto host = values.to_vector<float>();  // on the default stream: waits for s
  auto where = found.to_vector<int64_t>();
  EXPECT_TRUE(races().empty()) << joined(races()) << "\n" << log();
  // float32 keys: 8 radix passes of count, scan, scatter per sort; one search.
  std::map<std::string, int> launched;
  for (const auto& l : fake_cuda::state().launches)
    for (const char* k : {"sort_keys", "sort_count", "sort_scan_counts", "sort_scatter",
                          "sort_write", "sort_search", "sort_segment_keys"})
      if (l.name.find(std::to_string(std::strlen(k)) + k) != std::string::npos) ++launched[k];
  EXPECT_EQ(launched["sort_keys"], 2);
  EXPECT_EQ(launched["sort_scatter"], 16);
  EXPECT_EQ(launched["sort_count"], 16);
  EXPECT_EQ(launched["sort_scan_counts"], 16);
  EXPECT_EQ(launched["sort_write"], 2);
  EXPECT_EQ(launched["sort_search"], 1);
  EXPECT_EQ(launched["sort_segment_keys"], 0);  // one row
  // The sort's kernels compile as one module (KernelRunner::prepare), the search as another.
  EXPECT_EQ(fake_cuda::state().modules.size() - modules_before, 2u);
}

TEST(NvrtcVersion, an_nvrtc_newer_than_the_drivers_cuda_major_does_not_fit) {
  EXPECT_FALSE(cu::nvrtc_fits_driver(13, 12));
  EXPECT_TRUE(cu::nvrtc_fits_driver(12, 12));
  EXPECT_TRUE(cu::nvrtc_fits_driver(12, 13));
  EXPECT_TRUE(cu::nvrtc_fits_driver(0, 12));  // libnvrtc.so: version known only once loaded
  EXPECT_TRUE(cu::nvrtc_fits_driver(13, 0));  // no driver: compiling for a named arch
}
