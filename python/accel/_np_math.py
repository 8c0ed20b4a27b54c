"""NumPy's mathematical functions outside the Array API: the float-decomposition ufuncs (ldexp,
frexp, modf; spacing is an elementwise op of the registry, core/ops.def), integer ones (gcd,
lcm, bitwise_count), predicates (isposinf, isreal, ...), calculus on samples (ediff1d,
trapezoid, gradient, unwrap), convolve/correlate, sinc, i0 and the classic windows. Each is
composed from accel ops, so it runs on every device, and follows NumPy 2's definition, dtypes
included: `np.gcd(a, b)` or `np.gradient(a)` with accel arrays land
here through NumPy's dispatch protocols.

Exactness: ldexp and frexp are exact for every input, subnormals and overflow included,
without bit views: powers of two come from a table gathered by exponent, and a scaling that may
underflow is done so that at most one multiplication rounds (the method of musl's scalbn)."""

import math as _math

import numpy as _np

from . import _core
from ._common import (as_array as _arr, axis_index as _axis_index,
                      empty_in_order as _empty_in_order, iteration_order as _iteration_order,
                      ufunc_output as _ufunc_output)
from ._array_api import finfo as _finfo, iinfo as _iinfo
from ._manipulation import diff as _diff
from ._indexing import copyto as _copyto
from ._numpy_names import _float_of

__all__ = ["gcd", "lcm", "ldexp", "frexp", "modf", "fix", "bitwise_count",
           "isposinf", "isneginf", "isreal", "iscomplex", "real_if_close", "sort_complex",
           "sinc", "i0", "ediff1d", "trapezoid", "gradient", "unwrap", "convolve", "correlate",
           "bartlett", "blackman", "hamming", "hanning", "kaiser"]


def _deliver(result, out, name):
    """result, or result written into the accel array out= (NumPy's same_kind cast)."""
    if out is None:
        return result
    if not isinstance(out, _core.ndarray):
        raise TypeError(f"[{name}] out= must be an accel array, got {type(out).__name__}")
    _copyto(out, result, casting="same_kind")
    return out


def _no_loop(name, *dtypes):
    names = ", ".join(d.name for d in dtypes)
    return _core.DTypeError(f"[{name}] no loop for input dtype(s) {names} (NumPy's ufunc "
                            f"{name} has none)")


def _float_operand(x, name):
    """x in the float dtype NumPy's float-only ufunc loops give it: floats stay, bools and
    integers take the smallest float that holds them (int8 -> float16, int32 -> float64);
    complex has no loop."""
    x = _arr(x)
    if x.dtype.kind == "c":
        raise _no_loop(name, x.dtype)
    return _core._cast_operand(x, _float_of(x.dtype))


# ---- powers of two, exactly -------------------------------------------------------------------

_POW2_TABLES = {}


def _pow2_table(dt, lo, hi, device):
    """[2**lo, ..., 2**hi] in dtype dt on device (each exact there), made once per key."""
    key = (dt.name, lo, hi, str(device))
    if key not in _POW2_TABLES:
        _POW2_TABLES[key] = _core.asarray([_math.ldexp(1.0, k) for k in range(lo, hi + 1)],
                                          dtype=dt, device=device)
    return _POW2_TABLES[key]


def _flat_in_memory_order(fn, x, outer_first=None):
    """fn (a function of a 1-d array, giving one value per element) applied to x's elements in
    the order `outer_first` (axes, outermost first; by default x's own memory order, its axes
    ordered by step: a view of a dense x) and put back in place: the result is laid out in that
    order, as an elementwise ufunc's result is laid out by NumPy's iterator over its operands."""
    order = (sorted(range(x.ndim), key=lambda d: -abs(x.strides[d])) if outer_first is None
             else list(outer_first))
    walk = _core.permute_dims(x, tuple(order))
    flat = fn(_core.reshape(walk, (-1,)))
    return _core.permute_dims(_core.reshape(flat, tuple(walk.shape)),
                              tuple(order.index(d) for d in range(x.ndim)))


def _pow2(dt, n, lo, hi, device, outer_first):
    """2**n for an int64 array n with lo <= n <= hi, gathered from the table (its axes laid
    out in `outer_first` order)."""
    table = _pow2_table(dt, lo, hi, device)
    return _flat_in_memory_order(lambda flat: _core.take(table, flat), n - lo, outer_first)


