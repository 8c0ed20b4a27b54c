"""NumPy's names for accel's elementwise functions, so `import accel as np` runs everyday NumPy
code. Most are the same function under NumPy's older name; the few with a NumPy-only twist
(fabs, float_power, divmod, round with decimals) are composed from accel ops here."""

from . import _core
from ._common import ufunc_output as _ufunc_output

__all__ = [
    "arccos", "arcsin", "arctan", "arctan2", "arccosh", "arcsinh", "arctanh", "power",
    "absolute", "invert", "bitwise_not", "left_shift", "right_shift", "conjugate", "true_divide",
    "mod", "degrees", "radians", "rint", "fabs", "float_power", "divmod", "round",
    "around",
]

arccos = _core.acos
arcsin = _core.asin
arctan = _core.atan
arctan2 = _core.atan2
arccosh = _core.acosh
arcsinh = _core.asinh
arctanh = _core.atanh
power = _core.pow
absolute = _core.abs
invert = _core.bitwise_invert
bitwise_not = _core.bitwise_invert
left_shift = _core.bitwise_left_shift
right_shift = _core.bitwise_right_shift
conjugate = _core.conj
true_divide = _core.divide
mod = _core.remainder
degrees = _core.rad2deg
radians = _core.deg2rad


def _operand_dtype(x):
    return x.dtype if isinstance(x, _core.ndarray) else _core.asarray(x).dtype


def _float_of(dt):
    # promote_types(int, float16) is the float dtype NumPy's float math gives that int; a float
    # dtype stays itself (bfloat16 with float16 would be float32).
    return dt if dt.kind in "fc" else _core.promote_types(dt, _core.float16)


def fabs(x, /, out=None):
    """Absolute value computed in floating point (ints become floats, complex is refused)."""
    dt = _operand_dtype(x)
    if dt.kind == "c":
        raise _core.DTypeError(f"[fabs] not supported for dtype {dt.name}; use abs")
    return _core.abs(x, out=out, dtype=_float_of(dt))


def rint(x, /, out=None):
    """Round half to even in floating point: unlike round, integers come back as floats."""
    dt = _operand_dtype(x)
    return _core.round(x, out=out, dtype=dt if dt.kind in "fc" else _float_of(dt))


def float_power(x1, x2, /, out=None):
    """x1 ** x2 computed in at least float64 (complex128 for complex inputs). NumPy's
    float_power loop calls pow for every element, where its power loop takes a scalar exponent
    of 0.5 as sqrt ((-inf) ** 0.5 is inf here, nan in np.power): the operands go to pow
    broadcast to one shape, of at least one axis, which pow computes element by element."""
    x1, x2 = (x if isinstance(x, (_core.ndarray, bool, int, float, complex)) else _core.asarray(x)
              for x in (x1, x2))  # NumPy scalars and sequences: arrays of their own dtype
    dt = _core.promote_types(_core.result_type(x1, x2), _core.float64)
    # Cast before broadcasting (as a ufunc's operands, inside its loop): a broadcast exponent
    # cast after would be a dense array, whose C order would outvote x1's layout.
    a, b = _core.broadcast_arrays(*(_core._cast_operand(x, dt) if isinstance(x, _core.ndarray)
                                    else _core.asarray(x, dtype=dt) for x in (x1, x2)))
    if a.ndim == 0:
        r = _core.reshape(_core.pow(_core.reshape(a, (1,)), _core.reshape(b, (1,))), ())
        if out is None:
            return r
        out[...] = r
        return out
    return _core.pow(a, b, out=_ufunc_output((x1, x2), dt) if out is None else out)


def divmod(x1, x2, /):  # noqa: A001 - NumPy's name
    """(floor_divide(x1, x2), remainder(x1, x2)), as NumPy's divmod, with accel's floor_divide:
    the Array API standard's special cases (-1.0 // inf is -0.0, inf // 5 is inf, where NumPy
    gives -1.0 and nan)."""
    return _core.floor_divide(x1, x2), _core.remainder(x1, x2)


def round(a, decimals=0, out=None):  # noqa: A001 - NumPy's and the Array API's name
    """Rounds half to even, to `decimals` decimal places (negative: to tens, hundreds...).
    NumPy's parameter names (the Array API's x is positional-only)."""
    x = a
    if decimals == 0:
        if out is None and isinstance(x, _core.ndarray) and x.dtype.kind in "iuc":
            # NumPy rounds a copy (order K) of an integer or complex array, laid out as x, where
            # a ufunc's result (rint's) keeps C order on broadcast axes (fuzz seed 1052656).
            return _core.astype(x, x.dtype) if x.dtype.kind in "iu" else \
                _core.round(x, out=_core.empty_like(x))
        return _core.round(x, out=out)
    x = x if isinstance(x, _core.ndarray) else _core.asarray(x)
    dt = x.dtype
    if dt.kind == "b":
        raise _core.DTypeError("[round] decimals is not supported for bool arrays")
    if dt.kind in "iu" and decimals > 0:
        return _core.astype(x, dt) if out is None else _core.positive(x, out=out)
    if out is None:
        out = _round_target(x)
    if dt.kind in "iu":
        # NumPy's method for integers too: through float64 and cast back (exact below 2**53;
        # past it NumPy's answer is the float64 one, fuzz seed 1120240).
        f = 10.0 ** -decimals
        out[...] = _core.multiply(_core.round(_core.astype(x, _core.float64) / f), f)
        return out
    if dt.kind == "c":
        # NumPy rounds the parts as floats, each into its part of the result (a complex
        # division by 10**d would round differently, and re + 1j * im lose -0.0's sign).
        round(x.real, decimals, out.real)
        round(x.imag, decimals, out.imag)
        return out
    # NumPy's method: scale, round half to even, scale back.
    if decimals > 0:
        scale = 10.0 ** decimals
        return _core.divide(_core.round(x * scale), scale, out=out)
    scale = 10.0 ** -decimals
    return _core.multiply(_core.round(x / scale), scale, out=out)


around = round


def _round_target(x):
    """The new array NumPy rounds x into when decimals is not 0 (its PyArray_Round): a copy of a
    complex x laid out as x (order K); for the others, Fortran-ordered where x is Fortran- and not
    C-contiguous, C-ordered otherwise (order A), so a transposed or sliced input does not keep its
    axis order as a ufunc's result would."""
    return _core.empty_like(x, order="K" if x.dtype.kind == "c" else "A")
