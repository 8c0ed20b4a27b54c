"""Everyday NumPy functions outside the Array API (comparisons of whole arrays, shape queries,
nan_to_num, diagonal/trace, average, ...), composed from accel's ops so they run on every
device and, through `__array_function__`, answer `np.allclose(a, b)` and the like for accel
arrays. Each follows NumPy 2's definition, dtype rules included."""

import math as _math

import numpy as _np

from . import _core
from ._common import as_array as _arr, axis_index, axis_tuple as _axis_tuple
from ._common import empty_in_order as _empty_in_order, iteration_order as _iteration_order
from ._array_api import finfo as _finfo
from ._indexing import where as _where

__all__ = ["isclose", "allclose", "array_equal", "array_equiv", "copy", "ndim", "shape", "size",
           "iscomplexobj", "isrealobj", "ptp", "nan_to_num", "angle", "diagonal", "trace",
           "average", "unravel_index", "ravel_multi_index", "ascontiguousarray", "asfortranarray",
           "cross"]


def _is_complex(dt):
    return dt in (_core.complex64, _core.complex128)


def _is_float(dt):
    return dt.kind == "f"


def isclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    # NumPy 2: b is taken in at least float64 precision's kind (result_type(b, 1.0)), so
    # integer and bool arrays compare as floats; infinities are close only to themselves.
    x = _arr(a)
    y = _arr(b)
    y = _core.astype(y, _core.result_type(y, 1.0), copy=False)
    close = _core.less_equal(_core.abs(x - y), atol + rtol * _core.abs(y))
    result = _core.logical_or(_core.logical_and(close, _core.isfinite(y)), _core.equal(x, y))
    if equal_nan:  # in place, as NumPy's: the result keeps its layout
        result |= _core.logical_and(_core.isnan(x), _core.isnan(y))
    return result


def allclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    return bool(_core.all(isclose(a, b, rtol=rtol, atol=atol, equal_nan=equal_nan)))


def array_equal(a1, a2, equal_nan=False):
    x, y = _arr(a1), _arr(a2)
    if tuple(x.shape) != tuple(y.shape):
        return False
    same = _core.equal(x, y)
    if equal_nan and (_is_float(x.dtype) or _is_complex(x.dtype)) \
            and (_is_float(y.dtype) or _is_complex(y.dtype)):
        same = _core.logical_or(same, _core.logical_and(_core.isnan(x), _core.isnan(y)))
    return bool(_core.all(same))


def array_equiv(a1, a2):
    x, y = _arr(a1), _arr(a2)
    try:
        _core.broadcast_shapes(tuple(x.shape), tuple(y.shape))
    except ValueError:
        return False
    return bool(_core.all(_core.equal(x, y)))


def copy(a, order="K", subok=False):
    """A copy laid out as NumPy's: 'K' keeps a's axis order (np.copy's default), 'C' and 'F'
    are C- and Fortran-ordered, 'A' Fortran-ordered when a is (and not C-ordered). subok is
    NumPy's, accepted: accel has no subclasses to pass through."""
    x = a if isinstance(a, _core.ndarray) else _core.asarray(a)
    return x.astype(x.dtype, order=order, copy=True)


def ndim(a):
    return _arr(a).ndim


def shape(a):
    return tuple(_arr(a).shape)


def size(a, axis=None):
    s = shape(a)
    if axis is None:
        return _math.prod(s)
    return s[axis]


def iscomplexobj(x):
    return _is_complex(_arr(x).dtype)


def isrealobj(x):
    return not iscomplexobj(x)


def ptp(a, axis=None, out=None, keepdims=False):
    x = _arr(a)
    r = _core.subtract(_core.max(x, axis=axis, keepdims=keepdims),
                       _core.min(x, axis=axis, keepdims=keepdims))
    if out is not None:
        out[...] = r
        return out
    return r


