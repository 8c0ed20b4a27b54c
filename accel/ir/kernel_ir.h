// KernelIR: the one fusion IR (DESIGN.md "Evaluation"). A fused region of elementwise nodes
// becomes a straight-line SSA program over one element index: loads of inputs, casts, ops of
// ops.def, and stores to outputs. The CPU interpreter (backend/cpu/fused_interpreter.cpp) is
// its living definition; the code generator (codegen/) turns it into source for a dialect.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "accel/core/dtype.h"
#include "accel/core/op_id.h"

namespace accel::ir {

// How an operand is addressed over the flat (C-order) element index of the kernel. Part of
// the structural hash: a kernel is specialised for its layouts, never for its sizes.
enum class Layout : uint8_t {
  contiguous,  // element i at base + i
  scalar,      // one value for every element (a 0-d or fully broadcast operand)
  strided,     // anything else: broadcast axes, transposes, slices
  // One value passed to the kernel as a parameter of the operand's dtype: a Python number of a
  // device array, kept on the host (Array::deferred_upload). Inputs only; only devices whose
  // memory the host cannot address produce it (CPU scalars are host memory already).
  by_value,
};
const char* layout_name(Layout l);

struct Operand {
  Dtype dtype;
  Layout layout;
  bool operator==(const Operand&) const = default;
};

enum class InstrKind : uint8_t {
  load,  // value of input `args[0]` at the current element
  op,    // `op` applied to `args` (all of dtype `compute`), giving `dtype`
  cast,  // `args[0]` (of dtype `compute`) converted to `dtype`
};

struct Instr {
  InstrKind kind;
  OpId op = OpId::cast;
  Dtype dtype;    // the value's dtype
  Dtype compute;  // op: dtype of the arguments and of the loop; cast: the source dtype
  int32_t args[3] = {-1, -1, -1};  // earlier instructions (load: the input index)
  int nargs() const;
  bool operator==(const Instr&) const = default;
};

struct KernelIR {
  std::vector<Operand> inputs;
  std::vector<Operand> outputs;
  std::vector<Instr> instrs;     // topological order: arguments come first
  std::vector<int32_t> results;  // results[k]: the instruction stored to outputs[k] (same dtype)

  // Structural hash over ops, dtypes and layouts (not sizes, not scalar values): keys every
  // kernel cache. Stable across runs and machines.
  uint64_t hash() const;
  // The same program: what a kernel table checks before reusing a kernel (hashes may collide).
  bool operator==(const KernelIR&) const = default;
  // "fk" + 16 hex digits of hash(): a kernel's name in generated source and in logs.
  std::string name() const;
  // Readable listing, one instruction a line, for ACCEL_DEBUG and accel.explain().
  std::string str() const;
  // Rough cost per element in units of an add (for threading and for when a JIT pays).
  int cost() const;
  bool has_layout(Layout l) const;  // some input is `l`
};

}  // namespace accel::ir
