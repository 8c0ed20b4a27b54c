// Several threads at once in the parts of accel that are shared by the whole process: the thread
// pool, the host allocator, the kernel cache and the host JIT (background compiles racing with
// interpretation). Every result is checked by value; nothing depends on timing. scripts/sanitize
// runs this under ThreadSanitizer, where a data race fails the test.
#include <gtest/gtest.h>
#include <unistd.h>

#include <accel/accel.h>

#include <atomic>
#include <cstring>
#include <filesystem>
#include <numeric>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "accel/backend/cpu/host_allocator.h"
#include "accel/backend/cpu/host_jit.h"
#include "accel/backend/cpu/thread_pool.h"
#include "accel/ir/fuse.h"
#include "accel/ops/axis_view.h"
#include "accel/runtime/kernel_cache.h"

namespace fs = std::filesystem;
using namespace accel;

namespace {

constexpr int kThreads = 4;

// Runs body(t) on kThreads threads at once and waits for them all.
template <class F>
void on_threads(F body) {
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) threads.emplace_back([&body, t] { body(t); });
  for (auto& th : threads) th.join();
}

// The process's kernel cache lives in a directory of its own, chosen before first use, so the
// host JIT compiles here instead of loading an earlier run's kernels.
const fs::path& cache_dir() {
  static const fs::path dir = [] {
    fs::path d = fs::temp_directory_path() / ("accel-concurrency-test-" + std::to_string(getpid()));
    fs::remove_all(d);
    setenv("ACCEL_CACHE_DIR", d.c_str(), 1);
    return d;
  }();
  return dir;
}
const fs::path& kCacheDir = cache_dir();

class RemoveCacheDir : public ::testing::Environment {
  void TearDown() override { fs::remove_all(kCacheDir); }
};
const auto* const kRemoveCacheDir = ::testing::AddGlobalTestEnvironment(new RemoveCacheDir);

// A pool with more workers than callers would have on a 2-core machine, for the duration of a
// test (set_num_threads must not run while work does, so it is changed outside the threads).
struct PoolSize {
  int saved = cpu::num_threads();
  explicit PoolSize(int n) { cpu::set_num_threads(n); }
  ~PoolSize() { cpu::set_num_threads(saved); }
};

}  // namespace

TEST(ThreadPoolConcurrency, callers_on_several_threads_each_get_their_own_exact_sums) {
  PoolSize pool(4);
  std::vector<int64_t> sums(kThreads);
  on_threads([&](int t) {
    std::vector<int64_t> v(200000);
    std::iota(v.begin(), v.end(), int64_t(t) * 1000);
    for (int round = 0; round < 20; ++round) {
      std::vector<int64_t> partial(v.size(), 0);
      cpu::parallel_for(static_cast<int64_t>(v.size()), 1000, [&](int64_t b, int64_t e) {
        for (int64_t i = b; i < e; ++i) partial[i] = v[i] * 2;
      });
      sums[t] = std::accumulate(partial.begin(), partial.end(), int64_t(0));
    }
  });
  for (int t = 0; t < kThreads; ++t) {
    const int64_t n = 200000, first = int64_t(t) * 1000;
    EXPECT_EQ(sums[t], 2 * (n * first + n * (n - 1) / 2)) << "thread " << t;
  }
}

TEST(ThreadPoolConcurrency, nested_parallel_for_inside_chunks_covers_every_pair_once) {
  PoolSize pool(3);
  on_threads([&](int t) {
    constexpr int64_t rows = 64, cols = 500;
    std::vector<std::atomic<int>> hits(rows * cols);
    cpu::parallel_for(rows, 1, [&](int64_t rb, int64_t re) {
      for (int64_t r = rb; r < re; ++r)
        cpu::parallel_for(cols, 10, [&](int64_t cb, int64_t ce) {
          for (int64_t c = cb; c < ce; ++c) hits[r * cols + c]++;
        });
    });
    for (auto& h : hits) ASSERT_EQ(h.load(), 1) << "thread " << t;
  });
}

TEST(ThreadPoolConcurrency, an_exception_reaches_only_the_caller_whose_work_threw) {
  PoolSize pool(4);
  std::atomic<int> thrown{0}, clean{0};
  on_threads([&](int t) {
    for (int round = 0; round < 50; ++round) {
      std::atomic<int64_t> covered{0};
      try {
        cpu::parallel_for(1 << 16, 256, [&](int64_t b, int64_t e) {
          if (t % 2 == 0 && b > 0) throw std::runtime_error("chunk failed");
          covered += e - b;
        });
        EXPECT_EQ(t % 2, 1) << "thread " << t << " should have seen its exception";
        EXPECT_EQ(covered.load(), 1 << 16);
        ++clean;
      } catch (const std::runtime_error&) {
        EXPECT_EQ(t % 2, 0) << "thread " << t << " got another caller's exception";
        ++thrown;
      }
    }
  });
  EXPECT_EQ(thrown.load(), kThreads / 2 * 50);
  EXPECT_EQ(clean.load(), kThreads / 2 * 50);
}

