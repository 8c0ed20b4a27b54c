// Typed 1-d inner loops for every (op, compute dtype) of ops.def and every (from, to) cast,
// looked up in tables built from the registry. Contiguous and scalar-broadcast rows get their
// own loops so the compiler vectorizes them.
#pragma once
#include "accel/backend/cpu/strided_loop.h"
#include "accel/core/dtype.h"
#include "accel/core/op_id.h"

namespace accel::cpu {

// nullptr when the op has no loop for that dtype (resolve_op_types rejects it first).
InnerLoop elementwise_loop(OpId op, Dtype compute);
InnerLoop cast_loop(Dtype from, Dtype to);
// Rough cost of one element of `op` relative to an add, for threading decisions.
int op_cost(OpId op);

}  // namespace accel::cpu
