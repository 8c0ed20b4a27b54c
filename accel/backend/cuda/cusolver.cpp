#include "accel/backend/cuda/cusolver.h"

#include <iterator>
#include <memory>

#include "accel/backend/cuda/devices.h"
#include "accel/backend/cuda/toolkit_paths.h"
#include "accel/runtime/config.h"
#include "accel/runtime/errors.h"
#include "accel/runtime/library_loader.h"

namespace accel::cuda {
namespace {

// Newest first. cuSOLVER's soname major is not the CUDA major: CUDA 13 ships libcusolver.so.12,
// CUDA 12 libcusolver.so.11. libcusolver finds its libcublas(Lt) and libnvJitLink beside itself.
constexpr const char* kSonames[] = {"libcusolver.so.12", "libcusolver.so.11", "libcusolver.so"};

SearchDirs& search_dirs() {
  static SearchDirs dirs;
  return dirs;
}

constexpr const char* kInstallHint =
    "install the CUDA toolkit (https://developer.nvidia.com/cuda-downloads) or "
    "`pip install nvidia-cusolver` (CUDA 13; `nvidia-cusolver-cu12` for CUDA 12), or point "
    "ACCEL_CUSOLVER_PATH at a libcusolver.so. Without it, accel.linalg's factorisations work "
    "on CPU arrays only";

struct LoadResult {
  CusolverApi api;
  std::string error;
};

LoadResult load() {
  LoadResult r;
  CusolverApi& api = r.api;
  LoadedLibrary lib =
      open_first(library_candidates(config::text(config::Var::ACCEL_CUSOLVER_PATH),
                                    {std::begin(kSonames), std::end(kSonames)}, search_dirs()));
  if (!lib.handle) {
    r.error = "[cusolver] libcusolver was not found. Tried:" + lib.attempts_text() +
              "\n  Fix: " + kInstallHint;
    return r;
  }
  api.path = lib.path;
  std::string missing;
  auto resolve = [&](const char* symbol) {
    void* p = find_symbol(lib.handle, symbol);
    if (!p) missing += std::string(missing.empty() ? "" : ", ") + symbol;
    return p;
  };
#define ACCEL_CUSOLVER_FN(member, symbol, ret, params) \
  api.member = reinterpret_cast<decltype(api.member)>(resolve(#symbol));
#define ACCEL_CUSOLVER_TYPED(member, s, d, c, z, ret, params)               \
  {                                                                         \
    const char* symbols[] = {#s, #d, #c, #z};                               \
    for (int p = 0; p < 4; ++p)                                             \
      api.member[p] = reinterpret_cast<ret(*) params>(resolve(symbols[p])); \
  }
#define ACCEL_CUSOLVER_OPTIONAL(member, symbol, since, ret, params) \
  api.member = reinterpret_cast<decltype(api.member)>(find_symbol(lib.handle, #symbol));
#include "accel/backend/cuda/cusolver_api.def"
#undef ACCEL_CUSOLVER_OPTIONAL
#undef ACCEL_CUSOLVER_TYPED
#undef ACCEL_CUSOLVER_FN
  if (api.get_version) api.get_version(&api.version);
  if (!missing.empty())
    r.error = "[cusolver] found " + api.path + " (cuSOLVER " + api.version_string() +
              "), which lacks " + missing +
              ": accel needs cuSOLVER 11 (CUDA 12) or newer. Fix: " + kInstallHint;
  return r;
}

const LoadResult& loaded() {
  static const LoadResult* result = new LoadResult(load());  // once per process, never freed
  return *result;
}

// cusolver_common.h's cusolverStatus_t names, by value (cuSOLVER has no status string).
const char* status_name(cusolverStatus_t status) {
  static constexpr const char* kNames[] = {"CUSOLVER_STATUS_SUCCESS",
                                           "CUSOLVER_STATUS_NOT_INITIALIZED",
                                           "CUSOLVER_STATUS_ALLOC_FAILED",
                                           "CUSOLVER_STATUS_INVALID_VALUE",
                                           "CUSOLVER_STATUS_ARCH_MISMATCH",
                                           "CUSOLVER_STATUS_MAPPING_ERROR",
                                           "CUSOLVER_STATUS_EXECUTION_FAILED",
                                           "CUSOLVER_STATUS_INTERNAL_ERROR",
                                           "CUSOLVER_STATUS_MATRIX_TYPE_NOT_SUPPORTED",
                                           "CUSOLVER_STATUS_NOT_SUPPORTED",
                                           "CUSOLVER_STATUS_ZERO_PIVOT",
                                           "CUSOLVER_STATUS_INVALID_LICENSE"};
  if (status == 31) return "CUSOLVER_STATUS_INVALID_WORKSPACE";
  if (status < 0 || status >= static_cast<int>(std::size(kNames))) return "a cuSOLVER status";
  return kNames[status];
}

}  // namespace

Precision precision_of(Dtype dtype) {
  switch (dtype) {
    case Dtype::float32:
      return kSingle;
    case Dtype::float64:
      return kDouble;
    case Dtype::complex64:
      return kComplexSingle;
    case Dtype::complex128:
      return kComplexDouble;
    default:
      throw DTypeError(std::string("[cusolver] no routine for ") + dtype_name(dtype) +
                       " (float32, float64, complex64 and complex128 only)");
  }
}

std::string CusolverApi::version_string() const {
  return std::to_string(version / 1000) + "." + std::to_string(version / 100 % 10) + "." +
         std::to_string(version % 100);
}

void CusolverApi::check(cusolverStatus_t status, const char* call, const std::string& where) const {
  if (status == kCusolverSuccess) return;
  const std::string msg = "[" + where + "] " + call + " failed: " + status_name(status) + " (" +
                          std::to_string(status) + ")";
  if (status == kCusolverExecutionFailed)
    throw LaunchError(msg +
                      "; a kernel on this device may have faulted (the CUDA context is then "
                      "unusable: restart the process)");
  if (status == kCusolverAllocFailed)
    throw Error(msg +
                "; cuSOLVER could not allocate: free device memory (accel.cuda.free_cached()) "
                "and retry");
  throw Error(msg + " (cuSOLVER " + version_string() + " at " + path + ")");
}

void CusolverApi::throw_absent(const OptionalSymbol& symbol, const std::string& where) const {
  throw BackendUnavailable("[" + where + "] needs " + symbol.name + ", first in the cuSOLVER of " +
                           symbol.since + "; the one loaded (cuSOLVER " + version_string() +
                           " at " + path + ") lacks it. The other factorisations are unaffected." +
                           "\n  Fix: install the cuSOLVER of " + symbol.since +
                           " or newer (the CUDA toolkit, or `pip install nvidia-cusolver`), point "
                           "ACCEL_CUSOLVER_PATH at it, or copy the array to the CPU "
                           "(to_device(\"cpu\")) to run it there");
}

const CusolverApi& cusolver() {
  const LoadResult& r = loaded();
  if (!r.error.empty()) throw BackendUnavailable(r.error);
  return r.api;
}

std::string cusolver_unavailable_reason() { return loaded().error; }

void add_cusolver_search_dirs(const std::vector<std::string>& dirs) { search_dirs().add(dirs); }

CusolverHandle& cusolver_handle(int device) {
  static std::mutex mutex;
  // Never destroyed: cusolverDnDestroy after the primary context is gone (at exit) would fail.
  static auto* handles = new std::vector<std::unique_ptr<CusolverHandle>>();
  const CusolverApi& api = cusolver();
  device_properties(device);  // validates the index
  std::lock_guard<std::mutex> lock(mutex);
  if (handles->size() <= static_cast<size_t>(device)) handles->resize(device + 1);
  auto& h = (*handles)[device];
  if (!h) {
    make_current(device);  // cuSOLVER works in the context current at creation: the primary one
    auto made = std::make_unique<CusolverHandle>();
    const std::string where = "cusolver cuda:" + std::to_string(device);
    api.check(api.create(&made->handle), "cusolverDnCreate", where);
    api.check(api.create_params(&made->params), "cusolverDnCreateParams", where);
    h = std::move(made);
  }
  return *h;
}

}  // namespace accel::cuda
