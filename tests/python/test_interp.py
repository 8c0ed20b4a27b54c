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


def test_many_points_strided_and_other_dtypes(device):
    # Enough values to split over the thread pool, x in any order and beyond both ends, read
    # through a strided 2-d view; x float32 and xp integers are read as float64, as NumPy does.
    rng = np.random.default_rng(1)
    xp = np.sort(rng.normal(size=50_000)) * 10
    fp = rng.normal(size=xp.size)
    x = rng.normal(size=(600, 700)) * 12
    want = np.interp(x[::2, 1::3], xp, fp)
    got = ac.interp(ac.asarray(x, device=device)[::2, 1::3], ac.asarray(xp, device=device),
                    ac.asarray(fp, device=device))
    _same(want, got)
    x32 = x[:5].astype(np.float32)
    xi = np.arange(-3, 40, 2)
    fi = rng.integers(-9, 9, xi.size)
    got = ac.interp(ac.asarray(x32, device=device), ac.asarray(xi, device=device),
                    ac.asarray(fi, device=device))
    _same(np.interp(x32, xi, fi), got)


def test_edges_as_numpys(device):
    inf, nan = np.inf, np.nan
    cases = [
        ([0.0, 1.0, 1.0, 2.0], [0.0, 5.0, 7.0, 1.0]),   # a repeated sample point
        ([-1.0, 0.0, 3.0], [inf, 2.0, -inf]),           # infinite values
        ([-inf, 0.0, inf], [1.0, 2.0, 3.0]),            # infinite sample points
        ([0.0, 1.0, nan], [1.0, 2.0, 3.0]),             # a NaN last sample point
        ([-1e308, 1e308], [-1e308, 1e308]),             # a slope that overflows
        ([2.0], [4.0]),                                 # one point
    ]
    x = np.array([-inf, -2.0, -1.0, -0.0, 0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 1e300, inf, nan])
    for xp, fp in cases:
        for kw in ({}, {"left": -9.0}, {"right": 9.0}, {"left": nan, "right": -0.0}):
            with np.errstate(all="ignore"):
                want = np.interp(x, xp, fp, **kw)
            got = ac.interp(ac.asarray(x, device=device), ac.asarray(xp, device=device),
                            ac.asarray(fp, device=device), **kw)
            _same(want, got)
            np.testing.assert_array_equal(np.signbit(ac.asnumpy(got)), np.signbit(want))
        fc = np.array(fp) * (1 - 2j)
        for kw in ({}, {"left": 1 + 2j, "right": -3j}, {"left": 4.0}):
            with np.errstate(all="ignore"):
                want = np.interp(x, xp, fc, **kw)
            got = ac.interp(ac.asarray(x, device=device), ac.asarray(xp, device=device),
                            ac.asarray(fc, device=device), **kw)
            _same(want, got)


def test_shapes_and_argument_forms(device):
    xp = ac.asarray([0.0, 1.0, 2.0], device=device)
    fp = ac.asarray([0.0, 10.0, 0.0], device=device)
    empty = ac.interp(ac.asarray(np.zeros((0, 3)), device=device), xp, fp)
    assert empty.shape == (0, 3) and empty.dtype == ac.float64
    zero_d = ac.interp(ac.asarray(0.25, device=device), xp, fp)
    assert zero_d.shape == () and float(zero_d) == 2.5
    # left / right as 0-d arrays and NumPy numbers; the result lives on the operands' device
    r = ac.interp([-1.0, 3.0], xp, fp, left=ac.asarray(-5.0, device=device), right=np.float32(7))
    assert r.device == xp.device and ac.asnumpy(r).tolist() == [-5.0, 7.0]
    # period with xp in any order, x far outside one period
    xs = np.linspace(-20, 20, 41)
    _same(np.interp(xs, [3.0, 0.5, 1.5], [1.0, -2.0, 4.0], period=-3.5),
          ac.interp(ac.asarray(xs, device=device), ac.asarray([3.0, 0.5, 1.5], device=device),
                    [1.0, -2.0, 4.0], period=-3.5))
    _same(np.interp(xs, [3.0, 0.5, 1.5], [1.0, -2.0, 4.0], period=3.5j),  # abs(period), as NumPy
          ac.interp(ac.asarray(xs, device=device), [3.0, 0.5, 1.5], [1.0, -2.0, 4.0], period=3.5j))


def test_argument_errors_as_numpys(device):
    x = ac.asarray([0.5], device=device)
    for kw in ({"left": 1j}, {"right": "a"}, {"period": "a"}):
        with pytest.raises(TypeError):
            np.interp([0.5], [0.0, 1.0], [1.0, 2.0], **kw)
        with pytest.raises(TypeError):
            ac.interp(x, [0.0, 1.0], [1.0, 2.0], **kw)
    with pytest.raises(ValueError, match="1-D"):
        ac.interp(x, [[0.0, 1.0]], [1.0, 2.0])
    with pytest.raises(TypeError):
        ac.interp(x, ac.asarray([0.0, 1j], device=device), [1.0, 2.0])
