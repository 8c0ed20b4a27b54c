// The one host emulator of CUDA for accel's tests: the kernels of accel/device_src (reduce,
// scan, nonzero, matmul, gather and scatter) and the generated elementwise kernels run on
// machines without a GPU, so their index arithmetic, barriers, atomics and multi-pass
// orchestration are tested against the CPU backend.
//
// The threads of a block are fibers (ucontext) on the calling OS thread, run in turn until each
// reaches a barrier (__syncthreads, __syncwarp), which releases once every thread still running
// (of the block, or of its warp) has reached it; a barrier nobody can pass fails the test
// instead of hanging. Blocks run one after another, which is valid for kernels whose blocks
// never wait for each other (true of all of accel's). __shared__ becomes `static`: one copy per
// kernel instantiation, used by the one block running. Include after the accel headers (and
// after any CUDA toolkit header, whose nvcc keywords this replaces) and before the device
// sources.
//
// Two parts. The first, the CUDA built-ins, uses no standard header, so that generated kernel
// source (which brings nvrtc_std.cuh in place of the standard library) can include it too: a
// separately compiled kernel library defines SIMT_KERNEL_LIBRARY first and is attached to the
// test program's emulator by calling its simt_attach(). The second, the launcher, is the test
// program's alone.
#pragma once

#ifndef SIMT_KERNEL_LIBRARY
#include <ucontext.h>

#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#endif

namespace simt {

struct Index {
  unsigned x = 0, y = 0, z = 0;
};

// What the running thread sees as threadIdx, blockIdx, blockDim and gridDim.
struct Builtins {
  Index thread, block, block_dim, grid_dim;
};

enum class State { runnable, at_block_barrier, at_warp_barrier, done };

// How a kernel library's threads reach the emulator's barriers (the launcher's wait()).
using WaitFn = void (*)(State);

#ifdef SIMT_KERNEL_LIBRARY
// Private to the library (not `inline`: an inline variable of a shared object is bound
// process-wide and keeps the library from unloading); simt_attach points it at the emulator's.
static Builtins* builtins = nullptr;
static WaitFn wait_fn = nullptr;
static void wait(State s) { wait_fn(s); }
extern "C" __attribute__((visibility("default"))) void simt_attach(Builtins* b, WaitFn w) {
  builtins = b;
  wait_fn = w;
}
#else
inline Builtins builtins_of_running_thread;
inline Builtins* const builtins = &builtins_of_running_thread;
inline void wait(State s);
#endif

// Atomics: the fibers of a launch share one OS thread and switch only at barriers, so a plain
// read-modify-write is never interleaved with another thread's: it is atomic as it stands.
template <class T>
struct same {  // a parameter type not deduced, so that arguments convert as to CUDA's overloads
  using type = T;
};
template <class T>
T atomic_update(T* p, T v, T (*f)(T, T)) {
  const T old = *p;
  *p = f(old, v);
  return old;
}

}  // namespace simt

#ifndef SIMT_KERNEL_LIBRARY  // the launcher

