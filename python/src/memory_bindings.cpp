// accel.shares_memory and accel.may_share_memory, NumPy's two questions about overlapping
// memory: an exact answer (ops/memory_overlap.h) and the address-range check.
#include <optional>
#include <stdexcept>
#include <string>

#include "bindings.h"

namespace accel::py {

// max_work: None or -1 (NumPy's MAY_SHARE_EXACT) an exact answer; 0 (MAY_SHARE_BOUNDS) only
// what the address ranges decide; k > 0 an exact search of at most k steps. Undecided within
// max_work, shares_memory raises (NumPy's TooHardError is a RuntimeError) and may_share_memory
// answers "may".
void init_memory(nb::module_& m) {
  m.def("shares_memory", [](nb::handle a, nb::handle b, std::optional<int64_t> max_work) {
    const int64_t work = max_work.value_or(-1);
    if (std::optional<bool> r = shares_memory_exactly(to_array(a), to_array(b), work < 0 ? -1 : work))
      return *r;
    throw std::runtime_error("[shares_memory] exceeded max_work=" + std::to_string(work) +
                             " before deciding whether the arrays overlap");
  }, nb::arg("a"), nb::arg("b"), nb::arg("max_work") = nb::none(),
     "Whether a and b share a byte of memory, exactly (NumPy's shares_memory).");
  m.def("may_share_memory", [](nb::handle a, nb::handle b, std::optional<int64_t> max_work) {
    const Array x = to_array(a), y = to_array(b);
    const int64_t work = max_work.value_or(0);
    if (work == 0) return x.shares_memory_with(y);  // overlapping address ranges
    return shares_memory_exactly(x, y, work < 0 ? -1 : work).value_or(true);
  }, nb::arg("a"), nb::arg("b"), nb::arg("max_work") = nb::none(),
     "Whether a and b may share memory: their address ranges overlap (NumPy's "
     "may_share_memory; max_work=-1 asks for the exact answer).");
}

}  // namespace accel::py
