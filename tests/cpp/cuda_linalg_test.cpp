// The CUDA backend's matmul, gather and scatter without a GPU: cuBLAS's symbols and constants
// against the toolkit, every kernel instantiation the backend can request compiled by NVRTC
// for sm_90, the host-side plans (cuBLAS operand transposition, batch strides, the index walk),
// and the kernels themselves run on the host by the SIMT emulator (simt_host.h) against the CPU
// backend.
#include <accel/accel.h>
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <climits>
#include <complex>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <random>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "accel/backend/backend.h"
#include "abi_check.h"
#include "accel/backend/cuda/builtin_kernels.h"
#include "accel/backend/cuda/compiler.h"
#include "accel/backend/cuda/cublas.h"
#include "accel/backend/cuda/gather_scatter.h"
#include "accel/backend/cuda/matmul.h"
#include "accel/backend/cuda/matmul_plan.h"
#include "accel/backend/cuda/nvrtc.h"
#include "accel/ops/linalg_cublas_batched.h"
#include "ptxas_resources.h"

#ifdef ACCEL_HAVE_CUBLAS_HEADERS
#include <cublas_v2.h>
#endif

namespace cu = accel::cuda;
using accel::Array;
using accel::Device;
using accel::Dtype;
using accel::IndexFault;
using accel::Shape;
using accel::Strides;

// ---------------------------------------------------------------- the kernels on the emulator

// clang-format off
#include "simt_host.h"
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunknown-pragmas"  // #pragma unroll is nvcc's
#include "accel/device_src/gather_scatter.cuh"
#include "accel/device_src/matmul.cuh"
#pragma GCC diagnostic pop
// clang-format on

namespace {

// A small grid, so that the grid-stride loops take several turns.
constexpr simt::Index kGrid{3, 1, 1}, kBlock{32, 1, 1};

const long long* table_of(const cu::IndexWalk& w) {
  return reinterpret_cast<const long long*>(w.table.data());
}

std::optional<IndexFault> fault_of(unsigned long long key, std::span<const Array> indices) {
  if (key == ~0ull) return std::nullopt;
  const int which = static_cast<int>(key % indices.size());
  const int64_t pos = static_cast<int64_t>(key / indices.size());
  std::vector<int64_t> flat = accel::ascontiguousarray(indices[which]).to_vector<int64_t>();
  return IndexFault{which, flat[static_cast<size_t>(pos)]};
}

template <class F>
void with_word(size_t itemsize, F&& f) {
  switch (itemsize) {
    case 1:
      return f(uint8_t{});
    case 2:
      return f(uint16_t{});
    case 4:
      return f(uint32_t{});
    case 8:
      return f(uint64_t{});
    default:
      return f(accel_ix::Bytes16{});
  }
}

// The launch sequence of cu::gather, with the emulated kernels on host memory.
std::optional<IndexFault> emulated_gather(const Array& src, std::span<const int> axes,
                                          std::span<const Array> indices, const Array& out) {
  const cu::IndexWalk w = cu::index_walk(src, axes, indices, out);
  if (w.positions == 0) return std::nullopt;
  unsigned long long fault = ~0ull;
  with_word(src.itemsize(), [&](auto word) {
    using E = decltype(word);
    auto* s = static_cast<const E*>(src.data());
    auto* o = static_cast<E*>(out.data());
    if (w.block == 1) {
      simt::launch(kGrid, kBlock,
                   [&] { accel_gather_elements<E>(s, o, table_of(w), w.positions, &fault); });
      return;
    }
    std::vector<long long> src_off(w.positions), out_off(w.positions);
    const bool move = w.block > 0;
    simt::launch(kGrid, kBlock, [&] {
      accel_index_resolve(table_of(w), w.positions, move ? src_off.data() : nullptr,
                          move ? out_off.data() : nullptr, &fault);
    });
    if (move)
      simt::launch(kGrid, kBlock, [&] {
        accel_gather_blocks<E>(s, o, table_of(w), src_off.data(), out_off.data(), w.positions,
                               w.block);
      });
  });
  return fault_of(fault, indices);
}

// The launch sequence of cu::scatter, likewise.
std::optional<IndexFault> emulated_scatter(const Array& dst, std::span<const int> axes,
                                           std::span<const Array> indices, const Array& values) {
  const cu::IndexWalk w = cu::index_walk(dst, axes, indices, values);
  if (w.positions == 0) return std::nullopt;
  unsigned long long fault = ~0ull;
  std::vector<long long> dst_off(w.positions), val_off(w.positions);
  simt::launch(kGrid, kBlock, [&] {
    accel_index_resolve(table_of(w), w.positions, dst_off.data(), val_off.data(), &fault);
  });
  if (auto bad = fault_of(fault, indices)) return bad;
  if (w.block == 0) return std::nullopt;
  if (w.positions > 1) {
    const uint64_t slots = std::bit_ceil(static_cast<uint64_t>(w.positions) * 2);
    std::vector<unsigned long long> keys(slots, ~0ull);
    std::vector<long long> winners(slots, -1);
    simt::launch(kGrid, kBlock, [&] {
      accel_repeat_claim(dst_off.data(), w.positions, keys.data(), winners.data(), slots - 1);
    });
    simt::launch(kGrid, kBlock, [&] {
      accel_repeat_drop(dst_off.data(), w.positions, keys.data(), winners.data(), slots - 1);
    });
  }
  with_word(dst.itemsize(), [&](auto word) {
    using E = decltype(word);
    simt::launch(kGrid, kBlock, [&] {
      accel_scatter_blocks<E>(static_cast<E*>(dst.data()), static_cast<const E*>(values.data()),
                              table_of(w), dst_off.data(), val_off.data(), w.positions, w.block);
    });
  });
  return std::nullopt;
}

std::mt19937_64 rng(1234);

Array random_array(const Shape& shape, Dtype dt) {
  std::uniform_int_distribution<int> d(-50, 50);
  std::vector<double> v(static_cast<size_t>(accel::shape_size(shape)));
  for (double& x : v) x = d(rng);
  return accel::astype(Array::from_vector(v, shape, Device::cpu()), dt).eval();
}

Array index_array(const Shape& shape, int64_t lo, int64_t hi) {
  std::uniform_int_distribution<int64_t> d(lo, hi - 1);
  std::vector<int64_t> v(static_cast<size_t>(accel::shape_size(shape)));
  for (int64_t& x : v) x = d(rng);
  return Array::from_vector(v, shape, Device::cpu());
}

// Same bytes in C order.
bool same_bytes(const Array& x, const Array& y) {
  Array cx = accel::ascontiguousarray(x).eval(), cy = accel::ascontiguousarray(y).eval();
  return cx.nbytes() == cy.nbytes() && std::memcmp(cx.data(), cy.data(), cx.nbytes()) == 0;
}

accel::Backend& cpu() { return accel::backend_for(Device::cpu()); }

Shape gathered(const Array& src, std::span<const int> axes, const Shape& b) {
  Shape s = b;
  for (int d = 0; d < src.ndim(); ++d)
    if (std::find(axes.begin(), axes.end(), d) == axes.end()) s.push_back(src.shape()[d]);
  return s;
}

Array permuted(const Array& x, const std::vector<int>& perm) {
  Shape s;
  Strides st;
  for (int p : perm) {
    s.push_back(x.shape()[p]);
    st.push_back(x.strides()[p]);
  }
  return Array::view_of(x, s, st, x.offset());
}

}  // namespace

