// cuBLAS, loaded with dlopen on first use through the symbol table in cublas_api.def, like the
// driver and NVRTC: nothing links against it, and without it matmul runs on accel's own kernel.
// Looked for, in order: ACCEL_CUBLAS_PATH (a file or a directory), the toolkit in CUDA_HOME /
// CUDA_PATH and /usr/local/cuda, pip's wheels (site-packages/nvidia/cu13/lib and
// nvidia/cublas/lib, directories given by the Python package), then the loader's own path.
#pragma once
#include <mutex>
#include <string>
#include <vector>

#include "accel/backend/cuda/cuda_types.h"

namespace accel::cuda {

using cublasStatus_t = int;
using cublasHandle_t = struct cublasContext*;

// cublas_api.h's values (tests/cpp/cuda_linalg_test.cpp checks them against the header).
inline constexpr cublasStatus_t kCublasSuccess = 0;      // CUBLAS_STATUS_SUCCESS
inline constexpr cublasStatus_t kCublasAllocFailed = 3;  // CUBLAS_STATUS_ALLOC_FAILED
inline constexpr int kCublasOpN = 0;                     // CUBLAS_OP_N
inline constexpr int kCublasOpT = 1;                     // CUBLAS_OP_T
inline constexpr int kCublasDefaultMath = 0;             // CUBLAS_DEFAULT_MATH

struct CublasApi {
#define ACCEL_CUBLAS_FN(member, symbol, ret, params) ret(*member) params = nullptr;
#define ACCEL_CUBLAS_TYPED(member, s, d, c, z, ret, params) ret(*member[4]) params = {};
#include "accel/backend/cuda/cublas_api.def"
#undef ACCEL_CUBLAS_TYPED
#undef ACCEL_CUBLAS_FN

  std::string path;  // the libcublas that was loaded
  int version = 0;   // cublasGetVersion's encoding: 130100 for 13.1.0

  std::string version_string() const;  // "13.1.0"
  // Throws the accel error that fits status, "[where] <call> failed: CUBLAS_STATUS_...".
  void check(cublasStatus_t status, const char* call, const std::string& where) const;
};

// The loaded cuBLAS; throws BackendUnavailable saying what was looked for and what to install.
const CublasApi& cublas();
// Why cublas() throws, or "" when it is usable. Never throws.
std::string cublas_unavailable_reason();
// Extra directories to search (before the loader's own path), e.g. pip wheel directories found by
// the Python package. Only effective before cuBLAS is first loaded.
void add_cublas_search_dirs(const std::vector<std::string>& dirs);

// The handle of a device, created on first use in its primary context with the default math
// mode, and the lock that keeps its stream from changing between cublasSetStream and the call.
// When cuBLAS cannot work on the device (cublasCreate fails, e.g. a cuBLAS made for a newer
// CUDA than the driver), handle stays null and `error` says why: matmul then uses its kernel.
struct CublasHandle {
  cublasHandle_t handle = nullptr;
  std::string error;
  std::mutex mutex;
};
// Throws BackendUnavailable when cuBLAS was not found (cublas_unavailable_reason()).
CublasHandle& cublas_handle(int device);

}  // namespace accel::cuda
