#include "accel/kernels/reduction_kernel.h"

#include <algorithm>

#include "accel/codegen/dialect.h"
#include "accel/kernels/kernel_call.h"
#include "accel/ops/copy.h"
#include "accel/ops/manipulation.h"
#include "accel/runtime/errors.h"

namespace accel {

struct ReductionKernel::Impl {
  std::string name, map_expr, reduce_expr, post_map_expr, identity, reduce_type, preamble;
  std::optional<Dtype> fixed_reduce_type;
  std::vector<KernelParam> in, out;
  std::vector<std::string> options;

  struct Prepared {
    KernelCall call;
    codegen::TemplateLaunch launch;
  };
  Prepared prepare(const std::vector<Array>& args, const ReduceAxes& axis, bool keepdims) const;
};

ReductionKernel::ReductionKernel(const std::string& in_params, const std::string& out_params,
                                 std::string map_expr, std::string reduce_expr,
                                 std::string post_map_expr, std::string identity, std::string name,
                                 std::string reduce_type, std::string preamble,
                                 std::vector<std::string> options) {
  check_kernel_name(name);
  auto impl = std::make_shared<Impl>();
  impl->in = parse_kernel_params(in_params, "in_params", name);
  impl->out = parse_kernel_params(out_params, "out_params", name);
  if (impl->out.empty()) throw ValueError("[" + name + "] out_params declares no output");
  check_kernel_param_names(impl->in, impl->out, name, true);
  if (std::none_of(impl->in.begin(), impl->in.end(), [](const KernelParam& p) { return !p.raw; }))
    throw ValueError("[" + name +
                     "] in_params needs a non-raw input: its axes are what the "
                     "kernel reduces");
  for (const KernelParam& p : impl->out)
    if (p.raw) throw ValueError("[" + name + "] output '" + p.name + "' cannot be raw");
  for (const auto& [what, text] : {std::pair<const char*, const std::string&>{"map_expr", map_expr},
                                   {"reduce_expr", reduce_expr},
                                   {"identity", identity}})
    if (text.find_first_not_of(" \t\n") == std::string::npos)
      throw ValueError("[" + name + "] " + what + " is empty");
  if (reduce_type.empty()) {
    impl->reduce_type = impl->out[0].type;
    impl->fixed_reduce_type = impl->out[0].dtype;
  } else {
    const auto parsed = parse_kernel_params(reduce_type + " _reduce_type", "reduce_type", name);
    impl->reduce_type = parsed[0].type;
    impl->fixed_reduce_type = parsed[0].dtype;
  }
  impl->name = std::move(name);
  impl->map_expr = std::move(map_expr);
  impl->reduce_expr = std::move(reduce_expr);
  impl->post_map_expr = std::move(post_map_expr);
  impl->identity = std::move(identity);
  impl->preamble = std::move(preamble);
  impl->options = std::move(options);
  impl_ = std::move(impl);
}

ReductionKernel::Impl::Prepared ReductionKernel::Impl::prepare(const std::vector<Array>& args,
                                                               const ReduceAxes& axis,
                                                               bool keepdims) const {
  KernelCall call = bind_kernel_call(name, in, out, args);
  const size_t np = call.params.size();
  std::vector<Shape> shapes;
  for (size_t k = 0; k < call.nin; ++k)
    if (!call.params[k].raw) shapes.push_back(call.args[k].shape());
  const Shape shape = broadcast_shapes(shapes, name.c_str());
  const int ndim = static_cast<int>(shape.size());
  std::vector<bool> reduced(ndim, axis.all());
  if (!axis.all())
    for (int d : normalize_axes(axis.list(), ndim, name.c_str())) reduced[d] = true;
  Shape kept, rshape, out_shape;
  for (int d = 0; d < ndim; ++d) {
    (reduced[d] ? rshape : kept).push_back(shape[d]);
    if (!reduced[d] || keepdims) out_shape.push_back(reduced[d] ? 1 : shape[d]);
  }
  for (size_t k = call.nin; k < np; ++k) {
    Array& a = call.args[k];
    if (!a.valid()) {
      a = Array::empty(out_shape, call.dtypes[k], call.device);
    } else if (a.shape() != out_shape) {
      throw ShapeError("[" + name + "] output '" + call.params[k].name + "' has shape " +
                       shape_str(a.shape()) + "; reducing " + shape_str(shape) + " gives " +
                       shape_str(out_shape));
    }
  }

  codegen::TemplateKernel kernel = template_of(call, preamble, options);
  kernel.reduce_type =
      resolve_kernel_type(reduce_type, fixed_reduce_type, call.types, name, "reduce_type");
  kernel.map_expr = map_expr;
  kernel.reduce_expr = reduce_expr;
  kernel.post_map_expr = post_map_expr;
  kernel.identity = identity;
  for (int attempt = 0;; ++attempt) {
    std::vector<TemplateOperand> operands(np);
    for (size_t k = 0; k < np; ++k) {
      if (call.params[k].raw) {
        operands[k] = raw_operand(call, k);
        continue;
      }
      const bool input = k < call.nin;
      const Strides s =
          input ? byte_strides(broadcast_to(call.args[k], shape)) : byte_strides(call.args[k]);
      // An output's strides are over its own axes: the kept ones (and, with keepdims, length-1
      // reduced ones, which carry nothing).
      for (int d = 0, o = 0; d < ndim; ++d) {
        if (!input && !reduced[d]) operands[k].strides.push_back(s[o++]);
        if (!input && reduced[d] && keepdims) ++o;
        if (input) (reduced[d] ? operands[k].rstrides : operands[k].strides).push_back(s[d]);
      }
    }
    if (auto launch = plan_template_launch(kernel, operands, kept, rshape))
      return {std::move(call), std::move(*launch)};
    if (attempt)
      throw ShapeError("[" + name + "] cannot address the loop over " + shape_str(shape));
    // Too many axes even after merging: contiguous copies merge the kept and the reduced axes
    // (moved last) into one each.
    Axes order, inverse(ndim);
    for (int d = 0; d < ndim; ++d)
      if (!reduced[d]) order.push_back(d);
    for (int d = 0; d < ndim; ++d)
      if (reduced[d]) order.push_back(d);
    for (int d = 0; d < ndim; ++d) inverse[order[d]] = d;
    for (size_t k = 0; k < np; ++k) {
      Array& a = call.args[k];
      if (call.params[k].raw) continue;
      if (k < call.nin) {
        a = permute_dims(ascontiguousarray(permute_dims(broadcast_to(a, shape), order)), inverse);
      } else if (!a.is_contiguous()) {
        Array c = Array::empty(out_shape, a.dtype(), call.device);
        call.write_back.emplace_back(a, c);
        a = c;
      }
    }
  }
}

std::vector<Array> ReductionKernel::operator()(const std::vector<Array>& args,
                                               const ReduceAxes& axis, bool keepdims) const {
  Impl::Prepared p = impl_->prepare(args, axis, keepdims);
  run_kernel_call(p.call, p.launch);
  std::vector<Array> outputs;
  for (size_t k = p.call.nin; k < p.call.args.size(); ++k) {
    Array result = p.call.args[k];
    for (const auto& [mine, theirs] : p.call.write_back)
      if (theirs.is(result)) result = mine;
    outputs.push_back(result);
  }
  return outputs;
}

std::string ReductionKernel::source(const std::vector<Array>& args, Device device,
                                    const ReduceAxes& axis, bool keepdims) const {
  const Impl::Prepared p = impl_->prepare(args, axis, keepdims);
  return codegen::emit_template_kernel(
      p.launch.kernel, device.is_cpu() ? codegen::host_dialect() : codegen::cuda_dialect());
}

ReductionKernel::Plan ReductionKernel::plan(const std::vector<Array>& args, const ReduceAxes& axis,
                                            bool keepdims) const {
  Impl::Prepared p = impl_->prepare(args, axis, keepdims);
  bind_operands(p.call, p.launch);
  return {std::move(p.launch), std::move(p.call.args)};
}

const std::string& ReductionKernel::name() const { return impl_->name; }
const std::vector<KernelParam>& ReductionKernel::in_params() const { return impl_->in; }
const std::vector<KernelParam>& ReductionKernel::out_params() const { return impl_->out; }

}  // namespace accel
