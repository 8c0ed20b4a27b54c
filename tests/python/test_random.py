"""accel.random: NumPy's Generator API on Philox4x32-10. Statistical tests (moments,
Kolmogorov-Smirnov, chi-square) against the exact distributions, reproducibility (same seed,
same values, whatever ACCEL_NUM_THREADS and device), dtype/shape/out= and errors."""

import math
import os
import subprocess
import sys

import numpy as np
import pytest

import accel as ac

N = 200_000


def host(x):
    return ac.asnumpy(x)


def ks_pvalue(sample, cdf):
    """Two-sided one-sample Kolmogorov-Smirnov p-value (scipy.stats where installed, else the
    Kolmogorov asymptotic distribution, exact in the limit: P(K > t) = 2 sum (-1)^(j-1) e^(-2j^2t^2))."""
    try:
        from scipy import stats
        return stats.kstest(sample, cdf).pvalue
    except ImportError:
        x = np.sort(np.asarray(sample, dtype=np.float64))
        n = x.size
        f = cdf(x)
        d = max(np.max(np.arange(1, n + 1) / n - f), np.max(f - np.arange(n) / n))
        t = (math.sqrt(n) + 0.12 + 0.11 / math.sqrt(n)) * d
        return min(1.0, max(0.0, 2 * sum((-1) ** (j - 1) * math.exp(-2 * j * j * t * t)
                                         for j in range(1, 101))))


def normal_cdf(x):
    return 0.5 * (1 + np.vectorize(math.erf)(np.asarray(x) / math.sqrt(2)))


def chi_square_pvalue(counts, expected):
    stat = float(np.sum((counts - expected) ** 2 / expected))
    dof = counts.size - 1
    try:
        from scipy import stats
        return stats.chi2.sf(stat, dof)
    except ImportError:  # Wilson-Hilferty: (stat/dof)^(1/3) is nearly normal
        z = ((stat / dof) ** (1 / 3) - (1 - 2 / (9 * dof))) / math.sqrt(2 / (9 * dof))
        return 0.5 * math.erfc(z / math.sqrt(2))


# ------------------------------------------------------------------------ distributions

@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_random_is_uniform_on_unit_interval(device, dtype):
    x = host(ac.random.default_rng(1).random(N, dtype=dtype, device=device))
    assert x.dtype == dtype and x.shape == (N,)
    assert x.min() >= 0 and x.max() < 1
    assert abs(x.mean() - 0.5) < 5 * math.sqrt(1 / 12 / N)
    assert abs(x.var() - 1 / 12) < 0.002
    assert ks_pvalue(x, lambda v: np.clip(v, 0, 1)) > 1e-4


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_standard_normal_moments_and_ks(device, dtype):
    x = host(ac.random.default_rng(2).standard_normal(N, dtype=dtype, device=device))
    assert x.dtype == dtype
    x = x.astype(np.float64)
    assert abs(x.mean()) < 5 / math.sqrt(N)
    assert abs(x.var() - 1) < 5 * math.sqrt(2 / N)
    skew = np.mean(x ** 3)
    kurt = np.mean(x ** 4)
    assert abs(skew) < 5 * math.sqrt(15 / N)
    assert abs(kurt - 3) < 5 * math.sqrt(96 / N)
    assert ks_pvalue(x, normal_cdf) > 1e-4


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_standard_exponential_moments_and_ks(device, dtype):
    x = host(ac.random.default_rng(3).standard_exponential(N, dtype=dtype, device=device))
    assert x.dtype == dtype and x.min() >= 0
    x = x.astype(np.float64)
    assert abs(x.mean() - 1) < 5 / math.sqrt(N)
    assert abs(x.var() - 1) < 5 * math.sqrt(8 / N)
    assert ks_pvalue(x, lambda v: 1 - np.exp(-np.asarray(v))) > 1e-4


def test_normal_uniform_exponential_scale_and_shift(device):
    g = ac.random.default_rng(4)
    n = host(g.normal(10.0, 3.0, size=N, device=device))
    assert abs(n.mean() - 10) < 5 * 3 / math.sqrt(N) and abs(n.std() - 3) < 0.05
    u = host(g.uniform(-2.0, 6.0, size=N, device=device))
    assert u.min() >= -2 and u.max() < 6 and abs(u.mean() - 2) < 0.05
    e = host(g.exponential(2.5, size=N, device=device))
    assert abs(e.mean() - 2.5) < 5 * 2.5 / math.sqrt(N)
    # Broadcast parameters give the broadcast shape, as NumPy's.
    b = g.normal(ac.asarray([0.0, 100.0], device=device), 1.0)
    assert b.shape == (2,) and abs(host(b)[1] - 100) < 10
    assert g.uniform(np.zeros((3, 1)), np.ones(4)).shape == (3, 4)


