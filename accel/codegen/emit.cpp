#include "accel/codegen/emit.h"

#include <cstring>
#include <initializer_list>
#include <sstream>
#include <unordered_map>
#include <utility>

#include "accel/device_src/embedded_sources.h"
#include "accel/runtime/errors.h"

namespace accel::codegen {

std::string fill(const char* tmpl,
                 std::initializer_list<std::pair<const char*, std::string>> vars) {
  std::string out;
  for (const char* p = tmpl; *p;) {
    if (*p == '{') {
      bool matched = false;
      for (const auto& [key, value] : vars) {
        const size_t n = std::strlen(key);
        // strncmp stops at the template's end; a plain n-byte compare would read past it.
        if (std::strncmp(p + 1, key, n) == 0 && p[1 + n] == '}') {
          out += value;
          p += n + 2;
          matched = true;
          break;
        }
      }
      if (matched) continue;
    }
    out += *p++;
  }
  return out;
}

const char* c_type(Dtype dt) {
  switch (dt) {
    case Dtype::bool_:
      return "bool";
    case Dtype::int8:
      return "int8_t";
    case Dtype::int16:
      return "int16_t";
    case Dtype::int32:
      return "int32_t";
    case Dtype::int64:
      return "int64_t";
    case Dtype::uint8:
      return "uint8_t";
    case Dtype::uint16:
      return "uint16_t";
    case Dtype::uint32:
      return "uint32_t";
    case Dtype::uint64:
      return "uint64_t";
    case Dtype::float16:
      return "accel::half";
    case Dtype::bfloat16:
      return "accel::bfloat16_t";
    case Dtype::float32:
      return "float";
    case Dtype::float64:
      return "double";
    case Dtype::complex64:
      return "std::complex<float>";
    case Dtype::complex128:
      return "std::complex<double>";
  }
  return "?";
}

const char* functor_name(OpId op) {
  switch (op) {
#define ACCEL_OP(name, arity, functor, bools, domain, output) \
  case OpId::name:                                            \
    return #functor;
#include "accel/core/ops.def"
#undef ACCEL_OP
  }
  return "?";
}

namespace {

using ir::Instr;
using ir::InstrKind;

// Operand k (see Dialect: its index among the operands in memory, or its input index when by
// value) of `dt` and `layout` at the current element.
std::string operand_at(const Dialect& d, const ir::KernelIR& ir, size_t k, Dtype dt,
                       ir::Layout layout) {
  const char* tmpl = layout == ir::Layout::contiguous ? d.at_contiguous
                     : layout == ir::Layout::scalar   ? d.at_scalar
                     : layout == ir::Layout::by_value ? d.at_by_value
                                                      : d.at_strided;
  if (!tmpl)
    throw CompileError(std::string("[codegen] the ") + d.name + " dialect takes no " +
                       ir::layout_name(layout) + " operands (kernel " + ir.name() + ")");
  return fill(
      tmpl,
      {{"type", c_type(dt)}, {"k", std::to_string(k)}, {"i", d.index}, {"name", ir.name()}});
}

// A device source's text without its #pragma once and, where the dialect brings its own,
// its #includes (the library's own headers are not on a device compiler's path).
std::string source_text(const Dialect& d, const char* text) {
  std::istringstream in(text);
  std::string out, line;
  while (std::getline(in, line)) {
    const bool std_include = line.rfind("#include <", 0) == 0 || line.rfind("#include \"", 0) == 0;
    if (line.rfind("#pragma once", 0) == 0 || (d.own_std && std_include)) continue;
    out += line + "\n";
  }
  return out;
}

// The functors' text, with its standard #includes kept (host) or left to the prelude (CUDA).
// The host's 16-bit float types (core/half.h, core/bfloat16.h) go first, as the library's own
// build includes them.
std::string functor_source(const Dialect& d) {
  std::string out = d.own_std
                        ? std::string()
                        : source_text(d, embedded::half_h) + source_text(d, embedded::bfloat16_h);
  out += source_text(d, embedded::scalar_ops_h);
  if (d.own_std) {
    std::string prelude = embedded::nvrtc_std_cuh;
    const size_t once = prelude.find("#pragma once\n");
    if (once != std::string::npos) prelude.erase(once, 13);
    out = prelude + out;
  }
  return out;
}

// The name of instruction i's value in the kernel ("v" and its number), built by appending:
// GCC 12 warns (-Wrestrict, falsely) on the insert that `"v" + std::to_string(i)` inlines to.
std::string value_name(size_t i) {
  std::string name = "v";
  name += std::to_string(i);
  return name;
}

// For each float32 sin (cos) instruction whose argument's cos (sin) the kernel also computes,
// that partner's index; -1 elsewhere, and everywhere when the dialect has no sincos. Not double:
// CUDA's double sincos is other code than its sin and cos (inline polynomials against their
// coefficient table), no shorter in PTX than the two, and unchecked bit for bit.
std::vector<int32_t> sincos_partners(const ir::KernelIR& ir, const Dialect& d) {
  std::vector<int32_t> partner(ir.instrs.size(), -1);
  if (!d.sincos) return partner;
  std::unordered_map<int32_t, int32_t> sin_of, cos_of;  // argument -> its first sin / cos
  for (size_t i = 0; i < ir.instrs.size(); ++i) {
    const Instr& in = ir.instrs[i];
    if (in.kind != InstrKind::op || in.compute != Dtype::float32) continue;
    if (in.op == OpId::sin) sin_of.emplace(in.args[0], static_cast<int32_t>(i));
    if (in.op == OpId::cos) cos_of.emplace(in.args[0], static_cast<int32_t>(i));
  }
  for (const auto& [arg, s] : sin_of)
    if (auto c = cos_of.find(arg); c != cos_of.end()) {
      partner[static_cast<size_t>(s)] = c->second;
      partner[static_cast<size_t>(c->second)] = s;
    }
  return partner;
}

}  // namespace

std::string emit_kernel_body(const ir::KernelIR& ir, const Dialect& d) {
  const std::string name = ir.name();
  const size_t nin = ir.inputs.size();
  // Operands in memory are numbered in order, skipping by-value inputs (kernel parameters of
  // their own, not in the args struct).
  std::vector<size_t> index(nin + ir.outputs.size());
  size_t in_memory = 0;
  std::string params;
  for (size_t k = 0; k < index.size(); ++k) {
    if (k < nin && ir.inputs[k].layout == ir::Layout::by_value) {
      index[k] = k;
      params +=
          fill(d.by_value_param, {{"type", c_type(ir.inputs[k].dtype)}, {"k", std::to_string(k)}});
    } else {
      index[k] = in_memory++;
    }
  }
  std::string uniforms, decls, body;
  std::vector<std::string> refs(ir.instrs.size());
  // Values computed from scalar operands only (a Python number cast to the compute dtype) are
  // computed once, before the element loop.
  std::vector<bool> uniform(ir.instrs.size(), false);
  const std::vector<int32_t> partner = sincos_partners(ir, d);
  for (size_t i = 0; i < ir.instrs.size(); ++i) {
    const Instr& in = ir.instrs[i];
    if (in.kind == InstrKind::load) {
      const size_t k = static_cast<size_t>(in.args[0]);
      refs[i] = operand_at(d, ir, index[k], in.dtype, ir.inputs[k].layout);
      uniform[i] =
          ir.inputs[k].layout == ir::Layout::scalar || ir.inputs[k].layout == ir::Layout::by_value;
      if (d.gather && ir.inputs[k].layout == ir::Layout::strided) {
        const std::string v = value_name(i), type = c_type(in.dtype);
        decls += fill(d.declare, {{"type", type}, {"v", v}});
        body += fill(d.gather, {{"type", type}, {"v", v}, {"k", std::to_string(index[k])}});
        refs[i] = fill(d.value, {{"v", v}});
      }
      continue;
    }
    uniform[i] = true;
    for (int a = 0; a < in.nargs(); ++a)
      uniform[i] = uniform[i] && uniform[static_cast<size_t>(in.args[a])];
    // sin and cos of one value in one call, made where the first of the two is (a value of
    // scalars only is computed once anyway).
    if (const int32_t p = partner[i]; p >= 0 && !uniform[i]) {
      if (static_cast<size_t>(p) > i) {
        const bool is_sin = in.op == OpId::sin;
        body += fill(d.sincos, {{"type", c_type(in.dtype)},
                                {"x", refs[static_cast<size_t>(in.args[0])]},
                                {"s", value_name(is_sin ? i : static_cast<size_t>(p))},
                                {"c", value_name(is_sin ? static_cast<size_t>(p) : i)}});
      }
      refs[i] = fill(d.value, {{"v", value_name(i)}});
      continue;
    }
    std::string expr;
    if (in.kind == InstrKind::cast) {
      expr = std::string("accel::scalar::convert<") + c_type(in.dtype) + ">(" +
             refs[static_cast<size_t>(in.args[0])] + ")";
    } else {
      // float16 and bfloat16 ops compute in float and round once (scalar_ops.h, InFloat).
      expr = in.compute == Dtype::float16 || in.compute == Dtype::bfloat16
                 ? std::string("accel::scalar::InFloat<accel::scalar::") + functor_name(in.op) +
                       ">::apply("
                 : std::string("accel::scalar::") + functor_name(in.op) + "::apply(";
      for (int a = 0; a < in.nargs(); ++a)
        expr += (a ? ", " : "") + refs[static_cast<size_t>(in.args[a])];
      expr += ")";
    }
    const std::string v = value_name(i);
    const std::string type = c_type(in.dtype);
    if (uniform[i]) {
      uniforms += fill(d.define_uniform, {{"type", type}, {"v", v}, {"expr", expr}});
      refs[i] = fill(d.value_uniform, {{"v", v}});
      continue;
    }
    decls += fill(d.declare, {{"type", type}, {"v", v}});
    body += fill(d.define, {{"type", type}, {"v", v}, {"expr", expr}});
    refs[i] = fill(d.value, {{"v", v}});
  }
  for (size_t k = 0; k < ir.outputs.size(); ++k) {
    const std::string dst =
        operand_at(d, ir, index[nin + k], ir.outputs[k].dtype, ir.outputs[k].layout);
    const std::string& expr = refs[static_cast<size_t>(ir.results[k])];
    if (d.store_contiguous && ir.outputs[k].layout == ir::Layout::contiguous)
      body += fill(d.store_contiguous, {{"dst", dst},
                                        {"expr", expr},
                                        {"type", c_type(ir.outputs[k].dtype)},
                                        {"k", std::to_string(index[nin + k])}});
    else
      body += fill(d.store, {{"dst", dst}, {"expr", expr}});
  }
  const bool streams = d.store_contiguous != nullptr;
  return fill(d.kernel_begin,
              {{"name", name}, {"nops", std::to_string(in_memory)}, {"params", params}}) +
         (streams ? d.stream_begin : "") + uniforms + fill(d.loop_begin, {{"name", name}}) +
         decls + body + d.loop_end + (streams ? d.stream_end : "") + d.kernel_end;
}

std::string emit_prelude(const Dialect& d) { return std::string(d.prelude) + functor_source(d) + "\n"; }

std::string emit_kernel(const ir::KernelIR& ir, const Dialect& d) {
  return emit_prelude(d) + emit_kernel_body(ir, d);
}

}  // namespace accel::codegen
