"""NumPy's two-array set functions, multi-dimensional histograms and np.poly* functions
(python/accel/_np_sets_poly.py), against NumPy: dtypes, special values, empty inputs, options,
errors, and NumPy's own functions answering for accel arrays."""

import warnings

import numpy as np
import pytest

import accel as ac

rng = np.random.default_rng(7)
SPECIAL = np.array([0.0, -0.0, 1.0, -1.5, np.nan, np.nan, np.inf, -np.inf, 2.5])
SET_DTYPES = ["bool", "int8", "uint16", "int64", "float32", "float64", "complex128"]


def sample(dt, shape):
    """Values with repeats; floats add NaN (twice), infinities and both zeros."""
    dt = np.dtype(dt)
    if dt == bool:
        return rng.random(shape) < 0.5
    v = rng.integers(0, 8, shape).astype(dt)
    if dt.kind in "fc":
        flat = v.ravel()
        k = min(flat.size, SPECIAL.size)
        flat[rng.permutation(flat.size)[:k]] = SPECIAL[:k]
        v = flat.reshape(shape)
        if dt.kind == "c":
            v = v + 1j * rng.integers(0, 2, shape)
    return v.astype(dt)


def host(x):
    return ac.asnumpy(x) if isinstance(x, ac.ndarray) else np.asarray(x)


def same(got, want):
    got, want = host(got), np.asarray(want)
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    np.testing.assert_array_equal(got, want)


def close(got, want, rtol=1e-7, atol=0.0):
    got, want = host(got), np.asarray(want)
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    assert got.shape == want.shape, (got.shape, want.shape)
    np.testing.assert_allclose(got, want, rtol=rtol, atol=atol, equal_nan=True)


def raises_like(np_call, ac_call):
    """Both calls raise, and accel the same class as NumPy."""
    with pytest.raises(Exception) as want:
        np_call()
    with pytest.raises(want.type):
        ac_call()


# ---------------------------------------------------------------------------- set operations

@pytest.mark.parametrize("dt", SET_DTYPES)
def test_set_operations_match_numpy(dt, device):
    pairs = [(sample(dt, 12), sample(dt, (3, 4))), (sample(dt, 5), sample(dt, 0)),
             (sample(dt, 0), sample(dt, 0)), (sample(dt, (2, 2)), sample(dt, 9))]
    for a, b in pairs:
        x, y = ac.asarray(a, device=device), ac.asarray(b, device=device)
        same(ac.union1d(x, y), np.union1d(a, b))
        same(ac.intersect1d(x, y), np.intersect1d(a, b))
        for got, want in zip(ac.intersect1d(x, y, return_indices=True),
                             np.intersect1d(a, b, return_indices=True)):
            same(got, want)  # values, then int64 first-occurrence indices
        same(ac.setdiff1d(x, y), np.setdiff1d(a, b))
        same(ac.setxor1d(x, y), np.setxor1d(a, b))
        assert ac.union1d(x, y).device == x.device


@pytest.mark.parametrize("dt", ["int8", "uint16", "float64", "complex128"])
def test_set_operations_assume_unique(dt, device):
    a = rng.permutation(np.unique(sample(dt, 14)))
    b = rng.permutation(np.unique(sample(dt, 10)))
    x, y = ac.asarray(a, device=device), ac.asarray(b, device=device)
    same(ac.intersect1d(x, y, assume_unique=True), np.intersect1d(a, b, assume_unique=True))
    for got, want in zip(ac.intersect1d(x, y, assume_unique=True, return_indices=True),
                         np.intersect1d(a, b, assume_unique=True, return_indices=True)):
        same(got, want)
    # setdiff1d keeps ar1's order when told its values are unique.
    same(ac.setdiff1d(x, y, assume_unique=True), np.setdiff1d(a, b, assume_unique=True))
    same(ac.setxor1d(x, y, assume_unique=True), np.setxor1d(a, b, assume_unique=True))


