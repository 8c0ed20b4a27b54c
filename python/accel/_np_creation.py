"""NumPy's array-building functions outside the Array API: array/asanyarray, append, delete,
insert, resize, trim_zeros, rot90, tri, diag, diagflat, vander, indices, ix_, geomspace,
logspace, kron, block, fill_diagonal and pad. Each is composed from accel's ops, so it runs on
every device and answers `np.<name>(accel_array, ...)` through `__array_function__`; each
follows NumPy 2's definition (its signature, result dtype and errors). Results of functions of
arrays stay on the input's device; creation functions take `device=` (and `like=`)."""

import math as _math
import operator as _operator

import numpy as _np

from . import _core
from ._common import as_array as _arr, axis_index as _axis_index, device_of as _device_of
from ._common import write_target as _write_target
from ._numpy_functions import diagonal as _diagonal
from ._quantiles import median as _median

__all__ = ["array", "asanyarray", "asarray_chkfinite", "append", "delete", "insert", "resize",
           "trim_zeros", "rot90", "tri", "diag", "diagflat", "vander", "indices", "ix_",
           "linspace", "geomspace", "logspace", "kron", "block", "fill_diagonal", "pad"]


def _like_device(like, device):
    return like.device if device is None and isinstance(like, _core.ndarray) else device


def _is_inexact(dt):
    return dt.kind in "fc"


def _along(a, axis, key):
    """a[..., key, ...] with key on axis."""
    return a[(slice(None),) * axis + (key,)]


def _set_along(a, axis, key, value):
    a[(slice(None),) * axis + (key,)] = value


# ---- array conversion ---------------------------------------------------------------------------

def array(object, dtype=None, *, copy=True, order="K", subok=False, ndmin=0, ndmax=0, like=None,
          device=None):
    """NumPy's array: a copy by default; copy=None copies only where needed and copy=False
    never copies (ValueError where it would have to). ndmin prepends axes of length 1. order
    lays a copy out as NumPy's: 'K' keeps the input's axis order, 'A' keeps a Fortran-ordered
    input so, 'C' and 'F' make the result C- or Fortran-contiguous. accel has no subclasses,
    so subok changes nothing; ndmax can only be 0 or at least the dimensions of the result
    (NumPy makes an object array below that, which accel does not have). like= (an accel
    array) or device= places the result."""
    if (type(object) is list and copy and order == "K" and not ndmin and not ndmax and like is None
            and device is None):
        # array([...]) and array([...], dtype), the common call: a list's values are always new
        # memory, so asarray's conversion is the copy.
        return _core.asarray(object, dtype)
    device = _like_device(like, device)
    if copy and isinstance(object, _core.ndarray):
        # One copy, made in the order asked for (NumPy's K, the default, keeps the axis order).
        x = object.astype(object.dtype if dtype is None else dtype, order=order or "K")
        if device is not None:
            x = x.to_device(device)  # the same device: x itself
    else:
        x = _core.asarray(object, dtype=dtype, copy=None if copy is None else bool(copy),
                          device=device, order=order)
    if ndmax and not isinstance(object, (_core.ndarray, _np.ndarray)) and x.ndim > ndmax:
        raise ValueError(f"[array] ndmax={ndmax} below the {x.ndim} dimensions of the input "
                         "needs an object array, which accel does not have")
    if x.ndim < ndmin:
        x = _core.reshape(x, (1,) * (ndmin - x.ndim) + tuple(x.shape))
    return x


def asanyarray(a, dtype=None, order=None, *, device=None, copy=None, like=None):
    """NumPy's asanyarray: accel has no array subclasses, so this is asarray."""
    return array(a, dtype=dtype, copy=copy, order=order, like=like, device=device)


def asarray_chkfinite(a, dtype=None, order=None):
    """asarray, raising ValueError when a float or complex result holds an inf or a NaN."""
    x = array(a, dtype=dtype, copy=None, order=order)
    if _is_inexact(x.dtype) and not bool(_core.all(_core.isfinite(x))):
        raise ValueError("[asarray_chkfinite] array must not contain infs or NaNs")
    return x


# ---- joining, removing, reshaping ---------------------------------------------------------------

def append(arr, values, axis=None):
    """values joined to the end of arr along axis (both flattened when axis is None), in their
    promoted dtype."""
    device = _device_of(arr, values)
    a, v = _arr(arr, device), _arr(values, device)
    if axis is None:
        a, v, axis = _core.reshape(a, (-1,)), _core.reshape(v, (-1,)), 0
    return _core.concatenate([a, v], axis)


def _flat_and_axis(arr, axis, name):
    a = _arr(arr)
    if axis is None:
        return _core.reshape(a, (-1,)), 0
    return a, _axis_index(axis, a.ndim, name)


