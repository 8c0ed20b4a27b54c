#include "accel/backend/cpu/host_allocator.h"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cstdlib>
#include <cstring>
#include <new>

#include "accel/core/cached_allocator.h"
#include "accel/runtime/config.h"
#include "accel/runtime/errors.h"

namespace accel::cpu {
namespace {

size_t physical_memory() {
  long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
  return pages > 0 && page > 0 ? static_cast<size_t>(pages) * static_cast<size_t>(page) : 0;
}

size_t available_memory() {
  long pages = sysconf(_SC_AVPHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
  return pages > 0 && page > 0 ? static_cast<size_t>(pages) * static_cast<size_t>(page) : 0;
}

}  // namespace

HostAllocator::HostAllocator() {
  cache_limit_ = physical_memory() / 4;
  if (auto bytes = config::number(config::Var::ACCEL_HOST_CACHE_BYTES)) cache_limit_ = *bytes;
}

HostAllocator::~HostAllocator() { free_cached(); }

size_t HostAllocator::round_size(size_t nbytes) const {
  // Small sizes round to a power of two (few classes, cheap reuse); large ones to 1/8 steps of
  // their power of two, so a cached block is at most 12.5% bigger than asked for.
  size_t n = std::max<size_t>(nbytes, kAlignment);
  if (n <= 4096) return std::bit_ceil(n);
  size_t step = std::bit_ceil(n) / 8;
  return (n + step - 1) / step * step;
}

void* HostAllocator::allocate_fresh(size_t bytes) {
  void* p = nullptr;
  if (bytes < kHugeMin) return posix_memalign(&p, kAlignment, bytes) == 0 ? p : nullptr;
  // Large blocks start on a huge page and ask for huge pages, as NumPy's do: a streaming loop
  // then walks 2 MB pages (fewer TLB misses, prefetchers not stopped every 4 KB) and a first
  // touch faults 512x fewer times. Advice the kernel refuses leaves ordinary pages.
  if (posix_memalign(&p, kHugePage, bytes) != 0) return nullptr;
#if defined(MADV_HUGEPAGE)
  madvise(p, bytes, MADV_HUGEPAGE);
#endif
  return p;
}

namespace {

// A tiny array's memory in the same allocation as its Buffer.
template <size_t N> struct InlineBlock {
  explicit InlineBlock(Deallocator* counter) : buffer(bytes, N, Device::cpu(), counter) {}
  alignas(16) unsigned char bytes[N];
  Buffer buffer;
};

// One stack per block size (cached_allocator.h).
ACCEL_FREE_BLOCK_STACK(SmallBlocks)
ACCEL_FREE_BLOCK_STACK(LargeBlocks)

}  // namespace

// One block from a per-thread cache (cached_allocator.h; malloc and free were a tenth of a
// small a[idx]) and no lock: a cached block of the main pool costs the allocator's mutex on
// allocation and again on release, plus a second allocation for its Buffer.
std::shared_ptr<Buffer> HostAllocator::allocate_inline(size_t nbytes) {
  // The Buffer handle shares the block's count, moved in: a copy would cost two atomic
  // reference-count updates per small array.
  auto buffer_of = [](auto&& block) {
    Buffer* b = &block->buffer;
    return std::shared_ptr<Buffer>(std::move(block), b);
  };
  std::shared_ptr<Buffer> buffer;
  size_t bytes;
  if (nbytes <= 64) {
    buffer = buffer_of(std::allocate_shared<InlineBlock<64>>(
        CachedAllocator<InlineBlock<64>, SmallBlocks>(), &inline_));
    bytes = 64;
  } else {
    buffer = buffer_of(std::allocate_shared<InlineBlock<kInlineMax>>(
        CachedAllocator<InlineBlock<kInlineMax>, LargeBlocks>(), &inline_));
    bytes = kInlineMax;
  }
  inline_.in_use.fetch_add(bytes, std::memory_order_relaxed);
  inline_.allocations.fetch_add(1, std::memory_order_relaxed);
  return buffer;
}

std::shared_ptr<Buffer> HostAllocator::allocate(size_t nbytes) {
  if (nbytes <= kInlineMax) return allocate_inline(nbytes);
  size_t bytes = round_size(nbytes);
  void* p = nullptr;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    ++stats_.allocations;
    if (bytes <= kSmallMax) {
      auto& stack = small_free_[std::countr_zero(bytes) - 6];
      if (!stack.empty()) {
        p = stack.back();
        stack.pop_back();
        stats_.cached -= bytes;
        ++stats_.cache_hits;
      }
    }
    auto it = p ? free_blocks_.end() : free_blocks_.lower_bound(bytes);
    // Best fit, but never hand out a block more than twice the size asked for.
    if (it != free_blocks_.end() && it->first <= bytes * 2) {
      bytes = it->first;
      p = it->second;
      free_blocks_.erase(it);
      stats_.cached -= bytes;
      ++stats_.cache_hits;
    }
    if (p) {  // from the cache: one lock for the whole allocation (small arrays pay per op)
      stats_.in_use += bytes;
      stats_.peak = std::max(stats_.peak, stats_.in_use);
      return std::make_shared<Buffer>(p, bytes, Device::cpu(), this);
    }
  }
  if (!p) {
    p = allocate_fresh(bytes);
    if (!p) {
      free_cached();
      {
        std::lock_guard<std::mutex> lock(mutex_);
        ++stats_.oom_retries;
      }
      p = allocate_fresh(bytes);
    }
    if (!p) {
      MemoryStats s = stats();
      throw OutOfMemoryError("allocate cpu", nbytes, s.in_use, s.cached, physical_memory(),
                             available_memory());
    }
  }
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stats_.in_use += bytes;
    stats_.peak = std::max(stats_.peak, stats_.in_use);
  }
  return std::make_shared<Buffer>(p, bytes, Device::cpu(), this);
}

void HostAllocator::deallocate(void* ptr, size_t nbytes) {
  std::lock_guard<std::mutex> lock(mutex_);
  stats_.in_use -= nbytes;
  if (stats_.cached + nbytes <= cache_limit_) {
    if (nbytes <= kSmallMax)
      small_free_[std::countr_zero(nbytes) - 6].push_back(ptr);
    else
      free_blocks_.emplace(nbytes, ptr);
    stats_.cached += nbytes;
    return;
  }
  std::free(ptr);
}

MemoryStats HostAllocator::stats() const {
  std::lock_guard<std::mutex> lock(mutex_);
  MemoryStats s = stats_;
  // Inline blocks count in use and as allocations; `peak` follows the cached blocks only.
  s.in_use += inline_.in_use.load(std::memory_order_relaxed);
  s.allocations += inline_.allocations.load(std::memory_order_relaxed);
  return s;
}

void HostAllocator::free_cached() {
  std::lock_guard<std::mutex> lock(mutex_);
  for (auto& [size, p] : free_blocks_) std::free(p);
  free_blocks_.clear();
  for (auto& stack : small_free_) {
    for (void* p : stack) std::free(p);
    stack.clear();
  }
  stats_.cached = 0;
}

HostAllocator& host_allocator() {
  // Never destroyed: buffers may be released by Python during interpreter shutdown.
  static HostAllocator* a = new HostAllocator();
  return *a;
}

}  // namespace accel::cpu
