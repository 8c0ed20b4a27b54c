// Fusion controls and diagnostics: accel.explain(y), accel.set_fusion(on), accel.fusion_enabled().
#include "bindings.h"

namespace accel::py {

void init_fusion(nb::module_& m) {
  m.def("explain", [](const Array& a) { return explain(a); }, nb::arg("x"),
        "What evaluating x would run, computing nothing: each fused group with its kernel IR\n"
        "and generated source.");
  m.def("set_fusion", [](bool on) { set_fusion_enabled(on); }, nb::arg("on"),
        "Turns fusion of elementwise chains on or off (ACCEL_FUSION=0 starts it off).");
  m.def("fusion_enabled", [] { return fusion_enabled(); });
}

}  // namespace accel::py
