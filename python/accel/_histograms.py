"""Counting functions: bincount, histogram, histogram_bin_edges, digitize, with NumPy 2's results
and dtypes. Each element's bin is found with searchsorted into the edges, and the bins are
counted (or their weights summed) in one pass by ufunc_at's fold (ops/ufunc_at.h: every element
in input order), on the data's device; only bin edges and a few scalars (the data's min and max,
the largest value for bincount) meet the host.

Bin edges are computed by NumPy itself from those scalars (a two-element stand-in with the
data's dtype gives it the same range and the same result_type), so they are NumPy's edges to
the bit. An element x falls in bin i when edges[i] <= x < edges[i+1], the last bin closed, which
is what NumPy's corrected index arithmetic also computes for real data. Complex data in equal
bins is the exception: NumPy's arithmetic is not a lexicographic binning there, and accel runs
the same arithmetic (_complex_equal_bins).

Weighted counts add each bin's weights in input order in float64 (int64 for integer weights,
complex128 for complex ones), then take the weights' dtype: NumPy's equal-bin path adds blocks of
65536 elements so (its bincount in float64), which this matches to the bit up to that size;
NumPy's path for explicit edges takes differences of a running sum in the weights' dtype, which
carries rounding of the order of eps times the running total before each bin. String bin
estimators ('auto', 'fd', ...) need statistics of the whole data: the data is copied to the host
for those."""

import numpy as _np

from . import _core

__all__ = ["bincount", "histogram", "histogram_bin_edges", "digitize"]


def _arr(x, device=None):
    if isinstance(x, _core.ndarray):
        return x
    return _core.asarray(x) if device is None else _core.asarray(x, device=device)


def _scalar_np(x):
    """A 0-d accel array as a NumPy scalar of its dtype."""
    return _np.asarray(_core.asnumpy(x))[()]


def _bin_sums(idx, w, n, acc=None):
    """How often each bin 0..n-1 occurs in idx (int64, every index in range), as int64; with
    weights w, the sum of each bin's weights in input order, in `acc` (by default float64,
    int64 for integer weights, complex128 for complex ones). One pass of add.at's fold on idx's
    device (a sort and two searches before: 20x NumPy's time for 1e6 values)."""
    if w is None:
        out = _core.zeros(n, dtype=_core.int64, device=idx.device)
        _core._ufunc_at("add", out, idx, 1)
        return out
    if acc is None:
        acc = {"c": _core.complex128, "f": _core.float64}.get(w.dtype.kind, _core.int64)
    out = _core.zeros(n, dtype=acc, device=idx.device)
    _core._ufunc_at("add", out, idx, _core.astype(w, acc))
    return out


# The dtypes bincount reads without a check of their values' range (uint64's may not fit int64).
_COUNTABLE = frozenset([_core.bool, _core.int8, _core.int16, _core.int32, _core.int64,
                        _core.uint8, _core.uint16, _core.uint32])


def bincount(x, /, weights=None, minlength=0):
    """How often each value 0, 1, ..., max(x) occurs in the 1-d non-negative integer array x
    (at least minlength bins); with weights, the sum of the weights of each value (float64)."""
    if (weights is None and type(minlength) is int and minlength >= 0
            and type(x) is _core.ndarray and x.ndim == 1 and x.dtype in _COUNTABLE):
        return _core._bincount(x, None, minlength)  # the common call, without the checks below
    x = _arr(x)
    if x.ndim != 1:
        raise ValueError("object too deep for desired array" if x.ndim > 1
                         else "object of too small depth for desired array")
    if x.dtype.kind not in "iub":
        raise TypeError(f"Cannot cast array data from dtype('{x.dtype}') to dtype('int64') "
                        f"according to the rule 'safe'")
    if x.dtype == _core.uint64 and x.size and int(_core.max(x)) >= 2**63:
        raise TypeError("Cannot cast array data from dtype('uint64') to dtype('int64') "
                        "according to the rule 'safe'")
    minlength = _core.asarray(minlength).__index__() if not isinstance(minlength, int) else minlength
    if minlength < 0:
        raise ValueError("'minlength' must not be negative")
    w = None
    if weights is not None:
        w = _arr(weights, x.device)
        if tuple(w.shape) != tuple(x.shape):
            raise ValueError("The weights and list don't have the same length.")
        if x.size and w.dtype.kind == "c":  # NumPy casts weights to float64 (an empty x: none)
            raise TypeError(f"Cannot cast array data from dtype('{w.dtype}') to dtype('float64') "
                            f"according to the rule 'safe'")
    # One look at x's lowest and highest values (ValueError for a negative one), then add.at's
    # fold (ops/ufunc_at.h).
    return _core._bincount(x, w if x.size else None, minlength)


def _stand_in(a, range):
    """A tiny NumPy array that gives NumPy's bin-edge code the data's dtype and range."""
    dt = _np.dtype(a.dtype.name)
    if range is not None or a.size == 0:
        return _np.empty(0, dtype=dt)
    return _np.array([_scalar_np(_core.min(a)), _scalar_np(_core.max(a))], dtype=dt)


def _edges(a, bins, range, weights):
    """NumPy's bin edges for data a (flattened accel array), as a NumPy array."""
    if isinstance(bins, str):
        w = None if weights is None else _core.asnumpy(_arr(weights))
        return _np.histogram_bin_edges(_core.asnumpy(a), bins, range, w)
    if isinstance(bins, _core.ndarray):
        bins = _core.asnumpy(bins)
    if _np.ndim(bins) == 0 and isinstance(range, _core.ndarray):
        range = tuple(_core.asnumpy(range).tolist())
    return _np.histogram_bin_edges(_stand_in(a, range), bins, range)


