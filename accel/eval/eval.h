// Evaluation of pending elementwise nodes (DESIGN.md "Evaluation"): maximal regions of pending
// nodes are fused into one KernelIR and run in one pass (accel/ir/fuse.h).
#pragma once
#include <initializer_list>
#include <span>
#include <string>
#include <vector>

#include "accel/core/array.h"

namespace accel {

enum class ReduceOp : unsigned char;  // backend/backend.h

// Longest chain of pending nodes kept before inputs are computed eagerly (bounds recursion and
// the memory held by a graph).
inline constexpr int kMaxPendingDepth = 32;

// Computes a pending array into a new contiguous buffer of its device.
void evaluate(const Array& a);
// Computes several pending arrays; those of one shape and device that share work run as one
// fused kernel with several outputs.
void evaluate_many(std::span<const Array> arrays);
// Computes `pending` straight into `out` (same shape and dtype, any strides) when its region
// reads out's memory only through out's very own view; returns false, computing nothing but
// out's other pending readers, when it does not. `pending` then reads its value from `out`.
bool evaluate_into(const Array& pending, const Array& out);

// Reduces pending `a` over `axes` into `out` (as Backend::reduce) without storing `a`: its fused
// region's values go block by block into the reduction (Backend::reduce_kernel), and `a` stays
// pending. Returns false, having computed at most `a`'s pending inputs, where fusion is off, `a`
// is not pending, its region must also store other arrays or its backend has no such path.
bool reduce_pending(ReduceOp op, const Array& a, const std::vector<int>& axes, const Array& out);

// Public: accel::eval({a, b}) computes pending arrays now, sharing one pass where possible.
void eval(std::span<const Array> arrays);
void eval(std::initializer_list<Array> arrays);

// Fusion on/off: ACCEL_FUSION=0 in the environment turns it off (each node then runs on its
// own, as an unfused library would).
bool fusion_enabled();
void set_fusion_enabled(bool on);

// What evaluating `a` would run, computing nothing: each fused group (its nodes, its KernelIR)
// in order. The generated source of each kernel is added by the code generator's hook.
std::string explain(const Array& a);

}  // namespace accel
