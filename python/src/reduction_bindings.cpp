// Bindings for the reduction area.
#include "bindings.h"

namespace accel::py {

void init_reduction(nb::module_& m) {}

}  // namespace accel::py
