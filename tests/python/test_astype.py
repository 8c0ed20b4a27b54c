"""astype between every pair of dtypes on every device (the `device` fixture of conftest.py)
against NumPy, bit for bit: contiguous, stepped, reversed, transposed and broadcast sources, into
a view, 0-d and empty arrays, and strided copies.

A float cast to an integer type that cannot hold it (NaN, inf, out of range) is undefined in C
and in NumPy (x86 gives the minimum integer, the GPU saturates): such values are not compared."""

import itertools
import warnings

import numpy as np

import accel as ac
from device_arrays import DTYPES
from elementwise_oracle import values


def castable_values(src, dst, n, rng):
    """Values of dtype `src` whose conversion to `dst` NumPy defines: every value between integer
    types and into floats; floats into integers only when the integer holds their truncation."""
    s, d = np.dtype(src), np.dtype(dst)
    if s.kind in "fc" and d.kind in "iu":
        info = np.iinfo(d)
        lo, hi = max(int(info.min), -10**6), min(int(info.max), 10**6)
        v = rng.uniform(lo, hi, n)
        v[: 6] = [0.0, -0.0, 0.75, lo + 0.5, hi - 0.5, lo]  # truncation toward zero
        out = v.astype(s)
        if s.kind == "c":
            out = (v + 1j * rng.standard_normal(n)).astype(s)
        # float16/float32 may round a value past the integer's range: keep what still fits.
        real = (out.real if s.kind == "c" else out).astype(np.float64)
        ok = (np.trunc(real) >= info.min) & (np.trunc(real) <= info.max)
        return out[ok]
    v = values(src, n, rng)
    if s.kind == "f" and d.kind == "f":
        v[:4] = np.array([1e-45, -1e-40, 3.4e38, 1e-30], np.float64).astype(s)
    return v


def test_astype_every_dtype_pair_and_layout(device):
    rng = np.random.default_rng(9)
    for i, j in itertools.product(range(len(DTYPES)), range(len(DTYPES))):
        src, dst = DTYPES[i], DTYPES[j]
        a = castable_values(src, dst, 120, rng)
        with np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore")  # NumPy's ComplexWarning: the real part is kept
            want = a.astype(dst)
        ctx = f" ({src} -> {dst})"
        x = ac.asarray(a, device=device)
        got = ac.astype(x, dst)
        assert str(got.dtype) == dst
        np.testing.assert_array_equal(ac.asnumpy(got), want, err_msg="contiguous" + ctx)
        if (i + j) % 3:
            # Strided kernels address the same way for every pair (and each one compiles in
            # CI): a third of the pairs keeps this test's compile time down on a GPU.
            continue
        np.testing.assert_array_equal(ac.asnumpy(ac.astype(x[::3], dst)), want[::3],
                                      err_msg="stepped" + ctx)
        np.testing.assert_array_equal(ac.asnumpy(ac.astype(x[::-1], dst)), want[::-1],
                                      err_msg="reversed" + ctx)
        m = a[: (a.size // 6) * 6].reshape(6, -1)
        np.testing.assert_array_equal(ac.asnumpy(ac.astype(ac.asarray(m, device=device).T, dst)),
                                      want[: m.size].reshape(6, -1).T, err_msg="transposed" + ctx)
        out = ac.asarray(np.zeros(2 * a.size, dst), device=device)
        out[::2] = ac.astype(x, dst)
        np.testing.assert_array_equal(ac.asnumpy(out)[::2], want, err_msg="into a view" + ctx)
        np.testing.assert_array_equal(ac.asnumpy(out)[1::2], np.zeros(a.size, dst))


def test_astype_of_broadcast_and_zero_d_and_empty(device):
    x = ac.broadcast_to(ac.asarray(np.array([1.5, -2.5, 3.0], np.float32), device=device), (4, 3))
    np.testing.assert_array_equal(ac.asnumpy(ac.astype(x, ac.int16)),
                                  np.broadcast_to(np.array([1, -2, 3], np.int16), (4, 3)))
    np.testing.assert_array_equal(
        ac.asnumpy(ac.astype(ac.asarray(np.float64(2.75), device=device), ac.complex64)),
        np.complex64(2.75))
    e = ac.astype(ac.asarray(np.zeros((0, 5), np.int8), device=device), ac.float64)
    assert e.shape == (0, 5) and ac.asnumpy(e).dtype == np.float64


def test_strided_copies(device):
    a = np.arange(60, dtype=np.int64).reshape(5, 12)
    x = ac.asarray(a, device=device)
    np.testing.assert_array_equal(ac.asnumpy(ac.asarray(x[:, 1::3], copy=True)), a[:, 1::3])
    np.testing.assert_array_equal(ac.asnumpy(ac.asarray(x.T, copy=True)), a.T)
