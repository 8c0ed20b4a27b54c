// The host JIT for fused kernels (DESIGN.md "Backends", cpu): where it pays (large arrays, long
// chains, repeated use) a KernelIR is emitted in the host dialect (codegen/dialect.h), built by
// the system C++ compiler into a shared object in a background thread, stored in the kernel
// cache and used once ready. The interpreter serves meanwhile and wherever no compiler exists.
//
// The compiler and the cache key: host_compiler.h. ACCEL_JIT=0 turns the JIT off.
#pragma once
#include <cstdint>
#include <string>

#include "accel/ir/kernel_ir.h"

namespace accel::cpu {

// A compiled kernel: runs flat elements [begin, end) over operand base pointers (inputs, then
// outputs), all contiguous or scalar.
using HostKernel = void (*)(char* const* ptrs, int64_t begin, int64_t end);

// The compiled kernel of `ir` if it is ready. Otherwise asks for one in the background when it
// pays for `elements` per run, and returns nullptr (the caller interprets).
HostKernel host_kernel_for(const ir::KernelIR& ir, int64_t elements);
// Compiles (or loads from the caches) now, in this thread. Throws CompileError or
// BackendUnavailable; used by tests and by callers that want the kernel before timing it.
HostKernel compile_host_kernel(const ir::KernelIR& ir);
// Waits until no compile is queued or running.
void host_jit_wait();
// Forgets the kernels of this process (the disk cache stays), so the next request loads or
// compiles again.
void host_jit_forget();

struct HostJitStats {
  uint64_t compiles = 0;   // compiler runs that produced a kernel
  uint64_t disk_hits = 0;  // kernels loaded from the kernel cache without compiling
  uint64_t failures = 0;   // compiles or loads that failed (the interpreter kept the kernel)
  uint64_t jit_runs = 0;   // fused runs done by compiled kernels
  double compile_seconds = 0;
  std::string compiler;  // the compiler's --version line, or why there is none
};
HostJitStats host_jit_stats();
bool host_jit_enabled();
void set_host_jit_enabled(bool on);
void note_jit_run();

}  // namespace accel::cpu