def histogram_bin_edges(a, bins=10, range=None, weights=None):
    a = _core.reshape(_arr(a), (-1,))
    return _core.asarray(_edges(a, bins, range, weights), device=a.device)


def histogram(a, bins=10, range=None, density=None, weights=None):
    """NumPy's histogram: (counts, bin_edges). Counts are int64, or the weights' dtype with
    weights; density=True gives the probability density (float64)."""
    a = _core.reshape(_arr(a), (-1,))
    w = None
    if weights is not None:
        w = _core.reshape(_arr(weights, a.device), (-1,))
        if tuple(w.shape) != tuple(a.shape):
            raise ValueError("weights should have the same shape as a.")
    edges_np = _edges(a, bins, range, weights)
    edges = _core.asarray(edges_np, device=a.device)
    if a.dtype.kind == "c" and (isinstance(bins, str) or _np.ndim(bins) == 0):
        n = _complex_equal_bins(a, w, edges, edges_np, range)
        return _finish(n, edges, edges_np, density, a.device)
    common = _core.result_type(a, edges)
    x = _core.astype(a, common)
    e = _core.astype(edges, common)
    nbins = e.shape[0] - 1
    # edges[i] <= x < edges[i+1], the last bin closed (NumPy's): i is the last edge not above x.
    # Values outside the edges and NaNs (searchsorted puts them last) go to an extra bin that
    # is dropped.
    idx = _core.searchsorted(e, x, side="right") - 1
    inside = (idx >= 0) & ((idx < nbins) | (x == e[-1]))
    idx = _core.where(inside, _core.minimum(idx, nbins - 1), nbins)
    n = _bin_sums(idx, w, nbins + 1)[:nbins]
    if w is not None:
        n = _core.astype(n, w.dtype)
    return _finish(n, edges, edges_np, density, a.device)


def _finish(n, edges, edges_np, density, device):
    if density:
        db = _core.asarray(_np.diff(edges_np).astype(float), device=device)
        return n / db / _core.sum(n), edges
    return n, edges


def _complex_equal_bins(a, w, edges, edges_np, range):
    """Counts of complex data in equal bins, binned as NumPy does: complex values have no
    order of their own, and NumPy's equal-bin path places each one by complex arithmetic,
    the real part of (x - first_edge) / (last_edge - first_edge) * nbins, then moves it at
    most one bin by lexicographic comparison with the edges. That is not the lexicographic
    binning the sorted path gives (x = 4.375+0j between edges 4+16j and 7+11j lands in
    bin 1, not 0), and it is NumPy's answer, so accel computes the same arithmetic."""
    nbins = edges_np.shape[0] - 1
    if range is not None:  # NumPy's outer edges: the range as given, else the data's min and max
        first, last = (_core.asnumpy(r)[()] if isinstance(r, _core.ndarray) else r
                       for r in range)
    else:
        first, last = edges_np[0], edges_np[-1]  # linspace keeps both ends exactly
    keep = (a >= first) & (a <= last)
    x = _core.astype(a[keep], edges.dtype)
    idx = _core.astype(_core.real((x - first) / (last - first) * nbins), _core.int64)
    idx = _core.where(idx == nbins, idx - 1, idx)
    idx = _core.where(x < _core.take(edges, idx), idx - 1, idx)
    up = (x >= _core.take(edges, idx + 1)) & (idx != nbins - 1)
    idx = _core.where(up, idx + 1, idx)
    # NumPy counts these with bincount, which refuses a negative index (the arithmetic's -1
    # for data below the first edge's real part) and makes more bins than the edges have.
    if idx.size:
        low, high = int(_core.min(idx)), int(_core.max(idx))
        if low < 0:
            raise ValueError("'list' argument must have no negative elements")
        if high >= nbins:
            raise ValueError(f"operands could not be broadcast together with shapes ({nbins},) "
                             f"({high + 1},)")
    if w is None:
        return _bin_sums(idx, None, nbins)
    return _core.astype(_bin_sums(idx, w[keep], nbins), w.dtype)


def digitize(x, bins, right=False):
    """The index of the bin each value of x falls in (NumPy's digitize): bins must be monotonic,
    increasing or decreasing."""
    x = _arr(x)
    b = _arr(bins, x.device)
    if b.ndim != 1:
        raise ValueError("object too deep for desired array" if b.ndim > 1
                         else "object of too small depth for desired array")
    if x.dtype.kind == "c" or b.dtype.kind == "c":
        raise TypeError("x may not be complex")
    if b.shape[0] > 1:
        increasing = bool(_core.all(b[1:] >= b[:-1]))
        decreasing = bool(_core.all(b[1:] <= b[:-1]))
    else:
        increasing, decreasing = True, False
    if not increasing and not decreasing:
        raise ValueError("bins must be monotonically increasing or decreasing")
    common = _core.result_type(x, b)
    xs, bs = _core.astype(x, common), _core.astype(b, common)
    side = "left" if right else "right"
    if increasing:
        return _core.searchsorted(bs, xs, side=side)
    return b.shape[0] - _core.searchsorted(_core.flip(bs), xs, side=side)