# Shape 0.05 in float64 only: 0.6% of its values lie below float32's smallest subnormal and round
# to 0 there, a step the continuous CDF has not (NumPy's float32 gamma does the same).
@pytest.mark.parametrize("shape,dtype", [(0.05, np.float64), (0.5, np.float32), (0.5, np.float64),
                                         (1.0, np.float32), (3.7, np.float64), (150.0, np.float32),
                                         (150.0, np.float64)])
def test_standard_gamma_follows_its_distribution(shape, dtype, device):
    stats = pytest.importorskip("scipy.stats", reason="the gamma CDF comes from scipy.stats")
    x = host(ac.random.default_rng(20).standard_gamma(shape, size=N, dtype=dtype, device=device))
    assert x.dtype == dtype and np.all(x >= 0) and np.all(np.isfinite(x))
    assert ks_pvalue(x.astype(np.float64), lambda v: stats.gamma.cdf(v, shape)) > 1e-4
    assert abs(x.mean() - shape) < 5 * math.sqrt(shape / N)


def test_gamma_and_beta(device):
    stats = pytest.importorskip("scipy.stats", reason="the CDFs come from scipy.stats")
    g = ac.random.default_rng(21)
    x = host(g.gamma(2.0, 3.0, size=N, device=device))
    assert ks_pvalue(x, lambda v: stats.gamma.cdf(v, 2.0, scale=3.0)) > 1e-4
    # The scale is applied in the draw: the bits of standard_gamma * scale.
    want = host(ac.random.default_rng(4).standard_gamma(2.0, size=1000, device=device)) * 3.0
    np.testing.assert_array_equal(host(ac.random.default_rng(4).gamma(2.0, 3.0, size=1000,
                                                                      device=device)), want)
    assert g.gamma(2.0, ac.asarray([1.0, 2.0], device=device)).shape == (2,)
    for a, b in [(0.5, 0.5), (2.0, 5.0), (30.0, 0.8)]:
        y = host(g.beta(a, b, size=N, device=device))
        assert np.all((y >= 0) & (y <= 1))
        assert ks_pvalue(y, lambda v: stats.beta.cdf(v, a, b)) > 1e-4
    for bad in (-1.0, float("nan"), float("inf"), [1.0, -1.0], [np.nan]):
        with pytest.raises(ValueError, match="shape < 0"):
            g.standard_gamma(bad, device=device)
    np.testing.assert_array_equal(host(g.standard_gamma(0.0, size=3, device=device)), 0.0)
    for bad in ((0.0, 1.0), (1.0, -2.0), ([1.0, 0.0], 1.0), (1.0, [np.nan])):
        with pytest.raises(ValueError, match="<= 0"):
            g.beta(*bad, device=device)
    out = ac.zeros(7, device=device)
    assert g.standard_gamma(2.0, out=out) is out and np.all(host(out) > 0)


@pytest.mark.parametrize("params", [(-1.5, 2.25), (0, 1), (np.float32(0.1), 7), (True, -3)])
def test_scalar_parameters_apply_in_the_draw_with_the_separate_ops_bits(params, device):
    """uniform/normal/exponential with number parameters scale in the draw's own pass; the bits
    are those of the draw followed by the float64 multiply and add (including -0.0 + 0 -> 0.0)."""
    a, b = params
    for draw, plain in [
        (lambda g: g.uniform(a, b, size=(3, 1001), device=device),
         lambda g: g.random((3, 1001), device=device) * (b - a) + a),
        (lambda g: g.normal(a, abs(b), size=2003, device=device),
         lambda g: g.standard_normal(2003, device=device) * abs(b) + a),
        (lambda g: g.exponential(abs(b), size=999, device=device),
         lambda g: g.standard_exponential(999, device=device) * abs(b) + 0.0),
    ]:
        got = host(draw(ac.random.default_rng(9)))
        want = host(plain(ac.random.default_rng(9)))
        assert got.dtype == np.float64
        np.testing.assert_array_equal(got.view(np.uint64), want.view(np.uint64))


