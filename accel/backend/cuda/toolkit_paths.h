// Where the CUDA toolkit's libraries (NVRTC, cuBLAS) are looked for: the roots in CUDA_HOME,
// CUDA_PATH and /usr/local/cuda, and their library directories.
#pragma once
#include <string>
#include <vector>

namespace accel::cuda {

// CUDA_HOME, CUDA_PATH (when set), then /usr/local/cuda.
std::vector<std::string> toolkit_roots();
// Their library directories (lib64, lib, targets/<arch>/lib), in that order.
std::vector<std::string> toolkit_library_dirs();
// dir/soname for each directory in order and each soname in order, where that file exists.
std::vector<std::string> existing_libraries(const std::vector<std::string>& dirs,
                                            const std::vector<std::string>& sonames);

}  // namespace accel::cuda
