"""accel.fft against numpy.fft: every length 1..256, lengths up to 4096 of each algorithm
(powers of 2, 3, 5, 7, mixed, primes through Bluestein) and one large prime, both precisions,
every function with n / s / axis / axes / norm / out=, round trips, batches, strided input,
empty and length-1 input, NaN propagation, dtypes and the typed errors.

Accuracy: the relative error max|a - b| / max|b| is bounded by a few ulp of the result's
dtype times log2(n) (NumPy's own rounding is part of the difference)."""

import math

import numpy as np
import pytest

import accel as ac

rng = np.random.default_rng(20261202)

ONE_AXIS = ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft"]
MANY_AXES = ["fftn", "ifftn", "rfftn", "irfftn", "fft2", "ifft2", "rfft2", "irfft2"]
NORMS = [None, "backward", "ortho", "forward"]
# Functions whose input is real (complex input is a TypeError); the others take complex input.
REAL_INPUT = {"rfft", "ihfft", "rfftn", "rfft2"}
PRIMES = [1009, 2003, 4093]
LENGTHS_TO_4096 = [512, 1024, 4096, 729, 2187, 625, 3125, 343, 2401, 360, 1000, 2310, 3000,
                   4095, 97 * 3, 127 * 8] + PRIMES


@pytest.fixture
def device(fft_device):
    return fft_device  # cpu, and cuda (cuFFT) where a GPU is usable


def eps_of(dtype):
    return np.finfo(np.dtype(dtype)).eps


def assert_close(got, expected, n, factor=4):
    """got (accel) against expected (NumPy) within factor ulp x log2(n) of got's dtype."""
    got_np = ac.asnumpy(got)
    assert got_np.shape == expected.shape
    if expected.size == 0:
        return
    scale = np.max(np.abs(expected))
    err = np.max(np.abs(got_np - expected)) / (scale if scale > 0 else 1)
    bound = factor * eps_of(got_np.dtype) * max(1.0, math.log2(max(n, 2)))
    assert err <= bound, f"relative error {err:.3g} > {bound:.3g} (n={n}, {got_np.dtype})"


