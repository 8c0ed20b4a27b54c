"""NumPy's NaN-ignoring reductions (nansum, nanmean, nanmax, nanargmax, nanvar, ...), built from
the reductions and elementwise ops: NaNs are replaced by the op's identity (or masked out of the
count) before reducing. Integer and bool inputs have no NaN and reduce as they are."""

import math

from . import _core

__all__ = ["nansum", "nanprod", "nanmax", "nanmin", "nanargmax", "nanargmin", "nanmean",
           "nanvar", "nanstd", "nancumsum", "nancumprod"]


def _inexact(a):
    return a.dtype.kind in "fc"


def _dense(a):
    """a, or for a broadcast a (a step of 0 along an axis longer than 1) a copy laid out as
    NumPy's nan functions copy it (np.array(a, copy=True): empty_like's layout, broadcast axes
    innermost), so that what is computed from it is laid out as NumPy's: an elementwise result
    of a broadcast input is C-ordered instead."""
    if not any(n > 1 and s == 0 for n, s in zip(a.shape, a.strides)):
        return a
    copy = _core.empty_like(a)
    copy[...] = a
    return copy


def _filled(a, value, copied=True):
    """a with NaNs replaced by value (a itself when it cannot hold NaN), laid out as NumPy's
    copy of a (copied) or as an elementwise result of a (nanmax/nanmin: NumPy reduces a with
    fmax/fmin, no copy)."""
    a = _core.asarray(a)
    if not _inexact(a):
        return a
    if copied:
        a = _dense(a)
    return _core.where(_core.isnan(a), _core.asarray(value, dtype=a.dtype), a)


def nansum(a, axis=None, dtype=None, out=None, keepdims=False, initial=None, where=None):
    return _core.sum(_filled(a, 0), axis=axis, dtype=dtype, out=out, keepdims=keepdims,
                     initial=initial, where=where)


def nanprod(a, axis=None, dtype=None, out=None, keepdims=False, initial=None, where=None):
    return _core.prod(_filled(a, 1), axis=axis, dtype=dtype, out=out, keepdims=keepdims,
                      initial=initial, where=where)


def nancumsum(a, axis=None, dtype=None, out=None):
    return _core.cumsum(_filled(a, 0), axis=axis, dtype=dtype, out=out)


def nancumprod(a, axis=None, dtype=None, out=None):
    return _core.cumprod(_filled(a, 1), axis=axis, dtype=dtype, out=out)


def _nan_extreme(fn, fill, a, axis, out, keepdims, initial, where):
    a = _core.asarray(a)
    if not _inexact(a):
        return fn(a, axis=axis, out=out, keepdims=keepdims, initial=initial, where=where)
    result = fn(_filled(a, fill, copied=False), axis=axis, keepdims=keepdims, initial=initial,
                where=where)
    if initial is None:
        # A slice of NaNs only (those where= selects) gives NaN (NumPy also warns); with an
        # initial value it gives that, as NumPy's fmax.reduce does.
        nan = _core.isnan(a)
        if where is not None:
            nan = _core.logical_or(nan, _core.logical_not(where))
        all_nan = _core.all(nan, axis=axis, keepdims=keepdims)
        result = _core.where(all_nan, _core.asarray(math.nan, dtype=a.dtype), result)
    if out is None:
        return result
    out[...] = result
    return out


def nanmax(a, axis=None, out=None, keepdims=False, initial=None, where=None):
    return _nan_extreme(_core.max, -math.inf, a, axis, out, keepdims, initial, where)


def nanmin(a, axis=None, out=None, keepdims=False, initial=None, where=None):
    return _nan_extreme(_core.min, math.inf, a, axis, out, keepdims, initial, where)


def _nan_arg(fn, fill, a, axis, out, keepdims, name):
    a = _core.asarray(a)
    if not _inexact(a):
        return fn(a, axis=axis, out=out, keepdims=keepdims)
    if bool(_core.any(_core.all(_core.isnan(a), axis=axis))):
        raise ValueError(f"[{name}] All-NaN slice encountered")
    return fn(_filled(a, fill), axis=axis, out=out, keepdims=keepdims)


def nanargmax(a, axis=None, out=None, *, keepdims=False):
    return _nan_arg(_core.argmax, -math.inf, a, axis, out, keepdims, "nanargmax")


def nanargmin(a, axis=None, out=None, *, keepdims=False):
    return _nan_arg(_core.argmin, math.inf, a, axis, out, keepdims, "nanargmin")


def _count(a, axis, keepdims, where=None):
    """The elements that are not NaN (and that where= selects) along axis."""
    kept = _core.logical_not(_core.isnan(a))
    if where is not None:
        kept = _core.logical_and(kept, where)
    return _core.count_nonzero(kept, axis=axis, keepdims=keepdims)


def nanmean(a, axis=None, dtype=None, out=None, keepdims=False, *, where=None):
    a = _core.asarray(a)
    if not _inexact(a):
        return _core.mean(a, axis=axis, dtype=dtype, out=out, keepdims=keepdims, where=where)
    total = _core.sum(_filled(a, 0), axis=axis, dtype=dtype, keepdims=keepdims, where=where)
    # Divided in place, as NumPy's (the mean keeps the sum's layout, in the sum's dtype);
    # 0 / 0: NaN for an all-NaN slice.
    result = _core.divide(total, _count(a, axis, keepdims, where), out=total, casting="unsafe")
    if out is None:
        return result
    out[...] = result
    return out


def nanvar(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=None,
           mean=None, correction=None):
    """NumPy's nanvar; mean= is the mean of a's non-NaN values along axis with keepdims=True
    (NumPy 2's, as var's), used instead of computing it."""
    a = _core.asarray(a)
    if correction is not None:
        if ddof != 0:
            raise ValueError("[nanvar] ddof and correction can't be provided simultaneously")
        ddof = correction
    if not _inexact(a):
        return _core.var(a, axis=axis, dtype=dtype, out=out, ddof=ddof, keepdims=keepdims,
                         where=where, mean=mean)
    a = _dense(a)
    if mean is None:
        mean = nanmean(a, axis=axis, dtype=dtype, keepdims=True, where=where)
    # Deviations of a's NaNs are 0; an inf's (inf - inf) stays NaN, as NumPy's.
    dev = _core.where(_core.isnan(a), _core.asarray(0, dtype=a.dtype), a - mean)
    sq = _core.real(dev * _core.conj(dev)) if dev.dtype in (_core.complex64, _core.complex128) else dev * dev
    total = _core.sum(sq, axis=axis, keepdims=keepdims, where=where)
    dof = _count(a, axis, keepdims, where) - ddof
    result = _core.divide(total, dof, out=total, casting="unsafe")  # in place, as nanmean
    # No degrees of freedom left: NaN, as NumPy's nanvar (var gives total / 0 there, inf).
    result = _core.where(dof <= 0, _core.asarray(math.nan, dtype=result.dtype), result)
    if out is None:
        return result
    out[...] = result
    return out


def nanstd(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=None,
           mean=None, correction=None):
    result = _core.sqrt(nanvar(a, axis=axis, dtype=dtype, ddof=ddof, keepdims=keepdims,
                               where=where, mean=mean, correction=correction))
    if out is None:
        return result
    out[...] = result
    return out
