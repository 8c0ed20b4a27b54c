// accel._core._cpu_kernels: user kernels (CUDA C++) run on the CPU (accel/backend/cpu/raw_kernel.h);
// python/accel/_raw_kernel.py puts RawKernel / RawModule on top, for every device.
#include "accel/backend/cpu/raw_kernel.h"
#include "bindings.h"
#include "launch_args.h"

namespace accel::py {

void init_raw_kernels(nb::module_& parent) {
  nb::module_ m = parent.def_submodule("_cpu_kernels", "CUDA C++ kernels on the CPU (see accel.RawKernel)");
  using cpu::RawFunction;
  using cpu::RawModule;
  nb::class_<RawModule>(m, "Module")
      .def(nb::init<std::string, std::vector<std::string>, std::vector<std::string>, std::string>(),
           nb::arg("source"), nb::arg("options") = std::vector<std::string>(),
           nb::arg("name_expressions") = std::vector<std::string>(), nb::arg("program_name") = "kernel.cu")
      .def("function", [](const RawModule& mod, const std::string& name, bool checked) {
        nb::gil_scoped_release release;  // the host compiler may run for a second
        return mod.function(name, checked);
      }, nb::arg("name"), nb::arg("checked") = false)
      .def_prop_ro("source", &RawModule::source);
  nb::class_<RawFunction>(m, "Function")
      .def_prop_ro("name", &RawFunction::name)
      .def_prop_ro("uses_fibers", &RawFunction::uses_fibers)
      .def_prop_ro("mode", [](const RawFunction& f) {
        return f.mode() == 's' ? "split" : f.mode() == 'f' ? "fibers" : "loop";
      })
      .def_prop_ro("checked", &RawFunction::checked)
      .def_prop_ro("parameters", [](const RawFunction& f) {
        nb::list out;
        for (const cpu::RawParam& p : f.parameters()) out.append(p.str());
        return out;
      })
      .def("__call__", [](const RawFunction& f, nb::handle grid, nb::handle block, nb::handle args,
                          size_t shared_mem, bool check) {
        const auto g = to_launch_dims(grid, "grid"), b = to_launch_dims(block, "block");
        cpu::RawArgs a = to_launch_args<cpu::RawArgs>(args, f.name());
        nb::gil_scoped_release release;
        f({g[0], g[1], g[2]}, {b[0], b[1], b[2]}, a, shared_mem, check);
      }, nb::arg("grid"), nb::arg("block"), nb::arg("args"), nb::kw_only(),
         nb::arg("shared_mem") = 0, nb::arg("check") = false);
  m.def("check_default", &cpu::kernel_check_default);
  m.def("arrays_device", [](nb::handle args) { return arrays_device(args); }, nb::arg("args"),
        "Where the accel arrays among args live: -1 cpu, k cuda:k, -2 none (DeviceError if two).");
  m.def("stats", [] {
    cpu::RawKernelStats s = cpu::raw_kernel_stats();
    nb::dict d;
    d["compiles"] = s.compiles;
    d["disk_hits"] = s.disk_hits;
    d["memory_hits"] = s.memory_hits;
    d["compile_seconds"] = s.compile_seconds;
    return d;
  });
}

}  // namespace accel::py