def test_array_shapes_draw_each_element_with_its_own_shape(device):
    """standard_gamma/gamma/beta with arrays of shapes: element k is the draw of shape a[k]
    (its bits equal a number-shape draw's at the same counter), broadcast with size."""
    stats = pytest.importorskip("scipy.stats", reason="the gamma CDF comes from scipy.stats")
    shapes = np.array([0.0, 0.3, 1.0, 4.5, 60.0])
    # Each column a shape: 40,000 draws of each, element (i, j) of shape shapes[j].
    x = host(ac.random.default_rng(3).standard_gamma(ac.asarray(shapes, device=device),
                                                     size=(40_000, 5)))
    assert x.shape == (40_000, 5) and x.dtype == np.float64
    np.testing.assert_array_equal(x[:, 0], 0.0)
    for j, a in enumerate(shapes[1:], 1):
        assert ks_pvalue(x[:, j], lambda v: stats.gamma.cdf(v, a)) > 1e-4
    # Element k uses counter k whatever its shape: a constant array equals the number.
    g1, g2 = ac.random.default_rng(8), ac.random.default_rng(8)
    np.testing.assert_array_equal(
        host(g1.standard_gamma(np.full(999, 2.5), dtype=np.float32, device=device)),
        host(g2.standard_gamma(2.5, size=999, dtype=np.float32, device=device)))
    g = ac.random.default_rng(4)
    y = host(g.gamma(ac.asarray([[1.0], [2.0]], device=device), [1.0, 10.0, 100.0]))
    assert y.shape == (2, 3) and np.all(y >= 0)
    b = host(g.beta(ac.asarray([0.5, 2.0], device=device), 3.0, size=(20_000, 2)))
    assert ks_pvalue(b[:, 1], lambda v: stats.beta.cdf(v, 2.0, 3.0)) > 1e-4
    with pytest.raises(ValueError, match="broadcast"):
        g.standard_gamma(np.ones(3), size=(2,))
    out = ac.zeros((2, 3), dtype=ac.float32, device=device)
    assert g.standard_gamma(np.ones(3), dtype=np.float32, out=out) is out
    assert np.all(host(out) > 0)


def _count_pvalue(x, pmf, support_max):
    """Chi-square p-value of integer draws against a pmf, cells pooled so each expects >= 20."""
    counts = np.bincount(x, minlength=support_max + 1)[: support_max + 1].astype(np.float64)
    counts[-1] += np.sum(x > support_max)
    expected = pmf(np.arange(support_max + 1)) * x.size
    expected[-1] += x.size - expected.sum()  # the tail past support_max
    cells_c, cells_e, acc_c, acc_e = [], [], 0.0, 0.0
    for c, e in zip(counts, expected):
        acc_c += c
        acc_e += e
        if acc_e >= 20:
            cells_c.append(acc_c)
            cells_e.append(acc_e)
            acc_c = acc_e = 0.0
    if acc_e > 0:
        cells_c[-1] += acc_c
        cells_e[-1] += acc_e
    return chi_square_pvalue(np.array(cells_c), np.array(cells_e))


@pytest.mark.parametrize("lam", [0.01, 0.7, 3.0, 9.99, 10.0, 27.5, 1000.0, 2.0e6])
def test_poisson_follows_its_distribution(lam, device):
    """Both methods (inversion below 10, PTRS from 10) against the exact pmf, chi-square."""
    stats = pytest.importorskip("scipy.stats", reason="the Poisson pmf comes from scipy.stats")
    x = host(ac.random.default_rng(31).poisson(lam, size=N, device=device))
    assert x.dtype == np.int64 and x.shape == (N,) and x.min() >= 0
    if lam > 1e5:  # cells around the mean: the pmf shifted to start at lo
        lo = int(lam - 6 * math.sqrt(lam))
        hi = int(lam + 6 * math.sqrt(lam))
        x = np.clip(x - lo, 0, None)
        pmf = lambda k: stats.poisson.pmf(k + lo, lam) + (k == 0) * stats.poisson.cdf(lo - 1, lam)
        assert _count_pvalue(x, pmf, hi - lo) > 1e-4
    else:
        top = int(lam + 8 * math.sqrt(lam) + 10)
        assert _count_pvalue(x, lambda k: stats.poisson.pmf(k, lam), top) > 1e-4
    if lam <= 1e5:
        assert abs(x.mean() - lam) < 6 * math.sqrt(lam / N)


