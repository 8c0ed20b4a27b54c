"""Vector add on an NVIDIA GPU with accel.RawKernel: the five steps every GPU program takes,
each printed, and the result checked against NumPy. Without a GPU it says why, still compiles
the kernel with NVRTC (no GPU needed for that), and exits 0."""

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


def main():
    if not accel.cuda.is_available():
        print("CUDA is not usable here, so the kernel will not run:")
        print(accel.cuda.unavailable_reason(), end="\n\n")
        if accel.cuda.nvrtc_unavailable_reason():
            print("NVRTC is not available either:\n" + accel.cuda.nvrtc_unavailable_reason())
            return 0
        m = accel.cuda.compile(SOURCE, arch="sm_90")  # no device to ask: an H100/H200
        print(f"compiled vector_add with NVRTC {accel.cuda.nvrtc_info()['version']} for {m.arch}: "
              f"{len(m.image)} bytes of CUBIN")
        return 0

    n = 1 << 24
    props = accel.cuda.get_device_properties(0)
    print(f"device: {props['name']} (compute capability {props['compute_capability']}, "
          f"{props['multiprocessor_count']} SMs)")
    rng = np.random.default_rng(0)
    a = rng.standard_normal(n, dtype=np.float32)
    b = rng.standard_normal(n, dtype=np.float32)

    c = accel.asarray(np.empty(n, np.float32), device="cuda")                    # 1. allocate
    print(f"1. allocate: {c.nbytes / 2**20:.1f} MiB on {c.device}")
    da, db = accel.asarray(a, device="cuda"), accel.asarray(b, device="cuda")    # 2. copy in
    print(f"2. copy in:  2 x {a.nbytes / 2**20:.1f} MiB host -> device")
    kernel = accel.RawKernel(SOURCE, "vector_add")                               # 3. run
    blocks, threads = props["multiprocessor_count"] * 8, 256
    kernel((blocks,), (threads,), (da, db, c, np.int64(n)))
    print(f"3. run:      vector_add<<<{blocks}, {threads}>>> compiled for "
          f"{accel.cuda.compile_target()}")
    result = accel.asnumpy(c)                                                    # 4. copy out
    print(f"4. copy out: {result.nbytes / 2**20:.1f} MiB device -> host")
    wrong = int(np.count_nonzero(result != a + b))
    print(f"   check:    {wrong} of {n} elements wrong")
    del da, db, c                                                                # 5. free
    cached = accel.cuda.memory_stats()["cached"]
    accel.cuda.free_cached()
    print(f"5. free:     {cached / 2**20:.1f} MiB cached by the pool returned to the device")
    return 0 if wrong == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
