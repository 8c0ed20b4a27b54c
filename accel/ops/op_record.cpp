#include "accel/ops/op_record.h"

#include <string>

#include "accel/backend/profiling_backend.h"
#include "accel/eval/eval.h"
#include "accel/runtime/profiler.h"

namespace accel {

int64_t record_op(OpId op, std::span<const Array> inputs, const Array& result, bool eager) {
  profile::Event e;
  e.kind = profile::EventKind::op;
  const bool copy = op == OpId::cast && inputs[0].dtype() == result.dtype();
  e.name = copy ? "copy" : op_name(op);
  e.detail.reserve(96);
  for (const Array& a : inputs) {
    if (!e.detail.empty()) e.detail += ", ";
    append_operand(e.detail, a);
  }
  e.detail += " -> ";
  append_operand(e.detail, result);
  e.device = result.device().is_cpu() ? -1 : result.device().index;
  e.elements = result.size();
  e.id = profile::next_id();
  e.flags = eager ? 0u : profile::kLazy;
  e.start_ns = profile::now_ns();
  const int64_t id = e.id;
  profile::record(std::move(e));
  return id;
}

void record_depth_cut(OpId op) {
  profile::Event e;
  e.kind = profile::EventKind::fusion_cut;
  e.name = op_name(op);
  e.detail = "a chain of " + std::to_string(kMaxPendingDepth) +
             " pending ops is computed before more are added (kMaxPendingDepth)";
  e.start_ns = profile::now_ns();
  profile::record(std::move(e));
}

}  // namespace accel
