"""Arrays for the tests that run on every device (the `device` fixture of conftest.py): random
values of any dtype, placed on a device in another memory layout made as a device view (no
kernel involved), and a comparison with NumPy whose tolerance grows with the length of the sums
(k products of values in [-1, 1])."""

import numpy as np

import accel as ac

# Every dtype accel shares with NumPy (bfloat16, which NumPy lacks, is tested against ml_dtypes
# in test_bfloat16.py). Test files take these lists, or lists derived from them.
DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
          "float16", "float32", "float64", "complex64", "complex128"]
INTS = [d for d in DTYPES if d[0] in "iu"]
FLOATS = [d for d in DTYPES if d.startswith("float")]
COMPLEX = [d for d in DTYPES if d.startswith("complex")]
# float16's own behaviour (a storage type computed in float32: sums, products, casts) is
# tested in test_float16.py; the lists below leave it out where a test's tolerances or values
# are for the wider types.
WITHOUT_FLOAT16 = [d for d in DTYPES if d != "float16"]
FLOAT_DTYPES = [d for d in FLOATS + COMPLEX if d != "float16"]
INT_DTYPES = ["bool"] + INTS
ALL_DTYPES = FLOAT_DTYPES + INT_DTYPES


def random_array(rng, shape, dtype):
    if dtype == "bool":
        return rng.integers(0, 2, shape).astype(bool)
    if np.dtype(dtype).kind in "iu":
        return rng.integers(-100, 100, shape).astype(dtype)  # wraps for unsigned, on purpose
    x = rng.uniform(-1, 1, shape)
    if np.dtype(dtype).kind == "c":
        x = x + 1j * rng.uniform(-1, 1, shape)
    return x.astype(dtype)


def on_device(x, device, kind="contiguous"):
    """x on `device` in another memory layout, made as a device view (no kernel involved)."""
    if kind == "transposed" and x.ndim >= 2:
        return ac.swapaxes(ac.asarray(np.ascontiguousarray(np.swapaxes(x, -1, -2)), device=device), -1, -2)
    if kind == "sliced" and x.ndim >= 1:
        big = np.zeros(tuple(2 * s for s in x.shape), dtype=x.dtype)
        big[tuple(slice(None, None, 2) for _ in x.shape)] = x
        return ac.asarray(big, device=device)[tuple(slice(None, None, 2) for _ in x.shape)]
    if kind == "reversed" and x.ndim >= 1:
        return ac.asarray(np.ascontiguousarray(x[..., ::-1]), device=device)[..., ::-1]
    return ac.asarray(x, device=device)


def check_close(got, want, k=1):
    got = ac.asnumpy(got)
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    assert got.shape == want.shape, (got.shape, want.shape)
    if want.dtype.kind in "fc":
        # Sums of k products of values in [-1, 1]: rounding grows with k, not with |result|.
        eps = np.finfo(want.dtype).eps
        np.testing.assert_allclose(got, want, rtol=8 * eps, atol=4 * eps * max(k, 1))
    else:
        np.testing.assert_array_equal(got, want)
