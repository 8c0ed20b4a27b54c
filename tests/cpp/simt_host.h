// A host emulator for the CUDA kernels of accel/device_src (reduce.cuh, scan.cuh, nonzero.cuh),
// so their index arithmetic, barriers and multi-pass orchestration are tested on machines without
// a GPU. The threads of a block are fibers (ucontext) on the calling thread, run in turn until
// each reaches a barrier (__syncthreads, __syncwarp), which releases once every thread still
// running has reached it; a barrier nobody can pass fails the test instead of hanging. Blocks run
// one after another, which is valid for kernels whose blocks never wait for each other (true of
// all of these). __shared__ becomes `static`: one copy per kernel instantiation, used by the one
// block running. Include after the accel headers and before the device sources.
#pragma once
#include <ucontext.h>

#include <cstring>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

namespace simt {

struct Index {
  unsigned x = 0, y = 0, z = 0;
};

inline Index thread_index, block_index, block_dim, grid_dim;

enum class State { runnable, at_block_barrier, at_warp_barrier, done };

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

// Runs kernel() as every thread of a grid_x x grid_y grid of `threads`-thread blocks.
template <class F> void launch(unsigned grid_x, unsigned grid_y, unsigned threads, F kernel) {
  grid_dim = {grid_x, grid_y, 1};
  block_dim = {threads, 1, 1};
  const std::function<void()> run = kernel;
  static std::vector<Fiber> pool;  // stacks kept from launch to launch
  if (pool.size() != threads) pool = std::vector<Fiber>(threads);
  for (Fiber& f : pool)
    if (f.stack.empty()) f.stack.resize(64 * 1024);
  fibers = &pool;
  body = &run;
  for (unsigned y = 0; y < grid_y; ++y)
    for (unsigned x = 0; x < grid_x; ++x) {
      block_index = {x, y, 0};
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
            thread_index = {current, 0, 0};
            swapcontext(&scheduler, &pool[current].context);
            ran = true;
          }
          all_done = all_done && pool[current].state == State::done;
        }
        release();
        if (!ran && !all_done)
          throw std::logic_error("simt: block (" + std::to_string(x) + ", " + std::to_string(y) +
                                 ") is stuck: its threads wait at barriers that cannot open");
      }
    }
  fibers = nullptr;
}

}  // namespace simt

#define threadIdx (::simt::thread_index)
#define blockIdx (::simt::block_index)
#define blockDim (::simt::block_dim)
#define gridDim (::simt::grid_dim)
#define __global__
#define __launch_bounds__(n)
#define __grid_constant__
#define __noinline__ inline __attribute__((noinline))
#define __shared__ static

inline void __syncthreads() { simt::wait(simt::State::at_block_barrier); }
inline void __syncwarp() { simt::wait(simt::State::at_warp_barrier); }
inline float __int_as_float(int i) {
  float f;
  std::memcpy(&f, &i, sizeof f);
  return f;
}
inline double __longlong_as_double(long long i) {
  double d;
  std::memcpy(&d, &i, sizeof d);
  return d;
}