@pytest.mark.parametrize("n,p", [(1, 0.5), (20, 0.3), (5, 0.97), (300, 0.01), (1000, 0.3),
                                 (1000, 0.97), (60, 0.5), (10**9, 0.25)])
def test_binomial_follows_its_distribution(n, p, device):
    """Inversion (n min(p, 1-p) < 10) and BTRS, p above 1/2 drawn as n - k, against the exact
    pmf, chi-square."""
    stats = pytest.importorskip("scipy.stats", reason="the binomial pmf comes from scipy.stats")
    x = host(ac.random.default_rng(32).binomial(n, p, size=N, device=device))
    assert x.dtype == np.int64 and x.min() >= 0 and x.max() <= n
    mean, sd = n * p, math.sqrt(n * p * (1 - p))
    lo = max(0, int(mean - 7 * sd))
    hi = min(n, int(mean + 7 * sd) + 3)
    # Values below lo pool into the first cell, above hi into the last.
    pmf = lambda k: stats.binom.pmf(k + lo, n, p) + (k == 0) * stats.binom.cdf(lo - 1, n, p)
    assert _count_pvalue(np.clip(x - lo, 0, None), pmf, hi - lo) > 1e-4


def test_counts_with_array_parameters_edges_and_errors(device):
    g = ac.random.default_rng(33)
    lam = ac.asarray([[0.0], [2.0], [50.0]], device=device)
    x = host(g.poisson(lam, size=(3, 20_000)))
    assert x.shape == (3, 20_000) and x.dtype == np.int64
    np.testing.assert_array_equal(x[0], 0)
    assert abs(x[1].mean() - 2.0) < 0.06 and abs(x[2].mean() - 50.0) < 0.3
    # Counter k belongs to element k whatever the parameters: constant arrays equal numbers.
    np.testing.assert_array_equal(
        host(ac.random.default_rng(5).poisson(np.full(500, 12.5), device=device)),
        host(ac.random.default_rng(5).poisson(12.5, size=500, device=device)))
    np.testing.assert_array_equal(
        host(ac.random.default_rng(5).binomial(np.full(500, 40), np.full(500, 0.8), device=device)),
        host(ac.random.default_rng(5).binomial(40, 0.8, size=500, device=device)))
    y = host(g.binomial([[10], [1000]], [0.0, 0.5, 1.0], device=device))
    np.testing.assert_array_equal(y[:, 0], 0)
    np.testing.assert_array_equal(y[:, 2], [10, 1000])
    assert 0 <= y[0, 1] <= 10 and 400 <= y[1, 1] <= 600
    assert host(g.binomial(0, 0.3, size=4, device=device)).tolist() == [0, 0, 0, 0]
    # A number of trials is truncated, as NumPy casts it to int64.
    assert host(g.binomial(2.9, 1.0, device=device)) == 2
    assert host(g.poisson(3.0, size=(0, 4), device=device)).shape == (0, 4)
    for bad, match in [(-1.0, "lam < 0"), (np.nan, "lam < 0"), (1e19, "too large"),
                       (np.inf, "too large"), ([1.0, -2.0], "lam < 0")]:
        with pytest.raises(ValueError, match=match):
            g.poisson(bad, device=device)
    for n, p, match in [(-1, 0.5, "n < 0"), (5, 1.5, "p < 0"), (5, np.nan, "p < 0"),
                        ([3, -1], 0.5, "n < 0"), (2**60, 0.5, "2\\^53")]:
        with pytest.raises(ValueError, match=match):
            g.binomial(n, p, device=device)
    with pytest.raises(TypeError, match="integers"):
        g.binomial([2.5, 3.0], 0.5, device=device)
    with pytest.raises(ValueError, match="broadcast"):
        g.binomial([3, 4], [0.1, 0.2, 0.3], device=device)
    with pytest.raises(ValueError, match="broadcast"):
        g.poisson([1.0, 2.0, 3.0], size=(2,), device=device)


@pytest.mark.parametrize("low,high,dtype", [
    (0, 10, np.int64), (-5, 7, np.int8), (0, 256, np.uint8), (100, 1100, np.uint16),
    (-1000, 1000, np.int32), (0, 3, np.uint64), (0, 2, np.bool_)])
