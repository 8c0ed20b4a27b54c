// The CUDA driver API (libcuda.so.1), loaded with dlopen on first use through the symbol table
// in driver_api.def. Nothing in accel links against CUDA: without a driver, driver() throws
// BackendUnavailable saying what was looked for and what to install, and the rest of accel works.
#pragma once
#include <string>

#include "accel/backend/cuda/cuda_types.h"

namespace accel::cuda {

// The oldest driver accel accepts: CUDA 12.0 (cuDriverGetVersion's encoding, 1000*major+10*minor).
inline constexpr int kMinDriverVersion = 12000;

struct DriverApi {
#define ACCEL_CU_FN(member, symbol, required, params) CUresult(*member) params = nullptr;
#include "accel/backend/cuda/driver_api.def"
#undef ACCEL_CU_FN

  std::string path;  // the libcuda.so.1 that was loaded
  int version = 0;   // e.g. 13000 for CUDA 13.0
  int device_count = 0;

  // "CUDA_ERROR_OUT_OF_MEMORY (out of memory)".
  std::string describe(CUresult r) const;
  // Throws the accel error that fits r, "[where] <call> failed: <describe(r)>", unless success.
  void check(CUresult r, const char* call, const std::string& where) const;
};

// The loaded and initialised driver; throws BackendUnavailable if it cannot be used.
const DriverApi& driver();
// Why driver() throws, or "" if the driver is usable. Never throws.
std::string driver_unavailable_reason();
// Errors after which the context cannot be used again (illegal address, assert, unknown, ...):
// check() says the process must restart.
bool is_sticky_error(CUresult r);
// Tests only: every later driver() call returns `api` (a recording fake whose functions stand in
// for libcuda's, tests/cpp/fake_cuda_driver.h). Must come before the first use of the driver.
void replace_driver_for_testing(const DriverApi& api);
// "13.0" from 13000.
std::string cuda_version_string(int version);

}  // namespace accel::cuda
