"""matmul (cuBLAS and accel's own kernel) and advanced indexing (gather / scatter kernels) on
device='cuda' against NumPy: dtypes, vectors, batches with broadcasting, transposed / sliced /
reversed operands made as device views, empty axes, k = 0, NumPy's float32 rounding (no TF32),
integer wrap-around; getitem / setitem with integer arrays, take / put, boolean masks, negative
and repeated indices, and the out-of-bounds errors. Every test needs an NVIDIA GPU
(scripts/gpu-check runs them); without one they are skipped with the reason."""

import numpy as np
import pytest

import accel as ac

HAVE_GPU = ac.cuda.is_available()
NO_GPU_REASON = "no CUDA driver/GPU: " + ac.cuda.unavailable_reason().split("\n")[0]

pytestmark = [pytest.mark.cuda, pytest.mark.skipif(not HAVE_GPU, reason=NO_GPU_REASON)]

FLOAT_DTYPES = ["float32", "float64", "complex64", "complex128"]
INT_DTYPES = ["bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64"]
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


def on_gpu(x, kind="contiguous"):
    """x on the GPU in another memory layout, made as a device view (no kernel involved)."""
    if kind == "transposed" and x.ndim >= 2:
        return ac.swapaxes(ac.asarray(np.ascontiguousarray(np.swapaxes(x, -1, -2)), device="cuda"), -1, -2)
    if kind == "sliced" and x.ndim >= 1:
        big = np.zeros(tuple(2 * s for s in x.shape), dtype=x.dtype)
        big[tuple(slice(None, None, 2) for _ in x.shape)] = x
        return ac.asarray(big, device="cuda")[tuple(slice(None, None, 2) for _ in x.shape)]
    if kind == "reversed" and x.ndim >= 1:
        return ac.asarray(np.ascontiguousarray(x[..., ::-1]), device="cuda")[..., ::-1]
    return ac.asarray(x, device="cuda")


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


# ---------------------------------------------------------------- matmul

SHAPES = [  # (a, b), NumPy's matmul rules
    ((5,), (5,)),                    # vector . vector
    ((3, 5), (5,)),                  # matrix @ vector
    ((5,), (5, 4)),                  # vector @ matrix
    ((3, 5), (5, 4)),
    ((65, 33), (33, 70)),            # ragged 64-tiles in the kernel
    ((2, 3, 5), (5, 4)),             # batch @ one matrix (stride-0 batch)
    ((2, 1, 3, 5), (4, 5, 6)),       # broadcast batches: not uniformly strided
    ((4, 3, 0), (4, 0, 2)),          # k = 0: zeros
    ((0, 5), (5, 3)),                # empty result
    ((2, 0, 5), (2, 5, 3)),
]


@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("shapes", SHAPES, ids=str)
def test_matmul_matches_numpy(dtype, shapes):
    rng = np.random.default_rng(0)
    a, b = (random_array(rng, s, dtype) for s in shapes)
    want = np.matmul(a, b)
    k = shapes[0][-1]
    check_close(ac.matmul(on_gpu(a), on_gpu(b)), want, k)
    check_close(on_gpu(a) @ on_gpu(b), want, k)


@pytest.mark.parametrize("dtype", ["float32", "complex128", "int32", "bool"])
@pytest.mark.parametrize("la", ["transposed", "sliced", "reversed"])
@pytest.mark.parametrize("lb", ["contiguous", "transposed", "sliced", "reversed"])
def test_matmul_of_transposed_sliced_and_reversed_views(dtype, la, lb):
    rng = np.random.default_rng(1)
    a, b = random_array(rng, (3, 40, 70), dtype), random_array(rng, (70, 50), dtype)
    check_close(on_gpu(a, la) @ on_gpu(b, lb), a @ b, 70)


@pytest.mark.parametrize("dtype", FLOAT_DTYPES)
@pytest.mark.parametrize("la, lb", [("contiguous", "contiguous"), ("transposed", "transposed"),
                                    ("sliced", "reversed"), ("reversed", "sliced")])
def test_large_products_round_like_numpy(dtype, la, lb):
    # Large enough that layouts cuBLAS cannot read (steps in both axes, reversed) are packed for it.
    rng = np.random.default_rng(2)
    a, b = random_array(rng, (2, 300, 500), dtype), random_array(rng, (500, 200), dtype)
    check_close(on_gpu(a, la) @ on_gpu(b, lb), a @ b, 500)


