// The profiler's C++ API (accel/runtime/profiler.h): sessions, what evaluation records, nesting,
// and recording from many threads at once.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <thread>

#include "accel/accel.h"
#include "accel/backend/backend.h"

namespace accel {
namespace {

using profile::EventKind;

std::vector<profile::Event> of_kind(const std::vector<profile::Event>& events, EventKind k) {
  std::vector<profile::Event> out;
  for (const auto& e : events)
    if (e.kind == k) out.push_back(e);
  return out;
}

TEST(Profile, BackendIsWrappedOnlyDuringASession) {
  Backend* plain = &backend_for(Device::cpu());
  {
    profile::Session s;
    EXPECT_NE(&backend_for(Device::cpu()), plain);
    EXPECT_EQ(backend_for(Device::cpu()).device(), Device::cpu());
  }
  EXPECT_EQ(&backend_for(Device::cpu()), plain);
  EXPECT_FALSE(profile::active());
}

TEST(Profile, FusedChainRecordsOpsRegionAndKernel) {
  Array a = ones({50000}, Dtype::float32);
  profile::Session s;
  Array y = exp(a) + a;
  y.eval();
  auto events = s.stop();
  auto ops = of_kind(events, EventKind::op);
  ASSERT_EQ(ops.size(), 2u);
  EXPECT_EQ(ops[0].name, "exp");
  EXPECT_EQ(ops[1].name, "add");
  EXPECT_EQ(ops[1].detail, "(50000,) float32, (50000,) float32 -> (50000,) float32");
  auto regions = of_kind(events, EventKind::region);
  ASSERT_EQ(regions.size(), 1u);
  EXPECT_TRUE(regions[0].flags & profile::kFused);
  EXPECT_EQ(regions[0].members, (std::vector<int64_t>{ops[1].id, ops[0].id}));
  auto kernels = of_kind(events, EventKind::kernel);
  auto fused = std::find_if(kernels.begin(), kernels.end(),
                            [&](const profile::Event& k) { return k.region == regions[0].id; });
  ASSERT_NE(fused, kernels.end());
  EXPECT_EQ(fused->name, "fused(exp+add)");
  EXPECT_EQ(fused->bytes, 50000 * 4 * 2);
  EXPECT_GT(fused->depth, regions[0].depth);
}

TEST(Profile, NothingRecordedAfterStop) {
  Array a = ones({50000}, Dtype::float32);
  { profile::Session s; }
  profile::Session s;
  auto events = s.stop();
  (a * a).eval();
  EXPECT_TRUE(events.empty());
  profile::Session again;
  EXPECT_TRUE(again.stop().empty());
}

TEST(Profile, SecondSessionIsRefused) {
  profile::Session s;
  EXPECT_THROW(profile::start(), Error);
}

TEST(Profile, ScopesNestPerThread) {
  profile::Session s;
  {
    profile::Scope outer(EventKind::sync, "outer");
    profile::Scope inner(EventKind::kernel, "inner");
  }
  auto events = s.stop();
  ASSERT_EQ(events.size(), 2u);
  EXPECT_EQ(events[0].name, "inner");
  EXPECT_EQ(events[0].depth, 1);
  EXPECT_EQ(events[1].depth, 0);
  EXPECT_LE(events[1].start_ns, events[0].start_ns);
  EXPECT_GE(events[1].start_ns + events[1].dur_ns, events[0].start_ns + events[0].dur_ns);
}

TEST(Profile, ReadToHostIsOneWaitIncludingTheEvaluation) {
  Array a = ones({50000}, Dtype::float32);
  profile::Session s;
  std::vector<float> v = (a * 2).to_vector<float>();
  auto events = s.stop();
  auto waits = of_kind(events, EventKind::sync);
  ASSERT_EQ(waits.size(), 1u);
  EXPECT_EQ(waits[0].name, "to_host");
  EXPECT_NE(waits[0].detail.find("pending"), std::string::npos);
  EXPECT_EQ(v[0], 2.0f);
}

TEST(Profile, ManyThreadsRecordEveryEvent) {
  constexpr int kThreads = 8, kEach = 2000;
  profile::Session s;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([] {
      for (int i = 0; i < kEach; ++i) profile::Scope scope(EventKind::kernel, "k");
    });
  for (auto& t : threads) t.join();
  auto events = s.stop();
  EXPECT_EQ(events.size(), size_t{kThreads * kEach});
  std::set<uint32_t> ids;
  for (const auto& e : events) ids.insert(e.thread);
  EXPECT_EQ(ids.size(), size_t{kThreads});
}

}  // namespace
}  // namespace accel