def test_set_operations_promote_mixed_dtypes_and_keep_nans(device):
    a = np.array([3, -1, 7, 3], np.int8)
    b = np.array([7, 300, 2], np.uint16)
    x, y = ac.asarray(a, device=device), ac.asarray(b, device=device)
    same(ac.union1d(x, y), np.union1d(a, b))
    same(ac.intersect1d(x, y), np.intersect1d(a, b))
    same(ac.setdiff1d(x, y), np.setdiff1d(a, b))  # ar1's dtype
    same(ac.setxor1d(x, y), np.setxor1d(a, b))
    f = np.array([np.nan, 1.0, np.nan, -0.0])
    g = np.array([np.nan, 0.0, 2.0])
    u, v = ac.asarray(f, device=device), ac.asarray(g, device=device)
    same(ac.union1d(u, v), np.union1d(f, g))  # one NaN
    same(ac.setxor1d(u, v), np.setxor1d(f, g))  # a NaN from each side
    same(ac.intersect1d(u, v), np.intersect1d(f, g))  # NaN in neither intersection
    same(ac.setdiff1d(u, v), np.setdiff1d(f, g))


def test_numpy_set_functions_answer_for_accel_arrays(device):
    a, b = sample("int64", 15), sample("int64", 11)
    x, y = ac.asarray(a, device=device), ac.asarray(b, device=device)
    got = np.intersect1d(x, y, return_indices=True)
    assert all(isinstance(g, ac.ndarray) for g in got)
    for g, w in zip(got, np.intersect1d(a, b, return_indices=True)):
        same(g, w)
    assert isinstance(np.union1d(x, y), ac.ndarray)
    same(np.setxor1d(x, y), np.setxor1d(a, b))


# ------------------------------------------------------------------------------ histograms

HIST_DTYPES = ["int8", "uint16", "int64", "float32", "float64"]


def xy_sample(dt, n=40):
    x = rng.integers(0, 20, n).astype(dt)
    y = rng.integers(-5, 5, n).astype(dt) if np.dtype(dt).kind != "u" else rng.integers(0, 9, n).astype(dt)
    return x, y


@pytest.mark.parametrize("dt", HIST_DTYPES)
def test_histogram2d_matches_numpy(dt, device):
    x, y = xy_sample(dt)
    ex = np.array([0, 3, 3.5, 10, 19])
    ey = np.array([-5, 0, 2, 4], np.int64)
    w = rng.integers(1, 5, x.size).astype(np.float64)
    cases = [dict(), dict(bins=4), dict(bins=[3, 5]), dict(bins=ex), dict(bins=[ex, ey]),
             dict(bins=[4, ey]), dict(bins=3, range=[[2, 12], [-1, 3]]), dict(bins=3, density=True),
             dict(bins=[ex, 2], density=True), dict(bins=4, weights=w)]
    ax, ay = ac.asarray(x, device=device), ac.asarray(y, device=device)
    for kw in cases:
        akw = dict(kw)
        if "weights" in kw:
            akw["weights"] = ac.asarray(kw["weights"], device=device)
        got, want = ac.histogram2d(ax, ay, **akw), np.histogram2d(x, y, **kw)
        close(got[0], want[0], rtol=1e-12)
        same(got[1], want[1])
        same(got[2], want[2])
        assert got[0].device == ax.device


def test_histogram2d_empty_and_single_value(device):
    e = np.array([], np.float64)
    got, want = ac.histogram2d(ac.asarray(e, device=device), ac.asarray(e, device=device), 3), \
        np.histogram2d(e, e, 3)
    for g, w in zip(got, want):
        same(g, w)
    c = np.full(5, 2.5, np.float32)  # min == max: widened by 0.5 in float32
    got, want = ac.histogram2d(ac.asarray(c, device=device), ac.asarray(c * 3, device=device), 2), \
        np.histogram2d(c, c * 3, 2)
    for g, w in zip(got, want):
        same(g, w)

    # A subnormal range: the edges' step underflows to zero, and NumPy's linspace then scales
    # i / n by the range instead (fuzz seed 2339501).
    t = np.array([0, 1], dtype=np.int64).view(np.float64)
    for bins, rng2 in ((3, None), (5, [(0, 1e-323), (0, 1e-323)])):
        got, want = ac.histogram2d(ac.asarray(t, device=device), ac.asarray(t, device=device),
                                   bins, range=rng2), np.histogram2d(t, t, bins, range=rng2)
        for g, w in zip(got, want):
            same(g, w)


