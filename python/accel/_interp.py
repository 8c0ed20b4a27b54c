"""interp: NumPy's one-dimensional piecewise-linear interpolation (left/right values, period,
complex fp), with its float64 arithmetic: slope * (x - xp[j]) + fp[j], the value at a sample
point exactly fp[j], and the same fallbacks when that product is not finite. The interval of
each x comes from searchsorted, so it runs wherever searchsorted does. (Dask's percentile merges its
chunks' percentiles with np.interp, which lands here for accel chunks.)"""

from . import _core

__all__ = ["interp"]


def _arr(x, device):
    return x if isinstance(x, _core.ndarray) else _core.asarray(x, device=device)


def _interp_real(x, xp, fp, left, right, by_inverse=False):
    n = xp.shape[0]
    first, last = fp[0], fp[n - 1]
    lo = first if left is None else left
    hi = last if right is None else right
    if n == 1:  # NumPy: below, above, else (NaN too) the one value
        return _core.where(x < xp[0], lo, _core.where(x > xp[0], hi, first))
    j = _core.clip(_core.searchsorted(xp, x, side="right") - 1, 0, n - 2)
    x0, x1 = _core.take(xp, j), _core.take(xp, j + 1)
    y0, y1 = _core.take(fp, j), _core.take(fp, j + 1)
    # NumPy divides by the interval for real fp and multiplies by its inverse for complex fp
    slope = (y1 - y0) * (1.0 / (x1 - x0)) if by_inverse else (y1 - y0) / (x1 - x0)
    res = slope * (x - x0) + y0
    # NumPy's fallbacks for a non-finite product (an infinite slope or sample point)
    res = _core.where(_core.isnan(res), slope * (x - x1) + y1, res)
    res = _core.where(_core.isnan(res) & (y0 == y1), y0, res)
    res = _core.where(x == x0, y0, res)
    res = _core.where(x < xp[0], lo, res)
    res = _core.where(x > xp[n - 1], hi, res)
    res = _core.where(x == xp[n - 1], last, res)
    return _core.where(_core.isnan(x), x, res)


def interp(x, xp, fp, left=None, right=None, period=None):
    """Values at x of the piecewise-linear function through (xp, fp); xp increasing (or any
    order with period)."""
    device = next((a.device for a in (x, xp, fp) if isinstance(a, _core.ndarray)), None)
    x = _arr(x, device)
    xp = _arr(xp, x.device)
    fp = _arr(fp, x.device)
    if xp.ndim != 1 or fp.ndim != 1:
        raise ValueError("Data points must be 1-D sequences" if fp.ndim == 1 or xp.ndim != 1
                         else "object too deep for desired array")
    if xp.shape[0] != fp.shape[0]:
        raise ValueError("fp and xp are not of the same length.")
    if xp.shape[0] == 0:
        raise ValueError("array of sample points is empty")
    if x.dtype.kind == "c" or xp.dtype.kind == "c":
        raise TypeError("Cannot cast array data from dtype('complex128') to dtype('float64') "
                        "according to the rule 'safe'")
    x = _core.astype(x, _core.float64)
    xp = _core.astype(xp, _core.float64)
    out_dtype = _core.complex128 if fp.dtype.kind == "c" else _core.float64
    fp = _core.astype(fp, out_dtype)
    if period is not None:
        if period == 0:
            raise ValueError("period must be a non-zero value")
        period = abs(period)
        left = right = None
        x = _core.remainder(x, period)
        xp = _core.remainder(xp, period)
        order = _core.argsort(xp)
        xp, fp = _core.take(xp, order), _core.take(fp, order)
        xp = _core.concat([xp[-1:] - period, xp, xp[0:1] + period])
        fp = _core.concat([fp[-1:], fp, fp[0:1]])
    if out_dtype == _core.complex128:
        def part(v, f):
            return None if v is None else f(_core.asarray(complex(v), device=x.device))
        re = _interp_real(x, xp, _core.real(fp), part(left, _core.real), part(right, _core.real),
                          True)
        im = _interp_real(x, xp, _core.imag(fp), part(left, _core.imag), part(right, _core.imag),
                          True)
        if xp.shape[0] > 1:
            im = _core.where(_core.isnan(x), 0.0, im)  # NumPy: a NaN x gives NaN + 0j
        return re + 1j * im
    return _interp_real(x, xp, fp, left, right)