def random_complex(shape, dtype=np.complex128):
    return (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(dtype)


def random_real(shape, dtype=np.float64):
    return rng.standard_normal(shape).astype(dtype)


def input_for(name, shape, precision):
    """A random input of `shape` for function `name`, single or double precision."""
    if name in REAL_INPUT:
        return random_real(shape, np.float32 if precision == "single" else np.float64)
    return random_complex(shape, np.complex64 if precision == "single" else np.complex128)


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
def test_fft_and_ifft_match_numpy_for_every_length_to_256(device, dtype):
    for n in range(1, 257):
        x = random_complex(n, dtype)
        a = ac.asarray(x, device=device)
        got = ac.fft.fft(a)
        assert got.dtype == ac.asarray(x).dtype
        assert_close(got, np.fft.fft(x), n)
        assert_close(ac.fft.ifft(a), np.fft.ifft(x), n)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_rfft_and_irfft_match_numpy_for_every_length_to_256(device, dtype):
    for n in range(1, 257):
        x = random_real(n, dtype)
        spectrum = ac.fft.rfft(ac.asarray(x, device=device))
        assert_close(spectrum, np.fft.rfft(x), n)
        back = ac.fft.irfft(spectrum, n)
        assert back.dtype == ac.asarray(x).dtype
        assert_close(back, np.fft.irfft(np.fft.rfft(x), n), n)


@pytest.mark.parametrize("n", LENGTHS_TO_4096)
@pytest.mark.parametrize("precision", ["single", "double"])
def test_lengths_of_every_algorithm_to_4096_match_numpy(device, n, precision):
    x = random_complex(n, np.complex64 if precision == "single" else np.complex128)
    a = ac.asarray(x, device=device)
    assert_close(ac.fft.fft(a), np.fft.fft(x), n)
    assert_close(ac.fft.ifft(a), np.fft.ifft(x), n)
    r = x.real.copy()
    assert_close(ac.fft.rfft(ac.asarray(r, device=device)), np.fft.rfft(r), n)
    assert_close(ac.fft.irfft(a, n), np.fft.irfft(x, n), n)


@pytest.mark.parametrize("precision", ["single", "double"])
def test_a_large_prime_length_matches_numpy(device, precision):
    n = 65537
    x = random_complex(n, np.complex64 if precision == "single" else np.complex128)
    assert_close(ac.fft.fft(ac.asarray(x, device=device)), np.fft.fft(x), n)


@pytest.mark.parametrize("n", [2**16, 2**20, 3**11, 10**6, 2 * 5**8])
@pytest.mark.parametrize("precision", ["single", "double"])
def test_large_lengths_match_numpy(device, n, precision):
    x = random_complex((2, n), np.complex64 if precision == "single" else np.complex128)
    a = ac.asarray(x, device=device)
    assert_close(ac.fft.fft(a), np.fft.fft(x), n)
    assert_close(ac.fft.ifft(a[1]), np.fft.ifft(x[1]), n)
    assert_close(ac.fft.rfft(ac.real(a[0])), np.fft.rfft(x[0].real), n)


@pytest.mark.parametrize("name", ONE_AXIS)
@pytest.mark.parametrize("norm", NORMS)
def test_one_axis_functions_with_n_axis_and_norm_match_numpy(device, name, norm):
    x = input_for(name, (6, 9, 10), "double")
    a = ac.asarray(x, device=device)
    ours, theirs = getattr(ac.fft, name), getattr(np.fft, name)
    for axis in (-1, 0, 1, -3):
        for n in (None, 1, 5, 9, 16, 17):
            assert_close(ours(a, n=n, axis=axis, norm=norm), theirs(x, n=n, axis=axis, norm=norm),
                         n or x.shape[axis])


@pytest.mark.parametrize("name", MANY_AXES)
@pytest.mark.parametrize("norm", NORMS)
def test_many_axes_functions_with_s_axes_and_norm_match_numpy(device, name, norm):
    x = input_for(name, (4, 6, 7), "double")
    a = ac.asarray(x, device=device)
    ours, theirs = getattr(ac.fft, name), getattr(np.fft, name)
    if name.endswith("2"):
        cases = [dict(), dict(s=(5, 8)), dict(axes=(0, 2)), dict(s=(3, 9), axes=(-1, 0))]
    else:
        cases = [dict(), dict(axes=(1,)), dict(axes=(2, 0)), dict(s=(5, 4, 9), axes=(0, 1, 2)),
                 dict(s=(3, 10), axes=(0, 2)), dict(s=(-1, 6), axes=(1, 2)), dict(axes=(-1,))]
    for kw in cases:
        assert_close(ours(a, norm=norm, **kw), theirs(x, norm=norm, **kw), 64)


def test_round_trips_give_the_input_back(device):
    for n in (1, 2, 7, 64, 101, 1000, 1009):
        x = random_complex(n)
        a = ac.asarray(x, device=device)
        assert_close(ac.fft.ifft(ac.fft.fft(a)), x, n)
        assert_close(ac.fft.fft(ac.fft.ifft(a, norm="ortho"), norm="ortho"), x, n)
        r = ac.asarray(x.real.copy(), device=device)
        assert_close(ac.fft.irfft(ac.fft.rfft(r), n), x.real, n)
        assert_close(ac.fft.hfft(ac.fft.ihfft(r), n), x.real, n)
    x = random_complex((3, 4, 5))
    a = ac.asarray(x, device=device)
    assert_close(ac.fft.ifftn(ac.fft.fftn(a)), x, 60)
    assert_close(ac.fft.irfftn(ac.fft.rfftn(ac.real(a)), s=(3, 4, 5)), x.real, 60)


@pytest.mark.parametrize("dtype,expected", [
    (np.float32, np.complex64), (np.complex64, np.complex64), (np.float64, np.complex128),
    (np.complex128, np.complex128), (np.int8, np.complex128), (np.int64, np.complex128),
    (np.uint16, np.complex128), (np.bool_, np.complex128), (np.float16, np.complex64)])
def test_result_dtypes_follow_numpy_2(device, dtype, expected):
    x = (rng.standard_normal(12) * 10).astype(dtype)
    got = ac.fft.fft(ac.asarray(x, device=device))
    assert got.dtype == ac.asarray(np.zeros(1, expected)).dtype
    assert_close(got, np.fft.fft(x), 12)
    if not np.issubdtype(dtype, np.complexfloating):
        assert_close(ac.fft.rfft(ac.asarray(x, device=device)), np.fft.rfft(x), 12)
    back = ac.fft.irfft(ac.asarray(x, device=device))
    assert back.dtype == ac.asarray(np.fft.irfft(x)).dtype


@pytest.mark.parametrize("norm", [None, "ortho", "forward"])
def test_float16_transforms_in_single_precision_with_numpys_rounded_norm_factor(device, norm):
    """NumPy 2: float16 gives complex64, irfft/hfft of float16 give float16, and the norm factor
    is rounded to float16 (1/12 is 2^-11 off: thousands of complex64 ulps)."""
    x = rng.standard_normal((3, 12)).astype(np.float16)
    a = ac.asarray(x, device=device)
    for name in ["fft", "ifft", "rfft", "ihfft", "irfft", "hfft", "fftn", "irfftn", "rfftn"]:
        want = getattr(np.fft, name)(x, norm=norm)
        got = getattr(ac.fft, name)(a, norm=norm)
        assert got.dtype == ac.asarray(want).dtype, name
        assert_close(got, want, 12)


def test_batches_and_strided_inputs_match_numpy(device):
    x = random_complex((300, 64), np.complex64)
    a = ac.asarray(x, device=device)
    assert_close(ac.fft.fft(a), np.fft.fft(x), 64)
    assert_close(ac.fft.fft(a, axis=0), np.fft.fft(x, axis=0), 300)
    big = random_complex((40, 30, 20))
    b = ac.asarray(big, device=device)
    views = [(b[::2, ::-3, 1::2], big[::2, ::-3, 1::2]),
             (ac.permute_dims(b, (2, 0, 1)), big.transpose(2, 0, 1)),
             (b[:, 5, :], big[:, 5, :])]
    for view, expected in views:
        for axis in range(expected.ndim):
            assert_close(ac.fft.fft(view, axis=axis), np.fft.fft(expected, axis=axis), 40)
            assert_close(ac.fft.rfft(ac.real(view), axis=axis),
                         np.fft.rfft(expected.real, axis=axis), 40)
            assert_close(ac.fft.irfft(view, axis=axis), np.fft.irfft(expected, axis=axis), 80)
        assert_close(ac.fft.fftn(view), np.fft.fftn(expected), 40)


@pytest.mark.parametrize("n", [1009, 2003])
def test_batches_of_bluestein_lengths_match_numpy(device, n):
    # Blocks of prime-length lines run interleaved through Bluestein's inner transform.
    x = random_complex((7, n), np.complex64)
    a = ac.asarray(x, device=device)
    assert_close(ac.fft.fft(a), np.fft.fft(x), n)
    assert_close(ac.fft.ifft(a.T, axis=0), np.fft.ifft(x.T, axis=0), n)
    assert_close(ac.fft.rfft(ac.real(a)), np.fft.rfft(x.real), n)
    assert_close(ac.fft.irfft(a[:, :n // 2 + 1], n), np.fft.irfft(x[:, :n // 2 + 1], n), n)
    y = random_complex((2 * n, 5))
    assert_close(ac.fft.fft(ac.asarray(y, device=device)[::2], axis=0), np.fft.fft(y[::2], axis=0), n)


def test_empty_other_axes_and_length_one(device):
    x = np.zeros((3, 0), np.complex128)
    got = ac.fft.fft(ac.asarray(x, device=device), axis=0)
    assert got.shape == (3, 0)
    assert ac.fft.rfft(ac.asarray(np.zeros((0, 4)), device=device)).shape == (0, 3)
    one = random_complex(1)
    assert_close(ac.fft.fft(ac.asarray(one, device=device)), np.fft.fft(one), 1)
    assert_close(ac.fft.irfft(ac.asarray(one, device=device), 1), np.fft.irfft(one, 1), 1)
    # An empty axis with n given is a zero-padded (all zero) input, as NumPy.
    assert_close(ac.fft.fft(ac.asarray(np.zeros(0, np.complex128), device=device), n=4),
                 np.fft.fft(np.zeros(0, np.complex128), n=4), 4)


def test_nan_reaches_every_output_of_its_line_only(device):
    for n in (8, 12, 101, 1009):
        x = random_complex((3, n))
        x[1, n // 3] = np.nan
        got = ac.asnumpy(ac.fft.fft(ac.asarray(x, device=device)))
        expected = np.fft.fft(x)
        assert np.array_equal(np.isnan(got.real) | np.isnan(got.imag),
                              np.isnan(expected.real) | np.isnan(expected.imag))
        assert np.all(np.isnan(got[1].real) | np.isnan(got[1].imag))
        assert np.all(np.isfinite(got[[0, 2]]))


def test_out_receives_the_result(device):
    x = random_complex((4, 8))
    out = ac.empty((4, 8), dtype=ac.complex128, device=device)
    result = ac.fft.fft(ac.asarray(x, device=device), out=out)
    assert result is out
    assert_close(out, np.fft.fft(x), 8)
    out2 = ac.empty((4, 8), dtype=ac.complex128, device=device)
    assert ac.fft.fftn(ac.asarray(x, device=device), out=out2) is out2
    assert_close(out2, np.fft.fftn(x), 32)
    with pytest.raises(ValueError, match="shape"):
        ac.fft.fft(ac.asarray(x, device=device), out=ac.empty((4, 9), dtype=ac.complex128,
                                                               device=device))
    with pytest.raises(TypeError):  # complex into float64 is not a same_kind cast
        ac.fft.fft(ac.asarray(x, device=device), out=ac.empty((4, 8), dtype=ac.float64,
                                                               device=device))


def test_errors_name_what_was_wrong(device):
    a = ac.asarray(random_complex((4, 6)), device=device)
    with pytest.raises(ValueError, match="n=0"):
        ac.fft.fft(a, n=0)
    with pytest.raises(ValueError, match="n=-3"):
        ac.fft.rfft(ac.real(a), n=-3)
    with pytest.raises(ValueError, match="n=0"):  # the default 2 (m - 1) of a length-1 axis
        ac.fft.irfft(a[:, :1])
    with pytest.raises(ValueError, match="n=0"):
        ac.fft.fft(ac.asarray(np.zeros(0, np.complex64), device=device))
    with pytest.raises(ValueError, match="norm"):
        ac.fft.fft(a, norm="unitary")
    with pytest.raises(ValueError, match="norm"):
        ac.fft.fftn(a, norm=1)
    with pytest.raises(ac.AxisError, match="axis 2"):
        ac.fft.fft(a, axis=2)
    with pytest.raises(ac.AxisError):
        ac.fft.fftn(a, axes=(0, -3))
    with pytest.raises(ac.AxisError):
        ac.fft.fft(ac.asarray(1.0 + 0j, device=device))
    with pytest.raises(TypeError, match="real input"):
        ac.fft.rfft(a)
    with pytest.raises(ValueError, match="different lengths"):
        ac.fft.fftn(a, s=(4, 6), axes=(0,))


@pytest.mark.parametrize("n", [1, 2, 5, 8, 9, 100])
def test_frequencies_match_numpy(device, n):
    for d in (1.0, 0.25, 3):
        assert_close(ac.fft.fftfreq(n, d, device=device), np.fft.fftfreq(n, d), 1)
        assert_close(ac.fft.rfftfreq(n, d, device=device), np.fft.rfftfreq(n, d), 1)
    got = ac.fft.fftfreq(n, 0.5, dtype=ac.float32, device=device)
    assert got.dtype == ac.float32
    assert_close(got, np.fft.fftfreq(n, 0.5).astype(np.float32), 1)
    assert ac.fft.rfftfreq(n, device=device).dtype == ac.float64
    assert ac.fft.fftfreq(n, device=device).device == ac.asarray([0], device=device).device


def test_shifts_match_numpy(device):
    x = np.arange(5 * 6 * 7).reshape(5, 6, 7).astype(np.float32)
    a = ac.asarray(x, device=device)
    for axes in (None, 0, -1, (0, 2), [1]):
        assert np.array_equal(ac.asnumpy(ac.fft.fftshift(a, axes=axes)), np.fft.fftshift(x, axes))
        assert np.array_equal(ac.asnumpy(ac.fft.ifftshift(a, axes=axes)),
                              np.fft.ifftshift(x, axes))
    assert np.array_equal(ac.asnumpy(ac.fft.ifftshift(ac.fft.fftshift(a))), x)
    with pytest.raises(ac.AxisError, match="axis 3"):
        ac.fft.fftshift(a, axes=3)


def test_numpy_fft_functions_dispatch_to_accel(device):
    x = random_complex((5, 8), np.complex64)
    a = ac.asarray(x, device=device)
    for name in ("fft", "ifft", "fftn", "fft2", "hfft"):
        got = getattr(np.fft, name)(a)
        assert isinstance(got, ac.ndarray), name
        assert_close(got, getattr(np.fft, name)(x), 40)
    got = np.fft.rfft(ac.real(a), n=10, axis=0)
    assert isinstance(got, ac.ndarray)
    assert_close(got, np.fft.rfft(x.real, n=10, axis=0), 10)


@pytest.mark.cuda
@pytest.mark.skipif(not ac.cuda.is_available(), reason="needs a CUDA GPU")
def test_cuda_plans_are_cached_per_length_and_batch_and_dropped_by_free_cached():
    a = ac.asarray(random_complex(48).reshape(6, 8), device="cuda")
    ac.cuda.free_cached()
    assert ac.cuda.cufft_info()["cached_plans"] == 0
    first = ac.asnumpy(ac.fft.fft(a))
    assert ac.cuda.cufft_info()["cached_plans"] == 1
    assert np.array_equal(ac.asnumpy(ac.fft.fft(a)), first)  # the cached plan, same result
    assert ac.cuda.cufft_info()["cached_plans"] == 1
    ac.fft.fft(a, n=16)
    assert ac.cuda.cufft_info()["cached_plans"] == 2
    ac.cuda.free_cached()
    assert ac.cuda.cufft_info()["cached_plans"] == 0


def test_random_shapes_strides_dtypes_and_arguments_match_numpy(device):
    """Seeded random cases: 1-4 dimensions, a strided or reversed view, any axis, n / s that
    crop or pad, every norm, each function and both precisions."""
    cases = np.random.default_rng(7)
    for _ in range(150):
        name = cases.choice(ONE_AXIS + ["fftn", "ifftn", "rfftn", "irfftn"])
        precision = cases.choice(["single", "double"])
        shape = tuple(int(v) for v in cases.integers(1, 12, size=cases.integers(1, 5)))
        base = input_for(name, tuple(2 * v for v in shape), precision)
        # A view with steps of 2 (and a reversed axis) of the doubled array.
        index = tuple(slice(None, None, -2) if cases.random() < 0.3 else slice(0, None, 2)
                      for _ in shape)
        x = base[index]
        a = ac.asarray(base, device=device)[index]
        norm = cases.choice(NORMS)
        if name in ONE_AXIS:
            axis = int(cases.integers(-x.ndim, x.ndim))
            n = None if cases.random() < 0.5 else int(cases.integers(1, 20))
            if n is None and name in ("irfft", "hfft") and x.shape[axis] == 1:
                n = 2
            kw = dict(n=n, axis=axis, norm=norm)
            size = n or x.shape[axis]
        else:
            k = int(cases.integers(1, x.ndim + 1))
            axes = [int(v) for v in cases.permutation(x.ndim)[:k]]
            s = [int(v) for v in cases.integers(1, 14, size=k)] if cases.random() < 0.5 else None
            if s is None and name == "irfftn" and x.shape[axes[-1]] == 1:
                s = [x.shape[ax] for ax in axes[:-1]] + [2]
            kw = dict(s=s, axes=axes, norm=norm)
            size = math.prod(s or [x.shape[ax] for ax in axes])
        got = getattr(ac.fft, name)(a, **kw)
        expected = getattr(np.fft, name)(x, **kw)
        assert got.dtype == ac.asarray(np.zeros(0, expected.dtype)).dtype, (name, kw)
        assert_close(got, expected, size, factor=8)