def _index_array(obj, device):
    """obj (a sequence, NumPy or accel array) as an accel array; an empty sequence that is not an
    array is taken as int64, as NumPy takes it as intp."""
    idx = _arr(obj, device)
    if idx.size == 0 and not isinstance(obj, (_core.ndarray, _np.ndarray)):
        idx = _core.astype(idx, _core.int64)
    return idx


def _check_integer_indices(idx, n, axis, name, upper):
    if idx.dtype.kind not in "iu":
        raise IndexError(f"[{name}] arrays used as indices must be of integer (or boolean) type, "
                         f"got {idx.dtype}")
    out_of_bounds = _core.logical_or(idx < -n, idx > upper)
    if bool(_core.any(out_of_bounds)):
        first = int(_core.reshape(idx, (-1,))[_core.reshape(out_of_bounds, (-1,))][0])
        raise IndexError(f"[{name}] index {first} is out of bounds for axis {axis} with size {n}")


def _arr_order(a):
    """The order of NumPy's new array in insert and delete: F for an array Fortran- and not
    C-contiguous, else C."""
    return "F" if a.flags.f_contiguous and not a.flags.c_contiguous else "C"


def _joined_along(a, axis, pieces):
    """The pieces (arrays of a's dtype, or broadcastable to their place) written one after
    another along axis into a new array laid out in _arr_order(a), as NumPy's insert and delete
    build theirs."""
    shape = list(a.shape)
    shape[axis] = sum(p.shape[axis] for p in pieces)
    new = _core.empty(tuple(shape), dtype=a.dtype, device=a.device, order=_arr_order(a))
    start = 0
    for p in pieces:
        _set_along(new, axis, slice(start, start + p.shape[axis]), p)
        start += p.shape[axis]
    return new


def delete(arr, obj, axis=None):
    """A new array without the entries obj (an int, a slice, a sequence of ints or a boolean
    mask as long as the axis) along axis; a flattened arr when axis is None."""
    a, axis = _flat_and_axis(arr, axis, "delete")
    n = a.shape[axis]
    if isinstance(obj, slice):
        drop = range(n)[obj]
        keep = _core.ones(n, dtype=_core.bool, device=a.device)
        if len(drop):
            keep[_core.arange(drop.start, drop.stop, drop.step, dtype=_core.int64,
                              device=a.device)] = False
        kept = _core.compress(keep, a, axis=axis)  # C-ordered; NumPy's is in arr's order
        return kept if _arr_order(a) == "C" else _core.asarray(kept, order="F")
    idx = None
    if not isinstance(obj, (int, _np.integer)) or isinstance(obj, (bool, _np.bool_)):
        idx = _index_array(obj, a.device)
        if idx.size == 1 and idx.dtype.kind in "iu":
            obj, idx = int(_core.reshape(idx, ())), None  # one index: NumPy's single-value path
    if idx is None:
        obj = _operator.index(obj)
        if not -n <= obj < n:
            raise IndexError(f"[delete] index {obj} is out of bounds for axis {axis} with size {n}")
        obj %= n
        return _joined_along(a, axis, [_along(a, axis, slice(None, obj)),
                                       _along(a, axis, slice(obj + 1, None))])
    if idx.dtype == _core.bool:
        if tuple(idx.shape) != (n,):
            raise ValueError("[delete] boolean array argument obj to delete must be one "
                             f"dimensional and match the axis length of {n}; got shape "
                             f"{tuple(idx.shape)}")
        return _along(a, axis, _core.logical_not(idx))
    _check_integer_indices(idx, n, axis, "delete", n - 1)
    keep = _core.ones(n, dtype=_core.bool, device=a.device)
    if idx.size:
        keep[_core.reshape(_core.astype(idx, _core.int64) % n, (-1,))] = False
    # NumPy's arr[..., keep, ...]: laid out as its fancy indexing lays out a mask's result.
    return _along(a, axis, keep)


