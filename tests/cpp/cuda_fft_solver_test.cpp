// cuFFT and cuSOLVER without a GPU: accel's declarations and constants against the toolkit's
// headers (compile time), every symbol in cufft_api.def and cusolver_api.def exported by the
// toolkit's libraries and loaded through accel's loader, the plan key and plan cache (pure host
// code), real geev's packed eigenvectors unpacked by accel's ops (on the CPU), and, on a machine
// without a driver, typed errors instead of crashes. What needs a GPU
// (the transforms and factorisations themselves) is tested from Python (tests/python/test_fft.py,
// test_linalg_lapack.py) on the first GPU run.
#include <accel/accel.h>
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <complex>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "abi_check.h"
#include "accel/backend/cuda/cufft.h"
#include "accel/backend/cuda/cusolver.h"
#include "accel/backend/cuda/driver.h"
#include "accel/backend/cuda/fft.h"
#include "accel/backend/cuda/plan_cache.h"
#include "accel/ops/fft.h"
#include "accel/ops/linalg_cusolver.h"
#include "accel/ops/linalg_decompose.h"

#ifdef ACCEL_HAVE_CUDA_LIBRARY_HEADERS
#include <cufft.h>
#include <cusolverDn.h>
#endif

namespace cu = accel::cuda;

// ---------------------------------------------------------------- against the toolkit's headers

TEST(CudaFftSolverAbi, constants_match_cufft_h_and_cusolver_common_h) {
#ifdef ACCEL_HAVE_CUDA_LIBRARY_HEADERS
  static_assert(cu::kCufftSuccess == CUFFT_SUCCESS);
  static_assert(cu::kCufftAllocFailed == CUFFT_ALLOC_FAILED);
  static_assert(6 == CUFFT_EXEC_FAILED);  // cufft.cpp's LaunchError case
  static_assert(cu::kCufftR2C == CUFFT_R2C && cu::kCufftC2R == CUFFT_C2R);
  static_assert(cu::kCufftC2C == CUFFT_C2C && cu::kCufftD2Z == CUFFT_D2Z);
  static_assert(cu::kCufftZ2D == CUFFT_Z2D && cu::kCufftZ2Z == CUFFT_Z2Z);
  static_assert(cu::kCufftForward == CUFFT_FORWARD && cu::kCufftInverse == CUFFT_INVERSE);
  static_assert(cu::kCusolverSuccess == CUSOLVER_STATUS_SUCCESS);
  static_assert(cu::kCusolverAllocFailed == CUSOLVER_STATUS_ALLOC_FAILED);
  static_assert(cu::kCusolverExecutionFailed == CUSOLVER_STATUS_EXECUTION_FAILED);
  static_assert(cu::kFillLower == CUBLAS_FILL_MODE_LOWER);
  static_assert(cu::kFillUpper == CUBLAS_FILL_MODE_UPPER);
  static_assert(cu::kEigNoVectors == CUSOLVER_EIG_MODE_NOVECTOR);
  static_assert(cu::kEigVectors == CUSOLVER_EIG_MODE_VECTOR);
  static_assert(0 == CUBLAS_OP_N);  // ops/linalg_cusolver.cpp's getrs
  static_assert(cu::kDataType[cu::kSingle] == CUDA_R_32F);
  static_assert(cu::kDataType[cu::kDouble] == CUDA_R_64F);
  static_assert(cu::kDataType[cu::kComplexSingle] == CUDA_C_32F);
  static_assert(cu::kDataType[cu::kComplexDouble] == CUDA_C_64F);
  for (int p : {cu::kSingle, cu::kComplexSingle}) EXPECT_EQ(cu::kComplexDataType[p], CUDA_C_32F);
  for (int p : {cu::kDouble, cu::kComplexDouble}) EXPECT_EQ(cu::kComplexDataType[p], CUDA_C_64F);
  EXPECT_STREQ(cu::cufft_result_name(CUFFT_INVALID_SIZE), "CUFFT_INVALID_SIZE");
  EXPECT_STREQ(cu::cufft_result_name(CUFFT_NOT_SUPPORTED), "CUFFT_NOT_SUPPORTED");
#else
  GTEST_SKIP() << "the CUDA toolkit headers (cufft.h, cusolverDn.h) were not found when this "
                  "test was built";
#endif
}

