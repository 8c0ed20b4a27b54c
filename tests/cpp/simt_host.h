// The one host emulator of CUDA for accel's tests: the kernels of accel/device_src (reduce,
// scan, nonzero, matmul, gather and scatter) and the generated elementwise kernels run on
// machines without a GPU, so their index arithmetic, barriers, atomics and multi-pass
// orchestration are tested against the CPU backend.
//
// Blocks run concurrently on a few OS threads (workers), so atomics contend and blocks that
// wrongly depend on each other race; the threads of a block are fibers (ucontext) on the worker
// running it, run in turn until each reaches a barrier (__syncthreads, __syncwarp), which
// releases once every thread still running (of the block, or of its warp) has reached it; a
// barrier nobody can pass fails the test instead of hanging. The order of blocks and of the
// threads between barriers comes from a seed (SIMT_SEED, or launch()'s Options), so a result
// that depends on it shows as a difference between seeds (launch_is_order_independent). Shared
// memory is per worker (thread_local), and shared variables declared with ACCEL_SHARED (as
// accel's kernels do) are filled with the seed's garbage when a block first touches them, so a
// read before a write in that block shows. Atomics are real atomics. A launch is checked
// against CUDA's limits (block size and dimensions, grid y and z, 48 KiB of static shared
// memory per block) before anything runs. Include after the accel headers (and after any CUDA
// toolkit header, whose nvcc keywords this replaces) and before the device sources.
//
// Two parts. The first, the CUDA built-ins, uses no standard header, so that generated kernel
// source (which brings nvrtc_std.cuh in place of the standard library) can include it too: a
// separately compiled kernel library defines SIMT_KERNEL_LIBRARY first and is attached to the
// test program's emulator by calling its simt_attach(). The second, the launcher, is the test
// program's alone.
#pragma once

#ifndef SIMT_KERNEL_LIBRARY
#include <ucontext.h>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
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

// How a kernel library reaches the emulator: the running thread's built-ins, the barriers (the
// launcher's wait()), and the first touch of a shared variable (shared_memory()).
using BuiltinsFn = Builtins* (*)();
using WaitFn = void (*)(State);
using SharedFn = void (*)(void*, unsigned long);

#ifdef SIMT_KERNEL_LIBRARY
// Private to the library (not `inline`: an inline variable of a shared object is bound
// process-wide and keeps the library from unloading); simt_attach points them at the emulator.
static BuiltinsFn builtins_fn = nullptr;
static WaitFn wait_fn = nullptr;
static SharedFn shared_fn = nullptr;
static Builtins* builtins() { return builtins_fn(); }
static void wait(State s) { wait_fn(s); }
static void shared_memory(void* p, unsigned long bytes) { shared_fn(p, bytes); }
extern "C" __attribute__((visibility("default"))) void simt_attach(BuiltinsFn b, WaitFn w,
                                                                   SharedFn s) {
  builtins_fn = b;
  wait_fn = w;
  shared_fn = s;
}
#else
inline thread_local Builtins builtins_of_running_thread;
inline Builtins* builtins() { return &builtins_of_running_thread; }
inline void wait(State s);
inline void shared_memory(void* p, unsigned long bytes);
#endif

