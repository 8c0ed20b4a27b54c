"""A shared-memory kernel with accel.RawKernel: a block-wise tree reduction (each block sums
its slice in __shared__ memory between __syncthreads barriers, then adds its total atomically),
run from the same source on the CPU and, when there is one, on an NVIDIA GPU."""

import sys

import numpy as np

import accel

SOURCE = r"""
extern "C" __global__ void block_sum(const float* x, float* total, long long n) {
  extern __shared__ float partial[];   // blockDim.x floats: the launch's shared_mem
  int t = threadIdx.x;
  float acc = 0.0f;
  for (long long i = blockIdx.x * (long long)blockDim.x + t; i < n; i += (long long)gridDim.x * blockDim.x)
    acc += x[i];
  partial[t] = acc;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (t < s) partial[t] += partial[t + s];
    __syncthreads();
  }
  if (t == 0) atomicAdd(total, partial[0]);
}
"""


def main():
    x = np.random.default_rng(0).random(1 << 22, dtype=np.float32)
    kernel = accel.RawKernel(SOURCE, "block_sum")
    devices = ["cpu"] + (["cuda"] if accel.cuda.is_available() else [])
    worst = 0.0
    for device in devices:
        total = accel.zeros(1, dtype=accel.float32, device=device)
        kernel((64,), (256,), (accel.asarray(x, device=device), total, np.int64(x.size)),
               shared_mem=256 * 4)
        got, want = float(accel.asnumpy(total)[0]), float(x.sum(dtype=np.float64))
        worst = max(worst, abs(got - want) / want)
        print(f"{device}: sum = {got:.1f} (NumPy, float64: {want:.1f})")
    return 0 if worst < 1e-5 else 1


if __name__ == "__main__":
    sys.exit(main())
