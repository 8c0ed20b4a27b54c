"""NumPy 2's set operations on two arrays (union1d, intersect1d, setdiff1d, setxor1d), its
multi-dimensional histograms (histogram2d, histogramdd) and its power-series polynomial functions
(polyval, polyfit, polyadd, polysub, polymul, polydiv, polyder, polyint, roots, poly), with
NumPy's signatures, results and dtypes. Each is composed from accel ops (sort, unique, isin,
searchsorted, bincount, linalg.eigvals, linalg.lstsq) so it runs on the inputs' device; only
lengths, a few scalars (a histogram's range, where the nonzero coefficients start) and
booleans that steer a loop meet the host.

Coefficient arrays are highest power first, as in NumPy's np.poly* functions. The poly1d class
is not provided: its inputs are taken as plain coefficient arrays and results are arrays."""

import math as _math
import operator as _operator
import warnings as _warnings

from . import _core
from ._common import as_array as _arr, device_of as _device_of
from ._array_api import finfo as _finfo
from ._sets import isin as _isin, unique as _unique
from ._histograms import bincount as _bincount
from . import linalg as _linalg

__all__ = ["union1d", "intersect1d", "setdiff1d", "setxor1d", "histogram2d", "histogramdd",
           "polyval", "polyfit", "polyadd", "polysub", "polymul", "polydiv", "polyder",
           "polyint", "roots", "poly"]


def _flat(x):
    return _core.reshape(x, (x.size,))


def _atleast_1d(x):
    return _core.reshape(x, (1,)) if x.ndim == 0 else x


def _inexact(x):
    """x + 0.0 as NumPy computes it: integers and bools become float64, floats keep theirs."""
    return x if x.dtype.kind in "fc" else _core.astype(x, _core.float64)


# ---------------------------------------------------------------------------- set operations

def _both_flat(ar1, ar2):
    device = _device_of(ar1, ar2)
    return _flat(_arr(ar1, device)), _flat(_arr(ar2, device))


def _joined(a, b):
    """a and b (1-d) end to end in their promoted dtype, as np.concatenate gives."""
    dt = _core.result_type(a, b)
    return _core.concat([_core.astype(a, dt), _core.astype(b, dt)])


def union1d(ar1, ar2):
    """The sorted unique values in either flattened input (NumPy's union1d: one NaN)."""
    a, b = _both_flat(ar1, ar2)
    return _unique(_joined(a, b))


def intersect1d(ar1, ar2, assume_unique=False, return_indices=False):
    """The sorted unique values in both flattened inputs (NaN is in no intersection). With
    return_indices, also the int64 index of each value's first occurrence in ar1 and in ar2."""
    a, b = _both_flat(ar1, ar2)
    if not assume_unique:
        if return_indices:
            a, ind1 = _unique(a, return_index=True)
            b, ind2 = _unique(b, return_index=True)
        else:
            a, b = _unique(a), _unique(b)
    aux = _joined(a, b)
    # Stable: of two equal values, the one from ar1 comes first.
    order = _core.argsort(aux)
    aux = _core.take(aux, order)
    mask = aux[1:] == aux[:-1]
    common = aux[:-1][mask]
    if not return_indices:
        return common
    i1 = order[:-1][mask]
    i2 = order[1:][mask] - a.shape[0]
    if not assume_unique:
        i1, i2 = _core.take(ind1, i1), _core.take(ind2, i2)
    return common, i1, i2


def setdiff1d(ar1, ar2, assume_unique=False):
    """The values of ar1 not in ar2, in ar1's dtype: sorted and unique, or with assume_unique
    ar1 flattened in its own order. NaN is never in ar2, so ar1's NaN stays."""
    a, b = _both_flat(ar1, ar2)
    if not assume_unique:
        a, b = _unique(a), _unique(b)
    return a[_isin(a, b, invert=True)]


def setxor1d(ar1, ar2, assume_unique=False):
    """The sorted values in exactly one of the inputs. NaNs are never equal here, so a NaN in
    each input gives two NaNs, as NumPy's does."""
    a, b = _both_flat(ar1, ar2)
    if not assume_unique:
        a, b = _unique(a), _unique(b)
    aux = _core.sort(_joined(a, b))
    if aux.shape[0] == 0:
        return aux
    edge = _core.ones((1,), dtype=_core.bool, device=aux.device)
    flag = _core.concat([edge, aux[1:] != aux[:-1], edge])
    return aux[flag[1:] & flag[:-1]]