def insert(arr, obj, values, axis=None):
    """NumPy's insert: values before the entries obj (an int, a slice, a sequence of ints or a
    1-d boolean mask) along axis; arr flattened when axis is None. values are cast to arr's
    dtype; a scalar obj inserts values like arr[..., obj, ...] = values, a sequence obj like
    arr[..., obj, ...] = values with obj as an index array."""
    a, axis = _flat_and_axis(arr, axis, "insert")
    n = a.shape[axis]
    if isinstance(obj, slice):
        r = range(n)[obj]
        idx = _core.arange(r.start, r.stop, r.step, dtype=_core.int64, device=a.device)
    else:
        idx = _index_array(obj, a.device)
        if idx.dtype == _core.bool:
            if idx.ndim != 1:
                raise ValueError("[insert] boolean array argument obj to insert must be one "
                                 f"dimensional; got {idx.ndim} dimensions")
            idx = _core.nonzero(idx)[0]
        elif idx.ndim > 1:
            raise ValueError("[insert] index array argument obj to insert must be one "
                             f"dimensional or scalar; got {idx.ndim} dimensions")
    if idx.size == 1:
        if idx.dtype.kind not in "iu":
            raise TypeError(f"[insert] index {obj!r} must be an integer, got {idx.dtype}")
        index = int(_core.reshape(idx, ()))
        if not -n <= index <= n:
            raise IndexError(f"[insert] index {obj} is out of bounds for axis {axis} with size {n}")
        index = index + n if index < 0 else index
        v = array(values, dtype=a.dtype, copy=None, ndmin=a.ndim, device=a.device)
        if idx.ndim == 0:
            v = _core.moveaxis(v, 0, axis)
        shape = list(a.shape)
        shape[axis] = v.shape[axis]
        v = _core.broadcast_to(v, tuple(shape))
        return _joined_along(a, axis, [_along(a, axis, slice(None, index)), v,
                                       _along(a, axis, slice(index, None))])
    _check_integer_indices(idx, n, axis, "insert", n)
    idx = _core.astype(idx, _core.int64)
    idx = _core.where(idx < 0, idx + n, idx)
    numnew = idx.size
    # Each new entry lands after the earlier ones (a stable order of idx) have shifted it.
    order = _core.argsort(idx, stable=True)
    positions = _core.empty(numnew, dtype=_core.int64, device=a.device)
    positions[order] = _core.take(idx, order) + _core.arange(numnew, dtype=_core.int64,
                                                             device=a.device)
    shape = list(a.shape)
    shape[axis] += numnew
    old = _core.ones(shape[axis], dtype=_core.bool, device=a.device)
    old[positions] = False
    new = _core.empty(tuple(shape), dtype=a.dtype, device=a.device, order=_arr_order(a))
    if not isinstance(values, (_core.ndarray, _np.ndarray)):
        values = array(values, dtype=a.dtype, copy=None, device=a.device)  # as NumPy: no complex
    _set_along(new, axis, positions, _core.astype(_arr(values, a.device), a.dtype))
    _set_along(new, axis, _core.nonzero(old)[0], a)
    return new


