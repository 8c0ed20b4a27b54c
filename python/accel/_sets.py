"""Set functions of the Array API and NumPy (unique_values, unique_counts, unique_inverse,
unique_all, unique, isin), built from the stable sort (python/src/sorting_bindings.cpp) and
indexing, so they run wherever sort does. The flattened input is sorted once; an element starts
a new unique value when it differs from its predecessor (`!=`: NaNs stay distinct, as the
standard and NumPy 2's unique_* say; -0.0 and 0.0 are one value, the first in sorted order)."""

from collections import namedtuple

from . import _core

__all__ = ["unique_values", "unique_counts", "unique_inverse", "unique_all", "unique", "isin"]

UniqueAllResult = namedtuple("UniqueAllResult", ["values", "indices", "inverse_indices", "counts"])
UniqueCountsResult = namedtuple("UniqueCountsResult", ["values", "counts"])
UniqueInverseResult = namedtuple("UniqueInverseResult", ["values", "inverse_indices"])


class _Sorted:
    """x flattened and sorted (stable, NaNs last), and where each run of equal values starts.
    Without `positions` (unique values and counts only) x is sorted by value alone, with no
    argsort and gather (at 10 elements they were half of unique_values)."""

    def __init__(self, x, equal_nan=False, positions=True):
        x = _core.asarray(x)
        flat = _core.reshape(x, (x.size,))
        self.shape = x.shape
        self.device = x.device
        if positions:
            self.perm = _core.argsort(flat)
            self.values = _core.take(flat, self.perm)
        else:
            self.values = _core.sort(flat)
        n = self.values.shape[0]
        first = _core.ones((min(n, 1),), dtype=_core.bool, device=x.device)
        if n > 1:
            new = self.values[1:] != self.values[:-1]
            if equal_nan and x.dtype.kind in "fc":
                # NumPy's equal_nan=True: every NaN (any NaN part of a complex) after the first
                # is the same value; sorting put them together at the end.
                isnan = _core.isnan(self.values)
                new = new & ~(isnan[1:] & isnan[:-1])
            first = _core.concat([first, new])
        self.first = first

    @property
    def starts(self):
        return _core.nonzero(self.first)[0]

    def unique(self):
        return self.values[self.first]

    def counts(self):
        starts = self.starts
        ends = _core.concat([starts[1:],
                             _core.asarray([self.values.shape[0]], dtype=_core.int64,
                                           device=self.device)])
        return ends - starts

    def indices(self):
        # The stable sort keeps equal values in input order: a run's first is its first occurrence.
        return _core.take(self.perm, self.starts)

    def inverse(self):
        rank = _core.cumulative_sum(self.first.astype(_core.int64)) - 1
        inv = _core.empty((self.values.shape[0],), dtype=_core.int64, device=self.device)
        inv[self.perm] = rank
        return _core.reshape(inv, self.shape)


def unique_values(x):
    """The unique elements of x, sorted (NaNs each distinct, at the end)."""
    return _Sorted(x, positions=False).unique()


def unique_counts(x):
    s = _Sorted(x, positions=False)
    return UniqueCountsResult(s.unique(), s.counts())


def unique_inverse(x):
    """Unique values and, for each element of x (x's shape), the index of its value."""
    s = _Sorted(x)
    return UniqueInverseResult(s.unique(), s.inverse())


def unique_all(x):
    """Unique values, the first index of each, the inverse indices (x's shape) and the counts."""
    s = _Sorted(x)
    return UniqueAllResult(s.unique(), s.indices(), s.inverse(), s.counts())


def unique(ar, return_index=False, return_inverse=False, return_counts=False, axis=None, *,
           equal_nan=True, sorted=True):  # noqa: A002 - NumPy's parameter name
    """NumPy's unique of the flattened array (NaNs as one value unless equal_nan=False)."""
    if axis is not None:
        raise NotImplementedError("[unique] axis= (unique sub-arrays) is not implemented; "
                                  "unique of the flattened array is (axis=None)")
    s = _Sorted(ar, equal_nan=equal_nan, positions=return_index or return_inverse)
    out = [s.unique()]
    if return_index:
        out.append(s.indices())
    if return_inverse:
        # NumPy 2 gives the inverse in the input's shape when axis is None.
        out.append(s.inverse())
    if return_counts:
        out.append(s.counts())
    return out[0] if len(out) == 1 else tuple(out)


def isin(element, test_elements, assume_unique=False, invert=False, *, kind=None):
    """Whether each element of `element` is in `test_elements` (element's shape). Both are
    compared in their promoted dtype; NaN is in nothing."""
    if kind not in (None, "sort", "table"):
        raise ValueError(f"[isin] kind must be None, 'sort' or 'table', got {kind!r}")
    device = next((a.device for a in (element, test_elements) if isinstance(a, _core.ndarray)),
                  None)
    if isinstance(element, _core.ndarray) or not isinstance(test_elements, _core.ndarray):
        x = _core.asarray(element, device=device)
        t = test_elements if isinstance(test_elements, _core.ndarray) else \
            _core.asarray(test_elements, device=device)
    else:
        t = test_elements
        x = _core.asarray(element, device=device)
    common = _core.result_type(x, t)
    integral = common.kind in "biu"
    if kind == "table" and not integral:
        raise ValueError(f"[isin] kind='table' needs integer or boolean arrays, not {common}")
    x = x.astype(common, copy=False)
    t = _core.reshape(t.astype(common, copy=False), (t.size,))
    if t.shape[0] == 0:
        return _core.full(x.shape, bool(invert), dtype=_core.bool, device=x.device)
    if integral and kind != "sort":
        # NumPy's table method: a flag per value between the smallest and the largest test
        # element, when that range is small beside the inputs (NumPy's rule: at most 6 times
        # their total size) or asked for. Two passes over x instead of a binary search each.
        # Differences from the smallest test element in 64 bits (int8's span is 255), unsigned
        # for uint64 (no negative differences occur: only values inside the span are looked up).
        wide = _core.uint64 if common == _core.uint64 else _core.int64
        x, t = x.astype(wide, copy=False), t.astype(wide, copy=False)
        lo, hi = _core.min(t), _core.max(t)
        if kind == "table" or int(hi) - int(lo) <= 6 * (x.size + t.size):
            table = _core.zeros((int(hi) - int(lo) + 1,), dtype=_core.bool, device=x.device)
            table[(t - lo).astype(_core.int64)] = True
            inside = (x >= lo) & (x <= hi)
            at = (_core.clip(x, lo, hi) - lo).astype(_core.int64)
            found = inside & _core.take(table, at)
            return ~found if invert else found
    t = _core.sort(t)
    at = _core.minimum(_core.searchsorted(t, x), t.shape[0] - 1)
    found = _core.take(t, at) == x
    return ~found if invert else found

