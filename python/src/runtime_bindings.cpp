// Bindings for the runtime area.
#include "bindings.h"

namespace accel::py {

void init_runtime(nb::module_& m) {}

}  // namespace accel::py
