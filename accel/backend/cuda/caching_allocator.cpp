#include "accel/backend/cuda/caching_allocator.h"

#include <algorithm>
#include <iterator>
#include <vector>

#include "accel/runtime/errors.h"

namespace accel::cuda {
namespace {

struct PressureHooks {
  std::mutex mutex;
  std::vector<void (*)(int)> hooks;
};
PressureHooks& pressure_hooks() {
  static auto* h = new PressureHooks();  // never freed: allocators may run during shutdown
  return *h;
}

void run_pressure_hooks(int device) {
  std::vector<void (*)(int)> hooks;
  {
    std::lock_guard<std::mutex> lock(pressure_hooks().mutex);
    hooks = pressure_hooks().hooks;
  }
  for (auto hook : hooks) hook(device);
}

}  // namespace

void add_memory_pressure_hook(void (*hook)(int device)) {
  std::lock_guard<std::mutex> lock(pressure_hooks().mutex);
  if (std::find(pressure_hooks().hooks.begin(), pressure_hooks().hooks.end(), hook) ==
      pressure_hooks().hooks.end())
    pressure_hooks().hooks.push_back(hook);
}

CachingAllocator::CachingAllocator(Device device, std::unique_ptr<SegmentSource> source)
    : device_(device), source_(std::move(source)) {}

CachingAllocator::~CachingAllocator() {
  std::lock_guard<std::mutex> lock(mutex_);
  release_free_segments();
}

size_t CachingAllocator::round_size(size_t nbytes) {
  return std::max(kMinBlock, (nbytes + kMinBlock - 1) / kMinBlock * kMinBlock);
}

CachingAllocator::Block* CachingAllocator::find_free(Pool& pool, size_t size, StreamId stream) {
  Block key{0, size, stream, false};
  auto it = pool.lower_bound(&key);
  if (it == pool.end() || (*it)->stream != stream) return nullptr;
  Block* b = *it;
  pool.erase(it);
  return b;
}

CachingAllocator::Block* CachingAllocator::new_segment(size_t size, StreamId stream, bool small) {
  size_t bytes = small ? kSmallSegment
                 : size < kLargeSegment ? kLargeSegment
                                        : (size + kSegmentRound - 1) / kSegmentRound * kSegmentRound;
  if (limit_ && reserved_ + bytes > limit_) {
    // A smaller segment may still fit under the limit.
    bytes = (size + kMinBlock - 1) / kMinBlock * kMinBlock;
    if (reserved_ + bytes > limit_) return nullptr;
  }
  void* p = source_->allocate(bytes);
  if (!p) return nullptr;
  reserved_ += bytes;
  ++segments_;
  return new Block{reinterpret_cast<uintptr_t>(p), bytes, stream, small};
}

std::shared_ptr<Buffer> CachingAllocator::allocate(size_t nbytes, StreamId stream) {
  size_t size = round_size(nbytes);
  bool small = size <= kSmallRequest;
  std::unique_lock<std::mutex> lock(mutex_);
  ++stats_.allocations;
  Pool& pool = small ? small_free_ : large_free_;
  Block* b = find_free(pool, size, stream);
  if (b) {
    ++stats_.cache_hits;
  } else {
    b = new_segment(size, stream, small);
    if (!b) {
      // Give the cache back to the device and try once more (other streams' blocks included).
      lock.unlock();
      source_->synchronize();
      run_pressure_hooks(device_.index);
      lock.lock();
      release_free_segments();
      ++stats_.oom_retries;
      b = new_segment(size, stream, small);
    }
    if (!b) throw_oom(nbytes);
  }
  // Split off the rest when it is worth keeping: any remainder in the small pool (blocks there
  // are small anyway), more than a small request's worth in the large pool.
  size_t rest = b->size - size;
  if (rest >= (small ? kMinBlock : kSmallRequest + 1)) {
    Block* tail = new Block{b->ptr + size, rest, stream, small};
    tail->prev = b;
    tail->next = b->next;
    if (b->next) b->next->prev = tail;
    b->next = tail;
    b->size = size;
    pool.insert(tail);
  }
  b->allocated = true;
  b->last_use = stream;
  allocated_[b->ptr] = b;
  stats_.in_use += b->size;
  stats_.peak = std::max(stats_.peak, stats_.in_use);
  stats_.cached = reserved_ - stats_.in_use;
  return std::make_shared<Buffer>(reinterpret_cast<void*>(b->ptr), nbytes, device_, this);
}

void CachingAllocator::deallocate(void* ptr, size_t) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = allocated_.find(reinterpret_cast<uintptr_t>(ptr));
  if (it == allocated_.end()) return;
  Block* b = it->second;
  allocated_.erase(it);
  // Its pool's stream must not reuse it before the last user's queued work is done.
  if (b->last_use != b->stream) source_->order_reuse(b->stream, b->last_use);
  b->allocated = false;
  stats_.in_use -= b->size;
  Pool& pool = b->small ? small_free_ : large_free_;
  // Merge with free neighbours so the segment can become one block again.
  if (Block* p = b->prev; p && !p->allocated) {
    pool.erase(p);
    p->size += b->size;
    p->next = b->next;
    if (b->next) b->next->prev = p;
    delete b;
    b = p;
  }
  if (Block* n = b->next; n && !n->allocated) {
    pool.erase(n);
    b->size += n->size;
    b->next = n->next;
    if (n->next) n->next->prev = b;
    delete n;
  }
  pool.insert(b);
  stats_.cached = reserved_ - stats_.in_use;
}

std::optional<CachingAllocator::StreamId> CachingAllocator::note_use(const void* ptr,
                                                                     StreamId stream) {
  const auto p = reinterpret_cast<uintptr_t>(ptr);
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = allocated_.upper_bound(p);
  if (it == allocated_.begin()) return std::nullopt;
  Block* b = std::prev(it)->second;
  if (p >= b->ptr + b->size || b->last_use == stream) return std::nullopt;
  const StreamId previous = b->last_use;
  b->last_use = stream;
  return previous;
}

size_t CachingAllocator::release_free_segments() {
  size_t released = 0;
  for (Pool* pool : {&small_free_, &large_free_}) {
    for (auto it = pool->begin(); it != pool->end();) {
      Block* b = *it;
      if (b->prev || b->next) {  // part of a segment still in use
        ++it;
        continue;
      }
      source_->free(reinterpret_cast<void*>(b->ptr));
      reserved_ -= b->size;
      released += b->size;
      --segments_;
      delete b;
      it = pool->erase(it);
    }
  }
  stats_.cached = reserved_ - stats_.in_use;
  return released;
}

void CachingAllocator::free_cached() {
  source_->synchronize();
  run_pressure_hooks(device_.index);
  std::lock_guard<std::mutex> lock(mutex_);
  release_free_segments();
}

void CachingAllocator::throw_oom(size_t requested) {
  auto [free, total] = source_->memory_info();
  if (limit_) {
    total = std::min(total, limit_);
    free = std::min(free, limit_ - std::min(limit_, reserved_));
  }
  throw OutOfMemoryError("allocate " + device_.str(), requested, stats_.in_use,
                         reserved_ - stats_.in_use, total, free);
}

MemoryStats CachingAllocator::stats() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return stats_;
}

void CachingAllocator::set_limit(size_t bytes) {
  std::lock_guard<std::mutex> lock(mutex_);
  limit_ = bytes;
}

size_t CachingAllocator::limit() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return limit_;
}

size_t CachingAllocator::reserved() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return reserved_;
}

size_t CachingAllocator::segment_count() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return segments_;
}

}  // namespace accel::cuda
