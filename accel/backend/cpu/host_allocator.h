// A caching host allocator: freed blocks are kept (best fit by size) and handed out again, so
// large arrays do not pay fresh page faults on every op. The cache is capped
// (ACCEL_HOST_CACHE_BYTES, default 25% of RAM) and dropped on allocation failure or request.
#pragma once
#include <cstddef>
#include <map>
#include <memory>
#include <mutex>

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

  // Alignment of every block: a cache line, and enough for any vector load.
  static constexpr size_t kAlignment = 64;

 private:
  void* allocate_fresh(size_t bytes);
  size_t round_size(size_t nbytes) const;

  mutable std::mutex mutex_;
  std::multimap<size_t, void*> free_blocks_;  // rounded size -> block
  MemoryStats stats_;
  size_t cache_limit_;
};

HostAllocator& host_allocator();

}  // namespace accel::cpu