# ------------------------------------------------------------------------------ histograms

def _sample_columns(sample, name):
    """The D coordinate columns of a sample: an (N, D) or (N,) array, or a sequence of D
    one-dimensional arrays (NumPy reads a nested list that way too), in one promoted dtype."""
    if hasattr(sample, "ndim") and hasattr(sample, "shape"):
        s = _arr(sample)
        if s.ndim > 2:
            raise ValueError(f"[{name}] sample must be an (N, D) array or a sequence of D 1-d "
                             f"arrays; got an array of shape {tuple(s.shape)}")
        if s.ndim < 2:
            s = _core.reshape(s, (-1, 1))
        return [s[:, i] for i in range(s.shape[1])]
    device = _device_of(*sample)
    cols = [_flat(_arr(c, device)) for c in sample]
    if not cols:
        raise ValueError(f"[{name}] sample has no dimensions")
    if len({c.shape[0] for c in cols}) > 1:
        raise ValueError(f"[{name}] the sample's coordinate arrays differ in length: "
                         f"{[c.shape[0] for c in cols]}")
    dt = _core.result_type(*cols)
    return [_core.astype(c, dt) for c in cols]


def _linspace(start, stop, num):
    """NumPy's linspace between two 0-d arrays of one dtype, computed as NumPy does in that
    dtype: i * step + start, the last point stop itself; where the step underflows to zero
    (a subnormal range), i / (num - 1) * delta + start, as NumPy's."""
    delta = stop - start
    step = delta / (num - 1)
    i = _core.arange(num, dtype=start.dtype, device=start.device)
    y = _core.where(step != 0, i * step, i / (num - 1) * delta) + start  # no host sync
    y[-1] = stop
    return y


def _equal_edges(col, n, rng, i, name):
    """NumPy's edges for n equal bins of one sample column: over rng, or the data's min and
    max (0 to 1 for no data), widened by 0.5 each way when they coincide."""
    dtype = _core.float64
    if rng is not None:
        first, last = (float(r) for r in rng)
        if first > last:
            raise ValueError(f"[{name}] range[{i}]: max must be larger than min, got "
                             f"({first}, {last})")
        if not (_math.isfinite(first) and _math.isfinite(last)):
            raise ValueError(f"[{name}] range[{i}]: supplied range of [{first}, {last}] is "
                             f"not finite")
    elif col.shape[0] == 0:
        first, last = 0.0, 1.0
    else:
        # NumPy's linspace between two scalars of the data: float32 data keeps float32 edges.
        if col.dtype.kind == "f":
            dtype = col.dtype
        first, last = float(_core.min(col)), float(_core.max(col))
        if not (_math.isfinite(first) and _math.isfinite(last)):
            raise ValueError(f"[{name}] dimension {i}: autodetected range of [{first}, {last}] "
                             f"is not finite")
    start = _core.asarray(first, dtype=dtype, device=col.device)
    stop = _core.asarray(last, dtype=dtype, device=col.device)
    if first == last:  # widened in the edges' dtype, as NumPy's scalars are
        start, stop = start - 0.5, stop + 0.5
    return _linspace(start, stop, n + 1)


def _bin_edges(col, b, rng, i, name):
    """Dimension i's edges: equal bins for a scalar b, else b itself (increasing, 1-d)."""
    scalar = getattr(b, "ndim", None) == 0 or not (hasattr(b, "ndim") or hasattr(b, "__len__"))
    if scalar:
        if b < 1:
            raise ValueError(f"[{name}] `bins[{i}]` must be positive, when an integer; got {b}")
        try:
            n = _operator.index(b)
        except TypeError:
            raise TypeError(f"[{name}] `bins[{i}]` must be an integer, when a scalar; "
                            f"got {b!r}") from None
        return _equal_edges(col, n, rng, i, name)
    e = _arr(b, col.device)
    if e.ndim != 1:
        raise ValueError(f"[{name}] `bins[{i}]` must be a scalar or 1d array; got shape "
                         f"{tuple(e.shape)}")
    if e.shape[0] > 1 and bool(_core.any(e[:-1] > e[1:])):
        raise ValueError(f"[{name}] `bins[{i}]` must be monotonically increasing, when an array")
    return e


