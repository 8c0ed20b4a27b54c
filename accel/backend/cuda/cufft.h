// cuFFT, loaded with dlopen on first use through the symbol table in cufft_api.def, like cuBLAS
// (cublas.h): nothing links against it, and without it accel.fft on CUDA arrays raises
// BackendUnavailable saying what was looked for. Looked for, in order: ACCEL_CUFFT_PATH (a file
// or a directory), the toolkit in CUDA_HOME / CUDA_PATH and /usr/local/cuda, pip's wheels
// (directories given by the Python package), then the loader's own path.
#pragma once
#include <string>
#include <vector>

#include "accel/backend/cuda/cuda_types.h"

namespace accel::cuda {

using cufftResult = int;
using cufftHandle = int;
using cufftType = int;

// cufft.h's values (tests/cpp/cuda_fft_solver_test.cpp checks them against the header).
inline constexpr cufftResult kCufftSuccess = 0;      // CUFFT_SUCCESS
inline constexpr cufftResult kCufftAllocFailed = 2;  // CUFFT_ALLOC_FAILED
inline constexpr cufftType kCufftR2C = 0x2a;         // CUFFT_R2C
inline constexpr cufftType kCufftC2R = 0x2c;         // CUFFT_C2R
inline constexpr cufftType kCufftC2C = 0x29;         // CUFFT_C2C
inline constexpr cufftType kCufftD2Z = 0x6a;         // CUFFT_D2Z
inline constexpr cufftType kCufftZ2D = 0x6c;         // CUFFT_Z2D
inline constexpr cufftType kCufftZ2Z = 0x69;         // CUFFT_Z2Z
inline constexpr int kCufftForward = -1;             // CUFFT_FORWARD
inline constexpr int kCufftInverse = 1;              // CUFFT_INVERSE

struct CufftApi {
#define ACCEL_CUFFT_FN(member, symbol, ret, params) ret(*member) params = nullptr;
#include "accel/backend/cuda/cufft_api.def"
#undef ACCEL_CUFFT_FN

  std::string path;  // the libcufft that was loaded
  int version = 0;   // cufftGetVersion's encoding: 12000 for 12.0.0

  std::string version_string() const;  // "12.0.0"
  // Throws the accel error that fits result, "[where] <call> failed: CUFFT_...".
  void check(cufftResult result, const char* call, const std::string& where) const;
};

// The loaded cuFFT; throws BackendUnavailable saying what was looked for and what to install.
const CufftApi& cufft();
// Why cufft() throws, or "" when it is usable. Never throws.
std::string cufft_unavailable_reason();
// Extra directories to search (pip wheels, found by the Python package). Only effective before
// cuFFT is first loaded.
void add_cufft_search_dirs(const std::vector<std::string>& dirs);
// "CUFFT_INVALID_VALUE" for a cufftResult (cuFFT has no cufftGetErrorString).
const char* cufft_result_name(cufftResult result);

}  // namespace accel::cuda
