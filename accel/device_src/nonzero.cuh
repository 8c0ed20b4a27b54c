// CUDA nonzero in two passes over the same chunks (NonzeroParams, reduce_params.h): count the
// nonzero elements of each block's chunk; then, once the host has turned the counts into
// offsets and sized the output, each block writes its coordinates in C order from its offset.
// "Nonzero" is scalar::convert<bool>: NaN is nonzero, -0.0 is zero.
#pragma once

namespace accel::kernels {

template <class T> inline bool nonzero_at(const NonzeroParams& p, int64_t i) {
  return scalar::convert<bool>(
      reinterpret_cast<const T*>(p.in)[offset_of(i, p.ndim, p.size, p.stride)]);
}

template <class T>
__global__ void __launch_bounds__(kThreads) nonzero_count(const __grid_constant__ NonzeroParams p) {
  using Counts = int64_t[kThreads];
  ACCEL_SHARED(Counts, counts);
  const int t = static_cast<int>(threadIdx.x);
  const int64_t begin = blockIdx.x * p.chunk;
  const int64_t end = begin + p.chunk < p.total ? begin + p.chunk : p.total;
  int64_t n = 0;
  for (int64_t i = begin + t; i < end; i += kThreads) n += nonzero_at<T>(p, i);
  counts[t] = n;
  for (int w = kThreads / 2; w > 0; w /= 2) {
    __syncthreads();
    if (t < w) counts[t] += counts[t + w];
  }
  if (t == 0) p.counts[blockIdx.x] = counts[0];
}

template <class T>
__global__ void __launch_bounds__(kThreads) nonzero_write(const __grid_constant__ NonzeroParams p) {
  using Ranks = int64_t[kThreads];
  ACCEL_SHARED(Ranks, ranks);
  const int t = static_cast<int>(threadIdx.x);
  const int64_t begin = blockIdx.x * p.chunk;
  const int64_t end = begin + p.chunk < p.total ? begin + p.chunk : p.total;
  int64_t slot = p.counts[blockIdx.x];  // where this block's first coordinate goes
  for (int64_t start = begin; start < end; start += kThreads) {
    const int64_t i = start + t;
    const bool hit = i < end && nonzero_at<T>(p, i);
    ranks[t] = hit;
    __syncthreads();
    for (int d = 1; d < kThreads; d *= 2) {  // inclusive prefix counts (Hillis-Steele)
      const int64_t v = t >= d ? ranks[t - d] + ranks[t] : ranks[t];
      __syncthreads();
      ranks[t] = v;
      __syncthreads();
    }
    if (hit) {
      const int64_t at = slot + ranks[t] - 1;
      int64_t rest = i;
      for (int d = p.ndim - 1; d >= 0; --d) p.out[d * p.found + at] = divmod(rest, p.size[d], rest);
    }
    slot += ranks[kThreads - 1];
    __syncthreads();  // ranks are rewritten for the next step
  }
}

}  // namespace accel::kernels