def _nan_to_num_real(x, nan, posinf, neginf):
    big = _finfo(x.dtype).max
    x = _where(_core.isnan(x), nan, x)
    x = _where(_core.isinf(x) & (x > 0), big if posinf is None else posinf, x)
    return _where(_core.isinf(x) & (x < 0), -big if neginf is None else neginf, x)


def nan_to_num(x, copy=True, nan=0.0, posinf=None, neginf=None):
    a = _arr(x)
    # NumPy replaces in a copy of x (order K: laid out as x), or in x itself with copy=False.
    out = x if not copy and isinstance(x, _core.ndarray) else _core.empty_like(a)
    if _is_complex(a.dtype):
        # Each part in place in its own view: the signs of zeros survive, as in NumPy (re + 1j * im
        # would make -0.0 + 0j's real part 0.0).
        out.real[...] = _nan_to_num_real(a.real, nan, posinf, neginf)
        out.imag[...] = _nan_to_num_real(a.imag, nan, posinf, neginf)
    elif _is_float(a.dtype):
        out[...] = _nan_to_num_real(a, nan, posinf, neginf)
    elif out is not a:
        out[...] = a  # integers and bools have nothing to replace
    return out


def angle(z, deg=False):
    a = _arr(z)
    if _is_complex(a.dtype):
        r = _core.atan2(_core.imag(a), _core.real(a))
    else:
        # NumPy's arctan2(0, z) with a Python 0: z's float dtype (float64 for bools), and z's
        # layout alone decides the result's.
        r = _core.atan2(0, a)
    return r * (180.0 / _math.pi) if deg else r


def diagonal(a, offset=0, axis1=0, axis2=1):
    """NumPy's diagonal: a read-only view (accel/ops/views.cpp)."""
    return _core.diagonal(_arr(a), offset, axis1, axis2)


def trace(a, offset=0, axis1=0, axis2=1, dtype=None, out=None):
    r = _core.sum(diagonal(a, offset, axis1, axis2), axis=-1, dtype=dtype)
    if out is not None:
        out[...] = r
        return out
    return r


