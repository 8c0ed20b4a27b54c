// LAPACK for accel.linalg, taken from the library the BLAS loader chose (blas_library.h) with
// that library's flavour: OpenBLAS, MKL and NumPy's wheel all bundle LAPACK next to CBLAS, and
// one library keeps one thread pool and one integer width. Fortran routines through the table
// in lapack_api.def; accel has no LAPACK of its own.
#pragma once
#include <complex>
#include <cstdint>
#include <string>

#include "accel/backend/cpu/blas_library.h"

namespace accel::cpu {

// Position of a routine variant in each LapackApi member: s, d, c, z.
template <class T>
constexpr int kLapackType = -1;
template <>
constexpr int kLapackType<float> = 0;
template <>
constexpr int kLapackType<double> = 1;
template <>
constexpr int kLapackType<std::complex<float>> = 2;
template <>
constexpr int kLapackType<std::complex<double>> = 3;

template <class Int>
struct LapackApi {
#define ACCEL_LAPACK_FN(member, routine, letters, params) void(*member[4]) params = {};
#include "accel/backend/cpu/lapack_api.def"
#undef ACCEL_LAPACK_FN
};

struct LapackLibrary {
  std::string path;  // the BLAS library's file, which also holds these routines
  bool ilp64;
  LapackApi<int> lp64;           // set when !ilp64
  LapackApi<int64_t> ilp64_api;  // set when ilp64
};

// The LAPACK of the loaded BLAS. Throws BackendUnavailable naming `op`, what was searched and
// what is missing when there is no BLAS or it lacks a routine of lapack_api.def. Loads once.
const LapackLibrary& lapack_library(const char* op);

}  // namespace accel::cpu
