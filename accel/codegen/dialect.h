// A target language for generated kernels, given as data (STYLE.md, after tinygrad): how a
// kernel, its element loop, its values, loads and stores are spelled. emit_kernel() walks a
// KernelIR once and fills these templates; a new target is a new table, not a new emitter.
//
// Placeholders: {name} kernel name, {nops} count of operands in memory, {type} C++ type, {v}
// value name, {expr} expression, {k} operand index (among the operands in memory; a by-value
// operand's: its input index), {dst} store target, {i} flat element index, {params} the
// by-value parameters, {x} {s} {c} an argument and its sine and cosine values.
#pragma once

namespace accel::codegen {

struct Dialect {
  const char* name;
  const char* prelude;         // first lines of every kernel source
  bool own_std;                // the functors' standard #includes are replaced by embedded ones
  const char* kernel_begin;    // the signature and opening brace
  const char* loop_begin;      // opens the loop over elements (defines the index)
  const char* define;          // computes value {v} of {type} from {expr}
  const char* define_uniform;  // a value computed from scalar operands only, once, before the loop
  const char* value_uniform;   // how such a value is read
  const char* declare;         // declares value {v} before the loop body ("" if not needed)
  const char* value;           // how a computed value {v} is read
  const char* index;           // the flat element index inside the loop
  const char* store;           // writes {expr} to {dst}
  // Declares and computes {s} = sin({x}) and {c} = cos({x}) of float32 {type} in one call, for a
  // kernel that needs both of one value; nullptr: two calls.
  const char* sincos;
  const char* loop_end;
  const char* kernel_end;
  // Operand addressing by layout; nullptr: the dialect does not take that layout.
  const char* at_contiguous;   // element {i} of operand {k} of {type}
  const char* at_scalar;
  const char* at_strided;
  const char* at_by_value;     // a by-value input {k} of {type} (ir::Layout::by_value)
  const char* by_value_param;  // its kernel parameter, appended to {params} in input order
  // Copies strided input {k} of {type} into block value {v} once, for the ops to read; nullptr:
  // each op reads it in place (at_strided).
  const char* gather;
  // Kernel templates (template_kernel.h): the user's code runs in these skeletons; {name} is the
  // kernel, {identity} a reduction's identity. The args struct `_accel_args _a` is shared.
  const char* template_prelude;    // what user code may use besides the language itself
  const char* template_complex;    // brings in complex<T>, when a kernel's types or code use it
  const char* template_begin;      // an elementwise template's signature and opening brace
  const char* template_loop;       // opens the loop over elements; the index is `i`
  const char* template_reduction;  // a reduction's kernel(s), over _map/_reduce/_post (emitted)
  // Writes {expr} to contiguous output {k} of {type} ({dst} as `store` would); nullptr: `store`.
  const char* store_contiguous = nullptr;
  // Where a fused kernel uses store_contiguous: opened after kernel_begin (declares what it
  // tracks), closed before kernel_end (orders streamed stores before the kernel returns).
  // Kernel templates, which never stream, use neither.
  const char* stream_begin = "";
  const char* stream_end = "";
};

// Host C++ compiled by the system compiler into a shared object: a function over a run
// of n elements along one row of the coalesced iteration space (cpu/fused_rows.h) that runs each
// instruction over a block of elements before the next, so the compiler vectorises every step
// (and calls libmvec's vector sin, exp, ...). Operands: row[k] points at operand k's first
// element of the row, step[k] is its step along the row in bytes (read for strided ones only).
const Dialect& host_dialect();
// CUDA C++ for NVRTC: a grid-stride loop, one element per thread step, 64-bit indices.
const Dialect& cuda_dialect();

}  // namespace accel::codegen