def histogramdd(sample, bins=10, range=None, density=None, weights=None):  # noqa: A002
    """NumPy's histogramdd: counts (float64, shape of the bins) and the list of D edge arrays.
    bins: an int for all dimensions, or one int or edge array per dimension; an element x
    falls in bin i of a dimension when edges[i] <= x < edges[i+1], the last bin closed. Equal
    bins span range[d] or the data's min and max. Weighted sums are differences of a float64
    running sum (accel's bincount), so they round a little differently from NumPy's. Complex
    samples and complex weights are not supported (TypeError)."""
    name = "histogramdd"
    cols = _sample_columns(sample, name)
    D = len(cols)
    if cols[0].dtype.kind == "c":
        raise TypeError(f"[{name}] complex samples are not supported (dtype {cols[0].dtype})")
    try:
        if len(bins) != D:
            raise ValueError(f"[{name}] The dimension of bins ({len(bins)}) must be equal to the "
                             f"dimension of the sample x ({D}).")
    except TypeError:  # one int for every dimension
        bins = D * [bins]
    if range is None:
        range = (None,) * D  # noqa: A001
    elif len(range) != D:
        raise ValueError(f"[{name}] range argument must have one entry per dimension; got "
                         f"{len(range)} for {D} dimensions")
    edges = [_bin_edges(c, b, r, i, name) for i, (c, b, r) in enumerate(zip(cols, bins, range))]
    nbin = [e.shape[0] + 1 for e in edges]  # an outlier bin at each end
    flat = None
    for col, e, nb in zip(cols, edges, nbin):
        dt = _core.result_type(col, e)
        c, ec = _core.astype(col, dt), _core.astype(e, dt)
        idx = _core.searchsorted(ec, c, side="right")
        # Values on the last edge belong to the last bin, not to the outliers.
        idx = idx - _core.astype(c == ec[-1], _core.int64)
        flat = idx if flat is None else flat * nb + idx
    total = 1
    for nb in nbin:
        total *= nb
    if weights is not None:
        weights = _arr(weights, cols[0].device)
        if weights.dtype.kind == "c":
            raise TypeError(f"[{name}] complex weights are not supported (dtype "
                            f"{weights.dtype}); NumPy refuses them too")
    hist = _bincount(flat, weights=weights, minlength=total)
    hist = _core.reshape(_core.astype(hist, _core.float64), tuple(nbin))
    hist = hist[(slice(1, -1),) * D]
    if density:
        s = _core.sum(hist)
        for i, e in enumerate(edges):
            shape = [1] * D
            shape[i] = nbin[i] - 2
            hist = hist / _core.reshape(e[1:] - e[:-1], tuple(shape))
        hist = hist / s
    return hist, edges


def histogram2d(x, y, bins=10, range=None, density=None, weights=None):  # noqa: A002
    """NumPy's histogram2d: (counts, xedges, yedges), from histogramdd of the pairs (x, y).
    bins: an int, [nx, ny], one edge array for both, or [xedges, yedges]."""
    if len(x) != len(y):
        raise ValueError(f"[histogram2d] x and y must have the same length; got {len(x)} and "
                         f"{len(y)}")
    try:
        n = len(bins)
    except TypeError:
        n = 1
    if n not in (1, 2):
        edges = _arr(bins, _device_of(x, y))
        bins = [edges, edges]
    hist, edges = histogramdd([x, y], bins, range, density, weights)
    return hist, edges[0], edges[1]


# ----------------------------------------------------------------------------- polynomials

def polyval(p, x):
    """p (highest power first) at x by Horner's rule, in the promoted dtype of p and x as
    NumPy's y = y * x + p[i] from y = zeros_like(x)."""
    device = _device_of(p, x)
    p, x = _arr(p, device), _arr(x, device)
    if p.ndim == 0:
        raise TypeError("[polyval] iteration over a 0-d array: p must be a sequence of "
                        "coefficients")
    y = _core.zeros_like(x)
    for i in range(p.shape[0]):
        y = y * x + p[i]
    return y


def _padded_pair(a1, a2):
    device = _device_of(a1, a2)
    a, b = _atleast_1d(_arr(a1, device)), _atleast_1d(_arr(a2, device))
    diff = b.shape[0] - a.shape[0]
    if diff > 0:
        a = _core.concat([_core.zeros((diff,), dtype=a.dtype, device=a.device), a])
    elif diff < 0:
        b = _core.concat([_core.zeros((-diff,), dtype=b.dtype, device=b.device), b])
    return a, b