def resize(a, new_shape):
    """A new array of new_shape holding a's elements (flattened) repeated as often as needed;
    zeros when a is empty."""
    x = _arr(a)
    shape = (new_shape,) if isinstance(new_shape, (int, _np.integer)) else tuple(new_shape)
    shape = tuple(_operator.index(d) for d in shape)
    if any(d < 0 for d in shape):
        raise ValueError(f"[resize] all elements of `new_shape` must be non-negative; got {shape}")
    size = _math.prod(shape)
    if x.size == 0 or size == 0:
        return _core.zeros(shape, dtype=x.dtype, device=x.device)
    if size > 2**59:  # accel's bound on any array (core/shape.cpp)
        raise _core.ShapeError(f"[resize] array is too big: shape {shape} has more than 2^59 "
                               "elements")
    flat = _core.reshape(x, (-1,))
    repeats = -(-size // x.size)
    return _core.reshape(_core.tile(flat, repeats)[:size], shape)


def trim_zeros(filt, trim="fb", axis=None):
    """filt without its leading ('f') and/or trailing ('b') slices that are all zero along the
    given axes (all of them when axis is None); all zero gives an empty array."""
    x = _arr(filt)
    trim = trim.lower()
    if trim not in ("fb", "bf", "f", "b"):
        raise ValueError(f"[trim_zeros] unexpected character(s) in `trim`: {trim!r}")
    if axis is None:
        axes = tuple(range(x.ndim))
    else:
        axes = (axis,) if isinstance(axis, (int, _np.integer)) else tuple(axis)
        axes = tuple(_axis_index(ax, x.ndim, "trim_zeros") for ax in axes)
        if len(set(axes)) != len(axes):
            raise ValueError(f"[trim_zeros] repeated axis in {axis!r}")
    if not axes:
        return filt
    nonzero = _core.argwhere(x)
    key = []
    for ax in range(x.ndim):
        if ax not in axes:
            key.append(slice(None))
        elif nonzero.shape[0] == 0:
            key.append(slice(0, 0))
        else:
            start = int(_core.min(nonzero[:, ax])) if "f" in trim else None
            stop = int(_core.max(nonzero[:, ax])) + 1 if "b" in trim else None
            key.append(slice(start, stop))
    return x[tuple(key)]


def rot90(m, k=1, axes=(0, 1)):
    """m rotated by 90 degrees k times in the plane of axes, from the first axis towards the
    second (a view, as NumPy's)."""
    x = _arr(m)
    axes = tuple(axes)
    if len(axes) != 2:
        raise ValueError(f"[rot90] len(axes) must be 2; got axes={axes}")
    if axes[0] == axes[1] or abs(axes[0] - axes[1]) == x.ndim:
        raise ValueError(f"[rot90] axes must be different; got axes={axes}")
    if not all(-x.ndim <= ax < x.ndim for ax in axes):
        raise ValueError(f"[rot90] axes={axes} out of range for array of ndim={x.ndim}")
    k %= 4
    if k == 0:
        return x[...]
    if k == 2:
        return _core.flip(_core.flip(x, axes[0]), axes[1])
    perm = list(range(x.ndim))
    perm[axes[0]], perm[axes[1]] = perm[axes[1]], perm[axes[0]]
    if k == 1:
        return _core.permute_dims(_core.flip(x, axes[1]), tuple(perm))
    return _core.flip(_core.permute_dims(x, tuple(perm)), axes[1])


# ---- matrices -----------------------------------------------------------------------------------

def tri(N, M=None, k=0, dtype=float, *, like=None, device=None):
    """An N x M array (M defaults to N) with ones at and below the k-th diagonal, zeros above;
    float64 by default. device= (or an accel array as like=) places it."""
    device = _like_device(like, device)
    M = N if M is None else M
    rows = _core.reshape(_core.arange(N, dtype=_core.int64, device=device), (-1, 1))
    cols = _core.arange(-k, M - k, dtype=_core.int64, device=device)
    return _core.astype(_core.greater_equal(rows, cols), dtype)


def diag(v, k=0):
    """A 2-d array with the 1-d v on its k-th diagonal, or the k-th diagonal of a 2-d v."""
    x = _arr(v)
    if x.ndim == 2:
        return _diagonal(x, k)
    if x.ndim != 1:
        raise ValueError(f"[diag] input must be 1- or 2-d; got {x.ndim} dimensions")
    n = x.shape[0] + abs(k)
    res = _core.zeros((n, n), dtype=x.dtype, device=x.device)
    i = _core.arange(x.shape[0], dtype=_core.int64, device=x.device)
    res[i + max(-k, 0), i + max(k, 0)] = x
    return res


def diagflat(v, k=0):
    """A 2-d array with v, flattened, on its k-th diagonal."""
    return diag(_core.reshape(_arr(v), (-1,)), k)


def vander(x, N=None, increasing=False):
    """The Vandermonde matrix of the 1-d x: columns x**(N-1), ..., x**0 (reversed when
    increasing), as NumPy's running products in x's dtype promoted with int64."""
    x = _arr(x)
    if x.ndim != 1:
        raise ValueError(f"[vander] x must be a one-dimensional array or sequence; got {x.ndim} "
                         "dimensions")
    N = x.shape[0] if N is None else _operator.index(N)
    dt = _core.promote_types(x.dtype, _core.int64)
    cols = [_core.ones((x.shape[0], min(N, 1)), dtype=dt, device=x.device)]
    if N > 1:
        powers = _core.broadcast_to(_core.reshape(_core.astype(x, dt), (-1, 1)),
                                    (x.shape[0], N - 1))
        cols.append(_core.cumprod(powers, axis=1))
    v = _core.concatenate(cols, 1)
    # NumPy fills a C-ordered matrix through a reversed view: the result itself is C-ordered
    # (a copy in order K lays the reversed axis out forwards).
    return v if increasing else _core.flip(v, 1).copy()


def kron(a, b):
    """The Kronecker product: blocks of b scaled by each element of a, the shorter shape padded
    with leading 1s."""
    device = _device_of(a, b)
    y = _arr(b, device)
    x = array(a, copy=None, ndmin=y.ndim, device=y.device)
    if x.ndim == 0 or y.ndim == 0:
        return _core.multiply(x, y)
    nd = max(x.ndim, y.ndim)
    xs = (1,) * (nd - x.ndim) + tuple(x.shape)
    ys = (1,) * (nd - y.ndim) + tuple(y.shape)
    xa = _core.reshape(x, tuple(d for s in xs for d in (s, 1)))
    ya = _core.reshape(y, tuple(d for s in ys for d in (1, s)))
    return _core.reshape(_core.multiply(xa, ya), tuple(p * q for p, q in zip(xs, ys)))


def fill_diagonal(a, val, wrap=False):
    """Writes val (repeated as needed) into the main diagonal of the accel array a, in place,
    as NumPy's: a 2-d a's diagonal runs over a.flat every a.shape[1] + 1 elements and, with
    wrap, on past the square part of a tall a; an n-d a needs all dimensions equal."""
    a = _write_target(a, "fill_diagonal")
    if a.ndim < 2:
        raise ValueError(f"[fill_diagonal] array must be at least 2-d; got {a.ndim} dimensions")
    if a.ndim == 2:
        step = a.shape[1] + 1
        end = a.size if wrap else min(a.size, a.shape[1] * a.shape[1])
    else:
        if len(set(a.shape)) != 1:
            raise ValueError(f"[fill_diagonal] all dimensions of input must be of equal length; "
                             f"got shape {tuple(a.shape)}")
        step = 1 + sum(_math.prod(a.shape[:i + 1]) for i in range(a.ndim - 1))
        end = a.size
    flat = _core.arange(0, end, step, dtype=_core.int64, device=a.device)
    if flat.size == 0:
        return None
    coords = []
    rest = flat
    for n in reversed(a.shape):
        coords.append(rest % n)
        rest = rest // n
    v = _core.astype(_core.reshape(_arr(val, a.device), (-1,)), a.dtype)
    if v.size == 0:
        return None
    a[tuple(reversed(coords))] = resize(v, flat.size)
    return None


# ---- grids and index arrays ---------------------------------------------------------------------

def indices(dimensions, dtype=int, sparse=False, *, device=None):
    """The index grid of an array of shape dimensions: an array of shape (len(dimensions),
    *dimensions) whose i-th entry holds each element's i-th index (int64 by default), or with
    sparse the tuple of the grid's broadcastable 1-axis arrays. device= places it."""
    dims = tuple(_operator.index(d) for d in dimensions)
    nd = len(dims)
    parts = tuple(_core.reshape(_core.arange(d, dtype=dtype, device=device),
                                (1,) * i + (d,) + (1,) * (nd - i - 1))
                  for i, d in enumerate(dims))
    if sparse:
        return parts
    if not parts:
        return _core.empty((0,), dtype=dtype, device=device)
    return _core.stack([_core.broadcast_to(p, dims) for p in parts])


def ix_(*args):
    """Open-mesh index arrays from 1-d sequences: the k-th has its values along axis k and 1s
    elsewhere; a boolean sequence gives the indices of its true entries."""
    device = _device_of(*args)
    out = []
    for k, seq in enumerate(args):
        new = _index_array(seq, device)
        if new.ndim != 1:
            raise ValueError(f"[ix_] cross index must be 1 dimensional; argument {k} has "
                             f"{new.ndim} dimensions")
        if new.dtype == _core.bool:
            new = _core.nonzero(new)[0]
        out.append(_core.reshape(new, (1,) * k + (new.size,) + (1,) * (len(args) - k - 1)))
    return tuple(out)


# ---- spaced values ------------------------------------------------------------------------------

def _inexact(dt):
    return dt if _is_inexact(dt) else _core.float64


def _linspace(start, stop, num, endpoint, dtype, axis, device):
    """NumPy's linspace for array (or weak scalar) start and stop, step by step as NumPy's (so
    rounding matches): arange * step + start, the last value set to stop; an integer dtype
    takes the floor."""
    return _linspace_and_step(start, stop, num, endpoint, dtype, axis, device)[0]


def _linspace_and_step(start, stop, num, endpoint, dtype, axis, device):
    """_linspace's samples and their step (NaN where there are fewer than two intervals' ends,
    as NumPy's retstep)."""
    num = _operator.index(num)
    if num < 0:
        raise ValueError(f"[linspace] number of samples, {num}, must be non-negative")
    div = num - 1 if endpoint else num
    dt = _inexact(_core.result_type(start, stop))
    start, stop = _core.asarray(start, dtype=dt, device=device), \
        _core.asarray(stop, dtype=dt, device=device)
    delta = _core.subtract(stop, start)
    y = _core.reshape(_core.arange(0, num, dtype=dt, device=device), (-1,) + (1,) * delta.ndim)
    if div > 0:
        step = delta / div
        y = y / div * delta if bool(_core.any(step == 0)) else y * step
    else:
        step = _core.asarray(float("nan"), dtype=dt, device=device)
        y = y * delta
    y = y + start
    if endpoint and num > 1:
        y = _core.concatenate([y[:-1], _core.broadcast_to(stop, (1,) + tuple(y.shape[1:]))], 0)
    if axis != 0:
        y = _core.moveaxis(y, 0, axis)
    if dtype is None:
        return y, step
    dtype = _core.result_type(dtype)
    if dtype.kind in "iu":
        y = _core.floor(y)
    return _core.astype(y, dtype), step


_PY_NUMBERS = (int, float, complex)


def linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=None, axis=0, *,
             device=None):
    """num evenly spaced values from start to stop (stop left out with endpoint=False), as
    NumPy's linspace: Python numbers give float64 (complex128) values; arrays and NumPy
    scalars broadcast, keep their precision (float32 ends give float32) and put the samples
    on `axis`; retstep=True also returns the step (NaN where there are fewer than two
    intervals' ends). device= places it."""
    if type(start) in _PY_NUMBERS and type(stop) in _PY_NUMBERS and not retstep:
        # Python numbers (the common case) go straight to the C++ kernel; axis has one place.
        _axis_index(axis, 1, "linspace")
        return _core._linspace_scalars(start, stop, _operator.index(num), endpoint,
                                       dtype=dtype, device=device)
    device = device if device is not None else _device_of(start, stop)
    start, stop = _scalar_or_array(start, device), _scalar_or_array(stop, device)
    nd = max(getattr(start, "ndim", 0), getattr(stop, "ndim", 0))
    y, step = _linspace_and_step(start, stop, num, endpoint, dtype,
                                 _axis_index(axis, nd + 1, "linspace"), device)
    return (y, step) if retstep else y


