// User kernels: CUDA C++ source compiled with NVRTC (compiler.h), loaded into each device's
// primary context on first use, and launched with a grid, a block, dynamic shared memory and a
// stream. The C++ face of accel.RawModule / accel.RawKernel.
#pragma once
#include <complex>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "accel/backend/common/checked_source.h"
#include "accel/backend/cuda/compiler.h"
#include "accel/backend/cuda/stream.h"
#include "accel/core/array.h"

namespace accel::cuda {

struct Dim3 {
  unsigned x = 1, y = 1, z = 1;
  std::string str() const;  // "(x, y, z)"
};

// The dtype of a C++ scalar; integers by size and sign, so `long long` and `long` both work.
template <class T> constexpr Dtype scalar_dtype() {
  if constexpr (std::is_same_v<T, bool> || !std::is_integral_v<T>) {
    return dtype_of<T>;
  } else {
    constexpr Dtype s[] = {Dtype::int8, Dtype::int16, Dtype::int32, Dtype::int64};
    constexpr Dtype u[] = {Dtype::uint8, Dtype::uint16, Dtype::uint32, Dtype::uint64};
    constexpr int i = sizeof(T) == 1 ? 0 : sizeof(T) == 2 ? 1 : sizeof(T) == 4 ? 2 : 3;
    return std::is_signed_v<T> ? s[i] : u[i];
  }
}

// The arguments of one launch, in the kernel's parameter order.
class KernelArgs {
 public:
  // An array passes the device address of its element 0. It is evaluated first, and arrays
  // still to be computed from its memory are computed before the kernel may write it.
  KernelArgs& add(const Array& array);
  // A scalar of any accel dtype, passed by value.
  KernelArgs& add_scalar(Dtype dtype, const void* value);
  template <class T>
    requires std::is_arithmetic_v<T> || is_complex_v<T>
  KernelArgs& add(T value) {
    return add_scalar(scalar_dtype<T>(), &value);
  }
  // A struct passed by value, as raw bytes (laid out as the kernel declares it).
  KernelArgs& add_bytes(const void* data, size_t size);

  size_t size() const { return values_.size(); }
  const std::vector<Array>& arrays() const { return arrays_; }

 private:
  friend class Kernel;
  struct Value {
    std::string bytes;
    std::string what;       // "float32 scalar", "array (cuda:0)", "16-byte struct"
    int array = -1;         // index into arrays_, or -1
  };
  std::vector<Value> values_;
  std::vector<Array> arrays_;
};

class Kernel;

// A compiled translation unit: its kernels are looked up by name (extern "C" names, or name
// expressions such as "axpy<float>" given at construction).
class Module {
 public:
  // checked: checked mode's build (backend/cuda/kernel_check.h): each access through an array
  // argument is bounds-checked; a launch synchronises and raises the first violation as
  // IndexError naming kernel, argument, index, size, block and thread.
  Module(std::string source, std::vector<std::string> options = {},
         std::vector<std::string> name_expressions = {}, std::string program_name = "kernel.cu",
         bool checked = false);
  Kernel function(const std::string& name, int device = -1) const;  // -1: the current device
  const std::string& source() const { return impl_->source; }
  bool checked() const { return impl_->checked; }
  // The compiled module for a device (compiling on first use).
  std::shared_ptr<const CompiledModule> compiled(int device) const;

 private:
  struct Impl {
    std::string source, program_name;
    std::vector<std::string> options, name_expressions;
    bool checked = false;
    plan::CheckedSource checked_source;  // checked: what NVRTC compiles, and the checked parameters
    std::mutex mutex;
    std::map<int, std::pair<std::shared_ptr<const CompiledModule>, CUmodule>> loaded;
    ~Impl();
  };
  CUmodule load(int device) const;
  std::shared_ptr<Impl> impl_;
  friend class Kernel;
};

class Kernel {
 public:
  // Checks the configuration against the device's limits and the arguments against the
  // kernel's parameters (where the driver can tell), then queues the kernel on `stream`
  // (default: the device's current stream). Throws LaunchError naming the kernel.
  void operator()(Dim3 grid, Dim3 block, const KernelArgs& args, size_t shared_mem = 0,
                  std::optional<Stream> stream = std::nullopt) const;
  const std::string& name() const { return name_; }
  const std::string& symbol() const { return symbol_; }
  int device() const { return device_; }
  CUfunction handle() const { return fn_; }
  // Parameter sizes in bytes, when the driver can report them (CUDA 12.4+); else nullopt.
  // Asked once per kernel (when it is looked up), not on every launch.
  const std::optional<std::vector<size_t>>& parameter_sizes() const { return info_->parameter_sizes; }
  // The kernel's static __shared__ bytes (they count against the per-block limit with the
  // dynamic shared memory of a launch).
  size_t static_shared_bytes() const { return info_->static_shared; }
  // The most threads a block of this kernel may have: its __launch_bounds__, or what its
  // register use allows (at most the device's limit).
  int max_threads_per_block() const { return info_->max_threads; }
  // Checked mode: the parameters passed as {pointer, lo, hi, argument}.
  const std::vector<int>& checked_parameters() const { return info_->checked_parameters; }

 private:
  friend class Module;
  // What the driver says about the kernel, asked once; shared by copies of the Kernel.
  struct Info {
    std::optional<std::vector<size_t>> parameter_sizes;
    size_t static_shared = 0;
    int max_threads = 0;
    std::mutex mutex;
    size_t dynamic_shared_opted_in = 0;  // the largest limit set with cuFuncSetAttribute
    std::vector<int> checked_parameters;
    CUdeviceptr check_record = 0;  // checked modules: the device's AccelCheckRecord
  };
  void raise_check_record(const Stream& stream) const;
  Kernel(Module module, std::string name, std::string symbol, int device, CUfunction fn);
  void opt_in_dynamic_shared(size_t bytes, const std::string& where) const;
  Module module_;  // keeps the CUmodule loaded
  std::string name_, symbol_;
  int device_;
  CUfunction fn_;
  std::shared_ptr<Info> info_;
};

// The device used when none is named: the default device if it is CUDA, else cuda:0.
int current_device();
// RawKernel: one kernel of its own source.
Kernel raw_kernel(const std::string& source, const std::string& name,
                  std::vector<std::string> options = {}, int device = -1);

}  // namespace accel::cuda
