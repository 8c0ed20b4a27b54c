"""Vector add with accel.RawKernel: one CUDA C++ source, the five steps every GPU program takes,
run on the CPU (compiled by the host C++ compiler) and on an NVIDIA GPU when there is one
(compiled by NVRTC), each result checked against NumPy. Without a GPU it says why and still
compiles the kernel with NVRTC for an sm_90 GPU (no GPU is needed for that)."""

import sys

import numpy as np

import accel

SOURCE = r"""
extern "C" __global__ void vector_add(const float* a, const float* b, float* c, long long n) {
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n;
       i += (long long)gridDim.x * blockDim.x)
    c[i] = a[i] + b[i];
}
"""


def five_steps(kernel, device, a, b, blocks):
    n = a.size
    print(f"on {device}:")
    c = accel.empty(n, dtype=accel.float32, device=device)                        # 1. allocate
    print(f"  1. allocate: {c.nbytes / 2**20:.1f} MiB on {c.device}")
    da, db = accel.asarray(a, device=device), accel.asarray(b, device=device)      # 2. copy in
    print(f"  2. copy in:  2 x {a.nbytes / 2**20:.1f} MiB from NumPy")
    kernel((blocks,), (256,), (da, db, c, np.int64(n)))                           # 3. run
    print(f"  3. run:      vector_add<<<{blocks}, 256>>>")
    result = accel.asnumpy(c)                                                      # 4. copy out
    print(f"  4. copy out: {result.nbytes / 2**20:.1f} MiB to NumPy")
    wrong = int(np.count_nonzero(result != a + b))
    print(f"     check:    {wrong} of {n} elements wrong")
    del da, db, c                                                                  # 5. free
    if device == "cuda":
        cached = accel.cuda.memory_stats()["cached"]
        accel.cuda.free_cached()
        print(f"  5. free:     {cached / 2**20:.1f} MiB cached by the pool returned to the device")
    else:
        print("  5. free:     the arrays' memory went back to accel's host allocator")
    return wrong


def main():
    n = 1 << 24
    rng = np.random.default_rng(0)
    a = rng.standard_normal(n, dtype=np.float32)
    b = rng.standard_normal(n, dtype=np.float32)
    kernel = accel.RawKernel(SOURCE, "vector_add")
    wrong = five_steps(kernel, "cpu", a, b, blocks=1024)
    if accel.cuda.is_available():
        props = accel.cuda.get_device_properties(0)
        print(f"device: {props['name']} (compute capability {props['compute_capability']}, "
              f"{props['multiprocessor_count']} SMs)")
        wrong += five_steps(kernel, "cuda", a, b, blocks=props["multiprocessor_count"] * 8)
    else:
        print("\nCUDA is not usable here, so the kernel ran on the CPU only:")
        print(accel.cuda.unavailable_reason(), end="\n\n")
        if accel.cuda.nvrtc_unavailable_reason():
            print("NVRTC is not available either:\n" + accel.cuda.nvrtc_unavailable_reason())
        else:
            m = accel.cuda.compile(SOURCE, arch="sm_90")  # no device to ask: an H100/H200
            print(f"compiled vector_add with NVRTC {accel.cuda.nvrtc_info()['version']} for "
                  f"{m.arch}: {len(m.image)} bytes of CUBIN")
    return 0 if wrong == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
