"""interp against NumPy: random sample points (with infinities in xp and fp), x below, above,
on and between them, NaN and infinite x, left/right, period, complex fp, one sample point, and
NumPy's errors. Values must be NumPy's to the last bit (the same formula, float64)."""

import numpy as np
import pytest

import accel as ac



def _same(want, got):
    got = ac.asnumpy(got)
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_array_equal(got.real, want.real)
    np.testing.assert_array_equal(np.imag(got), np.imag(want))


def test_matches_numpy(device):
    rng = np.random.default_rng(0)
    for _ in range(200):
        n = int(rng.integers(1, 8))
        xp = np.sort(rng.integers(-5, 5, n).astype(float) + (rng.random(n) if rng.random() < 0.5 else 0))
        fp = rng.normal(size=n) * 3
        if rng.random() < 0.2:
            fp[rng.integers(n)] = np.inf
        if rng.random() < 0.1:
            xp[-1] = np.inf
        x = np.concatenate([rng.uniform(-7, 7, 10), xp, [np.nan, -np.inf, np.inf]])
        kw = {}
        if rng.random() < 0.3:
            kw["left"] = -100.0
        if rng.random() < 0.3:
            kw["right"] = 100.0
        if rng.random() < 0.15 and len(np.unique(xp % 3)) == n and np.all(np.isfinite(xp)):
            kw = {"period": 3.0}  # (NumPy's quicksort orders equal xp % period as it likes)
        if rng.random() < 0.15:
            fp = fp + 1j * rng.normal(size=n)
        with np.errstate(all="ignore"):
            want = np.interp(x, xp, fp, **kw)
        got = ac.interp(ac.asarray(x, device=device), ac.asarray(xp, device=device),
                        ac.asarray(fp, device=device), **kw)
        _same(want, got)


def test_scalars_lists_and_dispatch(device):
    xp = ac.asarray([0.0, 1.0, 2.0], device=device)
    fp = ac.asarray([0.0, 10.0, 0.0], device=device)
    assert float(ac.interp(0.5, xp, fp)) == 5.0
    r = np.interp(ac.asarray([1.5, 3.0], device=device), xp, fp)
    assert isinstance(r, ac.ndarray)
    assert ac.asnumpy(r).tolist() == [5.0, 0.0]
    _same(np.interp([0.25], [0, 1], [1, 3]), ac.interp([0.25], [0, 1], [1, 3]))


def test_errors(device):
    x = ac.asarray([1.0], device=device)
    with pytest.raises(ValueError, match="not of the same length"):
        ac.interp(x, [0.0, 1.0], [1.0])
    with pytest.raises(ValueError, match="empty"):
        ac.interp(x, [], [])
    with pytest.raises(ValueError, match="period must be a non-zero value"):
        ac.interp(x, [0.0, 1.0], [1.0, 2.0], period=0)
    with pytest.raises(TypeError):
        ac.interp(ac.asarray([1j], device=device), [0.0, 1.0], [1.0, 2.0])
