// NVRTC, CUDA's run-time compiler, loaded with dlopen on first use (nvrtc_api.def). Looked for,
// in order: ACCEL_NVRTC_PATH (a file or a directory), the toolkit in CUDA_HOME / CUDA_PATH and
// /usr/local/cuda, pip's nvidia-cuda-nvrtc wheels (site-packages/nvidia/cu13/lib and
// nvidia/cuda_nvrtc/lib, directories given by the Python package), then the loader's own path;
// versions newer than the driver's CUDA major are skipped.
#pragma once
#include <string>
#include <vector>

#include "accel/backend/cuda/cuda_types.h"

namespace accel::cuda {

// The oldest NVRTC accel accepts (CUBIN output and the supported-arch query need 11.2+; 12.0
// is the oldest with current architectures).
inline constexpr int kMinNvrtcMajor = 12;

struct NvrtcApi {
#define ACCEL_NVRTC_FN(member, symbol, ret, params) ret(*member) params = nullptr;
#include "accel/backend/cuda/nvrtc_api.def"
#undef ACCEL_NVRTC_FN

  std::string path;                  // the libnvrtc that was loaded
  int major = 0, minor = 0;          // its version
  std::vector<int> archs;            // supported sm_XY as XY, ascending
  std::string include_dir;           // the CUDA headers (cuda_fp16.h, ...) that match it, or ""
  std::string include_dir_searched;  // where include_dir was looked for, for messages

  std::string version_string() const { return std::to_string(major) + "." + std::to_string(minor); }
};

// The loaded NVRTC; throws BackendUnavailable saying what was looked for, where, and what to
// install.
const NvrtcApi& nvrtc();
// Why nvrtc() throws, or "" when it is usable. Never throws.
std::string nvrtc_unavailable_reason();
// Whether code from NVRTC of CUDA `nvrtc_major` loads on a driver for CUDA `driver_major`: not
// when NVRTC is of a newer major. 0 stands for unknown (a library name without a version, no
// driver) and fits. NVRTC libraries that do not fit are skipped, and the search says so.
bool nvrtc_fits_driver(int nvrtc_major, int driver_major);
// Extra directories to search (before the loader's own path), e.g. pip wheel directories found by
// the Python package. Only effective before NVRTC is first loaded.
void add_nvrtc_search_dirs(const std::vector<std::string>& dirs);

}  // namespace accel::cuda
