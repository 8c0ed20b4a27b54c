// The host JIT for fused kernels (DESIGN.md "Backends", cpu): where it pays (large arrays, long
// chains, repeated use) a KernelIR is emitted in the host dialect (codegen/dialect.h), built by
// the system C++ compiler into a shared object in a background thread, stored in the kernel
// cache and used once ready. The interpreter serves meanwhile and wherever no compiler exists.
//
// The compiler and the cache key: host_compiler.h. ACCEL_JIT=0 turns the JIT off.
#pragma once
#include <cstdint>
#include <string>

#include "accel/backend/cpu/cpu.h"  // the JIT's switches and counters
#include "accel/ir/kernel_ir.h"

namespace accel::cpu {

// A compiled kernel: runs n elements along one row of the coalesced iteration space
// (fused_rows.h); row[k] is operand k's first element there (inputs, then outputs), step[k] its
// step along the row in bytes. A contiguous-only kernel's space is one row.
using HostKernel = void (*)(char* const* row, const int64_t* step, int64_t n);

// The compiled kernel of `ir` if it is ready. Otherwise asks for one in the background when it
// pays for `elements` per run, and returns nullptr (the caller interprets).
HostKernel host_kernel_for(const ir::KernelIR& ir, int64_t elements);
// Compiles (or loads from the caches) now, in this thread. Throws CompileError or
// BackendUnavailable; used by tests and by callers that want the kernel before timing it.
HostKernel compile_host_kernel(const ir::KernelIR& ir);
// Counts a fused run done by a compiled kernel (HostJitStats::jit_runs).
void note_jit_run();

}  // namespace accel::cpu
