// Barrier splitting (backend/cpu/barrier_split.h): which kernels are split into loops over
// threads, and that every other shape keeps the whole module on fibers. The split kernels' results
// are compared with NumPy in tests/python/test_raw_kernel_cpu.py and test_raw_kernel_launch.py.
#include "accel/backend/cpu/barrier_split.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace {

using accel::cpu::split_at_barriers;

std::vector<std::string> split_names(const std::string& body, const std::string& params = "float* x, int n") {
  return split_at_barriers("extern \"C\" __global__ void k(" + params + ") {\n" + body + "\n}\n", "k.cu")
      .kernels;
}

TEST(BarrierSplit, BarriersAtTopLevelAndInUniformLoopsAndBranchesSplit) {
  const std::vector<std::string> k = {"k"};
  EXPECT_EQ(split_names("__shared__ float s[256]; int t = threadIdx.x; s[t] = x[t]; __syncthreads(); x[t] = s[255 - t];"), k);
  EXPECT_EQ(split_names("float acc = 0; for (int i = 0; i < n; i += 16) { acc += x[i]; __syncthreads(); } x[0] = acc;"), k);
  EXPECT_EQ(split_names("const int half = blockDim.x / 2; if (n > half) { __syncthreads(); } else __syncthreads();"), k);
  EXPECT_EQ(split_names("for (unsigned a = 2; a <= n; a <<= 1) for (unsigned b = a >> 1; b > 0; b >>= 1) __syncthreads();"), k);
  // An early return is a per-thread exit; uniform loops may reuse a variable name.
  EXPECT_EQ(split_names("if (threadIdx.x >= n) return; for (int d = 1; d < 4; ++d) __syncthreads();"
                        " for (int d = 4; d > 0; --d) __syncthreads();"), k);
}

TEST(BarrierSplit, WhatCannotBeProvenUniformKeepsFibers) {
  const char* bodies[] = {
      "if (threadIdx.x < 5) __syncthreads();",                           // divergent barrier
      "int t = threadIdx.x; for (int i = t; i < n; ++i) __syncthreads();",  // thread-dependent loop
      "for (int i = 0; i < n; ++i) { if (x[i] > 0) break; __syncthreads(); }",  // break across a barrier
      "n -= 1; __syncthreads();",                                        // a parameter assigned
      "__syncthreads_count(1);",                                         // a barrier with a value
      "x[0] = __shfl_sync(0xffffffffu, x[0], 0); __syncthreads();",      // a warp function
      "auto v = x[threadIdx.x]; __syncthreads(); x[0] = v;",             // auto across a barrier
      "float v[2] = {1, 2}; __syncthreads(); x[0] = v[1];",              // an array across a barrier
      "int i = 0; while (i < n) { __syncthreads(); ++i; }",              // only `for` loops split
      "for (int i = 0; i < n; ++i) { if (i == x[0]) __syncthreads(); }", // a branch on memory
      "do { __syncthreads(); } while (n > 0);",
  };
  for (const char* body : bodies) EXPECT_TRUE(split_names(body).empty()) << body;
}

TEST(BarrierSplit, ABarrierOutsideASplittableKernelKeepsTheWholeModuleOnFibers) {
  const std::string ok = "extern \"C\" __global__ void a(float* x) { x[0] = 1; __syncthreads(); x[1] = 2; }\n";
  EXPECT_EQ(split_at_barriers(ok, "k.cu").kernels, std::vector<std::string>{"a"});
  EXPECT_TRUE(split_at_barriers(ok, "k.cu").all_barriers_split);
  const std::string in_device_function = "__device__ void sync() { __syncthreads(); }\n" + ok;
  EXPECT_TRUE(split_at_barriers(in_device_function, "k.cu").kernels.empty());
  const std::string in_template =
      ok + "template <class T> __global__ void t(T* x) { __syncthreads(); }\n";
  EXPECT_TRUE(split_at_barriers(in_template, "k.cu").kernels.empty());
  // Macros that mention threadIdx are not uniform.
  const std::string macro =
      "#define TID threadIdx.x\nextern \"C\" __global__ void m(float* x) { if (TID < 3) __syncthreads(); }\n";
  EXPECT_TRUE(split_at_barriers(macro, "k.cu").kernels.empty());
}

TEST(BarrierSplit, TheRewrittenKernelLoopsOverThreadsAndKeepsLineNumbers) {
  const auto s = split_at_barriers(
      "extern \"C\" __global__ void k(float* x) {\n"
      "  float v = x[threadIdx.x];\n"
      "  __syncthreads();\n"
      "  x[threadIdx.x] = v;\n"
      "}\n"
      "// after\n",
      "k.cu");
  ASSERT_EQ(s.kernels, std::vector<std::string>{"k"});
  EXPECT_EQ(s.text.find("__syncthreads"), std::string::npos);
  EXPECT_NE(s.text.find("accel_ptls_v[1024]"), std::string::npos);  // v crosses the barrier
  EXPECT_NE(s.text.find("#line 4 \"k.cu\""), std::string::npos);
  EXPECT_NE(s.text.find("#line 5 \"k.cu\"\n\n// after"), std::string::npos);
}

}  // namespace

// Block- and grid-stride loops are interleaved (a round of iterations at a time, one per
// thread); other loops, and stride loops that can leave early, run thread after thread.
TEST(BarrierSplit, StrideLoopsAreInterleaved) {
  auto interleaved = [](const std::string& loop) {
    const std::string text = "extern \"C\" __global__ void k(float* x, int n) {\n__shared__ float s[64];\n" +
                             loop + "\n__syncthreads();\n}\n";
    const auto split = split_at_barriers(text, "k.cu");
    EXPECT_EQ(split.kernels, std::vector<std::string>{"k"}) << loop;
    return split.text.find("accel_more_") != std::string::npos;
  };
  EXPECT_TRUE(interleaved("for (int i = threadIdx.x; i < n; i += blockDim.x) x[i] += 1;"));
  EXPECT_TRUE(interleaved("for (long long i = blockIdx.x * blockDim.x + threadIdx.x; i < n;"
                          " i += (long long)blockDim.x * gridDim.x) { if (x[i] < 0) continue; x[i] = 0; }"));
  EXPECT_FALSE(interleaved("for (int i = threadIdx.x; i < n; ++i) x[i] += 1;"));             // not a stride
  EXPECT_FALSE(interleaved("for (int i = threadIdx.x; i < n; i += 64) x[i] += 1;"));         // no block size
  EXPECT_FALSE(interleaved("for (int i = threadIdx.x; i < n; i += blockDim.x + threadIdx.x) x[i] = 1;"));
  EXPECT_FALSE(interleaved("for (int i = threadIdx.x; i < n; i += blockDim.x) { if (x[i]) break; }"));
  EXPECT_FALSE(interleaved("for (int i = threadIdx.x; i++ < n; i += blockDim.x) x[i] = 1;"));  // a write in the test
}
