"""NumPy's ndarray methods that forward to accel's functions (each op is defined once, as a
function; the method is its other spelling), and the attributes NumPy code reads off an array:
flat, tobytes (tolist is made in C++, array_bindings.cpp; flags in flags_bindings.cpp). The
parts (x.real, x.imag) and x.view(dtype) are views made in C++ (accel/ops/views.cpp)."""

import builtins as _builtins
import pickle as _pickle
import types as _types

from . import _core
from ._array_api import clip as _clip
from ._np_indices import choose as _choose
from ._numpy_functions import diagonal as _diagonal, trace as _trace
from ._numpy_names import divmod as _divmod, round as _round
from ._ordering import argpartition as _argpartition, partition as _partitioned


class FlatIter:
    """ndarray.flat: x's elements in C order, read and written by flat index (an int, a slice,
    an integer or bool array), iterated one by one, as NumPy's flatiter."""

    __slots__ = ("base",)

    def __init__(self, x):
        self.base = x

    def __len__(self):
        return self.base.size

    def __iter__(self):
        return iter(_core.reshape(self.base, (-1,)))

    def __getitem__(self, key):
        """New values (NumPy's flat[...] is a copy or a scalar), never a view into x."""
        return _core.reshape(self.base, (-1,))[key].copy()

    def __setitem__(self, key, value):
        """x's elements at the flat indices of key (in C order, whatever x's layout) set to
        value, repeated when shorter, as NumPy's flat and put."""
        x = self.base
        _core.put(x, _core.arange(x.size, device=x.device)[key], value)

    def copy(self):
        return _core.reshape(self.base, (-1,), copy=True)

    def __array__(self, dtype=None, copy=None):
        return self.copy().__array__(dtype)


def _tobytes(self, order="C"):
    return _core.asnumpy(self).tobytes(order)


def _byteswap(self, inplace=False):
    """NumPy's byteswap: every element's bytes reversed (a complex number's two parts each), as a
    new C-ordered array, or written into x with inplace=True. Memory views, no host copy."""
    x = self
    if x.itemsize == 1 or x.size == 0:
        swapped = x.copy()
    else:
        # Bytes only (a float copy could quiet a NaN the swap made): each group of `size` bytes
        # reversed, a complex item being two groups.
        size = x.itemsize // 2 if x.dtype in (_core.complex64, _core.complex128) else x.itemsize
        raw = x.copy().reshape(-1).view(_core.uint8).reshape(-1, size)
        swapped = _core.flip(raw, axis=-1).copy().reshape(-1).view(x.dtype).reshape(x.shape)
    if not inplace:
        return swapped
    x[...] = swapped
    return x


def _data(self):
    """NumPy's x.data: a memoryview of x's elements (CPU arrays; the buffer protocol's view)."""
    if self.device.type != "cpu":
        raise TypeError(f"[data] x.data is a host memoryview; x is on {self.device}: copy it "
                        "with accel.asnumpy(x) or x.to_device('cpu')")
    return memoryview(self)


def _fill(self, value):
    """Every element set to value (cast as NumPy's setitem casts a scalar)."""
    self[...] = value


def _partition(self, kth, axis=-1, kind="introselect", order=None):
    """In place, as NumPy's method (the function returns a new array)."""
    self[...] = _partitioned(self, kth, axis=axis, kind=kind, order=order)


def _conj(self):
    """The complex conjugate; x itself when x is real, as NumPy's method (its function copies)."""
    return _core.conj(self) if self.dtype.kind == "c" else self


def _dump(self, file):
    """Pickles x into a file (an open binary file or a path), as NumPy's dump."""
    if hasattr(file, "write"):
        _pickle.dump(self, file)
    else:
        with open(file, "wb") as f:
            _pickle.dump(self, f)


def _builtin_round(self, ndigits=None):
    """round(x) of a 0-d array, as of the NumPy scalar it stands for (round(a.sum()) works in
    NumPy): a Python int without ndigits, else x rounded to ndigits (a 0-d array). NumPy's
    arrays of one or more dimensions have no round(), nor do accel's."""
    if self.ndim != 0:
        raise TypeError(f"round() of an array of {self.ndim} dimensions; use accel.round(x, "
                        "decimals) (NumPy's arrays define no __round__ either)")
    if ndigits is None:
        return round(self.item())
    return _round(self, ndigits)


def _setflags(self, write=None, align=None, uic=None):
    """NumPy's x.setflags: write freezes or thaws x (as x.flags.writeable = write); accel
    arrays are always aligned and never write back, so only align=True and uic=False are
    accepted for those."""
    if align is not None and not align:
        raise ValueError("[setflags] accel arrays are always aligned; align=False cannot be set")
    if uic:
        raise ValueError("[setflags] cannot set WRITEBACKIFCOPY flag to True")
    if write is not None:
        _core._set_writeable(self, bool(write))


def _resize(self, *new_shape, refcheck=True):
    """NumPy's x.resize(new_shape) in place: another size is new memory holding x's elements in
    memory order, then zeros. Refused (ValueError) for a strided view, a view of part of a larger
    array, and, unless refcheck=False, while other arrays view x's memory; with refcheck=False
    they keep the old memory (NumPy's would dangle). Returns None."""
    if not new_shape:
        return None
    shape = new_shape[0] if len(new_shape) == 1 else new_shape
    if shape is None:
        return None
    _core._resize(self, (shape,) if not hasattr(shape, "__len__") else tuple(shape),
                  bool(refcheck))
    return None


