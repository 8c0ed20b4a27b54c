"""NumPy's index helpers and index-driven writes (tril_indices, diag_indices, mask_indices, select,
piecewise, choose, put_along_axis, putmask, place), the function-mapping helpers
(apply_along_axis, apply_over_axes) and the small queries isscalar and iterable.
Each follows NumPy 2's definition, dtype rules and error classes included, and is composed from
accel's ops so it runs on every device; through `__array_function__` they also answer
`np.select(...)`, `np.choose(...)` and the like for accel arrays."""

import itertools as _itertools
import numbers as _numbers

import numpy as _np

from . import _core
from ._common import as_array as _arr, axis_index as _axis_index, write_target as _write_target

__all__ = ["tril_indices", "triu_indices", "tril_indices_from", "triu_indices_from",
           "diag_indices", "diag_indices_from", "mask_indices", "select", "piecewise", "choose",
           "put_along_axis", "putmask", "place", "apply_along_axis", "apply_over_axes",
           "isscalar", "iterable"]

# Python scalars take part in dtype promotion as "weak" values (NumPy 2's NEP 50): they adopt
# the arrays' dtype instead of widening it.
_WEAK_SCALARS = (int, float, complex)


def _device_of(*xs):
    for x in xs:
        if isinstance(x, _core.ndarray):
            return x.device
    return None


