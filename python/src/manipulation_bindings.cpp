// Bindings for the manipulation area.
#include "bindings.h"

namespace accel::py {

void init_manipulation(nb::module_& m) {}

}  // namespace accel::py
