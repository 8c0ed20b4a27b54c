// Binding LAPACK's Fortran symbols in the BLAS library (why that library: lapack_library.h).
#include "accel/backend/cpu/lapack_library.h"

#include <mutex>
#include <optional>

#include "accel/backend/cpu/cpu.h"
#include "accel/runtime/errors.h"
#include "accel/runtime/library_loader.h"

namespace accel::cpu {
namespace {

// A Fortran routine's symbol in this flavour: gfortran appends "_" (dgetrf_); 64-bit-integer
// OpenBLAS builds add "64_" after it (dgetrf_64_, scipy_dgetrf_64_); MKL's suffix "_64" already
// starts with the underscore (dgetrf_64).
std::string fortran_symbol(const BlasFlavour& f, char letter, const char* routine) {
  const std::string suffix = f.suffix;
  const std::string tail = suffix.empty() ? "_" : suffix[0] == '_' ? suffix : "_" + suffix;
  return f.prefix + std::string(1, letter) + routine + tail;
}

template <class Int>
std::string bind(void* handle, const BlasFlavour& f, LapackApi<Int>& api) {
  std::string missing;
  constexpr char kLetters[] = "sdcz";
#define ACCEL_LAPACK_FN(member, routine, letters, params)                                \
  for (int t = 0; t < 4; ++t) {                                                          \
    if (std::string(letters).find(kLetters[t]) == std::string::npos) continue;           \
    const std::string name = fortran_symbol(f, kLetters[t], routine);                    \
    api.member[t] = reinterpret_cast<void(*) params>(find_symbol(handle, name.c_str())); \
    if (!api.member[t]) missing += (missing.empty() ? "" : ", ") + name;                 \
  }
#include "accel/backend/cpu/lapack_api.def"
#undef ACCEL_LAPACK_FN
  return missing;
}

struct State {
  std::once_flag once;
  std::optional<LapackLibrary> library;
  std::string problem;
};

void load(State& s) {
  const BlasLibrary* blas = nullptr;
  try {
    blas = blas_library();
  } catch (const BackendUnavailable& e) {
    s.problem = e.what();
    return;
  }
  if (!blas) {
    BlasInfo info = blas_info();
    s.problem = "no BLAS/LAPACK library was found (" + info.problem + ")";
    for (const std::string& a : info.attempts) s.problem += "\n  tried " + a;
    return;
  }
  LoadedLibrary lib;
  open_library(blas->path, lib);  // the library is loaded: this only takes another reference
  if (!lib.handle) {
    s.problem = "cannot reopen " + blas->path + ": " + lib.attempts_text();
    return;
  }
  LapackLibrary lapack{blas->path, blas->flavour.ilp64, {}, {}};
  const std::string missing = lapack.ilp64 ? bind(lib.handle, blas->flavour, lapack.ilp64_api)
                                           : bind(lib.handle, blas->flavour, lapack.lp64);
  if (!missing.empty()) {
    s.problem = blas->path + " has CBLAS but not LAPACK (missing " + missing + ")";
    return;
  }
  s.library = std::move(lapack);
}

}  // namespace

const LapackLibrary& lapack_library(const char* op) {
  static State* s = new State();  // never destroyed, like the BLAS state
  std::call_once(s->once, [] { load(*s); });
  if (!s->library)
    throw BackendUnavailable(std::string("[") + op +
                             "] needs LAPACK, which accel takes from the "
                             "CPU BLAS library, and none is usable: " +
                             s->problem +
                             "\n  Install OpenBLAS (e.g. apt-get install libopenblas0-pthread) "
                             "or point ACCEL_BLAS_PATH at a library with LAPACK.");
  return *s->library;
}

}  // namespace accel::cpu