def test_integers_chi_square_uniform(device, low, high, dtype):
    x = host(ac.random.default_rng(5).integers(low, high, size=N, dtype=dtype, device=device))
    assert x.dtype == dtype
    v = x.astype(np.int64)
    assert v.min() >= low and v.max() < high
    counts = np.bincount(v - low, minlength=high - low)
    assert chi_square_pvalue(counts, np.full(high - low, N / (high - low))) > 1e-4


def test_integers_full_64_bit_ranges_and_endpoint(device):
    g = ac.random.default_rng(6)
    i = host(g.integers(np.iinfo(np.int64).min, np.iinfo(np.int64).max, endpoint=True,
                        size=10_000, device=device))
    assert i.dtype == np.int64 and (i < 0).mean() == pytest.approx(0.5, abs=0.03)
    u = host(g.integers(0, 2 ** 64, size=10_000, dtype=np.uint64, device=device))
    assert (u >= 2 ** 63).mean() == pytest.approx(0.5, abs=0.03)
    e = host(g.integers(3, 5, endpoint=True, size=10_000, device=device))
    assert set(np.unique(e)) == {3, 4, 5}
    assert set(np.unique(host(g.integers(4, size=1000, device=device)))) == {0, 1, 2, 3}


def test_integers_with_a_range_just_past_half_is_unbiased(device):
    # 2^31 + 1 values in 32 bits: a biased multiply would favour the low half visibly.
    x = host(ac.random.default_rng(7).integers(0, 2 ** 31 + 1, size=N, dtype=np.int64, device=device))
    assert abs((x < 2 ** 30).mean() - 0.5 * 2 ** 31 / (2 ** 31 + 1)) < 5 * math.sqrt(0.25 / N)


# ------------------------------------------------------------------------ reproducibility

def test_same_seed_same_values_and_calls_continue_the_stream(device):
    a, b = ac.random.default_rng(123), ac.random.default_rng(123)
    np.testing.assert_array_equal(host(a.random(1000, device=device)), host(b.random(1000, device=device)))
    # Two calls of 10 and 20 are one call of 30: element k uses counter k past earlier calls.
    whole = host(ac.random.default_rng(9).standard_normal(30, device=device))
    g = ac.random.default_rng(9)
    split = np.concatenate([host(g.standard_normal(10, device=device)),
                            host(g.standard_normal((4, 5), device=device)).ravel()])
    np.testing.assert_array_equal(whole, split)
    assert not np.array_equal(host(ac.random.default_rng(124).random(10)),
                              host(ac.random.default_rng(123).random(10)))


def test_values_match_across_devices(device):
    for method, kwargs in [("random", {}), ("standard_normal", {"dtype": np.float32}),
                           ("standard_exponential", {}), ("integers", {"low": -9, "high": 9})]:
        ref = host(getattr(ac.random.default_rng(55), method)(size=(7, 11), device="cpu", **kwargs))
        got = host(getattr(ac.random.default_rng(55), method)(size=(7, 11), device=device, **kwargs))
        np.testing.assert_array_equal(ref, got)


def test_values_do_not_depend_on_the_thread_count():
    code = ("import accel as ac, numpy as np, sys; g = ac.random.default_rng(77); "
            "a = np.concatenate([ac.asnumpy(g.standard_normal(300001, dtype=np.float32)).view(np.uint32), "
            "ac.asnumpy(g.integers(0, 1000, size=300001)).view(np.uint32)]); "
            "sys.stdout.write(str(hash(a.tobytes())))")
    results = set()
    for threads in ("1", "2", "3"):
        env = dict(os.environ, ACCEL_NUM_THREADS=threads, PYTHONHASHSEED="0")
        results.add(subprocess.run([sys.executable, "-c", code], env=env, check=True,
                                   capture_output=True, text=True).stdout)
    assert len(results) == 1


def test_spawned_streams_differ_and_are_reproducible():
    parent = ac.random.default_rng(1)
    kids = parent.spawn(3)
    draws = [host(k.random(100)) for k in kids] + [host(parent.random(100))]
    for i in range(len(draws)):
        for j in range(i + 1, len(draws)):
            assert not np.array_equal(draws[i], draws[j])
    again = ac.random.default_rng(1).spawn(3)
    np.testing.assert_array_equal(host(again[2].random(100)), draws[2])


