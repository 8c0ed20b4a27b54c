// The elementwise op enum and its dtype rules, derived from ops.def.
#pragma once
#include <cstdint>
#include <vector>

#include "accel/core/dtype.h"

namespace accel {

enum class OpId : uint8_t {
#define ACCEL_OP(name, arity, functor, bools, domain, output) name,
#include "accel/core/ops.def"
#undef ACCEL_OP
};

inline constexpr int kNumOps = 0
#define ACCEL_OP(name, arity, functor, bools, domain, output) +1
#include "accel/core/ops.def"
#undef ACCEL_OP
    ;

// The most operands any op of ops.def takes: callers may hold an op's operands in a fixed
// array of this size (no allocation per call).
inline constexpr int kMaxOpArity = 3;
#define ACCEL_OP(name, arity, functor, bools, domain, output) \
  static_assert(arity <= kMaxOpArity, #name " takes more operands than kMaxOpArity");
#include "accel/core/ops.def"
#undef ACCEL_OP

enum class BoolInputs : uint8_t { Keep, Int8, Reject, Logical };
enum class OpDomain : uint8_t { Any, Real, Inexact, RealInexact, Integer };
enum class OpOutput : uint8_t { Same, Bool, Real };

struct OpInfo {
  const char* name;
  int arity;
  BoolInputs bools;
  OpDomain domain;
  OpOutput output;
};

const OpInfo& op_info(OpId op);
// ==, !=, <, <=, >, >=.
constexpr bool is_comparison(OpId op) {
  return op == OpId::equal || op == OpId::not_equal || op == OpId::less || op == OpId::less_equal ||
         op == OpId::greater || op == OpId::greater_equal;
}
inline const char* op_name(OpId op) { return op_info(op).name; }

// Whether `op`'s loop exists for compute dtype dt (constexpr so the CPU tables and the
// runtime checks agree by construction).
constexpr bool op_accepts(BoolInputs bools, OpDomain domain, Dtype dt) {
  const bool is_b = dt == Dtype::bool_;
  const bool is_int = dt >= Dtype::int8 && dt <= Dtype::uint64;
  const bool is_c = dt == Dtype::complex64 || dt == Dtype::complex128;
  if (bools == BoolInputs::Logical) return is_b;
  if (is_b) return bools == BoolInputs::Keep && domain != OpDomain::Inexact &&
                   domain != OpDomain::RealInexact;
  switch (domain) {
    case OpDomain::Any: return true;
    case OpDomain::Real: return !is_c;
    case OpDomain::Inexact: return !is_int;
    case OpDomain::RealInexact: return !is_int && !is_c;
    case OpDomain::Integer: return is_int;
  }
  return false;
}

struct OpTypes {
  Dtype compute;  // the loop's dtype: every input is cast to it
  Dtype out;      // the result's dtype
};
// Resolves the compute and output dtypes of `op` for its (already promoted) inputs' dtype
// `promoted`; throws DTypeError naming the op and dtype when the op does not take it.
OpTypes resolve_op_types(OpId op, Dtype promoted);
Dtype op_output_dtype(OpId op, Dtype compute);

}  // namespace accel
