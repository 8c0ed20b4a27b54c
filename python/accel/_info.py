"""`python -m accel info`: the environment as a dict built by small functions, and as text."""

import os
import platform
import sys

from . import _cuda_info


def accel_section():
    from . import __version__, __array_namespace_info__
    import numpy
    info = __array_namespace_info__()
    return {"version": __version__, "python": sys.version.split()[0], "platform": platform.platform(),
            "numpy": numpy.__version__, "devices": [str(d) for d in info.devices()],
            "default_device": str(info.default_device())}


def cpu_section():
    # The BLAS core type matters: a misdetected CPU falls back to kernels several times slower.
    from . import _core
    blas = _core._blas_info()
    usable = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return {"cores": os.cpu_count(), "cores_usable": usable, "threads": _core.num_threads(),
            "blas": blas["config"], "blas_core": blas["core"],
            "blas_threads": blas["threads"], "openblas_coretype": os.environ.get("OPENBLAS_CORETYPE")}


def info():
    return {"accel": accel_section(), "cpu": cpu_section(), "cuda": _cuda_info.cuda_section()}


def format_info(d):
    a = d["accel"]
    lines = [f"accel {a['version']} (Python {a['python']}, NumPy {a['numpy']}, {a['platform']})",
             f"  devices: {', '.join(a['devices'])} (default {a['default_device']})"]
    c = d["cpu"]
    lines += ["CPU", f"  cores:   {c['cores']} ({c['cores_usable']} usable here), "
              f"accel threads: {c['threads']}",
              f"  BLAS:    {c['blas']} (core {c['blas_core']}, {c['blas_threads']} threads"
              + (f"; OPENBLAS_CORETYPE={c['openblas_coretype']})" if c["openblas_coretype"] else ")")]
    lines += _cuda_info.format_cuda_section(d["cuda"])
    return "\n".join(lines)
