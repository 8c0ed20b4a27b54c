// Finding and loading the CPU BLAS (search order and its reasons in cpu.h).
#include "accel/backend/cpu/blas_library.h"

#include <climits>
#include <cstdlib>
#include <mutex>
#include <optional>
#include <vector>

#include "accel/backend/cpu/cpu.h"
#include "accel/runtime/config.h"
#include "accel/runtime/errors.h"
#include "accel/runtime/library_loader.h"

namespace accel::cpu {
namespace {

// Tried in this order on each library: the first whose sgemm exists is the one used. 64-bit
// spellings first, because MKL exports both and its plain names can be switched to 64-bit
// integers by MKL_INTERFACE_LAYER, while its _64 names are always 64-bit.
constexpr BlasFlavour kFlavours[] = {
    {"scipy_", "64_", true},  // NumPy/SciPy wheels' OpenBLAS (scipy-openblas64)
    {"", "64_", true},        // OpenBLAS built with 64-bit integers (libopenblas64_)
    {"", "_64", true},        // MKL 2023+'s 64-bit integer interface
    {"scipy_", "", false},    // SciPy wheels' 32-bit OpenBLAS (scipy-openblas32)
    {"", "", false},          // any CBLAS with 32-bit integers
};

// OpenBLAS first (fast, and what Debian/Ubuntu/conda install), then other optimised BLASes,
// then whatever provides the generic names (on Debian an alternative: OpenBLAS, BLIS or the
// reference BLAS). The reference BLAS is refused there: measured at 1024x1024 it ran 2-4
// GFLOP/s against 9-17 for accel's own loop, so it would make matmul slower, not faster.
struct SystemName {
  const char* name;
  bool generic;  // used only if an optimised BLAS answers to it
};
constexpr SystemName kSystemNames[] = {
    {"libopenblas.so.0", false},  {"libopenblas.so", false}, {"libopenblas64_.so.0", false},
    {"libopenblas64_.so", false}, {"libmkl_rt.so.2", false}, {"libmkl_rt.so", false},
    {"libblis.so.4", false},      {"libblis.so", false},     {"libcblas.so.3", true},
    {"libblas.so.3", true},
};

// Whether the library is OpenBLAS, BLIS or MKL (each exports a version query), not the
// reference implementation.
bool optimised(void* handle, const BlasFlavour& f) {
  const std::string openblas = f.prefix + std::string("openblas_get_config") + f.suffix;
  return find_symbol(handle, openblas.c_str()) || find_symbol(handle, "bli_info_get_version_str") ||
         find_symbol(handle, "MKL_Get_Version_String");
}

struct State {
  std::mutex mutex;
  std::vector<std::string> registered;
  bool searched = false;
  std::optional<BlasLibrary> library;
  std::string error;    // ACCEL_BLAS_PATH named a library that cannot be used
  std::string problem;  // why there is no library
  std::vector<std::string> attempts;
  std::string coretype;
  bool coretype_set_by_accel = false;
};

State& state() {
  static State* s = new State();  // never destroyed: matmul may run during static destruction
  return *s;
}

// Debian's OpenBLAS 0.3.21 does not recognise some current CPUs and falls back to its slowest
// kernels. OpenBLAS reads OPENBLAS_CORETYPE once, when it is loaded, so it is set (unless the
// user set it) just before accel loads a library that is not in the process yet.
void prefer_fast_kernels(State& s, const std::string& candidate) {
  if (std::getenv("OPENBLAS_CORETYPE") || already_loaded(candidate)) return;
#if defined(__x86_64__) || defined(__i386__)
  const char* core = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl")
                         ? "SkylakeX"
                     : __builtin_cpu_supports("avx2") ? "Haswell"
                                                      : nullptr;
  if (core && setenv("OPENBLAS_CORETYPE", core, 0) == 0) s.coretype_set_by_accel = true;
#endif
}

template <class Int>
std::string bind(void* handle, const BlasFlavour& f, CblasApi<Int>& api) {
  std::string missing;
#define ACCEL_CBLAS_FN(member, symbol, required, ret, params)                               \
  {                                                                                         \
    const std::string name = f.prefix + std::string(symbol) + f.suffix;                     \
    api.member = reinterpret_cast<decltype(api.member)>(find_symbol(handle, name.c_str())); \
    if (!api.member && (required)) missing += (missing.empty() ? "" : ", ") + name;         \
  }
#include "accel/backend/cpu/cblas_api.def"
#undef ACCEL_CBLAS_FN
  return missing;
}

// The library behind candidate, or nullopt with the reason appended to s.attempts.
std::optional<BlasLibrary> try_candidate(State& s, const std::string& candidate, const char* source,
                                         bool require_optimised = false) {
  prefer_fast_kernels(s, candidate);
  LoadedLibrary lib;
  open_library(candidate, lib);
  if (!lib.handle) {
    s.attempts.insert(s.attempts.end(), lib.attempts.begin(), lib.attempts.end());
    return std::nullopt;
  }
  for (const BlasFlavour& f : kFlavours) {
    const std::string sgemm = f.prefix + std::string("cblas_sgemm") + f.suffix;
    if (!find_symbol(lib.handle, sgemm.c_str())) continue;
    if (require_optimised && !optimised(lib.handle, f)) {
      s.attempts.push_back(lib.path +
                           ": the reference BLAS (not OpenBLAS, BLIS or MKL), slower "
                           "than accel's own matmul loop");
      close_library(lib.handle);
      return std::nullopt;
    }
    // The resolved file (not a symlink or a path with ".."), so reports say which build it is.
    char resolved[PATH_MAX];
    BlasLibrary blas{realpath(lib.path.c_str(), resolved) ? resolved : lib.path, f, {}, {}, source};
    const std::string missing =
        f.ilp64 ? bind(lib.handle, f, blas.ilp64) : bind(lib.handle, f, blas.lp64);
    if (missing.empty()) return blas;
    s.attempts.push_back(lib.path + ": has " + sgemm + " but lacks " + missing);
    close_library(lib.handle);
    return std::nullopt;
  }
  s.attempts.push_back(lib.path +
                       ": not a CBLAS (no cblas_sgemm, cblas_sgemm64_, cblas_sgemm_64, "
                       "scipy_cblas_sgemm64_ or scipy_cblas_sgemm)");
  close_library(lib.handle);
  return std::nullopt;
}

void search(State& s) {
  s.searched = true;
  if (const auto env = config::text(config::Var::ACCEL_BLAS_PATH)) {
    const std::string path = *env;
    if (path == "none") {
      s.problem = "disabled by ACCEL_BLAS_PATH=none";
    } else if (!(s.library = try_candidate(s, path, "ACCEL_BLAS_PATH"))) {
      s.problem = "ACCEL_BLAS_PATH=" + path + " cannot be used";
      s.error = "[matmul] ACCEL_BLAS_PATH=" + path + " is not a usable BLAS: " +
                (s.attempts.empty() ? std::string("not loadable") : s.attempts.back()) +
                "\n  Point ACCEL_BLAS_PATH at a CBLAS library (e.g. libopenblas.so.0), unset it "
                "to search, or set it to none for accel's own matmul loops.";
    }
  } else {
    for (const auto& c : s.registered)
      if ((s.library = try_candidate(s, c, "registered candidate"))) break;
    for (const SystemName& n : kSystemNames) {
      if (s.library) break;
      s.library = try_candidate(s, n.name, "system search", n.generic);
    }
    if (!s.library)
      s.problem =
          "no CBLAS library found (install OpenBLAS, e.g. apt-get install "
          "libopenblas0-pthread, or set ACCEL_BLAS_PATH)";
  }
  if (const char* ct = std::getenv("OPENBLAS_CORETYPE")) s.coretype = ct;
}

State& searched_state() {
  State& s = state();
  std::lock_guard lock(s.mutex);
  if (!s.searched) search(s);
  return s;
}

}  // namespace

const BlasLibrary* blas_library() {
  State& s = searched_state();
  if (!s.error.empty()) throw BackendUnavailable(s.error);
  return s.library ? &*s.library : nullptr;
}

void add_blas_candidate(const std::string& path) {
  State& s = state();
  std::lock_guard lock(s.mutex);
  s.registered.push_back(path);
}

BlasInfo blas_info() {
  State& s = searched_state();
  BlasInfo info;
  info.attempts = s.attempts;
  info.coretype = s.coretype;
  info.coretype_set_by_accel = s.coretype_set_by_accel;
  if (!s.library) {
    info.problem = s.problem;
    return info;
  }
  const BlasLibrary& lib = *s.library;
  info.loaded = true;
  info.path = lib.path;
  info.source = lib.source;
  info.flavour = lib.flavour.ilp64 ? "ILP64" : "LP64";
  info.symbol = lib.flavour.prefix + std::string("cblas_sgemm") + lib.flavour.suffix;
  auto describe = [&](const auto& api) {
    if (api.get_config) info.config = api.get_config();
    if (api.get_corename) info.core = api.get_corename();
    if (api.get_num_threads) info.threads = api.get_num_threads();
  };
  if (lib.flavour.ilp64)
    describe(lib.ilp64);
  else
    describe(lib.lp64);
  return info;
}

}  // namespace accel::cpu
