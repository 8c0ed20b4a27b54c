// CUDA C++ source -> CUBIN (or PTX) with NVRTC, cached in memory and in the kernel cache on disk.
// Works without a GPU: the target architecture is then named by the caller.
#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace accel::cuda {

struct CompileOptions {
  // "sm_90" -> CUBIN for that GPU; "compute_90" -> PTX (JIT-compiled by the driver at load).
  // Empty: the best target for `device` (compile_target()).
  std::string arch;
  int device = 0;
  std::vector<std::string> options;           // extra NVRTC options, e.g. "-DN=4", "--use_fast_math"
  std::vector<std::string> name_expressions;  // e.g. "axpy<float>": template instantiations to keep
  std::string program_name = "kernel.cu";     // the file name in error messages
  bool use_cache = true;
};

struct CompiledModule {
  std::string arch;   // what it was compiled for
  bool cubin = true;  // false: PTX text
  std::string image;  // CUBIN bytes, or PTX text with its terminating NUL
  std::map<std::string, std::string> lowered_names;  // name expression -> mangled symbol
  std::string log;    // compiler warnings (empty when clean)
  std::string key;    // the kernel cache key
};

struct CompileStats {
  uint64_t compiles = 0;     // NVRTC invocations
  uint64_t memory_hits = 0;  // served from this process's memory
  uint64_t disk_hits = 0;    // served from the kernel cache on disk
  double compile_seconds = 0;  // total time spent in NVRTC
};

// Compiles (or finds in the caches). Throws CompileError with the log and the offending source
// lines, or BackendUnavailable when NVRTC is missing.
std::shared_ptr<const CompiledModule> compile(std::string_view source, const CompileOptions& opts);
// The architecture to compile for on a device: "sm_XY" when NVRTC knows the device, else PTX for
// the newest architecture NVRTC knows ("compute_XY"), which the driver compiles at load time.
std::string compile_target(int device);
// The same choice for a given compute capability (e.g. 90), without a device.
std::string compile_target_for(int compute_capability);
CompileStats compile_stats();
// Forgets the in-memory cache (the disk cache stays); used to measure warm-from-disk compiles.
void clear_compile_memory_cache();

}  // namespace accel::cuda