// Atomics on memory other workers touch at the same time: a compare-and-swap loop.
template <class T>
struct same {  // a parameter type not deduced, so that arguments convert as to CUDA's overloads
  using type = T;
};
template <class T>
T atomic_update(T* p, T v, T (*f)(T, T)) {
  T old;
  __atomic_load(p, &old, __ATOMIC_RELAXED);
  T desired = f(old, v);
  while (!__atomic_compare_exchange(p, &old, &desired, false, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED))
    desired = f(old, v);
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

// How a launch runs: the seed of its block and thread orders and of its shared-memory garbage,
// and how many blocks run at once (1: one after another, in the seed's order).
struct Options {
  uint64_t seed = 0;
  unsigned workers = 0;  // 0: SIMT_WORKERS, else 4
};

inline uint64_t splitmix(uint64_t& s) {
  uint64_t z = (s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

inline uint64_t env_number(const char* name, uint64_t fallback) {
  const char* v = std::getenv(name);
  return v && *v ? std::strtoull(v, nullptr, 10) : fallback;
}

inline constexpr unsigned long kMaxStaticShared = 48 * 1024;

// The state of one worker: its fibers, the block it runs, and the shared variables that block
// has touched (filled with garbage on the first touch).
struct Worker {
  ucontext_t scheduler;
  std::vector<Fiber> pool;  // stacks kept from launch to launch
  unsigned current = 0;
  const std::function<void()>* body = nullptr;
  std::vector<void*> shared_seen;
  unsigned long shared_bytes = 0;
  uint64_t garbage_seed = 0;
  std::exception_ptr error;  // thrown by a thread of the block
};

inline thread_local Worker* worker = nullptr;

inline void fiber_main() {
  Worker& w = *worker;
  try {
    (*w.body)();
  } catch (...) {
    if (!w.error) w.error = std::current_exception();
  }
  w.pool[w.current].state = State::done;
  swapcontext(&w.pool[w.current].context, &w.scheduler);
}

inline void wait(State s) {
  Worker& w = *worker;
  w.pool[w.current].state = s;
  swapcontext(&w.pool[w.current].context, &w.scheduler);
}

inline void shared_memory(void* p, unsigned long bytes) {
  Worker& w = *worker;
  if (std::find(w.shared_seen.begin(), w.shared_seen.end(), p) != w.shared_seen.end()) return;
  w.shared_seen.push_back(p);
  w.shared_bytes += bytes;
  if (w.shared_bytes > kMaxStaticShared)
    throw std::length_error("simt: a block uses " + std::to_string(w.shared_bytes) +
                            " bytes of static shared memory; CUDA allows 48 KiB (49152)");
  auto* b = static_cast<unsigned char*>(p);
  for (unsigned long i = 0; i < bytes; ++i) b[i] = static_cast<unsigned char>(splitmix(w.garbage_seed));
}

// Opens the barriers every running thread (of the block, or of a warp) has reached.
inline void release(std::vector<Fiber>& fibers) {
  const unsigned n = static_cast<unsigned>(fibers.size());
  bool block_ready = true, any_waiting = false;
  for (const Fiber& f : fibers) {
    block_ready = block_ready && (f.state == State::at_block_barrier || f.state == State::done);
    any_waiting = any_waiting || f.state == State::at_block_barrier;
  }
  if (block_ready && any_waiting)
    for (Fiber& f : fibers)
      if (f.state == State::at_block_barrier) f.state = State::runnable;
  for (unsigned w = 0; w < n; w += 32) {
    bool warp_ready = true, warp_waiting = false;
    for (unsigned t = w; t < n && t < w + 32; ++t) {
      const State s = fibers[t].state;
      warp_ready = warp_ready && (s == State::at_warp_barrier || s == State::done);
      warp_waiting = warp_waiting || s == State::at_warp_barrier;
    }
    if (warp_ready && warp_waiting)
      for (unsigned t = w; t < n && t < w + 32; ++t) fibers[t].state = State::runnable;
  }
}

inline std::string block_name(const Index& b) {
  return "(" + std::to_string(b.x) + ", " + std::to_string(b.y) + ", " + std::to_string(b.z) + ")";
}

// Runs one block on the calling worker: every thread from the start of kernel() to its end.
inline void run_block(Worker& w, const Index& block_dim, const Index& block, uint64_t seed) {
  std::vector<Fiber>& pool = w.pool;
  const unsigned threads = static_cast<unsigned>(pool.size());
  for (Fiber& f : pool) {
    getcontext(&f.context);
    f.context.uc_stack.ss_sp = f.stack.data();
    f.context.uc_stack.ss_size = f.stack.size();
    f.context.uc_link = nullptr;
    makecontext(&f.context, fiber_main, 0);
    f.state = State::runnable;
  }
  w.shared_seen.clear();
  w.shared_bytes = 0;
  w.garbage_seed = seed ^ 0x5eed;
  // Between barriers the threads run in an order drawn from the seed, then in its reverse,
  // alternately: a missing barrier shows whichever side of it a read falls.
  std::vector<unsigned> order(threads);
  for (unsigned i = 0; i < threads; ++i) order[i] = i;
  for (unsigned i = threads; i > 1; --i) std::swap(order[i - 1], order[splitmix(seed) % i]);
  bool all_done = false;
  for (unsigned sweep = 0; !all_done; ++sweep) {
    bool ran = false;
    all_done = true;
    for (unsigned i = 0; i < threads; ++i) {
      w.current = order[sweep % 2 ? threads - 1 - i : i];
      Fiber& f = pool[w.current];
      if (f.state == State::runnable) {
        // Thread ids are x-fastest, as CUDA numbers the threads of a block (and forms warps).
        builtins()->thread = {w.current % block_dim.x, w.current / block_dim.x % block_dim.y,
                              w.current / (block_dim.x * block_dim.y)};
        swapcontext(&w.scheduler, &f.context);
        ran = true;
      }
      all_done = all_done && f.state == State::done;
    }
    if (w.error) std::rethrow_exception(std::exchange(w.error, nullptr));
    release(pool);
    if (!ran && !all_done)
      throw std::logic_error("simt: block " + block_name(block) +
                             " is stuck: its threads wait at barriers that cannot open");
  }
}

// CUDA's launch limits (every GPU since compute capability 2.0).
inline void check_launch(const Index& grid, const Index& block) {
  const unsigned long long threads = 1ull * block.x * block.y * block.z;
  std::string why;
  if (block.x > 1024 || block.y > 1024 || block.z > 64)
    why = "block dimensions are at most (1024, 1024, 64)";
  else if (threads > 1024)
    why = "a block has at most 1024 threads";
  else if (grid.x > 0x7fffffffu || grid.y > 65535 || grid.z > 65535)
    why = "grid dimensions are at most (2^31 - 1, 65535, 65535)";
  if (!why.empty())
    throw std::invalid_argument("simt: cannot launch grid " + block_name(grid) + " of blocks " +
                                block_name(block) + ": " + why);
}

// The workers: the launching thread and helper threads kept for the whole process (each with
// its fibers' stacks), woken for every launch.
class WorkerPool {
 public:
  // Runs job(0) on the calling thread and job(1) ... job(helpers) on helper threads; returns
  // when all are done.
  void run(unsigned helpers, const std::function<void(unsigned)>& job) {
    std::unique_lock<std::mutex> lock(mutex_);
    while (threads_.size() < helpers) threads_.emplace_back([this] { serve(); });
    job_ = &job;
    wanted_ = helpers;
    ++generation_;
    wake_.notify_all();
    lock.unlock();
    job(0);
    lock.lock();
    done_.wait(lock, [&] { return wanted_ == 0 && running_ == 0; });
    job_ = nullptr;
  }

 private:
  void serve() {
    uint64_t seen = 0;
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
      wake_.wait(lock, [&] { return generation_ != seen && wanted_ > 0; });
      seen = generation_;
      const unsigned index = wanted_--;
      ++running_;
      const std::function<void(unsigned)>* job = job_;
      lock.unlock();
      (*job)(index);
      lock.lock();
      --running_;
      done_.notify_all();
    }
  }
  std::mutex mutex_;
  std::condition_variable wake_, done_;
  std::vector<std::thread> threads_;  // never joined: the pool lives as long as the process
  const std::function<void(unsigned)>* job_ = nullptr;
  uint64_t generation_ = 0;
  unsigned wanted_ = 0, running_ = 0;
};

inline WorkerPool& worker_pool() {
  static auto* pool = new WorkerPool();  // never destroyed: its threads wait until exit
  return *pool;
}

inline Worker& this_worker() {
  static thread_local Worker w;
  return w;
}

// Runs kernel() as every thread of a `grid` of `block`-shaped blocks (dimensions of 0 count
// as 1, as dim3's defaults do).
inline void launch_function(Index grid, Index block, const std::function<void()>& run,
                            Options options) {
  for (Index* d : {&grid, &block}) {
    if (d->x == 0) d->x = 1;
    if (d->y == 0) d->y = 1;
    if (d->z == 0) d->z = 1;
  }
  check_launch(grid, block);
  const uint64_t seed = options.seed ? options.seed : env_number("SIMT_SEED", 1);
  unsigned workers = options.workers ? options.workers
                                     : static_cast<unsigned>(env_number("SIMT_WORKERS", 4));
  const unsigned threads = block.x * block.y * block.z;
  const uint64_t blocks = 1ull * grid.x * grid.y * grid.z;
  workers = static_cast<unsigned>(std::min<uint64_t>(std::max(workers, 1u), blocks));
  // The blocks in the seed's order.
  std::vector<uint64_t> order(blocks);
  uint64_t s = seed;
  for (uint64_t i = 0; i < blocks; ++i) order[i] = i;
  for (uint64_t i = blocks; i > 1; --i) std::swap(order[i - 1], order[splitmix(s) % i]);
  std::atomic<bool> failed{false};
  std::mutex error_mutex;
  std::exception_ptr error;
  // Worker k runs blocks k, k + workers, ... of that order: every worker gets blocks.
  const std::function<void(unsigned)> work = [&](unsigned k) {
    Worker& w = this_worker();
    Worker* const previous = worker;
    worker = &w;
    if (w.pool.size() != threads) w.pool = std::vector<Fiber>(threads);
    for (Fiber& f : w.pool)
      if (f.stack.empty()) f.stack.resize(64 * 1024);
    w.body = &run;
    builtins()->grid_dim = grid;
    builtins()->block_dim = block;
    try {
      for (uint64_t i = k; i < blocks && !failed; i += workers) {
        const uint64_t b = order[i];
        builtins()->block = {static_cast<unsigned>(b % grid.x),
                             static_cast<unsigned>(b / grid.x % grid.y),
                             static_cast<unsigned>(b / (1ull * grid.x * grid.y))};
        run_block(w, block, builtins()->block, seed ^ (b * 0x9e3779b97f4a7c15ull));
      }
    } catch (...) {
      failed = true;  // the other workers stop
      std::lock_guard<std::mutex> lock(error_mutex);
      if (!error) error = std::current_exception();
    }
    worker = previous;
  };
  worker_pool().run(workers - 1, work);
  if (error) std::rethrow_exception(error);
}

template <class F>
void launch(Index grid, Index block, F kernel, Options options = {}) {
  launch_function(grid, block, std::function<void()>(std::move(kernel)), options);
}

// Runs `body` (launches and a read of their result) under several seeds, one block at a time,
// and says whether every seed gave the first seed's result: a kernel whose result depends on
// the order of its blocks or threads is racy.
template <class Body>
bool launch_is_order_independent(Body body, int seeds = 4) {
  using Result = decltype(body(Options{}));
  Result first{};
  for (int i = 0; i < seeds; ++i) {
    Result r = body(Options{static_cast<uint64_t>(1000 + i), 1});
    if (i == 0)
      first = r;
    else if (!(r == first))
      return false;
  }
  return true;
}

// Attaches a kernel library compiled with SIMT_KERNEL_LIBRARY (its simt_attach) to this
// emulator: its threadIdx and friends read the running thread's, its barriers are these.
using AttachFn = void (*)(BuiltinsFn, WaitFn, SharedFn);
inline void attach(AttachFn attach_library) {
  attach_library([] { return builtins(); }, [](State s) { wait(s); },
                 [](void* p, unsigned long n) { shared_memory(p, n); });
}

}  // namespace simt

#endif  // SIMT_KERNEL_LIBRARY

// The toolkit's headers (cuda_runtime's host_defines.h) define these for nvcc; here they mean
// host code. Shared memory is per worker thread: the blocks a worker runs use it in turn.
#undef __global__
#undef __device__
#undef __shared__
#undef __launch_bounds__
#undef __grid_constant__
#undef __noinline__
#define threadIdx (::simt::builtins()->thread)
#define blockIdx (::simt::builtins()->block)
#define blockDim (::simt::builtins()->block_dim)
#define gridDim (::simt::builtins()->grid_dim)
#define __global__
#define __device__
#define __launch_bounds__(...)
#define __grid_constant__
#define __noinline__ inline __attribute__((noinline))
#define __shared__ static thread_local
// accel's kernels declare shared variables with ACCEL_SHARED (nvrtc_std.cuh), so that the
// emulator sees each one and fills it with garbage when a block first touches it.
#define ACCEL_SHARED(type, name) \
  static thread_local type name;  \
  ::simt::shared_memory(&name, sizeof name)

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
  __atomic_compare_exchange(p, &expected, &desired, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
  return expected;  // the old value: `expected` when it matched, else what was there
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
extern "C" void sincosf(float, float*, float*);
#define SIMT_CLASSIFY(fn)                               \
  inline bool fn(float x) { return __builtin_##fn(x); } \
  inline bool fn(double x) { return __builtin_##fn(x); }
SIMT_CLASSIFY(isnan) SIMT_CLASSIFY(isinf) SIMT_CLASSIFY(isfinite) SIMT_CLASSIFY(signbit)
// clang-format on
#undef SIMT_CLASSIFY
#endif  // SIMT_KERNEL_LIBRARY
