// CUDA C++ on the CPU, part two (after simt_cpu.h, before simt_cpu_intrinsics.h): the threads of
// one block run as a plain loop, as fibers or split at barriers (barrier_split.h), and the
// barriers and warp functions that fibers meet.
namespace accel_simt {
namespace {

// ---- the threads of one block, as fibers ----
enum class Wait : unsigned char { none, block_barrier, warp_op, done };
enum class WarpOp : unsigned char { sync, shfl, ballot, reduce_add, reduce_min, reduce_max, reduce_and, reduce_or, reduce_xor, match_any };

struct Fiber {
  Context ctx;
  uint3 idx;
  Wait wait;
  int pred;                 // __syncthreads_count/_and/_or input; then its result
  const void* site;         // where it waits at a block barrier (checked mode)
  WarpOp op;
  unsigned mask;            // the warp function's member mask
  int src;                  // the lane it reads (shuffles)
  unsigned long long value; // what it contributes (its bits), then what it gets back
};

struct Block {
  Fiber* fibers;
  int n;
  int current;
  int warp_end;  // one past the last lane of the warp being run
  int done;      // threads that have exited
  Context scheduler;
  bool failed;
  int block_result;  // the count / and / or of the last block barrier
};

thread_local Block* block;

#ifdef ACCEL_CHECKED
// Checked builds: the shared-memory race detector (simt_cpu_races.h, appended after this file).
void races_begin_block();
bool races_close_interval();  // at a block barrier and a block's end: false after reporting a race
void races_warp_synced(int first_lane);
void races_atomic(const volatile void* p);
#endif

// Barrier-free kernels run on one fiber per call (see run_loop).
struct LoopState {
  Context scheduler, runner;
};
thread_local LoopState* loop_state;

inline void describe_position(char* out, size_t n) {
  std::snprintf(out, n, "kernel %s, block (%u, %u, %u), thread (%u, %u, %u)",
                launch ? launch->kernel : "?", blockIdx.x, blockIdx.y, blockIdx.z, threadIdx.x,
                threadIdx.y, threadIdx.z);
}

// Records the first error of this OS thread's launch and stops every other OS thread.
inline void record_error(int kind, const char* message) {
  if (launch->error_kind == 0) {
    launch->error_kind = kind;
    std::snprintf(launch->error, sizeof launch->error, "%s", message);
  }
  __atomic_store_n(launch->abort, 1, __ATOMIC_RELAXED);
}

inline void set_thread(const Fiber& f) { threadIdx = f.idx; }

// The thread that waits passes the OS thread straight to the next runnable lane of its warp (one
// switch instead of two through the scheduler: a switch's cost is mostly its mispredicted
// returns); the last lane of the warp, or a failed block, goes back to the scheduler.
inline __attribute__((always_inline)) void yield_to_scheduler() {
  Block& b = *block;
  Fiber& f = b.fibers[b.current];
  if (!b.failed)
    for (int t = b.current + 1; t < b.warp_end; ++t) {
      Fiber& next = b.fibers[t];
      if (next.wait != Wait::none) continue;
      b.current = t;
      set_thread(next);
      switch_context(f.ctx, next.ctx);
      return;
    }
  switch_context(f.ctx, b.scheduler);
}

// A failed assert, __trap or misplaced barrier ends the thread's block (fibers) or the loop of
// blocks (barrier-free kernels) for good: its fiber is never resumed.
[[noreturn]] void fail(int kind, const char* what) {
  char where[256], msg[1024];
  describe_position(where, sizeof where);
  std::snprintf(msg, sizeof msg, "%s: %s", where, what);
  record_error(kind, msg);
  if (block) {
    block->failed = true;
    block->fibers[block->current].wait = Wait::done;
    ++block->done;
    yield_to_scheduler();
  } else {
    switch_context(loop_state->runner, loop_state->scheduler);
  }
  __builtin_trap();  // not reached
}

// Like fail, for a mistake of the block rather than of one thread: the message names no thread.
[[noreturn]] void fail_block(int kind, const char* what) {
  char msg[1024];
  std::snprintf(msg, sizeof msg, "kernel %s, block (%u, %u, %u): %s", launch->kernel, blockIdx.x,
                blockIdx.y, blockIdx.z, what);
  record_error(kind, msg);
  switch_context(loop_state->runner, loop_state->scheduler);
  __builtin_trap();  // not reached
}

inline unsigned linear_thread(uint3 t) {
  return t.x + blockDim.x * (t.y + blockDim.y * t.z);
}

inline __attribute__((always_inline)) int block_barrier(int pred, const void* site) {
  if (!block) fail(2, "a barrier was reached in a kernel compiled without barriers");
  Fiber& f = block->fibers[block->current];
  f.wait = Wait::block_barrier;
  f.pred = pred;
  f.site = site;
  yield_to_scheduler();
  return f.pred;
}

inline unsigned long long warp_op(WarpOp op, unsigned mask, unsigned long long value, int src) {
  if (!block) fail(2, "a warp function was reached in a kernel compiled without them");
  Fiber& f = block->fibers[block->current];
  f.wait = Wait::warp_op;
  f.op = op;
  f.mask = mask;
  f.value = value;
  f.src = src;
  yield_to_scheduler();
  return f.value;
}

// Lets a waiting warp go when every lane its members name has arrived or exited; computes what
// each lane gets back before any of them runs on.
inline bool release_warp(Block& b, int first, int count) {
  unsigned arrived = 0, exited = 0, wanted = 0;
  for (int l = 0; l < count; ++l) {
    const Fiber& f = b.fibers[first + l];
    if (f.wait == Wait::warp_op) {
      arrived |= 1u << l;
      wanted |= f.mask;
    } else if (f.wait == Wait::done) {
      exited |= 1u << l;
    }
  }
  if (!arrived) return false;
  const unsigned lanes = count == 32 ? ~0u : (1u << count) - 1;
  wanted &= lanes;
  if ((wanted & ~(arrived | exited)) != 0) return false;
  unsigned long long in[32];
  for (int l = 0; l < count; ++l) in[l] = b.fibers[first + l].value;
  for (int l = 0; l < count; ++l) {
    Fiber& f = b.fibers[first + l];
    if (f.wait != Wait::warp_op) continue;
    const unsigned members = f.mask & arrived;
    switch (f.op) {
      case WarpOp::sync: break;
      case WarpOp::shfl:
        f.value = (f.src >= 0 && f.src < count && ((arrived >> f.src) & 1)) ? in[f.src] : in[l];
        break;
      case WarpOp::ballot: {
        unsigned bits = 0;
        for (int k = 0; k < count; ++k)
          if (((members >> k) & 1) && in[k]) bits |= 1u << k;
        f.value = bits;
        break;
      }
      case WarpOp::match_any: {
        unsigned bits = 0;
        for (int k = 0; k < count; ++k)
          if (((members >> k) & 1) && in[k] == in[l]) bits |= 1u << k;
        f.value = bits;
        break;
      }
      default: {  // reductions over 32-bit integers (the sign lives in src: 1 = signed)
        long long acc = 0;
        bool first_member = true;
        for (int k = 0; k < count; ++k) {
          if (!((members >> k) & 1)) continue;
          long long v = f.src ? (long long)(int)(unsigned)in[k] : (long long)(unsigned)in[k];
          if (first_member) { acc = v; first_member = false; continue; }
          switch (f.op) {
            case WarpOp::reduce_add: acc += v; break;
            case WarpOp::reduce_min: acc = v < acc ? v : acc; break;
            case WarpOp::reduce_max: acc = v > acc ? v : acc; break;
            case WarpOp::reduce_and: acc &= v; break;
            case WarpOp::reduce_or: acc |= v; break;
            case WarpOp::reduce_xor: acc ^= v; break;
            default: break;
          }
        }
        f.value = (unsigned long long)(unsigned)acc;
        break;
      }
    }
  }
  for (int l = 0; l < count; ++l)
    if (b.fibers[first + l].wait == Wait::warp_op) b.fibers[first + l].wait = Wait::none;
#ifdef ACCEL_CHECKED
  races_warp_synced(first);
#endif
  return true;
}

inline void block_error(Block& b, const char* what) {
  char msg[1024];
  std::snprintf(msg, sizeof msg, "kernel %s, block (%u, %u, %u): %s", launch->kernel, blockIdx.x,
                blockIdx.y, blockIdx.z, what);
  record_error(2, msg);
  b.failed = true;
}

inline uint3 thread_of(int linear) {
  const int bx = int(blockDim.x), by = int(blockDim.y);
  return {unsigned(linear % bx), unsigned((linear / bx) % by), unsigned(linear / (bx * by))};
}

// Appends to `out` the threads `in(t)` selects, as runs of consecutive linear numbers ("(0, 0, 0)
// .. (15, 0, 0), (40, 0, 0)"), at most four runs: enough to see which threads a mistake split off.
template <class In> void append_threads(const Block& b, In in, char* out, size_t n) {
  size_t len = std::strlen(out);
  int runs = 0;
  for (int t = 0; t < b.n && len < n; ++t) {
    if (!in(t) || (t > 0 && in(t - 1))) continue;
    int last = t;
    while (last + 1 < b.n && in(last + 1)) ++last;
    if (runs++ == 4) {
      std::snprintf(out + len, n - len, ", ...");
      return;
    }
    const uint3 a = thread_of(t), z = thread_of(last);
    if (last == t)
      std::snprintf(out + len, n - len, "%s(%u, %u, %u)", runs > 1 ? ", " : "", a.x, a.y, a.z);
    else
      std::snprintf(out + len, n - len, "%s(%u, %u, %u)..(%u, %u, %u)", runs > 1 ? ", " : "", a.x,
                    a.y, a.z, z.x, z.y, z.z);
    len = std::strlen(out);
  }
}

// Lets the block barrier go when every thread still running waits at one. Checked mode: every
// thread must reach it (none exited), at the same __syncthreads.
inline bool release_block_barrier(Block& b) {
  int waiting = 0, exited = 0, count = 0, first = -1;
  bool same_site = true;
  for (int t = 0; t < b.n; ++t) {
    const Fiber& f = b.fibers[t];
    if (f.wait == Wait::block_barrier) {
      ++waiting;
      count += f.pred != 0;
      if (first < 0) first = t;
      else if (f.site != b.fibers[first].site) same_site = false;
    } else if (f.wait == Wait::done) {
      ++exited;
    }
  }
  if (waiting == 0 || waiting + exited != b.n) return false;
  if (launch->check && (exited > 0 || !same_site)) {
    // Name both sides: the threads that got there and those that left (or wait elsewhere).
    char what[768];
    const void* site = b.fibers[first].site;
    auto done = [&](int t) { return b.fibers[t].wait == Wait::done; };
    auto here = [&](int t) { return b.fibers[t].wait == Wait::block_barrier && b.fibers[t].site == site; };
    auto elsewhere = [&](int t) { return b.fibers[t].wait == Wait::block_barrier && b.fibers[t].site != site; };
    if (exited > 0) {
      std::snprintf(what, sizeof what, "divergent __syncthreads: %d of %d threads exited while %d wait at a barrier (exited: ", exited, b.n, waiting);
      append_threads(b, done, what, sizeof what);
      std::strncat(what, "; waiting: ", sizeof what - std::strlen(what) - 1);
      append_threads(b, [&](int t) { return !done(t); }, what, sizeof what);
    } else {
      std::snprintf(what, sizeof what, "divergent __syncthreads: the threads wait at different __syncthreads calls (threads ");
      append_threads(b, here, what, sizeof what);
      std::strncat(what, " at one, threads ", sizeof what - std::strlen(what) - 1);
      append_threads(b, elsewhere, what, sizeof what);
      std::strncat(what, " at another", sizeof what - std::strlen(what) - 1);
    }
    std::strncat(what, ")", sizeof what - std::strlen(what) - 1);
    block_error(b, what);
    return true;
  }
#ifdef ACCEL_CHECKED
  if (!races_close_interval()) return true;  // a race between the barriers: the block failed
#endif
  for (int t = 0; t < b.n; ++t) {
    Fiber& f = b.fibers[t];
    if (f.wait != Wait::block_barrier) continue;
    f.wait = Wait::none;
    f.pred = count;  // __syncthreads_count; _and and _or compare it with the number of threads
  }
  b.block_result = waiting;
  return true;
}

template <auto F, class... P, size_t... I>
void call_kernel(std::index_sequence<I...>) {
  F(*static_cast<const P*>(launch->args[I])...);
}

template <auto F, class... P>
void fiber_main(void*) {
  call_kernel<F, P...>(std::index_sequence_for<P...>{});
  block->fibers[block->current].wait = Wait::done;
  ++block->done;
  yield_to_scheduler();
  __builtin_trap();  // a finished fiber is never resumed
}

template <auto F, class... P>
void run_fiber_block(Block& b) {
  const unsigned bx = blockDim.x, by = blockDim.y;
  for (int t = 0; t < b.n; ++t) {
    Fiber& f = b.fibers[t];
    f.idx = {t % bx, (t / bx) % by, t / (bx * by)};
    f.wait = Wait::none;
    // Stack tops staggered by 17 cache lines: tops at one stride would share a cache set, and
    // every switch would miss.
    make_context(f.ctx, launch->stacks + size_t(t) * launch->stack_bytes,
                 launch->stack_bytes - size_t(t) * 17 * 64 % 16384, &fiber_main<F, P...>, nullptr);
  }
  // Warp by warp: a warp's lanes run until each waits, and run on as soon as their warp function
  // can complete, so 32 stacks stay in cache; the block barrier opens once every warp waits at it.
  // Each pass starts the warp's first runnable lane, which hands over to the next (see
  // yield_to_scheduler): every lane runnable at the start of a pass runs once in it.
  b.done = 0;
#ifdef ACCEL_CHECKED
  races_begin_block();
#endif
  while (!b.failed) {
    for (int first = 0; first < b.n && !b.failed; first += 32) {
      const int count = b.n - first < 32 ? b.n - first : 32;
      b.warp_end = first + count;
      do {
        for (int t = first; t < first + count; ++t) {
          Fiber& f = b.fibers[t];
          if (f.wait != Wait::none) continue;
          b.current = t;
          set_thread(f);
          switch_context(b.scheduler, f.ctx);
          break;
        }
      } while (!b.failed && release_warp(b, first, count));
    }
    const int done = b.done;
#ifdef ACCEL_CHECKED
    if (!b.failed && done == b.n) races_close_interval();  // after the last barrier
#endif
    if (b.failed || done == b.n) break;
    if (!release_block_barrier(b)) {
      int at_block = 0, at_warp = 0;
      for (int t = 0; t < b.n; ++t) {
        at_block += b.fibers[t].wait == Wait::block_barrier;
        at_warp += b.fibers[t].wait == Wait::warp_op;
      }
      char what[768];
      std::snprintf(what, sizeof what,
                    "the threads can never all meet: %d wait at __syncthreads, %d at a warp "
                    "function, %d exited (a barrier or warp function in divergent code?): "
                    "at __syncthreads: ",
                    at_block, at_warp, done);
      append_threads(b, [&](int t) { return b.fibers[t].wait == Wait::block_barrier; }, what, sizeof what);
      std::strncat(what, "; at a warp function: ", sizeof what - std::strlen(what) - 1);
      append_threads(b, [&](int t) { return b.fibers[t].wait == Wait::warp_op; }, what, sizeof what);
      block_error(b, what);
    }
  }
}

inline void set_block(long long linear) {
  const unsigned gx = launch->grid[0], gy = launch->grid[1];
  blockIdx = {unsigned(linear % gx), unsigned((linear / gx) % gy), unsigned(linear / ((long long)gx * gy))};
}

template <auto F, class... P>
void run_fibers(Launch* l) {
  const int n = int(l->block[0] * l->block[1] * l->block[2]);
  Fiber fibers[1024];
  Block b{};
  b.fibers = fibers;
  b.n = n;
  block = &b;
  for (long long k = l->block_begin; k < l->block_end; ++k) {
    if (__atomic_load_n(l->abort, __ATOMIC_RELAXED)) break;
    set_block(k);
    b.failed = false;
    run_fiber_block<F, P...>(b);
    if (b.failed) break;
  }
  block = nullptr;
}

// Barrier-free kernels: every thread of every block of this call in one loop, on one fiber (so
// that a failed assert can leave it), with the parameters copied once into locals.

// Split kernels (backend/cpu/barrier_split.h) loop over their threads themselves: one call per block.
template <auto F, bool Split, class... P>
void run_loop_threads(P... p) {
  Launch* l = launch;
  const unsigned bx = l->block[0], by = l->block[1], bz = l->block[2];
  for (long long k = l->block_begin; k < l->block_end; ++k) {
    if (__atomic_load_n(l->abort, __ATOMIC_RELAXED)) return;
    set_block(k);
    if constexpr (Split) {
      F(p...);
      continue;
    }
#ifdef ACCEL_CHECKED
    races_begin_block();
#endif
    for (unsigned z = 0; z < bz; ++z)
      for (unsigned y = 0; y < by; ++y) {
        threadIdx.y = y;
        threadIdx.z = z;
        for (unsigned x = 0; x < bx; ++x) {
          threadIdx.x = x;
          F(p...);
        }
      }
#ifdef ACCEL_CHECKED
    races_close_interval();
#endif
  }
}

template <auto F, bool Split, class... P, size_t... I>
void loop_main_impl(std::index_sequence<I...>) {
  run_loop_threads<F, Split, P...>(*static_cast<const P*>(launch->args[I])...);
}

template <auto F, bool Split, class... P>
void loop_main(void*) {
  loop_main_impl<F, Split, P...>(std::index_sequence_for<P...>{});
  switch_context(loop_state->runner, loop_state->scheduler);
  __builtin_trap();
}

template <auto F, bool Split, class... P>
void run_loop(Launch* l) {
  LoopState s{};
  loop_state = &s;
  make_context(s.runner, l->stacks, l->stack_bytes, &loop_main<F, Split, P...>, nullptr);
  switch_context(s.scheduler, s.runner);
  loop_state = nullptr;
}

// Checked mode: a kernel's pointer parameters become Checked<T>, which knows the bytes of its
// array ([lo, hi)) and which argument it is, and checks every access through it.
[[noreturn]] __attribute__((noinline)) void fail_index(int arg, long long index, long long size) {
  char what[256];
  std::snprintf(what, sizeof what, "index %lld is out of bounds for argument %d (%lld elements)",
                index, arg, size);
  fail(4, what);
}

template <class T> struct Checked {
  T* p;
  const char* lo;
  const char* hi;
  long long arg;

  T& at(long long i) const {
    const char* a = reinterpret_cast<const char*>(p + i);
    if (__builtin_expect(a < lo || a + sizeof(T) > hi, 0))
      fail_index(int(arg), (reinterpret_cast<const char*>(p) - lo) / (long long)sizeof(T) + i,
                 (hi - lo) / (long long)sizeof(T));
    return p[i];
  }
  template <class I> T& operator[](I i) const { return at((long long)i); }
  T& operator*() const { return at(0); }
  T* operator->() const { return &at(0); }
  Checked operator+(long long k) const { return {p + k, lo, hi, arg}; }
  Checked operator-(long long k) const { return {p - k, lo, hi, arg}; }
  Checked& operator+=(long long k) { p += k; return *this; }
  Checked& operator-=(long long k) { p -= k; return *this; }
  Checked& operator++() { ++p; return *this; }
  Checked& operator--() { --p; return *this; }
  // A pointer again (passed to a __device__ function taking T*): accesses through it are unchecked.
  operator T*() const { return p; }
  template <class U> explicit operator U*() const { return reinterpret_cast<U*>(p); }
};
template <class T> struct IsChecked { static constexpr bool value = false; };
template <class T> struct IsChecked<Checked<T>> { static constexpr bool value = true; };

template <class T> constexpr char kind_of() {
  if constexpr (std::is_same_v<T, bool>) return 'b';
  else if constexpr (IsChecked<T>::value) return 'k';
  else if constexpr (std::is_pointer_v<T>) return std::is_const_v<std::remove_pointer_t<T>> ? 'P' : 'p';
  else if constexpr (std::is_integral_v<T>) return std::is_signed_v<T> ? 'i' : 'u';
  else if constexpr (std::is_floating_point_v<T>) return 'f';
  else return 's';
}

template <class R, class... P> struct Signature {
  static constexpr int count = sizeof...(P);
  static constexpr Param params[sizeof...(P) + 1] = {{kind_of<P>(), unsigned(sizeof(P))}..., {0, 0}};
};

}  // namespace

[[noreturn]] inline void assert_fail(const char* expr, const char* file, int line) {
  char what[600];
  std::snprintf(what, sizeof what, "assertion `%s` failed (%s:%d)", expr, file, line);
  fail(1, what);
}

// How the threads of a block run: a loop around the kernel, fibers, or loops inside the kernel
// (split at its barriers).
enum class Mode { loop, fibers, split };

// Entry point of one kernel: runs blocks [block_begin, block_end) of the launch on this OS thread.
template <auto F, Mode M, class... P>
int run(Launch* l, void (*)(P...)) {
  launch = l;
  blockDim = dim3(l->block[0], l->block[1], l->block[2]);
  gridDim = dim3(l->grid[0], l->grid[1], l->grid[2]);
  dyn_shared_base = l->dyn_shared;
  if constexpr (M == Mode::fibers) run_fibers<F, P...>(l);
  else run_loop<F, M == Mode::split, P...>(l);
  std::fflush(stdout);
  launch = nullptr;
  return l->error_kind;
}

template <class... P> const Param* signature(void (*)(P...)) {
  return Signature<void, P...>::params;
}

// __launch_bounds__(max threads per block, min blocks per SM, max cluster size): the launcher
// reads the first (the macro itself expands to nothing on the CPU).
template <class... More> constexpr long long launch_bound(long long max_threads, More...) {
  return max_threads;
}

// `extern __shared__ T name[];` at namespace scope becomes `static DynamicShared<T> name;`: it
// reads this block's dynamic shared memory wherever it is used (inside a function it becomes a
// plain pointer).
#ifdef ACCEL_CHECKED
template <class T> T& shared_access(T& x, const char* name, const void* base);
#endif
template <class T> struct DynamicShared {
  const char* name = "extern __shared__";  // checked builds name it (race reports)
  operator T*() const { return reinterpret_cast<T*>(dyn_shared_base); }
  template <class U> explicit operator U*() const { return reinterpret_cast<U*>(dyn_shared_base); }
  template <class I> T& operator[](I i) const {
#ifdef ACCEL_CHECKED
    return shared_access(reinterpret_cast<T*>(dyn_shared_base)[i], name, dyn_shared_base);
#else
    return reinterpret_cast<T*>(dyn_shared_base)[i];
#endif
  }
};

inline char* dynamic_shared() { return dyn_shared_base; }

}  // namespace accel_simt