def _scalar_or_array(x, device):
    # Python scalars stay weak for result_type, as NumPy's functions take them.
    return x if isinstance(x, (int, float, complex)) else _arr(x, device)


def logspace(start, stop, num=50, endpoint=True, base=10.0, dtype=None, axis=0, *, device=None):
    """base ** linspace(start, stop, num): num values spaced evenly on a log scale. An array
    base broadcasts with start and stop; an integer dtype truncates. device= places it."""
    device = device if device is not None else _device_of(start, stop, base)
    start, stop = _scalar_or_array(start, device), _scalar_or_array(stop, device)
    if (base.ndim if isinstance(base, _core.ndarray) else _np.ndim(base)) > 0:
        base = _arr(base, device)
        nd = max(getattr(v, "ndim", 0) for v in (start, stop, base))
        start, stop, base = (array(v, copy=None, ndmin=nd, device=device)
                             for v in (start, stop, base))
        base = _core.expand_dims(base, axis)
    y = _linspace(start, stop, num, endpoint, None, axis, device)
    r = _core.pow(base, y)
    return r if dtype is None else _core.astype(r, dtype)


def geomspace(start, stop, num=50, endpoint=True, dtype=None, axis=0, *, device=None):
    """num values spaced evenly on a log scale from start to stop, both ends exact: float64 (or
    complex128) unless dtype=, computed from start rotated onto the positive reals, so negative
    and complex ends work. device= places it."""
    device = device if device is not None else _device_of(start, stop)
    start, stop = _arr(start, device), _arr(stop, device)
    if bool(_core.any(start == 0)) or bool(_core.any(stop == 0)):
        raise ValueError("[geomspace] geometric sequence cannot include zero")
    dt = _core.result_type(start, stop, _core.float64)
    start, stop = _core.astype(start, dt), _core.astype(stop, dt)
    sign = _core.sign(start)
    start, stop = start / sign, stop / sign
    result = logspace(_core.log10(start), _core.log10(stop), num=num, endpoint=endpoint,
                      base=10.0, dtype=dt, device=device)
    # The ends are start and stop themselves: 10 ** log10(x) need not give x back.
    if num > 0:
        one = (1,) + tuple(result.shape[1:])
        last = num > 1 and endpoint
        pieces = [_core.broadcast_to(start, one), result[1:-1] if last else result[1:]]
        if last:
            pieces.append(_core.broadcast_to(stop, one))
        result = _core.concatenate(pieces, 0)
    result = result * sign
    if axis != 0:
        result = _core.moveaxis(result, 0, axis)
    return result if dtype is None else _core.astype(result, dtype)


