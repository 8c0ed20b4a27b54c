// accel's own CUDA kernels (device_src/*.cuh, embedded as text): each source is prefixed with
// nvrtc_std.cuh, compiled by NVRTC on first use per device (and kept in the kernel cache), and
// its kernels looked up once per device. Launches go to the device's current stream.
#pragma once
#include <map>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "accel/backend/cuda/kernel.h"

namespace accel::cuda {

// NVRTC options every built-in source is compiled with (the std prelude is device code).
std::vector<std::string> builtin_compile_options();
// nvrtc_std.cuh followed by `body`, their #pragma once lines dropped.
std::string builtin_source(const char* body);

class BuiltinKernels {
 public:
  // `names`: the template instantiations (name expressions) to compile; extern "C" kernels need
  // not be named.
  BuiltinKernels(std::string source, std::vector<std::string> names, std::string program_name,
                 std::vector<std::string> options = builtin_compile_options());
  // The kernel on a device (compiling and loading the module on first use).
  Kernel get(const std::string& name, int device);

 private:
  Module module_;
  std::mutex mutex_;
  std::map<std::pair<std::string, int>, Kernel> kernels_;
};

// Threads per block of the grid-stride kernels, and a grid that fills the device without
// exceeding gridDim.x's limit: at most 32 blocks per multiprocessor.
inline constexpr unsigned kBlockThreads = 256;
unsigned grid_for(int64_t work, int device);

}  // namespace accel::cuda
