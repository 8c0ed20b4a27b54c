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
    "nvrtc_info", "cublas_unavailable_reason", "cublas_info", "cufft_unavailable_reason",
    "cufft_info", "cusolver_unavailable_reason", "cusolver_info", "device_count",
    "get_device_properties", "synchronize", "memory_info", "memory_stats", "free_cached",
    "set_memory_limit", "memory_limit", "pinned_empty",
    "copy_to_host", "copy_from_host", "Stream",
    "Event", "current_stream", "default_stream", "compile", "compile_stats", "compile_target",
    "RawKernel",
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
_cuda.add_cufft_search_dirs(_wheel_dirs("cufft"))
_cuda.add_cusolver_search_dirs(_wheel_dirs("cusolver"))

is_available = _cuda.is_available
unavailable_reason = _cuda.unavailable_reason
nvrtc_unavailable_reason = _cuda.nvrtc_unavailable_reason
driver_info = _cuda.driver_info
nvrtc_info = _cuda.nvrtc_info
cublas_unavailable_reason = _cuda.cublas_unavailable_reason
cublas_info = _cuda.cublas_info
cufft_unavailable_reason = _cuda.cufft_unavailable_reason
cufft_info = _cuda.cufft_info
cusolver_unavailable_reason = _cuda.cusolver_unavailable_reason
cusolver_info = _cuda.cusolver_info
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
compile_target = _cuda.compile_target
CompiledModule = _cuda.CompiledModule


# RawKernel and RawModule run on every device (accel/_raw_kernel.py); accel.cuda keeps the names.
from ._raw_kernel import RawKernel, RawModule  # noqa: E402
