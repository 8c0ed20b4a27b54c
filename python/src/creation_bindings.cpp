// Bindings for the creation area.
#include "bindings.h"

namespace accel::py {

void init_creation(nb::module_& m) {}

}  // namespace accel::py