def _cycled(values, n):
    """The first n elements of values.ravel() repeated end to end (n > 0, values not empty)."""
    flat = _core.reshape(values, (-1,))
    reps = -(-n // flat.shape[0])
    return (_core.tile(flat, (reps,)) if reps > 1 else flat)[:n]


# ---- index arrays ------------------------------------------------------------------------------

def _triangle_indices(n, k, m, device, lower):
    if not isinstance(k, (_numbers.Integral, _np.integer)):
        name = "tril_indices" if lower else "triu_indices"
        raise TypeError(f"[{name}] the diagonal offset k must be an integer; got {k!r}")
    m = n if m is None else m
    rows, cols = max(int(n), 0), max(int(m), 0)
    i = _core.reshape(_core.arange(rows, dtype=_core.int64, device=device), (rows, 1))
    j = _core.arange(cols, dtype=_core.int64, device=device)
    mask = (j - i <= k) if lower else (j - i >= k)
    return tuple(_core.nonzero(mask))


def tril_indices(n, k=0, m=None, *, device=None):
    """The (row, column) indices of the lower triangle of an (n, m) array, diagonal k and below
    (NumPy's); int64 arrays, in row-major order. `device=` (accel's addition) places them."""
    return _triangle_indices(n, k, m, device, lower=True)


def triu_indices(n, k=0, m=None, *, device=None):
    """The (row, column) indices of the upper triangle of an (n, m) array, diagonal k and above
    (NumPy's); int64 arrays, in row-major order. `device=` (accel's addition) places them."""
    return _triangle_indices(n, k, m, device, lower=False)


def _check_2d(arr, name):
    if arr.ndim != 2:
        raise ValueError(f"[{name}] input array must be 2-d; got {arr.ndim} dimensions")


def tril_indices_from(arr, k=0):
    """tril_indices for arr's (2-d) shape, on arr's device."""
    arr = _arr(arr)
    _check_2d(arr, "tril_indices_from")
    return tril_indices(arr.shape[-2], k=k, m=arr.shape[-1], device=arr.device)


def triu_indices_from(arr, k=0):
    """triu_indices for arr's (2-d) shape, on arr's device."""
    arr = _arr(arr)
    _check_2d(arr, "triu_indices_from")
    return triu_indices(arr.shape[-2], k=k, m=arr.shape[-1], device=arr.device)


def diag_indices(n, ndim=2, *, device=None):
    """ndim copies of arange(n): the indices of the main diagonal of an n**ndim array; int64, or
    float64 for a float n, as NumPy's arange(n)."""
    dtype = _core.float64 if isinstance(n, (float, _np.floating)) else _core.int64
    idx = _core.arange(n, dtype=dtype, device=device)
    return (idx,) * ndim


def diag_indices_from(arr):
    """diag_indices for arr, which must have at least two dimensions, all of one length."""
    arr = _arr(arr)
    if arr.ndim < 2:
        raise ValueError(f"[diag_indices_from] input array must be at least 2-d; got "
                         f"{arr.ndim} dimensions")
    if len(set(arr.shape)) != 1:
        raise ValueError(f"[diag_indices_from] all dimensions of input must be of equal length; "
                         f"got shape {tuple(arr.shape)}")
    return diag_indices(arr.shape[0], arr.ndim, device=arr.device)


def mask_indices(n, mask_func, k=0, *, device=None):
    """The indices where mask_func(ones((n, n)), k) is nonzero (NumPy's): mask_func is given an
    int64 accel array of ones, as tril and triu take."""
    ones = _core.ones((n, n), dtype=_core.int64, device=device)
    return tuple(_core.nonzero(_arr(mask_func(ones, k), device) != 0))


# ---- choosing among arrays ---------------------------------------------------------------------

def _weak_or_array(x, device):
    return x if type(x) in _WEAK_SCALARS else _arr(x, device)


def _as_dtype(x, dtype, device):
    return _core.astype(_arr(x, device), dtype)


def select(condlist, choicelist, default=0):
    """NumPy's select: where condlist[i] is the first true condition, choicelist[i], elsewhere
    default. The dtype is result_type of the choices and default (Python scalars weak); every
    condition must be a bool array; conditions and choices broadcast together."""
    if len(condlist) != len(choicelist):
        raise ValueError(f"[select] list of cases must be same length as list of conditions; "
                         f"got {len(choicelist)} choices for {len(condlist)} conditions")
    if len(condlist) == 0:
        raise ValueError("[select] select with an empty condition list is not possible")
    device = _device_of(*condlist, *choicelist, default)
    choices = [_weak_or_array(c, device) for c in (*choicelist, default)]
    try:
        dtype = _core.result_type(*choices)
    except TypeError as e:
        raise TypeError(f"[select] choicelist and default value do not have a common dtype: "
                        f"{e}") from None
    conds = [_arr(c, device) for c in condlist]
    for i, c in enumerate(conds):
        if c.dtype != _core.bool:
            raise TypeError(f"[select] invalid entry {i} in condlist: should be boolean ndarray; "
                            f"got {c.dtype}")
    for i, c in enumerate(choices[:-1]):
        # NumPy writes a Python scalar choice as its default dtype (int64, float64, complex128)
        # with copyto's 'same_kind' rule, which refuses int64 into an unsigned dtype.
        if type(c) is int and dtype.kind == "u":
            raise TypeError(f"[select] cannot cast choice {i} (a Python int, as int64) to "
                            f"{dtype} according to the rule 'same_kind'")
    # A Python scalar out of the dtype's range wraps around, as in NumPy's select.
    choices = [_as_dtype(c, dtype, device) for c in choices]
    shape = _core.broadcast_shapes(*(tuple(x.shape) for x in conds + choices))
    result = _core.broadcast_to(choices[-1], shape)
    for cond, choice in zip(reversed(conds), reversed(choices[:-1])):
        result = _core.where(cond, choice, result)
    # NumPy's result is a new C-ordered array whatever its inputs' layout (the chain of where
    # keeps theirs), so its ravel() is a view there too (fuzz seed 1290455).
    return result if result.flags.c_contiguous else _core.asarray(result, order="C")


def piecewise(x, condlist, funclist, *args, **kw):
    """NumPy's piecewise: y has x's shape and dtype; where condlist[i] holds, y is funclist[i]
    (a scalar, or a callable given x's elements there, with *args and **kw). One more function
    than conditions is the "otherwise" case, where no condition holds. Elsewhere y is 0."""
    x = _arr(x)
    if isinstance(condlist, _core.ndarray):
        # NumPy's condlist[0] is a scalar for a 1-d condlist: one condition, not a list of them.
        wrap = condlist.ndim == 0 or (condlist.ndim == 1 and x.ndim != 0)
    elif isscalar(condlist):
        wrap = True
    else:
        wrap = len(condlist) > 0 and x.ndim != 0 and \
            not isinstance(condlist[0], (list, _core.ndarray, _np.ndarray))
    conds = [condlist] if wrap else list(condlist)
    if not conds:
        raise IndexError("[piecewise] condlist is empty; at least one condition is needed")
    conds = [_core.astype(_arr(c, x.device), _core.bool) for c in conds]
    n = len(conds)
    if n == len(funclist) - 1:
        otherwise = conds[0]
        for c in conds[1:]:
            otherwise = _core.logical_or(otherwise, c)
        conds.append(_core.logical_not(otherwise))
    elif n != len(funclist):
        raise ValueError(f"[piecewise] with {n} condition(s), either {n} or {n + 1} functions "
                         f"are expected; got {len(funclist)}")
    y = _core.zeros_like(x)
    for cond, func in zip(conds, funclist):
        if not callable(func):
            y[cond] = _core.astype(_arr(func, x.device), x.dtype)
        else:
            vals = x[cond]
            if vals.size > 0:
                y[cond] = _core.astype(_arr(func(vals, *args, **kw), x.device), x.dtype)
    return y


_CLIP_MODES = ("raise", "wrap", "clip")


def choose(a, choices, out=None, mode="raise"):
    """NumPy's choose: choices[a] elementwise, a and every choice broadcast together. The dtype
    is that of the choices together (Python scalars weak, cast into it as NumPy's does); mode
    'raise' rejects an index outside [0, n), 'wrap' takes it modulo n, 'clip' clamps it.
    out= (an accel array of the result's shape) receives the result and is returned."""
    if mode not in _CLIP_MODES:
        raise ValueError(f"[choose] clipmode must be one of 'clip', 'raise', or 'wrap' "
                         f"(got {mode!r})")
    device = _device_of(a, choices, *([] if isinstance(choices, _core.ndarray) else choices))
    idx = _arr(a, device)
    if not _core.can_cast(idx.dtype, _core.int64):
        raise TypeError(f"[choose] cannot cast the index array from {idx.dtype} to int64 "
                        f"according to the rule 'safe'")
    picks = list(choices) if isinstance(choices, (_core.ndarray, _np.ndarray)) else choices
    if len(picks) == 0:
        raise ValueError("[choose] choices is a 0-length sequence")
    picks = [_weak_or_array(c, device) for c in picks]
    dtype = _core.result_type(*picks)
    picks = [_as_dtype(c, dtype, device) for c in picks]
    shape = _core.broadcast_shapes(tuple(idx.shape), *(tuple(c.shape) for c in picks))
    n = len(picks)
    idx = _core.broadcast_to(_core.astype(idx, _core.int64), shape)
    if mode == "wrap":
        idx = idx % n
    elif mode == "clip":
        idx = _core.clip(idx, 0, n - 1)
    elif idx.size and bool(_core.any(_core.logical_or(idx < 0, idx >= n))):
        raise ValueError(f"[choose] invalid entry in choice array: an index outside [0, {n}) "
                         f"with mode='raise'")
    stacked = _core.stack([_core.broadcast_to(c, shape) for c in picks], axis=0)
    result = _core.take_along_axis(stacked, _core.expand_dims(idx, axis=0), axis=0)[0]
    if out is None:
        return result
    if not isinstance(out, _core.ndarray):
        raise TypeError(f"[choose] out must be an accel array, got {type(out).__name__}")
    if tuple(out.shape) != tuple(shape):
        raise ValueError(f"[choose] out has shape {tuple(out.shape)} but the result has shape "
                         f"{tuple(shape)}")
    out[...] = result
    return out


# ---- writes in place ---------------------------------------------------------------------------

def put_along_axis(arr, indices, values, axis):
    """NumPy's put_along_axis: arr[..., indices, ...] = values along axis, in place (returns
    None). indices has arr's number of dimensions and broadcasts against arr's other axes;
    values broadcasts against indices. axis=None: 1-d indices into arr's flattened elements."""
    arr = _write_target(arr, "put_along_axis")
    idx = _arr(indices, arr.device)
    if idx.dtype.kind not in "iu":
        raise IndexError(f"[put_along_axis] `indices` must be an integer array; got {idx.dtype}")
    if axis is None:
        if idx.ndim != 1:
            raise ValueError(f"[put_along_axis] when axis=None, `indices` must have a single "
                             f"dimension; got {idx.ndim}")
        vals = _core.broadcast_to(_arr(values, arr.device), tuple(idx.shape))
        _core.put(arr, idx, vals)
        return None
    axis = _axis_index(axis, arr.ndim, "put_along_axis")
    if idx.ndim != arr.ndim:
        raise ValueError(f"[put_along_axis] `indices` and `arr` must have the same number of "
                         f"dimensions; got {idx.ndim} and {arr.ndim}")
    grid = []
    for d, n in enumerate(arr.shape):
        if d == axis:
            grid.append(_core.astype(idx, _core.int64))
        else:
            shape = [1] * arr.ndim
            shape[d] = n
            grid.append(_core.reshape(_core.arange(n, dtype=_core.int64, device=arr.device),
                                      tuple(shape)))
    arr[tuple(grid)] = values
    return None


def _mask_like(arr, mask, name):
    m = _core.astype(_arr(mask, arr.device), _core.bool)
    if m.size != arr.size:
        raise ValueError(f"[{name}] mask and data must be the same size; got {m.size} and "
                         f"{arr.size}")
    return _core.reshape(m, tuple(arr.shape))


def _values_into(arr, values, name):
    """values in arr's dtype as NumPy 2's putmask and place take them: an array must cast
    safely; Python objects (and NumPy scalars) convert directly, as asarray(values, dtype) does."""
    if isinstance(values, (_core.ndarray, _np.ndarray)):
        v = _arr(values, arr.device)
        if not _core.can_cast(v.dtype, arr.dtype):
            raise TypeError(f"[{name}] cannot cast values from {v.dtype} to {arr.dtype} "
                            f"according to the rule 'safe'")
        return _core.astype(v, arr.dtype)
    return _core.asarray(values, dtype=arr.dtype, device=arr.device)


def putmask(a, /, mask, values):
    """NumPy's putmask: a.flat[i] = values.flat[i % len(values)] wherever mask.flat[i], in place
    (returns None); values in a's dtype (_values_into); empty values change nothing."""
    a = _write_target(a, "putmask")
    m = _mask_like(a, mask, "putmask")
    vals = _values_into(a, values, "putmask")
    if vals.size == 0 or a.size == 0:
        return None
    a[...] = _core.where(m, _core.reshape(_cycled(vals, a.size), tuple(a.shape)), a)
    return None


def place(arr, mask, vals):
    """NumPy's place: the i-th true element of mask gets vals.flat[i % len(vals)], in place
    (returns None); vals in arr's dtype (_values_into), not empty if mask has a true."""
    arr = _write_target(arr, "place")
    m = _mask_like(arr, mask, "place")
    count = int(_core.count_nonzero(m)) if m.size else 0
    v = _values_into(arr, vals, "place")
    if count == 0:
        return None
    if v.size == 0:
        raise ValueError(f"[place] cannot insert from an empty array into {count} places")
    arr[m] = _cycled(v, count)
    return None


# ---- applying functions ------------------------------------------------------------------------

def apply_along_axis(func1d, axis, arr, *args, **kwargs):
    """NumPy's apply_along_axis: func1d(1-d slice along axis, *args, **kwargs) for every slice,
    the results (scalars or arrays, each as the first one's dtype and shape) put where axis was.
    func1d is given accel arrays."""
    arr = _arr(arr)
    axis = _axis_index(axis, arr.ndim, "apply_along_axis")
    view = _core.moveaxis(arr, axis, -1)
    outer = tuple(view.shape[:-1])
    if 0 in outer:
        raise ValueError(f"[apply_along_axis] cannot apply_along_axis when any iteration "
                         f"dimensions are 0; got shape {tuple(arr.shape)} and axis {axis}")
    results = [_arr(func1d(view[ind], *args, **kwargs), arr.device)
               for ind in _itertools.product(*(range(n) for n in outer))]
    first = results[0]
    res_shape = tuple(first.shape)
    stacked = _core.stack([_core.broadcast_to(_core.astype(r, first.dtype), res_shape)
                           for r in results], axis=0)
    buff = _core.reshape(stacked, outer + res_shape)
    n_outer, n_res = len(outer), len(res_shape)
    order = (*range(axis), *range(n_outer, n_outer + n_res), *range(axis, n_outer))
    return _core.permute_dims(buff, order)


def apply_over_axes(func, a, axes):
    """NumPy's apply_over_axes: func(a, axis) for each axis in turn, each result (given as an
    accel array) keeping a's number of dimensions, a reduced axis restored with length 1."""
    val = _arr(a)
    ndim = val.ndim
    if isinstance(axes, (_numbers.Integral, _np.integer)) or \
            (isinstance(axes, _core.ndarray) and axes.ndim == 0):
        axes = (axes,)
    for axis in axes:
        axis = int(axis)
        if axis < 0:
            axis = ndim + axis
        res = _arr(func(val, axis), val.device)
        if res.ndim != val.ndim:
            res = _core.expand_dims(res, axis=axis)
            if res.ndim != val.ndim:
                raise ValueError(f"[apply_over_axes] function is not returning an array of the "
                                 f"correct shape: {res.ndim - 1} dimensions for axis {axis} of "
                                 f"{val.ndim}")
        val = res
    return val


# ---- queries -----------------------------------------------------------------------------------

def isscalar(element):
    """NumPy's isscalar: True for Python and NumPy scalars (numbers, str, bytes, memoryview),
    False for arrays of any dimension, accel's 0-d arrays included."""
    return (type(element) in (int, float, complex, bool, bytes, str, memoryview)
            or isinstance(element, (_np.generic, _numbers.Number)))


def iterable(y):
    """NumPy's iterable: whether iter(y) succeeds (False for a 0-d array)."""
    try:
        iter(y)
    except TypeError:
        return False
    return True
