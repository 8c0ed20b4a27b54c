// Vector add on an NVIDIA GPU through accel's C++ API: the five steps every GPU program takes
// (DESIGN.md), each printed as it happens, and the result checked on the host.
// Without a GPU it says why, still compiles the kernel with NVRTC (which needs no GPU), and
// exits 0.
#include <accel/accel.h>

#include <cmath>
#include <cstdio>
#include <vector>

namespace cu = accel::cuda;

static const char* kSource = R"(
extern "C" __global__ void vector_add(const float* a, const float* b, float* c, long long n) {
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n;
       i += (long long)gridDim.x * blockDim.x)
    c[i] = a[i] + b[i];
}
)";

int main() {
  if (!cu::is_available()) {
    std::printf("CUDA is not usable here, so the kernel will not run:\n%s\n\n",
                cu::driver_unavailable_reason().c_str());
    if (std::string why = cu::nvrtc_unavailable_reason(); !why.empty()) {
      std::printf("NVRTC is not available either, so nothing can be compiled:\n%s\n", why.c_str());
      return 0;
    }
    cu::CompileOptions options;
    options.arch = "sm_90";  // no device to ask: compile for an H100/H200
    auto module = cu::compile(kSource, options);
    std::printf("compiled vector_add with NVRTC %s for %s: %zu bytes of CUBIN\n",
                cu::nvrtc().version_string().c_str(), module->arch.c_str(), module->image.size());
    return 0;
  }

  const int64_t n = 1 << 24;
  const auto gpu = accel::Device::cuda(0);
  const cu::DeviceProperties& props = cu::device_properties(0);
  std::printf("device: %s (compute capability %d.%d, %d SMs)\n", props.name.c_str(), props.major,
              props.minor, props.multiprocessor_count);

  std::vector<float> a(n), b(n);
  for (int64_t i = 0; i < n; ++i) {
    a[i] = std::sin(static_cast<float>(i));
    b[i] = std::cos(static_cast<float>(i));
  }

  // 1. allocate device memory (from accel's caching allocator)
  accel::Array c = accel::Array::empty({n}, accel::float32, gpu);
  std::printf("1. allocate: %s\n", c.describe().c_str());

  // 2. copy the inputs in
  accel::Array da = accel::Array::from_vector(a, {n}, gpu);
  accel::Array db = accel::Array::from_vector(b, {n}, gpu);
  std::printf("2. copy in:  2 x %.1f MiB host -> device\n", n * 4 / 1048576.0);

  // 3. run: compile with NVRTC (cached on disk after the first run) and launch
  cu::Kernel kernel = cu::raw_kernel(kSource, "vector_add");
  cu::KernelArgs args;
  args.add(da).add(db).add(c).add(static_cast<long long>(n));
  const unsigned threads = 256;
  const unsigned blocks = static_cast<unsigned>(props.multiprocessor_count) * 8;
  kernel({blocks}, {threads}, args);
  cu::synchronize_device(0);
  std::printf("3. run:      vector_add<<<%u, %u>>> compiled for %s\n", blocks, threads,
              cu::compile_target(0).c_str());

  // 4. copy the result out
  std::vector<float> result = c.to_vector<float>();
  std::printf("4. copy out: %.1f MiB device -> host\n", n * 4 / 1048576.0);
  int64_t wrong = 0;
  for (int64_t i = 0; i < n; ++i) wrong += result[i] != a[i] + b[i];
  std::printf("   check:    %lld of %lld elements wrong\n", static_cast<long long>(wrong),
              static_cast<long long>(n));

  // 5. free: the arrays return their blocks to the pool, and free_cached() to the device
  da = db = c = accel::Array();
  accel::MemoryStats before = accel::backend_for(gpu).memory_stats();
  accel::backend_for(gpu).free_cached();
  std::printf("5. free:     %.1f MiB cached by the pool returned to the device\n",
              before.cached / 1048576.0);
  return wrong == 0 ? 0 : 1;
}
