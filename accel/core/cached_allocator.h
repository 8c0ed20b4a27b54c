// An allocator for objects a small call makes and drops at a high rate (an array's impl, a
// tiny array's buffer): freed blocks wait on a per-thread stack, up to 64, and the next
// allocation takes one, with no malloc, free or lock. A stack holds blocks of one size, so each
// serves one std::allocate_shared use (which rebinds the allocator to its control block with
// the object inside). The stacks are freed when their thread ends; a block may be freed on
// another thread than the one that made it (each thread keeps what it frees). Under
// AddressSanitizer nothing is cached, so a use after free is still caught.
//
// The stack is a thread_local of the file that uses it (ACCEL_FREE_BLOCK_STACK): a thread_local
// shared across files is reached through the dynamic TLS resolver on every access in a shared
// library, which made each view 3% slower.
#pragma once
#include <cstddef>
#include <new>

namespace accel {

#if defined(__SANITIZE_ADDRESS__)
#define ACCEL_BLOCK_CACHE_OFF 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ACCEL_BLOCK_CACHE_OFF 1
#endif
#endif
#ifdef ACCEL_BLOCK_CACHE_OFF
inline constexpr int kFreeBlockCapacity = 0;
#else
inline constexpr int kFreeBlockCapacity = 64;
#endif

// Trivially destructible, so it stays usable after the thread's destructors ran (a block
// dropped by a later destructor then goes straight to operator delete: `closed`).
struct FreeBlockStack {
  void* head = nullptr;
  int count = 0;
  bool watched = false;  // the thread's reaper exists
  bool closed = false;   // the reaper ran: cache nothing more
};

// Frees its thread's stack when the thread ends.
struct FreeBlockReaper {
  FreeBlockStack* stack = nullptr;
  ~FreeBlockReaper() {
    if (!stack) return;
    while (stack->head) {
      void* p = stack->head;
      stack->head = *static_cast<void**>(p);
      ::operator delete(p);
    }
    stack->count = 0;
    stack->closed = true;
  }
};

// A file's stack and reaper, as two functions that return its own thread_locals.
#define ACCEL_FREE_BLOCK_STACK(name)                            \
  thread_local ::accel::FreeBlockStack name##_blocks;           \
  thread_local ::accel::FreeBlockReaper name##_reaper;          \
  struct name {                                                 \
    static ::accel::FreeBlockStack& stack() { return name##_blocks; } \
    static ::accel::FreeBlockReaper& reaper() { return name##_reaper; } \
  };

template <class T, class Stack> struct CachedAllocator {
  static_assert(sizeof(T) >= sizeof(void*));
  using value_type = T;
  template <class U> struct rebind {
    using other = CachedAllocator<U, Stack>;
  };
  CachedAllocator() = default;
  template <class U> CachedAllocator(const CachedAllocator<U, Stack>&) {}

  T* allocate(size_t n) {
    FreeBlockStack& f = Stack::stack();
    if (n == 1 && f.head) {
      void* p = f.head;
      f.head = *static_cast<void**>(p);
      --f.count;
      return static_cast<T*>(p);
    }
    return static_cast<T*>(::operator new(n * sizeof(T)));
  }
  void deallocate(T* p, size_t n) {
    FreeBlockStack& f = Stack::stack();
    if (n == 1 && f.count < kFreeBlockCapacity && !f.closed) {
      if (!f.watched) {
        f.watched = true;
        Stack::reaper().stack = &f;  // its first use registers the reaper's destructor
      }
      *reinterpret_cast<void**>(p) = f.head;
      f.head = p;
      ++f.count;
      return;
    }
    ::operator delete(p);
  }
  template <class U> bool operator==(const CachedAllocator<U, Stack>&) const { return true; }
};

}  // namespace accel
