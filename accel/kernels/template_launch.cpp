#include "accel/kernels/template_launch.h"

#include "accel/backend/cuda/elementwise_layout.h"

namespace accel {
namespace {

using codegen::kTemplateMaxDims;

// Appends a loop (n, ndim, shape[8], strides[P][8]) to the args words; operands without
// strides in `l` (raw ones, or outputs over the reduced axes) get zeros.
void put_loop(std::vector<int64_t>& w, const cuda::LoopLayout& l, const std::vector<int>& index,
              size_t nparams) {
  w.push_back(l.size());
  w.push_back(static_cast<int64_t>(l.shape.size()));
  for (int d = 0; d < kTemplateMaxDims; ++d)
    w.push_back(d < static_cast<int>(l.shape.size()) ? l.shape[d] : 1);
  for (size_t k = 0; k < std::max<size_t>(nparams, 1); ++k)
    for (int d = 0; d < kTemplateMaxDims; ++d) {
      const int j = k < index.size() ? index[k] : -1;
      w.push_back(j >= 0 && d < static_cast<int>(l.shape.size()) ? l.strides[j][d] : 0);
    }
}

// The simplified loop over `shape` of the operands whose strides `pick` gives (index[k]: the
// position of operand k among them, or -1).
cuda::LoopLayout loop_of(const Shape& shape, const std::vector<TemplateOperand>& operands,
                         const std::vector<codegen::TemplateParam>& params, bool reduced,
                         std::vector<int>& index) {
  std::vector<Strides> strides;
  index.assign(operands.size(), -1);
  for (size_t k = 0; k < operands.size(); ++k) {
    if (params[k].raw || (reduced && params[k].output)) continue;
    index[k] = static_cast<int>(strides.size());
    strides.push_back(reduced ? operands[k].rstrides : operands[k].strides);
  }
  return cuda::simplify_layout(shape, std::move(strides));
}

}  // namespace

std::optional<codegen::TemplateLaunch> plan_template_launch(
    codegen::TemplateKernel kernel, const std::vector<TemplateOperand>& operands,
    const Shape& shape, const Shape& rshape) {
  const size_t nparams = kernel.params.size();
  std::vector<int> index, rindex;
  const cuda::LoopLayout loop = loop_of(shape, operands, kernel.params, false, index);
  const bool reduction = kernel.is_reduction();
  cuda::LoopLayout rloop;
  if (reduction) rloop = loop_of(rshape, operands, kernel.params, true, rindex);
  if (loop.shape.size() > kTemplateMaxDims || rloop.shape.size() > kTemplateMaxDims)
    return std::nullopt;

  kernel.ndim = static_cast<int>(loop.shape.size());
  kernel.reduce_ndim = static_cast<int>(rloop.shape.size());
  for (size_t k = 0; k < nparams; ++k) {
    codegen::TemplateParam& p = kernel.params[k];
    if (p.raw || reduction) continue;  // reductions address every operand by offsets
    const auto item = static_cast<int64_t>(itemsize(p.dtype));
    p.layout = p.output ? cuda::output_layout_of(loop, index[k], item)
                        : cuda::input_layout_of(loop, index[k], item);
  }

  codegen::TemplateLaunch launch;
  std::vector<int64_t>& w = launch.args;
  w.reserve(codegen::template_args_words(kernel));
  for (size_t k = 0; k < std::max<size_t>(nparams, 1); ++k)
    w.push_back(0);  // the operands' addresses: bind_operands
  for (size_t k = 0; k < std::max<size_t>(nparams, 1); ++k)
    w.push_back(k < nparams && kernel.params[k].raw ? operands[k].size : 0);
  put_loop(w, loop, index, nparams);
  if (reduction) put_loop(w, rloop, rindex, nparams);
  launch.n = loop.size();
  launch.rn = reduction ? rloop.size() : 0;
  launch.kernel = std::move(kernel);
  return launch;
}

}  // namespace accel