def _scale_f64(x, n, outer_first=None):
    """x * 2**n for float64 x and int64 n, correctly rounded once (musl's scalbn): at most two
    exact steps of 2**1023 up, or two steps of 2**-969 down, each of which can only round when
    the remaining factor is below 2**-53, so that the result then underflows to zero whatever
    that rounding did; the last factor is a normal power of two. The result is laid out in
    `outer_first` order (by default, as NumPy's iterator lays out a result over x and n)."""
    if outer_first is None:
        outer_first = _iteration_order(_core.broadcast_shapes(x.shape, n.shape), [x, n])
    n = _core.clip(n, -2200, 2200)
    for _ in range(2):
        up = n > 1023
        x = _core.where(up, x * 2.0 ** 1023, x)
        n = _core.where(up, n - 1023, n)
    n = _core.minimum(n, 1023)
    for _ in range(2):
        down = n < -1022
        x = _core.where(down, x * 2.0 ** -969, x)
        n = _core.where(down, n + 969, n)
    n = _core.maximum(n, -1022)
    x, n = _core.broadcast_arrays(x, n)
    return _product_in_order(x, _pow2(_core.float64, n, -1022, 1023, x.device, outer_first),
                             outer_first)


def _product_in_order(a, b, outer_first):
    """a * b written into a new array laid out in `outer_first` order (NumPy's iterator order
    over the ufunc's own operands, which the steps before may have lost)."""
    out = _empty_in_order(_core.broadcast_shapes(a.shape, b.shape), outer_first,
                          _core.result_type(a, b), a.device)
    return _core.multiply(a, b, out=out)


def _scale_pow2(x, n, outer_first):
    """x * 2**n correctly rounded in x's float dtype, for an int64 array n of any size, laid
    out in `outer_first` order. float16 and float32 scale exactly in a wider dtype, whose cast
    back is the one rounding."""
    dt = x.dtype
    if dt == _core.float64:
        return _scale_f64(x, n, outer_first)
    wide, limit = (_core.float32, 60) if dt == _core.float16 else (_core.float64, 400)
    n = _core.clip(n, -limit, limit)
    w, n = _core.broadcast_arrays(_core.astype(x, wide), n)
    return _core.astype(_product_in_order(w, _pow2(wide, n, -limit, limit, x.device, outer_first),
                                          outer_first), dt)


# ---- float decomposition ----------------------------------------------------------------------

def ldexp(x1, x2, /, out=None):
    """x1 * 2**x2, exact (one rounding, into subnormals or to inf where the result lands there).
    NumPy's loops: x1 float (bools and integers as float16/32/64 by size), x2 integer (not
    uint64, which no loop takes); the result has x1's float dtype."""
    x = _float_operand(x1, "ldexp")
    n = _arr(x2)
    if n.dtype.kind not in "biu" or n.dtype == _core.uint64:
        raise _no_loop("ldexp", _arr(x1).dtype, n.dtype)
    # Laid out as NumPy's iterator lays out the ufunc's result over its operands as given.
    outer_first = _iteration_order(_core.broadcast_shapes(x.shape, n.shape), [_arr(x1), n])
    return _deliver(_scale_pow2(x, _core.astype(n, _core.int64), outer_first), out, "ldexp")


def frexp(x, /, *, out=None):
    """(mantissa, exponent) with x == mantissa * 2**exponent and 0.5 <= |mantissa| < 1, the
    exponent int32; zeros, infinities and NaN give (x, 0). Subnormals are exact: the exponent is
    found by search in the table of all float64 powers of two (float16 and float32 values are
    float64 values with the same exponent)."""
    xf = _float_operand(x, "frexp")
    w = _core.positive(xf, dtype=_core.float64)  # cast as a ufunc casts: laid out as x
    regular = _core.logical_and(_core.isfinite(w), w != 0)
    table = _pow2_table(_core.float64, -1074, 1023, w.device)
    mag = _core.where(regular, _core.abs(w), 1.0)
    # The count of powers of two <= |x| is floor(log2|x|) + 1075; frexp's exponent is one more
    # than floor(log2|x|).
    e = _flat_in_memory_order(lambda flat: _core.searchsorted(table, flat, side="right"),
                              mag) - 1074
    e = _core.where(regular, e, 0)
    mantissa = _core.astype(_core.where(regular, _scale_f64(w, -e), w), xf.dtype)
    exponent = _core.astype(e, _core.int32)
    if out is None:
        return mantissa, exponent
    return _deliver(mantissa, out[0], "frexp"), _deliver(exponent, out[1], "frexp")


def modf(x, /, *, out=None):
    """(fractional, integral) parts as C's modf: both carry x's sign; ±inf gives (±0, ±inf)."""
    xf = _float_operand(x, "modf")
    integral = _core.trunc(xf)
    fraction = _core.copysign(_core.where(_core.isinf(xf), 0, xf - integral), xf)
    if out is None:
        return fraction, integral
    return _deliver(fraction, out[0], "modf"), _deliver(integral, out[1], "modf")


