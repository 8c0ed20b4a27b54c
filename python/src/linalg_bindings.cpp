// Bindings for the linalg area.
#include "bindings.h"

namespace accel::py {

void init_linalg(nb::module_& m) {}

}  // namespace accel::py
