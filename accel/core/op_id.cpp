#include "accel/core/op_id.h"

#include <array>
#include <string>

#include "accel/runtime/errors.h"

namespace accel {
namespace {

constexpr std::array<OpInfo, kNumOps> kOps = {{
#define ACCEL_OP(name, arity, functor, bools, domain, output) \
  {#name, arity, BoolInputs::bools, OpDomain::domain, OpOutput::output},
#include "accel/core/ops.def"
#undef ACCEL_OP
}};

}  // namespace

const OpInfo& op_info(OpId op) { return kOps[static_cast<size_t>(op)]; }

Dtype op_output_dtype(OpId op, Dtype compute) {
  switch (op_info(op).output) {
    case OpOutput::Same: return compute;
    case OpOutput::Bool: return Dtype::bool_;
    case OpOutput::Real: return real_dtype(compute);
  }
  return compute;
}

OpTypes resolve_op_types(OpId op, Dtype promoted) {
  const OpInfo& info = op_info(op);
  Dtype compute = promoted;
  if (info.bools == BoolInputs::Logical) {
    compute = Dtype::bool_;
  } else if (promoted == Dtype::bool_ && info.bools == BoolInputs::Int8) {
    compute = Dtype::int8;
  } else if ((info.domain == OpDomain::Inexact || info.domain == OpDomain::RealInexact) &&
             !is_inexact(promoted)) {
    // NumPy's true_divide always gives float64 for integers; other float math follows the
    // integer's size (sin(int16) is float32).
    compute = op == OpId::divide ? Dtype::float64 : inexact_dtype(promoted);
  }
  if (!op_accepts(info.bools, info.domain, compute))
    throw DTypeError(std::string("[") + info.name + "] not supported for dtype " +
                     dtype_name(promoted));
  return {compute, op_output_dtype(op, compute)};
}

}  // namespace accel
