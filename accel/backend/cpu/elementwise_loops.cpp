#include "accel/backend/cpu/elementwise_loops.h"

#include "accel/backend/cpu/elementwise_inner.h"
#include "accel/backend/cpu/elementwise_table.h"

namespace accel::cpu {
namespace {

struct Tables {
  LoopTable ops{};
  InnerLoop casts[kNumDtypes][kNumDtypes]{};
  Tables() {
    fill_table_part<0>(ops);
    fill_table_part<1>(ops);
    fill_table_part<2>(ops);
    fill_table_part<3>(ops);
    fill_casts();
  }
  template <class From> void fill_cast_row() {
#define ACCEL_DTYPE(name, ctype, str, kind) \
  casts[static_cast<int>(dtype_of<From>)][static_cast<int>(Dtype::name)] = &CastInner<From, ctype>::run;
#include "accel/core/dtype.def"
#undef ACCEL_DTYPE
  }
  void fill_casts() {
#define ACCEL_DTYPE(name, ctype, str, kind) fill_cast_row<ctype>();
#include "accel/core/dtype.def"
#undef ACCEL_DTYPE
  }
};

const Tables& tables() {
  static const Tables t;
  return t;
}

}  // namespace

InnerLoop elementwise_loop(OpId op, Dtype compute) {
  return tables().ops[static_cast<int>(op)][static_cast<int>(compute)];
}

InnerLoop cast_loop(Dtype from, Dtype to) {
  return tables().casts[static_cast<int>(from)][static_cast<int>(to)];
}

int op_cost(OpId op) {
  const OpInfo& info = op_info(op);
  // Transcendental functions cost tens of adds; everything else about one.
  if ((info.domain == OpDomain::Inexact || info.domain == OpDomain::RealInexact) && op != OpId::divide)
    return 16;
  return 1;
}

}  // namespace accel::cpu
