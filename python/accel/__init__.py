"""accel: NumPy-compatible arrays and your own kernels on NVIDIA GPUs and the CPU."""

import os as _os


def _prefer_fast_blas_kernels():
    # Debian's OpenBLAS does not recognise some current CPUs and falls back to its slowest
    # kernels; name the core type when the CPU has AVX2 (must happen before the library loads).
    if "OPENBLAS_CORETYPE" in _os.environ:
        return
    try:
        with open("/proc/cpuinfo") as f:
            flags = next((line for line in f if line.startswith("flags")), "")
    except OSError:
        return
    if " avx512f" in flags and " avx512vl" in flags:
        _os.environ["OPENBLAS_CORETYPE"] = "SkylakeX"
    elif " avx2" in flags:
        _os.environ["OPENBLAS_CORETYPE"] = "Haswell"


_prefer_fast_blas_kernels()

from . import _core  # noqa: E402
from ._core import *  # noqa: E402,F401,F403
from ._core import ndarray, Device  # noqa: E402,F401
from . import cuda  # noqa: E402,F401
from .cuda import RawKernel, RawModule  # noqa: E402,F401
from ._manipulation import *  # noqa: E402,F401,F403
from ._array_api import *  # noqa: E402,F401,F403
from ._numpy_names import *  # noqa: E402,F401,F403

__version__ = "0.1.0"
from ._indexing import where  # noqa: E402,F401
from ._nanreductions import *  # noqa: E402,F401,F403
