// Grouping of pending elementwise nodes into fused regions (DESIGN.md "Evaluation").
#pragma once
#include <span>
#include <vector>

#include "accel/core/array.h"
#include "accel/ir/kernel_ir.h"

namespace accel::ir {

// Caps that keep a fused kernel sane. A region stops growing once one is reached: further
// pending inputs are computed on their own first and read as inputs. The instruction, input
// and byte caps are checked before each node joins, so a region may pass them by at most one
// node's worth (three inputs, a few casts).
inline constexpr int kMaxRegionInstrs = 96;      // SSA instructions (loads, casts, ops)
inline constexpr int kMaxRegionInputs = 16;      // distinct input arrays
inline constexpr int kMaxRegionDepth = 32;       // longest chain of fused nodes
inline constexpr int kMaxRegionTempBytes = 512;  // bytes of temporaries per element

// A fused region ready to run: the IR, the arrays bound to its operands and the pending
// arrays its outputs will hold.
struct FusedRegion {
  KernelIR ir;
  Shape shape;
  Device device;
  // One per ir.inputs, viewed with `shape` (0 strides where broadcast); a by_value operand's is
  // the 0-d Python number itself.
  std::vector<Array> inputs;
  std::vector<Array> targets;             // one per ir.outputs: the pending arrays they materialize
  std::vector<const ArrayImpl*> members;  // every pending node fused, in evaluation order
  std::vector<Array> deferred;  // pending inputs that did not join: compute them, then fuse again
  int num_nodes() const { return static_cast<int>(members.size()); }
};

// The largest region of pending elementwise nodes reachable from `roots` (pending, all of one
// shape and device). Intermediates that are also referenced from outside the region become
// extra outputs, so nothing is computed twice. Outputs are laid out contiguous; a caller writing
// elsewhere sets ir.outputs[k].layout. Computes nothing: pending inputs that do not join (another
// shape, whose values would be recomputed per broadcast element, or past a cap) are listed in
// `deferred` and left unbound; such a region runs only after they are computed and it is fused
// again (eval/eval.cpp), since computing them may compute some of the region's nodes too.
FusedRegion fuse_elementwise(std::span<const Array> roots);

// The layout class of `a` read over its own shape (see Layout).
Layout input_layout(const Array& a);
Layout output_layout(const Array& a);

}  // namespace accel::ir