def polyadd(a1, a2):
    """The sum of two polynomials, the shorter padded with leading zeros of its own dtype."""
    a, b = _padded_pair(a1, a2)
    return a + b


def polysub(a1, a2):
    """a1 - a2, the shorter padded with leading zeros of its own dtype."""
    a, b = _padded_pair(a1, a2)
    return a - b


def _trimmed(a, name):
    """A coefficient array as NumPy's poly1d holds it: 1-d, leading zeros removed, [0] when
    nothing is left."""
    a = _atleast_1d(a)
    if a.ndim > 1:
        raise ValueError(f"[{name}] Polynomial must be 1d only; got shape {tuple(a.shape)}")
    nz = _core.nonzero(a != 0)[0]
    if nz.shape[0] == 0:
        return _core.zeros((1,), dtype=a.dtype, device=a.device)
    return a[int(nz[0]):]


def _convolve(a, b):
    """The full convolution of 1-d a and b in their promoted dtype (NumPy's convolve): row i
    of the outer product shifted i places right, then summed down the columns. The shift is
    a reshape: rows of length n + m, read back with length n + m - 1."""
    dt = _core.result_type(a, b)
    if a.shape[0] > b.shape[0]:
        a, b = b, a
    m, n = a.shape[0], b.shape[0]
    outer = _core.astype(a, dt)[:, None] * _core.astype(b, dt)[None, :]
    padded = _core.concat([outer, _core.zeros((m, m), dtype=dt, device=a.device)], axis=1)
    skewed = _core.reshape(_flat(padded)[:m * (n + m - 1)], (m, n + m - 1))
    if dt == _core.bool:  # NumPy's boolean dot: any of the products
        return _core.any(skewed, axis=0)
    return _core.sum(skewed, axis=0, dtype=dt)


def polymul(a1, a2):
    """The product of two polynomials (their convolution, leading zeros removed first, as
    NumPy's poly1d does), in their promoted dtype."""
    device = _device_of(a1, a2)
    return _convolve(_trimmed(_arr(a1, device), "polymul"),
                     _trimmed(_arr(a2, device), "polymul"))


def polydiv(u, v):
    """Quotient and remainder of u / v by long division, in floating point (integers become
    float64). Leading remainder coefficients within 1e-8 of zero are dropped, as NumPy's
    allclose(r[0], 0, rtol=1e-14) loop does, keeping at least one."""
    device = _device_of(u, v)
    # + 0.0 as NumPy's (atleast_1d(v) + 0.0): a -0.0 leading coefficient becomes +0.0, so
    # dividing by it gives NumPy's sign of infinity (fuzz seed 2127346).
    u, v = (_inexact(_atleast_1d(_arr(p, device))) + 0.0 for p in (u, v))
    if u.shape[0] == 0 or v.shape[0] == 0:
        raise IndexError(f"[polydiv] index 0 is out of bounds for an empty polynomial "
                         f"(u has {u.shape[0]} coefficients, v has {v.shape[0]})")
    dt = _core.result_type(u, v)
    m, n = u.shape[0] - 1, v.shape[0] - 1
    scale = 1.0 / v[0]
    q = _core.zeros((max(m - n + 1, 1),), dtype=dt, device=u.device)
    r = _core.astype(u, dt, copy=True)
    for k in range(m - n + 1):
        d = scale * r[k]
        q[k] = d
        r[k:k + n + 1] -= d * v
    # NumPy's isclose(r[0], 0) compares |r[0]| with atol = 1e-8 in float64.
    small = _core.astype(_core.abs(r), _core.float64) <= 1e-8
    leading = int(_core.sum(_core.cumulative_prod(_core.astype(small, _core.int64))))
    return q, r[min(leading, r.shape[0] - 1):]


def _order(m, name, other):
    m = int(m)
    if m < 0:
        raise ValueError(f"[{name}] Order of {'derivative' if name == 'polyder' else 'integral'}"
                         f" must be positive (see {other}); got m={m}")
    return m


def _coefficients(p, name):
    p = _arr(p)
    if p.ndim == 0:
        raise TypeError(f"[{name}] len() of unsized object: p must be a sequence of "
                        f"coefficients, got a 0-d array")
    return p


def polyder(p, m=1):
    """The m-th derivative of p: each pass multiplies p[:-1] by its powers n, ..., 1 (int64),
    so integer coefficients stay integers (promoted with int64)."""
    m = _order(m, "polyder", "polyint")
    p = _coefficients(p, "polyder")
    for _ in range(m):
        n = p.shape[0] - 1
        p = p[:-1] * _core.arange(n, 0, -1, dtype=_core.int64, device=p.device)
    return p


