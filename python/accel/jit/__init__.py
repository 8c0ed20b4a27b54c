"""Kernels written as Python functions, Numba-style, on every device (``accel.jit``).

    import accel as ac

    @ac.jit.kernel
    def saxpy(a, x, y, out):
        i = ac.jit.grid(1)
        if i < out.size:
            out[i] = a * x[i] + y[i]

    saxpy[blocks, threads](2.0, x, y, out)    # or saxpy((blocks,), (threads,), (2.0, x, y, out))

The function's AST is translated to CUDA C++ (types inferred from the call's arguments, NumPy's
promotion, Python's integer semantics) and run by ``accel.RawKernel``: on the CPU through the
SIMT runtime, on ``cuda:N`` through NVRTC, cached in memory and on disk. ``kernel.source(...)``
shows the C++; ``ACCEL_DEBUG=1`` prints it. ``@func`` makes device functions, ``@vectorize``
elementwise ops and ``@reduce`` reductions. Names follow Numba's ``numba.cuda``.
"""

from . import types
from .intrinsics import (activemask, all_sync, any_sync, atomic, ballot_sync, blockDim,  # noqa
                         blockIdx, grid, gridDim, gridsize, laneid, local, shared, shfl_down_sync,
                         shfl_sync, shfl_up_sync, shfl_xor_sync, syncthreads, syncthreads_and,
                         syncthreads_count, syncthreads_or, syncwarp, threadIdx, warpsize)
from .kernel import DeviceFunction, JitKernel
from .vectorize import reduce, vectorize  # noqa: F401


def kernel(fn=None, *, check=False):
    """Compiles ``fn`` as a kernel (``@kernel`` or ``@kernel(check=True)``: checked mode, each
    index checked against its axis and reported at its Python line)."""
    if fn is None:
        return lambda f: JitKernel(f, check=check)
    return JitKernel(fn, check=check)


def func(fn):
    """A device function, callable from kernels; may return a tuple."""
    return DeviceFunction(fn)


jit = kernel  # Numba's spelling: @cuda.jit
