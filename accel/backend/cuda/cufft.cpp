#include "accel/backend/cuda/cufft.h"

#include <iterator>

#include "accel/backend/cuda/toolkit_paths.h"
#include "accel/runtime/config.h"
#include "accel/runtime/errors.h"
#include "accel/runtime/library_loader.h"

namespace accel::cuda {
namespace {

// Newest first. cuFFT's soname major is not the CUDA major: CUDA 13 ships libcufft.so.12,
// CUDA 12 libcufft.so.11.
constexpr const char* kSonames[] = {"libcufft.so.12", "libcufft.so.11", "libcufft.so"};

SearchDirs& search_dirs() {
  static SearchDirs dirs;
  return dirs;
}

constexpr const char* kInstallHint =
    "install the CUDA toolkit (https://developer.nvidia.com/cuda-downloads) or "
    "`pip install nvidia-cufft` (CUDA 13; `nvidia-cufft-cu12` for CUDA 12), or point "
    "ACCEL_CUFFT_PATH at a libcufft.so. Without it, accel.fft works on CPU arrays only";

struct LoadResult {
  CufftApi api;
  std::string error;
};

LoadResult load() {
  LoadResult r;
  CufftApi& api = r.api;
  LoadedLibrary lib =
      open_first(library_candidates(config::text(config::Var::ACCEL_CUFFT_PATH),
                                    {std::begin(kSonames), std::end(kSonames)}, search_dirs()));
  if (!lib.handle) {
    r.error =
        "[cufft] libcufft was not found. Tried:" + lib.attempts_text() + "\n  Fix: " + kInstallHint;
    return r;
  }
  api.path = lib.path;
  std::string missing;
#define ACCEL_CUFFT_FN(member, symbol, ret, params)                                      \
  api.member = reinterpret_cast<decltype(api.member)>(find_symbol(lib.handle, #symbol)); \
  if (!api.member) missing += std::string(missing.empty() ? "" : ", ") + #symbol;
#include "accel/backend/cuda/cufft_api.def"
#undef ACCEL_CUFFT_FN
  if (api.get_version) api.get_version(&api.version);
  if (!missing.empty())
    r.error = "[cufft] found " + api.path + " (cuFFT " + api.version_string() + "), which lacks " +
              missing + ": accel needs cuFFT 11 (CUDA 12) or newer. Fix: " + kInstallHint;
  return r;
}

const LoadResult& loaded() {
  static const LoadResult* result = new LoadResult(load());  // once per process, never freed
  return *result;
}

}  // namespace

const char* cufft_result_name(cufftResult result) {
  // cufft.h's cufftResult, in order of value (0x0A, 0x0C and 0x0F are unused).
  static constexpr const char* kNames[] = {"CUFFT_SUCCESS",
                                           "CUFFT_INVALID_PLAN",
                                           "CUFFT_ALLOC_FAILED",
                                           "CUFFT_INVALID_TYPE",
                                           "CUFFT_INVALID_VALUE",
                                           "CUFFT_INTERNAL_ERROR",
                                           "CUFFT_EXEC_FAILED",
                                           "CUFFT_SETUP_FAILED",
                                           "CUFFT_INVALID_SIZE",
                                           "CUFFT_UNALIGNED_DATA",
                                           nullptr,
                                           "CUFFT_INVALID_DEVICE",
                                           nullptr,
                                           "CUFFT_NO_WORKSPACE",
                                           "CUFFT_NOT_IMPLEMENTED",
                                           nullptr,
                                           "CUFFT_NOT_SUPPORTED",
                                           "CUFFT_MISSING_DEPENDENCY",
                                           "CUFFT_NVRTC_FAILURE",
                                           "CUFFT_NVJITLINK_FAILURE",
                                           "CUFFT_NVSHMEM_FAILURE"};
  if (result < 0 || result >= static_cast<int>(std::size(kNames)) || !kNames[result])
    return "an unknown cufftResult";
  return kNames[result];
}

std::string CufftApi::version_string() const {
  return std::to_string(version / 1000) + "." + std::to_string(version / 100 % 10) + "." +
         std::to_string(version % 100);
}

void CufftApi::check(cufftResult result, const char* call, const std::string& where) const {
  if (result == kCufftSuccess) return;
  const std::string msg = "[" + where + "] " + call + " failed: " + cufft_result_name(result) +
                          " (" + std::to_string(result) + ")";
  if (result == 6)  // CUFFT_EXEC_FAILED: the kernel did not run
    throw LaunchError(msg +
                      "; a kernel on this device may have faulted (the CUDA context is then "
                      "unusable: restart the process)");
  if (result == kCufftAllocFailed)
    throw Error(msg +
                "; cuFFT could not allocate its plan: free device memory "
                "(accel.cuda.free_cached()) and retry");
  throw Error(msg + " (cuFFT " + version_string() + " at " + path + ")");
}

const CufftApi& cufft() {
  const LoadResult& r = loaded();
  if (!r.error.empty()) throw BackendUnavailable(r.error);
  return r.api;
}

std::string cufft_unavailable_reason() { return loaded().error; }

void add_cufft_search_dirs(const std::vector<std::string>& dirs) { search_dirs().add(dirs); }

}  // namespace accel::cuda
