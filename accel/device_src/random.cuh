// The CUDA random kernel (backend/cuda/random.cpp): philox.h's draw over a contiguous output,
// a grid-stride loop whose element i is draw(i) whatever the grid, so the result is the CPU's.
// Compiled by NVRTC after nvrtc_std.cuh and philox.h with -default-device --fmad=false.
#pragma once

template <class T>
__global__ void accel_random(T* out, long long n, const accel::philox::DrawParams p) {
  using namespace accel::philox;
  const long long stride = (long long)gridDim.x * blockDim.x;
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
    switch (p.distribution) {
      case kUniform:
        out[i] = draw<T, kUniform>(p, (uint64_t)i);
        break;
      case kNormal:
        out[i] = draw<T, kNormal>(p, (uint64_t)i);
        break;
      case kExponential:
        out[i] = draw<T, kExponential>(p, (uint64_t)i);
        break;
      default:
        out[i] = draw<T, kIntegers>(p, (uint64_t)i);
        break;
    }
  }
}