namespace simt {

struct Fiber {
  ucontext_t context;
  std::vector<char> stack;
  State state = State::runnable;
};

inline ucontext_t scheduler;
inline std::vector<Fiber>* fibers = nullptr;
inline unsigned current = 0;
inline const std::function<void()>* body = nullptr;

inline void fiber_main() {
  (*body)();
  (*fibers)[current].state = State::done;
  swapcontext(&(*fibers)[current].context, &scheduler);
}

inline void wait(State s) {
  (*fibers)[current].state = s;
  swapcontext(&(*fibers)[current].context, &scheduler);
}

// Opens the barriers every running thread (of the block, or of a warp) has reached.
inline void release() {
  const unsigned n = static_cast<unsigned>(fibers->size());
  bool block_ready = true, any_waiting = false;
  for (const Fiber& f : *fibers) {
    block_ready = block_ready && (f.state == State::at_block_barrier || f.state == State::done);
    any_waiting = any_waiting || f.state == State::at_block_barrier;
  }
  if (block_ready && any_waiting)
    for (Fiber& f : *fibers)
      if (f.state == State::at_block_barrier) f.state = State::runnable;
  for (unsigned w = 0; w < n; w += 32) {
    bool warp_ready = true, warp_waiting = false;
    for (unsigned t = w; t < n && t < w + 32; ++t) {
      const State s = (*fibers)[t].state;
      warp_ready = warp_ready && (s == State::at_warp_barrier || s == State::done);
      warp_waiting = warp_waiting || s == State::at_warp_barrier;
    }
    if (warp_ready && warp_waiting)
      for (unsigned t = w; t < n && t < w + 32; ++t) (*fibers)[t].state = State::runnable;
  }
}

// Runs one block: every thread from the start of kernel() to its end.
inline void run_block(std::vector<Fiber>& pool, const Index& block_dim, const Index& block) {
  const unsigned threads = static_cast<unsigned>(pool.size());
  for (Fiber& f : pool) {
    getcontext(&f.context);
    f.context.uc_stack.ss_sp = f.stack.data();
    f.context.uc_stack.ss_size = f.stack.size();
    f.context.uc_link = nullptr;
    makecontext(&f.context, fiber_main, 0);
    f.state = State::runnable;
  }
  // Between barriers the threads run lowest first, then highest first, alternately: a missing
  // barrier shows whichever side of it a read falls.
  bool all_done = false;
  for (unsigned sweep = 0; !all_done; ++sweep) {
    bool ran = false;
    all_done = true;
    for (unsigned i = 0; i < threads; ++i) {
      current = sweep % 2 ? threads - 1 - i : i;
      if (pool[current].state == State::runnable) {
        // Thread ids are x-fastest, as CUDA numbers the threads of a block (and forms warps).
        builtins->thread = {current % block_dim.x, current / block_dim.x % block_dim.y,
                            current / (block_dim.x * block_dim.y)};
        swapcontext(&scheduler, &pool[current].context);
        ran = true;
      }
      all_done = all_done && pool[current].state == State::done;
    }
    release();
    if (!ran && !all_done)
      throw std::logic_error("simt: block (" + std::to_string(block.x) + ", " +
                             std::to_string(block.y) + ", " + std::to_string(block.z) +
                             ") is stuck: its threads wait at barriers that cannot open");
  }
}

// Runs kernel() as every thread of a `grid` of `block`-shaped blocks (dimensions of 0 count
// as 1, as dim3's defaults do).
template <class F>
void launch(Index grid, Index block, F kernel) {
  for (Index* d : {&grid, &block}) {
    if (d->x == 0) d->x = 1;
    if (d->y == 0) d->y = 1;
    if (d->z == 0) d->z = 1;
  }
  builtins->grid_dim = grid;
  builtins->block_dim = block;
  const std::function<void()> run = kernel;
  const unsigned threads = block.x * block.y * block.z;
  static std::vector<Fiber> pool;  // stacks kept from launch to launch
  if (pool.size() != threads) pool = std::vector<Fiber>(threads);
  for (Fiber& f : pool)
    if (f.stack.empty()) f.stack.resize(64 * 1024);
  fibers = &pool;
  body = &run;
  try {
    for (unsigned z = 0; z < grid.z; ++z)
      for (unsigned y = 0; y < grid.y; ++y)
        for (unsigned x = 0; x < grid.x; ++x) {
          builtins->block = {x, y, z};
          run_block(pool, block, builtins->block);
        }
  } catch (...) {
    fibers = nullptr;
    throw;
  }
  fibers = nullptr;
}

// Attaches a kernel library compiled with SIMT_KERNEL_LIBRARY (its simt_attach) to this
// emulator: its threadIdx and friends read the running thread's, its barriers are these.
using AttachFn = void (*)(Builtins*, WaitFn);
inline void attach(AttachFn attach_library) { attach_library(builtins, &wait); }

}  // namespace simt

#endif  // SIMT_KERNEL_LIBRARY

