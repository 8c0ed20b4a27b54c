// C++ source -> a loaded shared object, through the system compiler and the kernel cache: what
// the host JIT (fused kernels) and kernel templates (ElementwiseKernel / ReductionKernel) build
// their kernels with.
//
// Compiler: ACCEL_CXX, else c++, g++ or clang++ on PATH. Cache key: SHA-256 of the source, the
// compiler's identity (--version), the flags and the CPU model (the flags say -march=native).
#pragma once
#include <string>
#include <vector>

namespace accel::cpu {

struct HostLibrary {
  void* handle = nullptr;  // from dlopen; never closed (kernels live as long as the process)
  bool from_disk = false;  // loaded from the kernel cache without compiling
  double compile_seconds = 0;
};

// Builds `source` (or loads it from the kernel cache) and opens it. `extra_flags` are added to
// the compile command (and the key), e.g. "-DN=4". `what` names the kernel in messages. Throws
// BackendUnavailable (no compiler) or CompileError (with the compiler's log). `waited_for`:
// the caller waits for the compile (a RawKernel's first launch), so a long one shows the
// compile status line (runtime/compile_status.h); fused kernels compile in the background
// while the interpreter runs, and show nothing.
HostLibrary build_host_library(const std::string& source,
                               const std::vector<std::string>& extra_flags,
                               const std::string& what, bool waited_for = true);
// The symbol `name` of a library; throws CompileError naming `what` when it is missing.
void* host_symbol(const HostLibrary& lib, const std::string& name, const std::string& what);
// Source to put first in a kernel whose loops call sin, exp, ...: declares glibc's vector
// math (libmvec) so that they vectorise.
const char* host_vector_math_declarations();
// The compiler's name and --version line, or why there is none.
std::string host_compiler_identity();

}  // namespace accel::cpu
