"""lexsort, partition and argpartition against NumPy. lexsort must equal NumPy's indices (both
are stable). partition's element order is unspecified apart from the kth places, so the test
checks what NumPy promises: the kth values equal NumPy's, nothing before a kth place is larger,
nothing after it smaller, and the result is a permutation of the input."""

import numpy as np
import pytest

import accel as ac


DTYPES = ["float64", "float32", "int64", "uint8", "int16", "bool"]


def _data(rng, shape, dtype):
    a = rng.integers(-5, 6, shape).astype(dtype)  # many ties: stability matters
    if dtype.startswith("float") and a.size > 2:
        a.flat[[0, a.size // 2]] = [np.nan, -0.0]
    return a


@pytest.mark.parametrize("dtype", DTYPES)
def test_lexsort_matches_numpy(device, dtype):
    rng = np.random.default_rng(DTYPES.index(dtype))
    for shape in [(0,), (1,), (9,), (4, 7)]:
        keys = [_data(rng, shape, dtype) for _ in range(3)]
        for axis in ([-1, 0] if len(shape) == 2 else [-1]):
            want = np.lexsort(keys, axis=axis)
            got = ac.lexsort([ac.asarray(k, device=device) for k in keys], axis=axis)
            assert ac.asnumpy(got).tolist() == want.tolist()
            stacked = ac.asarray(np.stack(keys), device=device)
            assert ac.asnumpy(ac.lexsort(stacked, axis=axis)).tolist() == want.tolist()


def _check_partition(a, kths, axis, got_values):
    s = np.sort(a, axis=axis)
    g = np.moveaxis(got_values, axis, -1)
    s = np.moveaxis(s, axis, -1)
    for k in kths:
        np.testing.assert_array_equal(g[..., k], s[..., k])
        kk = k % s.shape[-1]
        # nothing larger before, nothing smaller after (NaNs are largest)
        before = g[..., :kk]
        after = g[..., kk + 1:]
        pivot = g[..., kk:kk + 1]
        with np.errstate(invalid="ignore"):
            assert not np.any(before > pivot) and not np.any(after < pivot)
    np.testing.assert_array_equal(np.sort(g, axis=-1), s)


@pytest.mark.parametrize("dtype", DTYPES)
def test_partition_keeps_numpys_promises(device, dtype):
    rng = np.random.default_rng(10 + DTYPES.index(dtype))
    for shape, axis, kth in [((9,), -1, 4), ((9,), 0, [0, 8, -1]), ((4, 7), 1, 3),
                             ((4, 7), 0, (1, 2)), ((5, 3), None, 7)]:
        a = _data(rng, shape, dtype)
        x = ac.asarray(a, device=device)
        kths = list(np.atleast_1d(kth))
        flat = a.reshape(-1) if axis is None else a
        ax = -1 if axis is None else axis
        got = ac.asnumpy(ac.partition(x, kth, axis=axis))
        assert got.dtype == np.partition(a, kth, axis=axis).dtype
        _check_partition(flat, kths, ax, got)
        idx = ac.asnumpy(ac.argpartition(x, kth, axis=axis))
        _check_partition(flat, kths, ax, np.take_along_axis(flat, idx, axis=ax))


def test_errors(device):
    x = ac.asarray(np.arange(5), device=device)
    with pytest.raises(ValueError, match=r"kth\(=5\) out of bounds \(5\)"):
        ac.partition(x, 5)
    with pytest.raises(ValueError, match="out of bounds"):
        ac.argpartition(x, [-6])
    with pytest.raises(TypeError):
        ac.partition(x, 1.5)
    with pytest.raises(ValueError, match="same shape"):
        ac.lexsort([x, ac.asarray(np.arange(3), device=device)])
    with pytest.raises(TypeError, match="len > 0"):
        ac.lexsort([])


def test_numpy_dispatch(device):
    x = ac.asarray(np.array([3, 1, 2]), device=device)
    assert isinstance(np.partition(x, 1), ac.ndarray)
    # NumPy dispatches lexsort on a tuple of keys (a list is converted, as NumPy does)
    assert ac.asnumpy(np.lexsort((x,))).tolist() == [1, 2, 0]