#ifdef ACCEL_HAVE_CUDA_LIBRARY_HEADERS
// accel's declarations against the headers' (abi_check.h says why).
namespace accel::cuda::library_abi_check {
using test::abi::call_compatible;

#define ACCEL_CUFFT_FN(member, symbol, ret, params)                              \
  static_assert(call_compatible(static_cast<ret(*) params>(nullptr), &::symbol), \
                #symbol ": accel's parameter list differs from cufft.h's");
#include "accel/backend/cuda/cufft_api.def"
#undef ACCEL_CUFFT_FN

#define ACCEL_CUSOLVER_FN(member, symbol, ret, params)                           \
  static_assert(call_compatible(static_cast<ret(*) params>(nullptr), &::symbol), \
                #symbol ": accel's parameter list differs from cusolverDn.h's");
#define ACCEL_CUSOLVER_TYPED(member, s, d, c, z, ret, params) \
  ACCEL_CUSOLVER_FN(member, s, ret, params)                   \
  ACCEL_CUSOLVER_FN(member, d, ret, params)                   \
  ACCEL_CUSOLVER_FN(member, c, ret, params)                   \
  ACCEL_CUSOLVER_FN(member, z, ret, params)
#define ACCEL_CUSOLVER_OPTIONAL(member, symbol, since, ret, params) \
  ACCEL_CUSOLVER_FN(member, symbol, ret, params)
#include "accel/backend/cuda/cusolver_api.def"
#undef ACCEL_CUSOLVER_OPTIONAL
#undef ACCEL_CUSOLVER_TYPED
#undef ACCEL_CUSOLVER_FN

}  // namespace accel::cuda::library_abi_check
#endif

TEST(CudaFftSolverAbi, every_function_has_the_toolkits_parameter_list) {
#ifdef ACCEL_HAVE_CUDA_LIBRARY_HEADERS
  SUCCEED() << "checked at compile time (static_asserts above)";
#else
  GTEST_SKIP() << "the CUDA toolkit headers were not found when this test was built";
#endif
}

namespace {

// The toolkit's library, opened directly (not through accel's loader), or null.
void* toolkit_library(const std::string& name) {
  std::vector<std::string> candidates;
  for (const char* var : {"CUDA_HOME", "CUDA_PATH"})
    if (const char* v = std::getenv(var)) candidates.push_back(std::string(v) + "/lib64/" + name);
  candidates.push_back("/usr/local/cuda/lib64/" + name);
  for (const auto& c : candidates)
    if (std::filesystem::exists(c))
      if (void* lib = dlopen(c.c_str(), RTLD_NOW | RTLD_LOCAL)) return lib;
  return nullptr;
}

bool have_toolkit() {
  return std::filesystem::exists("/usr/local/cuda/lib64") || std::getenv("CUDA_HOME") ||
         std::getenv("CUDA_PATH");
}

}  // namespace

// Not closed, as accel never closes them (unloading leaks what their C++ runtime allocated).
TEST(CudaFftSolverAbi, every_cufft_symbol_accel_loads_is_exported_by_libcufft) {
  void* lib = toolkit_library("libcufft.so");
  if (!lib) GTEST_SKIP() << "no CUDA toolkit libcufft.so here to check symbol names against";
#define ACCEL_CUFFT_FN(member, symbol, ret, params) \
  EXPECT_NE(dlsym(lib, #symbol), nullptr) << #symbol << " is not exported by libcufft";
#include "accel/backend/cuda/cufft_api.def"
#undef ACCEL_CUFFT_FN
}

TEST(CudaFftSolverAbi, every_cusolver_symbol_accel_loads_is_exported_by_libcusolver) {
  void* lib = toolkit_library("libcusolver.so");
  if (!lib) GTEST_SKIP() << "no CUDA toolkit libcusolver.so here to check symbol names against";
#define ACCEL_CUSOLVER_FN(member, symbol, ret, params) \
  EXPECT_NE(dlsym(lib, #symbol), nullptr) << #symbol << " is not exported by libcusolver";
#define ACCEL_CUSOLVER_TYPED(member, s, d, c, z, ret, params) \
  ACCEL_CUSOLVER_FN(member, s, ret, params)                   \
  ACCEL_CUSOLVER_FN(member, d, ret, params)                   \
  ACCEL_CUSOLVER_FN(member, c, ret, params)                   \
  ACCEL_CUSOLVER_FN(member, z, ret, params)
#define ACCEL_CUSOLVER_OPTIONAL(member, symbol, since, ret, params) \
  ACCEL_CUSOLVER_FN(member, symbol, ret, params)
#include "accel/backend/cuda/cusolver_api.def"
#undef ACCEL_CUSOLVER_OPTIONAL
#undef ACCEL_CUSOLVER_TYPED
#undef ACCEL_CUSOLVER_FN
}

TEST(CudaFftSolverLoad, cufft_loads_from_the_toolkit_without_a_driver_with_every_symbol) {
  if (!have_toolkit()) GTEST_SKIP() << "no CUDA toolkit here: " << cu::cufft_unavailable_reason();
  ASSERT_EQ(cu::cufft_unavailable_reason(), "");
  const cu::CufftApi& api = cu::cufft();
#define ACCEL_CUFFT_FN(member, symbol, ret, params) EXPECT_NE(api.member, nullptr) << #symbol;
#include "accel/backend/cuda/cufft_api.def"
#undef ACCEL_CUFFT_FN
  EXPECT_GE(api.version, 11000) << api.path;
  EXPECT_EQ(api.version_string(), std::to_string(api.version / 1000) + "." +
                                      std::to_string(api.version / 100 % 10) + "." +
                                      std::to_string(api.version % 100));
  EXPECT_NE(api.path.find("libcufft.so"), std::string::npos) << api.path;
}

TEST(CudaFftSolverLoad, cusolver_loads_from_the_toolkit_without_a_driver_with_every_symbol) {
  if (!have_toolkit())
    GTEST_SKIP() << "no CUDA toolkit here: " << cu::cusolver_unavailable_reason();
  ASSERT_EQ(cu::cusolver_unavailable_reason(), "");
  const cu::CusolverApi& api = cu::cusolver();
#define ACCEL_CUSOLVER_FN(member, symbol, ret, params) EXPECT_NE(api.member, nullptr) << #symbol;
#define ACCEL_CUSOLVER_TYPED(member, s, d, c, z, ret, params) \
  for (auto* f : api.member) EXPECT_NE(f, nullptr) << #s;
#define ACCEL_CUSOLVER_OPTIONAL(member, symbol, since, ret, params) \
  EXPECT_NE(api.member, nullptr) << #symbol << " (optional) is missing from " << api.path;
#include "accel/backend/cuda/cusolver_api.def"
#undef ACCEL_CUSOLVER_OPTIONAL
#undef ACCEL_CUSOLVER_TYPED
#undef ACCEL_CUSOLVER_FN
  EXPECT_GE(api.version, 11000) << api.path;
  EXPECT_NE(api.path.find("libcusolver.so"), std::string::npos) << api.path;
}

TEST(CudaFftSolverLoad,
     an_absent_optional_function_is_backend_unavailable_naming_it_and_its_toolkit) {
  if (!have_toolkit())
    GTEST_SKIP() << "no CUDA toolkit here: " << cu::cusolver_unavailable_reason();
  const cu::CusolverApi& api = cu::cusolver();
  api.require(api.geev, cu::CusolverApi::geev_symbol, "eig cuda:0");  // found: no throw
  EXPECT_STREQ(cu::CusolverApi::geev_symbol.name, "cusolverDnXgeev");
  EXPECT_STREQ(cu::CusolverApi::geev_buffer_size_symbol.name, "cusolverDnXgeev_bufferSize");
  // What an older cuSOLVER (CUDA 12.0 to 12.5) leaves: a null member.
  const decltype(api.geev) absent = nullptr;
  try {
    api.require(absent, cu::CusolverApi::geev_symbol, "eig cuda:0");
    FAIL() << "no throw";
  } catch (const accel::BackendUnavailable& e) {
    const std::string what = e.what();
    for (const std::string& part : std::vector<std::string>{
             "[eig cuda:0] needs cusolverDnXgeev", "CUDA 12.6", "cuSOLVER " + api.version_string(),
             api.path, "other factorisations are unaffected"})
      EXPECT_NE(what.find(part), std::string::npos) << part << " not in: " << what;
  }
}

TEST(CudaFftSolverLoad, a_status_becomes_a_typed_error_naming_the_call) {
  if (!have_toolkit()) GTEST_SKIP() << "no CUDA toolkit here";
  try {
    cu::cufft().check(8, "cufftMakePlanMany64", "fft cuda:0");
    FAIL() << "no throw";
  } catch (const accel::Error& e) {
    EXPECT_NE(std::string(e.what()).find("[fft cuda:0] cufftMakePlanMany64 failed: "
                                         "CUFFT_INVALID_SIZE (8)"),
              std::string::npos)
        << e.what();
  }
  EXPECT_THROW(cu::cufft().check(6, "cufftExecC2C", "fft cuda:0"), accel::LaunchError);
  try {
    cu::cusolver().check(3, "cusolverDnXgetrf", "inv cuda:0");
    FAIL() << "no throw";
  } catch (const accel::Error& e) {
    EXPECT_NE(std::string(e.what()).find("[inv cuda:0] cusolverDnXgetrf failed: "
                                         "CUSOLVER_STATUS_INVALID_VALUE (3)"),
              std::string::npos)
        << e.what();
  }
  EXPECT_EQ(cu::precision_of(accel::Dtype::complex64), cu::kComplexSingle);
  EXPECT_THROW(cu::precision_of(accel::Dtype::float16), accel::DTypeError);
}

// ---------------------------------------------------------------- plan key and cache (host code)

TEST(CudaFftPlans, the_transform_type_and_line_lengths_follow_the_kind_and_precision) {
  using accel::FftKind;
  EXPECT_EQ(cu::cufft_type(FftKind::complex, false), cu::kCufftC2C);
  EXPECT_EQ(cu::cufft_type(FftKind::complex, true), cu::kCufftZ2Z);
  EXPECT_EQ(cu::cufft_type(FftKind::real_forward, false), cu::kCufftR2C);
  EXPECT_EQ(cu::cufft_type(FftKind::real_forward, true), cu::kCufftD2Z);
  EXPECT_EQ(cu::cufft_type(FftKind::real_backward, false), cu::kCufftC2R);
  EXPECT_EQ(cu::cufft_type(FftKind::real_backward, true), cu::kCufftZ2D);
  for (int64_t n : {1, 2, 7, 8, 1000, 4093}) {
    EXPECT_EQ(cu::fft_input_length(FftKind::complex, n), n);
    EXPECT_EQ(cu::fft_output_length(FftKind::complex, n), n);
    EXPECT_EQ(cu::fft_input_length(FftKind::real_forward, n), n);
    EXPECT_EQ(cu::fft_output_length(FftKind::real_forward, n), n / 2 + 1);
    EXPECT_EQ(cu::fft_input_length(FftKind::real_backward, n), n / 2 + 1);
    EXPECT_EQ(cu::fft_output_length(FftKind::real_backward, n), n);
  }
}

TEST(CudaFftPlans, keys_differ_in_every_field_that_changes_a_plan) {
  const cu::FftPlanKey k{0, 64, cu::kCufftC2C, 10};
  EXPECT_EQ(k, (cu::FftPlanKey{0, 64, cu::kCufftC2C, 10}));
  for (const cu::FftPlanKey other :
       {cu::FftPlanKey{1, 64, cu::kCufftC2C, 10}, cu::FftPlanKey{0, 65, cu::kCufftC2C, 10},
        cu::FftPlanKey{0, 64, cu::kCufftZ2Z, 10}, cu::FftPlanKey{0, 64, cu::kCufftC2C, 11}}) {
    EXPECT_NE(k, other);
    EXPECT_TRUE(k < other || other < k);
  }
}

namespace {
struct FakePlan {
  int id;
  int* destroyed;
  ~FakePlan() { ++*destroyed; }
};
}  // namespace

TEST(CudaFftPlans, the_cache_makes_each_plan_once_and_counts_hits) {
  int destroyed = 0, made = 0;
  cu::PlanCache<cu::FftPlanKey, FakePlan> cache(8);
  auto make = [&] { return std::make_shared<FakePlan>(++made, &destroyed); };
  const cu::FftPlanKey a{0, 16, cu::kCufftC2C, 4}, b{0, 16, cu::kCufftC2C, 5};
  auto p1 = cache.get(a, make);
  auto p2 = cache.get(a, make);
  auto p3 = cache.get(b, make);
  EXPECT_EQ(p1, p2);
  EXPECT_NE(p1, p3);
  EXPECT_EQ(made, 2);
  EXPECT_EQ(cache.hits(), 1);
  EXPECT_EQ(cache.misses(), 2);
  EXPECT_EQ(cache.size(), 2u);
}

TEST(CudaFftPlans, past_capacity_the_least_recently_used_plan_is_dropped) {
  int destroyed = 0, made = 0;
  cu::PlanCache<cu::FftPlanKey, FakePlan> cache(2);
  auto make = [&] { return std::make_shared<FakePlan>(++made, &destroyed); };
  const cu::FftPlanKey a{0, 1, cu::kCufftC2C, 1}, b{0, 2, cu::kCufftC2C, 1},
      c{0, 3, cu::kCufftC2C, 1};
  cache.get(a, make);
  cache.get(b, make);
  cache.get(a, make);  // a is now more recent than b
  cache.get(c, make);  // drops b
  EXPECT_EQ(destroyed, 1);
  EXPECT_EQ(cache.size(), 2u);
  cache.get(a, make);
  EXPECT_EQ(made, 3) << "a stayed cached";
  cache.get(b, make);
  EXPECT_EQ(made, 4) << "b was made again";
}

TEST(CudaFftPlans, release_drops_one_devices_plans_and_a_plan_in_use_lives_on) {
  int destroyed = 0, made = 0;
  cu::PlanCache<cu::FftPlanKey, FakePlan> cache(8);
  auto make = [&] { return std::make_shared<FakePlan>(++made, &destroyed); };
  auto in_use = cache.get({0, 8, cu::kCufftC2C, 1}, make);
  cache.get({0, 9, cu::kCufftC2C, 1}, make);
  cache.get({1, 8, cu::kCufftC2C, 1}, make);
  EXPECT_EQ(cache.release(0), 2u);
  EXPECT_EQ(cache.size(), 1u);
  EXPECT_EQ(destroyed, 1) << "the plan still in use is not destroyed yet";
  EXPECT_EQ(in_use->id, 1);
  in_use.reset();
  EXPECT_EQ(destroyed, 2);
  EXPECT_EQ(cache.release(0), 0u);
  EXPECT_EQ(cache.release(1), 1u);
}

// ---------------------------------------------------------------- geev's packed eigenvectors

TEST(CusolverEig, real_geevs_packed_pairs_unpack_into_conjugate_complex_vectors) {
  using C = std::complex<double>;
  // Two 3x3 matrices' eigenvalues: a pair then a real one, and a real one then a pair.
  const std::vector<C> w = {{1, 2}, {1, -2}, {5, 0}, {-3, 0}, {0, 0.5}, {0, -0.5}};
  // VR's columns, as the rows of its row-major view.
  const std::vector<double> vr = {1, 2, 3, 4, 5, 6, 7, 8, 9, -1, -2, -3, 0.5, 0, 1, 2, 0.25, -1};
  const std::vector<C> want = {{1, 4},   {2, 5},    {3, 6},  {1, -4},   {2, -5},    {3, -6},
                               {7, 0},   {8, 0},    {9, 0},  {-1, 0},   {-2, 0},    {-3, 0},
                               {0.5, 2}, {0, 0.25}, {1, -1}, {0.5, -2}, {0, -0.25}, {1, 1}};
  const accel::Array rows = accel::Array::from_vector(vr, {2, 3, 3});
  const accel::Array values = accel::Array::from_vector(w, {2, 3});
  const accel::Array got = accel::linalg::unpack_real_eigenvectors(rows, values);
  EXPECT_EQ(got.dtype(), accel::Dtype::complex128);
  EXPECT_EQ(got.shape(), (accel::Shape{2, 3, 3}));
  EXPECT_EQ(got.to_vector<C>(), want);
  const accel::Array single = accel::linalg::unpack_real_eigenvectors(
      accel::astype(rows, accel::Dtype::float32), accel::astype(values, accel::Dtype::complex64));
  EXPECT_EQ(single.dtype(), accel::Dtype::complex64);
  EXPECT_EQ(single.to_vector<C>(), want);
}

// ---------------------------------------------------------------- without a driver

TEST(CudaFftSolverNoDriver, fft_and_linalg_on_cuda_raise_backend_unavailable_not_a_crash) {
  if (cu::driver_unavailable_reason().empty())
    GTEST_SKIP() << "a CUDA driver is present: CUDA arrays can be made here";
  // The libraries load without a driver; the device they need does not.
  EXPECT_THROW(cu::cusolver_handle(0), accel::BackendUnavailable);
  EXPECT_THROW(accel::Array::empty({4}, accel::Dtype::complex64, accel::Device::cuda(0)),
               accel::BackendUnavailable);
  EXPECT_EQ(cu::release_fft_plans(0), 0u);
}
