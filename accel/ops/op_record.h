// Op events for the profiler (runtime/profiler.h): an elementwise op or cast as the user wrote
// it, before fusion decides how it runs. Call only while profile::active().
#pragma once
#include <span>

#include "accel/core/array.h"
#include "accel/core/op_id.h"

namespace accel {

// Records the op and returns its id (stored in the node, so evaluation can say which region
// computed it). `eager`: it ran at once (small CPU inputs) instead of becoming a node.
int64_t record_op(OpId op, std::span<const Array> inputs, const Array& result, bool eager);

// A chain of pending ops grew past kMaxPendingDepth: `op`'s inputs are computed before it is
// recorded, so the fused chain is cut there.
void record_depth_cut(OpId op);

}  // namespace accel