def fix(x, out=None):
    """Rounds towards zero (NumPy's fix is trunc): integers and bools keep their dtype."""
    a = _arr(x)
    if a.dtype.kind == "c":
        raise _no_loop("fix", a.dtype)
    return _core.trunc(a, out=out)


# ---- integers ---------------------------------------------------------------------------------

_UNSIGNED = {"int8": _core.uint8, "int16": _core.uint16, "int32": _core.uint32,
             "int64": _core.uint64}


def _weak(x):
    """A Python scalar stays one, so that it promotes weakly (NEP 50) as in NumPy's ufuncs."""
    return x if isinstance(x, (bool, int, float, complex)) else _arr(x)


def _integer_operands(name, x1, x2):
    a, b = _arr(x1), _arr(x2)
    dt = _core.result_type(_weak(x1), _weak(x2))
    if dt.kind not in "iu":  # bool with bool, floats, complex, int64 with uint64 (float64)
        raise _no_loop(name, a.dtype, b.dtype)
    for x in (x1, x2):
        if isinstance(x, int) and not isinstance(x, bool):
            info = _iinfo(dt)
            if not info.min <= x <= info.max:
                raise OverflowError(f"[{name}] Python integer {x} out of bounds for {dt.name}")
    # Cast as the ufuncs cast inside their loops: laid out as their results, not as copies.
    return _core._cast_operand(a, dt), _core._cast_operand(b, dt), dt


def _magnitude(x):
    """|x| in the unsigned dtype of x's width (|-128| of int8 is 128 there)."""
    if x.dtype.kind == "u":
        return x
    return _core._cast_operand(_core.abs(x), _UNSIGNED[x.dtype.name])


def _gcd_unsigned(a, b):
    """Euclid's algorithm on unsigned arrays, until every remainder is zero (at most ~93 rounds
    for 64-bit values, the Fibonacci bound)."""
    if tuple(a.shape) != tuple(b.shape):
        # Broadcast as an elementwise op (new arrays laid out in the order a and b share, as
        # NumPy's ufunc's result) rather than as views: a broadcast view would tell nothing of
        # the order, and the results of the loop below would be C-ordered.
        a, b = _core.where(True, a, b), _core.where(True, b, a)
    while bool(_core.any(b != 0)):
        nonzero = b != 0
        a, b = _core.where(nonzero, b, a), _core.where(nonzero, a % _core.where(nonzero, b, 1), 0)
    return a


def gcd(x1, x2, /, out=None):
    """Greatest common divisor of |x1| and |x2| (integers only; gcd(0, 0) == 0). As NumPy's,
    the magnitude of the most negative value wraps back to itself (gcd(int8(-128), 0) == -128)."""
    a, b, dt = _integer_operands("gcd", x1, x2)
    g = _gcd_unsigned(_magnitude(a), _magnitude(b))
    return _deliver(_in_ufunc_order(g, (x1, x2), dt), out, "gcd")


