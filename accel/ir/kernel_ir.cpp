#include "accel/ir/kernel_ir.h"

#include <cstdio>

namespace accel::ir {

const char* layout_name(Layout l) {
  switch (l) {
    case Layout::contiguous:
      return "contiguous";
    case Layout::scalar:
      return "scalar";
    case Layout::strided:
      return "strided";
    case Layout::by_value:
      return "by value";
  }
  return "?";
}

int Instr::nargs() const {
  if (kind != InstrKind::op) return 1;
  return op_info(op).arity;
}

namespace {

// FNV-1a over the bytes of the canonical form: simple, stable, and enough to key kernels
// (the disk cache keys compiled code by a SHA-256 of the full source on top of this).
struct Fnv {
  uint64_t h = 1469598103934665603ull;
  void byte(uint8_t b) {
    h ^= b;
    h *= 1099511628211ull;
  }
  void word(int64_t v) {
    for (int i = 0; i < 8; ++i) byte(static_cast<uint8_t>(static_cast<uint64_t>(v) >> (8 * i)));
  }
};

}  // namespace

uint64_t KernelIR::hash() const {
  Fnv f;
  f.word(static_cast<int64_t>(inputs.size()));
  for (const Operand& o : inputs) {
    f.byte(static_cast<uint8_t>(o.dtype));
    f.byte(static_cast<uint8_t>(o.layout));
  }
  f.word(static_cast<int64_t>(outputs.size()));
  for (const Operand& o : outputs) {
    f.byte(static_cast<uint8_t>(o.dtype));
    f.byte(static_cast<uint8_t>(o.layout));
  }
  f.word(static_cast<int64_t>(instrs.size()));
  for (const Instr& in : instrs) {
    f.byte(static_cast<uint8_t>(in.kind));
    f.byte(static_cast<uint8_t>(in.op));
    f.byte(static_cast<uint8_t>(in.dtype));
    f.byte(static_cast<uint8_t>(in.compute));
    for (int32_t a : in.args) f.word(a);
  }
  for (int32_t r : results) f.word(r);
  return f.h;
}

std::string KernelIR::name() const {
  char buf[24];
  std::snprintf(buf, sizeof buf, "fk%016llx", static_cast<unsigned long long>(hash()));
  return buf;
}

std::string KernelIR::str() const {
  std::string s = "kernel " + name() + " (" + std::to_string(inputs.size()) + " inputs, " +
                  std::to_string(outputs.size()) + " outputs, " + std::to_string(instrs.size()) +
                  " instructions)\n";
  for (size_t k = 0; k < inputs.size(); ++k)
    s += "  in" + std::to_string(k) + ": " + dtype_name(inputs[k].dtype) + " " +
         layout_name(inputs[k].layout) + "\n";
  for (size_t i = 0; i < instrs.size(); ++i) {
    const Instr& in = instrs[i];
    s += "  v" + std::to_string(i) + ": " + dtype_name(in.dtype) + " = ";
    switch (in.kind) {
      case InstrKind::load:
        s += "load in" + std::to_string(in.args[0]);
        break;
      case InstrKind::cast:
        s += "cast v" + std::to_string(in.args[0]) + " from " + dtype_name(in.compute);
        break;
      case InstrKind::op:
        s += op_name(in.op);
        for (int a = 0; a < in.nargs(); ++a) s += (a ? ", v" : " v") + std::to_string(in.args[a]);
        s += std::string(" [") + dtype_name(in.compute) + "]";
        break;
    }
    s += "\n";
  }
  for (size_t k = 0; k < outputs.size(); ++k)
    s += "  out" + std::to_string(k) + ": " + dtype_name(outputs[k].dtype) + " " +
         layout_name(outputs[k].layout) + " = v" + std::to_string(results[k]) + "\n";
  return s;
}

int KernelIR::cost() const {
  int c = 0;
  for (const Instr& in : instrs) {
    if (in.kind != InstrKind::op) continue;
    const OpInfo& info = op_info(in.op);
    const bool transcendental =
        (info.domain == OpDomain::Inexact || info.domain == OpDomain::RealInexact) &&
        in.op != OpId::divide;
    c += transcendental ? 16 : 1;
  }
  return c > 0 ? c : 1;
}

bool KernelIR::has_layout(Layout l) const {
  for (const Operand& o : inputs)
    if (o.layout == l) return true;
  return false;
}

}  // namespace accel::ir