@pytest.mark.parametrize("dt", ["int64", "float32", "float64"])
def test_histogramdd_matches_numpy(dt, device):
    s = rng.normal(0, 3, (60, 3)).astype(dt)
    s[0] = s.max(axis=0)  # values on the last edge go in the last bin
    w = rng.random(60)
    edges2 = np.array([-9.0, -1, 0, 0.5, 4, 9])
    cases = [dict(), dict(bins=(2, 5, 3)), dict(bins=[4, edges2, 2]),
             dict(bins=3, range=[(-2, 2), None, (0, 5)]), dict(bins=(3, 4, 2), density=True),
             dict(bins=3, weights=w)]
    a = ac.asarray(s, device=device)
    for kw in cases:
        akw = dict(kw)
        if "weights" in kw:
            akw["weights"] = ac.asarray(w, device=device)
        got, want = ac.histogramdd(a, **akw), np.histogramdd(s, **kw)
        close(got[0], want[0], rtol=1e-12)
        assert len(got[1]) == len(want[1])
        for g, e in zip(got[1], want[1]):
            same(g, e)
    # A sequence of 1-d arrays is D columns; a 1-d array is one dimension.
    cols = [ac.asarray(s[:, i], device=device) for i in range(3)]
    close(ac.histogramdd(cols, bins=4)[0], np.histogramdd([s[:, i] for i in range(3)], bins=4)[0])
    close(ac.histogramdd(cols[0], bins=5)[0], np.histogramdd(s[:, 0], bins=5)[0])


def test_histogramdd_special_values(device):
    s = np.array([[0.0, 1.0], [-0.0, np.nan], [np.inf, 0.5], [1.0, 1.0], [0.5, -np.inf]])
    a = ac.asarray(s, device=device)
    edges = [np.array([-1.0, 0.0, 1.0]), np.array([0.0, 0.5, 1.0])]
    got, want = ac.histogramdd(a, bins=edges), np.histogramdd(s, bins=edges)
    same(got[0], want[0])  # NaN and infinities fall outside every bin
    got, want = ac.histogramdd(a, bins=2, range=[(0, 1), (0, 1)]), \
        np.histogramdd(s, bins=2, range=[(0, 1), (0, 1)])
    same(got[0], want[0])
    raises_like(lambda: np.histogramdd(s, bins=2), lambda: ac.histogramdd(a, bins=2))


def test_histogramdd_refuses_what_numpy_refuses(device):
    s = rng.random((10, 2))
    a = ac.asarray(s, device=device)
    for kw in [dict(bins=[2, 3, 4]), dict(bins=0), dict(bins=2.5), dict(bins=[2, [3, 1, 2]]),
               dict(bins=[2, [[0, 1]]]), dict(range=[(0, 1)]), dict(range=[(1, 0), (0, 1)]),
               dict(range=[(0, np.inf), (0, 1)])]:
        raises_like(lambda: np.histogramdd(s, **kw), lambda: ac.histogramdd(a, **kw))
    raises_like(lambda: np.histogram2d(s[:, 0], s[:5, 1]),
                lambda: ac.histogram2d(a[:, 0], a[:5, 1]))
    with pytest.raises(TypeError, match="complex"):
        ac.histogramdd(ac.asarray(s + 1j, device=device))


def test_numpy_histogram2d_answers_for_accel_arrays(device):
    x, y = xy_sample("float64")
    got = np.histogram2d(ac.asarray(x, device=device), ac.asarray(y, device=device), bins=[3, 4])
    want = np.histogram2d(x, y, bins=[3, 4])
    for g, w in zip(got, want):
        assert isinstance(g, ac.ndarray)
        same(g, w)


