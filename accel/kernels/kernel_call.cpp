#include "accel/kernels/kernel_call.h"

#include "accel/backend/backend.h"
#include "accel/ops/copy.h"
#include "accel/runtime/errors.h"

namespace accel {

KernelCall bind_kernel_call(const std::string& kernel, const std::vector<KernelParam>& in,
                            const std::vector<KernelParam>& out, const std::vector<Array>& args) {
  KernelCall call;
  call.kernel = kernel;
  call.nin = in.size();
  if (args.size() != in.size() && args.size() != in.size() + out.size())
    throw ValueError("[" + kernel + "] takes " + std::to_string(in.size()) +
                     " input arguments, optionally followed by " + std::to_string(out.size()) +
                     " output arrays; got " + std::to_string(args.size()) + " arguments");
  for (const Array& a : args)
    if (!a.valid()) throw ValueError("[" + kernel + "] an argument is not an array");
  call.params = in;
  call.params.insert(call.params.end(), out.begin(), out.end());
  call.args = args;
  call.args.resize(call.params.size());
  call.device = kernel_device(call.args, call.params, kernel);
  call.types = bind_placeholders(call.params, call.args, kernel);
  for (size_t k = 0; k < call.params.size(); ++k) {
    const KernelParam& p = call.params[k];
    const bool output = k >= call.nin;
    call.dtypes.push_back(resolve_kernel_type(p.type, p.dtype, call.types, kernel,
                                              (output ? "output '" : "input '") + p.name + "'"));
    Array& a = call.args[k];
    if (!a.valid()) continue;
    if (output) {
      if (a.device() != call.device)
        throw DeviceError("[" + kernel + "] output '" + p.name + "' is on " + a.device().str() +
                          "; the kernel runs on " + call.device.str());
      check_kernel_output(a, p, call.dtypes[k], kernel);
    } else {
      a = kernel_input(a, p, call.dtypes[k], call.device, kernel);
    }
    a.eval();  // the layout the kernel is planned for is the computed one
  }
  return call;
}

codegen::TemplateKernel template_of(const KernelCall& call, const std::string& preamble,
                                    const std::vector<std::string>& options) {
  codegen::TemplateKernel k;
  k.name = call.kernel;
  for (const auto& [name, dtype] : call.types) k.typedefs.emplace_back(name, dtype);
  k.preamble = preamble;
  k.options = options;
  for (size_t j = 0; j < call.params.size(); ++j)
    k.params.push_back({call.params[j].name, call.dtypes[j], j >= call.nin, call.params[j].raw});
  return k;
}

Strides byte_strides(const Array& a) {
  Strides s = a.strides();
  for (int64_t& v : s) v *= static_cast<int64_t>(a.itemsize());
  return s;
}

TemplateOperand raw_operand(KernelCall& call, size_t k) {
  Array& a = call.args[k];
  if (!a.is_contiguous()) {
    Array c = ascontiguousarray(a);
    if (k >= call.nin && !c.is(a)) call.write_back.emplace_back(a, c);
    a = c;
  }
  TemplateOperand op;
  op.size = a.size();
  return op;
}

void bind_operands(KernelCall& call, codegen::TemplateLaunch& launch) {
  for (size_t k = 0; k < call.nin; ++k) call.args[k].eval();
  for (size_t k = call.nin; k < call.args.size(); ++k) {
    call.args[k].eval();
    call.args[k].buffer()->evaluate_pending_readers();
  }
  for (size_t k = 0; k < call.args.size(); ++k)
    launch.args[k] = reinterpret_cast<int64_t>(call.args[k].data());
}

void run_kernel_call(KernelCall& call, codegen::TemplateLaunch launch) {
  bind_operands(call, launch);
  backend_for(call.device).run_template(launch);
  for (const auto& [mine, theirs] : call.write_back) assign(mine, theirs, call.kernel.c_str());
}

}  // namespace accel
