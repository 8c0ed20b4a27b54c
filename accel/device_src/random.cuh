// The CUDA random kernel (backend/cuda/random.cpp): philox.h's draw over a contiguous output,
// a grid-stride loop whose element i is draw(i) (normals: pair i, store_normal_pair) whatever
// the grid, so the result is the CPU's. `first` and `second` are the per-element parameters
// (DrawParams::per_element), null when the parameters are the same for every element.
// Compiled by NVRTC after nvrtc_std.cuh and philox.h with -default-device --fmad=false.
#pragma once

template <class T>
__global__ void accel_random(T* out, long long n, accel::philox::DrawParams p,
                             const double* first, const double* second) {
  using namespace accel::philox;
  p.per_element[0] = first;
  p.per_element[1] = second;
  const long long stride = (long long)gridDim.x * blockDim.x;
  const long long start = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (p.distribution == kNormal) {
    const long long pairs = (long long)normal_pair_count(p.offset, (uint64_t)n);
    for (long long i = start; i < pairs; i += stride) store_normal_pair(out, n, p, i);
    return;
  }
  for (long long i = start; i < n; i += stride) {
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

// Counts (Poisson, binomial) in a kernel of their own: their rejection loops take more
// registers than the other draws, which should not pay for them.
// low occupancy (accel_random_counts): up to 72 registers (the two rejection loops' state);
// each element costs a hundred Philox rounds or more, which keep the ALUs busy without more
// warps to hide memory latency.
__global__ void accel_random_counts(long long* out, long long n, accel::philox::DrawParams p,
                                    const double* first, const double* second) {
  using namespace accel::philox;
  p.per_element[0] = first;
  p.per_element[1] = second;
  const long long stride = (long long)gridDim.x * blockDim.x;
  const long long start = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  for (long long i = start; i < n; i += stride)
    out[i] = p.distribution == kPoisson ? draw<long long, kPoisson>(p, (uint64_t)i)
                                        : draw<long long, kBinomial>(p, (uint64_t)i);
}