// ---- barriers and warp functions ----
// Each textual call is its own site (checked mode: the threads of a block must wait at the same
// one): a number per expansion, not the return address, which the optimiser duplicates when it
// copies a barrier into both arms of a preceding branch.
__attribute__((noinline)) inline void accel_syncthreads(const void* site) { accel_simt::block_barrier(0, site); }
__attribute__((noinline)) inline int accel_syncthreads_count(int p, const void* site) {
  return accel_simt::block_barrier(p != 0, site);
}
__attribute__((noinline)) inline int accel_syncthreads_and(int p, const void* site) {
  const int c = accel_simt::block_barrier(p != 0, site);
  return c == accel_simt::block->block_result;
}
__attribute__((noinline)) inline int accel_syncthreads_or(int p, const void* site) {
  return accel_simt::block_barrier(p != 0, site) > 0;
}
#define ACCEL_BARRIER_SITE reinterpret_cast<const void*>(static_cast<unsigned long>(__COUNTER__) + 1)
#define __syncthreads() accel_syncthreads(ACCEL_BARRIER_SITE)
#define __syncthreads_count(p) accel_syncthreads_count((p), ACCEL_BARRIER_SITE)
#define __syncthreads_and(p) accel_syncthreads_and((p), ACCEL_BARRIER_SITE)
#define __syncthreads_or(p) accel_syncthreads_or((p), ACCEL_BARRIER_SITE)
inline void __syncwarp(unsigned mask = 0xffffffffu) { accel_simt::warp_op(accel_simt::WarpOp::sync, mask, 0, 0); }
inline unsigned __lane_id() { return accel_simt::linear_thread(threadIdx) % 32; }

