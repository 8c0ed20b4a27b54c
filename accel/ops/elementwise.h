// The elementwise functions of the Array API, one per entry of ops.def, plus clip. Each checks
// devices, promotes dtypes and broadcasts shapes, then returns a pending node (no computation).
#pragma once
#include <span>
#include <vector>

#include "accel/core/array.h"
#include "accel/core/op_id.h"

namespace accel {

// The generic entry: `op` applied to `inputs` (arity checked).
Array elementwise(OpId op, std::span<const Array> inputs);

#define ACCEL_OP_DECL_1(name) Array name(const Array& x);
#define ACCEL_OP_DECL_2(name) Array name(const Array& x1, const Array& x2);
#define ACCEL_OP_DECL_3(name) Array name(const Array& x1, const Array& x2, const Array& x3);
#define ACCEL_OP(name, arity, functor, bools, domain, output) ACCEL_OP_DECL_##arity(name)
#include "accel/core/ops.def"
#undef ACCEL_OP
#undef ACCEL_OP_DECL_1
#undef ACCEL_OP_DECL_2
#undef ACCEL_OP_DECL_3

// clip(x, min, max): the result keeps x's dtype (Array API); either bound may be absent. Complex
// values clip in NumPy's lexicographic order (the Array API has no complex clip).
Array clip(const Array& x, const Array* min, const Array* max);

}  // namespace accel
