// A stream-aware caching allocator for device memory (DESIGN.md "Backends"). Device allocations
// (cuMemAlloc) are slow and synchronise the device, so memory is taken in segments and handed
// out as blocks: best fit among the free blocks of the same stream, split when the rest is
// worth keeping, merged with free neighbours when returned. A block belongs to the pool of the
// stream it was allocated on (by StreamId, never by handle) and is reused only by later work on
// that stream. Each block remembers the stream that last used it (note_use); when that is
// another stream, freeing the block first orders its pool's stream after that stream's queued
// work (SegmentSource::order_reuse: an event recorded there and waited for), so no later user
// of the block can overtake an earlier one. On failure the cache is released and the
// allocation retried before OutOfMemoryError.
//
// The device itself is behind SegmentSource, so the bookkeeping is tested without a GPU.
#pragma once
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <utility>

#include "accel/backend/backend.h"
#include "accel/backend/cuda/stream.h"
#include "accel/core/buffer.h"

namespace accel::cuda {

// Where segments come from: cuMemAlloc on a device, or host memory in tests.
class SegmentSource {
 public:
  virtual ~SegmentSource() = default;
  virtual void* allocate(size_t bytes) = 0;  // null when out of memory
  virtual void free(void* ptr) = 0;
  virtual std::pair<size_t, size_t> memory_info() = 0;  // free, total
  virtual void synchronize() = 0;  // all work that may use freed blocks has finished
  // Later work on `pool_stream` waits for the work queued so far on `last_user` (which used a
  // block now returning to pool_stream's pool). Called from destructors: must not throw.
  virtual void order_reuse(StreamId pool_stream, StreamId last_user) noexcept = 0;
};

// Library caches that hold device memory outside this allocator (cuFFT plans) register a hook:
// it runs, with no allocator lock held and after the device has synchronised, before an
// out-of-memory retry and in free_cached(), with the allocator's device index, and gives back
// what it can. Hooks are never removed (the caches live as long as the process).
void add_memory_pressure_hook(void (*hook)(int device));

class CachingAllocator final : public Deallocator {
 public:
  using StreamId = cuda::StreamId;

  // Requests up to kSmallRequest share kSmallSegment-sized segments; larger ones get segments
  // of kLargeSegment, or their own (rounded to kSegmentRound) when bigger still.
  static constexpr size_t kMinBlock = 512;
  static constexpr size_t kSmallRequest = size_t(1) << 20;
  static constexpr size_t kSmallSegment = size_t(2) << 20;
  static constexpr size_t kLargeSegment = size_t(20) << 20;
  static constexpr size_t kSegmentRound = size_t(2) << 20;

  CachingAllocator(Device device, std::unique_ptr<SegmentSource> source);
  ~CachingAllocator() override;

  std::shared_ptr<Buffer> allocate(size_t nbytes, StreamId stream);
  void deallocate(void* ptr, size_t nbytes) override;
  // Work on `stream` is about to use the block holding `ptr` (any address inside it). Returns
  // the stream that used it last when that is another one (the caller orders `stream` after
  // it), and records `stream` as its last user. nullopt for memory this allocator did not hand
  // out, and when `stream` was the last user.
  std::optional<StreamId> note_use(const void* ptr, StreamId stream);
  MemoryStats stats() const;
  // Returns every fully free segment to the device.
  void free_cached();
  // A cap on the bytes held from the device (in use + cached); 0 = none. Exceeding it is an
  // out-of-memory condition like the device running out.
  void set_limit(size_t bytes);
  size_t limit() const;
  size_t reserved() const;  // bytes held from the device
  size_t segment_count() const;

  static size_t round_size(size_t nbytes);

 private:
  struct Block {
    uintptr_t ptr;
    size_t size;
    StreamId stream;  // the pool it belongs to: the stream it was allocated on
    bool small;       // from the small-segment pool
    StreamId last_use = stream;
    bool allocated = false;
    Block* prev = nullptr;  // neighbours within the segment
    Block* next = nullptr;
  };
  struct BySize {
    bool operator()(const Block* a, const Block* b) const {
      if (a->stream != b->stream) return a->stream < b->stream;
      if (a->size != b->size) return a->size < b->size;
      return a->ptr < b->ptr;
    }
  };
  using Pool = std::set<Block*, BySize>;

  Block* find_free(Pool& pool, size_t size, StreamId stream);
  Block* new_segment(size_t size, StreamId stream, bool small);  // null on failure
  size_t release_free_segments();  // under the lock
  [[noreturn]] void throw_oom(size_t requested);

  Device device_;
  std::unique_ptr<SegmentSource> source_;
  mutable std::mutex mutex_;
  Pool small_free_, large_free_;
  std::map<uintptr_t, Block*> allocated_;  // ordered: note_use finds the block holding an address
  MemoryStats stats_;
  size_t reserved_ = 0;
  size_t segments_ = 0;
  size_t limit_ = 0;
};

}  // namespace accel::cuda
