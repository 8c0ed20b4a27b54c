#include "accel/codegen/template_kernel.h"

#include <string>

#include "accel/codegen/dialect.h"
#include "accel/codegen/emit.h"
#include "accel/device_src/embedded_sources.h"
#include "accel/runtime/errors.h"

namespace accel::codegen {
namespace {

// The standard library NVRTC lacks (int64_t, std::complex, math overloads), for dialects that
// bring their own; host kernels include the real headers from their prelude.
std::string own_std_text(const Dialect& d) {
  if (!d.own_std) return "";
  std::string text = embedded::nvrtc_std_cuh;
  const size_t once = text.find("#pragma once\n");
  if (once != std::string::npos) text.erase(once, 13);
  return text;
}

// Declarations shared by every template kernel: the args struct (its layout is
// template_args_words()'s), the raw-array and index views CuPy's code expects (x[j], x.size(),
// _ind.size()), and the byte offset of a flat index over N axes (N baked in, so it unrolls).
std::string common_declarations(const TemplateKernel& k) {
  const std::string p = std::to_string(k.params.empty() ? 1 : k.params.size());
  std::string s =
      "struct _accel_args {\n"
      "  char* ptr[" +
      p +
      "];\n"
      "  int64_t size[" +
      p +
      "];\n"
      "  int64_t n, ndim, shape[8], strides[" +
      p + "][8];\n";
  if (k.is_reduction()) s += "  int64_t rn, rndim, rshape[8], rstrides[" + p + "][8];\n";
  s += "};\n"
       "template <class _T> struct _accel_raw {\n"
       "  _T* p;\n"
       "  int64_t n;\n"
       "  _T& operator[](int64_t j) const { return p[j]; }\n"
       "  int64_t size() const { return n; }\n"
       "};\n"
       "struct _accel_ind {\n"
       "  int64_t n;\n"
       "  int64_t size() const { return n; }\n"
       "};\n"
       "template <int _N> inline int64_t _accel_offset(const int64_t* shape, const int64_t* st,\n"
       "                                             int64_t i) {\n"
       "  int64_t off = 0;\n"
       "  if constexpr (_N > 0) {\n"
       "    for (int d = _N - 1; d > 0; --d) {\n"
       "      const int64_t q = i / shape[d];\n"
       "      off += (i - q * shape[d]) * st[d];\n"
       "      i = q;\n"
       "    }\n"
       "    off += i * st[0];\n"
       "  }\n"
       "  return off;\n"
       "}\n";
  return s;
}

// Whether the kernel needs complex<T> (the header costs the host compiler a third of a second).
bool uses_complex(const TemplateKernel& k) {
  bool any = is_complex(k.reduce_type) && k.is_reduction();
  for (const TemplateParam& p : k.params) any = any || is_complex(p.dtype);
  for (const auto& t : k.typedefs) any = any || is_complex(t.second);
  for (const std::string* code :
       {&k.preamble, &k.operation, &k.map_expr, &k.reduce_expr, &k.post_map_expr, &k.identity})
    any = any || code->find("complex") != std::string::npos;
  return any;
}

std::string head(const TemplateKernel& k, const Dialect& d) {
  std::string s = own_std_text(d) + d.template_prelude;
  if (uses_complex(k)) s += d.template_complex;
  for (const auto& [name, dtype] : k.typedefs)
    s += std::string("typedef ") + c_type(dtype) + " " + name + ";\n";
  if (k.is_reduction()) s += std::string("typedef ") + c_type(k.reduce_type) + " _type_reduce;\n";
  s += k.preamble + "\n" + common_declarations(k);
  return s;
}

// `x` as the user's code sees raw parameter k: a view of the whole (C-contiguous) array.
std::string raw_view(const TemplateParam& p, size_t k) {
  const std::string t = c_type(p.dtype), ks = std::to_string(k);
  return "  const _accel_raw<" + t + "> " + p.name + "{reinterpret_cast<" + t + "*>(_a.ptr[" + ks +
         "]), _a.size[" + ks + "]};\n";
}

std::string emit_elementwise(const TemplateKernel& k, const Dialect& d) {
  const std::string nd = std::to_string(k.ndim);
  std::string s = head(k, d) + fill(d.template_begin, {{"name", k.name}});
  s += "  const _accel_ind _ind{_a.n};\n";
  for (size_t j = 0; j < k.params.size(); ++j) {
    const TemplateParam& p = k.params[j];
    if (p.raw) s += raw_view(p, j);
  }
  s += d.template_loop;
  for (size_t j = 0; j < k.params.size(); ++j) {
    const TemplateParam& p = k.params[j];
    if (p.raw) continue;
    const std::string t = c_type(p.dtype), js = std::to_string(j);
    std::string at;
    switch (p.layout) {
      case ir::Layout::contiguous:
        at = "reinterpret_cast<" + t + "*>(_a.ptr[" + js + "])[i]";
        break;
      case ir::Layout::scalar:
        at = "*reinterpret_cast<" + t + "*>(_a.ptr[" + js + "])";
        break;
      case ir::Layout::strided:
        at = "*reinterpret_cast<" + t + "*>(_a.ptr[" + js + "] + _accel_offset<" + nd +
             ">(_a.shape, _a.strides[" + js + "], i))";
        break;
      case ir::Layout::by_value:  // plan_template_launch reads every operand from memory
        throw CompileError("[" + k.name + "] kernel templates take no by-value operands");
    }
    s += p.output ? "    " + t + "& " + p.name + " = " + at + ";\n"
                  : "    const " + t + " " + p.name + " = " + at + ";\n";
  }
  s += "    {\n" + k.operation + ";\n    }\n";
  s += d.loop_end;
  s += d.kernel_end;
  return s;
}

// Operand j at output _o (and, for inputs, reduced position _r).
std::string reduction_at(const TemplateKernel& k, size_t j, bool reduced) {
  const std::string t = c_type(k.params[j].dtype), js = std::to_string(j);
  std::string at = "*reinterpret_cast<" + t + "*>(_a.ptr[" + js + "] + _accel_offset<" +
                   std::to_string(k.ndim) + ">(_a.shape, _a.strides[" + js + "], _o)";
  if (reduced)
    at += " + _accel_offset<" + std::to_string(k.reduce_ndim) + ">(_a.rshape, _a.rstrides[" + js +
          "], _r)";
  return at + ")";
}

std::string emit_reduction(const TemplateKernel& k, const Dialect& d) {
  std::string raws;
  for (size_t j = 0; j < k.params.size(); ++j)
    if (k.params[j].raw) raws += raw_view(k.params[j], j);
  std::string s = head(k, d);
  s += "inline _type_reduce _reduce(const _type_reduce& a, const _type_reduce& b) {\n"
       "  return _type_reduce(" +
       k.reduce_expr + ");\n}\n";
  s += "inline _type_reduce _map(const _accel_args& _a, int64_t _o, int64_t _r) {\n" + raws;
  for (size_t j = 0; j < k.params.size(); ++j) {
    const TemplateParam& p = k.params[j];
    if (p.raw || p.output) continue;
    s += "  const " + std::string(c_type(p.dtype)) + " " + p.name + " = " +
         reduction_at(k, j, true) + ";\n";
  }
  s += "  return _type_reduce(" + k.map_expr + ");\n}\n";
  s += "inline void _post(const _accel_args& _a, int64_t _o, const _type_reduce& a) {\n" + raws;
  for (size_t j = 0; j < k.params.size(); ++j) {
    const TemplateParam& p = k.params[j];
    if (p.raw || !p.output) continue;
    s += "  " + std::string(c_type(p.dtype)) + "& " + p.name + " = " + reduction_at(k, j, false) +
         ";\n";
  }
  s += "  " + k.post_map_expr + ";\n}\n";
  s += fill(d.template_reduction, {{"name", k.name}, {"identity", k.identity}});
  return s;
}

}  // namespace

std::string emit_template_kernel(const TemplateKernel& k, const Dialect& d) {
  return k.is_reduction() ? emit_reduction(k, d) : emit_elementwise(k, d);
}

size_t template_args_words(const TemplateKernel& k) {
  const size_t p = k.params.empty() ? 1 : k.params.size();
  const size_t loop = 2 + 8 + 8 * p;
  return 2 * p + loop + (k.is_reduction() ? loop : 0);
}

}  // namespace accel::codegen
