// Fusion controls and diagnostics: accel.explain(y), accel.set_fusion(on), accel.fusion_enabled(),
// accel.set_eager_small(on).
#include "accel/backend/cpu/cpu.h"
#include "bindings.h"

namespace accel::py {

void init_fusion(nb::module_& m) {
  m.def(
      "explain", [](const Array& a) { return explain(a); }, nb::arg("x"),
      "What evaluating x would run, computing nothing: each fused group with its kernel IR\n"
      "and generated source.");
  m.def(
      "set_fusion", [](bool on) { set_fusion_enabled(on); }, nb::arg("on"),
      "Turns fusion of elementwise chains on or off (ACCEL_FUSION=0 starts it off).");
  m.def("fusion_enabled", [] { return fusion_enabled(); });
  m.def(
      "set_eager_small", [](bool on) { set_eager_small_enabled(on); }, nb::arg("on"),
      "Computes elementwise ops on small computed CPU arrays at once (on, the default) or\n"
      "records them lazily like every other op (ACCEL_EAGER_SMALL=0 starts it off).");
  m.def("eager_small_enabled", [] { return eager_small_enabled(); });
  m.attr("_eager_max_elements") = kEagerMaxElements;
  m.def(
      "set_jit", [](bool on) { cpu::set_host_jit_enabled(on); }, nb::arg("on"),
      "Turns the host JIT of fused kernels on or off (ACCEL_JIT=0 starts it off).");
  m.def(
      "jit_wait",
      [] {
        nb::gil_scoped_release release;
        cpu::host_jit_wait();
      },
      "Waits until the host JIT has no compile queued or running.");
  m.def(
      "jit_stats",
      [] {
        cpu::HostJitStats s = cpu::host_jit_stats();
        nb::dict d;
        d["compiles"] = s.compiles;
        d["disk_hits"] = s.disk_hits;
        d["failures"] = s.failures;
        d["jit_runs"] = s.jit_runs;
        d["compile_seconds"] = s.compile_seconds;
        d["compiler"] = s.compiler;
        d["enabled"] = cpu::host_jit_enabled();
        return d;
      },
      "Counters of the host JIT of fused kernels in this process.");
  // Registered with Python's atexit by accel/__init__.py (cpu.h says why).
  m.def("_stop_host_compiles", [] { cpu::stop_host_compiles(); });
  m.def(
      "jit_forget", [] { cpu::host_jit_forget(); },
      "Forgets this process's compiled kernels (the disk cache stays).");
}

}  // namespace accel::py
