// Builds the rows of the elementwise loop table, split over several sources (parts) so they
// compile in parallel. Each part instantiates the loops of the ops whose index % kParts == Part.
#pragma once
#include "accel/backend/cpu/elementwise_inner.h"
#include "accel/backend/cpu/elementwise_loops.h"
#include "accel/backend/cpu/half_loops.h"

namespace accel::cpu {

inline constexpr int kTableParts = 4;
using LoopTable = InnerLoop[kNumOps][kNumDtypes];

// float16 and bfloat16 are storage types: their loops compute in float (half_loops.h).
template <class Op, class T, int Arity> struct LoopOf {
  using type = std::conditional_t<is_narrow_float_v<T>, NarrowInner<Op, T, Arity>, Inner<Op, T, Arity>>;
};

template <class Op, int Arity, BoolInputs Bools, OpDomain Domain>
void fill_row(InnerLoop* row) {
#define ACCEL_DTYPE(name, ctype, str, kind)                              \
  if constexpr (op_accepts(Bools, Domain, Dtype::name))                  \
    row[static_cast<int>(Dtype::name)] = &LoopOf<Op, ctype, Arity>::type::run;
#include "accel/core/dtype.def"
#undef ACCEL_DTYPE
}

template <int Part> void fill_table_part(LoopTable& table) {
#define ACCEL_OP(name, arity, functor, bools, domain, output)                             \
  if constexpr (static_cast<int>(OpId::name) % kTableParts == Part)                       \
    fill_row<scalar::functor, arity, BoolInputs::bools, OpDomain::domain>(                \
        table[static_cast<int>(OpId::name)]);
#include "accel/core/ops.def"
#undef ACCEL_OP
}

extern template void fill_table_part<0>(LoopTable&);
extern template void fill_table_part<1>(LoopTable&);
extern template void fill_table_part<2>(LoopTable&);
extern template void fill_table_part<3>(LoopTable&);

}  // namespace accel::cpu