TEST(HostAllocatorConcurrency, blocks_handed_to_threads_at_once_never_overlap) {
  cpu::HostAllocator& alloc = cpu::host_allocator();
  const size_t in_use_before = alloc.stats().in_use;
  // Sizes in the small classes and in the best-fit pool, some equal so blocks get reused.
  const size_t sizes[] = {8, 64, 100, 640, 4096, 5000, 70000, 262144, 1 << 20};
  on_threads([&](int t) {
    struct Held {
      std::shared_ptr<Buffer> buf;
      size_t n;
      unsigned char mark;
    };
    std::vector<Held> live;
    for (int i = 0; i < 400; ++i) {
      const size_t n = sizes[(i * 7 + t) % std::size(sizes)];
      auto buf = alloc.allocate(n);
      ASSERT_GE(buf->nbytes(), n);
      // Tiny blocks live beside their Buffer, 16-byte aligned as malloc's; the others 64.
      const size_t align = n <= cpu::HostAllocator::kInlineMax ? 16 : cpu::HostAllocator::kAlignment;
      ASSERT_EQ(reinterpret_cast<uintptr_t>(buf->data()) % align, 0u);
      const auto mark = static_cast<unsigned char>(t * 61 + i);
      std::memset(buf->data(), mark, n);
      live.push_back({std::move(buf), n, mark});
      if (live.size() > 6 || i % 5 == 0) {
        // A block also handed to another thread would hold that thread's bytes by now.
        const Held& old = live.front();
        const auto* p = static_cast<const unsigned char*>(old.buf->data());
        for (size_t k = 0; k < old.n; k += 31) ASSERT_EQ(p[k], old.mark) << "thread " << t;
        ASSERT_EQ(p[old.n - 1], old.mark) << "thread " << t;
        live.erase(live.begin());
      }
      if (t == 0 && i % 50 == 0) alloc.free_cached();  // dropping the cache while others reuse it
    }
  });
  EXPECT_EQ(alloc.stats().in_use, in_use_before);
}

// Array descriptions (ArrayImpl) come from a per-thread cache of freed blocks
// (core/array_impl_cache.h). Views made on one thread and dropped on another put their blocks in
// the other thread's cache, which hands them out again: a block in two places at once would show
// here as a view with another view's offset or shape.
TEST(ArrayImplCacheConcurrency, views_dropped_on_other_threads_never_share_a_description) {
  const Array x = reshape(arange(0, 1000, 1, Dtype::int64, Device::cpu()), {10, 100});
  x.eval();
  std::vector<Array> handed[kThreads];
  std::atomic<int> ready{0};
  on_threads([&](int t) {
    for (int i = 0; i < 300; ++i) handed[t].push_back(axis_index(x, 0, (i + t) % 10));
    ready.fetch_add(1);
    while (ready.load() < kThreads) std::this_thread::yield();
    // Drop another thread's views (their blocks join this thread's cache) while making new
    // ones, and check both.
    std::vector<Array>& theirs = handed[(t + 1) % kThreads];
    std::vector<Array> mine;
    for (int i = 0; i < 300; ++i) {
      const int64_t row = (i + (t + 1) % kThreads) % 10;
      ASSERT_EQ(theirs[i].shape(), Shape{100});
      ASSERT_EQ(theirs[i].offset(), row * 100);
      theirs[i] = Array();
      mine.push_back(axis_index(x, 0, i % 10));
      ASSERT_EQ(mine.back().offset(), (i % 10) * 100);
    }
    for (int i = 0; i < 300; ++i) {
      ASSERT_EQ(mine[i].shape(), Shape{100});
      ASSERT_EQ(axis_index(mine[i], 0, 7).item<int64_t>(), (i % 10) * 100 + 7);
    }
  });
}

TEST(KernelCacheConcurrency, threads_sharing_one_cache_never_see_a_wrong_or_partial_entry) {
  const fs::path dir = kCacheDir / "shared-object";
  KernelCache cache(dir);
  const std::string key = sha256_hex("one kernel for everyone");
  const std::string bytes(100000, 'k');
  std::atomic<int> bad{0};
  on_threads([&](int t) {
    for (int i = 0; i < 30; ++i) {
      auto loaded = cache.load(key);
      if (loaded && *loaded != bytes) ++bad;
      if (!loaded) cache.store(key, bytes);
      if (cache.load(key).value_or("") != bytes) ++bad;
      auto path = cache.load_path(key);
      if (!path || fs::file_size(*path) != bytes.size()) ++bad;
      const std::string own = "thread " + std::to_string(t) + " kernel " + std::to_string(i);
      const std::string own_bytes(1000 + i, static_cast<char>('a' + t));
      cache.store(own, own_bytes);
      if (cache.load(own).value_or("") != own_bytes) ++bad;
    }
  });
  EXPECT_EQ(bad.load(), 0);
  KernelCacheStats s = cache.stats();
  EXPECT_EQ(s.entries, 1u + kThreads * 30);
  EXPECT_EQ(s.corrupt, 0u);
  fs::remove_all(dir);
}

