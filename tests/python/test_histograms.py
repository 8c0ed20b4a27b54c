"""bincount, histogram, histogram_bin_edges and digitize against NumPy: every integer and float
dtype, bools, empty and one-element data, NaNs, bins as a count, edges, a string estimator,
ranges (including an empty one), weights and density. Counts and edges match exactly; weighted
sums within the documented rounding (float64 running sums; NumPy's own float32 running sum is
the coarser of the two for float32 weights)."""

import warnings

import numpy as np
import pytest

import accel as ac


DTYPES = ["float32", "float64", "int64", "int16", "uint8", "bool"]


def _check(want, got, rtol=0.0):
    want = np.asarray(want)
    got = ac.asnumpy(got)
    assert got.dtype == want.dtype and got.shape == want.shape, (want.dtype, got.dtype,
                                                                 want.shape, got.shape)
    if rtol:
        np.testing.assert_allclose(got, want, rtol=rtol, atol=rtol * max(1.0, np.abs(want).sum()))
    else:
        np.testing.assert_array_equal(got, want)


def _both(f_np, f_ac, rtol=0.0):
    try:
        want = f_np()
    except Exception as e:  # accel raises the same kind of error
        with pytest.raises(type(e)):
            f_ac()
        return
    got = f_ac()
    if isinstance(want, tuple):
        for w, g in zip(want, got):
            _check(w, g, rtol)
    else:
        _check(want, got, rtol)


@pytest.mark.parametrize("dtype", DTYPES)
def test_histogram_matches_numpy(device, dtype):
    rng = np.random.default_rng(DTYPES.index(dtype))
    for n in (0, 1, 7, 300):
        a = rng.normal(0, 20, n).astype(dtype)
        if dtype.startswith("float") and n > 3:
            a[2] = -0.0
        x = ac.asarray(a, device=device)
        for bins in (10, 1, 4, [0, 1, 5, 20], np.array([-5.0, 0.0, 2.5, 30.0]), "auto", "sturges"):
            for rng_ in (None, (-10, 10), (3, 3)):
                for weights in (None, "float64", "int64", "float32"):
                    w = None if weights is None else (rng.random(n) * 10).astype(weights)
                    wx = None if w is None else ac.asarray(w, device=device)
                    rtol = 0.0 if weights in (None, "int64") else (1e-5 if weights == "float32"
                                                                   else 1e-12)
                    for density in (None, True):
                        _both(lambda: np.histogram(a, bins, rng_, density=density, weights=w),
                              lambda: ac.histogram(x, bins, rng_, density=density, weights=wx),
                              rtol=rtol if not density else max(rtol, 1e-12))
            _both(lambda: np.histogram_bin_edges(a, bins), lambda: ac.histogram_bin_edges(x, bins))


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_histogram_of_complex_data_bins_as_numpy(device, dtype):
    # Equal bins place complex values by complex arithmetic plus one lexicographic correction
    # (not a lexicographic binning): 4.375+0j lands in bin 1 of these edges, as in NumPy.
    a = np.array([4 + 16.258251j, 14.128089 + 0.75j, 4.375 + 1e-40j], dtype=dtype)
    _both(lambda: np.histogram(a, 3), lambda: ac.histogram(ac.asarray(a, device=device), 3))
    rng = np.random.default_rng(5)
    for t in range(60):
        n = int(rng.integers(0, 30))
        a = (rng.normal(size=n) + 1j * rng.normal(size=n)).astype(dtype)
        if t % 3 == 0:
            a = np.round(a)  # ties with the edges
        x = ac.asarray(a, device=device)
        w = rng.normal(size=n) if t % 2 else None
        wx = None if w is None else ac.asarray(w, device=device)
        bins = int(rng.integers(1, 7)) if t % 5 else np.array([-2, -0.5, 0.5, 2.0])
        range_ = (-1.0, 1.5) if t % 4 == 0 else None
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", np.exceptions.ComplexWarning)
            _both(lambda: np.histogram(a, bins, range_, weights=w, density=t % 7 == 0),
                  lambda: ac.histogram(x, bins, range_, weights=wx, density=t % 7 == 0),
                  rtol=0.0 if w is None else 1e-12)


