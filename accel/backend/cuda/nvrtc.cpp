#include "accel/backend/cuda/nvrtc.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <iterator>
#include <mutex>

#include "accel/backend/cuda/driver.h"
#include "accel/backend/cuda/toolkit_paths.h"
#include "accel/runtime/config.h"
#include "accel/runtime/library_loader.h"
#include "accel/runtime/errors.h"

namespace accel::cuda {
namespace fs = std::filesystem;
namespace {

// Library file names, newest first: a toolkit or wheel directory may hold only one of them.
constexpr const char* kSonames[] = {"libnvrtc.so.13", "libnvrtc.so.12", "libnvrtc.so"};

SearchDirs& search_dirs() {
  static SearchDirs dirs;
  return dirs;
}

// The driver's CUDA major, or 0 without a usable driver (compiling for a named arch needs none).
int driver_major() {
  return driver_unavailable_reason().empty() ? driver().version / 1000 : 0;
}

// libnvrtc.so.13 -> 13; 0 when the name has no major.
int soname_major(const std::string& path) {
  const size_t dot = path.rfind(".so.");
  return dot == std::string::npos ? 0 : std::atoi(path.c_str() + dot + 4);
}

std::vector<std::string> candidates() {
  std::vector<std::string> c;
  if (const auto path = config::text(config::Var::ACCEL_NVRTC_PATH)) {
    const char* p = path->c_str();
    std::error_code ec;
    if (fs::is_directory(p, ec))
      for (const char* so : kSonames) c.push_back(std::string(p) + "/" + so);
    else
      c.push_back(p);
  }
  for (const auto& path : existing_libraries(search_dirs().with_toolkit(), {std::begin(kSonames), std::end(kSonames)}))
    c.push_back(path);
  for (const char* so : kSonames) c.push_back(so);  // LD_LIBRARY_PATH, ldconfig
  return c;
}

bool has_cuda_headers(const fs::path& dir) {
  std::error_code ec;
  return fs::exists(dir / "cuda_fp16.h", ec) && fs::exists(dir / "cuda_runtime_api.h", ec);
}

// The headers that belong to this NVRTC: beside its library first (toolkit and wheels alike),
// then the toolkits.
void find_headers(NvrtcApi& api) {
  std::vector<fs::path> dirs;
  fs::path lib = fs::path(api.path).parent_path();
  if (!lib.empty()) {
    dirs.push_back(lib.parent_path() / "include");                 // toolkit: lib64/../include
    dirs.push_back(lib.parent_path().parent_path() / "include");   // targets/<arch>/lib/../../include
    dirs.push_back(lib.parent_path().parent_path() / "cuda_runtime" / "include");  // nvidia/cuda_nvrtc/lib
  }
  for (const auto& root : toolkit_roots()) dirs.push_back(fs::path(root) / "include");
  for (const auto& d : dirs) {
    api.include_dir_searched += (api.include_dir_searched.empty() ? "" : ", ") + d.string();
    if (has_cuda_headers(d)) {
      api.include_dir = fs::weakly_canonical(d).string();
      return;
    }
  }
}

struct LoadResult {
  NvrtcApi api;
  std::string error;
};

constexpr const char* kInstallHint =
    "install the CUDA toolkit (https://developer.nvidia.com/cuda-downloads) or "
    "`pip install nvidia-cuda-nvrtc` (CUDA 13; `nvidia-cuda-nvrtc-cu12` for CUDA 12), or point "
    "ACCEL_NVRTC_PATH at a libnvrtc.so";

LoadResult load() {
  LoadResult r;
  NvrtcApi& api = r.api;
  // The driver cannot load code from an NVRTC of a newer CUDA major (as with cuBLAS).
  std::vector<std::string> usable;
  std::string skipped;
  for (const auto& c : candidates()) {
    if (nvrtc_fits_driver(soname_major(c), driver_major()))
      usable.push_back(c);
    else if (skipped.find(c) == std::string::npos)
      skipped += "\n    " + c;
  }
  LoadedLibrary lib = open_first(usable);
  if (!lib.handle) {
    r.error = "[nvrtc] libnvrtc (CUDA's run-time compiler) was not found. Tried:" +
              lib.attempts_text() +
              (skipped.empty() ? "" : "\n  Skipped, for a newer CUDA than the driver's " +
                                          std::to_string(driver_major()) + ":" + skipped) +
              "\n  Fix: " + kInstallHint;
    return r;
  }
  api.path = lib.path;
  std::string missing;
#define ACCEL_NVRTC_FN(member, symbol, ret, params)                                        \
  api.member = reinterpret_cast<decltype(api.member)>(find_symbol(lib.handle, symbol));    \
  if (!api.member) missing += std::string(missing.empty() ? "" : ", ") + symbol;
#include "accel/backend/cuda/nvrtc_api.def"
#undef ACCEL_NVRTC_FN
  if (api.nvrtcVersion) api.nvrtcVersion(&api.major, &api.minor);
  std::string found = "found " + api.path + " (NVRTC " + api.version_string() + ")";
  if (!missing.empty() || api.major < kMinNvrtcMajor) {
    r.error = "[nvrtc] " + found + ", which is too old" +
              (missing.empty() ? "" : " (it lacks " + missing + ")") + ": accel needs NVRTC " +
              std::to_string(kMinNvrtcMajor) + ".0 or newer. Fix: " + kInstallHint;
    return r;
  }
  if (!nvrtc_fits_driver(api.major, driver_major())) {
    r.error = "[nvrtc] " + found + " is for a newer CUDA than the driver (" + driver().path +
              ") supports (CUDA " + cuda_version_string(driver().version) +
              "): the driver could not load its code. Fix: pip install nvidia-cuda-nvrtc-cu" +
              std::to_string(driver_major()) +
              " (or point ACCEL_NVRTC_PATH at an NVRTC for CUDA " + std::to_string(driver_major()) +
              "), or update the NVIDIA driver";
    return r;
  }
  int n = 0;
  api.nvrtcGetNumSupportedArchs(&n);
  api.archs.resize(static_cast<size_t>(std::max(n, 0)));
  if (n > 0) api.nvrtcGetSupportedArchs(api.archs.data());
  std::sort(api.archs.begin(), api.archs.end());
  find_headers(api);
  return r;
}

const LoadResult& loaded() {
  static const LoadResult* result = new LoadResult(load());  // once per process, never freed
  return *result;
}

}  // namespace

const NvrtcApi& nvrtc() {
  const LoadResult& r = loaded();
  if (!r.error.empty()) throw BackendUnavailable(r.error);
  return r.api;
}

std::string nvrtc_unavailable_reason() { return loaded().error; }

bool nvrtc_fits_driver(int nvrtc_major, int driver_major) {
  return nvrtc_major == 0 || driver_major == 0 || nvrtc_major <= driver_major;
}

void add_nvrtc_search_dirs(const std::vector<std::string>& dirs) { search_dirs().add(dirs); }

}  // namespace accel::cuda
