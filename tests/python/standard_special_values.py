"""NumPy's answers with the Array API standard's special values where accel follows the standard
instead of NumPy (issue 12; docs/ARCHITECTURE.md, "Where accel departs from NumPy"). Written from
the standard's special-case lists, once: the elementwise tests and the differential fuzzer's NumPy
oracle (tests/fuzz/program.py) both take their expected values from here.

- floor_divide of floats where exactly one operand is infinite: floor(x1 / x2), which x1 / x2
  already is (inf // 2 is inf, -2 // inf is -0; NumPy: NaN and -1.0, Python's divmod pairing).
- complex expm1: on the real axis (imaginary part ±0) the real expm1 with the imaginary zero kept
  (+0 at ±0 + 0j, NaN + 0j at NaN); at real part -inf exactly -1 with a zero imaginary part
  (its sign from sin(y) for finite y); at +inf with an infinite or NaN imaginary part inf + NaN j.
- complex tanh at real part ±inf: ±1 + 0j, the zero with the imaginary part's sign (NumPy: the
  sign of sin(2y)).
Every other value is NumPy's.
"""

import numpy as np


def floor_divide(x1, x2, out=None, **kwargs):
    with np.errstate(all="ignore"):
        # The operands in the dtype NumPy computes in (a Python 2**40 beside float16 is inf),
        # read before NumPy writes: out may be x1 itself (x1 //= x2).
        dt = np.result_type(x1, x2)
        a, b = np.array(x1).astype(dt), np.array(x2).astype(dt)
        quotient = np.divide(a, b) if dt.kind == "f" else None
        want = np.floor_divide(x1, x2, out=out, **kwargs)
        # Decided by the dtype computed in, not the result's: a complex out= (float16 // into
        # complex64) still takes the standard's values (fuzz seed 606166).
        if quotient is None:
            return want
        one_infinite = np.isinf(a) != np.isinf(b)
        if out is not None:
            # Only where the ufunc wrote (where=): out keeps its own values elsewhere.
            wrote = one_infinite & np.asarray(kwargs.get("where", True))
            np.copyto(out, quotient, where=np.broadcast_to(wrote, out.shape), casting="unsafe")
            return out
        return np.where(one_infinite, quotient, want).astype(want.dtype)[()]


def expm1(x, out=None, **kwargs):
    with np.errstate(all="ignore"):
        want = np.expm1(x, **kwargs)
        if want.dtype.kind == "c":
            x = np.asarray(x)
            re, im = x.real, x.imag
            r, i = np.array(want.real), np.array(want.imag)
            on_axis = im == 0
            r = np.where(on_axis, np.where(re == 0, 0.0, np.expm1(re)), r)
            i = np.where(on_axis, im, i)
            minus_inf = np.isneginf(re) & ~on_axis
            r = np.where(minus_inf, -1.0, r)
            i = np.where(minus_inf, np.where(np.isfinite(im), 0.0 * np.sin(im),
                                             np.copysign(0.0, im)), i)
            plus_inf = np.isposinf(re) & ~np.isfinite(im)
            r = np.where(plus_inf, np.inf, r)
            i = np.where(plus_inf, np.nan, i)
            want = _complex(r, i, want)
    return _into(want, out)


def tanh(x, out=None, **kwargs):
    with np.errstate(all="ignore"):
        want = np.tanh(x, **kwargs)
        if want.dtype.kind == "c":
            x = np.asarray(x)
            re, im = x.real, x.imag
            inf = np.isinf(re)
            want = _complex(np.where(inf, np.copysign(1.0, re), want.real),
                            np.where(inf, np.copysign(0.0, im), want.imag), want)
    return _into(want, out)


# The ops above by name, for tests that look an op up by its registry name.
BY_NAME = {"floor_divide": floor_divide, "expm1": expm1, "tanh": tanh}


def _complex(re, im, like):
    """re + im j without the NaN that 1j * inf makes, laid out as NumPy's own result `like`."""
    z = np.empty_like(like)
    z.real, z.imag = re, im
    return z[()]


def _into(value, out):
    if out is None:
        return value
    np.copyto(out, value, casting="same_kind")
    return out
