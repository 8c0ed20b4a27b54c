// Checked mode on the CPU: racy shared-memory accesses. Appended after simt_cpu.h in checked
// builds (backend/cpu/raw_kernel.cpp), whose source transformation turns each static
// `__shared__ T name[N]...;` into a SharedArray and each `extern __shared__` array into a
// SharedView (raw_kernel_source.h, instrument_shared_memory): every element access goes through
// shared_access below.
//
// Two threads of a block race when they touch one element between two barriers and one of them
// writes. An access returns a plain reference, so whether it wrote is learnt later: the element's
// value is hashed at each access, and a different hash at the next access (or at the barrier)
// means the previous accessor wrote it (the fibers of a block switch only at barriers and warp
// functions, so nobody else ran in between; atomics re-hash after themselves: they never race).
// Accesses of one warp separated by a warp function are ordered too. Misses: a write of the value
// already there, accesses through pointers copied out of a shared array.
#pragma once
#include <vector>

namespace accel_simt {
namespace {

struct Access {
  int thread = -1;         // linear thread number in the block; -1: none
  unsigned warp_sync = 0;  // its warp's count of completed warp functions at the access
};

struct ShadowEntry {
  const void* addr;    // the element; nullptr: a free slot
  const char* name;    // its variable
  const void* base;    // the variable's first byte
  unsigned size;       // the element's bytes
  unsigned epoch;      // the barrier interval the state below belongs to
  unsigned long long value;  // hash of the element at `last`'s access
  Access last, writer, readers[2];
};

// Per OS thread (= per running block): open addressing on the element's address.
struct Shadow {
  std::vector<ShadowEntry> slots;
  size_t used = 0;
  unsigned epoch = 0;
  std::vector<const void*> touched;  // elements accessed in this interval
  unsigned warp_sync[32] = {};
  char race[640] = {};  // the first race found in this block
};
thread_local Shadow shadow;

inline const void* address_of(const volatile void* p) { return const_cast<const void*>(p); }

inline unsigned long long hash_bytes(const void* p, unsigned n) {
  const unsigned char* b = static_cast<const unsigned char*>(p);
  unsigned long long h = 1469598103934665603ull;
  for (unsigned i = 0; i < n; ++i) h = (h ^ b[i]) * 1099511628211ull;
  return h;
}

inline size_t slot_of(const void* addr, size_t capacity) {
  return size_t((reinterpret_cast<uintptr_t>(addr) * 0x9e3779b97f4a7c15ull) >> 20) & (capacity - 1);
}

inline ShadowEntry* find_entry(const void* addr) {
  if (shadow.slots.empty()) return nullptr;
  const size_t mask = shadow.slots.size() - 1;
  for (size_t h = slot_of(addr, shadow.slots.size());; h = (h + 1) & mask) {
    if (shadow.slots[h].addr == addr) return &shadow.slots[h];
    if (!shadow.slots[h].addr) return nullptr;
  }
}

inline ShadowEntry& entry(const void* addr) {
  if (ShadowEntry* e = find_entry(addr)) return *e;
  if (2 * (shadow.used + 1) > shadow.slots.size()) {
    std::vector<ShadowEntry> old(shadow.slots.size() < 1024 ? 2048 : 2 * shadow.slots.size());
    old.swap(shadow.slots);
    for (const ShadowEntry& e : old)
      if (e.addr) {
        size_t h = slot_of(e.addr, shadow.slots.size());
        while (shadow.slots[h].addr) h = (h + 1) & (shadow.slots.size() - 1);
        shadow.slots[h] = e;
      }
  }
  size_t h = slot_of(addr, shadow.slots.size());
  while (shadow.slots[h].addr) h = (h + 1) & (shadow.slots.size() - 1);
  shadow.slots[h] = ShadowEntry{};
  shadow.slots[h].addr = addr;
  shadow.slots[h].epoch = shadow.epoch - 1;  // stale: reset at its first access
  ++shadow.used;
  return shadow.slots[h];
}

// a happened before b: the same thread, or one warp with a warp function completed in between.
inline bool ordered(Access a, Access b) {
  return a.thread == b.thread || ((a.thread >> 5) == (b.thread >> 5) && a.warp_sync != b.warp_sync);
}

inline void note_race(const ShadowEntry& e, Access a, const char* did_a, Access b, const char* did_b) {
  if (shadow.race[0]) return;
  const uint3 ta = thread_of(a.thread), tb = thread_of(b.thread);
  const long long offset = static_cast<const char*>(e.addr) - static_cast<const char*>(e.base);
  std::snprintf(shadow.race, sizeof shadow.race,
                "racy shared memory access: thread (%u, %u, %u) %s %s[%lld] (byte offset %lld) and "
                "thread (%u, %u, %u) %s it, with no __syncthreads between",
                ta.x, ta.y, ta.z, did_a, e.name, offset / (long long)e.size, offset, tb.x, tb.y, tb.z,
                did_b);
}

// Ends the open access of `last`: a changed value means it wrote.
inline void close_access(ShadowEntry& e) {
  const Access l = e.last;
  if (l.thread < 0) return;
  e.last = Access{};
  if (hash_bytes(e.addr, e.size) == e.value) {  // a read (or a write of the same value)
    Access& slot = e.readers[0].thread < 0 || e.readers[0].thread == l.thread ? e.readers[0] : e.readers[1];
    slot = l;
    return;
  }
  if (e.writer.thread >= 0 && !ordered(e.writer, l)) note_race(e, e.writer, "wrote", l, "wrote");
  for (Access r : e.readers)
    if (r.thread >= 0 && !ordered(r, l)) note_race(e, r, "read", l, "wrote");
  e.writer = l;
  e.readers[0] = e.readers[1] = Access{};
}

inline int current_thread() { return block ? block->current : int(linear_thread(threadIdx)); }

inline void races_record(const void* addr, unsigned size, const char* name, const void* base) {
  ShadowEntry& e = entry(addr);
  const int t = current_thread();
  const Access now{t, shadow.warp_sync[t >> 5]};
  if (e.epoch != shadow.epoch) {
    e.epoch = shadow.epoch;
    e.name = name;
    e.base = base;
    e.size = size;
    e.last = e.writer = e.readers[0] = e.readers[1] = Access{};
    shadow.touched.push_back(addr);
  }
  close_access(e);
  if (e.writer.thread >= 0 && !ordered(e.writer, now)) note_race(e, e.writer, "wrote", now, "accessed");
  e.last = now;
  e.value = hash_bytes(addr, size);
}

void races_begin_block() {
  ++shadow.epoch;
  shadow.touched.clear();
  shadow.race[0] = 0;
}

void races_warp_synced(int first_lane) { ++shadow.warp_sync[(first_lane >> 5) & 31]; }

void races_atomic(const volatile void* p) {
  ShadowEntry* e = find_entry(address_of(p));
  if (e && e->epoch == shadow.epoch && e->last.thread >= 0) e->value = hash_bytes(e->addr, e->size);
}

bool races_close_interval() {
  for (const void* addr : shadow.touched)
    if (ShadowEntry* e = find_entry(addr)) close_access(*e);
  shadow.touched.clear();
  ++shadow.epoch;
  if (!shadow.race[0]) return true;
  if (block) block_error(*block, shadow.race);  // fibers: the scheduler calls this
  else fail_block(2, shadow.race);              // a loop of threads: it stops here
  return false;
}

}  // namespace

template <class T> T& shared_access(T& x, const char* name, const void* base) {
  races_record(address_of(&x), sizeof(T), name, base);
  return x;
}

// Elements of type E of a shared variable (E an array: a row of a multi-dimensional one).
template <class E> struct SharedView {
  E* p;
  const char* name;
  const void* base;
  template <class I> decltype(auto) operator[](I i) const {
    if constexpr (std::is_array_v<E>) return SharedView<std::remove_extent_t<E>>{p[i], name, base};
    else return shared_access(p[i], name, base);
  }
  operator E*() const { return p; }  // decays as the array would (unchecked from there)
};

// `__shared__ T name[N]...;` in checked builds: the array and its name.
template <class A> struct SharedArray {
  A data;
  const char* name;
  using E = std::remove_extent_t<A>;
  template <class I> decltype(auto) operator[](I i) { return SharedView<E>{data, name, address_of(data)}[i]; }
  operator E*() { return data; }
};

}  // namespace accel_simt