# ---- block --------------------------------------------------------------------------------------

def _block_index(index):
    return "arrays" + "".join(f"[{i}]" for i in index)


def _block_depths(arrays, index):
    """(index of the first leaf, the largest leaf ndim), raising where the nesting is ragged, a
    list is empty or a tuple stands in for a list, as NumPy's block does."""
    if type(arrays) is tuple:
        raise TypeError(f"[block] {_block_index(index)} is a tuple. Only lists can be used to "
                        "arrange blocks, and np.block does not allow implicit conversion from "
                        "tuple to ndarray.")
    if type(arrays) is list:
        if not arrays:
            return index + [None], 0
        first, ndim = None, 0
        for i, item in enumerate(arrays):
            sub, sub_ndim = _block_depths(item, index + [i])
            ndim = max(ndim, sub_ndim)
            if first is None:
                first = sub
            elif len(sub) != len(first):
                raise ValueError(f"[block] list depths are mismatched. First element was at "
                                 f"depth {len(first)}, but there is an element at depth "
                                 f"{len(sub)} ({_block_index(sub)})")
            if sub[-1] is None:
                first = sub
        return first, ndim
    return index, arrays.ndim if isinstance(arrays, _core.ndarray) else _np.ndim(arrays)


def _block_leaves(arrays):
    if type(arrays) is list:
        for item in arrays:
            yield from _block_leaves(item)
    else:
        yield arrays


def block(arrays):
    """An array assembled from nested lists of blocks: the innermost lists join along the last
    axis, the next along the one before, and so on; blocks get leading 1s up to the result's
    dimensions."""
    bottom, arr_ndim = _block_depths(arrays, [])
    if bottom and bottom[-1] is None:
        raise ValueError(f"[block] list at {_block_index(bottom)} cannot be empty")
    depth = len(bottom)
    ndim = max(arr_ndim, depth)
    device = _device_of(*_block_leaves(arrays))

    def assemble(x, level):
        if level < depth:
            return _core.concatenate([assemble(item, level + 1) for item in x], -(depth - level))
        return array(x, copy=None, ndmin=ndim, device=device)

    result = assemble(arrays, 0)
    return _core.asarray(result, copy=True, order="C") if depth == 0 else result


