// NVRTC compilation without a GPU: CUBIN and PTX output, shared memory and barriers, half
// precision headers, templates through name expressions, compile errors naming the line, and
// the kernel cache in front of the compiler.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

#include "accel/backend/cuda/compiler.h"
#include "accel/backend/cuda/driver.h"
#include "accel/backend/cuda/kernel_check.h"
#include "accel/backend/cuda/nvrtc.h"
#include "accel/runtime/errors.h"
#include "accel/runtime/kernel_cache.h"

namespace cu = accel::cuda;

namespace {

const char* kVectorAdd = R"(
extern "C" __global__ void vector_add(const float* a, const float* b, float* c, long long n) {
  long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}
)";

const char* kBlockSum = R"(
extern "C" __global__ void block_sum(const float* in, float* out, int n) {
  __shared__ float partial[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  partial[threadIdx.x] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s /= 2) {
    if (threadIdx.x < s) partial[threadIdx.x] += partial[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0) out[blockIdx.x] = partial[0];
}
)";

const char* kHalf = R"(
#include <cuda_fp16.h>
extern "C" __global__ void half_scale(__half* x, float factor, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = __float2half(__half2float(x[i]) * factor);
}
)";

const char* kTemplate = R"(
template <class T>
__global__ void axpy(T a, const T* x, T* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}
)";

bool is_elf(const std::string& image) { return image.size() > 4 && image.compare(0, 4, "\x7f" "ELF") == 0; }

// NVRTC is a build requirement of CI (the toolkit is installed there); say so when missing.
class CudaCompile : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string why = cu::nvrtc_unavailable_reason();
    ASSERT_TRUE(why.empty()) << why;
    cache_dir_ = std::filesystem::temp_directory_path() /
                 ("accel-compile-test-" + std::to_string(getpid()));
    setenv("ACCEL_CACHE_DIR", cache_dir_.c_str(), 1);
  }
  void TearDown() override { std::filesystem::remove_all(cache_dir_); }
  static cu::CompileOptions for_arch(const char* arch) {
    cu::CompileOptions o;
    o.arch = arch;
    o.use_cache = false;
    return o;
  }
  std::filesystem::path cache_dir_;
};

}  // namespace

TEST_F(CudaCompile, vector_add_compiles_to_a_cubin_for_sm_90) {
  auto m = cu::compile(kVectorAdd, for_arch("sm_90"));
  EXPECT_TRUE(m->cubin);
  EXPECT_TRUE(is_elf(m->image));
  EXPECT_EQ(m->arch, "sm_90");
}

TEST_F(CudaCompile, compute_arch_gives_ptx_text) {
  auto m = cu::compile(kVectorAdd, for_arch("compute_90"));
  EXPECT_FALSE(m->cubin);
  EXPECT_NE(m->image.find(".version"), std::string::npos);
  EXPECT_NE(m->image.find(".target sm_90"), std::string::npos);
  EXPECT_NE(m->image.find(".entry vector_add"), std::string::npos);
  EXPECT_EQ(m->image.back(), '\0');  // cuModuleLoadData needs the terminator
}

TEST_F(CudaCompile, shared_memory_and_barriers_compile) {
  auto m = cu::compile(kBlockSum, for_arch("compute_90"));
  EXPECT_NE(m->image.find(".shared"), std::string::npos);
  EXPECT_NE(m->image.find("bar.sync"), std::string::npos);
}

TEST_F(CudaCompile, half_precision_header_is_found) {
  EXPECT_FALSE(cu::nvrtc().include_dir.empty()) << "searched " << cu::nvrtc().include_dir_searched;
  auto m = cu::compile(kHalf, for_arch("sm_90"));
  EXPECT_TRUE(is_elf(m->image));
}

TEST_F(CudaCompile, template_instantiations_come_from_name_expressions) {
  auto o = for_arch("compute_90");
  o.name_expressions = {"axpy<float>", "axpy<double>"};
  auto m = cu::compile(kTemplate, o);
  ASSERT_EQ(m->lowered_names.size(), 2u);
  const std::string& f = m->lowered_names.at("axpy<float>");
  const std::string& d = m->lowered_names.at("axpy<double>");
  EXPECT_NE(f, d);
  EXPECT_EQ(f.rfind("_Z", 0), 0u) << f;  // a mangled C++ name
  EXPECT_NE(m->image.find(".entry " + f), std::string::npos);
  EXPECT_NE(m->image.find(".entry " + d), std::string::npos);
}

TEST_F(CudaCompile, syntax_error_names_the_line_and_shows_it) {
  const char* broken =
      "extern \"C\" __global__ void k(float* x) {\n"
      "  int i = threadIdx.x;\n"
      "  x[i] = undefined_value * 2;\n"
      "}\n";
  auto o = for_arch("sm_90");
  o.program_name = "broken.cu";
  try {
    cu::compile(broken, o);
    FAIL() << "expected a CompileError";
  } catch (const accel::CompileError& e) {
    std::string msg = e.what();
    EXPECT_NE(msg.find("[nvrtc] broken.cu failed to compile for sm_90"), std::string::npos) << msg;
    EXPECT_NE(msg.find("undefined_value"), std::string::npos) << msg;  // the log
    EXPECT_NE(msg.find("broken.cu:3 |   x[i] = undefined_value * 2;"), std::string::npos) << msg;
  }
}

