"""Order statistics: quantile, percentile, median and their nan* forms, with NumPy 2's methods
and dtype rules. Built from the stable sort (NaNs sort last) and take_along_axis, so they run
wherever sort runs (the CPU and CUDA); only the q values and the slice
length meet the host, never the data.

The virtual index of each quantile follows NumPy's Hyndman & Fan formulas computed in q's
dtype (NumPy takes a Python q in a float input's dtype), so which order statistics are picked
and how they are interpolated match NumPy to the bit. The nan* forms use each slice's count of
non-NaN values as its length; the count is cast to q's dtype first, which is what NumPy's
Python-int length does under NEP 50."""

import math as _math

import numpy as _np

from . import _core
from ._common import laid_out

__all__ = ["quantile", "percentile", "median", "nanquantile", "nanpercentile", "nanmedian"]

# Hyndman & Fan's continuous methods: the virtual index is n*q + alpha + q*(1 - alpha - beta) - 1.
_CONTINUOUS = {"interpolated_inverted_cdf": (0.0, 1.0), "hazen": (0.5, 0.5), "weibull": (0.0, 0.0),
               "median_unbiased": (1 / 3.0, 1 / 3.0), "normal_unbiased": (3 / 8.0, 3 / 8.0)}
# Methods that pick an order statistic (the result keeps the input's dtype).
_DISCRETE = {"inverted_cdf", "closest_observation", "lower", "higher", "nearest"}
_METHODS = set(_CONTINUOUS) | _DISCRETE | {"linear", "averaged_inverted_cdf", "midpoint"}


def _arr(x):
    return x if isinstance(x, _core.ndarray) else _core.asarray(x)


def _is_inexact(dt):
    return dt.kind in "fc"


def _q_array(q, scale, what):
    """q as a host NumPy array, divided by `scale` (100 for percentiles) as NumPy divides it, and
    checked. A Python int or float keeps float64 (or int64) precision for the indices and is then
    weak: the result keeps the input's float dtype (NumPy 2.4's weak_q)."""
    weak = type(q) in (int, float)
    qa = _np.asarray(_core.asnumpy(q) if isinstance(q, _core.ndarray) else q)
    if scale != 1:
        qa = _np.asarray(_np.true_divide(qa, scale))
    if qa.dtype.kind not in "iufb":
        raise TypeError(f"[{what}] q must be real numbers; got dtype {qa.dtype}")
    with _np.errstate(invalid="ignore"):
        valid = qa.size == 0 or bool(_np.all((qa >= 0) & (qa <= 1)))
    if not valid:
        raise ValueError("Percentiles must be in the range [0, 100]" if scale == 100
                         else "Quantiles must be in the range [0, 1]")
    return qa, weak


def _last_axis(a, axis, what):
    """a with the reduced axes moved last and merged into one, and the shape keepdims gives."""
    if axis is None:
        return _core.reshape(a, (a.size,)), tuple(1 for _ in a.shape)
    axes = (axis,) if isinstance(axis, (int, _np.integer)) else tuple(axis)
    nd = a.ndim
    norm = []
    for ax in axes:
        ax = int(ax)
        if not -nd <= ax < nd:
            raise _core.AxisError(f"[{what}] axis {ax} is out of bounds for array of dimension {nd}")
        norm.append(ax % nd)
    if len(set(norm)) != len(norm):
        raise ValueError(f"[{what}] repeated axis in {axes}")
    keep = [d for d in range(nd) if d not in norm]
    moved = _core.permute_dims(a, tuple(keep + norm))
    n = 1
    for d in norm:
        n *= a.shape[d]
    kept_shape = tuple(a.shape[d] for d in keep)
    keepdims_shape = tuple(1 if d in norm else a.shape[d] for d in range(nd))
    return _core.reshape(moved, kept_shape + (n,)), keepdims_shape


