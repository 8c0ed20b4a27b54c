// KernelIR x Dialect -> kernel source text (DESIGN.md "Layers": accel/codegen). The generated
// code calls the scalar functors of accel/device_src/scalar_ops.h, embedded as text, so each op
// is defined once for the CPU loops, the interpreter, the host JIT and CUDA.
#pragma once
#include <initializer_list>
#include <string>
#include <utility>

#include "accel/codegen/dialect.h"
#include "accel/ir/kernel_ir.h"

namespace accel::codegen {

// The complete, self-contained source of `ir` in `dialect` (prelude and functors included); the
// kernel's symbol is ir.name(). Throws CompileError when the dialect lacks an operand layout.
std::string emit_kernel(const ir::KernelIR& ir, const Dialect& dialect);
// Only the kernel itself, without prelude and functors: what ACCEL_DEBUG and explain() print.
std::string emit_kernel_body(const ir::KernelIR& ir, const Dialect& dialect);
// What emit_kernel() puts before the kernel: the dialect's prelude and the functors. Sources of
// several kernels (a test compiling many at once, a hand-written kernel beside the functors)
// start with this once.
std::string emit_prelude(const Dialect& dialect);
// Fills the {key} placeholders of a dialect template with their values (other braces stay).
std::string fill(const char* tmpl, std::initializer_list<std::pair<const char*, std::string>> vars);
// The C++ type of a dtype in generated source ("float", "std::complex<double>", ...).
const char* c_type(Dtype dtype);
// The scalar functor of scalar_ops.h that computes `op` ("AddOp"), without its namespace.
const char* functor_name(OpId op);

}  // namespace accel::codegen
