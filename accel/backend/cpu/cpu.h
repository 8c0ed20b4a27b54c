// accel::cpu, the C++ face of the CPU backend: its threads, the host JIT's switches and
// counters, and the BLAS it uses. What the Python bindings and applications may call; the rest
// of backend/cpu/ is internal.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace accel::cpu {

// --- threads (thread_pool.h) ---
// Threads used by parallel_for, the caller included.
int num_threads();
// Changes the pool size (1 = everything inline). Not to be called while work is running.
void set_num_threads(int n);

// --- the host JIT for fused kernels (host_jit.h) ---
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
// For a process about to end: stops the host compiles in flight (the compiler is killed, its
// temporary directory removed) and fails any compile asked for later. exit() does it by itself;
// Python's accel calls it from an atexit callback as well, since Python ends an uncaught
// KeyboardInterrupt by raising SIGINT again, which skips exit()'s handlers
// (compiler_process.h).
void stop_host_compiles();

// --- the BLAS ---
// Which BLAS is used, and where it is looked for. The library is loaded with dlopen on
// first use (blas_library.h), searching in this order:
//   1. ACCEL_BLAS_PATH: a file (or soname) to use and nothing else; "none" disables BLAS;
//   2. candidates the embedding registered with add_blas_candidate (accel's Python package
//      registers the OpenBLAS bundled with NumPy: it is already loaded in the process, so accel
//      and NumPy share one thread pool instead of two competing for the cores). Measured on a
//      2-core EPYC, interleaved in one process at 2048x2048, NumPy 2.4's OpenBLAS 0.3.31 and
//      Debian's 0.3.21 tie on gemm (sgemm 39-54, dgemm 20-27 GFLOP/s for both over six runs,
//      with or without OPENBLAS_CORETYPE); Debian's threaded sgemv at 4096x4096 was 3-4x
//      faster (12 vs 3 GFLOP/s; both 11 single-threaded): ACCEL_BLAS_PATH picks it there;
//   3. system libraries (OpenBLAS, its 64-bit-integer build, MKL, BLIS, then a generic CBLAS
//      unless it is the reference BLAS, which is slower than accel's own loop).
// Without a BLAS, matmul runs accel's own loops: correct, several times slower.
// Adds a library to try (in registration order) before the system names. Has no effect once
// the BLAS is loaded (the first float matmul or blas_info()).
void add_blas_candidate(const std::string& path);

struct BlasInfo {
  bool loaded = false;
  std::string path;      // the file loaded
  std::string source;    // "ACCEL_BLAS_PATH", "registered candidate", "system search"
  std::string flavour;   // "LP64" (32-bit integers) or "ILP64" (64-bit: any size goes to BLAS)
  std::string symbol;    // how its gemm is spelled, e.g. "scipy_cblas_sgemm64_"
  std::string config;    // OpenBLAS's build line; "" for a BLAS that cannot say
  std::string core;      // the kernel family OpenBLAS picked for this CPU, e.g. "Haswell"
  int threads = 0;       // BLAS threads; 0 when the library cannot say
  std::string coretype;  // OPENBLAS_CORETYPE at load time, "" if unset
  bool coretype_set_by_accel = false;
  std::string problem;                // when !loaded: why ("disabled by ACCEL_BLAS_PATH=none", ...)
  std::vector<std::string> attempts;  // each candidate tried and not used, with the reason
};

// Loads the BLAS if needed; never throws (a failure is described in `problem`).
BlasInfo blas_info();

}  // namespace accel::cpu
