// CUDA C++ on the CPU: the prelude every user kernel (RawKernel / RawModule) is compiled with by
// the host compiler (backend/cpu/raw_kernel.cpp prepends it, embedded as text). It spells the
// CUDA names a kernel uses in plain C++ and runs the blocks a launch hands to one OS thread.
//
// A thread of a block is either an iteration of a plain loop (kernels with no barrier and no
// warp function: the compiler can vectorise it) or a fiber with its own stack that yields at
// __syncthreads and at warp functions; the fibers of a block run on one OS thread, so
// `__shared__` is `static thread_local` (one copy per OS thread = per running block). Blocks run
// concurrently on the thread pool, so atomics are real atomics.
#pragma once
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <type_traits>
#include <utility>
#if !defined(__x86_64__)
#include <ucontext.h>
#endif

#define __global__
#define __device__
#define __host__
#define __constant__
#define __managed__
#define __forceinline__ inline __attribute__((always_inline))
#define __noinline__ __attribute__((noinline))
#define __launch_bounds__(...)
#define __align__(n) __attribute__((aligned(n)))
#define __shared__ static thread_local
#define __CUDACC__ 1
#define __CUDA_ARCH__ 900
#define __ACCEL_CPU__ 1

// ---- vector types (CUDA's alignment: 2- and 4-vectors aligned to their size, up to 16) ----
#define ACCEL_VEC(T, N)                                                                    \
  struct __attribute__((aligned(sizeof(T) * 2 > 16 ? 16 : sizeof(T) * 2))) N##2 { T x, y; };  \
  struct N##3 { T x, y, z; };                                                               \
  struct __attribute__((aligned(sizeof(T) * 4 > 16 ? 16 : sizeof(T) * 4))) N##4 { T x, y, z, w; }; \
  inline N##2 make_##N##2(T x, T y) { return {x, y}; }                                      \
  inline N##3 make_##N##3(T x, T y, T z) { return {x, y, z}; }                              \
  inline N##4 make_##N##4(T x, T y, T z, T w) { return {x, y, z, w}; }
ACCEL_VEC(signed char, char)
ACCEL_VEC(unsigned char, uchar)
ACCEL_VEC(short, short)
ACCEL_VEC(unsigned short, ushort)
ACCEL_VEC(int, int)
ACCEL_VEC(unsigned int, uint)
ACCEL_VEC(long, long)
ACCEL_VEC(unsigned long, ulong)
ACCEL_VEC(long long, longlong)
ACCEL_VEC(unsigned long long, ulonglong)
ACCEL_VEC(float, float)
ACCEL_VEC(double, double)
#undef ACCEL_VEC

struct dim3 {
  unsigned int x, y, z;
  constexpr dim3(unsigned int vx = 1, unsigned int vy = 1, unsigned int vz = 1) : x(vx), y(vy), z(vz) {}
  constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
  constexpr operator uint3() const { return {x, y, z}; }
};

namespace {
// Internal linkage: the kernel's own shared object reads them with the cheap local TLS model.
thread_local uint3 threadIdx;
thread_local uint3 blockIdx;
thread_local dim3 blockDim;
thread_local dim3 gridDim;
}  // namespace
constexpr int warpSize = 32;

