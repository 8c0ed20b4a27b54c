#include "accel/kernels/elementwise_kernel.h"

#include "accel/codegen/dialect.h"
#include "accel/kernels/kernel_call.h"
#include "accel/ops/copy.h"
#include "accel/ops/manipulation.h"
#include "accel/runtime/errors.h"

namespace accel {

struct ElementwiseKernel::Impl {
  std::string name, operation, preamble;
  std::vector<KernelParam> in, out;
  std::vector<std::string> options;

  struct Prepared {
    KernelCall call;
    codegen::TemplateLaunch launch;
  };
  Prepared prepare(const std::vector<Array>& args, std::optional<int64_t> size) const;
};

ElementwiseKernel::ElementwiseKernel(const std::string& in_params, const std::string& out_params,
                                     std::string operation, std::string name, std::string preamble,
                                     std::vector<std::string> options) {
  check_kernel_name(name);
  auto impl = std::make_shared<Impl>();
  impl->in = parse_kernel_params(in_params, "in_params", name);
  impl->out = parse_kernel_params(out_params, "out_params", name);
  if (impl->out.empty()) throw ValueError("[" + name + "] out_params declares no output");
  check_kernel_param_names(impl->in, impl->out, name, false);
  impl->name = std::move(name);
  impl->operation = std::move(operation);
  impl->preamble = std::move(preamble);
  impl->options = std::move(options);
  impl_ = std::move(impl);
}

ElementwiseKernel::Impl::Prepared ElementwiseKernel::Impl::prepare(
    const std::vector<Array>& args, std::optional<int64_t> size) const {
  KernelCall call = bind_kernel_call(name, in, out, args);
  const size_t np = call.params.size();

  // The loop's shape: the non-raw arguments broadcast together (outputs given included, as
  // CuPy does), or (size,) when every array is raw.
  std::vector<Shape> shapes;
  for (size_t k = 0; k < np; ++k)
    if (!call.params[k].raw && call.args[k].valid()) shapes.push_back(call.args[k].shape());
  Shape shape;
  if (shapes.empty()) {
    if (!size)
      throw ValueError("[" + name +
                       "] every array argument is raw: pass size= to say how many "
                       "elements the loop runs over");
    if (*size < 0)
      throw ValueError("[" + name + "] size=" + std::to_string(*size) + " is negative");
    shape = {*size};
  } else {
    if (size)
      throw ValueError("[" + name +
                       "] size= is only for kernels whose array arguments are all "
                       "raw; here the loop runs over the broadcast arguments");
    shape = broadcast_shapes(shapes, name.c_str());
  }
  for (size_t k = call.nin; k < np; ++k) {
    Array& a = call.args[k];
    const KernelParam& p = call.params[k];
    if (a.valid()) {
      if (!p.raw && a.shape() != shape)
        throw ShapeError("[" + name + "] output '" + p.name + "' has shape " +
                         shape_str(a.shape()) + " but the arguments broadcast to " +
                         shape_str(shape));
      continue;
    }
    if (p.raw)
      throw ValueError("[" + name + "] raw output '" + p.name +
                       "' must be passed: its size is the kernel's to decide");
    a = Array::empty(shape, call.dtypes[k], call.device);
  }

  const codegen::TemplateKernel kernel = [&] {
    codegen::TemplateKernel k = template_of(call, preamble, options);
    k.operation = operation;
    return k;
  }();
  for (int attempt = 0;; ++attempt) {
    std::vector<TemplateOperand> operands(np);
    for (size_t k = 0; k < np; ++k) {
      if (call.params[k].raw) {
        operands[k] = raw_operand(call, k);
        continue;
      }
      const Array& a = call.args[k];
      operands[k].strides = k < call.nin ? byte_strides(broadcast_to(a, shape)) : byte_strides(a);
    }
    if (auto launch = plan_template_launch(kernel, operands, shape, {}))
      return {std::move(call), std::move(*launch)};
    // More axes than the kernel addresses even after merging: run on contiguous copies, which
    // merge into one axis.
    if (attempt)
      throw ShapeError("[" + name + "] cannot address the loop over " + shape_str(shape));
    for (size_t k = 0; k < np; ++k) {
      Array& a = call.args[k];
      if (call.params[k].raw) continue;
      if (k < call.nin) {
        a = ascontiguousarray(broadcast_to(a, shape));
      } else if (!a.is_contiguous()) {
        Array c = Array::empty(shape, a.dtype(), call.device);
        call.write_back.emplace_back(a, c);
        a = c;
      }
    }
  }
}

std::vector<Array> ElementwiseKernel::operator()(const std::vector<Array>& args,
                                                 std::optional<int64_t> size) const {
  Impl::Prepared p = impl_->prepare(args, size);
  run_kernel_call(p.call, p.launch);
  std::vector<Array> outputs;
  size_t k = p.call.nin;
  for (size_t j = 0; j < impl_->out.size(); ++j, ++k) {
    // A write-back target is the caller's array, not the kernel's copy.
    Array result = p.call.args[k];
    for (const auto& [mine, theirs] : p.call.write_back)
      if (theirs.is(result)) result = mine;
    outputs.push_back(result);
  }
  return outputs;
}

std::string ElementwiseKernel::source(const std::vector<Array>& args, Device device,
                                      std::optional<int64_t> size) const {
  const Impl::Prepared p = impl_->prepare(args, size);
  return codegen::emit_template_kernel(
      p.launch.kernel, device.is_cpu() ? codegen::host_dialect() : codegen::cuda_dialect());
}

ElementwiseKernel::Plan ElementwiseKernel::plan(const std::vector<Array>& args,
                                                std::optional<int64_t> size) const {
  Impl::Prepared p = impl_->prepare(args, size);
  bind_operands(p.call, p.launch);
  return {std::move(p.launch), std::move(p.call.args)};
}

const std::string& ElementwiseKernel::name() const { return impl_->name; }
const std::vector<KernelParam>& ElementwiseKernel::in_params() const { return impl_->in; }
const std::vector<KernelParam>& ElementwiseKernel::out_params() const { return impl_->out; }

}  // namespace accel
