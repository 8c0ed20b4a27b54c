// Kernel templates (CuPy's ElementwiseKernel and ReductionKernel; accel/kernels/) -> source text
// in a dialect (dialect.h). The user's code (operation, map/reduce/post-map expressions,
// preamble) is pasted into one kernel skeleton per kind; what differs between the CPU and CUDA
// (the signature, the element loop, how a reduction is split) comes from the dialect's table,
// so both devices run the same generated code around the same user code.
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "accel/core/dtype.h"
#include "accel/ir/kernel_ir.h"

namespace accel::codegen {

// The most axes a template kernel's loop addresses (the args struct's shape[8]).
inline constexpr int kTemplateMaxDims = 8;

struct TemplateParam {
  std::string name;
  Dtype dtype;
  bool output = false;
  bool raw = false;  // indexed by the user's code (x[j], x.size()); C-contiguous
  ir::Layout layout = ir::Layout::contiguous;  // of non-raw operands over the loop
};

struct TemplateKernel {
  std::string name;                                     // the extern "C" symbol
  std::vector<std::pair<std::string, Dtype>> typedefs;  // resolved type placeholders
  std::string preamble;
  std::vector<TemplateParam> params;  // the kernel's in params, then its out params
  // Elementwise: the loop body.
  std::string operation;
  // Reduction (reduce_expr non-empty): inputs are read over the kept axes (the outputs' loop)
  // and the reduced axes.
  std::string map_expr, reduce_expr, post_map_expr, identity;
  Dtype reduce_type = Dtype::float64;
  // Axes after simplification, baked into the source so index arithmetic unrolls (a kernel is
  // specialised for its dtypes, layouts and these counts; never for sizes).
  int ndim = 0;                      // of the elementwise loop, or of the kept axes of a reduction
  int reduce_ndim = 0;               // of the reduced axes
  std::vector<std::string> options;  // compiler options (NVRTC; -D/-U/-I on the host too)

  bool is_reduction() const { return !reduce_expr.empty(); }
};

// A template kernel ready to run: the operands' addresses and loop in `args`
// (template_args_words() words), planned by accel/kernels/template_launch.h.
struct TemplateLaunch {
  TemplateKernel kernel;
  std::vector<int64_t> args;
  int64_t n = 0;   // elements (elementwise) or outputs (reduction)
  int64_t rn = 0;  // reduced positions per output (reduction)
};

// The complete source of `k` in `dialect` (its template prelude included); the kernel's symbol
// is k.name (and k.name + "_finish" for a host reduction's second step).
std::string emit_template_kernel(const TemplateKernel& k, const struct Dialect& dialect);

// The args struct every template kernel takes, as 8-byte words (dialect-independent, so one
// packer serves the CPU and CUDA):
//   char* ptr[P];  int64_t size[P];                       P = params.size()
//   int64_t n, ndim, shape[8], strides[P][8];             the loop (reductions: the outputs)
//   int64_t rn, rndim, rshape[8], rstrides[P][8];         reductions only: the reduced axes
// Strides are in bytes; raw operands have no strides (size is their element count).
size_t template_args_words(const TemplateKernel& k);

}  // namespace accel::codegen