def _virtual_index(method, n, q):
    """NumPy's virtual index of quantile q in a slice of n values (n: a Python int, or a device
    array of counts already in q's dtype). Discrete methods give integer indices."""
    if method == "linear":
        return (n - 1) * q
    if method in _CONTINUOUS:
        alpha, beta = _CONTINUOUS[method]
        return n * q + (alpha + q * (1 - alpha - beta)) - 1
    if method == "averaged_inverted_cdf":
        return n * q - 1
    if method == "midpoint":
        return 0.5 * (_core.floor((n - 1) * q) + _core.ceil((n - 1) * q))
    if method == "lower":
        return _core.astype(_core.floor((n - 1) * q), _core.int64)
    if method == "higher":
        return _core.astype(_core.ceil((n - 1) * q), _core.int64)
    if method == "nearest":
        return _core.astype(_core.round((n - 1) * q), _core.int64)
    # inverted_cdf and closest_observation: the order statistic at a boundary, by H&F's rule
    index = n * q - 1 if method == "inverted_cdf" else n * q - 1 - 0.5
    previous = _core.floor(index)
    gamma = index - previous
    at_previous = gamma == 0
    if method == "closest_observation":  # the nearest even order statistic (1-based) at g=0
        at_previous = at_previous & (_core.remainder(_core.floor(index), 2) == 1)
    chosen = _core.where(at_previous, previous, previous + 1)
    return _core.maximum(_core.astype(chosen, _core.int64), 0)


def _gamma(method, virtual, previous):
    gamma = virtual - previous
    if method == "averaged_inverted_cdf":
        return _core.where(gamma == 0, _core.full_like(gamma, 0.5), _core.ones_like(gamma))
    if method == "midpoint":
        whole = _core.remainder(virtual, 1) == 0
        return _core.where(whole, _core.zeros_like(gamma), _core.full_like(gamma, 0.5))
    return gamma


def _lerp(a, b, t, one_minus_t):
    # NumPy's _lerp: a + (b - a) * t, or b - (b - a) * (1 - t) from t = 0.5 on (monotone, and
    # exact at both ends).
    diff = b - a
    return _core.where(t >= 0.5, b - diff * one_minus_t, a + diff * t)


def _order_statistics(s, n, qd, method, weak):
    """Quantiles of the sorted rows `s` (shape rows + (N,), NaNs last) with `n` valid values per
    row (a Python int or a device array over rows), for the q values `qd` (a 1-d device array).
    The result has shape rows + (len(qd),)."""
    big_n = s.shape[-1]
    rows = s.shape[:-1]
    if isinstance(n, int):
        nq = n
    else:
        nq = _core.expand_dims(_core.astype(n, qd.dtype), -1)  # rows + (1,), q's dtype
    last = (n - 1) if isinstance(n, int) else _core.expand_dims(n - 1, -1)
    virtual = _virtual_index(method, nq, qd)  # broadcast over rows + (k,)
    if method in _DISCRETE or (method == "linear" and virtual.dtype.kind in "iu"):
        # an order statistic: no interpolation, the input's dtype
        idx = _core.clip(_core.minimum(virtual, last), 0, max(big_n - 1, 0))
        idx = _core.broadcast_to(idx, rows + (qd.shape[0],))
        return _core.take_along_axis(s, idx, axis=-1)
    previous = _core.floor(virtual)
    nxt = previous + 1
    lastf = last if isinstance(last, int) else _core.astype(last, virtual.dtype)
    above = virtual >= lastf
    below = virtual < 0
    bad = _core.isnan(virtual)
    pi = _core.astype(_core.where(above | bad, lastf, _core.where(below, 0, previous)), _core.int64)
    ni = _core.astype(_core.where(above | bad, lastf, _core.where(below, 0, nxt)), _core.int64)
    hi = max(big_n - 1, 0)
    pi = _core.broadcast_to(_core.clip(pi, 0, hi), rows + (qd.shape[0],))
    ni = _core.broadcast_to(_core.clip(ni, 0, hi), rows + (qd.shape[0],))
    lo_v = _core.take_along_axis(s, pi, axis=-1)
    hi_v = _core.take_along_axis(s, ni, axis=-1)
    # NumPy takes gamma from the index it clamped (-1 past the last value or at NaN, 0 below the
    # first), not from floor(virtual): at the ends, where both neighbours are one value, that
    # picks the side of the interpolation, so the sign of a -0.0 (fuzz seed 844856).
    clamped = _core.where(above | bad, -1.0, _core.where(below, 0.0, previous))
    gamma = _gamma(method, virtual, _core.astype(clamped, virtual.dtype))
    if not weak:
        return _lerp(lo_v, hi_v, gamma, 1 - gamma)
    # NumPy's float(gamma): a Python float, so 1 - gamma and t >= 0.5 are taken in double and
    # each factor meets the values as a weak scalar (rounded to their float dtype).
    gamma = _core.astype(gamma, _core.float64)
    vdt = s.dtype if s.dtype.kind == "f" else _core.float64
    t = _core.astype(gamma, vdt)
    one_minus_t = _core.astype(1 - gamma, vdt)
    return _core.where(gamma >= 0.5, hi_v - (hi_v - lo_v) * one_minus_t, lo_v + (hi_v - lo_v) * t)


