"""CuPy-style kernel templates with accel, on every device present: an ElementwiseKernel with a
type placeholder, one with a raw argument, and a ReductionKernel (an L2 norm), each checked
against NumPy. On the CPU the kernels are built by the host C++ compiler; on an NVIDIA GPU by
NVRTC, from the same generated source. Without a GPU the CUDA source is still compiled by NVRTC
when it is installed."""

import numpy as np

import accel

squared_diff = accel.ElementwiseKernel(
    "T x, T y",                  # inputs: T is whatever dtype the arguments have
    "T z",                       # output, allocated with the broadcast shape
    "z = (x - y) * (x - y)",     # the loop body, for each element i
    "squared_diff")

reverse_add = accel.ElementwiseKernel(
    "T x, raw T y", "T z",
    "z = x + y[_ind.size() - i - 1]",  # raw: indexed by the body, not broadcast
    "reverse_add")

l2norm = accel.ReductionKernel(
    "T x", "T y",
    "x * x",        # map each element
    "a + b",        # combine two mapped values
    "y = sqrt(a)",  # write the result
    "0",            # identity
    "l2norm")


def run_on(device):
    x_np = np.arange(10, dtype=np.float32).reshape(2, 5)
    y_np = np.arange(5, dtype=np.float32)
    x = accel.asarray(x_np, device=device)
    y = accel.asarray(y_np, device=device)

    z = squared_diff(x, y)
    assert np.array_equal(accel.asnumpy(z), (x_np - y_np) ** 2)
    print(f"[{device}] squared_diff(x, y) =\n{accel.asnumpy(z)}")

    r = reverse_add(y, y)
    assert np.array_equal(accel.asnumpy(r), y_np + y_np[::-1])
    print(f"[{device}] reverse_add(y, y) = {accel.asnumpy(r)}")

    n = l2norm(x, axis=1)
    assert np.allclose(accel.asnumpy(n), np.linalg.norm(x_np, axis=1))
    print(f"[{device}] l2norm(x, axis=1) = {accel.asnumpy(n)}")


def main():
    run_on("cpu")
    if accel.cuda.is_available():
        run_on("cuda")
        return
    print("\nCUDA is not usable here: " + accel.cuda.unavailable_reason().split("\n")[0])
    if accel.cuda.nvrtc_unavailable_reason():
        return
    x = accel.asarray(np.zeros((2, 5), np.float32))
    source = squared_diff.source(x, x, device="cuda")
    m = accel.cuda.compile(source, arch="sm_90", options=["-default-device"])
    print(f"the CUDA source of squared_diff compiles with NVRTC for {m.arch} "
          f"({len(m.image)} bytes of CUBIN)")


if __name__ == "__main__":
    main()