def lcm(x1, x2, /, out=None):
    """Least common multiple, |x1| // gcd * |x2| wrapping as NumPy's; 0 when either is 0."""
    a, b, dt = _integer_operands("lcm", x1, x2)
    ma, mb = _magnitude(a), _magnitude(b)
    g = _gcd_unsigned(ma, mb)
    zero = g == 0
    r = _core.where(zero, 0, (ma // _core.where(zero, 1, g)) * mb)
    return _deliver(_in_ufunc_order(r, (x1, x2), dt), out, "lcm")


def _in_ufunc_order(value, operands, dtype):
    """value cast to dtype in a new array laid out as NumPy's ufunc lays out its result over
    `operands` as given (gcd's and lcm's loops make their own broadcast arrays)."""
    out = _ufunc_output([_arr(x) for x in operands], dtype)
    out[...] = value
    return out


def bitwise_count(x, /, out=None):
    """The number of 1 bits in |x| (uint8), bools and integers only."""
    a = _arr(x)
    if a.dtype.kind not in "biu":
        raise _no_loop("bitwise_count", a.dtype)
    if a.dtype.kind == "b":
        return _deliver(_core._cast_operand(a, _core.uint8), out, "bitwise_count")
    v = _core._cast_operand(_magnitude(a), _core.uint64)  # a ufunc operand: its layout
    # Counting in parallel within the word: pairs, nibbles, bytes, then a sum of the bytes.
    v = v - ((v >> 1) & 0x5555555555555555)
    v = (v & 0x3333333333333333) + ((v >> 2) & 0x3333333333333333)
    v = (v + (v >> 4)) & 0x0F0F0F0F0F0F0F0F
    count = (v * 0x0101010101010101) >> 56
    return _deliver(_core.astype(count, _core.uint8), out, "bitwise_count")


# ---- predicates -------------------------------------------------------------------------------

def _signed_infinity(x, name):
    a = _arr(x)
    if a.dtype.kind == "c":
        raise TypeError(f"[{name}] not supported for complex values ({a.dtype.name}): the sign "
                        "of a complex infinity is ambiguous")
    return _core.isinf(a), _core.signbit(a)


def isposinf(x, out=None):
    """True where x is +inf (complex refused, as NumPy's)."""
    inf, negative = _signed_infinity(x, "isposinf")
    return _core.logical_and(inf, _core.logical_not(negative), out=out)


def isneginf(x, out=None):
    """True where x is -inf (complex refused, as NumPy's)."""
    inf, negative = _signed_infinity(x, "isneginf")
    return _core.logical_and(inf, negative, out=out)


def isreal(x):
    """True where the imaginary part is zero (everywhere for real dtypes). The part is the
    attribute's, as NumPy's: a real array's zeros are laid out in order A, not as x."""
    return _arr(x).imag == 0


def iscomplex(x):
    """True where the imaginary part is nonzero (nowhere for real dtypes)."""
    a = _arr(x)
    if a.dtype.kind == "c":
        return _core.imag(a) != 0
    return _core.zeros(tuple(a.shape), dtype=_core.bool, device=a.device)


def real_if_close(a, tol=100):
    """The real part (a view) when every imaginary part is below tol (in machine epsilons of
    a's dtype when tol > 1), else a itself."""
    x = _arr(a)
    if x.dtype.kind != "c":
        return x
    if tol > 1:
        tol = _finfo(x.dtype).eps * tol
    if bool(_core.all(_core.abs(x.imag) < tol)):
        return x.real  # a view, as NumPy's a.real (the function real gives a new array)
    return x


def sort_complex(a):
    """Sorted along the last axis, as complex: complex64 for 8- and 16-bit integers, complex128
    for every other real dtype (bool and float32 included)."""
    x = _core.sort(_arr(a))
    if x.dtype.kind == "c":
        return x
    small = x.dtype in (_core.int8, _core.uint8, _core.int16, _core.uint16)
    return _core.astype(x, _core.complex64 if small else _core.complex128)


# ---- special functions ------------------------------------------------------------------------

def sinc(x):
    """sin(pi x) / (pi x), 1 at 0 (NumPy's formula: pi x replaced by eps where it is 0). Integers
    give float64, floats keep their dtype; complex is supported."""
    a = _arr(x)
    px = _math.pi * a
    eps = _finfo(px.dtype).eps if px.dtype.kind == "f" else 1e-20
    y = _core.where(px != 0, px, eps)
    return _core.sin(y) / y


# Cephes' Chebyshev coefficients for exp(-x) I0(x): _I0_A on [0, 8], _I0_B on (8, inf)
# (the series NumPy's i0 evaluates).
_I0_A = (-4.4153416464793395e-18, 3.3307945188222384e-17, -2.431279846547955e-16,
         1.715391285555133e-15, -1.1685332877993451e-14, 7.676185498604936e-14,
         -4.856446783111929e-13, 2.95505266312964e-12, -1.726826291441556e-11,
         9.675809035373237e-11, -5.189795601635263e-10, 2.6598237246823866e-09,
         -1.300025009986248e-08, 6.046995022541919e-08, -2.670793853940612e-07,
         1.1173875391201037e-06, -4.4167383584587505e-06, 1.6448448070728896e-05,
         -5.754195010082104e-05, 0.00018850288509584165, -0.0005763755745385824,
         0.0016394756169413357, -0.004324309995050576, 0.010546460394594998,
         -0.02373741480589947, 0.04930528423967071, -0.09490109704804764, 0.17162090152220877,
         -0.3046826723431984, 0.6767952744094761)
_I0_B = (-7.233180487874754e-18, -4.830504485944182e-18, 4.46562142029676e-17,
         3.461222867697461e-17, -2.8276239805165836e-16, -3.425485619677219e-16,
         1.7725601330565263e-15, 3.8116806693526224e-15, -9.554846698828307e-15,
         -4.150569347287222e-14, 1.54008621752141e-14, 3.8527783827421426e-13,
         7.180124451383666e-13, -1.7941785315068062e-12, -1.3215811840447713e-11,
         -3.1499165279632416e-11, 1.1889147107846439e-11, 4.94060238822497e-10,
         3.3962320257083865e-09, 2.266668990498178e-08, 2.0489185894690638e-07,
         2.8913705208347567e-06, 6.889758346916825e-05, 0.0033691164782556943,
         0.8044904110141088)


def _chebyshev(x, coefficients):
    b0, b1, b2 = coefficients[0], 0.0, 0.0
    for c in coefficients[1:]:
        b2, b1 = b1, b0
        b0 = x * b1 - b2 + c
    return 0.5 * (b0 - b2)


def i0(x):
    """The modified Bessel function of the first kind, order 0 (NumPy's Cephes series). Bools and
    integers give float64, floats keep their dtype; complex raises TypeError as NumPy's."""
    a = _arr(x)
    if a.dtype.kind == "c":
        raise TypeError(f"[i0] not supported for complex values ({a.dtype.name})")
    if a.dtype.kind != "f":
        a = _core.astype(a, _core.float64)
    a = _core.abs(a)
    near = _core.exp(a) * _chebyshev(a / 2.0 - 2, _I0_A)
    far = _core.exp(a) * _chebyshev(32.0 / a - 2.0, _I0_B) / _core.sqrt(a)
    return _core.where(a <= 8.0, near, far)


# ---- differences, integrals, derivatives ------------------------------------------------------

def _same_kind(src, dst):
    return _core.can_cast(src, dst, casting="same_kind")


def ediff1d(ary, to_end=None, to_begin=None):
    """Differences of consecutive elements of the flattened array, in its dtype, with to_begin
    and to_end (cast to that dtype; the cast must be same_kind) put around them."""
    a = _core.reshape(_arr(ary), (-1,))
    if a.dtype == _core.bool:
        raise TypeError("[ediff1d] boolean subtract is not supported (as NumPy's)")

    def edge(name, extra):
        if extra is None:
            return []
        e = _arr(extra)
        if not _same_kind(e.dtype, a.dtype):
            raise TypeError(f"[ediff1d] dtype of {name} ({e.dtype.name}) must be compatible "
                            f"with the input's ({a.dtype.name}) under the same_kind rule")
        return [_core.astype(_core.to_device(_core.reshape(e, (-1,)), a.device), a.dtype)]

    begin, end = edge("to_begin", to_begin), edge("to_end", to_end)
    diff = a[1:] - a[:-1]
    return _core.concat(begin + [diff] + end) if begin or end else diff


def _along(ndim, axis, s):
    index = [slice(None)] * ndim
    index[axis] = s
    return tuple(index)


def _normalize_axes(axis, ndim, name):
    """axis (None: all, an int, or a tuple) as a tuple of axes in [0, ndim); AxisError (an
    IndexError and a ValueError, as NumPy's) when out of bounds."""
    axes = tuple(range(ndim)) if axis is None else \
        (axis,) if isinstance(axis, (int, _np.integer)) else tuple(axis)
    out = [_axis_index(a, ndim, name) for a in axes]
    if len(set(out)) != len(out):
        raise ValueError(f"[{name}] repeated axis in {axis}")
    return tuple(out)


def trapezoid(y, x=None, dx=1.0, axis=-1):
    """The trapezoidal rule along axis, with sample points x (1-D along axis, or y's shape) or
    the uniform spacing dx."""
    y = _arr(y)
    axis = _normalize_axes(axis, y.ndim, "trapezoid")[0]
    if x is None:
        d = dx
    else:
        x = _arr(x)
        if x.ndim == 1:
            d = _diff(x)
            shape = [1] * y.ndim
            shape[axis] = d.shape[0]
            d = _core.reshape(d, tuple(shape))
        else:
            d = _diff(x, axis=axis)
    nd = y.ndim
    ends = y[_along(nd, axis, slice(1, None))] + y[_along(nd, axis, slice(None, -1))]
    return _core.sum(d * ends / 2.0, axis=axis)


def _spacings(f, axes, varargs):
    """gradient's spacing per axis: a Python or 0-d scalar, or the differences of a 1-D
    coordinate array (a scalar again when they are all equal)."""
    if not varargs:
        return [1.0] * len(axes)
    if len(varargs) == 1 and _np.ndim(varargs[0]) == 0:
        return list(varargs) * len(axes)
    if len(varargs) != len(axes):
        raise TypeError(f"[gradient] {len(varargs)} spacings given for {len(axes)} axes")
    dx = []
    for ax, distances in zip(axes, varargs):
        d = _arr(distances)
        if d.ndim == 0:
            dx.append(distances)
            continue
        if d.ndim != 1:
            raise ValueError(f"[gradient] distances must be either scalars or 1d; got "
                             f"{d.ndim} dimensions")
        if d.shape[0] != f.shape[ax]:
            raise ValueError(f"[gradient] when 1d, distances must match the length of the "
                             f"corresponding dimension: {d.shape[0]} != {f.shape[ax]}")
        if d.dtype.kind in "iu":
            d = _core.astype(d, _core.float64)  # no modular arithmetic in the differences
        diffx = _core.to_device(_diff(d), f.device)
        if diffx.shape[0] and bool(_core.all(diffx == diffx[0])):
            diffx = diffx[0]
        dx.append(diffx)
    return dx


def _uniform(dx):
    return not isinstance(dx, _core.ndarray) or dx.ndim == 0


def gradient(f, *varargs, axis=None, edge_order=1):
    """NumPy's gradient: second-order central differences inside, one-sided differences of order
    edge_order (1 or 2) at the ends; spacings as a scalar, one per axis, or coordinate arrays.
    Integers are differentiated as float64 (bools are refused: NumPy does not subtract them).
    A tuple when there are several axes."""
    f = _arr(f)
    nd = f.ndim
    axes = _normalize_axes(axis, nd, "gradient")
    dx = _spacings(f, axes, varargs)
    if edge_order > 2:
        raise ValueError(f"[gradient] 'edge_order' greater than 2 not supported; got {edge_order}")
    if f.dtype.kind in "fc":
        otype = f.dtype
    else:
        if f.dtype.kind in "iu":
            f = _core.astype(f, _core.float64)
        otype = _core.float64
    outvals = []
    for ax, h in zip(axes, dx):
        n = f.shape[ax]
        if n < edge_order + 1:
            raise ValueError("[gradient] shape of array too small to calculate a numerical "
                             f"gradient, at least (edge_order + 1) elements are required; axis "
                             f"{ax} has {n}")

        def span(i, j):
            return f[_along(nd, ax, slice(i, j))]

        def at(i):  # one index, the axis kept
            return span(i, i + 1 or None)

        def shaped(v):
            shape = [1] * nd
            shape[ax] = -1
            return _core.reshape(v, tuple(shape))

        if _uniform(h):
            inner = (span(2, None) - span(0, -2)) / (2. * h)
        else:
            dx1, dx2 = h[0:-1], h[1:]
            a = shaped(-(dx2) / (dx1 * (dx1 + dx2)))
            b = shaped((dx2 - dx1) / (dx1 * dx2))
            c = shaped(dx1 / (dx2 * (dx1 + dx2)))
            inner = a * span(0, -2) + b * span(1, -1) + c * span(2, None)
        if edge_order == 1:
            dx_0 = h if _uniform(h) else h[0]
            dx_n = h if _uniform(h) else h[-1]
            first = (at(1) - at(0)) / dx_0
            last = (at(-1) - at(-2)) / dx_n
        else:
            if _uniform(h):
                a, b, c = -1.5 / h, 2. / h, -0.5 / h
            else:
                dx1, dx2 = h[0], h[1]
                a = -(2. * dx1 + dx2) / (dx1 * (dx1 + dx2))
                b = (dx1 + dx2) / (dx1 * dx2)
                c = - dx1 / (dx2 * (dx1 + dx2))
            first = a * at(0) + b * at(1) + c * at(2)
            if _uniform(h):
                a, b, c = 0.5 / h, -2. / h, 1.5 / h
            else:
                dx1, dx2 = h[-2], h[-1]
                a = (dx2) / (dx1 * (dx1 + dx2))
                b = - (dx2 + dx1) / (dx1 * dx2)
                c = (2. * dx2 + dx1) / (dx2 * (dx1 + dx2))
            last = a * at(-3) + b * at(-2) + c * at(-1)
        # Written into an empty_like(f), as NumPy's, so the result is laid out as f is.
        out = _core.empty_like(f, dtype=otype)
        out[_along(nd, ax, slice(0, 1))] = first
        out[_along(nd, ax, slice(-1, None))] = last
        if n > 2:
            out[_along(nd, ax, slice(1, -1))] = inner
        outvals.append(out)
    return outvals[0] if len(axes) == 1 else tuple(outvals)


def unwrap(p, discont=None, axis=-1, *, period=2 * _math.pi):
    """Unwraps by replacing jumps larger than discont (default period / 2) along axis with their
    period-complement. Integer p with an integer period stays integer, as NumPy's."""
    p = _arr(p)
    nd = p.ndim
    dd = _diff(p, axis=axis)
    if discont is None:
        discont = period / 2
    after_first = _along(nd, axis, slice(1, None))
    dtype = _core.result_type(dd, period)
    if dtype.kind in "iu":
        interval_high, rem = divmod(period, 2)
        boundary_ambiguous = rem == 0
    else:
        interval_high = period / 2
        boundary_ambiguous = True
    interval_low = -interval_high
    ddmod = _core.remainder(dd - interval_low, period) + interval_low
    if boundary_ambiguous:
        # A jump of exactly period / 2 keeps its sign (the remainder made it -period / 2).
        ddmod = _core.where(_core.logical_and(ddmod == interval_low, dd > 0),
                            interval_high, ddmod)
    ph_correct = _core.where(_core.abs(dd) < discont, 0, ddmod - dd)
    # A copy of p in dtype (laid out as p, as NumPy's) with the corrected values written in.
    up = _core.astype(p, dtype, copy=True)
    up[after_first] = p[after_first] + _core.cumsum(ph_correct, axis=axis)
    return up


# ---- convolution ------------------------------------------------------------------------------

_MODES = {"valid": 0, "same": 1, "full": 2}


def _mode(mode, name):
    """NumPy 2's modes: the exact names, or their numbers 0, 1, 2."""
    if isinstance(mode, str):
        if mode not in _MODES:
            raise ValueError(f"[{name}] mode must be one of 'valid', 'same', or 'full' "
                             f"(got {mode!r})")
        return _MODES[mode]
    if isinstance(mode, (int, _np.integer)) and not isinstance(mode, bool):
        if int(mode) not in (0, 1, 2):
            raise ValueError(f"[{name}] mode must be 0, 1 or 2 when a number (got {mode!r})")
        return int(mode)
    raise TypeError(f"[{name}] mode not understood: {mode!r}")


def _vector(x, name):
    v = _arr(x)
    if v.ndim > 1:
        raise ValueError(f"[{name}] object too deep for desired array: expected 1-D, got "
                         f"{v.ndim} dimensions")
    return _core.reshape(v, (-1,))


# At most this many window elements are formed at once by _sliding_dot: a long signal with a
# long kernel is done in blocks of lags (each lag's sum is its own row: blocking changes no
# order within it), so its memory stays bounded (1e5 x 1e3 float64 was 800 MB per temporary).
_SLIDING_ELEMENTS = 1 << 22
# Up to this many window elements in all, every lag is gathered in one block (the fewest ops).
_SLIDING_SMALL = 4096


def _sliding_dot(a, v, mode):
    """NumPy's correlate loop: out[i] = sum_j a[i - left + j] * v[j] over the j where a has an
    element, for len(v) <= len(a). Direct, not by FFT, as NumPy's. The lags where v lies wholly
    inside a are one matrix-vector product of a's windows (a view) with v; the lags at the ends
    gather their windows from a padded copy, and the places past a's ends add an exact 0, not
    0 * v[j] (NumPy does not form those products, so an inf or NaN in v reaches only the lags
    where it meets a). Both in blocks of at most _SLIDING_ELEMENTS window elements."""
    n, m = a.shape[0], v.shape[0]
    left, length = {0: (0, n - m + 1), 1: (m // 2, n), 2: (m - 1, n + m - 1)}[mode]
    inner = left + n - m + 1  # lags [left, inner): v wholly inside a
    lags = max(1, _SLIDING_ELEMENTS // m)
    small = length * m <= _SLIDING_SMALL  # fewer ops than the product's: every lag gathered
    padded = None
    if small or left > 0 or inner < length:
        zeros = _core.zeros
        padded = _core.concat([zeros((left,), dtype=a.dtype, device=a.device), a,
                               zeros((m,), dtype=a.dtype, device=a.device)])
    if small:
        parts = _edge_lags(padded, n, v, left, 0, length, lags)
        return parts[0] if len(parts) == 1 else _core.concat(parts)
    parts = []
    if left > 0:
        parts += _edge_lags(padded, n, v, left, 0, left, lags)
    windows = _core.sliding_window_view(a, m)
    for first in range(0, inner - left, lags):
        parts.append(_core.matmul(windows[first:first + lags], v))
    if inner < length:
        parts += _edge_lags(padded, n, v, left, inner, length, lags)
    return parts[0] if len(parts) == 1 else _core.concat(parts)


def _edge_lags(padded, n, v, left, begin, end, lags):
    """_sliding_dot's lags [begin, end) where v sticks out past a's ends: each lag's window
    gathered from `padded` (left zeros, a's n elements, m zeros), the products summed where v
    meets a."""
    m, dt, device = v.shape[0], padded.dtype, padded.device
    offset = _core.reshape(_core.arange(m, dtype=_core.int64, device=device), (1, -1))
    row = _core.reshape(v, (1, -1))
    zero = _core.zeros((), dtype=dt, device=device)
    parts = []
    for first in range(begin, end, lags):
        start = _core.arange(first, min(end, first + lags), dtype=_core.int64, device=device)
        at = _core.reshape(start, (-1, 1)) + offset
        inside = (at >= left) & (at < left + n)
        products = _core.where(inside, padded[at] * row, zero)
        parts.append(_core.sum(products, axis=1, dtype=dt))
    return parts


def _operands(a, v, name):
    x, y = _vector(a, name), _vector(v, name)
    dt = _core.result_type(x, y)
    return _core.astype(x, dt, copy=False), _core.astype(_core.to_device(y, x.device), dt,
                                                         copy=False)


def convolve(a, v, mode="full"):
    """The discrete linear convolution of two 1-D sequences (the longer one slides), in their
    promoted dtype; mode 'full', 'same' (the longer one's length) or 'valid'."""
    m = _mode(mode, "convolve")
    x, y = _operands(a, v, "convolve")
    if y.shape[0] > x.shape[0]:
        x, y = y, x
    if x.shape[0] == 0:
        raise ValueError("[convolve] a cannot be empty")
    if y.shape[0] == 0:
        raise ValueError("[convolve] v cannot be empty")
    return _sliding_dot(x, _core.flip(y), m)


def correlate(a, v, mode="valid"):
    """NumPy's cross-correlation: out[k] = sum_n a[n + k] * conj(v[n]), over the lags of mode
    'valid' (default), 'same' or 'full'; when v is the longer, NumPy's swap and reversal."""
    m = _mode(mode, "correlate")
    x, y = _operands(a, v, "correlate")
    if x.shape[0] == 0:
        raise ValueError("[correlate] first array argument cannot be empty")
    if y.shape[0] == 0:
        raise ValueError("[correlate] second array argument cannot be empty")
    if y.dtype.kind == "c":
        y = _core.conj(y)
    if y.shape[0] > x.shape[0]:
        # NumPy reverses its new result in place: a C-ordered array, not a reversed view.
        return _core.asarray(_core.flip(_sliding_dot(y, x, m)), copy=True, order="C")
    return _sliding_dot(x, y, m)


# ---- windows ----------------------------------------------------------------------------------

def _window_length(M, name):
    if isinstance(M, _core.ndarray):
        M = M.item()
    if isinstance(M, complex) or not isinstance(M, (int, float, _np.integer, _np.floating)):
        raise TypeError(f"[{name}] M must be a real number, got {M!r}")
    return float(M)


def _degenerate_window(M, device):
    """The whole window when M < 2 (empty below 1, [1.] at 1), else None."""
    if M < 1:
        return _core.zeros((0,), dtype=_core.float64, device=device)
    if M == 1:
        return _core.ones((1,), dtype=_core.float64, device=device)
    return None


def _symmetric_points(M, device):
    return _core.arange(1 - M, M, 2, dtype=_core.float64, device=device)


def _cosine_window(M, device, terms, name):
    """sum_k c_k cos(k pi n / (M - 1)) over n = 1 - M, 3 - M, ..., M - 1 (NumPy's cosine
    windows, term for term)."""
    M = _window_length(M, name)
    short = _degenerate_window(M, device)
    if short is not None:
        return short
    n = _symmetric_points(M, device)
    w = terms[0]
    for k, c in enumerate(terms[1:], start=1):
        w = w + c * _core.cos(k * _math.pi * n / (M - 1))
    return w


def bartlett(M, *, device=None):
    """The triangular window of M points (float64; empty for M < 1, [1.] for M == 1)."""
    M = _window_length(M, "bartlett")
    short = _degenerate_window(M, device)
    if short is not None:
        return short
    n = _symmetric_points(M, device)
    return _core.where(n <= 0, 1 + n / (M - 1), 1 - n / (M - 1))


def blackman(M, *, device=None):
    """The Blackman window, 0.42 + 0.5 cos(pi n/(M-1)) + 0.08 cos(2 pi n/(M-1)) (float64)."""
    return _cosine_window(M, device, (0.42, 0.5, 0.08), "blackman")


def hamming(M, *, device=None):
    """The Hamming window, 0.54 + 0.46 cos(pi n/(M-1)) (float64)."""
    return _cosine_window(M, device, (0.54, 0.46), "hamming")


def hanning(M, *, device=None):
    """The Hann window, 0.5 + 0.5 cos(pi n/(M-1)) (float64)."""
    return _cosine_window(M, device, (0.5, 0.5), "hanning")


def kaiser(M, beta, *, device=None):
    """The Kaiser window, i0(beta sqrt(1 - ((n - alpha)/alpha)**2)) / i0(beta) with
    alpha = (M - 1)/2 (float64; empty for M < 1, [1.] for M == 1)."""
    M = _window_length(M, "kaiser")
    beta = _window_length(beta, "kaiser")
    short = _degenerate_window(M, device)
    if short is not None:
        return short
    n = _core.arange(0, M, dtype=_core.float64, device=device)
    alpha = (M - 1) / 2.0
    b = _core.asarray(beta, dtype=_core.float64, device=device)
    return i0(beta * _core.sqrt(1 - ((n - alpha) / alpha) ** 2.0)) / i0(b)
