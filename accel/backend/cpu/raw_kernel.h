// User kernels on the CPU: the CUDA C++ of a RawKernel / RawModule, compiled by the host compiler
// against device_src/simt_cpu.h (the CUDA names in plain C++) and launched with a grid and a
// block like on a GPU. Blocks are spread over the thread pool; in a block, kernels without
// barriers or warp functions run their threads as a plain loop, the others as fibers that meet
// at __syncthreads and, 32 at a time, at warp functions (docs/ARCHITECTURE.md, "User kernels").
//
// What cannot run on the CPU (inline PTX, textures and surfaces, grid-wide cooperative sync,
// kernels launching kernels) is a CompileError saying so, before any compiler runs.
#pragma once
#include <complex>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "accel/core/array.h"

namespace accel::cpu {

struct LaunchDims {
  unsigned x = 1, y = 1, z = 1;
  std::string str() const;  // "(x, y, z)"
};

// Limits of a launch, as on an sm_90 GPU: a block of at most 1024 threads in (1024, 1024, 64),
// a grid within (2^31 - 1, 65535, 65535), dynamic shared memory up to the opt-in limit.
inline constexpr unsigned kMaxThreadsPerBlock = 1024;
inline constexpr unsigned kMaxBlockDim[3] = {1024, 1024, 64};
inline constexpr unsigned kMaxGridDim[3] = {2147483647u, 65535, 65535};
inline constexpr size_t kMaxDynamicSharedBytes = 227 * 1024;
// Each thread of a fiber kernel has this much stack (CUDA's default is 1 KiB per thread).
inline constexpr size_t kThreadStackBytes = 128 * 1024;

// The arguments of one launch, in the kernel's parameter order.
class RawArgs {
 public:
  // An array passes the address of its element 0. It is evaluated first, and values still to
  // be computed from its memory are computed before the kernel may write it.
  RawArgs& add(const Array& array);
  // A scalar of any accel dtype, passed by value.
  RawArgs& add_scalar(Dtype dtype, const void* value);
  template <class T>
    requires std::is_arithmetic_v<T> || is_complex_v<T>
  RawArgs& add(T value) {
    if constexpr (std::is_same_v<T, bool> || !std::is_integral_v<T>) {
      return add_scalar(dtype_of<T>, &value);
    } else {
      constexpr Dtype s[] = {Dtype::int8, Dtype::int16, Dtype::int32, Dtype::int64};
      constexpr Dtype u[] = {Dtype::uint8, Dtype::uint16, Dtype::uint32, Dtype::uint64};
      constexpr int i = sizeof(T) == 1 ? 0 : sizeof(T) == 2 ? 1 : sizeof(T) == 4 ? 2 : 3;
      return add_scalar(std::is_signed_v<T> ? s[i] : u[i], &value);
    }
  }
  // A struct passed by value, as raw bytes (laid out as the kernel declares it).
  RawArgs& add_bytes(const void* data, size_t size);
  size_t size() const { return values_.size(); }
  // Room for n arguments (a launch then allocates once).
  void reserve(size_t n) {
    values_.reserve(n);
    arrays_.reserve(n);
  }

 private:
  friend class RawFunction;
  struct Value {
    std::string bytes;  // scalars fit the string's inline buffer: no allocation per launch
    char kind;          // 'p' array, 'b' bool, 'i'/'u' integer, 'f' float, 'c' complex, 's' bytes
    Dtype dtype = Dtype::int8;  // of a scalar
    int array = -1;             // index into arrays_, or -1
  };
  std::vector<Value> values_;
  std::vector<Array> arrays_;
};

// One kernel parameter as the compiled kernel declares it.
struct RawParam {
  char kind;      // 'p' pointer, 'P' pointer to const, 'k' checked pointer, 'b' bool,
                  // 'i' / 'u' integer, 'f' float, 's' other
  unsigned size;  // bytes
  std::string str() const;  // "pointer", "const pointer", "4-byte signed integer", ...
};

class RawFunction;

// A translation unit of CUDA C++. Kernels are looked up by name: the extern "C" ones and any
// non-template __global__ function by its name, templates by a name expression ("axpy<float>")
// given at construction. Compiled on first use (and on a name not compiled yet), cached in the
// process and on disk (the kernel cache).
class RawModule {
 public:
  // options: NVRTC-style; -D, -U, -I and -std= are passed to the host compiler, the others
  // (-arch, --use_fast_math, -lineinfo, ...) only concern NVRTC and are ignored here.
  RawModule(std::string source, std::vector<std::string> options = {},
            std::vector<std::string> name_expressions = {}, std::string program_name = "kernel.cu");
  // checked: the checked-mode build of the module (each access through an array argument is
  // bounds-checked: an out-of-bounds index raises IndexError naming the kernel, the argument,
  // the index, the array's size, the block and the thread). Compiled separately, on first use.
  RawFunction function(const std::string& name, bool checked = false) const;
  const std::string& source() const;

  struct Compiled;

 private:
  struct Impl;
  std::shared_ptr<Impl> impl_;
};

class RawFunction {
 public:
  // Checks the configuration against the limits above and the arguments against the
  // parameters, then runs every block; returns when all are done. A failed assert raises
  // KernelAssertionError, a barrier the threads of a block cannot all reach LaunchError, both
  // naming kernel, block and thread. `check`: checked mode (also ACCEL_KERNEL_CHECK=1).
  void operator()(LaunchDims grid, LaunchDims block, const RawArgs& args, size_t shared_mem = 0,
                  bool check = false) const;
  const std::string& name() const { return name_; }
  const std::vector<RawParam>& parameters() const { return params_; }
  // How the threads of a block run: 'l' a loop around the kernel (no barrier), 'f' fibers that
  // meet at barriers and warp functions, 's' loops inside the kernel, split at its barriers.
  char mode() const;
  // True when the threads of a block run as fibers.
  bool uses_fibers() const;
  // True for the checked-mode build (array accesses bounds-checked).
  bool checked() const;

 private:
  friend class RawModule;
  RawFunction(std::shared_ptr<const RawModule::Compiled> so, int index, std::string name,
              std::vector<RawParam> params)
      : so_(std::move(so)), index_(index), name_(std::move(name)), params_(std::move(params)) {}
  std::shared_ptr<const RawModule::Compiled> so_;
  int index_;
  std::string name_;
  std::vector<RawParam> params_;
};

// ACCEL_KERNEL_CHECK=1: every launch in checked mode.
bool kernel_check_default();

struct RawKernelStats {
  uint64_t compiles = 0;     // host compiler runs
  uint64_t disk_hits = 0;    // shared objects loaded from the kernel cache
  uint64_t memory_hits = 0;  // modules found already loaded in this process
  double compile_seconds = 0;
};
RawKernelStats raw_kernel_stats();

}  // namespace accel::cpu
