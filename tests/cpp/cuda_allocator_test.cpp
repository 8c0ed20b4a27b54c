// The CUDA caching allocator's bookkeeping, run over host memory (no GPU needed): rounding,
// reuse, best fit, splitting and merging, per-stream pools, the limit, and out-of-memory
// recovery by releasing the cache.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <set>
#include <vector>

#include "accel/backend/cuda/caching_allocator.h"
#include "accel/runtime/errors.h"

using accel::cuda::CachingAllocator;
using accel::cuda::SegmentSource;

namespace {

constexpr size_t MiB = size_t(1) << 20;

// Host memory standing in for a device with `capacity` bytes.
class FakeDevice final : public SegmentSource {
 public:
  explicit FakeDevice(size_t capacity, int* syncs = nullptr) : capacity_(capacity), syncs_(syncs) {}
  ~FakeDevice() override {
    for (void* p : live_) std::free(p);
  }
  void* allocate(size_t bytes) override {
    if (used_ + bytes > capacity_) return nullptr;
    void* p = std::malloc(bytes);
    used_ += bytes;
    sizes_[p] = bytes;
    live_.insert(p);
    ++allocations;
    return p;
  }
  void free(void* p) override {
    used_ -= sizes_[p];
    live_.erase(p);
    std::free(p);
    ++frees;
  }
  std::pair<size_t, size_t> memory_info() override { return {capacity_ - used_, capacity_}; }
  void synchronize() override {
    if (syncs_) ++*syncs_;
  }
  void order_reuse(CachingAllocator::StreamId pool, CachingAllocator::StreamId user) noexcept override {
    orderings.emplace_back(pool, user);
  }
  int allocations = 0, frees = 0;
  std::vector<std::pair<CachingAllocator::StreamId, CachingAllocator::StreamId>> orderings;

 private:
  size_t capacity_, used_ = 0;
  int* syncs_;
  std::set<void*> live_;
  std::map<void*, size_t> sizes_;
};

struct Fixture {
  FakeDevice* device;
  CachingAllocator allocator;
  explicit Fixture(size_t capacity, int* syncs = nullptr)
      : device(new FakeDevice(capacity, syncs)),
        allocator(accel::Device::cuda(0), std::unique_ptr<SegmentSource>(device)) {}
};

uintptr_t addr(const std::shared_ptr<accel::Buffer>& b) { return reinterpret_cast<uintptr_t>(b->data()); }

}  // namespace

TEST(CachingAllocator, sizes_round_up_to_512_bytes) {
  EXPECT_EQ(CachingAllocator::round_size(0), 512u);
  EXPECT_EQ(CachingAllocator::round_size(1), 512u);
  EXPECT_EQ(CachingAllocator::round_size(512), 512u);
  EXPECT_EQ(CachingAllocator::round_size(513), 1024u);
  EXPECT_EQ(CachingAllocator::round_size(3 * MiB + 1), 3 * MiB + 512);
}

TEST(CachingAllocator, small_blocks_share_one_segment_and_are_reused) {
  Fixture f(1024 * MiB);
  auto a = f.allocator.allocate(1000, 0);
  auto b = f.allocator.allocate(4000, 0);
  EXPECT_EQ(f.device->allocations, 1);  // one 2 MiB segment
  EXPECT_EQ(addr(b), addr(a) + 1024);   // b was split off right after a
  uintptr_t old = addr(a);
  a.reset();
  auto c = f.allocator.allocate(900, 0);
  EXPECT_EQ(addr(c), old);  // the freed block came back
  auto s = f.allocator.stats();
  EXPECT_EQ(s.allocations, 3u);
  EXPECT_EQ(s.cache_hits, 2u);
  EXPECT_EQ(s.in_use, 1024u + 4096u);
  EXPECT_EQ(s.cached, 2 * MiB - s.in_use);
}

TEST(CachingAllocator, freed_neighbours_merge_back_into_one_block) {
  Fixture f(1024 * MiB);
  auto a = f.allocator.allocate(300 * 1024, 0);
  auto b = f.allocator.allocate(300 * 1024, 0);
  auto c = f.allocator.allocate(300 * 1024, 0);
  uintptr_t start = addr(a);
  a.reset();
  c.reset();  // merges with the free rest of the segment
  b.reset();  // merges with both neighbours
  // Only a merged block can hold 900 KiB at the start of the segment.
  auto whole = f.allocator.allocate(900 * 1024, 0);
  EXPECT_EQ(addr(whole), start);
  EXPECT_EQ(f.device->allocations, 1);
}

