// Runtime controls: configuration, CPU threads and memory pool statistics per device.
#include <nanobind/stl/tuple.h>

#include <tuple>

#include "accel/backend/backend.h"
#include "accel/backend/cpu/cpu.h"
#include "accel/runtime/compile_status.h"
#include "accel/runtime/config.h"
#include "bindings.h"

namespace accel::py {

void init_runtime(nb::module_& m) {
  m.def("_config", [] {
    std::vector<std::tuple<std::string, std::string, std::string, std::optional<std::string>,
                           std::optional<std::string>>> out;
    for (const config::Entry& e : config::entries())
      out.emplace_back(e.name, e.kind, e.meaning, e.value, e.problem);
    return out;
  }, "Every ACCEL_* variable (accel/runtime/config.def): name, kind, meaning, value or None, "
     "and why the value is malformed or None.");
  m.def("_compile_status_for_testing", [](double after_s, double interval_s) {
    compile_status::enable_for_testing({}, after_s, interval_s);
  }, nb::arg("after_s"), nb::arg("interval_s"),
     "Tests: draw the compile status line on stderr whatever it is, after `after_s` seconds.");
  m.def("num_threads", &cpu::num_threads, "Threads the CPU backend uses (ACCEL_NUM_THREADS).");
  m.def("set_num_threads", [](int n) {
    if (n < 1) throw ValueError("[set_num_threads] needs at least 1 thread, got " + std::to_string(n));
    cpu::set_num_threads(n);
  }, nb::arg("n"));
  m.def("memory_stats", [](nb::handle device) {
    Device d = to_optional_device(device).value_or(Device::cpu());
    MemoryStats s = backend_for(d).memory_stats();
    nb::dict out;
    out["in_use"] = s.in_use;
    out["cached"] = s.cached;
    out["peak"] = s.peak;
    out["allocations"] = s.allocations;
    out["cache_hits"] = s.cache_hits;
    out["oom_retries"] = s.oom_retries;
    return out;
  }, nb::arg("device") = nb::none(),
     "Bytes in use, cached for reuse, and the peak, of a device's memory pool.");
  m.def("free_cached", [](nb::handle device) {
    backend_for(to_optional_device(device).value_or(Device::cpu())).free_cached();
  }, nb::arg("device") = nb::none(), "Returns a device pool's cached blocks to the system.");
}

}  // namespace accel::py
