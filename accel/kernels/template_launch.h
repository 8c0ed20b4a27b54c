// The host side of a kernel template call, the same for every device: the loop over the
// operands simplified (length-1 axes dropped, axes merged where every operand allows), each
// operand's layout, and the args words of codegen/template_kernel.h. Plain code, tested without
// a compiler.
#pragma once
#include <optional>
#include <vector>

#include "accel/codegen/template_kernel.h"
#include "accel/core/shape.h"

namespace accel {

// One operand, in the kernel's parameter order. Its address is not part of the plan: it is
// known once the operand is computed (kernel_call.h's bind_operands writes it into the args).
struct TemplateOperand {
  Strides strides;   // bytes, over `shape` (elementwise) or the kept axes (reduction)
  Strides rstrides;  // bytes, over the reduced axes (reduction inputs; empty otherwise)
  int64_t size = 0;  // raw operands: the element count
};

// `kernel` with its layouts and axis counts filled in, and its args. `rshape` is empty for an
// elementwise kernel. nullopt when the simplified loop keeps more axes than
// codegen::kTemplateMaxDims (the caller makes the operands contiguous and plans again).
std::optional<codegen::TemplateLaunch> plan_template_launch(
    codegen::TemplateKernel kernel, const std::vector<TemplateOperand>& operands,
    const Shape& shape, const Shape& rshape);

}  // namespace accel
