// accel declares the CUDA types, constants and symbol names it uses itself (cuda_types.h,
// driver_api.def, nvrtc_api.def) so that it builds without CUDA. These tests hold them to the
// toolkit: the constants against cuda.h / nvrtc.h, and every driver symbol against the
// toolkit's stub libcuda.so, which exports the driver's whole API.
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "accel/backend/cuda/cuda_types.h"

#ifdef ACCEL_HAVE_CUDA_HEADERS
#include <cuda.h>
#include <nvrtc.h>
#endif

namespace cu = accel::cuda;

// Compared as integers: the two sides are different enum types by design.
#define ACCEL_SAME(ours, theirs) \
  static_assert(static_cast<long long>(ours) == static_cast<long long>(theirs), #ours)

TEST(CudaAbi, constants_match_the_toolkit_headers) {
#ifdef ACCEL_HAVE_CUDA_HEADERS
  ACCEL_SAME(cu::CUDA_SUCCESS, ::CUDA_SUCCESS);
  ACCEL_SAME(cu::CUDA_ERROR_INVALID_VALUE, ::CUDA_ERROR_INVALID_VALUE);
  ACCEL_SAME(cu::CUDA_ERROR_OUT_OF_MEMORY, ::CUDA_ERROR_OUT_OF_MEMORY);
  ACCEL_SAME(cu::CUDA_ERROR_STUB_LIBRARY, ::CUDA_ERROR_STUB_LIBRARY);
  ACCEL_SAME(cu::CUDA_ERROR_NO_DEVICE, ::CUDA_ERROR_NO_DEVICE);
  ACCEL_SAME(cu::CUDA_ERROR_NOT_READY, ::CUDA_ERROR_NOT_READY);
  ACCEL_SAME(cu::NVRTC_SUCCESS, ::NVRTC_SUCCESS);
  ACCEL_SAME(cu::NVRTC_ERROR_COMPILATION, ::NVRTC_ERROR_COMPILATION);
  ACCEL_SAME(cu::kMaxThreadsPerBlock, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK);
  ACCEL_SAME(cu::kMaxBlockDimX, CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X);
  ACCEL_SAME(cu::kMaxBlockDimZ, CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z);
  ACCEL_SAME(cu::kMaxGridDimX, CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X);
  ACCEL_SAME(cu::kMaxGridDimZ, CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z);
  ACCEL_SAME(cu::kMaxSharedMemoryPerBlock, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK);
  ACCEL_SAME(cu::kWarpSize, CU_DEVICE_ATTRIBUTE_WARP_SIZE);
  ACCEL_SAME(cu::kClockRate, CU_DEVICE_ATTRIBUTE_CLOCK_RATE);
  ACCEL_SAME(cu::kMultiprocessorCount, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT);
  ACCEL_SAME(cu::kPciBusId, CU_DEVICE_ATTRIBUTE_PCI_BUS_ID);
  ACCEL_SAME(cu::kPciDeviceId, CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID);
  ACCEL_SAME(cu::kMemoryClockRate, CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE);
  ACCEL_SAME(cu::kGlobalMemoryBusWidth, CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH);
  ACCEL_SAME(cu::kL2CacheSize, CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE);
  ACCEL_SAME(cu::kPciDomainId, CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID);
  ACCEL_SAME(cu::kComputeCapabilityMajor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR);
  ACCEL_SAME(cu::kComputeCapabilityMinor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);
  ACCEL_SAME(cu::kMaxSharedMemoryPerBlockOptin, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN);
  ACCEL_SAME(cu::CU_STREAM_NON_BLOCKING, ::CU_STREAM_NON_BLOCKING);
  ACCEL_SAME(cu::CU_EVENT_DEFAULT, ::CU_EVENT_DEFAULT);
  ACCEL_SAME(cu::CU_EVENT_DISABLE_TIMING, ::CU_EVENT_DISABLE_TIMING);
  ACCEL_SAME(cu::kMemHostAllocPortable, CU_MEMHOSTALLOC_PORTABLE);
  ACCEL_SAME(cu::kPointerAttributeMemoryType, CU_POINTER_ATTRIBUTE_MEMORY_TYPE);
  ACCEL_SAME(cu::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, ::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES);
  ACCEL_SAME(cu::CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, ::CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES);
  ACCEL_SAME(cu::CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, ::CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK);
  ACCEL_SAME(cu::CUDA_ERROR_NO_BINARY_FOR_GPU, ::CUDA_ERROR_NO_BINARY_FOR_GPU);
  ACCEL_SAME(cu::CUDA_ERROR_UNSUPPORTED_PTX_VERSION, ::CUDA_ERROR_UNSUPPORTED_PTX_VERSION);
  EXPECT_EQ(cu::kStreamLegacy, reinterpret_cast<cu::CUstream>(CU_STREAM_LEGACY));
  EXPECT_EQ(cu::kStreamPerThread, reinterpret_cast<cu::CUstream>(CU_STREAM_PER_THREAD));
  ACCEL_SAME(sizeof(cu::CUdeviceptr), sizeof(::CUdeviceptr));
  ACCEL_SAME(sizeof(cu::CUdevice), sizeof(::CUdevice));
  SUCCEED();
#else
  GTEST_SKIP() << "the CUDA toolkit headers (cuda.h) were not found when this test was built";
#endif
}

#ifdef ACCEL_HAVE_CUDA_HEADERS
// Every function accel loads is declared twice: by accel (driver_api.def, nvrtc_api.def, with
// accel's own types) and by the toolkit. A wrong parameter there (an int where the driver takes
// a size_t, a missing argument) compiles and then corrupts the call at run time on a GPU, so the
// two declarations are compared here at compile time: the same number of parameters, each of
// the same kind (pointer, integer or enum, floating point) and size, pointees of arithmetic type
// the same size. And the symbol accel looks up must be the one cuda.h maps the plain name to
// (cuMemAlloc -> cuMemAlloc_v2): the member name, macro-expanded by cuda.h, is that symbol.
namespace accel::cuda::abi_check {

template <class T> constexpr int kind() {
  if constexpr (std::is_pointer_v<T>) return 1;
  else if constexpr (std::is_integral_v<T> || std::is_enum_v<T>) return 2;
  else if constexpr (std::is_floating_point_v<T>) return 3;
  else if constexpr (std::is_void_v<T>) return 4;
  else return 5;
}
template <class T> constexpr size_t size_of() {
  if constexpr (std::is_void_v<T>) return 0;
  else return sizeof(T);
}
template <class A, class B> constexpr bool same_pointee() {
  using PA = std::remove_cv_t<std::remove_pointer_t<A>>;
  using PB = std::remove_cv_t<std::remove_pointer_t<B>>;
  constexpr bool a_sized = std::is_arithmetic_v<PA> || std::is_enum_v<PA> || std::is_pointer_v<PA>;
  constexpr bool b_sized = std::is_arithmetic_v<PB> || std::is_enum_v<PB> || std::is_pointer_v<PB>;
  if constexpr (a_sized && b_sized) return sizeof(PA) == sizeof(PB) && kind<PA>() == kind<PB>();
  else return a_sized == b_sized;  // both opaque (handles, void, char buffers of structs)
}
template <class A, class B> constexpr bool same_slot() {
  if constexpr (kind<A>() != kind<B>() || size_of<A>() != size_of<B>()) return false;
  else if constexpr (std::is_pointer_v<A>) return same_pointee<A, B>();
  else return true;
}
template <class R1, class... A1, class R2, class... A2>
constexpr bool call_compatible(R1 (*)(A1...), R2 (*)(A2...)) {
  if constexpr (sizeof...(A1) != sizeof...(A2)) return false;
  else return same_slot<R1, R2>() && (same_slot<A1, A2>() && ...);
}

// Deliberate exceptions: CUDA 12.8 added cuEventElapsedTime_v2 (same parameters) and CUDA 13's
// cuda.h maps the plain name to it, but drivers older than 12.8 lack it; the original symbol is
// exported by every driver accel accepts (12.0 on).
constexpr bool plain_symbol_on_purpose(std::string_view symbol) {
  return symbol == "cuEventElapsedTime";
}

#define ACCEL_XSTR2(x) #x
#define ACCEL_XSTR(x) ACCEL_XSTR2(x)
#define ACCEL_CU_FN(member, symbol, required, params)                                  \
  static_assert(call_compatible(static_cast<CUresult(*) params>(nullptr), &::member),  \
                symbol ": accel's parameter list differs from cuda.h's");              \
  static_assert(std::string_view(ACCEL_XSTR(member)) == symbol ||                      \
                    plain_symbol_on_purpose(symbol),                                    \
                symbol ": cuda.h maps this function to another symbol");
#include "accel/backend/cuda/driver_api.def"
#undef ACCEL_CU_FN
#define ACCEL_NVRTC_FN(member, symbol, ret, params)                                   \
  static_assert(call_compatible(static_cast<ret(*) params>(nullptr), &::member),      \
                symbol ": accel's parameter list differs from nvrtc.h's");            \
  static_assert(std::string_view(ACCEL_XSTR(member)) == symbol,                        \
                symbol ": nvrtc.h maps this function to another symbol");
#include "accel/backend/cuda/nvrtc_api.def"
#undef ACCEL_NVRTC_FN

}  // namespace accel::cuda::abi_check
#endif

TEST(CudaAbi, every_function_accel_loads_has_the_toolkits_parameter_list) {
#ifdef ACCEL_HAVE_CUDA_HEADERS
  SUCCEED() << "checked at compile time (static_asserts above)";
#else
  GTEST_SKIP() << "the CUDA toolkit headers (cuda.h) were not found when this test was built";
#endif
}

TEST(CudaAbi, every_driver_symbol_accel_loads_is_exported_by_the_driver_api) {
  std::vector<std::string> candidates;
  for (const char* var : {"CUDA_HOME", "CUDA_PATH"})
    if (const char* v = std::getenv(var)) candidates.push_back(std::string(v) + "/lib64/stubs/libcuda.so");
  candidates.push_back("/usr/local/cuda/lib64/stubs/libcuda.so");
  void* stub = nullptr;
  for (const auto& c : candidates)
    if (std::filesystem::exists(c) && (stub = dlopen(c.c_str(), RTLD_NOW | RTLD_LOCAL))) break;
  if (!stub) GTEST_SKIP() << "no CUDA toolkit stub libcuda.so found to check symbol names against";
#define ACCEL_CU_FN(member, symbol, required, params) \
  EXPECT_NE(dlsym(stub, symbol), nullptr) << symbol << " is not a CUDA driver API symbol";
#include "accel/backend/cuda/driver_api.def"
#undef ACCEL_CU_FN
  dlclose(stub);
}