# ---- pad ----------------------------------------------------------------------------------------

_PAD_KEYWORDS = {"constant": {"constant_values"}, "edge": set(), "empty": set(), "wrap": set(),
                 "linear_ramp": {"end_values"}, "maximum": {"stat_length"},
                 "minimum": {"stat_length"}, "mean": {"stat_length"}, "median": {"stat_length"},
                 "reflect": {"reflect_type"}, "symmetric": {"reflect_type"}}


def _as_pairs(x, ndim, as_index):
    """A (before, after) pair per axis from a scalar, a pair or one pair per axis (NumPy's
    _as_pairs); as_index rounds to integers and rejects negatives. The parameter is host data
    (pad widths, fill values), so NumPy parses its shape."""
    if x is None:
        return ((None, None),) * ndim
    x = _np.array(_core.asnumpy(x) if isinstance(x, _core.ndarray) else x)
    if as_index:
        x = _np.round(x).astype(_np.int64)
    if x.ndim < 3 and x.size == 1:
        pair = (x.ravel()[0],) * 2
    elif x.ndim < 3 and x.size == 2 and x.shape != (2, 1):
        pair = tuple(x.ravel())
    else:
        pair = None
    if as_index and (x < 0).any():
        raise ValueError(f"[pad] index can't contain negative values; got {x.tolist()}")
    if pair is not None:
        return (pair,) * ndim
    try:
        return tuple(tuple(p) for p in _np.broadcast_to(x, (ndim, 2)))
    except ValueError:
        raise ValueError(f"[pad] a parameter of shape {x.shape} does not broadcast to "
                         f"{(ndim, 2)}, one (before, after) pair per axis") from None


def _block_shape(x, axis, n):
    shape = list(x.shape)
    shape[axis] = n
    return tuple(shape)


def _fill(x, axis, n, value):
    """n slices along axis holding value (a scalar, or an array of one slice)."""
    v = _core.astype(_arr(value, x.device), x.dtype)
    return _core.broadcast_to(v, _block_shape(x, axis, n))


def _pad_edge(x, axis, before, after):
    return (_fill(x, axis, before, _along(x, axis, slice(0, 1))),
            _fill(x, axis, after, _along(x, axis, slice(-1, None))))


def _pad_wrap(x, axis, before, after):
    n = x.shape[axis]
    left = _core.arange(-before, 0, dtype=_core.int64, device=x.device) % n
    right = _core.arange(n, n + after, dtype=_core.int64, device=x.device) % n
    return _core.take(x, left, axis=axis), _core.take(x, right, axis=axis)


def _pad_reflect(x, axis, before, after, odd, include_edge):
    """NumPy's repeated reflection, chunk by chunk as NumPy's _set_reflect_both does it (so the
    'odd' extrapolation rounds the same): each round reflects at most one period of what is
    already there, on both sides."""
    n = x.shape[axis]
    if n == 1:
        return _pad_edge(x, axis, before, after)
    lefts, rights, valid = [], [], x
    while before > 0 or after > 0:
        length = valid.shape[axis]
        if include_edge:
            old, off = length // n * n, 1
        else:
            old, off = (length - 1) // (n - 1) * (n - 1), 0
        left = right = None
        if before > 0:
            c = min(old, before)
            left = _core.flip(_along(valid, axis, slice(1 - off, c + 1 - off)), axis)
            if odd:
                left = 2 * _along(valid, axis, slice(0, 1)) - left
            left = _core.astype(left, x.dtype)
            before -= c
        if after > 0:
            c = min(old, after)
            right = _core.flip(_along(valid, axis, slice(length + off - 1 - c,
                                                         length + off - 1)), axis)
            if odd:
                right = 2 * _along(valid, axis, slice(length - 1, length)) - right
            right = _core.astype(right, x.dtype)
            after -= c
        valid = _core.concatenate([p for p in (left, valid, right) if p is not None], axis)
        if left is not None:
            lefts.insert(0, left)
        if right is not None:
            rights.append(right)
    empty = _core.empty(_block_shape(x, axis, 0), dtype=x.dtype, device=x.device)
    return (_core.concatenate(lefts, axis) if lefts else empty,
            _core.concatenate(rights, axis) if rights else empty)


def _pad_linear_ramp(x, axis, before, after, ends):
    def ramp(end, edge, n):
        end = _arr(end, x.device)
        dt = _inexact(_core.result_type(end, x.dtype))
        return _linspace(_core.astype(end, dt), _core.astype(_core.squeeze(edge, axis), dt), n,
                         False, x.dtype, axis, x.device)
    left = ramp(ends[0], _along(x, axis, slice(0, 1)), before)
    right = _core.flip(ramp(ends[1], _along(x, axis, slice(-1, None)), after), axis)
    return left, right


