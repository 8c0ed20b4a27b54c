// Bindings for the indexing area.
#include "bindings.h"

namespace accel::py {

void init_indexing(nb::module_& m) {}

}  // namespace accel::py
