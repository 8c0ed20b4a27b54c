#include "accel/core/array_impl_cache.h"

#include <new>

namespace accel {
namespace {

#if defined(__SANITIZE_ADDRESS__)
#define ACCEL_IMPL_CACHE_OFF 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ACCEL_IMPL_CACHE_OFF 1
#endif
#endif
#ifdef ACCEL_IMPL_CACHE_OFF
constexpr int kCapacity = 0;  // AddressSanitizer sees every block freed and reused
#else
constexpr int kCapacity = 64;
#endif

// Trivially destructible, so it stays usable after the thread's destructors ran (an array
// dropped by a later destructor then goes straight to operator delete: `closed`).
struct FreeBlocks {
  void* head = nullptr;
  int count = 0;
  bool watched = false;  // the Reaper of this thread exists
  bool closed = false;   // the Reaper ran: cache nothing more
};
thread_local FreeBlocks free_blocks;

// Frees the cached blocks when its thread ends.
struct Reaper {
  bool armed = false;
  ~Reaper() {
    if (!armed) return;
    while (free_blocks.head) {
      void* p = free_blocks.head;
      free_blocks.head = *static_cast<void**>(p);
      ::operator delete(p);
    }
    free_blocks.count = 0;
    free_blocks.closed = true;
  }
};
thread_local Reaper reaper;

// The allocator allocate_shared rebinds to its control block with the ArrayImpl inside: one
// block size, so any cached block fits.
template <class T>
struct CachedAllocator {
  using value_type = T;
  CachedAllocator() = default;
  template <class U> CachedAllocator(const CachedAllocator<U>&) {}

  T* allocate(size_t n) {
    FreeBlocks& f = free_blocks;
    if (n == 1 && f.head) {
      void* p = f.head;
      f.head = *static_cast<void**>(p);
      --f.count;
      return static_cast<T*>(p);
    }
    return static_cast<T*>(::operator new(n * sizeof(T)));
  }
  void deallocate(T* p, size_t n) {
    static_assert(sizeof(T) >= sizeof(void*));
    FreeBlocks& f = free_blocks;
    if (n == 1 && f.count < kCapacity && !f.closed) {
      if (!f.watched) {
        f.watched = true;
        reaper.armed = true;  // the first use of this thread's Reaper registers its destructor
      }
      *reinterpret_cast<void**>(p) = f.head;
      f.head = p;
      ++f.count;
      return;
    }
    ::operator delete(p);
  }
  template <class U> bool operator==(const CachedAllocator<U>&) const { return true; }
};

}  // namespace

std::shared_ptr<ArrayImpl> new_array_impl() {
  return std::allocate_shared<ArrayImpl>(CachedAllocator<ArrayImpl>());
}

std::shared_ptr<ArrayImpl> new_array_impl(const Shape& shape, const Strides& strides) {
  return std::allocate_shared<ArrayImpl>(CachedAllocator<ArrayImpl>(), shape, strides);
}

}  // namespace accel
