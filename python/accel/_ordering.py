"""lexsort, partition and argpartition, from the stable sort (so wherever sort runs).

partition and argpartition return a full sort, which is one valid answer: NumPy promises only
that the kth element is where a sort would put it, with nothing larger before it and nothing
smaller after it, and a sorted array keeps every such promise for every kth at once. The cost is
a sort (O(n log n)) instead of introselect's O(n)."""

import numpy as _np

from . import _core

__all__ = ["lexsort", "partition", "argpartition"]


def _check_kth(kth, n, axis_len_name="axis"):
    ks = _np.atleast_1d(_np.asarray(kth))
    if ks.dtype.kind not in "iu":
        raise TypeError("Partition index must be integer")
    for k in ks.tolist():
        if not -n <= k < n:
            raise ValueError(f"kth(={k}) out of bounds ({n})")


def _prepare(a, kth, axis, kind, order):
    if kind != "introselect":
        raise ValueError(f"kind must be 'introselect'; got {kind!r}")
    if order is not None:
        raise ValueError("Cannot specify order when the array has no fields.")
    a = a if isinstance(a, _core.ndarray) else _core.asarray(a)
    if axis is None:
        a, axis = _core.reshape(a, (-1,)), -1
    if a.ndim == 0:
        raise _core.AxisError("axis -1 is out of bounds for array of dimension 0")
    _check_kth(kth, a.shape[axis])
    return a, axis


def partition(a, kth, axis=-1, kind="introselect", order=None):
    """NumPy's partition: a copy in which each kth element is in its sorted place, the smaller
    ones before it, the larger after (here: a fully sorted copy)."""
    a, axis = _prepare(a, kth, axis, kind, order)
    return _core.sort(a, axis=axis)


def argpartition(a, kth, axis=-1, kind="introselect", order=None):
    """The indices that partition a (here: the stable sort's indices)."""
    a, axis = _prepare(a, kth, axis, kind, order)
    return _core.argsort(a, axis=axis, stable=True)


def lexsort(keys, axis=-1):
    """Indices sorting by several keys, the last key primary (NumPy's lexsort): stable sorts by
    each key in turn, from the first (least significant) to the last."""
    if isinstance(keys, _core.ndarray):
        if keys.ndim == 0:
            raise TypeError("need sequence of keys with len > 0 in lexsort")
        keys = [keys[i] for i in range(keys.shape[0])]
    else:
        keys = [k if isinstance(k, _core.ndarray) else _core.asarray(k) for k in keys]
    if not keys:
        raise TypeError("need sequence of keys with len > 0 in lexsort")
    shape = tuple(keys[0].shape)
    for k in keys[1:]:
        if tuple(k.shape) != shape:
            raise ValueError("all keys need to be the same shape")
    if len(shape) == 0:
        return _core.asarray(0, dtype=_core.int64, device=keys[0].device)
    idx = None
    for k in keys:
        if idx is None:
            idx = _core.argsort(k, axis=axis, stable=True)
        else:
            step = _core.argsort(_core.take_along_axis(k, idx, axis=axis), axis=axis, stable=True)
            idx = _core.take_along_axis(idx, step, axis=axis)
    return idx
