"""NumPy's floating-point error settings (seterr, geterr, errstate) as accel has them: accel's
kernels never check for division by zero, overflow, underflow or invalid results (on the CPU
threads and the GPU alike), so every kind is always 'ignore'. Code that sets 'ignore' (the common
`with np.errstate(divide='ignore')`) or restores what geterr gave runs as written; asking for
'warn', 'raise', 'call', 'print' or 'log' raises NotImplementedError instead of being dropped,
since accel would not do it."""

import contextlib as _contextlib

__all__ = ["seterr", "geterr", "errstate", "seterrcall", "geterrcall"]

_KINDS = ("divide", "over", "under", "invalid")
_MODES = ("ignore", "warn", "raise", "call", "print", "log")


def geterr():
    """NumPy's geterr: how each kind of floating-point error is treated (always 'ignore')."""
    return dict.fromkeys(_KINDS, "ignore")


def _check(all=None, divide=None, over=None, under=None, invalid=None):  # noqa: A002
    asked = {"all": all, "divide": divide, "over": over, "under": under, "invalid": invalid}
    for kind, mode in asked.items():
        if mode is None:
            continue
        if mode not in _MODES:
            raise ValueError(f"[seterr] {kind}={mode!r}: the modes are {', '.join(_MODES)}")
        if mode != "ignore":
            raise NotImplementedError(
                f"[seterr] {kind}={mode!r}: accel's kernels do not detect floating-point errors "
                "(every kind is 'ignore'); check the results instead, e.g. with "
                "accel.isfinite(x).all()")


def seterr(all=None, divide=None, over=None, under=None, invalid=None):  # noqa: A002
    """NumPy's seterr: only 'ignore', which is what accel does; returns the previous settings."""
    _check(all, divide, over, under, invalid)
    return geterr()


def geterrcall():
    return None


def seterrcall(func):
    """NumPy's seterrcall: accel calls no error handler, so only None is accepted."""
    if func is not None:
        raise NotImplementedError("[seterrcall] accel's kernels do not detect floating-point "
                                  "errors, so no handler would be called")
    return None


class errstate(_contextlib.ContextDecorator):
    """NumPy's errstate (a context manager and decorator): only 'ignore', which accel does
    anyway; other modes raise NotImplementedError when it is made."""

    def __init__(self, *, call=None, all=None, divide=None, over=None, under=None,  # noqa: A002
                 invalid=None):
        if call is not None:
            seterrcall(call)
        _check(all, divide, over, under, invalid)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False