def test_histogram_errors_and_specials(device):
    a = np.array([1.0, np.nan, 3.0])
    x = ac.asarray(a, device=device)
    with pytest.raises(ValueError, match="autodetected range of"):
        ac.histogram(x)
    # With a range, NaNs (and values outside it) are simply not counted.
    _both(lambda: np.histogram(a, 4, (0, 4)), lambda: ac.histogram(x, 4, (0, 4)))
    b = np.array([-np.inf, 0.0, np.inf, 5.0])
    _both(lambda: np.histogram(b, [-np.inf, 0, 1, np.inf]),
          lambda: ac.histogram(ac.asarray(b, device=device), [-np.inf, 0, 1, np.inf]))
    with pytest.raises(ValueError, match="monotonically"):
        ac.histogram(x, [3, 1, 2], (0, 4))
    with pytest.raises(ValueError, match="max must be larger than min"):
        ac.histogram(x, 3, (4, 0))


@pytest.mark.parametrize("dtype", ["int64", "int32", "uint8", "int16", "bool"])
def test_bincount_matches_numpy(device, dtype):
    rng = np.random.default_rng(3)
    for n in (0, 1, 50, 1000, 100_000):  # the last folds on every thread
        a = rng.integers(0, 40, n).astype(dtype)
        x = ac.asarray(a, device=device)
        for minlength in (0, 3, 100):
            _both(lambda: np.bincount(a, minlength=minlength),
                  lambda: ac.bincount(x, minlength=minlength))
            # Each bin's weights added in input order in float64, as NumPy's: to the bit.
            for w in (rng.normal(size=n), rng.normal(size=n).astype(np.float32),
                      rng.integers(-5, 5, n), rng.normal(size=n) + 1j):  # complex: TypeError
                _both(lambda: np.bincount(a, weights=w, minlength=minlength),
                      lambda: ac.bincount(x, weights=ac.asarray(w, device=device),
                                          minlength=minlength))


def test_bincount_errors(device):
    with pytest.raises(ValueError, match="no negative elements"):
        ac.bincount(ac.asarray([1, -1, 2], device=device))
    with pytest.raises(TypeError, match="Cannot cast"):
        ac.bincount(ac.asarray([1.0, 2.0], device=device))
    with pytest.raises(ValueError):
        ac.bincount(ac.asarray([[1, 2]], device=device))
    with pytest.raises(ValueError, match="same length"):
        ac.bincount(ac.asarray([1, 2], device=device), weights=ac.asarray([1.0], device=device))
    with pytest.raises(ValueError, match="minlength"):
        ac.bincount(ac.asarray([1, 2], device=device), minlength=-1)


@pytest.mark.parametrize("dtype", DTYPES)
def test_digitize_matches_numpy(device, dtype):
    rng = np.random.default_rng(11)
    a = rng.normal(0, 10, (4, 6)).astype(dtype)
    if dtype.startswith("float"):
        a[0, 0], a[0, 1] = np.nan, np.inf
    x = ac.asarray(a, device=device)
    for bins in ([0, 1, 5, 20], [20, 5, 1, 0], [1, 1, 1], [0, 5, 3], [2.5], [-np.inf, 0, np.inf]):
        for right in (False, True):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                _both(lambda: np.digitize(a, bins, right), lambda: ac.digitize(x, bins, right))


def test_numpy_dispatch(device):
    x = ac.asarray(np.array([0, 1, 1, 3]), device=device)
    counts = np.bincount(x)
    assert isinstance(counts, ac.ndarray)
    assert ac.asnumpy(counts).tolist() == [1, 2, 0, 1]
    h, e = np.histogram(x, 3)
    assert isinstance(h, ac.ndarray) and isinstance(e, ac.ndarray)