def test_seeds_of_many_words_and_sequences():
    big = 2 ** 200 + 12345
    np.testing.assert_array_equal(host(ac.random.default_rng(big).random(5)),
                                  host(ac.random.default_rng(big).random(5)))
    assert not np.array_equal(host(ac.random.default_rng([1, 2]).random(5)),
                              host(ac.random.default_rng([2, 1]).random(5)))
    g = ac.random.default_rng()
    assert ac.random.default_rng(g) is g
    assert "not" in ac.random.__doc__ and "reproduced" in ac.random.__doc__


# ------------------------------------------------------------------------ shapes, out=, errors

def test_shapes_dtypes_and_scalars(device):
    g = ac.random.default_rng(0)
    assert g.random(device=device).shape == ()
    assert g.random((2, 3, 4), device=device).shape == (2, 3, 4)
    assert g.random(0, device=device).shape == (0,)
    assert g.standard_normal((5,), dtype="float32", device=device).dtype == ac.float32
    assert g.integers(5, size=(2, 2), device=device).dtype == ac.int64
    assert str(g.random(3, device=device).device).startswith(device)


def test_out_is_filled_in_place(device):
    g = ac.random.default_rng(8)
    out = ac.zeros((10, 10), dtype=ac.float32, device=device)
    r = g.random(dtype=np.float32, out=out)
    assert r is out
    np.testing.assert_array_equal(host(out),
                                  host(ac.random.default_rng(8).random((10, 10), dtype=np.float32, device=device)))
    view = ac.zeros((4, 6), device=device)[:, ::2]
    g.standard_normal(out=view)
    assert np.all(host(view) != 0)
    with pytest.raises(ValueError):
        g.random(size=(3,), out=ac.zeros((4,), device=device))
    with pytest.raises(TypeError):
        g.random(out=ac.zeros((4,), dtype=ac.float32, device=device))


def test_bad_arguments_raise_typed_errors():
    g = ac.random.default_rng(0)
    with pytest.raises(TypeError):
        g.random(3, dtype=np.int32)
    with pytest.raises(TypeError):
        g.standard_normal(3, dtype=np.complex64)
    with pytest.raises(TypeError):
        g.integers(0, 5, dtype=np.float64)
    with pytest.raises(ValueError):
        g.integers(5, 5)
    with pytest.raises(ValueError):
        g.integers(0, 300, dtype=np.uint8)
    with pytest.raises(ValueError):
        g.integers(-1, 3, dtype=np.uint32)
    with pytest.raises(ValueError):
        g.normal(0, -1.0)
    with pytest.raises(ValueError):
        g.random(-1)
    with pytest.raises(ValueError):
        ac.random.default_rng(-3)
    with pytest.raises(TypeError):
        ac.random.default_rng(1.5)
    with pytest.raises(TypeError):
        g.random(2.5)


# ------------------------------------------------------------------------ permutations

def test_permutation_shuffle_and_choice():
    g = ac.random.default_rng(10)
    p = host(g.permutation(1000))
    assert sorted(p.tolist()) == list(range(1000)) and not np.array_equal(p, np.arange(1000))
    x = ac.arange(20).reshape(10, 2)
    px = host(g.permutation(x))
    assert sorted(px[:, 0].tolist()) == list(range(0, 20, 2)) and np.all(px[:, 1] == px[:, 0] + 1)
    y = ac.arange(50)
    g.shuffle(y)
    assert sorted(host(y).tolist()) == list(range(50))
    c = host(g.choice(5, size=N))
    counts = np.bincount(c, minlength=5)
    assert chi_square_pvalue(counts, np.full(5, N / 5)) > 1e-4
    no_repeat = host(g.choice(ac.arange(100) * 3, size=40, replace=False))
    assert len(set(no_repeat.tolist())) == 40 and np.all(no_repeat % 3 == 0)
    with pytest.raises(ValueError):
        g.choice(5, size=6, replace=False)


