#include "accel/backend/cuda/driver.h"

#include <cstdlib>
#include <mutex>
#include <optional>

#include "accel/runtime/library_loader.h"
#include "accel/runtime/errors.h"

namespace accel::cuda {
namespace {

constexpr const char* kInstallHint =
    "libcuda.so.1 comes with the NVIDIA driver, not with the CUDA toolkit or pip packages: on a "
    "machine with an NVIDIA GPU install the driver (https://www.nvidia.com/drivers, or your "
    "distribution's nvidia-driver package); in a container, start it with the NVIDIA Container "
    "Toolkit (docker run --gpus all). Without a GPU, use device='cpu'.";

struct LoadResult {
  DriverApi api;
  std::string error;  // empty when usable
};

std::string visible_devices_note() {
  const char* v = std::getenv("CUDA_VISIBLE_DEVICES");
  return v ? std::string(" (CUDA_VISIBLE_DEVICES=\"") + v + "\")" : std::string();
}

LoadResult load() {
  LoadResult r;
  DriverApi& api = r.api;
  LoadedLibrary lib = open_first({"libcuda.so.1"});
  if (!lib.handle) {
    r.error = "[cuda] the NVIDIA driver library libcuda.so.1 was not found by the dynamic loader "
              "(system library directories, LD_LIBRARY_PATH):" +
              lib.attempts_text() + "\n  " + kInstallHint;
    return r;
  }
  api.path = lib.path;
  const std::string stub_note =
      " is the CUDA toolkit's stub library (for linking only), not the driver; remove its "
      "directory from LD_LIBRARY_PATH.\n  " + std::string(kInstallHint);
  std::string missing;
#define ACCEL_CU_FN(member, symbol, required, params)                          \
  api.member = reinterpret_cast<decltype(api.member)>(find_symbol(lib.handle, symbol)); \
  if (!api.member && (required)) missing += std::string(missing.empty() ? "" : ", ") + symbol;
#include "accel/backend/cuda/driver_api.def"
#undef ACCEL_CU_FN
  const CUresult version_result =
      api.cuDriverGetVersion ? api.cuDriverGetVersion(&api.version) : CUDA_SUCCESS;
  if (version_result == CUDA_ERROR_STUB_LIBRARY) {
    r.error = "[cuda] " + api.path + stub_note;
    return r;
  }
  std::string found = "found " + api.path + " (CUDA " + cuda_version_string(api.version) + ")";
  if (!missing.empty()) {
    r.error = "[cuda] " + found + " but it lacks " + missing +
              "; update the NVIDIA driver to one for CUDA " + cuda_version_string(kMinDriverVersion) +
              " or newer";
    return r;
  }
  if (api.version < kMinDriverVersion) {
    r.error = "[cuda] " + found + ", which is too old: accel needs a driver for CUDA " +
              cuda_version_string(kMinDriverVersion) + " or newer; update the NVIDIA driver";
    return r;
  }
  CUresult init = api.cuInit(0);
  if (init == CUDA_ERROR_STUB_LIBRARY) {
    r.error = "[cuda] " + api.path + stub_note;
    return r;
  }
  if (init == CUDA_ERROR_NO_DEVICE) {
    r.error = "[cuda] " + found + " but no NVIDIA GPU is visible" + visible_devices_note() +
              "; check `nvidia-smi`";
    return r;
  }
  if (init != CUDA_SUCCESS) {
    r.error = "[cuda] " + found + " but cuInit failed: " + api.describe(init) +
              "; check `nvidia-smi` (is the kernel module loaded and the GPU healthy?)";
    return r;
  }
  CUresult cr = api.cuDeviceGetCount(&api.device_count);
  if (cr != CUDA_SUCCESS || api.device_count == 0) {
    r.error = "[cuda] " + found + " but it reports no GPU" + visible_devices_note();
    return r;
  }
  return r;
}

const LoadResult*& replacement() {
  static const LoadResult* r = nullptr;
  return r;
}

const LoadResult& loaded() {
  // Once per process, never freed.
  static const LoadResult* result = replacement() ? replacement() : new LoadResult(load());
  return *result;
}

}  // namespace

std::string cuda_version_string(int version) {
  return std::to_string(version / 1000) + "." + std::to_string(version % 1000 / 10);
}

std::string DriverApi::describe(CUresult r) const {
  const char* name = nullptr;
  const char* text = nullptr;
  if (cuGetErrorName) cuGetErrorName(r, &name);
  if (cuGetErrorString) cuGetErrorString(r, &text);
  return std::string(name ? name : "CUDA error " + std::to_string(r)) + " (" +
         (text ? text : "no description") + ")";
}

void DriverApi::check(CUresult r, const char* call, const std::string& where) const {
  if (r == CUDA_SUCCESS) return;
  std::string msg = "[" + where + "] " + call + " failed: " + describe(r);
  if (is_sticky_error(r))
    throw LaunchError(msg + "; this error is sticky: the CUDA context is unusable for the rest of "
                            "the process (a kernel launched earlier faulted, or the device "
                            "failed), so restart the process");
  throw Error(msg);
}

bool is_sticky_error(CUresult r) {
  // cuda.h: errors after which the context cannot be used again (they surface at the next call
  // on the context, often far from the kernel that caused them).
  constexpr CUresult kSticky[] = {
      700,  // CUDA_ERROR_ILLEGAL_ADDRESS
      702,  // CUDA_ERROR_LAUNCH_TIMEOUT
      710,  // CUDA_ERROR_ASSERT
      714,  // CUDA_ERROR_HARDWARE_STACK_ERROR
      715,  // CUDA_ERROR_ILLEGAL_INSTRUCTION
      716,  // CUDA_ERROR_MISALIGNED_ADDRESS
      717,  // CUDA_ERROR_INVALID_ADDRESS_SPACE
      718,  // CUDA_ERROR_INVALID_PC
      719,  // CUDA_ERROR_LAUNCH_FAILED
      999,  // CUDA_ERROR_UNKNOWN
  };
  for (CUresult s : kSticky)
    if (r == s) return true;
  return false;
}

const DriverApi& driver() {
  const LoadResult& r = loaded();
  if (!r.error.empty()) throw BackendUnavailable(r.error);
  return r.api;
}

std::string driver_unavailable_reason() { return loaded().error; }

void replace_driver_for_testing(const DriverApi& api) {
  if (replacement()) throw Error("[cuda] the driver was already replaced");
  replacement() = new LoadResult{api, ""};
  if (&loaded() != replacement())
    throw Error("[cuda] replace_driver_for_testing came after the driver was first used");
}

}  // namespace accel::cuda