def polyint(p, m=1, k=None):
    """The m-th antiderivative of p: each pass divides by the powers len(p), ..., 1 (true
    division: float64 for integers) and appends the next integration constant. k: None
    (zeros), one constant for every pass, or at least m constants, the first used first."""
    m = _order(m, "polyint", "polyder")
    p = _coefficients(p, "polyint")
    if k is None:
        k = _core.zeros((m,), dtype=_core.float64, device=p.device)
    k = _atleast_1d(_arr(k, p.device))
    if k.shape[0] == 1 and m > 1:
        k = k[0] * _core.ones((m,), dtype=_core.float64, device=p.device)
    if k.shape[0] < m:
        raise ValueError(f"[polyint] k must be a scalar or a rank-1 array of length 1 or >m; "
                         f"got {k.shape[0]} constants for m={m}")
    for j in range(m):
        powers = _core.arange(p.shape[0], 0, -1, dtype=_core.int64, device=p.device)
        y = p / powers
        dt = _core.result_type(y, k)
        p = _core.concat([_core.astype(y, dt), _core.astype(k[j:j + 1], dt)])
    return p


def _eigvals(a):
    """NumPy's eigvals: real when the matrix is real and every eigenvalue's imaginary part is
    zero (accel.linalg.eigvals answers complex for every real matrix)."""
    w = _linalg.eigvals(a)
    if a.dtype.kind != "c" and w.dtype.kind == "c" and bool(_core.all(_core.imag(w) == 0)):
        w = _core.real(w)
    return w


def roots(p):
    """The roots of p (highest power first): the eigenvalues of its companion matrix, after
    leading zeros are removed, and one 0 for each trailing zero. Real (float64, or float32 for
    float32 input) when every root is real, as NumPy's eigvals gives; empty float64 for a
    polynomial with no nonzero coefficient."""
    p = _atleast_1d(_arr(p))
    if p.ndim != 1:
        raise ValueError(f"[roots] Input must be a rank-1 array; got shape {tuple(p.shape)}")
    nz = _core.nonzero(p != 0)[0]
    if nz.shape[0] == 0:
        return _core.zeros((0,), dtype=_core.float64, device=p.device)
    first, last = int(nz[0]), int(nz[-1])
    trailing = p.shape[0] - last - 1
    p = _inexact(p[first:last + 1])
    n = p.shape[0]
    if n > 1:
        top = _core.reshape(-p[1:] / p[0], (1, n - 1))
        below = _core.eye(n - 2, n - 1, dtype=p.dtype, device=p.device)
        r = _eigvals(_core.concat([top, below], axis=0))
    else:
        r = _core.zeros((0,), dtype=_core.float64, device=p.device)
    return _core.concat([r, _core.zeros((trailing,), dtype=r.dtype, device=p.device)])


# NumPy's mintypecode for poly's roots: inexact dtypes keep theirs, all else is float64.
_POLY_DTYPES = {"float32", "float64", "complex64", "complex128"}


def poly(seq_of_zeros):
    """The monic polynomial with the given roots, or the characteristic polynomial of a
    non-empty square matrix (from its eigenvalues). Built as NumPy does, one factor (x - z)
    at a time; complex coefficients become real when the roots are closed under conjugation.
    No roots give the Python float 1.0, as NumPy's."""
    z = _atleast_1d(_arr(seq_of_zeros))
    if z.ndim == 2 and z.shape[0] == z.shape[1] and z.shape[0] != 0:
        z = _eigvals(z if z.dtype.kind in "fc" else _core.astype(z, _core.float64))
    elif z.ndim == 1:
        if z.dtype.name not in _POLY_DTYPES:
            z = _core.astype(z, _core.float64)
    else:
        raise ValueError(f"[poly] input must be 1d or non-empty square 2d array; got shape "
                         f"{tuple(z.shape)}")
    if z.shape[0] == 0:
        return 1.0
    dt = z.dtype
    a = _core.ones((1,), dtype=dt, device=z.device)
    for i in range(z.shape[0]):
        # NumPy's convolve(a, [1, -z]): the end coefficients are single products, so a NaN or
        # infinite root leaves the leading 1 alone (a padding 0 * -z would make it NaN); each
        # coefficient is a dot product summed from +0.0, so a zero one is never -0.0.
        t = a * -z[i]
        a = _core.concat([a[:1], a[1:] + t[:-1], t[-1:]]) + 0.0
    if dt.kind == "c":
        r = _core.astype(z, _core.complex128)
        if bool(_core.all(_core.sort(r) == _core.sort(_core.conj(r)))):
            a = _core.real(a)
    return a


