// The CPU BLAS, loaded with dlopen on first use through the table in cblas_api.def: accel
// builds without any BLAS headers or libraries, and runs its own matmul loops where no BLAS is
// found. Public configuration (add_blas_candidate, blas_info) is in cpu.h.
#pragma once
#include <cstdint>
#include <string>

namespace accel::cpu {

// The CBLAS standard's enum values, so no cblas.h is needed (C enums: int-sized in every build).
enum CblasOrder : int { kCblasRowMajor = 101, kCblasColMajor = 102 };
enum CblasTranspose : int { kCblasNoTrans = 111, kCblasTrans = 112, kCblasConjTrans = 113 };
enum CblasUplo : int { kCblasUpper = 121, kCblasLower = 122 };

// The functions accel calls, with the library's integer: int (LP64) or int64_t (ILP64).
template <class Int>
struct CblasApi {
#define ACCEL_CBLAS_FN(member, symbol, required, ret, params) ret(*member) params = nullptr;
#include "accel/backend/cpu/cblas_api.def"
#undef ACCEL_CBLAS_FN
};

// How a build spells its symbols (prefix + name + suffix) and how wide its integers are.
struct BlasFlavour {
  const char* prefix;
  const char* suffix;
  bool ilp64;
};

struct BlasLibrary {
  std::string path;  // the file the dynamic loader opened
  BlasFlavour flavour;
  CblasApi<int> lp64;       // set when !flavour.ilp64
  CblasApi<int64_t> ilp64;  // set when flavour.ilp64
  std::string source;       // which step of the search found it
};

// The loaded BLAS, or null when there is none (ACCEL_BLAS_PATH=none, or nothing found): callers
// then use their own loops. Throws BackendUnavailable, naming the path and dlerror, when
// ACCEL_BLAS_PATH names a library that cannot be used. Loads on the first call, once.
const BlasLibrary* blas_library();

}  // namespace accel::cpu