def test_choice_with_probabilities():
    g = ac.random.default_rng(12)
    p = np.array([0.1, 0.0, 0.2, 0.3, 0.4])
    c = host(g.choice(5, size=N, p=p))
    counts = np.bincount(c, minlength=5)
    assert counts[1] == 0  # probability 0: never
    assert chi_square_pvalue(counts[p > 0], N * p[p > 0]) > 1e-4
    picked = host(g.choice(ac.arange(5) * 10, size=(2, 3), p=p))
    assert picked.shape == (2, 3) and set(picked.ravel().tolist()) <= {0, 20, 30, 40}
    # Without replacement: distinct, never a zero, and the first pick in proportion to p.
    firsts = []
    for _ in range(3000):
        s = host(g.choice(5, size=4, replace=False, p=p))
        assert len(set(s.tolist())) == 4 and 1 not in s.tolist()
        firsts.append(s[0])
    assert chi_square_pvalue(np.bincount(firsts, minlength=5)[p > 0], 3000 * p[p > 0]) > 1e-4
    # The second pick among those left: after 4 (p 0.4), 3 comes with 0.3 / 0.6.
    pairs = [tuple(host(g.choice(5, size=2, replace=False, p=p)).tolist()) for _ in range(3000)]
    after4 = [b for a, b in pairs if a == 4]
    assert abs(np.mean(np.array(after4) == 3) - 0.5) < 5 * np.sqrt(0.25 / len(after4))
    for bad in ([0.5, 0.5], [0.2] * 4 + [0.3], [-0.1, 0.3, 0.3, 0.3, 0.2], [np.nan] * 5):
        with pytest.raises(ValueError):
            g.choice(5, p=bad)
    with pytest.raises(ValueError, match="non-zero"):
        g.choice(5, size=5, replace=False, p=p)


def test_permuted_shuffles_each_slice_independently():
    g = ac.random.default_rng(13)
    x = np.arange(6 * 50).reshape(6, 50)
    rows = host(g.permuted(ac.asarray(x), axis=1))
    assert all(sorted(r.tolist()) == x[i].tolist() for i, r in enumerate(rows))
    assert len({tuple(np.argsort(r) % 50) for r in rows}) == 6  # each row its own order
    cols = host(g.permuted(ac.asarray(x), axis=0))
    assert all(sorted(cols[:, j].tolist()) == x[:, j].tolist() for j in range(50))
    flat = host(g.permuted(ac.asarray(x)))
    assert flat.shape == x.shape and sorted(flat.ravel().tolist()) == x.ravel().tolist()
    out = ac.asarray(x, copy=True)
    assert g.permuted(out, axis=-1, out=out) is out
    assert all(sorted(r.tolist()) == x[i].tolist() for i, r in enumerate(host(out)))
    with pytest.raises(np.exceptions.AxisError):
        g.permuted(ac.asarray(x), axis=2)


@pytest.mark.parametrize("method", ["svd", "eigh", "cholesky"])
def test_multivariate_normal_mean_and_covariance(method):
    g = ac.random.default_rng(14)
    mean = np.array([1.0, -2.0, 0.5])
    cov = np.array([[2.0, 0.6, 0.2], [0.6, 1.0, -0.3], [0.2, -0.3, 0.5]])
    x = host(g.multivariate_normal(mean, cov, size=N, method=method))
    assert x.shape == (N, 3) and x.dtype == np.float64
    assert np.all(np.abs(x.mean(axis=0) - mean) < 5 * np.sqrt(np.diag(cov) / N))
    assert np.allclose(np.cov(x.T), cov, atol=0.02)
    assert g.multivariate_normal(mean, cov, size=(2, 4), method=method).shape == (2, 4, 3)
    assert g.multivariate_normal(mean, cov, method=method).shape == (3,)


def test_multivariate_normal_checks_its_covariance():
    g = ac.random.default_rng(15)
    singular = np.array([[1.0, 1.0], [1.0, 1.0]])  # positive semi-definite: fine for svd
    x = host(g.multivariate_normal([0.0, 0.0], singular, size=1000))
    np.testing.assert_allclose(x[:, 0], x[:, 1], atol=1e-7)
    indefinite = np.array([[1.0, 2.0], [2.0, 1.0]])
    with pytest.warns(RuntimeWarning, match="positive-semidefinite"):
        g.multivariate_normal([0.0, 0.0], indefinite)
    with pytest.raises(ValueError, match="positive-semidefinite"):
        g.multivariate_normal([0.0, 0.0], indefinite, check_valid="raise")
    with pytest.raises(ValueError):
        g.multivariate_normal([0.0, 0.0], np.eye(3))
    with pytest.raises(ac.linalg.LinAlgError):
        g.multivariate_normal([0.0, 0.0], indefinite, method="cholesky")
