// The CUDA interp kernel: interp_point (interp.h, compiled before this file in the same NVRTC
// source) at every x, over a grid-stride loop; one thread per value of x.
#pragma once

namespace accel::kernels {

__global__ void __launch_bounds__(kThreads) interp_values(const __grid_constant__ InterpParams p) {
  const int64_t step = int64_t(gridDim.x) * kThreads;
  for (int64_t k = int64_t(blockIdx.x) * kThreads + threadIdx.x; k < p.count; k += step)
    interp_point(p.x[k], p.xp, p.fp, p.n, p.components, interp_end(p, false), interp_end(p, true),
                 p.out + k * p.components);
}

}  // namespace accel::kernels
