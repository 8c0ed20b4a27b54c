// CudaBackend::matmul: cuBLAS (float32/64, complex64/128) where the layout and sizes allow, and
// accel's own tiled kernel (device_src/matmul.cuh) for integers, bool, the rest, and every dtype
// when cuBLAS is missing.
#pragma once
#include <string>
#include <vector>

#include "accel/core/array.h"

namespace accel::cuda {

// a (batch..., m, k) @ b (batch..., k, n) -> out (batch..., m, n), as Backend::matmul documents.
void matmul(int device, const Array& a, const Array& b, const Array& out);

// Threads per block of the kernel (matmul.cuh's kThreads).
inline constexpr unsigned kMatmulThreads = 256;

// The kernel source as NVRTC compiles it, and the instantiation for each dtype
// ("accel_matmul<int8_t>"), for tests that compile them all.
std::string matmul_kernel_source();
std::string matmul_kernel_name(Dtype dt);
std::vector<std::string> matmul_kernel_names();

}  // namespace accel::cuda
