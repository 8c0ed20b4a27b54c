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

}  // namespace
}  // namespace accel_simt

// Continued in simt_cpu_block.h (running a block's threads, barriers, warp functions) and
// simt_cpu_intrinsics.h (assert, printf, atomics, the math API, __half): raw_kernel.cpp
// concatenates the three, in that order.