template <class T> inline unsigned long long accel_bits(T v) {
  static_assert(sizeof(T) <= 8, "warp functions take values of at most 8 bytes");
  unsigned long long b = 0;
  std::memcpy(&b, &v, sizeof v);
  return b;
}
template <class T> inline T accel_from_bits(unsigned long long b) {
  T v;
  std::memcpy(&v, &b, sizeof v);
  return v;
}
// A shuffle reads lane `src` of the caller's `width`-lane segment; a lane out of range reads itself.
template <class T> inline T accel_shfl(unsigned mask, T v, int src) {
  return accel_from_bits<T>(accel_simt::warp_op(accel_simt::WarpOp::shfl, mask, accel_bits(v), src));
}
template <class T> inline T __shfl_sync(unsigned mask, T v, int src, int width = warpSize) {
  const int lane = int(__lane_id());
  return accel_shfl(mask, v, (lane & ~(width - 1)) + (src & (width - 1)));
}
template <class T> inline T __shfl_up_sync(unsigned mask, T v, unsigned delta, int width = warpSize) {
  const int lane = int(__lane_id());
  return accel_shfl(mask, v, (lane & (width - 1)) >= int(delta) ? lane - int(delta) : lane);
}
template <class T> inline T __shfl_down_sync(unsigned mask, T v, unsigned delta, int width = warpSize) {
  const int lane = int(__lane_id());
  return accel_shfl(mask, v, (lane & (width - 1)) + int(delta) < width ? lane + int(delta) : lane);
}
template <class T> inline T __shfl_xor_sync(unsigned mask, T v, int lane_mask, int width = warpSize) {
  const int lane = int(__lane_id());
  const int src = lane ^ lane_mask;
  return accel_shfl(mask, v, (src & ~(width - 1)) == (lane & ~(width - 1)) ? src : lane);
}
inline unsigned __ballot_sync(unsigned mask, int p) {
  return unsigned(accel_simt::warp_op(accel_simt::WarpOp::ballot, mask, p != 0, 0));
}
inline int __any_sync(unsigned mask, int p) { return __ballot_sync(mask, p) != 0; }
inline int __all_sync(unsigned mask, int p) { return __ballot_sync(mask, p) == __ballot_sync(mask, 1); }
// The lanes of the caller's warp that have not exited (it does not wait for them, as on a GPU).
inline unsigned __activemask() {
  if (!accel_simt::block) return 0xffffffffu;
  const int first = accel_simt::block->current & ~31;
  unsigned mask = 0;
  for (int l = 0; l < 32 && first + l < accel_simt::block->n; ++l)
    if (accel_simt::block->fibers[first + l].wait != accel_simt::Wait::done) mask |= 1u << l;
  return mask;
}
template <class T> inline unsigned __match_any_sync(unsigned mask, T v) {
  return unsigned(accel_simt::warp_op(accel_simt::WarpOp::match_any, mask, accel_bits(v), 0));
}
#define ACCEL_WARP_REDUCE(name, op)                                                                \
  inline int name(unsigned mask, int v) {                                                          \
    return int(accel_simt::warp_op(accel_simt::WarpOp::op, mask, unsigned(v), 1));                 \
  }                                                                                                \
  inline unsigned name(unsigned mask, unsigned v) {                                                \
    return unsigned(accel_simt::warp_op(accel_simt::WarpOp::op, mask, v, 0));                      \
  }
ACCEL_WARP_REDUCE(__reduce_add_sync, reduce_add)
ACCEL_WARP_REDUCE(__reduce_min_sync, reduce_min)
ACCEL_WARP_REDUCE(__reduce_max_sync, reduce_max)
ACCEL_WARP_REDUCE(__reduce_and_sync, reduce_and)
ACCEL_WARP_REDUCE(__reduce_or_sync, reduce_or)
ACCEL_WARP_REDUCE(__reduce_xor_sync, reduce_xor)
#undef ACCEL_WARP_REDUCE
