"""Python-level pieces of indexing: where() with one or three arguments, and the NumPy-style
methods that forward to the module functions. (Iteration over the first axis is a C++ method:
python/src/array_protocol_bindings.cpp.)"""

from . import _core


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


def _nonzero(self):
    return _core.nonzero(self)


def _take(self, indices, axis=None, out=None, mode="raise"):
    return _core.take(self, indices, axis=axis, out=out, mode=mode)


def _put(self, indices, values, mode="raise"):
    _core.put(self, indices, values, mode=mode)


def _compress(self, condition, axis=None, out=None):
    return _core.compress(condition, self, axis=axis, out=out)


_core.ndarray.nonzero = _nonzero
_core.ndarray.take = _take
_core.ndarray.put = _put
_core.ndarray.compress = _compress