// The toolkit's headers (cuda_runtime's host_defines.h) define these for nvcc; here they mean
// host code.
#undef __global__
#undef __device__
#undef __shared__
#undef __launch_bounds__
#undef __grid_constant__
#undef __noinline__
#define threadIdx (::simt::builtins->thread)
#define blockIdx (::simt::builtins->block)
#define blockDim (::simt::builtins->block_dim)
#define gridDim (::simt::builtins->grid_dim)
#define __global__
#define __device__
#define __launch_bounds__(...)
#define __grid_constant__
#define __noinline__ inline __attribute__((noinline))
#define __shared__ static

inline void __syncthreads() { simt::wait(simt::State::at_block_barrier); }
inline void __syncwarp(unsigned = 0xffffffffu) { simt::wait(simt::State::at_warp_barrier); }

template <class T>
T atomicAdd(T* p, typename simt::same<T>::type v) {
  return simt::atomic_update<T>(p, v, [](T a, T b) { return T(a + b); });
}
template <class T>
T atomicMin(T* p, typename simt::same<T>::type v) {
  return simt::atomic_update<T>(p, v, [](T a, T b) { return b < a ? b : a; });
}
template <class T>
T atomicMax(T* p, typename simt::same<T>::type v) {
  return simt::atomic_update<T>(p, v, [](T a, T b) { return a < b ? b : a; });
}
template <class T>
T atomicExch(T* p, typename simt::same<T>::type v) {
  return simt::atomic_update<T>(p, v, [](T, T b) { return b; });
}
template <class T>
T atomicCAS(T* p, typename simt::same<T>::type expected, typename simt::same<T>::type desired) {
  const T old = *p;
  if (old == expected) *p = desired;
  return old;
}

inline float __int_as_float(int i) {
  float f;
  __builtin_memcpy(&f, &i, sizeof f);
  return f;
}
inline double __longlong_as_double(long long i) {
  double d;
  __builtin_memcpy(&d, &i, sizeof d);
  return d;
}

#ifdef SIMT_KERNEL_LIBRARY
// CUDA's device math library for a translation unit without the C library's headers: the C
// library's functions, with the float overloads CUDA adds.
#define SIMT_MATH1(fn)           \
  extern "C" double fn(double);  \
  extern "C" float fn##f(float); \
  inline float fn(float x) { return fn##f(x); }
#define SIMT_MATH2(fn)                  \
  extern "C" double fn(double, double); \
  extern "C" float fn##f(float, float); \
  inline float fn(float x, float y) { return fn##f(x, y); }
// clang-format off
SIMT_MATH1(acos) SIMT_MATH1(acosh) SIMT_MATH1(asin) SIMT_MATH1(asinh) SIMT_MATH1(atan)
SIMT_MATH1(atanh) SIMT_MATH1(cbrt) SIMT_MATH1(ceil) SIMT_MATH1(cos) SIMT_MATH1(cosh)
SIMT_MATH1(exp) SIMT_MATH1(exp2) SIMT_MATH1(expm1) SIMT_MATH1(fabs) SIMT_MATH1(floor)
SIMT_MATH1(log) SIMT_MATH1(log10) SIMT_MATH1(log1p) SIMT_MATH1(log2) SIMT_MATH1(nearbyint)
SIMT_MATH1(sin) SIMT_MATH1(sinh) SIMT_MATH1(sqrt) SIMT_MATH1(tan) SIMT_MATH1(tanh)
SIMT_MATH1(trunc) SIMT_MATH2(atan2) SIMT_MATH2(copysign) SIMT_MATH2(fmod) SIMT_MATH2(hypot)
SIMT_MATH2(nextafter) SIMT_MATH2(pow)
#undef SIMT_MATH1
#undef SIMT_MATH2
#define SIMT_CLASSIFY(fn)                               \
  inline bool fn(float x) { return __builtin_##fn(x); } \
  inline bool fn(double x) { return __builtin_##fn(x); }
SIMT_CLASSIFY(isnan) SIMT_CLASSIFY(isinf) SIMT_CLASSIFY(isfinite) SIMT_CLASSIFY(signbit)
// clang-format on
#undef SIMT_CLASSIFY
#endif  // SIMT_KERNEL_LIBRARY
