"""Numba's CUDA names as markers: the translator recognises these objects in kernel source;
called from ordinary Python they say they only work inside a kernel."""


class Intrinsic:
    """A name of the kernel language (``grid``, ``syncthreads``, ``atomic.add``, ...)."""

    def __init__(self, name):
        self.name = name

    def __call__(self, *args, **kwargs):
        raise RuntimeError(f"accel.jit.{self.name} can only be used inside an @accel.jit.kernel "
                           "or @accel.jit.func function")

    def __repr__(self):
        return f"<accel.jit.{self.name}>"


class Dim3(Intrinsic):
    """threadIdx, blockIdx, blockDim, gridDim: ``.x``, ``.y``, ``.z`` inside a kernel."""


class Namespace:
    """``atomic``, ``shared``, ``local``: a group of intrinsics."""

    def __init__(self, prefix, names):
        self._prefix = prefix
        for n in names:
            setattr(self, n, Intrinsic(f"{prefix}.{n}"))

    def __repr__(self):
        return f"<accel.jit.{self._prefix}>"


threadIdx = Dim3("threadIdx")
blockIdx = Dim3("blockIdx")
blockDim = Dim3("blockDim")
gridDim = Dim3("gridDim")
grid = Intrinsic("grid")
gridsize = Intrinsic("gridsize")
syncthreads = Intrinsic("syncthreads")
syncthreads_count = Intrinsic("syncthreads_count")
syncthreads_and = Intrinsic("syncthreads_and")
syncthreads_or = Intrinsic("syncthreads_or")
syncwarp = Intrinsic("syncwarp")
shfl_sync = Intrinsic("shfl_sync")
shfl_up_sync = Intrinsic("shfl_up_sync")
shfl_down_sync = Intrinsic("shfl_down_sync")
shfl_xor_sync = Intrinsic("shfl_xor_sync")
all_sync = Intrinsic("all_sync")
any_sync = Intrinsic("any_sync")
ballot_sync = Intrinsic("ballot_sync")
activemask = Intrinsic("activemask")
laneid = Intrinsic("laneid")
warpsize = 32
atomic = Namespace("atomic", ("add", "sub", "max", "min", "exch", "cas"))
shared = Namespace("shared", ("array",))
local = Namespace("local", ("array",))

ALL = ("threadIdx", "blockIdx", "blockDim", "gridDim", "grid", "gridsize", "syncthreads",
       "syncthreads_count", "syncthreads_and", "syncthreads_or", "syncwarp", "shfl_sync",
       "shfl_up_sync", "shfl_down_sync", "shfl_xor_sync", "all_sync", "any_sync", "ballot_sync",
       "activemask", "laneid", "warpsize", "atomic", "shared", "local")
