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
    # Which BLAS, from where, and its core type matter: without one (or with a misdetected CPU)
    # matmul runs several times slower.
    from . import _core
    usable = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return {"cores": os.cpu_count(), "cores_usable": usable, "threads": _core.num_threads(),
            "blas": _core._blas_info()}


def format_blas(b):
    """One line saying which BLAS was loaded from where, or that there is none and why; then
    the candidates tried and not used, one per line."""
    if b["loaded"]:
        what = b["config"] or "a BLAS without OpenBLAS's introspection"
        details = [b["flavour"] + (" 64-bit integers" if b["flavour"] == "ILP64" else " 32-bit integers")]
        if b["core"]:
            details.append(f"core {b['core']}")
        if b["threads"]:
            details.append(f"{b['threads']} threads")
        if b["coretype"]:
            details.append(f"OPENBLAS_CORETYPE={b['coretype']}"
                           + (" set by accel" if b["coretype_set_by_accel"] else ""))
        lines = [f"  BLAS:    {what} ({', '.join(details)})",
                 f"           from {b['path']} ({b['source']}; symbols like {b['symbol']})"]
    else:
        lines = [f"  BLAS:    none: {b['problem']}; matmul uses accel's own loops (slower)"]
    lines += [f"           not used: {a}" for a in b["attempts"]]
    return lines


def config_section():
    """Every ACCEL_* variable accel reads (accel/runtime/config.def), and its value if set."""
    from . import _core
    return [{"name": n, "kind": k, "meaning": m, "value": v, "problem": bad}
            for n, k, m, v, bad in _core._config()]


def info():
    return {"accel": accel_section(), "cpu": cpu_section(), "cuda": _cuda_info.cuda_section(),
            "config": config_section()}


def format_info(d):
    a = d["accel"]
    lines = [f"accel {a['version']} (Python {a['python']}, NumPy {a['numpy']}, {a['platform']})",
             f"  devices: {', '.join(a['devices'])} (default {a['default_device']})"]
    c = d["cpu"]
    lines += ["CPU", f"  cores:   {c['cores']} ({c['cores_usable']} usable here), "
              f"accel threads: {c['threads']}"] + format_blas(c["blas"])
    lines += _cuda_info.format_cuda_section(d["cuda"])
    lines += ["Configuration (environment)"]
    lines += [f"  {e['name']:22s} {e['value'] if e['value'] is not None else '(unset)':12s} {e['meaning']}"
              for e in d["config"]]
    return "\n".join(lines)