TEST_F(CudaCompile, options_reach_the_compiler) {
  const char* src = "extern \"C\" __global__ void k(int* x) { x[0] = VALUE; }\n";
  auto o = for_arch("compute_90");
  EXPECT_THROW(cu::compile(src, o), accel::CompileError);
  o.options = {"-DVALUE=1234567"};
  EXPECT_NE(cu::compile(src, o)->image.find("1234567"), std::string::npos);
}

TEST_F(CudaCompile, unknown_architecture_is_a_value_error) {
  EXPECT_THROW(cu::compile(kVectorAdd, for_arch("gfx90a")), accel::ValueError);
}

TEST_F(CudaCompile, second_compile_hits_memory_then_disk_after_memory_is_cleared) {
  accel::KernelCache::instance().clear();
  std::string src = std::string(kVectorAdd) + "// unique " + std::to_string(getpid()) + "\n";
  cu::CompileOptions o;
  o.arch = "sm_90";
  auto before = cu::compile_stats();
  auto first = cu::compile(src, o);
  auto second = cu::compile(src, o);
  EXPECT_EQ(first.get(), second.get());
  cu::clear_compile_memory_cache();
  auto third = cu::compile(src, o);
  EXPECT_EQ(third->image, first->image);
  auto after = cu::compile_stats();
  EXPECT_EQ(after.compiles - before.compiles, 1u);
  EXPECT_EQ(after.memory_hits - before.memory_hits, 1u);
  EXPECT_EQ(after.disk_hits - before.disk_hits, 1u);
}

TEST_F(CudaCompile, compile_target_uses_ptx_for_a_device_newer_than_nvrtc) {
  const auto& archs = cu::nvrtc().archs;
  ASSERT_FALSE(archs.empty());
  EXPECT_EQ(cu::compile_target_for(90), "sm_90");
  EXPECT_EQ(cu::compile_target_for(archs.back() + 10), "compute_" + std::to_string(archs.back()));
  EXPECT_THROW(cu::compile_target_for(archs.front() - 1), accel::BackendUnavailable);
}

TEST(CudaDriver, without_a_driver_the_reason_says_what_to_install) {
  std::string why = cu::driver_unavailable_reason();
  if (why.empty()) GTEST_SKIP() << "this machine has a usable CUDA driver";
  EXPECT_NE(why.find("libcuda.so.1"), std::string::npos) << why;
  EXPECT_THROW(cu::driver(), accel::BackendUnavailable);
}

// Checked mode's NVRTC build: the CPU's transformation over the GPU's Checked<T>.
TEST_F(CudaCompile, checked_sources_compile_for_sm_90_with_their_error_record) {
  for (const char* source : {kVectorAdd, kBlockSum, kHalf}) {
    const cu::CheckedSource c = cu::checked_cuda_source(source, "kernel.cu");
    auto m = cu::compile(c.text, for_arch("compute_90"));
    EXPECT_NE(m->image.find(".global .align 8 .b8 accel_check_record[48]"), std::string::npos) << m->image;
    EXPECT_TRUE(is_elf(cu::compile(c.text, for_arch("sm_90"))->image));
  }
  auto o = for_arch("sm_90");
  o.name_expressions = {"axpy<float>"};
  EXPECT_TRUE(is_elf(cu::compile(cu::checked_cuda_source(kTemplate, "kernel.cu").text, o)->image));
}

TEST_F(CudaCompile, checked_source_names_the_pointer_parameters_of_each_kernel) {
  EXPECT_EQ(cu::checked_cuda_source(kVectorAdd, "k.cu").checked_parameters.at("vector_add"),
            (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(cu::checked_cuda_source(kTemplate, "k.cu").checked_parameters.at("axpy"),
            (std::vector<int>{1, 2}));
  // The user's lines keep their numbers: an error names line 3 of the program.
  try {
    cu::compile(cu::checked_cuda_source("\n\nextern \"C\" __global__ void f(int* x) { x[0] = y; }\n",
                                        "broken.cu").text, for_arch("compute_90"));
    FAIL() << "compiled";
  } catch (const accel::CompileError& e) {
    EXPECT_NE(std::string(e.what()).find("broken.cu(3)"), std::string::npos) << e.what();
    // and the excerpt shows that line of the user's source (as compiled: its pointer parameter
    // checked), not line 3 of the checked prelude
    const std::string msg = e.what();
    const size_t at = msg.find("\n  broken.cu:3 | extern \"C\" __global__ void f(");
    ASSERT_NE(at, std::string::npos) << msg;
    EXPECT_NE(msg.find("x[0] = y; }", at), std::string::npos) << msg;
  }
}

TEST(CudaCheckRecord, decodes_to_the_cpus_words_for_an_out_of_bounds_index) {
  AccelCheckRecord r{1, 2, 100, 100, {1, 0, 3}, {36, 0, 0}};
  EXPECT_EQ(cu::describe_check_record(r, "copy_off_by_one"),
            "kernel copy_off_by_one, block (1, 0, 3), thread (36, 0, 0): index 100 is out of bounds "
            "for argument 2 (100 elements)");
  r.index = -1;
  r.size = 4000000000LL;
  EXPECT_NE(cu::describe_check_record(r, "k").find("index -1 is out of bounds for argument 2 "
                                                   "(4000000000 elements)"),
            std::string::npos);
}
