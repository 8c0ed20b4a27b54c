// accel::ElementwiseKernel: CuPy's user-defined elementwise kernel, on the CPU (host compiler)
// and on CUDA (NVRTC) from one generated source (codegen/template_kernel.h).
//
//   accel::ElementwiseKernel squared_diff("T x, T y", "T z", "z = (x - y) * (x - y)",
//                                         "squared_diff");
//   accel::Array z = squared_diff({x, y})[0];          // z allocated: x and y broadcast
//   squared_diff({x, y, z});                           // or written into z
//
// In the operation, each non-raw param is its element at the loop index `i` (inputs by value,
// outputs by reference); `raw` params are whole C-contiguous arrays (x[j], x.size());
// `_ind.size()` is the loop's length. Type placeholders (one letter) are typedefs of the dtype
// the arguments bind them to. 0-d arrays are scalars; weak ones (Python numbers) adapt to the
// param's type as NumPy's NEP 50 says.
#pragma once
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "accel/codegen/template_kernel.h"
#include "accel/core/array.h"
#include "accel/kernels/kernel_params.h"

namespace accel {

class ElementwiseKernel {
 public:
  // `options`: NVRTC options; -D, -U and -I options apply on the CPU too. Throws ValueError or
  // DTypeError for a malformed parameter list or name.
  ElementwiseKernel(const std::string& in_params, const std::string& out_params,
                    std::string operation, std::string name = "kernel", std::string preamble = "",
                    std::vector<std::string> options = {});

  // Runs over `args`: one per in param, then optionally one array per out param (else the
  // outputs are allocated: the broadcast shape of the non-raw arguments, or (size,) when every
  // array is raw). Returns the outputs.
  std::vector<Array> operator()(const std::vector<Array>& args,
                                std::optional<int64_t> size = std::nullopt) const;

  // The source a call with `args` compiles, in the dialect of `device` (its kind decides:
  // host C++ for cpu, CUDA for cuda), without running it.
  std::string source(const std::vector<Array>& args, Device device,
                     std::optional<int64_t> size = std::nullopt) const;

  // A call as the backend receives it, without running it: the kernel with its layouts, the
  // args with the operands' addresses, and the arrays they point into (kept alive with it).
  struct Plan {
    codegen::TemplateLaunch launch;
    std::vector<Array> operands;  // in params, then out params
  };
  Plan plan(const std::vector<Array>& args, std::optional<int64_t> size = std::nullopt) const;

  const std::string& name() const;
  const std::vector<KernelParam>& in_params() const;
  const std::vector<KernelParam>& out_params() const;

 private:
  struct Impl;
  std::shared_ptr<const Impl> impl_;
};

}  // namespace accel
