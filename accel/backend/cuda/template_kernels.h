// Kernel templates on CUDA (Backend::run_template): the kernel is emitted in the CUDA dialect,
// compiled by NVRTC (kernel cache) once per device and launched on the current stream;
// elementwise kernels grid-stride over the elements, reductions run a block per output.
#pragma once
#include <string>
#include <vector>

#include "accel/codegen/template_kernel.h"

namespace accel::cuda {

// What run_template_kernel compiles: the source and the NVRTC options (accel's, then the
// kernel's own). Tests compile these without a GPU.
std::string template_source(const codegen::TemplateKernel& k);
std::vector<std::string> template_options(const codegen::TemplateKernel& k);

void run_template_kernel(int device, const codegen::TemplateLaunch& launch);

}  // namespace accel::cuda