TEST(CachingAllocator, best_fit_picks_the_smallest_free_block_that_fits) {
  Fixture f(1024 * MiB);
  auto big = f.allocator.allocate(64 * MiB, 0);
  auto fence1 = f.allocator.allocate(8 * MiB, 0);
  auto mid = f.allocator.allocate(32 * MiB, 0);
  auto fence2 = f.allocator.allocate(8 * MiB, 0);
  uintptr_t mid_addr = addr(mid);
  big.reset();
  mid.reset();
  auto c = f.allocator.allocate(30 * MiB, 0);
  EXPECT_EQ(addr(c), mid_addr);
}

TEST(CachingAllocator, large_requests_get_their_own_rounded_segment) {
  Fixture f(1024 * MiB);
  auto a = f.allocator.allocate(25 * MiB + 3, 0);
  EXPECT_EQ(f.allocator.reserved(), 26 * MiB);  // rounded to 2 MiB
  auto b = f.allocator.allocate(3 * MiB, 0);    // mid-sized: a 20 MiB segment, split
  EXPECT_EQ(f.allocator.reserved(), 46 * MiB);
  EXPECT_EQ(f.allocator.segment_count(), 2u);
}

TEST(CachingAllocator, blocks_freed_on_one_stream_are_not_given_to_another) {
  Fixture f(1024 * MiB);
  auto a = f.allocator.allocate(4096, /*stream=*/1);
  uintptr_t old = addr(a);
  a.reset();
  auto b = f.allocator.allocate(4096, /*stream=*/2);
  EXPECT_NE(addr(b), old);
  auto c = f.allocator.allocate(4096, /*stream=*/1);
  EXPECT_EQ(addr(c), old);
}

TEST(CachingAllocator, a_block_used_on_another_stream_orders_its_pool_stream_when_freed) {
  Fixture f(1024 * MiB);
  auto a = f.allocator.allocate(4096, /*stream=*/1);
  const char* inside = static_cast<const char*>(a->data()) + 100;
  EXPECT_EQ(f.allocator.note_use(inside, 1), std::nullopt);  // its own stream: nothing to order
  EXPECT_EQ(f.allocator.note_use(inside, 2), std::optional<CachingAllocator::StreamId>(1));
  EXPECT_EQ(f.allocator.note_use(a->data(), 2), std::nullopt);  // 2 is the last user now
  EXPECT_EQ(f.allocator.note_use(a->data(), 3), std::optional<CachingAllocator::StreamId>(2));
  int unknown = 0;
  EXPECT_EQ(f.allocator.note_use(&unknown, 2), std::nullopt);  // not the allocator's memory
  const uintptr_t block = addr(a);
  a.reset();
  // Stream 1's pool gets it back only once stream 1 waits for stream 3, its last user.
  ASSERT_EQ(f.device->orderings.size(), 1u);
  EXPECT_EQ(f.device->orderings[0], std::make_pair(CachingAllocator::StreamId(1), CachingAllocator::StreamId(3)));
  EXPECT_EQ(addr(f.allocator.allocate(4096, 1)), block);
  // A block used only on its own stream needs no ordering.
  f.allocator.allocate(4096, 1).reset();
  EXPECT_EQ(f.device->orderings.size(), 1u);
}

TEST(CachingAllocator, free_cached_returns_only_fully_free_segments) {
  int syncs = 0;
  Fixture f(1024 * MiB, &syncs);
  auto keep = f.allocator.allocate(1000, 0);
  auto drop = f.allocator.allocate(50 * MiB, 0);
  drop.reset();
  EXPECT_EQ(f.allocator.segment_count(), 2u);
  f.allocator.free_cached();
  EXPECT_EQ(syncs, 1);  // waits for the device before returning memory
  EXPECT_EQ(f.allocator.segment_count(), 1u);
  EXPECT_EQ(f.device->frees, 1);
  auto s = f.allocator.stats();
  EXPECT_EQ(s.in_use, 1024u);
  EXPECT_EQ(s.cached, 2 * MiB - 1024);
}

TEST(CachingAllocator, peak_tracks_the_highest_use) {
  Fixture f(1024 * MiB);
  auto a = f.allocator.allocate(10 * MiB, 0);
  auto b = f.allocator.allocate(10 * MiB, 0);
  a.reset();
  b.reset();
  auto s = f.allocator.stats();
  EXPECT_EQ(s.in_use, 0u);
  EXPECT_EQ(s.peak, 20 * MiB);
}

TEST(CachingAllocator, out_of_memory_releases_the_cache_and_retries) {
  Fixture f(100 * MiB);
  { auto a = f.allocator.allocate(60 * MiB, 0); }  // now cached, not in use
  auto b = f.allocator.allocate(70 * MiB, /*stream=*/5);  // other stream: cannot reuse a's block
  EXPECT_EQ(f.device->frees, 1);
  EXPECT_EQ(f.allocator.stats().cached, 0u);
  EXPECT_EQ(f.allocator.stats().oom_retries, 1u);  // what the profiler reports
  EXPECT_NE(b, nullptr);
}

