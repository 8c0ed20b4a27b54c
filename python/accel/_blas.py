"""The CPU BLAS from Python: accel uses the OpenBLAS that NumPy already loaded (one library and
one thread pool in the process instead of two competing for the cores, 64-bit sizes, and present
wherever NumPy's wheel is; the measurements behind the choice are in accel/backend/cpu/cpu.h).
ACCEL_BLAS_PATH still overrides, and without NumPy's the search goes on to the system's."""

import glob
import os
import re

# Basenames of libraries that provide CBLAS, as NumPy builds link them.
_BLAS_NAME = re.compile(r"lib(scipy_)?openblas|libmkl_rt|libblis|libcblas|libblas")


def numpy_blas_libraries():
    """Paths of the BLAS NumPy uses: the OpenBLAS bundled in a NumPy wheel (numpy.libs/), else the
    BLAS libraries mapped into this process since NumPy loaded (conda or distribution NumPy)."""
    import numpy
    libs = os.path.join(os.path.dirname(os.path.dirname(numpy.__file__)), "numpy.libs")
    bundled = sorted(glob.glob(os.path.join(libs, "lib*openblas*.so*")))
    if bundled:
        return bundled
    try:
        with open("/proc/self/maps") as f:
            mapped = [line.split(None, 5)[5].strip() for line in f if line.count(" ") >= 5]
    except OSError:
        return []
    seen = []
    for path in mapped:
        if path.startswith("/") and _BLAS_NAME.match(os.path.basename(path)) and path not in seen:
            seen.append(path)
    return seen


def register_numpy_blas(core):
    for path in numpy_blas_libraries():
        core._add_blas_candidate(path)
