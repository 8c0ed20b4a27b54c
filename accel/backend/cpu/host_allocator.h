// A caching host allocator: freed blocks are kept (best fit by size) and handed out again, so
// large arrays do not pay fresh page faults on every op. The cache is capped
// (ACCEL_HOST_CACHE_BYTES, default 25% of RAM) and dropped on allocation failure or request.
// Large blocks are backed by huge pages where the kernel allows (MADV_HUGEPAGE).
#pragma once
#include <atomic>
#include <cstddef>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

#include "accel/backend/backend.h"
#include "accel/core/buffer.h"

namespace accel::cpu {

class HostAllocator final : public Deallocator {
 public:
  HostAllocator();
  ~HostAllocator() override;
  std::shared_ptr<Buffer> allocate(size_t nbytes);
  void deallocate(void* ptr, size_t nbytes) override;
  MemoryStats stats() const;
  void free_cached();

  // Alignment of every block: a cache line, and enough for any vector load. Blocks of up to
  // kInlineMax bytes (tiny arrays) are 16-byte aligned, as malloc's and NumPy's small arrays.
  static constexpr size_t kAlignment = 64;
  static constexpr size_t kInlineMax = 512;
  // Blocks of at least kHugeMin bytes are aligned to kHugePage and advised to use huge pages.
  static constexpr size_t kHugeMin = size_t{4} << 20;
  static constexpr size_t kHugePage = size_t{2} << 20;

 private:
  void* allocate_fresh(size_t bytes);
  size_t round_size(size_t nbytes) const;
  std::shared_ptr<Buffer> allocate_inline(size_t nbytes);

  // Counts the inline blocks for stats() without the mutex (their memory goes with their
  // Buffer, so there is nothing to free here).
  struct InlineCounter final : Deallocator {
    void deallocate(void*, size_t nbytes) override {
      in_use.fetch_sub(nbytes, std::memory_order_relaxed);
    }
    std::atomic<size_t> in_use{0}, allocations{0};
  };
  InlineCounter inline_;

  mutable std::mutex mutex_;
  // Blocks of up to kSmallMax bytes: one stack per power-of-two class (no tree nodes to
  // allocate, so tiny arrays stay cheap); larger blocks: best fit by size.
  static constexpr size_t kSmallMax = 4096;
  static constexpr int kSmallClasses = 7;  // 64 .. 4096
  std::vector<void*> small_free_[kSmallClasses];
  std::multimap<size_t, void*> free_blocks_;  // rounded size -> block
  MemoryStats stats_;
  size_t cache_limit_;
};

HostAllocator& host_allocator();

}  // namespace accel::cpu