TEST(CachingAllocator, out_of_memory_error_carries_the_numbers) {
  Fixture f(100 * MiB);
  auto a = f.allocator.allocate(40 * MiB, 0);
  try {
    f.allocator.allocate(80 * MiB, 0);
    FAIL() << "expected OutOfMemoryError";
  } catch (const accel::OutOfMemoryError& e) {
    EXPECT_EQ(e.requested, 80 * MiB);
    EXPECT_EQ(e.in_use, 40 * MiB);
    EXPECT_EQ(e.total, 100 * MiB);
    EXPECT_EQ(e.free, 60 * MiB);
    std::string msg = e.what();
    EXPECT_NE(msg.find("[allocate cuda:0] out of memory allocating 80.00 MiB"), std::string::npos)
        << msg;
  }
  EXPECT_EQ(f.allocator.stats().oom_retries, 1u);  // a retry that failed counts too
  auto c = f.allocator.allocate(50 * MiB, 0);  // the allocator still works
  EXPECT_NE(c, nullptr);
  EXPECT_EQ(f.allocator.stats().oom_retries, 1u);
}

TEST(CachingAllocator, the_limit_acts_like_a_smaller_device) {
  Fixture f(1024 * MiB);
  f.allocator.set_limit(30 * MiB);
  auto a = f.allocator.allocate(25 * MiB, 0);
  EXPECT_THROW(f.allocator.allocate(10 * MiB, 0), accel::OutOfMemoryError);
  a.reset();
  auto b = f.allocator.allocate(28 * MiB, 0);  // fits once the cache is released
  EXPECT_LE(f.allocator.reserved(), 30 * MiB);
}

TEST(CachingAllocator, many_random_allocations_keep_the_books_balanced) {
  Fixture f(size_t(64) << 30);  // address space only: malloc touches no pages
  std::vector<std::shared_ptr<accel::Buffer>> live;
  uint64_t seed = 12345;
  auto next = [&] { return seed = seed * 6364136223846793005ULL + 1442695040888963407ULL; };
  for (int i = 0; i < 2000; ++i) {
    if (!live.empty() && next() % 3 == 0) {
      live.erase(live.begin() + static_cast<long>(next() % live.size()));
    } else {
      size_t size = next() % 4 == 0 ? next() % (12 * MiB) : next() % 100000;
      live.push_back(f.allocator.allocate(size, next() % 2));
    }
  }
  // No two live blocks overlap.
  std::vector<std::pair<uintptr_t, size_t>> spans;
  for (auto& b : live) spans.emplace_back(addr(b), b->nbytes());
  std::sort(spans.begin(), spans.end());
  for (size_t i = 1; i < spans.size(); ++i)
    EXPECT_LE(spans[i - 1].first + spans[i - 1].second, spans[i].first);
  live.clear();
  auto s = f.allocator.stats();
  EXPECT_EQ(s.in_use, 0u);
  EXPECT_EQ(s.cached, f.allocator.reserved());
  f.allocator.free_cached();
  EXPECT_EQ(f.allocator.reserved(), 0u);
  EXPECT_EQ(f.allocator.segment_count(), 0u);
}

// ---------------------------------------------------------------- memory-pressure hooks

namespace {
std::shared_ptr<accel::Buffer> g_held;  // what a library cache (cuFFT's plans) would hold
std::vector<int> g_hook_devices;
void give_back_held(int device) {
  g_hook_devices.push_back(device);
  g_held.reset();  // returns a block to the allocator from inside its retry: no lock may be held
}
}  // namespace

TEST(CachingAllocatorPressure, out_of_memory_runs_the_hooks_then_retries_with_what_they_freed) {
  accel::cuda::add_memory_pressure_hook(&give_back_held);
  accel::cuda::add_memory_pressure_hook(&give_back_held);  // registered once
  g_hook_devices.clear();
  CachingAllocator a(accel::Device::cuda(3), std::make_unique<FakeDevice>(40 * MiB));
  auto kept = a.allocate(15 * MiB, 0);
  g_held = a.allocate(15 * MiB, 0);
  auto third = a.allocate(15 * MiB, 0);  // fits only once the hook has given g_held back
  EXPECT_NE(third, nullptr);
  EXPECT_EQ(g_held, nullptr);
  EXPECT_EQ(g_hook_devices, std::vector<int>{3});
  EXPECT_EQ(a.stats().oom_retries, 1u);
  a.free_cached();  // free_cached runs them too
  EXPECT_EQ(g_hook_devices, (std::vector<int>{3, 3}));
}