// ---------------------------------------------------------------- cuBLAS against the toolkit

TEST(CudaLinalgAbi, cublas_constants_match_cublas_api_h) {
#ifdef ACCEL_HAVE_CUBLAS_HEADERS
  static_assert(cu::kCublasSuccess == CUBLAS_STATUS_SUCCESS);
  static_assert(cu::kCublasAllocFailed == CUBLAS_STATUS_ALLOC_FAILED);
  static_assert(13 == CUBLAS_STATUS_EXECUTION_FAILED);  // cublas.cpp's LaunchError case
  static_assert(cu::kCublasOpN == CUBLAS_OP_N);
  static_assert(cu::kCublasOpT == CUBLAS_OP_T);
  static_assert(cu::kCublasDefaultMath == CUBLAS_DEFAULT_MATH);
  static_assert(sizeof(long long) == sizeof(int64_t));  // the strided-batched stride type
  SUCCEED();
#else
  GTEST_SKIP() << "the CUDA toolkit headers (cublas_v2.h) were not found when this test was built";
#endif
}

#ifdef ACCEL_HAVE_CUBLAS_HEADERS
// accel's declarations against cublas_api.h's (abi_check.h says why).
namespace accel::cuda::cublas_abi_check {
using test::abi::call_compatible;
// cublasGetVersion(int*) is declared by the legacy cublas.h, which cannot be included with
// cublas_v2.h (there the name means cublasGetVersion_v2(handle, int*)).
constexpr bool legacy_header_only(std::string_view symbol) { return symbol == "cublasGetVersion"; }

#define ACCEL_CUBLAS_FN(member, symbol, ret, params)                                 \
  static_assert(legacy_header_only(#symbol) ||                                       \
                    call_compatible(static_cast<ret(*) params>(nullptr), &::symbol), \
                #symbol ": accel's parameter list differs from cublas_api.h's");
#define ACCEL_CUBLAS_TYPED(member, s, d, c, z, ret, params) \
  ACCEL_CUBLAS_FN(member, s, ret, params)                   \
  ACCEL_CUBLAS_FN(member, d, ret, params)                   \
  ACCEL_CUBLAS_FN(member, c, ret, params)                   \
  ACCEL_CUBLAS_FN(member, z, ret, params)
#include "accel/backend/cuda/cublas_api.def"
#undef ACCEL_CUBLAS_TYPED
#undef ACCEL_CUBLAS_FN

}  // namespace accel::cuda::cublas_abi_check
#endif

TEST(CudaLinalgAbi, every_cublas_function_has_the_toolkits_parameter_list) {
#ifdef ACCEL_HAVE_CUBLAS_HEADERS
  SUCCEED() << "checked at compile time (static_asserts above)";
#else
  GTEST_SKIP() << "the CUDA toolkit headers (cublas_v2.h) were not found when this test was built";
#endif
}

TEST(CudaLinalgAbi, every_cublas_symbol_accel_loads_is_exported_by_libcublas) {
  std::vector<std::string> candidates;
  for (const char* var : {"CUDA_HOME", "CUDA_PATH"})
    if (const char* v = std::getenv(var))
      candidates.push_back(std::string(v) + "/lib64/libcublas.so");
  candidates.push_back("/usr/local/cuda/lib64/libcublas.so");
  void* lib = nullptr;
  for (const auto& c : candidates)
    if (std::filesystem::exists(c) && (lib = dlopen(c.c_str(), RTLD_NOW | RTLD_LOCAL))) break;
  if (!lib) GTEST_SKIP() << "no CUDA toolkit libcublas.so found to check symbol names against";
#define ACCEL_CUBLAS_FN(member, symbol, ret, params) \
  EXPECT_NE(dlsym(lib, #symbol), nullptr) << #symbol << " is not exported by libcublas";
#define ACCEL_CUBLAS_TYPED(member, s, d, c, z, ret, params) \
  ACCEL_CUBLAS_FN(member, s, ret, params)                   \
  ACCEL_CUBLAS_FN(member, d, ret, params)                   \
  ACCEL_CUBLAS_FN(member, c, ret, params)                   \
  ACCEL_CUBLAS_FN(member, z, ret, params)
#include "accel/backend/cuda/cublas_api.def"
#undef ACCEL_CUBLAS_TYPED
#undef ACCEL_CUBLAS_FN
  // Not closed, as accel never closes it: unloading libcublas leaks the buffers its bundled C++
  // runtime allocated when it loaded (LeakSanitizer reports 2 x 72704 bytes).
}

TEST(CudaLinalgAbi, cublas_loads_from_the_toolkit_with_its_version) {
  if (!std::filesystem::exists("/usr/local/cuda/lib64/libcublas.so") && !std::getenv("CUDA_HOME"))
    GTEST_SKIP() << "no CUDA toolkit here: " << cu::cublas_unavailable_reason();
  ASSERT_EQ(cu::cublas_unavailable_reason(), "");
  const cu::CublasApi& api = cu::cublas();
  EXPECT_GE(api.version, 120000) << api.path;
  EXPECT_EQ(api.version_string(), std::to_string(api.version / 10000) + "." +
                                      std::to_string(api.version / 100 % 100) + "." +
                                      std::to_string(api.version % 100));
  EXPECT_NE(api.path.find("libcublas.so"), std::string::npos) << api.path;
}

// ---------------------------------------------------------------- batched LU's pointer tables

TEST(CudaBatchedLu, matrix_pointers_step_one_matrix_at_a_time_from_the_first) {
  // accel's arange on the matrices' device, so the arithmetic is checked here on host addresses
  // (past 2^32, as device ones are); the CUDA arange kernel is the CPU's bit for bit
  // (cuda_elementwise_host_test).
  const Array m = Array::empty({2, 3, 5, 4}, Dtype::complex128, Device::cpu());
  const Array table = accel::linalg::matrix_pointers(m);
  EXPECT_EQ(table.dtype(), Dtype::uint64);
  EXPECT_TRUE(table.device().is_cpu());
  const std::vector<uint64_t> got = table.to_vector<uint64_t>();
  ASSERT_EQ(got.size(), 6u);
  const auto first = static_cast<uint64_t>(reinterpret_cast<uintptr_t>(m.data()));
  for (size_t i = 0; i < got.size(); ++i)
    EXPECT_EQ(got[i], first + i * 5 * 4 * 16) << "matrix " << i;
}

// ---------------------------------------------------------------- every kernel through NVRTC

class CudaLinalgCompile : public ::testing::Test {
 protected:
  void SetUp() override {
    const std::string why = cu::nvrtc_unavailable_reason();
    ASSERT_TRUE(why.empty()) << why;  // NVRTC is a build requirement of CI
  }
  // Also checks every kernel for spills and register-limited occupancy at `threads` per block.
  static std::shared_ptr<const cu::CompiledModule> compile_all(
      const std::string& source, const std::vector<std::string>& names, int threads) {
    cu::CompileOptions o;
    o.arch = "sm_90";
    o.use_cache = false;
    o.options = cu::builtin_compile_options();
    o.options.push_back("--ptxas-options=-v");
    o.name_expressions = names;
    auto m = cu::compile(source, o);
    const auto kernels = ptxas::parse(m->log);
    EXPECT_GE(kernels.size(), names.size()) << m->log;
    for (const auto& p : ptxas::problems(kernels, threads, source)) ADD_FAILURE() << p;
    return m;
  }
};

TEST_F(CudaLinalgCompile, matmul_kernel_compiles_for_every_dtype) {
  const auto names = cu::matmul_kernel_names();
  ASSERT_EQ(names.size(), static_cast<size_t>(accel::kNumDtypes));
  auto m = compile_all(cu::matmul_kernel_source(), names, static_cast<int>(cu::kMatmulThreads));
  EXPECT_TRUE(m->cubin);
  for (const auto& n : names) EXPECT_EQ(m->lowered_names.count(n), 1u) << n;
  EXPECT_EQ(cu::matmul_kernel_name(Dtype::complex128), "accel_matmul<std::complex<double>>");
  EXPECT_EQ(cu::matmul_kernel_name(Dtype::bool_), "accel_matmul<bool>");
}

TEST_F(CudaLinalgCompile, gather_scatter_kernels_compile_for_every_item_size) {
  const auto names = cu::gather_scatter_kernel_names();
  ASSERT_EQ(names.size(), 15u);  // 3 templates x item sizes 1, 2, 4, 8, 16
  auto m = compile_all(cu::gather_scatter_kernel_source(), names, static_cast<int>(cu::kBlockThreads));
  EXPECT_TRUE(m->cubin);
  for (const auto& n : names) EXPECT_EQ(m->lowered_names.count(n), 1u) << n;
  for (const char* c_kernel : {"accel_index_resolve", "accel_repeat_claim", "accel_repeat_drop"})
    EXPECT_NE(m->image.find(c_kernel), std::string::npos) << c_kernel;
}

// ---------------------------------------------------------------- cuBLAS plans

TEST(CudaMatmulPlan, row_major_operands_pass_untransposed_with_swapped_roles) {
  auto p = cu::plan_gemm({}, 3, 4, 5, {5, 1}, {4, 1});
  ASSERT_TRUE(p);
  EXPECT_EQ(p->transa, cu::kCublasOpN);
  EXPECT_EQ(p->transb, cu::kCublasOpN);
  EXPECT_EQ(p->m, 4);  // cuBLAS computes C^T: its m is our n
  EXPECT_EQ(p->n, 3);
  EXPECT_EQ(p->k, 5);
  EXPECT_EQ(p->lda, 4);  // B's row length
  EXPECT_EQ(p->ldb, 5);  // A's
  EXPECT_EQ(p->ldc, 4);
  EXPECT_TRUE(p->strided);
  EXPECT_EQ(p->batch, 1);
}

TEST(CudaMatmulPlan, transposed_views_are_passed_as_transposes) {
  // a = x.T with x (5, 3) contiguous; b = y.T with y (4, 5) contiguous.
  auto p = cu::plan_gemm({}, 3, 4, 5, {1, 3}, {1, 5});
  ASSERT_TRUE(p);
  EXPECT_EQ(p->transa, cu::kCublasOpT);
  EXPECT_EQ(p->lda, 5);
  EXPECT_EQ(p->transb, cu::kCublasOpT);
  EXPECT_EQ(p->ldb, 3);
}

TEST(CudaMatmulPlan, row_steps_widen_the_leading_dimension) {
  auto p = cu::plan_gemm({}, 3, 4, 5, {10, 1}, {8, 1});  // x[::2] of contiguous rows
  ASSERT_TRUE(p);
  EXPECT_EQ(p->ldb, 10);
  EXPECT_EQ(p->lda, 8);
}

TEST(CudaMatmulPlan, vectors_take_any_stride_on_their_length_one_axis) {
  // vecdot's (1, k) row with stride 0 on the length-1 axis, and a (k, 1) column.
  auto p = cu::plan_gemm({}, 1, 1, 7, {0, 1}, {1, 0});
  ASSERT_TRUE(p);
  EXPECT_EQ(p->ldb, 7);
  EXPECT_GE(p->lda, 1);
}

TEST(CudaMatmulPlan, layouts_cublas_cannot_take_go_to_the_kernel) {
  EXPECT_FALSE(cu::plan_gemm({}, 3, 4, 5, {10, 2}, {4, 1}));  // steps in both axes
  EXPECT_FALSE(cu::plan_gemm({}, 3, 4, 5, {-5, 1}, {4, 1}));  // reversed rows
  EXPECT_FALSE(cu::plan_gemm({}, 3, 4, 5, {0, 1}, {4, 1}));   // broadcast rows
  const int64_t big = int64_t(INT_MAX) + 1;
  EXPECT_FALSE(cu::plan_gemm({}, big, 1, 1, {1, 1}, {1, 1}));  // past int32
}

TEST(CudaMatmulPlan, gemm_accepts_row_and_column_major_matrices_only) {
  EXPECT_TRUE(cu::gemm_accepts(3, 5, 5, 1));
  EXPECT_TRUE(cu::gemm_accepts(3, 5, 1, 3));
  EXPECT_TRUE(cu::gemm_accepts(1, 5, 0, 1));   // a row: its row stride is free
  EXPECT_FALSE(cu::gemm_accepts(3, 5, 10, 2));  // packed for cuBLAS when the product is large
  EXPECT_FALSE(cu::gemm_accepts(3, 5, 5, -1));
  EXPECT_FALSE(cu::gemm_accepts(3, 5, 0, 1));
}

TEST(CudaMatmulPlan, batch_offsets_walk_the_batch_in_c_order) {
  EXPECT_EQ(cu::batch_offsets({2, 3}, {10, 2}), (std::vector<int64_t>{0, 2, 4, 10, 12, 14}));
  EXPECT_EQ(cu::batch_offsets({}, {}), (std::vector<int64_t>{0}));
  EXPECT_EQ(cu::uniform_step({0, 5, 10}), 5);
  EXPECT_EQ(cu::uniform_step({0}), 0);
  EXPECT_EQ(cu::uniform_step({0, 0, 0}), 0);
  EXPECT_FALSE(cu::uniform_step({0, 5, 9}));
  EXPECT_FALSE(cu::uniform_step({0, -5}));
}

TEST(CudaMatmulPlan, uniform_batches_take_one_strided_batched_call) {
  // a (2, 3, m, k) contiguous, b (k, n) broadcast over the batch (stride 0).
  const int64_t m = 3, n = 4, k = 5;
  auto p = cu::plan_gemm({2, 3}, m, n, k, {3 * m * k, m * k, k, 1}, {0, 0, n, 1});
  ASSERT_TRUE(p);
  EXPECT_TRUE(p->strided);
  EXPECT_EQ(p->batch, 6);
  EXPECT_EQ(p->stride_a, m * k);
  EXPECT_EQ(p->stride_b, 0);
  EXPECT_EQ(p->stride_c, m * n);
}

TEST(CudaMatmulPlan, non_uniform_batches_loop_or_go_to_the_kernel_when_many) {
  const int64_t m = 3, n = 4, k = 5;
  // a broadcast over the first batch axis, b over the second: offsets repeat.
  auto p = cu::plan_gemm({2, 3}, m, n, k, {0, m * k, k, 1}, {k * n, 0, n, 1});
  ASSERT_TRUE(p);
  EXPECT_FALSE(p->strided);
  EXPECT_EQ(p->offsets_a, (std::vector<int64_t>{0, 15, 30, 0, 15, 30}));
  EXPECT_EQ(p->offsets_b, (std::vector<int64_t>{0, 0, 0, 20, 20, 20}));
  // 100 x 100 small products: one kernel launch beats 10,000 cuBLAS calls.
  EXPECT_FALSE(cu::plan_gemm({100, 100}, m, n, k, {0, m * k, k, 1}, {k * n, 0, n, 1}));
  // Large products are worth a call each.
  EXPECT_TRUE(cu::plan_gemm({100, 100}, 256, 256, 256, {0, 65536, 256, 1}, {65536, 0, 256, 1}));
}

// ---------------------------------------------------------------- the matmul kernel, emulated

namespace {

// The host's copy of the kernel's parameter struct must match matmul.cuh's field for field.
static_assert(sizeof(cu::MatmulKernelShape) == sizeof(accel_mm::Shape));
static_assert(offsetof(cu::MatmulKernelShape, sb1) == offsetof(accel_mm::Shape, sb1));
static_assert(offsetof(cu::MatmulKernelShape, batch) == offsetof(accel_mm::Shape, batch));
static_assert(offsetof(cu::MatmulKernelShape, batch_nd) == offsetof(accel_mm::Shape, batch_nd));

// accel_matmul<T> over a (batch..., m, k) and b (batch..., k, n) views of CPU arrays with the
// plan matmul.cpp launches it with, on a deliberately small grid (its loops take several turns).
template <class T>
Array emulated_matmul(const Array& a, const Array& b, const Shape& out_shape) {
  Array out = Array::empty(out_shape, a.dtype(), Device::cpu());
  const cu::MatmulKernelPlan plan =
      cu::plan_matmul_kernel(out_shape, a.shape(-1), a.strides(), b.strides());
  accel_mm::Shape s;
  std::memcpy(&s, &plan.shape, sizeof s);
  const auto* table = reinterpret_cast<const long long*>(plan.table.data());
  simt::launch({2, 1, 1}, {accel_mm::kThreads, 1, 1}, [&] {
    accel_matmul<T>(static_cast<const T*>(a.data()), static_cast<const T*>(b.data()),
                    static_cast<T*>(out.data()), s, plan.table.empty() ? nullptr : table);
  });
  return out;
}

template <class T>
void expect_matmul_matches_cpu(Dtype dt, bool transposed_a, bool stepped_b) {
  const int64_t m = 70, n = 130, k = 37;  // tiles of 64 with ragged edges, k not a multiple of 16
  Array a =
      transposed_a ? permuted(random_array({2, k, m}, dt), {0, 2, 1}) : random_array({2, m, k}, dt);
  Array b = random_array({k, stepped_b ? 2 * n : n}, dt);
  if (stepped_b) b = Array::view_of(b, {k, n}, {2 * n, 2}, 0);
  // b broadcast over the batch of 2 (stride 0), as matmul_impl passes it.
  Array bb = Array::view_of(b, {2, k, n}, {0, b.strides()[0], b.strides()[1]}, b.offset());
  Array expected = Array::empty({2, m, n}, dt, Device::cpu());
  cpu().matmul(a, bb, expected);
  Array got = emulated_matmul<T>(a, bb, {2, m, n});
  EXPECT_TRUE(same_bytes(got, expected)) << accel::dtype_name(dt);
}

}  // namespace

TEST(CudaMatmulKernel, integers_wrap_and_bool_is_or_of_ands_like_the_cpu) {
  expect_matmul_matches_cpu<signed char>(Dtype::int8, false, false);
  expect_matmul_matches_cpu<unsigned short>(Dtype::uint16, true, true);
  expect_matmul_matches_cpu<long long>(Dtype::int64, true, false);
  expect_matmul_matches_cpu<bool>(Dtype::bool_, false, true);
}

TEST(CudaMatmulKernel, vectors_and_broadcast_batches_match_the_cpu) {
  // (3, 1, m, k) @ (1, 4, k, n) as matmul_impl broadcasts it, with m = 1 (a vector) and a
  // batch of 12 on a grid of one z-block; then (k,) @ (k, 1)-like column products.
  for (int64_t m : {1, 5})
    for (int64_t n : {1, 66}) {
      const int64_t k = 9;
      Array a = random_array({3, 1, m, k}, Dtype::int32),
            b = random_array({1, 4, k, n}, Dtype::int32);
      Array av = Array::view_of(a, {3, 4, m, k},
                                accel::broadcast_strides(a.shape(), a.strides(), {3, 4, m, k}), 0);
      Array bv = Array::view_of(b, {3, 4, k, n},
                                accel::broadcast_strides(b.shape(), b.strides(), {3, 4, k, n}), 0);
      Array expected = Array::empty({3, 4, m, n}, Dtype::int32, Device::cpu());
      cpu().matmul(av, bv, expected);
      EXPECT_TRUE(same_bytes(emulated_matmul<int>(av, bv, {3, 4, m, n}), expected))
          << m << "x" << n;
    }
}

TEST(CudaMatmulPlan, the_kernel_plan_drops_length_one_batch_axes) {
  auto p = cu::plan_matmul_kernel({3, 1, 4, 5, 6}, 7, {0, 0, 35, 7, 1}, {42, 42, 0, 6, 1});
  EXPECT_EQ(p.shape.m, 5);
  EXPECT_EQ(p.shape.n, 6);
  EXPECT_EQ(p.shape.k, 7);
  EXPECT_EQ(p.shape.sa0, 7);
  EXPECT_EQ(p.shape.sb0, 6);
  EXPECT_EQ(p.shape.batch, 12);
  EXPECT_EQ(p.shape.batch_nd, 2);
  EXPECT_EQ(p.table, (std::vector<int64_t>{3, 4, 0, 35, 42, 0}));
}

TEST(CudaMatmulKernel, floats_and_complex_agree_with_the_cpu_on_integer_valued_data) {
  // Small integers: every partial sum is exact, so any summation order gives the same bits.
  expect_matmul_matches_cpu<float>(Dtype::float32, true, true);
  expect_matmul_matches_cpu<double>(Dtype::float64, false, true);
  expect_matmul_matches_cpu<std::complex<double>>(Dtype::complex128, true, false);
}

// ---------------------------------------------------------------- index walks

TEST(CudaIndexWalk, contiguous_index_shapes_coalesce_to_one_axis) {
  Array src = random_array({10}, Dtype::float32);
  Array idx = index_array({3, 4}, 0, 10);
  Array out = Array::empty({3, 4}, Dtype::float32, Device::cpu());
  const int axes[] = {0};
  auto w = cu::index_walk(src, axes, std::span<const Array>(&idx, 1), out);
  EXPECT_EQ(w.positions, 12);
  EXPECT_EQ(w.block, 1);
  const int64_t addr = reinterpret_cast<int64_t>(idx.data());
  EXPECT_EQ(w.table, (std::vector<int64_t>{1, 1, 0, 12, addr, 10, 1, 1, 1}));
}

TEST(CudaIndexWalk, remaining_axes_form_the_block) {
  Array src = random_array({5, 6, 7}, Dtype::int16);
  Array idx = index_array({3}, 0, 6);
  Array out = Array::empty({3, 5, 7}, Dtype::int16, Device::cpu());
  const int axes[] = {1};
  auto w = cu::index_walk(src, axes, std::span<const Array>(&idx, 1), out);
  EXPECT_EQ(w.positions, 3);
  EXPECT_EQ(w.block, 35);
  const int64_t addr = reinterpret_cast<int64_t>(idx.data());
  // B (3,), index stride 1, out stride 35; block (5, 7): src strides (42, 1), out (7, 1).
  EXPECT_EQ(w.table, (std::vector<int64_t>{1, 1, 2, 3, addr, 6, 7, 1, 35, 5, 7, 42, 1, 7, 1}));
}

TEST(CudaIndexWalk, an_empty_remaining_axis_gives_an_empty_block) {
  Array src = random_array({4, 0}, Dtype::float64);
  Array idx = index_array({3}, 0, 4);
  Array out = Array::empty({3, 0}, Dtype::float64, Device::cpu());
  const int axes[] = {0};
  EXPECT_EQ(cu::index_walk(src, axes, std::span<const Array>(&idx, 1), out).block, 0);
}

// ---------------------------------------------------------------- gather and scatter, emulated

namespace {

struct GatherCase {
  Shape src_shape;
  std::vector<int> axes;
  std::vector<Shape> index_shapes;  // broadcast together to B
};

// Index arrays for `c`, broadcast to B (stride-0 views), some reversed or stepped.
std::vector<Array> make_indices(const GatherCase& c, const Array& src, Shape* b_out,
                                int64_t bad = 0) {
  std::vector<Array> idx;
  Shape b;
  for (const Shape& s : c.index_shapes) b = accel::broadcast_shapes(b, s, "test");
  for (size_t j = 0; j < c.axes.size(); ++j) {
    const int64_t n = src.shape()[c.axes[j]];
    const Shape& s = c.index_shapes[j];
    Shape wide = s;
    if (!wide.empty()) wide.back() *= 2;
    Array full = index_array(wide, -n, n);
    // Every other element of a wider array: a stepped view.
    Strides st = full.strides();
    if (!st.empty()) st.back() *= 2;
    Array x = Array::view_of(full, s, st, 0);
    if (bad && j + 1 == c.axes.size() && x.size() > 2) {
      // Two bad values (x's elements 1 and 2, in the first row): the first in C order over B
      // must be the one reported.
      int64_t* p = static_cast<int64_t*>(full.data());
      p[2] = bad;
      p[4] = -bad - 1000;
    }
    idx.push_back(Array::view_of(x, b, accel::broadcast_strides(s, x.strides(), b), x.offset()));
  }
  *b_out = b;
  return idx;
}

void expect_gather_matches_cpu(const GatherCase& c, Dtype dt, bool transpose_src) {
  Array src = random_array(c.src_shape, dt);
  if (transpose_src) {
    std::vector<int> perm(static_cast<size_t>(src.ndim()));
    for (int d = 0; d < src.ndim(); ++d) perm[static_cast<size_t>(d)] = src.ndim() - 1 - d;
    src = permuted(random_array(permuted(src, perm).shape(), dt), perm);
  }
  Shape b;
  std::vector<Array> idx = make_indices(c, src, &b);
  const Shape shape = gathered(src, c.axes, b);
  Array expected = Array::empty(shape, dt, Device::cpu()),
        got = Array::empty(shape, dt, Device::cpu());
  EXPECT_FALSE(cpu().gather(src, c.axes, idx, expected));
  EXPECT_FALSE(emulated_gather(src, c.axes, idx, got));
  EXPECT_TRUE(same_bytes(got, expected))
      << accel::dtype_name(dt) << " src " << accel::shape_str(c.src_shape);
}

const GatherCase kCases[] = {
    {{50}, {0}, {{7, 9}}},                  // take: one element per position
    {{5, 6, 7}, {1}, {{3, 4}}},             // x[:, idx]: blocks of 5 x 7
    {{5, 6, 7}, {0, 2}, {{3, 1}, {1, 4}}},  // two indices broadcast together
    {{4, 3, 2, 5}, {1, 2}, {{6}, {6}}},     // paired indices, blocks of 4 x 5
    {{8, 9}, {0, 1}, {{}, {}}},             // 0-d indices: one position
};

}  // namespace

TEST(CudaGatherKernel, matches_the_cpu_for_every_item_size_and_layout) {
  for (const GatherCase& c : kCases)
    for (Dtype dt : {Dtype::bool_, Dtype::int16, Dtype::float32, Dtype::float64, Dtype::complex128})
      for (bool t : {false, true}) expect_gather_matches_cpu(c, dt, t);
}

TEST(CudaGatherKernel, reports_the_first_bad_index_in_c_order) {
  for (const GatherCase& c : {kCases[0], kCases[1], kCases[2]}) {
    Array src = random_array(c.src_shape, Dtype::float32);
    Shape b;
    std::vector<Array> idx = make_indices(c, src, &b, /*bad=*/1000);
    const Shape shape = gathered(src, c.axes, b);
    Array o1 = Array::empty(shape, Dtype::float32, Device::cpu());
    Array o2 = Array::empty(shape, Dtype::float32, Device::cpu());
    auto expected = cpu().gather(src, c.axes, idx, o1);
    auto got = emulated_gather(src, c.axes, idx, o2);
    ASSERT_TRUE(expected);
    ASSERT_TRUE(got);
    EXPECT_EQ(got->which, expected->which);
    EXPECT_EQ(got->value, expected->value);
  }
}

TEST(CudaGatherKernel, an_empty_block_still_checks_every_index) {
  Array src = random_array({4, 0}, Dtype::float32);
  Array idx = Array::from_vector(std::vector<int64_t>{1, -4, 4, 7}, {4}, Device::cpu());
  Array out = Array::empty({4, 0}, Dtype::float32, Device::cpu());
  const int axes[] = {0};
  auto fault = emulated_gather(src, axes, std::span<const Array>(&idx, 1), out);
  ASSERT_TRUE(fault);
  EXPECT_EQ(fault->which, 0);
  EXPECT_EQ(fault->value, 4);
}

TEST(CudaScatterKernel, repeated_indices_keep_the_last_value_like_the_cpu) {
  for (Dtype dt : {Dtype::uint8, Dtype::int32, Dtype::float64, Dtype::complex128}) {
    // 1-d: many repeats of few destinations, negative aliases included.
    Array dst1 = random_array({6}, dt), dst2 = accel::copy(dst1).eval();
    Array idx = index_array({200}, -6, 6);
    Array values = random_array({200}, dt);
    const int axes[] = {0};
    EXPECT_FALSE(cpu().scatter(dst1, axes, std::span<const Array>(&idx, 1), values));
    EXPECT_FALSE(emulated_scatter(dst2, axes, std::span<const Array>(&idx, 1), values));
    EXPECT_TRUE(same_bytes(dst1, dst2)) << accel::dtype_name(dt);
    // Rows of a transposed 2-d array, values broadcast along the block.
    Array base = random_array({7, 5}, dt);
    Array d1 = permuted(accel::copy(base).eval(), {1, 0}),
          d2 = permuted(accel::copy(base).eval(), {1, 0});
    Array rows = index_array({3, 4}, -5, 5);
    Array row_values = random_array({3, 4, 1}, dt);
    Array spread = Array::view_of(row_values, {3, 4, 7}, {4, 1, 0}, 0);
    EXPECT_FALSE(cpu().scatter(d1, axes, std::span<const Array>(&rows, 1), spread));
    EXPECT_FALSE(emulated_scatter(d2, axes, std::span<const Array>(&rows, 1), spread));
    EXPECT_TRUE(same_bytes(d1, d2)) << accel::dtype_name(dt);
  }
}

TEST(CudaScatterKernel, a_bad_index_writes_nothing_and_names_the_first) {
  Array dst = random_array({4, 3}, Dtype::float32), before = accel::copy(dst).eval();
  Array idx = Array::from_vector(std::vector<int64_t>{0, 2, -5, 1, 9}, {5}, Device::cpu());
  Array values = random_array({5, 3}, Dtype::float32);
  const int axes[] = {0};
  auto fault = emulated_scatter(dst, axes, std::span<const Array>(&idx, 1), values);
  ASSERT_TRUE(fault);
  EXPECT_EQ(fault->which, 0);
  EXPECT_EQ(fault->value, -5);
  EXPECT_TRUE(same_bytes(dst, before));
}

namespace {

// A random permutation of 0..n-1.
std::vector<int> shuffled(int n) {
  std::vector<int> p(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) p[static_cast<size_t>(i)] = i;
  std::shuffle(p.begin(), p.end(), rng);
  return p;
}

// x's values in an array of the same shape whose memory order is permuted.
Array scrambled(const Array& x) {
  const std::vector<int> perm = shuffled(x.ndim());
  Shape s;
  for (int p : perm) s.push_back(x.shape()[p]);
  Array base = Array::empty(s, x.dtype(), Device::cpu());
  std::vector<int> inverse(perm.size());
  for (size_t i = 0; i < perm.size(); ++i)
    inverse[static_cast<size_t>(perm[i])] = static_cast<int>(i);
  Array view = permuted(base, inverse);
  accel::assign(view, x);
  return view;
}

struct RandomCase {
  Array indexed;
  std::vector<int> axes;
  std::vector<Array> indices;  // broadcast to B
  Shape gathered_shape;
};

RandomCase random_case(Dtype dt) {
  std::uniform_int_distribution<int> len(1, 4), nd_dist(1, 4), coin(0, 1);
  RandomCase c;
  Shape shape;
  const int nd = nd_dist(rng);
  for (int d = 0; d < nd; ++d) shape.push_back(len(rng));
  c.indexed = scrambled(random_array(shape, dt));
  for (int d : shuffled(nd))
    if (c.axes.empty() || coin(rng)) c.axes.push_back(d);
  std::sort(c.axes.begin(), c.axes.end());
  Shape b;
  const int nb = std::uniform_int_distribution<int>(0, 3)(rng);
  for (int d = 0; d < nb; ++d) b.push_back(len(rng));
  for (int axis : c.axes) {
    Shape s = b;
    for (auto& x : s)
      if (coin(rng)) x = 1;  // broadcast along this axis of B
    const int64_t n = shape[axis];
    Array ix = scrambled(index_array(s, -n, n));
    c.indices.push_back(
        Array::view_of(ix, b, accel::broadcast_strides(s, ix.strides(), b), ix.offset()));
  }
  c.gathered_shape = gathered(c.indexed, c.axes, b);
  return c;
}

constexpr Dtype kWordDtypes[] = {Dtype::uint8, Dtype::int16, Dtype::float32, Dtype::complex64,
                                 Dtype::complex128};

}  // namespace

TEST(CudaGatherKernel, random_shapes_axes_and_layouts_match_the_cpu) {
  for (int trial = 0; trial < 200; ++trial) {
    const Dtype dt = kWordDtypes[trial % 5];
    RandomCase c = random_case(dt);
    Array expected = Array::empty(c.gathered_shape, dt, Device::cpu());
    Array got = scrambled(Array::empty(c.gathered_shape, dt, Device::cpu()));
    auto want_fault = cpu().gather(c.indexed, c.axes, c.indices, expected);
    auto got_fault = emulated_gather(c.indexed, c.axes, c.indices, got);
    ASSERT_FALSE(want_fault);
    ASSERT_FALSE(got_fault);
    ASSERT_TRUE(same_bytes(got, expected))
        << "trial " << trial << " " << accel::shape_str(c.indexed.shape());
  }
}

TEST(CudaScatterKernel, random_shapes_axes_and_layouts_match_the_cpu) {
  for (int trial = 0; trial < 200; ++trial) {
    const Dtype dt = kWordDtypes[trial % 5];
    RandomCase c = random_case(dt);
    Array dst1 = scrambled(c.indexed), dst2 = scrambled(c.indexed);
    Array values = scrambled(random_array(c.gathered_shape, dt));
    ASSERT_FALSE(cpu().scatter(dst1, c.axes, c.indices, values));
    ASSERT_FALSE(emulated_scatter(dst2, c.axes, c.indices, values));
    ASSERT_TRUE(same_bytes(dst1, dst2))
        << "trial " << trial << " " << accel::shape_str(c.indexed.shape());
  }
}
