"""accel.cuda: NVIDIA GPUs through the CUDA driver and NVRTC, both loaded at run time.

Nothing here needs CUDA to import. ``is_available()`` says whether a driver and a GPU are
present and ``unavailable_reason()`` says why not; compiling (``compile``) needs only NVRTC.

    import accel, numpy as np
    k = accel.RawKernel(r'''
    extern "C" __global__ void scale(float* x, float a, int n) {
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        if (i < n) x[i] *= a;
    }''', "scale")
    x = accel.asarray(np.arange(1000, dtype=np.float32), device="cuda")
    k((4,), (256,), (x, np.float32(2), np.int32(1000)))
"""

import os as _os
import sys as _sys

from ._core import _cuda

__all__ = [
    "is_available", "unavailable_reason", "nvrtc_unavailable_reason", "driver_info",
    "nvrtc_info", "cublas_unavailable_reason", "cublas_info", "device_count",
    "get_device_properties", "synchronize", "memory_info", "memory_stats", "free_cached",
    "set_memory_limit", "memory_limit", "pinned_empty",
    "copy_to_host", "copy_from_host", "Stream",
    "Event", "current_stream", "default_stream", "compile", "compile_stats", "RawKernel",
    "RawModule",
]


def _wheel_dirs(package):
    # pip's nvidia-* wheels put their libraries under site-packages/nvidia/: all CUDA 13 ones in
    # nvidia/cu13/lib, CUDA 12 ones in nvidia/<package>/lib. They are looked for there after the
    # toolkit (see accel/backend/cuda/nvrtc.h and cublas.h).
    found = []
    for base in _sys.path:
        for sub in (("nvidia", "cu13", "lib"), ("nvidia", package, "lib")):
            d = _os.path.join(base or ".", *sub)
            if _os.path.isdir(d):
                found.append(_os.path.abspath(d))
    return found


_cuda.add_nvrtc_search_dirs(_wheel_dirs("cuda_nvrtc"))
_cuda.add_cublas_search_dirs(_wheel_dirs("cublas"))

is_available = _cuda.is_available
unavailable_reason = _cuda.unavailable_reason
nvrtc_unavailable_reason = _cuda.nvrtc_unavailable_reason
driver_info = _cuda.driver_info
nvrtc_info = _cuda.nvrtc_info
cublas_unavailable_reason = _cuda.cublas_unavailable_reason
cublas_info = _cuda.cublas_info
device_count = _cuda.device_count
get_device_properties = _cuda.get_device_properties
synchronize = _cuda.synchronize
memory_info = _cuda.memory_info
memory_stats = _cuda.memory_stats
free_cached = _cuda.free_cached
set_memory_limit = _cuda.set_memory_limit
memory_limit = _cuda.memory_limit
pinned_empty = _cuda.pinned_empty
copy_to_host = _cuda.copy_to_host
copy_from_host = _cuda.copy_from_host
Stream = _cuda.Stream
Event = _cuda.Event
current_stream = _cuda.current_stream
default_stream = _cuda.default_stream
compile = _cuda.compile
compile_stats = _cuda.compile_stats
CompiledModule = _cuda.CompiledModule


def _launch_device(args, stream):
    # The kernel runs where its array arguments live (else on the stream's device, else cuda:0).
    if stream is not None:
        return stream.device
    for a in args:
        dev = getattr(a, "device", None)
        if dev is not None and getattr(dev, "type", None) is not None and str(dev).startswith("cuda"):
            return dev.index
    return None


class RawModule:
    """CUDA C++ source compiled with NVRTC (on first use, once per device; cached on disk).

    ``options``: NVRTC options, e.g. ``("-DN=4", "--use_fast_math")``. ``name_expressions``:
    template instantiations to compile, e.g. ``("axpy<float>",)``, then fetched by that name.
    """

    def __init__(self, code, options=(), name_expressions=(), name="kernel.cu"):
        self.code = code
        self.options = tuple(options)
        self.name_expressions = tuple(name_expressions)
        self._module = _cuda.Module(code, list(self.options), list(self.name_expressions), name)

    def get_function(self, name, device=None):
        """The kernel ``name`` (an extern "C" name or one of the name expressions)."""
        return RawKernel._from_module(self, name, device)

    def compile(self, device=None):
        """Compiles now (for ``device``) and returns the CompiledModule (arch, image, log)."""
        return self._module.compiled(device)


class RawKernel:
    """One kernel of CUDA C++ source, called CuPy-style:
    ``kernel(grid, block, args, shared_mem=0, stream=None)``.

    ``args``: accel arrays on the GPU (passed as pointers), NumPy scalars (``numpy.int32(n)``:
    the type must match the parameter's), Python scalars (bool, int -> int64, float -> float64,
    complex -> complex128) and ``bytes`` for a struct passed by value.
    """

    def __init__(self, code, name, options=(), name_expressions=()):
        self.module = RawModule(code, options, name_expressions)
        self.name = name
        self._kernels = {}
        self._device = None

    @classmethod
    def _from_module(cls, module, name, device):
        k = cls.__new__(cls)
        k.module = module
        k.name = name
        k._kernels = {}
        k._device = device
        return k

    @property
    def code(self):
        return self.module.code

    def kernel(self, device=None):
        """The compiled, loaded kernel on ``device`` (compiling it first if needed)."""
        key = device
        k = self._kernels.get(key)
        if k is None:
            k = self._kernels[key] = self.module._module.function(self.name, device)
        return k

    def __call__(self, grid, block, args, *, shared_mem=0, stream=None):
        device = self._device if self._device is not None else _launch_device(args, stream)
        k = self._kernels.get(device)
        if k is None:
            k = self.kernel(device)
        k(grid, block, args, shared_mem=shared_mem, stream=stream)

    def compile(self, device=None):
        """Compiles now and returns the CompiledModule (arch, image, log)."""
        return self.module.compile(device)

    def __repr__(self):
        return f"<accel.RawKernel {self.name!r}>"
