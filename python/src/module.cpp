// The _core extension module: each area registers its own bindings.
#include "bindings.h"

NB_MODULE(_core, m) {
  using namespace accel::py;
  m.doc() = "accel C++ core";
  init_errors(m);
  init_dtype(m);
  init_array(m);
  init_array_protocols(m);
  init_elementwise(m);
  init_creation(m);
  init_reduction(m);
  init_manipulation(m);
  init_indexing(m);
  init_linalg(m);
  init_runtime(m);
  init_cuda(m);
  init_kernel_cache(m);
  init_fusion(m);
}
