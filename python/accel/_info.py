"""`python -m accel info`: the environment as a dict built by small functions, and as text."""

import platform
import sys

from . import _cuda_info


def accel_section():
    from . import __version__
    return {"version": __version__, "python": sys.version.split()[0], "platform": platform.platform()}


def info():
    return {"accel": accel_section(), "cuda": _cuda_info.cuda_section()}


def format_info(d):
    a = d["accel"]
    lines = [f"accel {a['version']} (Python {a['python']}, {a['platform']})"]
    lines += _cuda_info.format_cuda_section(d["cuda"])
    return "\n".join(lines)