def _nan_layout(a, axis, q_ndim, median):
    """How NumPy's nan* forms lay out a result along axes of an array of 2 or more dimensions
    (None where they reduce everything or a 1-d array): a function of the result giving a new
    array. nanquantile and nanpercentile fill apply_along_axis' C-ordered buffer, each slice's
    quantiles innermost, then move q's axes to the front. nanmedian along
    fewer than 600 values sorts and indexes masked arrays, which keeps a reduction's layout of
    the kept axes (longer slices take apply_along_axis: C); several axes are first moved behind
    the kept ones and merged, which copies (to C) unless they merge as a view."""
    if axis is None or a.ndim < 2 or a.size == 0:
        return None
    if not median:
        if q_ndim == 0:
            return _c_ordered
        nk = a.ndim - len(_axes_of(axis, a.ndim))
        order = list(range(q_ndim, q_ndim + nk)) + list(range(q_ndim))
        return lambda r: laid_out(r, order)
    axes = _axes_of(axis, a.ndim)
    n = 1
    for d in axes:
        n *= a.shape[d]
    merged = [d for d in axes if a.shape[d] != 1]
    if n >= 600 or any(a.strides[i] != a.strides[j] * a.shape[j] for i, j in zip(merged, merged[1:])):
        return _c_ordered
    kept = a[tuple(0 if d in axes else slice(None) for d in range(a.ndim))]
    return lambda r: r if r.ndim < 2 else _copy_into(_core.empty_like(kept, dtype=r.dtype), r)


def _c_ordered(r):
    return _core.asarray(r, order="C")  # a copy only where r is laid out otherwise


def _axes_of(axis, nd):
    axes = (axis,) if isinstance(axis, (int, _np.integer)) else tuple(axis)
    return sorted(int(d) % nd for d in axes)


def _copy_into(dst, src):
    dst[...] = src
    return dst


def _finish(result, q_shape, keepdims_shape, keepdims, out, what, layout=None):
    """rows + (k,) -> q's shape + (the kept or keepdims shape), written to out if given; `layout`
    lays out the result (q's shape + the kept shape) as NumPy's nan* forms do."""
    k_first = _core.moveaxis(result, -1, 0)
    r = _core.reshape(k_first, tuple(q_shape) + tuple(k_first.shape[1:]))
    if layout is not None and out is None:
        r = layout(r)
    elif q_shape:
        # A new C-ordered array, as NumPy's: q's axis moved to the front is a strided view, and
        # whether r.ravel() is a view (which a later write goes through) depends on the layout
        # (fuzz seed 808587).
        r = r.copy()
    if keepdims:  # new axes of length 1: a view, the layout kept (NumPy's _ureduce)
        r = _core.reshape(r, tuple(q_shape) + tuple(keepdims_shape))
    if out is not None:
        if tuple(out.shape) != tuple(r.shape):
            raise ValueError(f"[{what}] out has shape {tuple(out.shape)}; the result has {tuple(r.shape)}")
        out[...] = r
        return out
    return r


def _quantile(a, q, axis, out, method, keepdims, weights, what, scale, skip_nan):
    a = _arr(a)
    if weights is not None:
        raise NotImplementedError(f"[{what}] weights= is not implemented in accel (NumPy allows it "
                                  f"only with method='inverted_cdf')")
    if a.dtype.kind == "c":
        raise TypeError("a must be an array of real numbers")
    if method not in _METHODS:
        raise ValueError(f"'{method}' is not a valid method. Use one of: {sorted(_METHODS)}")
    qa, weak = _q_array(q, scale, what)
    rows_a, keepdims_shape = _last_axis(a, axis, what)
    s = _core.sort(rows_a, axis=-1)
    big_n = s.shape[-1]
    qd = _core.asarray(qa.reshape(-1), device=a.device)
    has_nans = _is_inexact(a.dtype)
    if skip_nan and big_n == 0:  # every slice empty: NaN, as NumPy gives all-NaN slices
        r = _core.full(tuple(s.shape[:-1]) + (qd.shape[0],), float("nan"),
                       dtype=a.dtype if has_nans else _core.float64, device=a.device)
        return _finish(r, qa.shape, keepdims_shape, keepdims, out, what)
    if skip_nan and has_nans:
        n = _core.sum(_core.logical_not(_core.isnan(s)), axis=-1)
        r = _order_statistics(s, n, qd, method, weak)
        empty = _core.expand_dims(n == 0, -1)
        r = _core.where(empty, _core.asarray(float("nan"), dtype=r.dtype, device=a.device), r)
    else:
        if big_n == 0:
            raise IndexError(f"[{what}] cannot take a quantile over an axis of length 0")
        r = _order_statistics(s, big_n, qd, method, weak)
        if has_nans:  # a slice holding a NaN has NaN for every quantile (NumPy)
            r = _core.where(_core.isnan(s[..., -1:]), s[..., -1:], r)
    layout = _nan_layout(a, axis, qa.ndim, median=False) if skip_nan else None
    return _finish(r, qa.shape, keepdims_shape, keepdims, out, what, layout)


