// Where the CUDA toolkit's libraries (NVRTC, cuBLAS) are looked for: the roots in CUDA_HOME,
// CUDA_PATH and /usr/local/cuda, and their library directories.
#pragma once
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace accel::cuda {

// CUDA_HOME, CUDA_PATH (when set), then /usr/local/cuda.
std::vector<std::string> toolkit_roots();
// Their library directories (lib64, lib, targets/<arch>/lib), in that order.
std::vector<std::string> toolkit_library_dirs();
// Directories registered at run time for one library (pip wheels, found by the Python package),
// searched after the toolkit's. Thread-safe; a directory is kept once.
class SearchDirs {
 public:
  void add(const std::vector<std::string>& dirs);
  // The toolkit's library directories, then the registered ones.
  std::vector<std::string> with_toolkit() const;

 private:
  mutable std::mutex mutex_;
  std::vector<std::string> dirs_;
};

// dir/soname for each directory in order and each soname in order, where that file exists.
std::vector<std::string> existing_libraries(const std::vector<std::string>& dirs,
                                            const std::vector<std::string>& sonames);
// Where to look for a toolkit library, in order: `override_path` (a file, or a directory holding
// one of `sonames`; from ACCEL_<LIB>_PATH), each soname in the toolkit's and `dirs`'s
// directories, then the bare sonames (LD_LIBRARY_PATH, ldconfig). For cuFFT and cuSOLVER.
std::vector<std::string> library_candidates(const std::optional<std::string>& override_path,
                                            const std::vector<std::string>& sonames,
                                            const SearchDirs& dirs);

}  // namespace accel::cuda
