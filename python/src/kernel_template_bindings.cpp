// accel.ElementwiseKernel / accel.ReductionKernel (python/accel/_kernel_templates.py) call these:
// _core._ElementwiseKernel and _core._ReductionKernel take their arguments already split into
// inputs, outputs and options, and convert each argument as an operand (arrays as they are,
// Python numbers as weak 0-d arrays, anything else through asarray).
#include "accel/kernels/elementwise_kernel.h"
#include "accel/kernels/reduction_kernel.h"
#include "bindings.h"

namespace accel::py {
namespace {

std::vector<Array> kernel_operands(const nb::sequence& args) {
  Device device = default_device();
  for (nb::handle h : args)
    if (nb::isinstance<Array>(h) && nb::cast<const Array&>(h).ndim() > 0) {
      device = nb::cast<const Array&>(h).device();
      break;
    }
  std::vector<Array> out;
  for (nb::handle h : args) out.push_back(to_operand(h, device));
  return out;
}

nb::list param_list(const std::vector<KernelParam>& params) {
  nb::list l;
  for (const KernelParam& p : params) l.append(nb::make_tuple(p.raw, p.type, p.name));
  return l;
}

}  // namespace

void init_kernel_templates(nb::module_& m) {
  nb::class_<ElementwiseKernel>(m, "_ElementwiseKernel")
      .def(nb::init<const std::string&, const std::string&, std::string, std::string, std::string,
                    std::vector<std::string>>(),
           nb::arg("in_params"), nb::arg("out_params"), nb::arg("operation"), nb::arg("name"),
           nb::arg("preamble"), nb::arg("options"))
      .def(
          "__call__",
          [](const ElementwiseKernel& k, const nb::sequence& args, std::optional<int64_t> size) {
            return k(kernel_operands(args), size);
          },
          nb::arg("args"), nb::arg("size").none())
      .def(
          "source",
          [](const ElementwiseKernel& k, const nb::sequence& args, nb::handle device,
             std::optional<int64_t> size) {
            return k.source(kernel_operands(args), to_optional_device(device).value(), size);
          },
          nb::arg("args"), nb::arg("device"), nb::arg("size").none())
      .def_prop_ro("name", &ElementwiseKernel::name)
      .def_prop_ro("in_params",
                   [](const ElementwiseKernel& k) { return param_list(k.in_params()); })
      .def_prop_ro("out_params",
                   [](const ElementwiseKernel& k) { return param_list(k.out_params()); });

  nb::class_<ReductionKernel>(m, "_ReductionKernel")
      .def(nb::init<const std::string&, const std::string&, std::string, std::string, std::string,
                    std::string, std::string, std::string, std::string, std::vector<std::string>>(),
           nb::arg("in_params"), nb::arg("out_params"), nb::arg("map_expr"), nb::arg("reduce_expr"),
           nb::arg("post_map_expr"), nb::arg("identity"), nb::arg("name"), nb::arg("reduce_type"),
           nb::arg("preamble"), nb::arg("options"))
      .def(
          "__call__",
          [](const ReductionKernel& k, const nb::sequence& args, nb::handle axis, bool keepdims) {
            return k(kernel_operands(args), ReduceAxes(to_axes(axis)), keepdims);
          },
          nb::arg("args"), nb::arg("axis").none(), nb::arg("keepdims"))
      .def(
          "source",
          [](const ReductionKernel& k, const nb::sequence& args, nb::handle device, nb::handle axis,
             bool keepdims) {
            return k.source(kernel_operands(args), to_optional_device(device).value(),
                            ReduceAxes(to_axes(axis)), keepdims);
          },
          nb::arg("args"), nb::arg("device"), nb::arg("axis").none(), nb::arg("keepdims"))
      .def_prop_ro("name", &ReductionKernel::name)
      .def_prop_ro("in_params", [](const ReductionKernel& k) { return param_list(k.in_params()); })
      .def_prop_ro("out_params",
                   [](const ReductionKernel& k) { return param_list(k.out_params()); });
}

}  // namespace accel::py