# ----------------------------------------------------------------------------- polynomials

POLY_DTYPES = ["int8", "uint16", "int64", "float32", "float64", "complex128"]


def coefficients(dt, n):
    dt = np.dtype(dt)
    c = rng.integers(1 if dt.kind == "u" else -4, 5, n)
    if dt.kind == "c":
        return (c + 1j * rng.integers(-3, 4, n)).astype(dt)
    return c.astype(dt)


@pytest.mark.parametrize("dt", POLY_DTYPES)
def test_polyval_matches_numpy(dt, device):
    p = coefficients(dt, 5)
    xs = [coefficients(dt, (3, 4)), coefficients(dt, 0), np.array(2, dt)]
    if np.dtype(dt).kind in "fc":
        xs.append(np.array([0.0, -0.0, np.nan, np.inf, -np.inf, 0.5], dt))
    for x in xs:
        with np.errstate(all="ignore"):
            want = np.polyval(p, x)
            got = ac.polyval(ac.asarray(p, device=device), ac.asarray(x, device=device))
        same(got, want)  # Horner's rule in NumPy's order: the same rounding
    mixed = np.polyval(p, np.arange(4, dtype=np.float32))
    same(ac.polyval(ac.asarray(p, device=device), ac.arange(4, dtype=ac.float32, device=device)),
         mixed)
    same(ac.polyval(ac.asarray(p[:0], device=device), ac.asarray([1.5, 2.0], device=device)),
         np.polyval(p[:0], np.array([1.5, 2.0])))
    raises_like(lambda: np.polyval(np.array(3.0), 2.0),
                lambda: ac.polyval(ac.asarray(3.0, device=device), 2.0))


@pytest.mark.parametrize("dt", POLY_DTYPES)
def test_polyadd_polysub_polymul_match_numpy(dt, device):
    pairs = [(coefficients(dt, 4), coefficients(dt, 7)), (coefficients(dt, 6), coefficients(dt, 2)),
             (coefficients(dt, 3), coefficients(dt, 3)), (np.zeros(3, dt), coefficients(dt, 2)),
             (np.concatenate([np.zeros(2, dt), coefficients(dt, 3)]), coefficients(dt, 1))]
    exact = np.dtype(dt).kind in "iu"
    for a, b in pairs:
        x, y = ac.asarray(a, device=device), ac.asarray(b, device=device)
        with np.errstate(all="ignore"):
            same(ac.polyadd(x, y), np.polyadd(a, b))
            same(ac.polysub(x, y), np.polysub(a, b))
            want = np.polymul(a, b)  # leading zeros removed first, integers wrap around
        if exact:
            same(ac.polymul(x, y), want)
        else:
            close(ac.polymul(x, y), want, rtol=1e-6 if dt == "float32" else 1e-12)
    mixed_a, mixed_b = coefficients("int8", 3), coefficients("float32", 4)
    close(ac.polymul(ac.asarray(mixed_a, device=device), ac.asarray(mixed_b, device=device)),
          np.polymul(mixed_a, mixed_b), rtol=1e-6)
    same(ac.polyadd(ac.asarray([], device=device), ac.asarray([1, 2], device=device)),
         np.polyadd([], [1, 2]))
    same(ac.polymul(ac.asarray([], device=device), ac.asarray([1, 2], device=device)),
         np.polymul([], [1, 2]))
    same(ac.polymul(ac.asarray([True, False], device=device), ac.asarray([True, True], device=device)),
         np.polymul([True, False], [True, True]))
    if np.dtype(dt).kind in "fc":
        a = np.array([np.nan, -0.0, np.inf, 1.0], dt)
        b = np.array([-np.inf, -0.0], dt)
        x, y = ac.asarray(a, device=device), ac.asarray(b, device=device)
        with np.errstate(all="ignore"):
            same(ac.polyadd(x, y), np.polyadd(a, b))
            same(ac.polysub(y, x), np.polysub(b, a))
            close(ac.polymul(x, y), np.polymul(a, b))
    raises_like(lambda: np.polymul(np.ones((2, 2)), [1.0]),
                lambda: ac.polymul(ac.ones((2, 2), device=device), ac.asarray([1.0], device=device)))


