// Vector add through accel's C++ API: one CUDA C++ kernel, the five steps every GPU program takes
// (DESIGN.md), each printed as it happens, run on the CPU (compiled by the host C++ compiler) and
// on an NVIDIA GPU when there is one (NVRTC), each result checked on the host. Without a GPU it
// says why and still compiles the kernel with NVRTC (which needs no GPU).
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

static int64_t five_steps(const accel::RawKernel& kernel, accel::Device device, unsigned blocks,
                          const std::vector<float>& a, const std::vector<float>& b) {
  const int64_t n = static_cast<int64_t>(a.size());
  std::printf("on %s:\n", device.str().c_str());
  // 1. allocate (from accel's caching allocator for the device)
  accel::Array c = accel::Array::empty({n}, accel::float32, device);
  std::printf("  1. allocate: %s\n", c.describe().c_str());
  // 2. copy the inputs in
  accel::Array da = accel::Array::from_vector(a, {n}, device);
  accel::Array db = accel::Array::from_vector(b, {n}, device);
  std::printf("  2. copy in:  2 x %.1f MiB from the host\n", n * 4 / 1048576.0);
  // 3. run: compiled on first use (and cached on disk), then launched where the arrays live
  const unsigned threads = 256;
  kernel({blocks}, {threads}, da, db, c, static_cast<long long>(n));
  std::printf("  3. run:      vector_add<<<%u, %u>>>\n", blocks, threads);
  // 4. copy the result out
  std::vector<float> result = c.to_vector<float>();
  std::printf("  4. copy out: %.1f MiB to the host\n", n * 4 / 1048576.0);
  int64_t wrong = 0;
  for (int64_t i = 0; i < n; ++i) wrong += result[i] != a[i] + b[i];
  std::printf("     check:    %lld of %lld elements wrong\n", static_cast<long long>(wrong),
              static_cast<long long>(n));
  // 5. free: the arrays return their blocks to the pool, and free_cached() to the system
  da = db = c = accel::Array();
  accel::MemoryStats before = accel::backend_for(device).memory_stats();
  accel::backend_for(device).free_cached();
  std::printf("  5. free:     %.1f MiB cached by the pool released\n", before.cached / 1048576.0);
  return wrong;
}

int main() {
  const int64_t n = 1 << 24;
  std::vector<float> a(n), b(n);
  for (int64_t i = 0; i < n; ++i) {
    a[i] = std::sin(static_cast<float>(i));
    b[i] = std::cos(static_cast<float>(i));
  }
  accel::RawKernel kernel(kSource, "vector_add");
  int64_t wrong = five_steps(kernel, accel::Device::cpu(), 1024, a, b);

  if (cu::is_available()) {
    const cu::DeviceProperties& props = cu::device_properties(0);
    std::printf("device: %s (compute capability %d.%d, %d SMs)\n", props.name.c_str(), props.major,
                props.minor, props.multiprocessor_count);
    wrong += five_steps(kernel, accel::Device::cuda(0),
                        static_cast<unsigned>(props.multiprocessor_count) * 8, a, b);
  } else {
    std::printf("\nCUDA is not usable here, so the kernel ran on the CPU only:\n%s\n\n",
                cu::driver_unavailable_reason().c_str());
    if (std::string why = cu::nvrtc_unavailable_reason(); !why.empty()) {
      std::printf("NVRTC is not available either, so nothing was compiled for a GPU:\n%s\n",
                  why.c_str());
    } else {
      cu::CompileOptions options;
      options.arch = "sm_90";  // no device to ask: compile for an H100/H200
      auto module = cu::compile(kSource, options);
      std::printf("compiled vector_add with NVRTC %s for %s: %zu bytes of CUBIN\n",
                  cu::nvrtc().version_string().c_str(), module->arch.c_str(), module->image.size());
    }
  }
  return wrong == 0 ? 0 : 1;
}