def _array_interface(self):
    """NumPy's __array_interface__ (version 3) for CPU arrays, read by PIL, ctypes users and
    NumPy itself: x's memory, which x keeps alive. AttributeError on other devices, so that
    hasattr() is False there, as libraries probe (CUDA arrays have __cuda_array_interface__)."""
    if self.device.type != "cpu":
        raise AttributeError(f"[__array_interface__] only CPU arrays have it; this array is on "
                             f"{self.device} (it has __cuda_array_interface__)")
    try:
        return _np_view(self).__array_interface__
    except BufferError as e:  # bfloat16: NumPy goes on to __array__, which converts it
        raise AttributeError(f"[__array_interface__] {e}") from None


def _ctypes(self):
    """NumPy's x.ctypes (data, shape, strides, data_as, ...) for CPU arrays: it holds x."""
    if self.device.type != "cpu":
        raise TypeError(f"[ctypes] x.ctypes is a host pointer; x is on {self.device}: copy it "
                        "with accel.asnumpy(x) or x.to_device('cpu')")
    return _np_view(self).ctypes


_dtype_view = _core.ndarray.view
_builtin_type = _builtins.type


def _view(self, dtype=None, type=None):
    """x's memory read as another dtype (NumPy's x.view(dtype)), no data copied; with a NumPy
    array type (x.view(np.ndarray), or type=np.ndarray), NumPy's view of x's memory (CPU
    arrays), writes reaching x, as NumPy's x.view(type) of a subclass."""
    if dtype is None and type is None:
        return _dtype_view(self)  # x.view(): the C++ method's fast path
    if type is None and isinstance(dtype, _builtin_type) and issubclass(dtype, _ndarray_types()):
        dtype, type = None, dtype
    if type is None or (isinstance(type, _builtin_type) and issubclass(type, _core.ndarray)):
        return _dtype_view(self, dtype)
    if not (isinstance(type, _builtin_type) and issubclass(type, _ndarray_types())):
        raise TypeError(f"[view] type must be an ndarray type (accel's or NumPy's); got {type!r}")
    if self.device.type != "cpu":
        raise TypeError(f"[view] a NumPy view reads host memory; x is on {self.device}: copy it "
                        "with accel.asnumpy(x) or x.to_device('cpu')")
    x = self if dtype is None else _dtype_view(self, dtype)
    return _np_view(x).view(type)


def _ndarray_types():
    import numpy as np
    return (np.ndarray, _core.ndarray)


def _np_view(x):
    """A NumPy array over x's memory (through the buffer protocol, so it keeps x alive)."""
    import numpy as np
    return np.asarray(memoryview(x))


def _contains(self, value):
    """`value in x`: any element equal to it (NumPy's (x == value).any()), one reduction."""
    return bool(_core.any(_core.equal(self, value)))


# accel.ndarray[Any, ...] in annotations, as numpy.ndarray[...] (typing's generic alias).
_core.ndarray.__class_getitem__ = classmethod(_types.GenericAlias)
_core.ndarray.flat = property(FlatIter, doc=FlatIter.__doc__)
_core.ndarray.setflags = _setflags
_core.ndarray.tobytes = _tobytes
_core.ndarray.byteswap = _byteswap
_core.ndarray.data = property(_data, doc=_data.__doc__)
_core.ndarray.fill = _fill
_core.ndarray.resize = _resize
_core.ndarray.view = _view
_core.ndarray.__array_interface__ = property(_array_interface, doc=_array_interface.__doc__)
_core.ndarray.ctypes = property(_ctypes, doc=_ctypes.__doc__)
_core.ndarray.dumps = lambda self: _pickle.dumps(self)
_core.ndarray.dump = _dump
_core.ndarray.clip = lambda self, min=None, max=None, out=None: _clip(self, min, max, out=out)
_core.ndarray.round = lambda self, decimals=0, out=None: _round(self, decimals, out)
_core.ndarray.conj = _core.ndarray.conjugate = _conj
_core.ndarray.dot = lambda self, b, out=None: _core.dot(self, b, out=out)
_core.ndarray.diagonal = lambda self, offset=0, axis1=0, axis2=1: _diagonal(self, offset,
                                                                            axis1, axis2)
_core.ndarray.trace = (lambda self, offset=0, axis1=0, axis2=1, dtype=None, out=None:
                       _trace(self, offset, axis1, axis2, dtype, out))
_core.ndarray.choose = lambda self, choices, out=None, mode="raise": _choose(self, choices,
                                                                             out, mode)
_core.ndarray.partition = _partition
_core.ndarray.argpartition = (lambda self, kth, axis=-1, kind="introselect", order=None:
                              _argpartition(self, kth, axis, kind, order))
_core.ndarray.__contains__ = _contains
_core.ndarray.__round__ = _builtin_round
_core.ndarray.__divmod__ = lambda self, other: _divmod(self, other)
_core.ndarray.__rdivmod__ = lambda self, other: _divmod(other, self)
