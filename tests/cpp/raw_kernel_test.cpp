// User kernels on the CPU: the source preparation (no compiler needed) and accel::RawKernel
// launched on CPU arrays (with the host compiler), against plain C++ results.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <numeric>
#include <string>
#include <vector>

#include "accel/accel.h"
#include "accel/backend/cpu/host_compiler.h"
#include "accel/backend/cpu/raw_kernel_source.h"

namespace {

using accel::cpu::prepare_cuda_source;

size_t lines(const std::string& s) { return static_cast<size_t>(std::count(s.begin(), s.end(), '\n')); }

TEST(RawKernelSource, ExternSharedBecomesDynamicSharedMemoryAtEachScope) {
  const std::string src =
      "extern __shared__ float outer[];\n"
      "namespace n { extern \"C\" { extern __shared__ int in_block[]; } }\n"
      "__global__ void k(float* x) {\n"
      "  extern __shared__ __align__(16)\n  double inner[];\n"
      "  x[0] = inner[0] + outer[0];\n"
      "}\n";
  const auto p = prepare_cuda_source(src, "k.cu");
  EXPECT_NE(p.text.find("static ::accel_simt::DynamicShared<float> outer;"), std::string::npos);
  EXPECT_NE(p.text.find("static ::accel_simt::DynamicShared<int> in_block;"), std::string::npos);
  EXPECT_NE(p.text.find("double* inner = reinterpret_cast<double*>(::accel_simt::dynamic_shared());"),
            std::string::npos);
  EXPECT_EQ(lines(p.text), lines(src));  // compiler messages keep the user's line numbers
  EXPECT_EQ(p.kernels, std::vector<std::string>{"k"});
  EXPECT_FALSE(p.fibers);
}

TEST(RawKernelSource, ProvidedIncludesAreBlankedOthersKept) {
  const std::string src = "#include <cuda_fp16.h>\n  # include \"cassert\"\n#include <climits>\n";
  const auto p = prepare_cuda_source(src, "k.cu");
  EXPECT_EQ(p.text, "\n\n#include <climits>\n");
}

TEST(RawKernelSource, BarriersAndWarpFunctionsSelectFibers) {
  for (const char* call : {"__syncthreads()", "__syncthreads_count(1)", "__shfl_down_sync(~0u, v, 1)",
                           "__ballot_sync(~0u, 1)", "__syncwarp()"}) {
    const auto p = prepare_cuda_source(std::string("__global__ void k(int v) { ") + call + "; }", "k.cu");
    EXPECT_TRUE(p.fibers) << call;
  }
  const auto p = prepare_cuda_source("// __syncthreads() only in a comment\n__global__ void k() {}", "k.cu");
  EXPECT_FALSE(p.fibers);
}

TEST(RawKernelSource, KernelNamesSkipTemplatesAndLaunchBounds) {
  const auto p = prepare_cuda_source(
      "template <class T> __global__ void t(T* x) {}\n"
      "extern \"C\" __global__ void __launch_bounds__(256, 2) bounded(float* x) {}\n"
      "__global__ void plain() {}\n"
      "namespace ns { __global__ void __launch_bounds__(K) inner() {} }\n"
      "extern \"C\" { __global__ void __launch_bounds__((N * 2)) in_block() {} }\n",
      "k.cu");
  EXPECT_EQ(p.kernels, (std::vector<std::string>{"bounded", "plain", "inner", "in_block"}));
  // The launcher evaluates the bounds at global scope: kernels in a namespace have none read.
  EXPECT_EQ(p.launch_bounds, (std::map<std::string, std::string>{{"bounded", "256, 2"},
                                                                 {"in_block", "(N * 2)"}}));
}

TEST(RawKernelSource, WhatTheCpuCannotRunIsACompileErrorNamingTheLine) {
  const std::pair<const char*, const char*> cases[] = {
      {"asm(\"trap;\");", "k.cu:2] inline PTX"},
      {"surf2Dwrite(v, s, 0, 0);", "k.cu:2] textures and surfaces"},
      {"cudaTextureObject_t t;", "k.cu:2] textures and surfaces"},
      {"grid.sync(); auto g = cooperative_groups::this_grid();", "k.cu:2] grid-wide cooperative"},
      {"other<<<1, 1>>>();", "k.cu:2] a kernel launching kernels"},
  };
  for (const auto& [line, message] : cases) {
    try {
      prepare_cuda_source(std::string("__global__ void k() {\n") + line + "\n}\n", "k.cu");
      ADD_FAILURE() << "no error for " << line;
    } catch (const accel::CompileError& e) {
      EXPECT_NE(std::string(e.what()).find(message), std::string::npos) << e.what();
    }
  }
}

bool have_compiler() { return accel::cpu::host_compiler_identity().rfind("no C++ compiler", 0) != 0; }

const char* kSource = R"(
extern "C" __global__ void scan_blocks(const int* x, int* out, int n) {
  __shared__ int s[128];
  int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  s[t] = i < n ? x[i] : 0;
  __syncthreads();
  for (int d = 1; d < blockDim.x; d *= 2) {      // Hillis-Steele inclusive scan
    int v = t >= d ? s[t - d] : 0;
    __syncthreads();
    s[t] += v;
    __syncthreads();
  }
  if (i < n) out[i] = s[t];
}
constexpr int kBound = 32;
extern "C" __global__ void __launch_bounds__(kBound) bounded(int* x) { x[threadIdx.x] = 1; }
extern "C" __global__ void positive(const int* x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) assert(x[i] >= 0);
}
)";

