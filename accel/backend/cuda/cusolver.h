// cuSOLVER (its dense API), loaded with dlopen on first use through the symbol table in
// cusolver_api.def, like cuBLAS (cublas.h): nothing links against it, and without it
// accel.linalg's factorisations on CUDA arrays raise BackendUnavailable saying what was looked
// for. Looked for, in order: ACCEL_CUSOLVER_PATH (a file or a directory), the toolkit in
// CUDA_HOME / CUDA_PATH and /usr/local/cuda, pip's wheels (directories given by the Python
// package), then the loader's own path.
#pragma once
#include <mutex>
#include <string>
#include <vector>

#include "accel/backend/cuda/cuda_types.h"
#include "accel/core/dtype.h"

namespace accel::cuda {

using cusolverStatus_t = int;
using cusolverDnHandle_t = struct cusolverDnContext*;
using cusolverDnParams_t = struct cusolverDnParams*;

// cusolver_common.h's and cublas_api.h's values (tests/cpp/cuda_fft_solver_test.cpp checks them).
inline constexpr cusolverStatus_t kCusolverSuccess = 0;          // CUSOLVER_STATUS_SUCCESS
inline constexpr cusolverStatus_t kCusolverAllocFailed = 2;      // CUSOLVER_STATUS_ALLOC_FAILED
inline constexpr cusolverStatus_t kCusolverExecutionFailed = 6;  // ..._EXECUTION_FAILED
inline constexpr int kFillLower = 0;                             // CUBLAS_FILL_MODE_LOWER
inline constexpr int kFillUpper = 1;                             // CUBLAS_FILL_MODE_UPPER
inline constexpr int kEigNoVectors = 0;                          // CUSOLVER_EIG_MODE_NOVECTOR
inline constexpr int kEigVectors = 1;                            // CUSOLVER_EIG_MODE_VECTOR

// The index of a routine's precision in CusolverApi's typed members: S, D, C, Z.
enum Precision { kSingle = 0, kDouble = 1, kComplexSingle = 2, kComplexDouble = 3 };
// float32, float64, complex64, complex128 (the dtypes the op layer computes in); throws otherwise.
Precision precision_of(Dtype dtype);
// library_types.h's cudaDataType of each precision (CUDA_R_32F, CUDA_R_64F, CUDA_C_32F,
// CUDA_C_64F), and of the complex type of the same width (geev's eigenvalues of real input).
inline constexpr int kDataType[4] = {0, 1, 4, 5};
inline constexpr int kComplexDataType[4] = {4, 5, 4, 5};

// An optional function's exported name and the toolkit that first has it.
struct OptionalSymbol {
  const char* name;
  const char* since;
};

struct CusolverApi {
#define ACCEL_CUSOLVER_FN(member, symbol, ret, params) ret(*member) params = nullptr;
#define ACCEL_CUSOLVER_TYPED(member, s, d, c, z, ret, params) ret(*member[4]) params = {};
#define ACCEL_CUSOLVER_OPTIONAL(member, symbol, since, ret, params) \
  ret(*member) params = nullptr;                                    \
  static constexpr OptionalSymbol member##_symbol{#symbol, since};
#include "accel/backend/cuda/cusolver_api.def"
#undef ACCEL_CUSOLVER_OPTIONAL
#undef ACCEL_CUSOLVER_TYPED
#undef ACCEL_CUSOLVER_FN

  std::string path;  // the libcusolver that was loaded
  int version = 0;   // cusolverGetVersion's encoding: 12004 for 12.0.4

  std::string version_string() const;  // "12.0.4"
  // Throws the accel error that fits status, "[where] <call> failed: CUSOLVER_STATUS_...".
  void check(cusolverStatus_t status, const char* call, const std::string& where) const;
  // Throws BackendUnavailable "[where] ..." naming `symbol`, the toolkit that has it and this
  // library, unless the optional function `fn` was found: e.g.
  // require(api.geev, CusolverApi::geev_symbol, "eig cuda:0").
  template <class F>
  void require(F* fn, const OptionalSymbol& symbol, const std::string& where) const {
    if (!fn) throw_absent(symbol, where);
  }
  [[noreturn]] void throw_absent(const OptionalSymbol& symbol, const std::string& where) const;
};

// The loaded cuSOLVER; throws BackendUnavailable saying what was looked for and what to install.
const CusolverApi& cusolver();
// Why cusolver() throws, or "" when it is usable. Never throws.
std::string cusolver_unavailable_reason();
// Extra directories to search (pip wheels, found by the Python package). Only effective before
// cuSOLVER is first loaded.
void add_cusolver_search_dirs(const std::vector<std::string>& dirs);

// The dense handle of a device, created on first use in its primary context, the 64-bit API's
// parameters (its defaults), and the lock that keeps its stream from changing between
// cusolverDnSetStream and the calls that follow.
struct CusolverHandle {
  cusolverDnHandle_t handle = nullptr;
  cusolverDnParams_t params = nullptr;
  std::mutex mutex;
};
// Throws BackendUnavailable when cuSOLVER was not found, Error when the handle cannot be made.
CusolverHandle& cusolver_handle(int device);

}  // namespace accel::cuda
