#include "accel/backend/cuda/cublas.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <iterator>
#include <memory>

#include "accel/backend/cuda/devices.h"
#include "accel/backend/cuda/driver.h"
#include "accel/backend/cuda/toolkit_paths.h"
#include "accel/runtime/config.h"
#include "accel/runtime/errors.h"
#include "accel/runtime/library_loader.h"

namespace accel::cuda {
namespace {

// Newest first: a toolkit or wheel directory may hold only one of them. libcublas finds its
// libcublasLt beside itself ($ORIGIN in its RUNPATH), in toolkits and wheels alike.
constexpr const char* kSonames[] = {"libcublas.so.13", "libcublas.so.12", "libcublas.so"};

SearchDirs& search_dirs() {
  static SearchDirs dirs;
  return dirs;
}

// The sonames worth trying: a cuBLAS for a newer CUDA major than the driver's cannot create a
// handle (its runtime needs that driver), so with a driver present those are left out.
std::vector<std::string> usable_sonames() {
  std::vector<std::string> sonames;
  const int driver_major = driver_unavailable_reason().empty() ? driver().version / 1000 : 0;
  for (const char* so : kSonames) {
    const std::string name = so;
    const size_t dot = name.rfind(".so.");
    const int major = dot == std::string::npos ? 0 : std::atoi(name.c_str() + dot + 4);
    if (driver_major == 0 || major <= driver_major) sonames.push_back(name);
  }
  return sonames;
}

std::vector<std::string> candidates() {
  const std::vector<std::string> sonames = usable_sonames();
  std::vector<std::string> c;
  if (const auto path = config::text(config::Var::ACCEL_CUBLAS_PATH)) {
    const char* p = path->c_str();
    std::error_code ec;
    if (std::filesystem::is_directory(p, ec))
      for (const auto& so : sonames) c.push_back(std::string(p) + "/" + so);
    else
      c.push_back(p);
  }
  for (const auto& path : existing_libraries(search_dirs().with_toolkit(), sonames)) c.push_back(path);
  c.insert(c.end(), sonames.begin(), sonames.end());  // LD_LIBRARY_PATH, ldconfig
  return c;
}

constexpr const char* kInstallHint =
    "install the CUDA toolkit (https://developer.nvidia.com/cuda-downloads) or "
    "`pip install nvidia-cublas` (CUDA 13; `nvidia-cublas-cu12` for CUDA 12), or point "
    "ACCEL_CUBLAS_PATH at a libcublas.so. Without it, float matmul runs on accel's own kernel, "
    "several times slower";

struct LoadResult {
  CublasApi api;
  std::string error;
};

LoadResult load() {
  LoadResult r;
  CublasApi& api = r.api;
  LoadedLibrary lib = open_first(candidates());
  if (!lib.handle) {
    r.error = "[cublas] libcublas was not found. Tried:" + lib.attempts_text() +
              "\n  Fix: " + kInstallHint;
    return r;
  }
  api.path = lib.path;
  std::string missing;
  auto resolve = [&](const char* symbol) {
    void* f = find_symbol(lib.handle, symbol);
    if (!f) missing += std::string(missing.empty() ? "" : ", ") + symbol;
    return f;
  };
#define ACCEL_CUBLAS_FN(member, symbol, ret, params) \
  api.member = reinterpret_cast<decltype(api.member)>(resolve(#symbol));
#define ACCEL_CUBLAS_TYPED(member, s, d, c, z, ret, params)                 \
  {                                                                         \
    const char* symbols[] = {#s, #d, #c, #z};                               \
    for (int p = 0; p < 4; ++p)                                             \
      api.member[p] = reinterpret_cast<ret(*) params>(resolve(symbols[p])); \
  }
#include "accel/backend/cuda/cublas_api.def"
#undef ACCEL_CUBLAS_TYPED
#undef ACCEL_CUBLAS_FN
  if (api.get_version) api.get_version(&api.version);
  if (!missing.empty()) {
    r.error = "[cublas] found " + api.path + " (cuBLAS " + api.version_string() +
              "), which lacks " + missing +
              ": accel needs cuBLAS 12 or newer. Fix: " + kInstallHint;
    return r;
  }
  return r;
}

const LoadResult& loaded() {
  static const LoadResult* result = new LoadResult(load());  // once per process, never freed
  return *result;
}

}  // namespace

std::string CublasApi::version_string() const {
  return std::to_string(version / 10000) + "." + std::to_string(version / 100 % 100) + "." +
         std::to_string(version % 100);
}

void CublasApi::check(cublasStatus_t status, const char* call, const std::string& where) const {
  if (status == kCublasSuccess) return;
  const char* text = status_string ? status_string(status) : nullptr;
  std::string msg = "[" + where + "] " + call + " failed: " +
                    (text ? std::string(text) : "cuBLAS status " + std::to_string(status));
  // A kernel that faulted earlier leaves the context unusable; the driver names the fault.
  if (status == 13)  // CUBLAS_STATUS_EXECUTION_FAILED
    throw LaunchError(msg +
                      "; a kernel on this device may have faulted (the CUDA context is then "
                      "unusable: restart the process)");
  if (status == kCublasAllocFailed)
    throw Error(msg +
                "; cuBLAS could not allocate its workspace: free device memory "
                "(accel.cuda.free_cached()) and retry");
  throw Error(msg);
}

const CublasApi& cublas() {
  const LoadResult& r = loaded();
  if (!r.error.empty()) throw BackendUnavailable(r.error);
  return r.api;
}

std::string cublas_unavailable_reason() { return loaded().error; }

void add_cublas_search_dirs(const std::vector<std::string>& dirs) { search_dirs().add(dirs); }

CublasHandle& cublas_handle(int device) {
  static std::mutex mutex;
  // Never destroyed: cublasDestroy after the primary context is gone (at exit) would fail.
  static auto* handles = new std::vector<std::unique_ptr<CublasHandle>>();
  const CublasApi& api = cublas();
  device_properties(device);  // validates the index
  std::lock_guard<std::mutex> lock(mutex);
  if (handles->size() <= static_cast<size_t>(device)) handles->resize(device + 1);
  auto& h = (*handles)[device];
  if (!h) {
    const std::string where = "cublas cuda:" + std::to_string(device);
    make_current(device);  // cuBLAS works in the context current at creation: the primary one
    h = std::make_unique<CublasHandle>();
    try {
      api.check(api.create(&h->handle), "cublasCreate", where);
      // Stated, not left to the default: float32 products stay float32 (no TF32 tensor-core
      // rounding of the inputs, which CUBLAS_TF32_TENSOR_OP_MATH would allow), so float32
      // matmul agrees with NumPy to float32 rounding.
      api.check(api.set_math_mode(h->handle, kCublasDefaultMath), "cublasSetMathMode", where);
    } catch (const Error& e) {
      h->handle = nullptr;
      h->error = std::string(e.what()) + " (cuBLAS " + api.version_string() + " at " + api.path +
                 ", driver CUDA " + cuda_version_string(driver().version) + ")";
    }
  }
  return *h;
}

}  // namespace accel::cuda