def _vandermonde(x, n):
    """Columns x**(n-1), ..., x, 1 by repeated multiplication, as NumPy's vander, in x's dtype
    promoted with int64 (float32 data gives a float64 matrix)."""
    x = _core.astype(x, _core.promote_types(x.dtype, _core.int64))
    ones = _core.ones((x.shape[0], 1), dtype=x.dtype, device=x.device)
    if n == 1:
        return ones
    powers = _core.cumulative_prod(_core.broadcast_to(x[:, None], (x.shape[0], n - 1)), axis=1)
    return _core.flip(_core.concat([ones, powers], axis=1), axis=1)


def polyfit(x, y, deg, rcond=None, full=False, w=None, cov=False):
    """NumPy's polyfit: least-squares coefficients (highest power first) of degree deg through
    (x, y), y one curve or one per column, optionally weighted by w. The columns of the
    Vandermonde matrix are scaled to unit norm and solved with accel.linalg.lstsq (SVD; singular
    values below rcond * the largest, default len(x) * eps, count as zero). full=True also
    gives (residuals, rank, singular values, rcond); cov=True or 'unscaled' the covariance of
    the coefficients. A rank below deg + 1 warns with NumPy's RankWarning."""
    order = int(deg) + 1
    device = _device_of(x, y, w)
    x, y = _inexact(_arr(x, device)), _inexact(_arr(y, device))
    if deg < 0:
        raise ValueError(f"[polyfit] expected deg >= 0; got {deg}")
    if x.ndim != 1:
        raise TypeError(f"[polyfit] expected 1D vector for x; got shape {tuple(x.shape)}")
    if x.size == 0:
        raise TypeError("[polyfit] expected non-empty vector for x")
    if y.ndim < 1 or y.ndim > 2:
        raise TypeError(f"[polyfit] expected 1D or 2D array for y; got shape {tuple(y.shape)}")
    if x.shape[0] != y.shape[0]:
        raise TypeError(f"[polyfit] expected x and y to have same length; got {x.shape[0]} and "
                        f"{y.shape[0]}")
    if rcond is None:
        rcond = x.shape[0] * float(_finfo(x.dtype).eps)
    lhs, rhs = _vandermonde(x, order), y
    if w is not None:
        w = _inexact(_arr(w, device))
        if w.ndim != 1:
            raise TypeError(f"[polyfit] expected a 1-d array for weights; got shape "
                            f"{tuple(w.shape)}")
        if w.shape[0] != y.shape[0]:
            raise TypeError(f"[polyfit] expected w and y to have the same length; got "
                            f"{w.shape[0]} and {y.shape[0]}")
        # NumPy scales in place: lhs and rhs keep their dtypes.
        lhs = _core.astype(lhs * w[:, None], lhs.dtype)
        rhs = _core.astype(rhs * (w[:, None] if rhs.ndim == 2 else w), rhs.dtype)
    scale = _core.sqrt(_core.sum(lhs * lhs, axis=0))
    lhs = lhs / scale
    c, resids, rank, s = _linalg.lstsq(lhs, rhs, rcond)
    c = c / (scale[:, None] if c.ndim == 2 else scale)
    if rank != order and not full:
        import numpy as _np  # NumPy's warning class, so callers can filter it as NumPy's
        _warnings.warn("Polyfit may be poorly conditioned", _np.exceptions.RankWarning,
                       stacklevel=2)
    if full:
        return c, resids, rank, s, rcond
    if not cov:
        return c
    vbase = _linalg.inv(_core.matmul(_core.matrix_transpose(lhs), lhs))
    vbase = vbase / _core.outer(scale, scale)
    if cov == "unscaled":
        fac = 1
    else:
        if x.shape[0] <= order:
            raise ValueError(f"[polyfit] the number of data points ({x.shape[0]}) must exceed "
                             f"order ({order}) to scale the covariance matrix")
        fac = resids / (x.shape[0] - order)
    if y.ndim == 1:
        return c, vbase * fac
    return c, vbase[:, :, None] * fac
