"""Python-level pieces of indexing: where() with one or three arguments, and the NumPy-style
methods that forward to the module functions. (Iteration over the first axis is a C++ method:
python/src/array_protocol_bindings.cpp.)"""

from . import _core
from ._common import write_target as _write_target


def where(condition, x=None, y=None, /, *, out=None):
    """where(condition, x, y): elements of x where condition is true, else of y.
    where(condition): the coordinates of the nonzero elements, as nonzero(condition)."""
    if x is None and y is None:
        if out is not None:
            raise ValueError("[where] out= needs the three-argument form")
        return _core.nonzero(condition)
    if x is None or y is None:
        raise ValueError("[where] either both or neither of x and y should be given")
    return _core.where(condition, x, y, out=out)


# NumPy's same_kind order: a cast may go up this list or stay in one kind (uint to int is
# same_kind, int to uint is not).
_KIND_ORDER = {"b": 0, "u": 1, "i": 2, "f": 3, "c": 4}


def _same_view(a, b):
    """Whether a and b are the same elements of the same memory, in the same dtype."""
    if a is b:
        return True
    if (a.shape, a.strides, a.dtype, a.device) != (b.shape, b.strides, b.dtype, b.device):
        return False
    key = "__array_interface__" if a.device == _core.Device("cpu") else "__cuda_array_interface__"
    return getattr(a, key)["data"][0] == getattr(b, key)["data"][0]


def copyto(dst, src, casting="same_kind", where=True):
    """NumPy's copyto: writes src (broadcast to dst's shape) into dst where `where` is true."""
    dst = _write_target(dst, "copyto")
    if casting not in ("no", "equiv", "safe", "same_kind", "unsafe"):
        raise ValueError(f"[copyto] casting must be one of 'no', 'equiv', 'safe', 'same_kind' "
                         f"or 'unsafe', got {casting!r}")
    if isinstance(src, _core.ndarray):
        frm, to = src.dtype, dst.dtype
        ok = (casting == "unsafe" or frm == to or
              (casting in ("safe", "same_kind") and _core.can_cast(frm, to)) or
              (casting == "same_kind" and _KIND_ORDER[frm.kind] <= _KIND_ORDER[to.kind]))
        if not ok:
            raise TypeError(f"[copyto] cannot cast from {frm} to {to} with casting rule "
                            f"{casting!r}")
    if isinstance(src, _core.ndarray) and _same_view(src, dst):
        return  # NumPy copies nothing onto itself, even into a read-only view
    if where is True:
        dst[...] = src
        return
    if isinstance(src, _core.ndarray) and src.dtype != dst.dtype:
        # In dst's dtype first, as NumPy casts the values it copies: where() of the two dtypes
        # would promote (uint64 with int64 to float64, wrapping 2**64 - 1 to INT64_MIN instead
        # of -1) and pass dst's own values through the wider type (quieting a signalling NaN).
        src = _core.astype(src, dst.dtype)
    dst[...] = _core.where(where, src, dst)


def _nonzero(self):
    return _core.nonzero(self)


def _take(self, indices, axis=None, out=None, mode="raise"):
    return _core.take(self, indices, axis=axis, out=out, mode=mode)


def put(a, ind, v, mode="raise"):
    """NumPy's put: a.flat[ind] = v in place (returns None); into an accel array or a NumPy
    array's own memory."""
    _core.put(_write_target(a, "put"), ind, v, mode=mode)


def _put(self, indices, values, mode="raise"):
    _core.put(self, indices, values, mode=mode)


def _compress(self, condition, axis=None, out=None):
    return _core.compress(condition, self, axis=axis, out=out)


_core.ndarray.nonzero = _nonzero
_core.ndarray.take = _take
_core.ndarray.put = _put
_core.ndarray.compress = _compress