_STATS = {"maximum": _core.max, "minimum": _core.min, "mean": _core.mean,
          "median": _median}


def _pad_stat(x, axis, before, after, lengths, mode):
    n = x.shape[axis]
    stat = _STATS[mode]

    def of(length, chunk_slice):
        length = n if length is None or n < length else int(length)
        if length == 0 and mode in ("maximum", "minimum"):
            raise ValueError(f"[pad] stat_length of 0 yields no value for padding with "
                             f"mode {mode!r}")
        s = stat(_along(x, axis, chunk_slice(length)), axis=axis, keepdims=True)
        if x.dtype.kind in "iu":
            s = _core.round(s)  # NumPy rounds (half to even) before the cast
        return s

    left = of(lengths[0], lambda m: slice(0, m))
    right = of(lengths[1], lambda m: slice(n - m, n))
    return _fill(x, axis, before, left), _fill(x, axis, after, right)


def pad(array, pad_width, mode="constant", **kwargs):
    """NumPy's pad: array grown by pad_width ((before, after) per axis, one pair for all, or one
    int) with mode 'constant' (constant_values), 'edge', 'reflect' and 'symmetric'
    (reflect_type 'even' or 'odd'; pads longer than the array reflect repeatedly), 'wrap',
    'empty', 'linear_ramp' (end_values) or the statistics 'maximum', 'minimum', 'mean',
    'median' (stat_length). The axes are padded in order, each from the array padded along the
    earlier ones, as NumPy does. A callable mode is not supported (ValueError)."""
    x = _arr(array)
    if callable(mode):
        raise ValueError(f"[pad] a callable mode ({mode!r}) is not supported by accel")
    if mode not in _PAD_KEYWORDS:
        raise ValueError(f"[pad] mode {mode!r} is not supported")
    extra = set(kwargs) - _PAD_KEYWORDS[mode]
    if extra:
        raise ValueError(f"[pad] unsupported keyword arguments for mode {mode!r}: {extra}")
    kind = _np.asarray(_core.asnumpy(pad_width) if isinstance(pad_width, _core.ndarray)
                       else pad_width).dtype.kind
    if kind != "i":
        raise TypeError(f"[pad] `pad_width` must be of integral type; got {pad_width!r}")
    widths = [(int(b), int(a)) for b, a in _as_pairs(pad_width, x.ndim, as_index=True)]
    # NumPy's result is Fortran-ordered for a Fortran- and not C-contiguous array, else C.
    flags = x.flags
    order = "F" if flags.f_contiguous and not flags.c_contiguous else "C"
    if x.size == 0 and mode not in ("constant", "empty"):
        for axis, (b, a) in enumerate(widths):
            if x.shape[axis] == 0 and (b or a):
                raise ValueError(f"[pad] can't extend empty axis {axis} using modes other "
                                 f"than 'constant' or 'empty' (mode {mode!r})")
        shape = tuple(n + b + a for n, (b, a) in zip(x.shape, widths))
        return _core.asarray(_core.empty(shape, dtype=x.dtype, device=x.device), order=order)
    if mode == "constant":
        values = _as_pairs(kwargs.get("constant_values", 0), x.ndim, as_index=False)
    elif mode == "linear_ramp":
        values = _as_pairs(kwargs.get("end_values", 0), x.ndim, as_index=False)
    elif mode in _STATS:
        values = _as_pairs(kwargs.get("stat_length"), x.ndim, as_index=True)
    odd = kwargs.get("reflect_type", "even") == "odd"
    for axis, (b, a) in enumerate(widths):
        if b == 0 and a == 0:
            continue
        if mode == "constant":
            left, right = _fill(x, axis, b, values[axis][0]), _fill(x, axis, a, values[axis][1])
        elif mode == "empty":
            left = _core.empty(_block_shape(x, axis, b), dtype=x.dtype, device=x.device)
            right = _core.empty(_block_shape(x, axis, a), dtype=x.dtype, device=x.device)
        elif mode == "edge":
            left, right = _pad_edge(x, axis, b, a)
        elif mode == "wrap":
            left, right = _pad_wrap(x, axis, b, a)
        elif mode in ("reflect", "symmetric"):
            left, right = _pad_reflect(x, axis, b, a, odd, mode == "symmetric")
        elif mode == "linear_ramp":
            left, right = _pad_linear_ramp(x, axis, b, a, values[axis])
        else:
            left, right = _pad_stat(x, axis, b, a, values[axis], mode)
        x = _core.concatenate([left, x, right], axis)
    if any(b or a for b, a in widths):
        return _core.asarray(x, order=order)  # no copy where the blocks laid it out so
    return _core.asarray(x, copy=True, order=order)