def quantile(a, q, axis=None, out=None, overwrite_input=False, method="linear", keepdims=False,
             *, weights=None):
    """NumPy's quantile (all 13 methods; q in [0, 1]); a NaN in a slice gives NaN."""
    return _quantile(a, q, axis, out, method, keepdims, weights, "quantile", 1, False)


def percentile(a, q, axis=None, out=None, overwrite_input=False, method="linear", keepdims=False,
               *, weights=None):
    """NumPy's percentile: quantile of q / 100."""
    return _quantile(a, q, axis, out, method, keepdims, weights, "percentile", 100, False)


def nanquantile(a, q, axis=None, out=None, overwrite_input=False, method="linear", keepdims=False,
                *, weights=None):
    """quantile ignoring NaNs; an all-NaN slice gives NaN."""
    return _quantile(a, q, axis, out, method, keepdims, weights, "nanquantile", 1, True)


def nanpercentile(a, q, axis=None, out=None, overwrite_input=False, method="linear",
                  keepdims=False, *, weights=None):
    return _quantile(a, q, axis, out, method, keepdims, weights, "nanpercentile", 100, True)


def _median(a, axis, out, keepdims, skip_nan, what):
    a = _arr(a)
    rows_a, keepdims_shape = _last_axis(a, axis, what)
    s = _core.sort(rows_a, axis=-1)
    big_n = s.shape[-1]
    # NumPy's median is the mean of the middle one or two values: ints become float64, floats
    # keep their dtype, (lo + hi) / 2 in that dtype.
    rdt = a.dtype if _is_inexact(a.dtype) else _core.float64
    sf = _core.astype(s, rdt)
    nan = _core.asarray(float("nan"), dtype=rdt, device=a.device)
    if big_n == 0:  # NumPy: the mean of an empty slice, NaN
        r = _core.full(tuple(s.shape[:-1]) + (1,), float("nan"), dtype=rdt, device=a.device)
    elif skip_nan and _is_inexact(a.dtype):
        n = _core.sum(_core.logical_not(_core.isnan(s)), axis=-1, keepdims=True)
        lo_i = _core.clip((n - 1) // 2, 0, max(big_n - 1, 0))
        hi_i = _core.clip(n // 2, 0, max(big_n - 1, 0))
        lo = _core.take_along_axis(sf, lo_i, axis=-1)
        hi = _core.take_along_axis(sf, hi_i, axis=-1)
        r = _core.where(n == 0, nan, _core.where(lo_i == hi_i, (lo + 0.0) / 1, (lo + 0.0 + hi) / 2))
    else:
        lo = sf[..., (big_n - 1) // 2:(big_n - 1) // 2 + 1]
        hi = sf[..., big_n // 2:big_n // 2 + 1]
        # NumPy's mean of the one or two middle values: a sum that starts at +0.0 (so -0.0
        # becomes 0.0; fuzz seed 894167), divided by 1 or 2 (a complex inf gains a NaN part).
        r = (lo + 0.0) / 1 if big_n % 2 else (lo + 0.0 + hi) / 2
        if _is_inexact(a.dtype):
            r = _core.where(_core.isnan(sf[..., -1:]), sf[..., -1:], r)
    layout = _nan_layout(a, axis, 0, median=True) if skip_nan else None
    return _finish(r, (), keepdims_shape, keepdims, out, what, layout)


def median(a, axis=None, out=None, overwrite_input=False, keepdims=False):
    """NumPy's median: the middle value, or the mean of the middle two; NaN where a slice has one."""
    return _median(a, axis, out, keepdims, False, "median")


def nanmedian(a, axis=None, out=None, overwrite_input=False, keepdims=False):
    """median ignoring NaNs; an all-NaN slice gives NaN."""
    return _median(a, axis, out, keepdims, True, "nanmedian")
