// The CUDA random kernel (backend/cuda/random.cpp): philox.h's draw over a contiguous output,
// a grid-stride loop whose element i is draw(i) (normals: pair i, store_normal_pair) whatever
// the grid, so the result is the CPU's.
// Compiled by NVRTC after nvrtc_std.cuh and philox.h with -default-device --fmad=false.
#pragma once

template <class T>
__global__ void accel_random(T* out, long long n, const accel::philox::DrawParams p) {
  using namespace accel::philox;
  const long long stride = (long long)gridDim.x * blockDim.x;
  const long long first = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (p.distribution == kNormal) {
    const long long pairs = (long long)normal_pair_count(p.offset, (uint64_t)n);
    for (long long i = first; i < pairs; i += stride) store_normal_pair(out, n, p, i);
    return;
  }
  for (long long i = first; i < n; i += stride) {
    switch (p.distribution) {
      case kUniform:
        out[i] = draw<T, kUniform>(p, (uint64_t)i);
        break;
      case kExponential:
        out[i] = draw<T, kExponential>(p, (uint64_t)i);
        break;
      case kGamma:
        out[i] = draw<T, kGamma>(p, (uint64_t)i);
        break;
      default:
        out[i] = draw<T, kIntegers>(p, (uint64_t)i);
        break;
    }
  }
}