def average(a, axis=None, weights=None, returned=False, *, keepdims=False):
    x = _arr(a)
    if weights is None:
        # NumPy's a.mean(axis): integers and bools reduce to float64 straight from x, laid out
        # as x's reduction (a float64 copy first would lay out as the copy: fuzz seed 1832075).
        avg = _core.mean(x, axis=axis, keepdims=keepdims)
        count = _core.asarray(x.size // max(avg.size, 1), dtype=avg.dtype, device=x.device)
        return (avg, _core.broadcast_to(count, avg.shape)) if returned else avg
    # NumPy's weighted average: weights along the given axes (any number of them, laid out as
    # a's axes), then multiply(a, w, dtype=...).sum(axes) / w.sum(axes, dtype=...), each laid
    # out as NumPy's ufunc and reductions lay it out (a broadcast a's float copy was not; fuzz
    # seed 1928002).
    w = _arr(weights, x.device)
    axes = None if axis is None else _axis_tuple(axis, x.ndim, "average")
    if tuple(x.shape) != tuple(w.shape):
        if axes is None:
            raise TypeError("average: axis must be specified when shapes of a and weights differ")
        if tuple(w.shape) != tuple(x.shape[ax] for ax in axes):
            raise ValueError(f"average: shape of weights {tuple(w.shape)} must be consistent "
                             f"with shape of a {tuple(x.shape)} along axes {axes}")
        w = _core.permute_dims(w, tuple(sorted(range(len(axes)), key=lambda k: axes[k])))
        w = _core.reshape(w, tuple(n if ax in axes else 1 for ax, n in enumerate(x.shape)))
    exact = not (_is_float(x.dtype) or _is_complex(x.dtype))
    dt = _core.result_type(x.dtype, w.dtype, _core.float64) if exact \
        else _core.result_type(x.dtype, w.dtype)
    scl = _core.sum(w, axis=axes, dtype=dt, keepdims=keepdims)
    if bool(_core.any(scl == 0)):
        raise ZeroDivisionError("average: weights sum to zero, can't be normalized")
    avg = _core.sum(_core.multiply(x, w, dtype=dt), axis=axes, keepdims=keepdims) / scl
    if returned and tuple(scl.shape) != tuple(avg.shape):
        scl = _core.broadcast_to(scl, tuple(avg.shape)).copy()
    return (avg, scl) if returned else avg


def unravel_index(indices, shape, order="C"):
    """Flat indices into a shape as a tuple of coordinate arrays (int64, as NumPy's intp)."""
    if order not in ("C", "F"):
        raise ValueError(f"unravel_index: order must be 'C' or 'F', got {order!r}")
    shape = (shape,) if isinstance(shape, int) else tuple(int(n) for n in shape)
    i = _core.astype(_arr(indices), _core.int64)
    if i.dtype != _core.int64 or _is_float(_arr(indices).dtype):
        raise TypeError("unravel_index: only int indices permitted")
    total = _math.prod(shape)
    if i.size and (bool(_core.any(i < 0)) or bool(_core.any(i >= total))):
        raise ValueError(f"unravel_index: index out of bounds for array with size {total}")
    out = []
    for n in (reversed(shape) if order == "C" else shape):
        out.append(i % n if n else i)
        i = i // n if n else i
    out = out[::-1] if order == "C" else out
    # NumPy writes the coordinates into one array, the coordinate axis innermost and the others
    # in the indices' memory order, and returns views of it: stacked likewise here, so each
    # coordinate array steps as NumPy's.
    shape = tuple(out[0].shape)
    outer_first = _iteration_order(shape, [_arr(indices)]) + [len(shape)]
    stacked = _empty_in_order(shape + (len(out),), outer_first, _core.int64, out[0].device)
    for k, c in enumerate(out):
        stacked[..., k] = c
    return tuple(stacked[..., k] for k in range(len(out)))


def ravel_multi_index(multi_index, dims, mode="raise", order="C"):
    """Coordinate arrays into flat indices (int64); mode 'raise', 'wrap' or 'clip' per axis."""
    if order not in ("C", "F"):
        raise ValueError(f"ravel_multi_index: order must be 'C' or 'F', got {order!r}")
    dims = (dims,) if isinstance(dims, int) else tuple(int(n) for n in dims)
    if len(multi_index) != len(dims):
        raise ValueError(f"ravel_multi_index: {len(multi_index)} index arrays for {len(dims)} dimensions")
    modes = (mode,) * len(dims) if isinstance(mode, str) else tuple(mode)
    coords, given = [], []
    for c, n, m in zip(multi_index, dims, modes):
        c = _arr(c)
        given.append(c)
        if _is_float(c.dtype) or _is_complex(c.dtype):
            raise TypeError("ravel_multi_index: only int indices permitted")
        c = _core.astype(c, _core.int64)
        if m == "wrap":
            c = c % n
        elif m == "clip":
            c = _core.clip(c, 0, n - 1)
        elif m == "raise":
            if c.size and (bool(_core.any(c < 0)) or bool(_core.any(c >= n))):
                raise ValueError("ravel_multi_index: invalid entry in coordinates array")
        else:
            raise ValueError(f"ravel_multi_index: mode must be raise, wrap or clip, got {m!r}")
        coords.append(c)
    flat = None
    for c, n in (zip(coords, dims) if order == "C" else zip(reversed(coords), reversed(dims))):
        flat = c if flat is None else flat * n + c
    # NumPy allocates the flat indices through its iterator over the coordinate arrays as given
    # (an astype copy of a broadcast one moves its broadcast axes innermost; fuzz seed 1901808).
    out = _empty_in_order(tuple(flat.shape), _iteration_order(flat.shape, given), _core.int64,
                          flat.device)
    out[...] = flat
    return out


def c_contiguous(x):
    """Whether x's elements lie in C order without gaps (NumPy's flags.c_contiguous), read
    without making a flags object."""
    return _core._layout_flags(_arr(x))[0]


def ascontiguousarray(a, dtype=None, *, like=None):
    """a as a C-contiguous array of at least one dimension (NumPy's): no copy when it already
    is one of that dtype."""
    if dtype is None and type(a) is _core.ndarray and a.ndim and _core._layout_flags(a)[0]:
        return a  # the commonest call, answered first
    x = _core.asarray(a) if dtype is None else _core.asarray(a, dtype=dtype)
    if x.ndim == 0:
        x = _core.reshape(x, (1,))
    return x if c_contiguous(x) else _core.asarray(x, copy=True, order="C")


def asfortranarray(a, dtype=None, *, like=None):
    """a as a Fortran-contiguous array of at least one dimension (NumPy's): no copy when it
    already is one of that dtype (a.T of a C-ordered a, for instance)."""
    x = _core.asarray(a) if dtype is None else _core.asarray(a, dtype=dtype)
    if x.ndim == 0:
        x = _core.reshape(x, (1,))
    return _core.asarray(x, order="F")


def cross_last(a, b):
    """The cross products of the vectors along a's and b's last axes (2 or 3 elements; a missing
    third component is 0, and two 2-element vectors give the z component alone), in the promoted
    dtype and with NumPy's terms, so rounding, -0.0 and integer wrap-around come out as NumPy's.
    The other axes broadcast."""
    dt = _core.promote_types(a.dtype, b.dtype)
    a, b = _core.astype(a, dt, copy=False), _core.astype(b, dt, copy=False)
    a0, a1, b0, b1 = a[..., 0], a[..., 1], b[..., 0], b[..., 1]
    z = a0 * b1 - a1 * b0
    if a.shape[-1] == 2 and b.shape[-1] == 2:
        return z
    if a.shape[-1] == 3 and b.shape[-1] == 3:
        a2, b2 = a[..., 2], b[..., 2]
        x, y = a1 * b2 - a2 * b1, a2 * b0 - a0 * b2
    elif a.shape[-1] == 2:  # a2 = 0
        b2 = b[..., 2]
        x, y = a1 * b2, -(a0 * b2)
    else:  # b2 = 0
        a2 = a[..., 2]
        x, y = -(a2 * b1), a2 * b0
    # Every term is an element of a times one of b, so x, y and z share one broadcast shape.
    return _core.stack([x, y, z], axis=-1)


def cross(a, b, axisa=-1, axisb=-1, axisc=-1, axis=None):
    """NumPy's cross: the vectors lie along axisa of a and axisb of b (2 or 3 elements each; the
    other axes broadcast), the result's along axisc; axis= sets all three. 2-element vectors
    warn as NumPy 2 does (deprecated there) and give the same values."""
    if axis is not None:
        axisa = axisb = axisc = axis
    a, b = _arr(a), _arr(b)
    if a.ndim < 1 or b.ndim < 1:
        raise ValueError(f"[cross] both arrays need at least one dimension; got {a.ndim} and "
                         f"{b.ndim}")
    a = _core.moveaxis(a, axis_index(axisa, a.ndim, "cross", "axisa"), -1)
    b = _core.moveaxis(b, axis_index(axisb, b.ndim, "cross", "axisb"), -1)
    if a.shape[-1] not in (2, 3) or b.shape[-1] not in (2, 3):
        raise ValueError(f"[cross] the vectors must have 2 or 3 elements; got {a.shape[-1]} "
                         f"(axisa) and {b.shape[-1]} (axisb)")
    if a.shape[-1] == 2 or b.shape[-1] == 2:
        import warnings
        warnings.warn("Arrays of 2-dimensional vectors are deprecated. Use arrays of "
                      "3-dimensional vectors instead. (deprecated in NumPy 2.0)",
                      DeprecationWarning, stacklevel=2)
    r = cross_last(a, b)
    if a.shape[-1] == 2 and b.shape[-1] == 2:
        return r
    return _core.moveaxis(r, -1, axis_index(axisc, r.ndim, "cross", "axisc"))