@pytest.mark.parametrize("dt", POLY_DTYPES)
def test_polydiv_matches_numpy(dt, device):
    for n, m in [(6, 3), (3, 5), (4, 1), (1, 1)]:
        u, v = coefficients(dt, n), coefficients(dt, m)
        v[0] = v[0] or 1
        q, r = ac.polydiv(ac.asarray(u, device=device), ac.asarray(v, device=device))
        wq, wr = np.polydiv(u, v)
        tol = 1e-5 if dt == "float32" else 1e-12
        close(q, wq, rtol=tol, atol=tol)
        close(r, wr, rtol=tol, atol=tol)
    # An exact division: the remainder's leading zeros are dropped, one kept.
    u, v = np.polymul([1.0, -2.0, 3.0], [2.0, 1.0]), np.array([2.0, 1.0])
    got, want = ac.polydiv(ac.asarray(u, device=device), ac.asarray(v, device=device)), np.polydiv(u, v)
    close(got[0], want[0])
    close(got[1], want[1], atol=1e-12)
    raises_like(lambda: np.polydiv([], [1.0]),
                lambda: ac.polydiv(ac.asarray([], device=device), ac.asarray([1.0], device=device)))


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@pytest.mark.parametrize("dt", ["float16", "float32", "float64"])
def test_polydiv_by_a_negative_zero_leading_coefficient(dt, device):
    """NumPy adds 0.0 to both polynomials first, so a -0.0 leading coefficient divides as +0.0:
    -4.75 / (-0.0 + 0.0) is -inf, not inf (fuzz seed 2127346)."""
    for u, v in [([-4.75], [-0.0]), ([1.0, 2.0, 3.0], [-0.0, 1.0])]:
        un, vn = np.array(u, dt), np.array(v, dt)
        got = ac.polydiv(ac.asarray(un, device=device), ac.asarray(vn, device=device))
        for g, w in zip(got, np.polydiv(un, vn)):
            close(g, w)


@pytest.mark.parametrize("dt", POLY_DTYPES)
def test_polyder_polyint_match_numpy(dt, device):
    p = coefficients(dt, 6)
    x = ac.asarray(p, device=device)
    for m in range(0, 8):
        same(ac.polyder(x, m), np.polyder(p, m))
    for m, k in [(0, None), (1, None), (2, None), (1, 3.5), (3, 2), (2, [1, -2]), (2, [1, 2, 3]),
                 (1, 1j)]:
        close(ac.polyint(x, m, k), np.polyint(p, m, k), rtol=1e-14)
    empty = np.array([], dt)
    same(ac.polyder(ac.asarray(empty, device=device)), np.polyder(empty))
    same(ac.polyint(ac.asarray(empty, device=device)), np.polyint(empty))
    raises_like(lambda: np.polyder(p, -1), lambda: ac.polyder(x, -1))
    raises_like(lambda: np.polyint(p, -1), lambda: ac.polyint(x, -1))
    raises_like(lambda: np.polyint(p, 3, k=[1, 2]), lambda: ac.polyint(x, 3, k=[1, 2]))
    raises_like(lambda: np.polyder(np.array(2.0)), lambda: ac.polyder(ac.asarray(2.0, device=device)))


def sorted_roots(r):
    r = host(r)
    return r[np.lexsort((r.imag, r.real))] if r.dtype.kind == "c" else np.sort(r)


