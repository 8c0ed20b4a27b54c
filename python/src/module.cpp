// The _core extension module: each area registers its own bindings.
#include "accel/runtime/config.h"
#include "bindings.h"
#include "dlpack.h"

NB_MODULE(_core, m) {
  using namespace accel::py;
  m.doc() = "accel C++ core";
  // nanobind's exit report lists every accel object still alive when Python has finished. accel
  // itself leaves none (tests/python/test_clean_exit.py runs typical work with the report on),
  // but tools can keep user objects past the end: under pytest, Hypothesis never frees the values
  // it drew (a plain Python object's __del__ never runs either), so the Array API test suite
  // printed dozens of lines. The report is a developer's tool: ACCEL_LEAK_WARNINGS=1 turns it on.
  nb::set_leak_warnings(accel::config::flag(accel::config::Var::ACCEL_LEAK_WARNINGS, false));
  init_errors(m);
  init_dtype(m);
  init_array(m);
  init_dlpack_fast_paths(m);
  init_memory(m);
  init_array_protocols(m);
  init_flags(m);
  init_elementwise(m);
  init_creation(m);
  init_reduction(m);
  init_sorting(m);
  init_manipulation(m);
  init_indexing(m);
  init_linalg(m);
  init_linalg_decompose(m);
  init_fft(m);
  init_runtime(m);
  init_cuda(m);
  init_kernel_cache(m);
  init_fusion(m);
  init_kernel_templates(m);
  init_raw_kernels(m);
  init_random(m);
  init_profile(m);
  init_ufunc_type(m);
  init_operator_slots(m);
}
