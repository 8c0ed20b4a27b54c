"""Error comparisons with NumPy for the tests of NumPy's functions (test_np_*.py): accel raises
where NumPy raises, with the same builtin class (accel's AxisError is a ValueError and an
IndexError, as NumPy's, but not NumPy's class)."""

import pytest


def both_raise(exc, accel_call, numpy_call):
    """accel and NumPy raise exc (or a pair: accel's class and NumPy's); accel's error is
    returned for a look at its message."""
    accel_exc, numpy_exc = exc if isinstance(exc, tuple) else (exc, exc)
    with pytest.raises(numpy_exc):
        numpy_call()
    with pytest.raises(accel_exc) as accel_err:
        accel_call()
    return accel_err.value


def matches(run_accel, run_numpy, check):
    """run_accel() gives what run_numpy() gives (as `check(got, want)` judges), or raises the
    builtin class of NumPy's error."""
    try:
        want = run_numpy()
    except (TypeError, ValueError, IndexError) as e:
        builtin = next(c for c in type(e).__mro__ if c.__module__ == "builtins")
        with pytest.raises(builtin):
            run_accel()
        return
    check(run_accel(), want)
