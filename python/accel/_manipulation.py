"""NumPy's stacking, splitting and flipping conveniences, built from the core manipulation ops
(python/src/manipulation_bindings.cpp): atleast_1d/2d/3d, hstack, vstack, dstack, column_stack,
hsplit, vsplit, dsplit, fliplr, flipud and diff."""

import operator

from . import _core

__all__ = [
    "atleast_1d", "atleast_2d", "atleast_3d", "hstack", "vstack", "dstack", "column_stack",
    "hsplit", "vsplit", "dsplit", "fliplr", "flipud", "diff",
]


def _arrays(objs):
    ndarray = _core.ndarray
    objs = list(objs)
    for a in objs:
        if type(a) is not ndarray:
            break
    else:
        return objs  # all accel arrays already (the common case, without a generator's cost)
    # Non-accel inputs follow the first accel array's device, as in concat.
    device = next((a.device for a in objs if isinstance(a, ndarray)), None)
    return [a if isinstance(a, ndarray) else _core.asarray(a, device=device) for a in objs]


def _one_or_tuple(arrays):
    return arrays[0] if len(arrays) == 1 else tuple(arrays)


def _at_least_1d(a):
    return _core.reshape(a, (1,)) if a.ndim == 0 else a


def _at_least_2d(a):
    if a.ndim == 0:
        return _core.reshape(a, (1, 1))
    return _core.expand_dims(a, 0) if a.ndim == 1 else a


def _at_least_3d(a):
    if a.ndim == 0:
        return _core.reshape(a, (1, 1, 1))
    if a.ndim == 1:
        return _core.expand_dims(a, (0, 2))
    return _core.expand_dims(a, 2) if a.ndim == 2 else a


def atleast_1d(*arys):
    """Views of the inputs with at least one dimension."""
    return _one_or_tuple([_at_least_1d(a) for a in _arrays(arys)])


def atleast_2d(*arys):
    """Views of the inputs with at least two dimensions (a 1-d array becomes one row)."""
    return _one_or_tuple([_at_least_2d(a) for a in _arrays(arys)])


def atleast_3d(*arys):
    """Views with at least three dimensions: (n,) -> (1, n, 1), (m, n) -> (m, n, 1)."""
    return _one_or_tuple([_at_least_3d(a) for a in _arrays(arys)])


def _join(arrays, axis, dtype, casting):
    # Positional when the keywords are the defaults: concatenate's fast path (no argument
    # parsing, a third of joining three arrays of 10 elements).
    if dtype is None and casting == "same_kind":
        return _core.concatenate(arrays, axis)
    return _core.concatenate(arrays, axis, dtype=dtype, casting=casting)


def vstack(tup, *, dtype=None, casting="same_kind"):
    """Stacks rows: 1-d inputs become rows, then they join along axis 0."""
    arrays = [_at_least_2d(a) for a in _arrays(tup)]
    return _join(arrays, 0, dtype, casting)


def hstack(tup, *, dtype=None, casting="same_kind"):
    """Joins 1-d inputs end to end, others along axis 1."""
    arrays = [_at_least_1d(a) for a in _arrays(tup)]
    axis = 0 if arrays and arrays[0].ndim == 1 else 1
    return _join(arrays, axis, dtype, casting)


def dstack(tup):
    """Joins along the third axis after atleast_3d."""
    return _core.concatenate([_at_least_3d(a) for a in _arrays(tup)], 2)


def column_stack(tup):
    """1-d inputs become columns; the columns and 2-d inputs join along axis 1."""
    arrays = [_core.reshape(a, (-1, 1)) if a.ndim < 2 else a for a in _arrays(tup)]
    return _core.concatenate(arrays, 1)


def hsplit(ary, indices_or_sections):
    """split along axis 1 (axis 0 for 1-d input)."""
    (a,) = _arrays([ary])
    if a.ndim == 0:
        raise ValueError("[hsplit] only works on arrays of 1 or more dimensions")
    return _core.split(a, indices_or_sections, 1 if a.ndim > 1 else 0)


def vsplit(ary, indices_or_sections):
    """split along axis 0 of an array of at least 2 dimensions."""
    (a,) = _arrays([ary])
    if a.ndim < 2:
        raise ValueError("[vsplit] only works on arrays of 2 or more dimensions")
    return _core.split(a, indices_or_sections, 0)


def dsplit(ary, indices_or_sections):
    """split along axis 2 of an array of at least 3 dimensions."""
    (a,) = _arrays([ary])
    if a.ndim < 3:
        raise ValueError("[dsplit] only works on arrays of 3 or more dimensions")
    return _core.split(a, indices_or_sections, 2)


def fliplr(m):
    """A view with the columns (axis 1) reversed."""
    (a,) = _arrays([m])
    if a.ndim < 2:
        raise ValueError(f"[fliplr] needs an array of at least 2 dimensions; got {a.ndim}")
    return _core.flip(a, 1)


def flipud(m):
    """A view with the rows (axis 0) reversed."""
    (a,) = _arrays([m])
    if a.ndim < 1:
        raise ValueError("[flipud] needs an array of at least 1 dimension; got 0")
    return _core.flip(a, 0)


def _along(a, axis, start, stop):
    key = [slice(None)] * a.ndim
    key[axis] = slice(start, stop)
    return a[tuple(key)]


def _edge(value, a, axis):
    """prepend=/append= as an array to join along axis: a scalar fills one slice."""
    v = _core.asarray(value, device=a.device)
    if v.ndim == 0:
        shape = list(a.shape)
        shape[axis] = 1
        v = _core.broadcast_to(v, tuple(shape))
    return v


def diff(a, n=1, axis=-1, prepend=None, append=None):
    """The n-th discrete difference along axis (NumPy's and the Array API's diff): lazy slices
    subtracted, `!=` for bool. prepend/append are joined to a first."""
    given, a = a, _core.asarray(a)
    if a.ndim == 0:
        raise ValueError("[diff] diff requires input that is at least one dimensional")
    n = operator.index(n)
    if n < 0:
        raise ValueError(f"[diff] order must be non-negative but got {n}")
    axis = operator.index(axis)
    if not -a.ndim <= axis < a.ndim:
        raise _core.AxisError(f"[diff] axis {axis} is out of bounds for array of dimension "
                              f"{a.ndim}")
    axis %= a.ndim
    if n == 0:
        # NumPy returns its input itself (prepend= and append= ignored): the same object, which
        # later in-place writes to it change.
        return given if isinstance(given, _core.ndarray) else a
    parts = ([_edge(prepend, a, axis)] if prepend is not None else []) + [a] + \
        ([_edge(append, a, axis)] if append is not None else [])
    if len(parts) > 1:
        a = _core.concat(parts, axis=axis)
    for _ in range(n):
        hi, lo = _along(a, axis, 1, None), _along(a, axis, None, -1)
        a = _core.not_equal(hi, lo) if a.dtype == _core.bool else hi - lo
    return a