// ---- the launch a shared object is handed (mirrored in backend/cpu/raw_kernel.cpp) ----
namespace accel_simt {

struct Launch {
  unsigned grid[3], block[3];
  void* const* args;          // one pointer per parameter, to its bytes
  long long block_begin, block_end;  // linear block numbers this call runs
  char* dyn_shared;           // this OS thread's dynamic shared memory
  char* stacks;               // this OS thread's fiber stacks: fiber i at stacks + i * stack_bytes
  size_t stack_bytes;
  int check;                  // checked mode: a barrier not met by every thread is an error
  const char* kernel;
  int* abort;                 // shared by every OS thread of the launch: set on the first error
  int error_kind;             // out: 0 none, 1 assertion, 2 barrier, 3 trap, 4 index
  char error[1024];           // out: what, where (block and thread)
};

// One parameter as the launcher sees it: 'p' pointer, 'P' pointer to const, 'k' checked pointer
// (checked mode), 'i' signed, 'u' unsigned, 'b' bool, 'f' floating point, 's' anything else.
struct Param {
  char kind;
  unsigned size;
};

namespace {

thread_local Launch* launch;
thread_local char* dyn_shared_base;

// ---- fibers ----
#if defined(__x86_64__)
extern "C" void accel_simt_switch(void** save_sp, void* to_sp);
extern "C" void accel_simt_trampoline();
// Saves the callee-saved registers on the current stack, stores the stack pointer in *save_sp
// and resumes the stack `to_sp` (System V x86-64). The FP control words are not switched (the
// fibers of a block share their OS thread's rounding mode): saving them cost half of a switch.
__asm__(
    ".text\n.p2align 4\n.hidden accel_simt_switch\n.globl accel_simt_switch\n"
    ".type accel_simt_switch,@function\naccel_simt_switch:\n"
    "  pushq %rbp\n  pushq %rbx\n  pushq %r12\n  pushq %r13\n  pushq %r14\n  pushq %r15\n"
    "  movq %rsp, (%rdi)\n  movq %rsi, %rsp\n"
    "  popq %r15\n  popq %r14\n  popq %r13\n  popq %r12\n  popq %rbx\n  popq %rbp\n"
    "  ret\n.size accel_simt_switch, .-accel_simt_switch\n"
    ".hidden accel_simt_trampoline\n.globl accel_simt_trampoline\n"
    ".type accel_simt_trampoline,@function\naccel_simt_trampoline:\n"
    "  movq %r13, %rdi\n  callq *%r12\n  ud2\n"
    ".size accel_simt_trampoline, .-accel_simt_trampoline\n");

struct Context {
  void* sp = nullptr;
};
// A fresh stack whose first resumption calls fn(arg); fn never returns.
inline void make_context(Context& c, char* stack, size_t bytes, void (*fn)(void*), void* arg) {
  uintptr_t top = (reinterpret_cast<uintptr_t>(stack) + bytes) & ~uintptr_t(15);
  void** s = reinterpret_cast<void**>(top - 24);  // after `ret`, rsp = top - 16: aligned for the call
  s[0] = reinterpret_cast<void*>(&accel_simt_trampoline);
  s[-1] = nullptr;                                // rbp
  s[-2] = nullptr;                                // rbx
  s[-3] = reinterpret_cast<void*>(fn);            // r12
  s[-4] = arg;                                    // r13
  s[-5] = nullptr;                                // r14
  s[-6] = nullptr;                                // r15
  c.sp = &s[-6];
}
// The memory clobbers keep the compiler from holding threadIdx & co. in registers across a switch.
inline void switch_context(Context& from, Context& to) {
  __asm__ volatile("" ::: "memory");
  accel_simt_switch(&from.sp, to.sp);
  __asm__ volatile("" ::: "memory");
}
#else
// Other architectures: ucontext (slower: it saves the signal mask at every switch).
struct Context {
  ucontext_t uc;
};
inline void make_context(Context& c, char* stack, size_t bytes, void (*fn)(void*), void* arg) {
  getcontext(&c.uc);
  c.uc.uc_stack.ss_sp = stack;
  c.uc.uc_stack.ss_size = bytes;
  c.uc.uc_link = nullptr;
  makecontext(&c.uc, reinterpret_cast<void (*)()>(fn), 1, arg);
}
inline void switch_context(Context& from, Context& to) { swapcontext(&from.uc, &to.uc); }
#endif

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

// ---- assert, __trap, printf ----
#include <cassert>
#undef assert
#ifdef NDEBUG
#define assert(e) ((void)0)
#else
#define assert(e) ((e) ? (void)0 : ::accel_simt::assert_fail(#e, __FILE__, __LINE__))
#endif
[[noreturn]] inline void __trap() { accel_simt::fail(3, "__trap() called"); }
// printf is C's: lines appear as they are printed, not at the next synchronisation.

// ---- memory fences, clocks, loads ----
inline void __threadfence() { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
inline void __threadfence_block() { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
inline void __threadfence_system() { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
#if defined(__x86_64__)
inline long long clock64() { return (long long)__builtin_ia32_rdtsc(); }
#else
inline long long clock64() { return (long long)__builtin_readcyclecounter(); }
#endif
inline void __nanosleep(unsigned) {}
template <class T> inline T __ldg(const T* p) { return *p; }
template <class T> inline T __ldca(const T* p) { return *p; }
template <class T> inline T __ldcg(const T* p) { return *p; }
template <class T> inline T __ldcs(const T* p) { return *p; }
template <class T> inline T __ldlu(const T* p) { return *p; }
template <class T> inline T __ldcv(const T* p) { return *p; }
template <class T> inline void __stcg(T* p, T v) { *p = v; }
template <class T> inline void __stcs(T* p, T v) { *p = v; }
template <class T> inline void __stwb(T* p, T v) { *p = v; }
template <class T> inline void __stwt(T* p, T v) { *p = v; }

// ---- atomics: relaxed, as CUDA's; floating-point ones through compare-and-swap ----
// Each returns through accel_atomic_done: checked builds tell the race detector that the element
// changed by an atomic (simt_cpu_races.h), which is never a race.
template <class T, class R> inline R accel_atomic_done(T* p, R old) {
#ifdef ACCEL_CHECKED
  accel_simt::races_atomic(p);
#endif
  return old;
}
template <class T> inline T accel_atomic_cas_update(T* p, T (*f)(T, T), T v) {
  static_assert(sizeof(T) == 4 || sizeof(T) == 8 || sizeof(T) == 2, "atomic of an unsupported size");
  T old;
  __atomic_load(p, &old, __ATOMIC_RELAXED);
  for (;;) {
    T next = f(old, v);
    if (__atomic_compare_exchange(p, &old, &next, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) return accel_atomic_done(p, old);
  }
}
#define ACCEL_ATOMIC_INT(T)                                                                               \
  inline T atomicAdd(T* p, T v) { return accel_atomic_done(p, __atomic_fetch_add(p, v, __ATOMIC_RELAXED)); }                   \
  inline T atomicSub(T* p, T v) { return accel_atomic_done(p, __atomic_fetch_sub(p, v, __ATOMIC_RELAXED)); }                   \
  inline T atomicExch(T* p, T v) { return accel_atomic_done(p, __atomic_exchange_n(p, v, __ATOMIC_RELAXED)); }                 \
  inline T atomicAnd(T* p, T v) { return accel_atomic_done(p, __atomic_fetch_and(p, v, __ATOMIC_RELAXED)); }                   \
  inline T atomicOr(T* p, T v) { return accel_atomic_done(p, __atomic_fetch_or(p, v, __ATOMIC_RELAXED)); }                     \
  inline T atomicXor(T* p, T v) { return accel_atomic_done(p, __atomic_fetch_xor(p, v, __ATOMIC_RELAXED)); }                   \
  inline T atomicMin(T* p, T v) { return accel_atomic_cas_update<T>(p, [](T a, T b) { return b < a ? b : a; }, v); } \
  inline T atomicMax(T* p, T v) { return accel_atomic_cas_update<T>(p, [](T a, T b) { return b > a ? b : a; }, v); } \
  inline T atomicCAS(T* p, T compare, T v) {                                                              \
    __atomic_compare_exchange_n(p, &compare, v, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED);               \
    return accel_atomic_done(p, compare);                                                                                       \
  }
ACCEL_ATOMIC_INT(int)
ACCEL_ATOMIC_INT(unsigned int)
ACCEL_ATOMIC_INT(long long)
ACCEL_ATOMIC_INT(unsigned long long)
#undef ACCEL_ATOMIC_INT
inline unsigned short atomicCAS(unsigned short* p, unsigned short compare, unsigned short v) {
  __atomic_compare_exchange_n(p, &compare, v, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
  return accel_atomic_done(p, compare);
}
// CUDA's wrapping counters: inc goes back to 0 past `limit`, dec to `limit` below 1.
inline unsigned atomicInc(unsigned* p, unsigned limit) {
  unsigned old = __atomic_load_n(p, __ATOMIC_RELAXED), next;
  do next = old >= limit ? 0 : old + 1;
  while (!__atomic_compare_exchange_n(p, &old, next, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED));
  return accel_atomic_done(p, old);
}
inline unsigned atomicDec(unsigned* p, unsigned limit) {
  unsigned old = __atomic_load_n(p, __ATOMIC_RELAXED), next;
  do next = (old == 0 || old > limit) ? limit : old - 1;
  while (!__atomic_compare_exchange_n(p, &old, next, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED));
  return accel_atomic_done(p, old);
}
inline float atomicAdd(float* p, float v) { return accel_atomic_cas_update<float>(p, [](float a, float b) { return a + b; }, v); }
inline double atomicAdd(double* p, double v) { return accel_atomic_cas_update<double>(p, [](double a, double b) { return a + b; }, v); }
inline float atomicExch(float* p, float v) {
  float old;
  __atomic_exchange(p, &v, &old, __ATOMIC_RELAXED);
  return accel_atomic_done(p, old);
}
#define ACCEL_ATOMIC_SCOPES(name)                                                          \
  template <class T, class... A> inline auto name##_block(T* p, A... a) { return name(p, a...); } \
  template <class T, class... A> inline auto name##_system(T* p, A... a) { return name(p, a...); }
ACCEL_ATOMIC_SCOPES(atomicAdd) ACCEL_ATOMIC_SCOPES(atomicSub) ACCEL_ATOMIC_SCOPES(atomicExch)
ACCEL_ATOMIC_SCOPES(atomicMin) ACCEL_ATOMIC_SCOPES(atomicMax) ACCEL_ATOMIC_SCOPES(atomicInc)
ACCEL_ATOMIC_SCOPES(atomicDec) ACCEL_ATOMIC_SCOPES(atomicCAS) ACCEL_ATOMIC_SCOPES(atomicAnd)
ACCEL_ATOMIC_SCOPES(atomicOr) ACCEL_ATOMIC_SCOPES(atomicXor)
#undef ACCEL_ATOMIC_SCOPES

// ---- the CUDA math API beyond C's <math.h> ----
#define ACCEL_MINMAX(T)                                   \
  inline T min(T a, T b) { return b < a ? b : a; }        \
  inline T max(T a, T b) { return a < b ? b : a; }
ACCEL_MINMAX(int) ACCEL_MINMAX(unsigned int) ACCEL_MINMAX(long) ACCEL_MINMAX(unsigned long)
ACCEL_MINMAX(long long) ACCEL_MINMAX(unsigned long long)
#undef ACCEL_MINMAX
inline float min(float a, float b) { return fminf(a, b); }
inline float max(float a, float b) { return fmaxf(a, b); }
inline double min(double a, double b) { return fmin(a, b); }
inline double max(double a, double b) { return fmax(a, b); }
// Mixed arguments: CUDA's overloads take the usual arithmetic conversions.
template <class A, class B> inline auto min(A a, B b) -> decltype(a + b) { return min(decltype(a + b)(a), decltype(a + b)(b)); }
template <class A, class B> inline auto max(A a, B b) -> decltype(a + b) { return max(decltype(a + b)(a), decltype(a + b)(b)); }
using std::isfinite;
using std::isinf;
using std::isnan;
using std::signbit;

inline float rsqrtf(float x) { return 1.0f / sqrtf(x); }
inline double rsqrt(double x) { return 1.0 / sqrt(x); }
inline float rcbrtf(float x) { return 1.0f / cbrtf(x); }
inline double rcbrt(double x) { return 1.0 / cbrt(x); }
inline float sinpif(float x) { return sinf(float(M_PI) * x); }
inline float cospif(float x) { return cosf(float(M_PI) * x); }
inline double sinpi(double x) { return sin(M_PI * x); }
inline double cospi(double x) { return cos(M_PI * x); }
inline float normcdff(float x) { return 0.5f * erfcf(-x * float(M_SQRT1_2)); }
inline double normcdf(double x) { return 0.5 * erfc(-x * M_SQRT1_2); }
inline float saturatef(float x) { return x < 0.0f ? 0.0f : (x > 1.0f ? 1.0f : (x == x ? x : 0.0f)); }
inline float __saturatef(float x) { return saturatef(x); }
inline float fdividef(float a, float b) { return a / b; }
inline float __fdividef(float a, float b) { return a / b; }
inline float __expf(float x) { return expf(x); }
inline float __exp10f(float x) { return exp10f(x); }
inline float __logf(float x) { return logf(x); }
inline float __log2f(float x) { return log2f(x); }
inline float __log10f(float x) { return log10f(x); }
inline float __sinf(float x) { return sinf(x); }
inline float __cosf(float x) { return cosf(x); }
inline float __tanf(float x) { return tanf(x); }
inline void __sincosf(float x, float* s, float* c) { sincosf(x, s, c); }
inline float __powf(float a, float b) { return powf(a, b); }
inline float __frcp_rn(float x) { return 1.0f / x; }
inline float __fsqrt_rn(float x) { return sqrtf(x); }
inline float __frsqrt_rn(float x) { return 1.0f / sqrtf(x); }
inline float __fadd_rn(float a, float b) { return a + b; }
inline float __fsub_rn(float a, float b) { return a - b; }
inline float __fmul_rn(float a, float b) { return a * b; }
inline float __fdiv_rn(float a, float b) { return a / b; }
inline float __fmaf_rn(float a, float b, float c) { return fmaf(a, b, c); }
inline double __dadd_rn(double a, double b) { return a + b; }
inline double __dsub_rn(double a, double b) { return a - b; }
inline double __dmul_rn(double a, double b) { return a * b; }
inline double __ddiv_rn(double a, double b) { return a / b; }
inline double __fma_rn(double a, double b, double c) { return fma(a, b, c); }
inline double __drcp_rn(double x) { return 1.0 / x; }
inline double __dsqrt_rn(double x) { return sqrt(x); }

// ---- integer intrinsics and bit casts ----
inline int __popc(unsigned x) { return __builtin_popcount(x); }
inline int __popcll(unsigned long long x) { return __builtin_popcountll(x); }
inline int __clz(int x) { return x == 0 ? 32 : __builtin_clz(unsigned(x)); }
inline int __clzll(long long x) { return x == 0 ? 64 : __builtin_clzll((unsigned long long)x); }
inline int __ffs(int x) { return __builtin_ffs(x); }
inline int __ffsll(long long x) { return __builtin_ffsll(x); }
inline unsigned __brev(unsigned x) {
  x = ((x >> 1) & 0x55555555u) | ((x & 0x55555555u) << 1);
  x = ((x >> 2) & 0x33333333u) | ((x & 0x33333333u) << 2);
  x = ((x >> 4) & 0x0f0f0f0fu) | ((x & 0x0f0f0f0fu) << 4);
  return __builtin_bswap32(x);
}
inline unsigned long long __brevll(unsigned long long x) {
  return ((unsigned long long)__brev(unsigned(x)) << 32) | __brev(unsigned(x >> 32));
}
inline unsigned __byte_perm(unsigned x, unsigned y, unsigned s) {
  const unsigned long long v = ((unsigned long long)y << 32) | x;
  unsigned r = 0;
  for (int i = 0; i < 4; ++i) r |= unsigned((v >> (8 * ((s >> (4 * i)) & 7))) & 0xff) << (8 * i);
  return r;
}
inline int __mul24(int a, int b) { return int((long long)((a << 8) >> 8) * ((b << 8) >> 8)); }
inline unsigned __umul24(unsigned a, unsigned b) { return (a & 0xffffffu) * (b & 0xffffffu); }
inline int __mulhi(int a, int b) { return int(((long long)a * b) >> 32); }
inline unsigned __umulhi(unsigned a, unsigned b) { return unsigned(((unsigned long long)a * b) >> 32); }
inline long long __mul64hi(long long a, long long b) { return (long long)(((__int128)a * b) >> 64); }
inline unsigned long long __umul64hi(unsigned long long a, unsigned long long b) {
  return (unsigned long long)(((unsigned __int128)a * b) >> 64);
}
inline unsigned __sad(int a, int b, unsigned c) { return (a > b ? unsigned(a - b) : unsigned(b - a)) + c; }
inline unsigned __usad(unsigned a, unsigned b, unsigned c) { return (a > b ? a - b : b - a) + c; }
inline int __hadd(int a, int b) { return int(((long long)a + b) >> 1); }
inline int __rhadd(int a, int b) { return int(((long long)a + b + 1) >> 1); }
inline unsigned __uhadd(unsigned a, unsigned b) { return unsigned(((unsigned long long)a + b) >> 1); }
inline unsigned __urhadd(unsigned a, unsigned b) { return unsigned(((unsigned long long)a + b + 1) >> 1); }
inline unsigned __funnelshift_l(unsigned lo, unsigned hi, unsigned s) {
  return unsigned(((((unsigned long long)hi << 32) | lo) << (s & 31)) >> 32);
}
inline unsigned __funnelshift_r(unsigned lo, unsigned hi, unsigned s) {
  return unsigned(((((unsigned long long)hi << 32) | lo) >> (s & 31)));
}
inline float __int_as_float(int x) { return accel_from_bits<float>((unsigned)x); }
inline int __float_as_int(float x) { return int(unsigned(accel_bits(x))); }
inline float __uint_as_float(unsigned x) { return accel_from_bits<float>(x); }
inline unsigned __float_as_uint(float x) { return unsigned(accel_bits(x)); }
inline double __longlong_as_double(long long x) { return accel_from_bits<double>((unsigned long long)x); }
inline long long __double_as_longlong(double x) { return (long long)accel_bits(x); }
// Conversions with CUDA's rounding suffixes: rn nearest even, rz toward zero, ru up, rd down.
#define ACCEL_F2I(T, name, R)                                                 \
  inline T name##_rn(R x) { return (T)nearbyint(x); }                          \
  inline T name##_rz(R x) { return (T)trunc(x); }                              \
  inline T name##_ru(R x) { return (T)ceil(x); }                               \
  inline T name##_rd(R x) { return (T)floor(x); }
ACCEL_F2I(int, __float2int, float) ACCEL_F2I(unsigned, __float2uint, float)
ACCEL_F2I(long long, __float2ll, float) ACCEL_F2I(unsigned long long, __float2ull, float)
ACCEL_F2I(int, __double2int, double) ACCEL_F2I(unsigned, __double2uint, double)
ACCEL_F2I(long long, __double2ll, double) ACCEL_F2I(unsigned long long, __double2ull, double)
#undef ACCEL_F2I
inline float __int2float_rn(int x) { return float(x); }
inline float __uint2float_rn(unsigned x) { return float(x); }
inline float __ll2float_rn(long long x) { return float(x); }
inline double __int2double_rn(int x) { return double(x); }
inline double __ll2double_rn(long long x) { return double(x); }
inline float __double2float_rn(double x) { return float(x); }

// ---- <cuda_fp16.h>: __half as the compiler's _Float16, arithmetic through float ----
struct __half {
  _Float16 v;
  __half() = default;
  __half(float f) : v(static_cast<_Float16>(f)) {}
  __half(double f) : v(static_cast<_Float16>(f)) {}
  __half(int i) : v(static_cast<_Float16>(float(i))) {}
  operator float() const { return float(v); }
};
struct __half2 {
  __half x, y;
};
inline __half __float2half(float f) { return __half(f); }
inline __half __float2half_rn(float f) { return __half(f); }
inline float __half2float(__half h) { return float(h.v); }
inline __half __double2half(double d) { return __half(d); }
inline __half __int2half_rn(int i) { return __half(float(i)); }
inline int __half2int_rn(__half h) { return int(nearbyintf(float(h))); }
inline int __half2int_rz(__half h) { return int(float(h)); }
inline __half2 __floats2half2_rn(float a, float b) { return {__half(a), __half(b)}; }
inline __half2 __float2half2_rn(float a) { return {__half(a), __half(a)}; }
inline __half2 __halves2half2(__half a, __half b) { return {a, b}; }
inline float __low2float(__half2 h) { return float(h.x); }
inline float __high2float(__half2 h) { return float(h.y); }
inline __half __low2half(__half2 h) { return h.x; }
inline __half __high2half(__half2 h) { return h.y; }
inline __half __hadd(__half a, __half b) { return __half(float(a) + float(b)); }
inline __half __hsub(__half a, __half b) { return __half(float(a) - float(b)); }
inline __half __hmul(__half a, __half b) { return __half(float(a) * float(b)); }
inline __half __hdiv(__half a, __half b) { return __half(float(a) / float(b)); }
inline __half __hneg(__half a) { return __half(-float(a)); }
inline __half __habs(__half a) { return __half(fabsf(float(a))); }
inline __half __hfma(__half a, __half b, __half c) { return __half(fmaf(float(a), float(b), float(c))); }
inline __half __hmax(__half a, __half b) { return __half(fmaxf(float(a), float(b))); }
inline __half __hmin(__half a, __half b) { return __half(fminf(float(a), float(b))); }
inline bool __heq(__half a, __half b) { return float(a) == float(b); }
inline bool __hne(__half a, __half b) { return float(a) != float(b); }
inline bool __hlt(__half a, __half b) { return float(a) < float(b); }
inline bool __hle(__half a, __half b) { return float(a) <= float(b); }
inline bool __hgt(__half a, __half b) { return float(a) > float(b); }
inline bool __hge(__half a, __half b) { return float(a) >= float(b); }
inline bool __hisnan(__half a) { return float(a) != float(a); }
inline bool __hisinf(__half a) { return isinf(float(a)); }
inline __half hsqrt(__half a) { return __half(sqrtf(float(a))); }
inline __half hrsqrt(__half a) { return __half(1.0f / sqrtf(float(a))); }
inline __half hexp(__half a) { return __half(expf(float(a))); }
inline __half hlog(__half a) { return __half(logf(float(a))); }
inline __half hsin(__half a) { return __half(sinf(float(a))); }
inline __half hcos(__half a) { return __half(cosf(float(a))); }
inline __half hfloor(__half a) { return __half(floorf(float(a))); }
inline __half hceil(__half a) { return __half(ceilf(float(a))); }
inline __half2 __hadd2(__half2 a, __half2 b) { return {__hadd(a.x, b.x), __hadd(a.y, b.y)}; }
inline __half2 __hmul2(__half2 a, __half2 b) { return {__hmul(a.x, b.x), __hmul(a.y, b.y)}; }
inline __half2 __hfma2(__half2 a, __half2 b, __half2 c) { return {__hfma(a.x, b.x, c.x), __hfma(a.y, b.y, c.y)}; }
#define ACCEL_HALF_OP(op)                                                                         \
  inline __half operator op(__half a, __half b) { return __half(float(a) op float(b)); }          \
  inline __half& operator op##=(__half& a, __half b) { return a = __half(float(a) op float(b)); }
ACCEL_HALF_OP(+) ACCEL_HALF_OP(-) ACCEL_HALF_OP(*) ACCEL_HALF_OP(/)
#undef ACCEL_HALF_OP
inline __half operator-(__half a) { return __hneg(a); }
#define ACCEL_HALF_CMP(op) inline bool operator op(__half a, __half b) { return float(a) op float(b); }
ACCEL_HALF_CMP(==) ACCEL_HALF_CMP(!=) ACCEL_HALF_CMP(<) ACCEL_HALF_CMP(<=) ACCEL_HALF_CMP(>) ACCEL_HALF_CMP(>=)
#undef ACCEL_HALF_CMP
typedef __half half;
typedef __half2 half2;