@pytest.mark.parametrize("p", [
    [1.0, -6.0, 11.0, -6.0],          # 1, 2, 3: real
    [1.0, 0.0, 1.0],                  # +-i: complex
    [0.0, 0.0, 2.0, -3.0, 1.0, 0.0, 0.0],  # leading and trailing zeros
    [3.0, 0.0, 0.0],                  # only zeros as roots
    [5.0], [0.0, 0.0], [],
    [2, -3, 1],                       # integers: float64
    [1 + 1j, -2.0, 3 - 1j],           # complex coefficients
], ids=str)
def test_roots_match_numpy(p, device):
    want = np.roots(np.array(p))
    got = ac.roots(ac.asarray(np.array(p), device=device))
    assert host(got).dtype == want.dtype
    close(sorted_roots(got), sorted_roots(want), rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("dt", ["int8", "uint16", "float32", "float64", "complex128"])
def test_roots_of_random_polynomials(dt, device):
    p = coefficients(dt, 6)
    p[0] = p[0] or 1
    want = np.roots(p)
    got = ac.roots(ac.asarray(p, device=device))
    assert host(got).dtype == want.dtype
    tol = 1e-3 if dt == "float32" else 1e-8
    close(sorted_roots(got), sorted_roots(want), rtol=tol, atol=tol)
    raises_like(lambda: np.roots(np.ones((2, 2))), lambda: ac.roots(ac.ones((2, 2), device=device)))
    raises_like(lambda: np.roots([1.0, np.nan, 2.0]),
                lambda: ac.roots(ac.asarray([1.0, np.nan, 2.0], device=device)))


@pytest.mark.parametrize("z", [
    [1.0, 2.0, 3.0], [1 + 2j, 1 - 2j, 3.0], [1 + 2j, 3.0], [2, -1, 0],
    np.array([0.5, -0.0, 4.0], np.float32), np.array([1j, -1j], np.complex64),
    [[1.0, 2.0], [3.0, 4.0]], [[0.0, -1.0], [1.0, 0.0]], [[2, 0], [0, 3]],
    # The leading coefficient stays 1 beside NaN and infinite roots (fuzz seed 2052591).
    np.array([np.nan, np.nan], np.float32), [np.inf, 1.0], [1.0, -np.inf, np.nan],
], ids=str)
def test_poly_matches_numpy(z, device):
    want = np.poly(np.asarray(z))
    got = ac.poly(ac.asarray(np.asarray(z), device=device))
    assert host(got).dtype == want.dtype
    close(got, want, rtol=1e-6 if want.dtype in (np.float32, np.complex64) else 1e-12,
          atol=1e-12)


@pytest.mark.parametrize("z", [np.array([0], np.uint64), np.array([-0.0, 0.0]),
                               np.array([-0.0], np.float32), np.array([0j, -0j]),
                               np.array([1 + 2j, 1 - 2j, -0.0 + 0j])], ids=str)
def test_poly_zero_coefficients_are_positive_zeros(z, device):
    """NumPy's coefficients are dot products summed from +0.0: a zero root gives 0.0, not the
    -0.0 of 1 * -0.0 (fuzz seeds 398, 2761: signbit and 1 / x of it differed)."""
    want = np.poly(z)
    got = host(ac.poly(ac.asarray(z, device=device)))
    close(got, want)
    for part in (np.real, np.imag):
        np.testing.assert_array_equal(np.signbit(part(got)), np.signbit(part(want)))


def test_poly_edge_cases(device):
    assert ac.poly(ac.asarray([], device=device)) == np.poly([]) == 1.0
    for bad in (np.ones((2, 3)), np.ones((2, 2, 2)), np.ones((0, 0))):
        raises_like(lambda: np.poly(bad), lambda: ac.poly(ac.asarray(bad, device=device)))


@pytest.mark.parametrize("dt", ["int64", "float32", "float64"])
@pytest.mark.parametrize("deg", [0, 1, 3])
def test_polyfit_matches_numpy(dt, deg, device):
    x = np.linspace(-2, 3, 25).astype(dt) if dt != "int64" else np.arange(-12, 13)
    y = (np.polyval([0.5, -1.0, 2.0, 0.25], x) + rng.normal(0, 0.1, x.size)).astype(
        dt if dt != "int64" else np.float64)
    w = rng.random(x.size) + 0.5
    ax, ay, aw = (ac.asarray(v, device=device) for v in (x, y, w))
    tol = 1e-3 if dt == "float32" else 1e-8
    close(ac.polyfit(ax, ay, deg), np.polyfit(x, y, deg), rtol=tol, atol=tol)
    close(ac.polyfit(ax, ay, deg, w=aw), np.polyfit(x, y, deg, w=w), rtol=tol, atol=tol)
    y2 = np.stack([y, 2 * y - 1], axis=1)
    close(ac.polyfit(ax, ac.asarray(y2, device=device), deg, w=aw),
          np.polyfit(x, y2, deg, w=w), rtol=tol, atol=tol)
    got, want = ac.polyfit(ax, ay, deg, full=True), np.polyfit(x, y, deg, full=True)
    close(got[0], want[0], rtol=tol, atol=tol)
    close(got[1], want[1], rtol=tol)  # residuals
    assert got[2] == want[2]
    close(got[3], want[3], rtol=tol)
    assert got[4] == pytest.approx(want[4])
    for cov in (True, "unscaled"):
        got, want = ac.polyfit(ax, ay, deg, cov=cov), np.polyfit(x, y, deg, cov=cov)
        close(got[0], want[0], rtol=tol, atol=tol)
        close(got[1], want[1], rtol=100 * tol, atol=tol)
    got = ac.polyfit(ax, ac.asarray(y2, device=device), deg, cov=True)
    want = np.polyfit(x, y2, deg, cov=True)
    close(got[1], want[1], rtol=100 * tol, atol=tol)


def test_polyfit_complex_data(device):
    x = np.linspace(0, 1, 9) + 0.3j * np.arange(9)
    y = 2 * x**2 - (1 + 1j) * x + 0.5j + 0.01 * rng.normal(size=9)
    got = ac.polyfit(ac.asarray(x, device=device), ac.asarray(y, device=device), 2)
    close(got, np.polyfit(x, y, 2), rtol=1e-10, atol=1e-12)


def test_polyfit_rank_warning_and_errors(device):
    x, y = np.array([0.0, 1.0, 2.0]), np.array([1.0, 3.0, 2.0])
    ax, ay = ac.asarray(x, device=device), ac.asarray(y, device=device)
    with pytest.warns(np.exceptions.RankWarning):
        got = ac.polyfit(ax, ay, 4)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", np.exceptions.RankWarning)
        close(ac.polyval(got, ax), y, atol=1e-10)  # an exact fit, as NumPy's
    for args, kw in [((x, y, -1), {}), ((np.ones((3, 1)), y, 1), {}), ((x[:0], y[:0], 1), {}),
                     ((x, y[:2], 1), {}), ((x, np.ones((3, 1, 1)), 1), {}),
                     ((x, y, 1), {"w": np.ones(2)}), ((x, y, 1), {"w": np.ones((3, 1))}),
                     ((x, y, 2), {"cov": True})]:
        aargs = tuple(ac.asarray(a, device=device) if isinstance(a, np.ndarray) else a for a in args)
        akw = {k: ac.asarray(v, device=device) if isinstance(v, np.ndarray) else v
               for k, v in kw.items()}
        raises_like(lambda: np.polyfit(*args, **kw), lambda: ac.polyfit(*aargs, **akw))


def test_numpy_poly_functions_answer_for_accel_arrays(device):
    p, x = np.array([1.0, -3.0, 2.0]), np.array([0.5, 1.0, 4.0])
    ap, ax = ac.asarray(p, device=device), ac.asarray(x, device=device)
    got = np.polyval(ap, ax)
    assert isinstance(got, ac.ndarray)
    same(got, np.polyval(p, x))
    r = np.roots(ap)
    assert isinstance(r, ac.ndarray)
    close(sorted_roots(r), np.sort(np.roots(p)), rtol=1e-12)
    q, rem = np.polydiv(ap, ac.asarray([1.0, -1.0], device=device))
    assert isinstance(q, ac.ndarray)
    close(q, np.polydiv(p, [1.0, -1.0])[0])
    close(np.polyfit(ax, ac.asarray([1.0, 2.0, 0.0], device=device), 1),
          np.polyfit(x, [1.0, 2.0, 0.0], 1), rtol=1e-10)