def test_float32_matmul_does_not_round_inputs_to_tf32():
    # 1 + 2**-12 needs 12 mantissa bits; TF32 keeps 10 and would give exactly 256.
    a = np.full((256, 256), 1 + 2.0**-12, np.float32)
    b = np.ones((256, 256), np.float32)
    got = ac.asnumpy(on_gpu(a) @ on_gpu(b))
    assert np.all(got == np.float32(256 * (1 + 2.0**-12))), got[0, :4]


@pytest.mark.parametrize("dtype", ["int8", "uint8", "int32", "int64", "uint64"])
def test_integer_products_wrap_around_like_numpy(dtype):
    info = np.iinfo(dtype)
    a = np.full((3, 70), info.max // 3 + 7, dtype)
    b = np.full((70, 2), info.max // 5 + 3, dtype)
    with np.errstate(over="ignore"):
        want = a @ b
    check_close(on_gpu(a) @ on_gpu(b), want)


def test_bool_matmul_is_or_of_ands():
    a = np.array([[True, False, False], [False, False, False]])
    b = np.array([[False, True], [True, True], [False, False]])
    check_close(on_gpu(a) @ on_gpu(b), a @ b)


@pytest.mark.parametrize("dtype", ["float64", "complex64", "int16"])
def test_tensordot_vecdot_and_dot(dtype):
    rng = np.random.default_rng(3)
    x, y = random_array(rng, (3, 4, 5), dtype), random_array(rng, (4, 5, 2), dtype)
    check_close(ac.tensordot(on_gpu(x), on_gpu(y), axes=2), np.tensordot(x, y, axes=2), 20)
    check_close(ac.tensordot(on_gpu(x), on_gpu(y), axes=([1], [0])), np.tensordot(x, y, axes=([1], [0])), 4)
    u, v = random_array(rng, (6, 9), dtype), random_array(rng, (6, 9), dtype)
    check_close(ac.vecdot(on_gpu(u), on_gpu(v)), np.vecdot(u, v), 9)
    check_close(ac.vecdot(on_gpu(u), on_gpu(v), axis=0), np.vecdot(u, v, axis=0), 6)
    w = random_array(rng, (9,), dtype)
    check_close(ac.dot(on_gpu(u), on_gpu(w)), np.dot(u, w), 9)
    check_close(ac.dot(on_gpu(w), on_gpu(w)), np.dot(w, w), 9)


def test_matmul_results_stay_on_the_gpu_and_shape_errors_name_shapes():
    a = on_gpu(np.ones((2, 3), np.float32))
    assert str((a @ on_gpu(np.ones((3, 4), np.float32))).device).startswith("cuda")
    with pytest.raises(ValueError, match=r"\[matmul\] shapes \(2, 3\) and \(4, 4\) are not aligned"):
        ac.matmul(a, on_gpu(np.ones((4, 4), np.float32)))


# ---------------------------------------------------------------- advanced indexing

INDEX_DTYPES = ["bool", "uint8", "int16", "float32", "float64", "complex128"]


@pytest.mark.parametrize("dtype", INDEX_DTYPES)
def test_getitem_with_integer_arrays_matches_numpy(dtype):
    rng = np.random.default_rng(4)
    x = random_array(rng, (6, 7, 8), dtype)
    d = on_gpu(x)
    i = rng.integers(-6, 6, (3, 4))
    j = rng.integers(-8, 8, (4,))
    for key in [i, (slice(None), rng.integers(-7, 7, (5,))), (i, slice(None), j),
                (i[:, :1], slice(1, 5), j), (Ellipsis, j), (2, slice(None), j)]:
        check_close(d[key], x[key])
    # transposed and sliced sources, and a reversed index array
    check_close(on_gpu(x, "transposed")[i], x[i])
    check_close(on_gpu(x, "sliced")[..., j[::-1]], x[..., j[::-1]])


@pytest.mark.parametrize("dtype", INDEX_DTYPES)
def test_setitem_with_integer_arrays_matches_numpy(dtype):
    rng = np.random.default_rng(5)
    x = random_array(rng, (6, 7, 8), dtype)
    i = rng.integers(-6, 6, (3, 4))
    j = rng.integers(-8, 8, (4,))
    for key in [i, (i, slice(None), j), (Ellipsis, j), (slice(None), j[:2] % 7)]:
        want = x.copy()
        value = random_array(rng, want[key].shape, dtype)
        want[key] = value
        d = on_gpu(x)
        d[key] = on_gpu(value)
        check_close(d, want)


def test_setitem_with_repeated_indices_keeps_the_last_value():
    x = np.zeros(5, np.float64)
    idx = np.array([1, 3, 1, 1, -4, 3, 0], np.int64)
    values = np.arange(1, 8, dtype=np.float64)
    d = on_gpu(x)
    d[idx] = on_gpu(values)
    # NumPy assigns in order: each element keeps the value of its last occurrence (-4 is 1).
    want = x.copy()
    for k, v in zip(idx, values):
        want[k] = v
    check_close(d, want)
    # Many repeats over few rows, with a block per row.
    rng = np.random.default_rng(6)
    rows = rng.integers(-4, 4, 5000)
    vals = rng.standard_normal((5000, 3))
    want = np.zeros((4, 3))
    for r, v in zip(rows, vals):
        want[r] = v
    d = on_gpu(np.zeros((4, 3)))
    d[rows] = on_gpu(vals)
    check_close(d, want)


@pytest.mark.parametrize("dtype", ["int8", "float32", "complex64"])
def test_take_and_put_match_numpy(dtype):
    rng = np.random.default_rng(7)
    x = random_array(rng, (5, 9), dtype)
    idx = rng.integers(-9, 9, (2, 3))
    check_close(ac.take(on_gpu(x), on_gpu(idx), axis=1), np.take(x, idx, axis=1))
    flat = rng.integers(-45, 45, (7,))
    check_close(ac.take(on_gpu(x), on_gpu(flat)), np.take(x, flat))
    want = x.copy()
    values = random_array(rng, (7,), dtype)
    np.put(want, flat, values)
    d = on_gpu(x)
    ac.put(d, on_gpu(flat), on_gpu(values))
    check_close(d, want)


def test_boolean_masks_match_numpy():
    rng = np.random.default_rng(8)
    x = rng.standard_normal((6, 5)).astype(np.float32)
    mask = x > 0
    d = on_gpu(x)
    check_close(d[on_gpu(mask)], x[mask])
    check_close(d[on_gpu(mask[:, 0])], x[mask[:, 0]])
    want = x.copy()
    want[mask] = np.arange(mask.sum(), dtype=np.float32)
    d[on_gpu(mask)] = on_gpu(np.arange(mask.sum(), dtype=np.float32))
    check_close(d, want)


def test_large_gather_matches_numpy():
    rng = np.random.default_rng(9)
    x = rng.standard_normal(1 << 20).astype(np.float32)
    idx = rng.integers(-(1 << 20), 1 << 20, 3_000_000)
    check_close(on_gpu(x)[on_gpu(idx)], x[idx])


def test_out_of_bounds_indices_raise_index_error_naming_the_first():
    x = on_gpu(np.arange(10.0).reshape(2, 5))
    with pytest.raises(IndexError, match=r"\[getitem\] index 7 is out of bounds for axis 1 with size 5"):
        x[:, np.array([0, 7, -9, 1])]
    with pytest.raises(IndexError, match=r"\[getitem\] index -3 is out of bounds for axis 0 with size 2"):
        x[np.array([[1, -3], [5, 0]])]
    with pytest.raises(IndexError, match=r"\[take\] index 12 is out of bounds"):
        ac.take(x, on_gpu(np.array([3, 12, 40])))
    # A bad index in a setitem writes nothing.
    before = ac.asnumpy(x).copy()
    with pytest.raises(IndexError, match=r"\[setitem\] index 5 is out of bounds for axis 1 with size 5"):
        x[:, np.array([0, 1, 5])] = on_gpu(np.full((2, 3), -1.0))
    np.testing.assert_array_equal(ac.asnumpy(x), before)
    # Empty index results still check their indices, as NumPy does.
    with pytest.raises(IndexError, match="index 9 is out of bounds"):
        x[np.array([9])[:0:1], np.array([9])]
