// CudaBackend::random: device_src/random.cuh (philox.h's draws) over a contiguous output, one
// module with a kernel per output dtype, compiled with --fmad=false so the arithmetic rounds
// as on the CPU and the values match it bit for bit.
#pragma once
#include <span>
#include <string>
#include <vector>

#include "accel/core/array.h"
#include "accel/device_src/philox.h"

namespace accel::cuda {

void random(int device, const Array& out, const philox::DrawParams& params,
            std::span<const Array> per_element);

// The kernel source, its NVRTC options, and every instantiation (name expression) the backend
// launches, for tests that compile them all and run them on the host emulator.
std::string random_kernel_source();
std::vector<std::string> random_compile_options();
std::vector<std::string> random_kernel_names();
std::string random_kernel_name(Dtype dtype);

}  // namespace accel::cuda
