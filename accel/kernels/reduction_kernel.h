// accel::ReductionKernel: CuPy's user-defined reduction kernel, on the CPU (host compiler) and on
// CUDA (NVRTC) from one generated source (codegen/template_kernel.h).
//
//   accel::ReductionKernel l2norm("T x", "T y", "x * x", "a + b", "y = sqrt(a)", "0", "l2norm");
//   accel::Array norms = l2norm({x}, {1})[0];   // over axis 1
//
// Each element of the non-raw inputs (broadcast together) is mapped by `map_expr` to a value of
// `reduce_type`; values are combined by `reduce_expr` (of `a` and `b`, assumed associative:
// the order of combination depends on the device and the thread count), starting from
// `identity`; `post_map_expr` writes the outputs from the result `a`.
#pragma once
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "accel/codegen/template_kernel.h"
#include "accel/core/array.h"
#include "accel/kernels/kernel_params.h"
#include "accel/ops/reduction.h"

namespace accel {

class ReductionKernel {
 public:
  // `reduce_type`: a dtype name or a type placeholder; empty: the first output's type.
  ReductionKernel(const std::string& in_params, const std::string& out_params, std::string map_expr,
                  std::string reduce_expr, std::string post_map_expr, std::string identity,
                  std::string name = "reduce_kernel", std::string reduce_type = "",
                  std::string preamble = "", std::vector<std::string> options = {});

  // Reduces over `axis` (default: every axis) of the inputs' broadcast shape; outputs are
  // allocated unless given after the inputs. Returns the outputs.
  std::vector<Array> operator()(const std::vector<Array>& args, const ReduceAxes& axis = {},
                                bool keepdims = false) const;

  // The source a call with these arguments compiles for `device`'s kind, without running it.
  std::string source(const std::vector<Array>& args, Device device, const ReduceAxes& axis = {},
                     bool keepdims = false) const;

  // A call as the backend receives it, without running it: the kernel with its layouts, the
  // args with the operands' addresses, and the arrays they point into (kept alive with it).
  struct Plan {
    codegen::TemplateLaunch launch;
    std::vector<Array> operands;  // in params, then out params
  };
  Plan plan(const std::vector<Array>& args, const ReduceAxes& axis = {},
            bool keepdims = false) const;

  const std::string& name() const;
  const std::vector<KernelParam>& in_params() const;
  const std::vector<KernelParam>& out_params() const;

 private:
  struct Impl;
  std::shared_ptr<const Impl> impl_;
};

}  // namespace accel