// A cache directory of its own, so the test compiles and stores like a first run.
struct CacheDir {
  std::filesystem::path path = std::filesystem::temp_directory_path() /
                               ("accel-raw-kernel-test-" + std::to_string(getpid()));
  CacheDir() { setenv("ACCEL_CACHE_DIR", path.c_str(), 1); }
  ~CacheDir() { std::filesystem::remove_all(path); }
};

TEST(RawKernelCpu, BlockScanWithBarriersMatchesAPrefixSum) {
  if (!have_compiler()) GTEST_SKIP() << accel::cpu::host_compiler_identity();
  CacheDir cache;
  const int n = 1000;
  std::vector<int> x(n);
  for (int i = 0; i < n; ++i) x[i] = (i * 7919) % 23 - 5;
  accel::Array in = accel::Array::from_vector(x, {n});
  accel::Array out = accel::zeros({n}, accel::int32);
  accel::RawKernel scan(kSource, "scan_blocks");
  scan({(n + 127) / 128}, {128}, in, out, n);
  std::vector<int> got = out.to_vector<int>(), want(n);
  for (int b = 0; b < n; b += 128)
    std::inclusive_scan(x.begin() + b, x.begin() + std::min(n, b + 128), want.begin() + b);
  EXPECT_EQ(got, want);
}

TEST(RawKernelCpu, FailedAssertNamesKernelBlockAndThread) {
  if (!have_compiler()) GTEST_SKIP() << accel::cpu::host_compiler_identity();
  CacheDir cache;
  std::vector<int> x(300, 1);
  x[130] = -1;
  accel::Array in = accel::Array::from_vector(x, {300});
  accel::RawKernel positive(kSource, "positive");
  try {
    positive({3}, {100}, in, 300);
    FAIL() << "no error";
  } catch (const accel::KernelAssertionError& e) {
    EXPECT_NE(std::string(e.what()).find("kernel positive, block (1, 0, 0), thread (30, 0, 0): "
                                         "assertion `x[i] >= 0` failed"),
              std::string::npos)
        << e.what();
  }
  try {
    positive({3}, {100}, in, (long long)300);  // an 8-byte scalar for the int parameter
    FAIL() << "no error";
  } catch (const accel::LaunchError& e) {
    EXPECT_NE(std::string(e.what()).find("parameter 1 is a 4-byte signed integer, but argument 1 "
                                         "is a int64 scalar"),
              std::string::npos)
        << e.what();
  }
}

TEST(RawKernelCpu, LaunchBoundsAreHonouredAsOnAGpu) {
  if (!have_compiler()) GTEST_SKIP() << accel::cpu::host_compiler_identity();
  CacheDir cache;
  accel::Array x = accel::zeros({64}, accel::int32);
  accel::RawKernel bounded(kSource, "bounded");
  bounded({1}, {32}, x);
  EXPECT_EQ(x.to_vector<int>()[31], 1);
  try {
    bounded({1}, {33}, x);
    FAIL() << "no error";
  } catch (const accel::LaunchError& e) {
    EXPECT_NE(std::string(e.what()).find("block (33, 1, 1) has 33 threads, but the kernel declares "
                                         "__launch_bounds__(32)"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