TEST(KernelCacheConcurrency, eviction_racing_with_loads_returns_whole_entries_or_misses) {
  const fs::path dir = kCacheDir / "evicting";
  // Room for about ten of the entries below: every store evicts while other threads load.
  KernelCache cache(dir, 10 * 2200);
  std::atomic<int> bad{0}, hits{0};
  on_threads([&](int t) {
    for (int i = 0; i < 40; ++i) {
      const std::string key = "evict " + std::to_string(t) + " " + std::to_string(i);
      const std::string value(2000 + t, static_cast<char>('A' + i % 26));
      cache.store(key, value);
      // This entry may already have been evicted by another thread; it is never wrong.
      for (int back = 0; back <= std::min(i, 3); ++back) {
        const std::string k = "evict " + std::to_string(t) + " " + std::to_string(i - back);
        auto got = cache.load(k);
        if (!got) continue;
        ++hits;
        if (*got != std::string(2000 + t, static_cast<char>('A' + (i - back) % 26))) ++bad;
      }
    }
  });
  EXPECT_EQ(bad.load(), 0);
  EXPECT_GT(hits.load(), 0);
  KernelCacheStats s = cache.stats();
  EXPECT_GT(s.evictions, 0u);
  EXPECT_LE(s.bytes, 10u * 2200);
  EXPECT_EQ(s.corrupt, 0u);
  fs::remove_all(dir);
}

namespace {

// A fused int64 chain the JIT compiles (two or more ops, contiguous and scalar operands): exact
// values whether it is interpreted or compiled. Every thread builds the same kernel (the scalars
// are operands), with its own numbers.
Array chain(const Array& x, int64_t a, int64_t b) {
  return x * weak_scalar(a, Device::cpu()) + weak_scalar(b, Device::cpu()) * x - x;
}

void expect_chain(const Array& y, const std::vector<int64_t>& x, int64_t a, int64_t b, int t) {
  std::vector<int64_t> got = y.to_vector<int64_t>();
  ASSERT_EQ(got.size(), x.size());
  for (size_t i = 0; i < x.size(); ++i)
    ASSERT_EQ(got[i], x[i] * a + b * x[i] - x[i]) << "thread " << t << " element " << i;
}

}  // namespace

TEST(HostJitConcurrency, background_compile_races_with_interpretation_on_several_threads) {
  ASSERT_TRUE(cpu::host_jit_enabled());
  const uint64_t runs_before = cpu::host_jit_stats().jit_runs;
  // 2^15 elements: compiled in the background once a kernel has run three times.
  constexpr int64_t n = int64_t(1) << 15;
  on_threads([&](int t) {
    std::vector<int64_t> xs(n);
    std::iota(xs.begin(), xs.end(), int64_t(t) * n - n);
    Array x = Array::from_vector(xs, {n}, Device::cpu());
    for (int round = 0; round < 12; ++round) {
      const int64_t a = t + round, b = 3 - round;
      expect_chain(chain(x, a, b).eval(), xs, a, b, t);
    }
  });
  cpu::host_jit_wait();
  cpu::HostJitStats s = cpu::host_jit_stats();
  ASSERT_EQ(s.failures, 0u) << s.compiler;
  ASSERT_GE(s.compiles + s.disk_hits, 1u) << s.compiler;
  // Now compiled: every thread runs it (on the pool) and still gets exact values.
  on_threads([&](int t) {
    std::vector<int64_t> xs(n, t + 1);
    Array x = Array::from_vector(xs, {n}, Device::cpu());
    expect_chain(chain(x, 5, -t).eval(), xs, 5, -t, t);
  });
  EXPECT_GE(cpu::host_jit_stats().jit_runs, runs_before + kThreads);
}

TEST(HostJitConcurrency, threads_compiling_one_kernel_at_once_all_get_a_working_kernel) {
  std::vector<int64_t> xs(1000);
  std::iota(xs.begin(), xs.end(), -500);
  Array x = Array::from_vector(xs, {1000}, Device::cpu());
  // A kernel no other test made: three ops, so its hash (and its cache entry) is new.
  Array y = (x * weak_scalar(int64_t(7), Device::cpu()) - x) * x;
  Array roots[] = {y};
  ir::FusedRegion region = ir::fuse_elementwise(roots);
  ASSERT_EQ(region.ir.outputs.size(), 1u);
  std::vector<std::vector<int64_t>> outs(kThreads, std::vector<int64_t>(1000));
  on_threads([&](int t) {
    cpu::HostKernel fn = cpu::compile_host_kernel(region.ir);
    ASSERT_NE(fn, nullptr);
    std::vector<char*> ptrs;
    for (const Array& in : region.inputs) ptrs.push_back(static_cast<char*>(in.data()));
    ptrs.push_back(reinterpret_cast<char*>(outs[t].data()));
    fn(ptrs.data(), 0, 1000);
  });
  for (int t = 0; t < kThreads; ++t)
    for (size_t i = 0; i < xs.size(); ++i)
      ASSERT_EQ(outs[t][i], (xs[i] * 7 - xs[i]) * xs[i]) << "thread " << t << " element " << i;
}
