"""cov and corrcoef with NumPy's arguments (rowvar, bias, ddof, fweights, aweights, dtype) and
its arithmetic: centre each variable, multiply by the (weighted) transpose with matmul, scale by
1/fact. Composed from accel's ops, so they run on every device; the sums go through matmul, so
results agree with NumPy's to rounding (the order of a dot product's sum is the BLAS's)."""

import warnings as _warnings

import numpy as _np

from . import _core
from ._numpy_functions import diagonal as _diagonal

__all__ = ["cov", "corrcoef"]


def _arr(x, device=None):
    if isinstance(x, _core.ndarray):
        return x
    return _core.asarray(x) if device is None else _core.asarray(x, device=device)


def _rows(x, dtype, rowvar):
    """x as a 2-d array of variables by observations, in dtype (x itself when it has it:
    nothing writes to it)."""
    x = _core.astype(x, dtype, copy=False)
    if x.ndim < 2:
        x = _core.reshape(x, (1, -1) if x.ndim == 1 else (1, 1))
    elif not rowvar:
        x = _core.matrix_transpose(x)
    return x


def _weights(w, n, device, what):
    w = _core.astype(_arr(w, device), _core.float64)
    if w.ndim > 1:
        raise RuntimeError(f"cannot handle multidimensional {what}")
    if w.shape[0] != n:
        raise RuntimeError(f"incompatible numbers of samples and {what}")
    if bool(_core.any(w < 0)):
        raise ValueError(f"{what} cannot be negative")
    return w


def cov(m, y=None, rowvar=True, bias=False, ddof=None, fweights=None, aweights=None, *,
        dtype=None):
    """NumPy's covariance matrix (a 0-d array for a single variable)."""
    if ddof is not None and ddof != int(ddof):
        raise ValueError("ddof must be integer")
    m = _arr(m)
    if m.ndim > 2:
        raise ValueError("m has more than 2 dimensions")
    if y is not None:
        y = _arr(y, m.device)
        if y.ndim > 2:
            raise ValueError("y has more than 2 dimensions")
    if dtype is None:
        dtype = _core.result_type(m, _core.float64) if y is None else \
            _core.result_type(m, y, _core.float64)
    x = _rows(m, dtype, rowvar or m.ndim == 1)
    if x.shape[0] == 0:
        return _core.empty((0, 0), dtype=_core.float64, device=m.device)
    if y is not None:
        yr = _rows(y, dtype, True)
        if not rowvar and yr.shape[0] != 1:
            yr = _core.matrix_transpose(yr)
        x = _core.concat([x, yr], axis=0)
    if ddof is None:
        ddof = 0 if bias else 1
    n = x.shape[1]
    w = None
    if fweights is not None:
        fw = _weights(fweights, n, m.device, "fweights")
        if not bool(_core.all(fw == _core.round(fw))):
            raise TypeError("fweights must be integer")
        w = fw
    if aweights is not None:
        aw = _weights(aweights, n, m.device, "aweights")
        w = aw if w is None else w * aw
    if w is None:
        avg = _core.mean(x, axis=1)
        w_sum = float(n)
        fact = n - ddof
    else:
        w_sum = float(_core.sum(w))
        if w_sum == 0:
            raise ZeroDivisionError("Weights sum to zero, can't be normalized")
        avg = _core.sum(x * w, axis=1) / w_sum
        if ddof == 0:
            fact = w_sum
        elif aweights is None:
            fact = w_sum - ddof
        else:
            fact = w_sum - ddof * float(_core.sum(w * aw)) / w_sum
    if fact <= 0:
        _warnings.warn("Degrees of freedom <= 0 for slice", RuntimeWarning, stacklevel=2)
        fact = 0.0
    x = x - avg[:, None]
    xw = x if w is None else x * w
    xw_t = _core.matrix_transpose(xw)
    # conj of real rows would be a copy of them, and the product would lose BLAS's transposed
    # operand (x @ x.T of 50 x 2000: 317 us through conj, 218 without).
    c = _core.matmul(x, _core.conj(xw_t) if xw_t.dtype.kind == "c" else xw_t)
    with _np.errstate(divide="ignore"):
        scale = float(_np.true_divide(1, fact))
    # NumPy's `c *= np.float64(1 / fact)`: the product is taken in float64 and stored back.
    scaled = _core.astype(c, _core.result_type(c, _core.float64)) * scale
    return _core.squeeze(_core.astype(scaled, c.dtype))


def corrcoef(x, y=None, rowvar=True, *, dtype=None):
    """Pearson correlation coefficients (NumPy's: cov scaled by the standard deviations, real
    parts clipped to [-1, 1])."""
    c = cov(x, y, rowvar, dtype=dtype)
    if c.ndim == 0:
        return c / c  # NaN for one variable (NumPy), 1 otherwise
    d = _diagonal(c)
    stddev = _core.sqrt(_core.real(d))
    c = c / stddev[:, None]
    c = c / stddev[None, :]
    if c.dtype.kind == "c":
        return _core.clip(_core.real(c), -1, 1) + 1j * _core.clip(_core.imag(c), -1, 1)
    return _core.clip(c, -1, 1)
