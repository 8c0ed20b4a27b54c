"""Products against NumPy: matmul (and @), tensordot, vecdot, dot, inner, outer, vdot over
dtypes, batches with broadcasting, transposed / sliced / broadcast operands, empty axes, errors."""

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import accel as ac
import device_arrays as dev

SETTINGS = settings(max_examples=50, deadline=None)
FLOAT_DTYPES = dev.FLOAT_DTYPES
INT_DTYPES = [d for d in dev.INT_DTYPES if d not in ("uint16", "uint32")]


def random_array(rng, shape, dtype):
    return np.asarray(random_values(rng, shape, dtype))


def random_values(rng, shape, dtype):
    if dtype == "bool":
        return rng.integers(0, 2, shape).astype(bool)
    if np.dtype(dtype).kind in "iu":
        return rng.integers(-100, 100, shape).astype(dtype)  # wraps for unsigned, on purpose
    x = rng.standard_normal(shape)
    if np.dtype(dtype).kind == "c":
        x = x + 1j * rng.standard_normal(shape)
    return x.astype(dtype)


def layout(x, kind):
    """The same values as x in another memory layout."""
    if kind == "transposed" and x.ndim >= 2:
        return np.swapaxes(np.ascontiguousarray(np.swapaxes(x, -1, -2)), -1, -2)
    if kind == "sliced" and x.ndim >= 1:
        big = np.zeros(tuple(2 * s for s in x.shape), dtype=x.dtype)
        view = big[tuple(slice(None, None, 2) for _ in x.shape)]
        view[...] = x
        return view
    if kind == "reversed" and x.ndim >= 1:
        return np.ascontiguousarray(x[..., ::-1])[..., ::-1]
    return x


def check_close(got, want):
    got = ac.asnumpy(got)
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    assert got.shape == want.shape, (got.shape, want.shape)
    if want.dtype.kind in "fc":
        tol = 1e-4 if want.dtype in (np.float32, np.complex64) else 1e-11
        np.testing.assert_allclose(got, want, rtol=tol, atol=tol * max(1.0, np.abs(want).max(initial=0)))
    else:
        np.testing.assert_array_equal(got, want)


layouts = st.sampled_from(["contiguous", "transposed", "sliced", "reversed"])
batches = st.lists(st.integers(0, 3), max_size=3).map(tuple)


@st.composite
def matmul_case(draw):
    m, k, n = draw(st.integers(0, 6)), draw(st.integers(0, 6)), draw(st.integers(0, 6))
    batch = draw(batches)
    # Broadcast batch axes: each side may drop leading axes or have size 1 where the other has more.
    def side(b):
        cut = draw(st.integers(0, len(b)))
        return tuple(1 if draw(st.booleans()) else d for d in b[cut:])
    a_shape = side(batch) + (m, k)
    b_shape = side(batch) + (k, n)
    if draw(st.booleans()):
        a_shape = (k,)
    if draw(st.booleans()):
        b_shape = (k,)
    return a_shape, b_shape


@SETTINGS
@given(case=matmul_case(), dtype=st.sampled_from(FLOAT_DTYPES + INT_DTYPES),
       la=layouts, lb=layouts, seed=st.integers(0, 2**16))
def test_matmul_matches_numpy(case, dtype, la, lb, seed):
    rng = np.random.default_rng(seed)
    a_shape, b_shape = case
    a = layout(random_array(rng, a_shape, dtype), la)
    b = layout(random_array(rng, b_shape, dtype), lb)
    want = np.matmul(a, b)
    check_close(ac.matmul(a, b), want)
    check_close(ac.asarray(a) @ ac.asarray(b), want)


@SETTINGS
@given(d1=st.sampled_from(FLOAT_DTYPES + INT_DTYPES), d2=st.sampled_from(FLOAT_DTYPES + INT_DTYPES))
def test_matmul_promotes_mixed_dtypes(d1, d2):
    rng = np.random.default_rng(0)
    a, b = random_array(rng, (3, 4), d1), random_array(rng, (4, 2), d2)
    check_close(ac.matmul(a, b), np.matmul(a, b))


def test_large_blas_products_with_transposes_and_batches():
    rng = np.random.default_rng(1)
    a = rng.standard_normal((130, 70)).astype(np.float32)
    b = rng.standard_normal((90, 70)).astype(np.float32)
    check_close(ac.asarray(a) @ ac.asarray(b).T, a @ b.T)
    check_close(ac.asarray(a).T @ ac.asarray(a), a.T @ a)
    # Batches of BLAS-sized products spread over the thread pool (and tiny ones in the loop).
    for shape, dtype in [((300, 16, 16), "float32"), ((64, 40, 40), "complex128"),
                         ((200, 8, 8), "float64"), ((50, 3, 70), "float64")]:
        c = random_array(rng, shape, dtype)
        check_close(ac.asarray(c) @ ac.asarray(c).mT, c @ np.swapaxes(c, -1, -2))
        check_close(ac.asarray(c).mT @ ac.asarray(c[:1]), np.swapaxes(c, -1, -2) @ c[:1])
    v = rng.standard_normal(70)
    check_close(ac.asarray(a.astype(np.float64)) @ ac.asarray(v), a.astype(np.float64) @ v)
    check_close(ac.asarray(v) @ ac.asarray(a.T.astype(np.float64)), v @ a.T.astype(np.float64))
    x = rng.integers(-1000, 1000, (60, 50)).astype(np.int32)
    check_close(ac.asarray(x) @ ac.asarray(x.T), x @ x.T)


def test_broadcast_operand_is_packed_once_and_exact():
    a = np.broadcast_to(np.arange(6.0).reshape(1, 2, 3), (4, 2, 3))
    b = np.arange(12.0).reshape(3, 4)[:, ::2]
    check_close(ac.matmul(a, b), np.matmul(a, b))


@pytest.mark.parametrize("dtype", ["float32", "complex128", "int32"])
@pytest.mark.parametrize("mkn", [(5, 3, 4), (30, 40, 50), (1, 7, 1), (9, 1, 9)])
def test_operands_broadcast_inside_the_matrix(dtype, mkn):
    # Stride 0 within a matrix: neither BLAS layout, so the operand is packed (or looped over).
    m, k, n = mkn
    rng = np.random.default_rng(4)
    a = np.broadcast_to(random_array(rng, (1, k), dtype), (m, k))
    b = np.broadcast_to(random_array(rng, (k, 1), dtype), (k, n))
    check_close(ac.matmul(a, b), a @ b)
    check_close(ac.matmul(np.ascontiguousarray(a), b), a @ b)
    check_close(ac.matmul(a, np.ascontiguousarray(b)), a @ b)


def test_matmul_operators():
    a = np.arange(6.0).reshape(2, 3)
    b = np.arange(12.0).reshape(3, 4)
    A, B = ac.asarray(a), ac.asarray(b)
    check_close(A @ B, a @ b)
    check_close([[1.0, 2.0]] @ A, np.array([[1.0, 2.0]]) @ a)  # __rmatmul__
    check_close(A @ b, a @ b)
    sq = ac.asarray(np.eye(3) * 2)
    sq @= ac.asarray(np.arange(9.0).reshape(3, 3))
    check_close(sq, 2 * np.arange(9.0).reshape(3, 3))
    with pytest.raises(ValueError):
        A @= B  # the product has another shape
    assert A.__matmul__(object()) is NotImplemented
    with pytest.raises(TypeError):
        A @ object()


def test_matmul_errors_name_both_shapes():
    with pytest.raises(ValueError, match=r"\(2, 3\) and \(4, 5\)"):
        ac.matmul(ac.ones((2, 3)), ac.ones((4, 5)))
    with pytest.raises(ValueError, match="batch"):
        ac.matmul(ac.ones((2, 2, 3)), ac.ones((3, 3, 2)))
    with pytest.raises(ValueError, match="at least one dimension"):
        ac.matmul(ac.ones(()), ac.ones(3))
    with pytest.raises(ValueError, match="at least one dimension"):
        ac.matmul(ac.ones(3), 2.0)


def test_matmul_out_keyword():
    out = ac.zeros((2, 2))
    r = ac.matmul(np.eye(2), np.full((2, 2), 3.0), out=out)
    assert r is out
    check_close(out, np.full((2, 2), 3.0))


@SETTINGS
@given(shape=st.lists(st.integers(1, 4), min_size=1, max_size=4).map(tuple),
       dtype=st.sampled_from(FLOAT_DTYPES + ["int64"]), data=st.data())
def test_tensordot_matches_numpy(shape, dtype, data):
    rng = np.random.default_rng(len(shape))
    n = data.draw(st.integers(0, len(shape)))
    extra = tuple(data.draw(st.lists(st.integers(0, 3), max_size=2)))
    a = random_array(rng, shape, dtype)
    b = random_array(rng, shape[len(shape) - n:] + extra, dtype)
    check_close(ac.tensordot(a, b, axes=n), np.tensordot(a, b, axes=n))
    # Explicit, permuted axis lists.
    perm = data.draw(st.permutations(range(len(shape))))
    bt = np.transpose(a, perm)
    axes_a = list(range(len(shape)))
    axes_b = [perm.index(i) for i in axes_a]
    check_close(ac.tensordot(a, bt, axes=(axes_a, axes_b)), np.tensordot(a, bt, axes=(axes_a, axes_b)))


def test_tensordot_pairs_of_ints_and_errors():
    a = np.arange(24.0).reshape(2, 3, 4)
    b = np.arange(12.0).reshape(4, 3)
    check_close(ac.tensordot(a, b, axes=(2, 0)), np.tensordot(a, b, axes=(2, 0)))
    with pytest.raises(ValueError, match="mismatch"):
        ac.tensordot(a, b, axes=([0], [0]))
    with pytest.raises(ValueError):
        ac.tensordot(a, b, axes=4)


@SETTINGS
@given(batch=batches, n=st.integers(0, 5), dtype=st.sampled_from(FLOAT_DTYPES + ["int32"]),
       axis_last=st.booleans(), seed=st.integers(0, 1000))
def test_vecdot_matches_numpy(batch, n, dtype, axis_last, seed):
    rng = np.random.default_rng(seed)
    a = random_array(rng, batch + (n,), dtype)
    b = random_array(rng, (n,), dtype)
    check_close(ac.vecdot(a, b), np.vecdot(a, b))
    if not axis_last and batch:
        a2 = np.moveaxis(a, -1, 0)
        b2 = np.moveaxis(random_array(rng, batch + (n,), dtype), -1, 0)
        axis = -a2.ndim
        check_close(ac.vecdot(a2, b2, axis=axis), np.vecdot(a2, b2, axis=axis))


def test_vecdot_conjugates_first_argument_and_checks_sizes():
    x = np.array([1 + 2j, 3 - 1j])
    y = np.array([1j, 2 + 2j])
    check_close(ac.vecdot(x, y), np.vecdot(x, y))
    with pytest.raises(ValueError, match="size"):
        ac.vecdot(ac.ones(3), ac.ones(4))


@pytest.mark.parametrize("shapes", [((), (3,)), ((3,), ()), ((4,), (4,)), ((2, 4), (4,)),
                                    ((4,), (4, 3)), ((2, 4), (4, 3)), ((2, 3, 4), (4,)),
                                    ((2, 3, 4), (5, 4, 2)), ((4,), (2, 4, 3))])
def test_dot_matches_numpy(shapes):
    rng = np.random.default_rng(2)
    a = random_array(rng, shapes[0], "float64")
    b = random_array(rng, shapes[1], "float64")
    check_close(ac.dot(a, b), np.asarray(np.dot(a, b)))


@SETTINGS
@given(nd_a=st.integers(0, 3), nd_b=st.integers(0, 3), k=st.integers(0, 4),
       dtype=st.sampled_from(["float64", "complex64", "int32", "bool"]), lb=layouts,
       seed=st.integers(0, 1000))
def test_dot_and_inner_any_dimensions(nd_a, nd_b, k, dtype, lb, seed):
    rng = np.random.default_rng(seed)
    a_shape = tuple(rng.integers(0, 4, max(nd_a - 1, 0))) + ((k,) if nd_a else ())
    b_core = ((k,) if nd_b == 1 else (k, int(rng.integers(0, 4))) if nd_b >= 2 else ())
    b_shape = tuple(rng.integers(0, 4, max(nd_b - 2, 0))) + b_core
    a = random_array(rng, a_shape, dtype)
    b = layout(random_array(rng, b_shape, dtype), lb)
    check_close(ac.dot(a, b), np.asarray(np.dot(a, b)))
    if nd_b:
        b2 = layout(random_array(rng, b_shape[:-2] + (k,) if nd_b >= 2 else b_shape, dtype), lb)
        check_close(ac.inner(a, b2), np.asarray(np.inner(a, b2)))


@pytest.mark.parametrize("shapes", [((), (3,)), ((4,), (4,)), ((2, 4), (4,)), ((2, 3, 4), (5, 4))])
@pytest.mark.parametrize("dtype", ["float32", "complex128", "int64"])
def test_inner_outer_vdot_match_numpy(shapes, dtype):
    rng = np.random.default_rng(3)
    a = random_array(rng, shapes[0], dtype)
    b = random_array(rng, shapes[1], dtype)
    check_close(ac.inner(a, b), np.asarray(np.inner(a, b)))
    check_close(ac.outer(a, b), np.outer(a, b))
    if a.size == b.size:
        check_close(ac.vdot(a, b), np.asarray(np.vdot(a, b)))


def test_product_errors():
    with pytest.raises(ValueError, match="aligned"):
        ac.dot(ac.ones((2, 3, 4)), ac.ones((5, 3, 2)))
    with pytest.raises(ValueError, match="aligned"):
        ac.inner(ac.ones(3), ac.ones(4))
    with pytest.raises(ValueError, match="same number of elements"):
        ac.vdot(ac.ones(3), ac.ones(4))


def test_blas_reports_its_core():
    info = ac._core._blas_info()
    if not info["loaded"]:
        pytest.skip(f"no BLAS in this run: {info['problem']}")
    assert info["threads"] >= 1
    assert "OpenBLAS" in info["config"]
    assert info["core"]
    from accel import _info
    cpu = _info.info()["cpu"]
    assert cpu["blas"]["core"] == info["core"]
    assert "BLAS:" in _info.format_info(_info.info())


# ---------------------------------------------------------------- matmul on every device
# Fixed shapes of each of NumPy's rules, device views as operands, NumPy's float32 rounding (no
# TF32), integer wrap-around (these were test_cuda_linalg_indexing.py's, now run on every device).

DEVICE_MATMUL_SHAPES = [  # (a, b), NumPy's matmul rules
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


@pytest.mark.parametrize("dtype", dev.ALL_DTYPES)
@pytest.mark.parametrize("shapes", DEVICE_MATMUL_SHAPES, ids=str)
def test_matmul_of_every_shape_rule_matches_numpy(dtype, shapes, device):
    rng = np.random.default_rng(0)
    a, b = (dev.random_array(rng, s, dtype) for s in shapes)
    want = np.matmul(a, b)
    k = shapes[0][-1]
    dev.check_close(ac.matmul(dev.on_device(a, device), dev.on_device(b, device)), want, k)
    dev.check_close(dev.on_device(a, device) @ dev.on_device(b, device), want, k)


@pytest.mark.parametrize("dtype", ["float32", "complex128", "int32", "bool"])
@pytest.mark.parametrize("la", ["transposed", "sliced", "reversed"])
@pytest.mark.parametrize("lb", ["contiguous", "transposed", "sliced", "reversed"])
def test_matmul_of_transposed_sliced_and_reversed_views(dtype, la, lb, device):
    rng = np.random.default_rng(1)
    a, b = dev.random_array(rng, (3, 40, 70), dtype), dev.random_array(rng, (70, 50), dtype)
    dev.check_close(dev.on_device(a, device, la) @ dev.on_device(b, device, lb), a @ b, 70)


@pytest.mark.parametrize("dtype", dev.FLOAT_DTYPES)
@pytest.mark.parametrize("la, lb", [("contiguous", "contiguous"), ("transposed", "transposed"),
                                    ("sliced", "reversed"), ("reversed", "sliced")])
def test_large_products_round_like_numpy(dtype, la, lb, device):
    # Large enough that layouts cuBLAS cannot read (steps in both axes, reversed) are packed for it.
    rng = np.random.default_rng(2)
    a, b = dev.random_array(rng, (2, 300, 500), dtype), dev.random_array(rng, (500, 200), dtype)
    dev.check_close(dev.on_device(a, device, la) @ dev.on_device(b, device, lb), a @ b, 500)


@pytest.mark.parametrize("dtype", dev.FLOAT_DTYPES)
@pytest.mark.parametrize("shape", [(100, 100), (70, 30), (30, 70), (3, 40, 25)], ids=str)
def test_products_of_a_matrix_with_its_own_transpose_are_symmetric_and_match_numpy(dtype, shape):
    # m.T @ m and m @ m.T: one triangle computed (syrk) and mirrored, as NumPy does.
    rng = np.random.default_rng(3)
    x = dev.random_array(rng, shape, dtype)
    m = ac.asarray(x)
    # Column slices keep the row length as the leading dimension.
    part, xp = m[..., :20], x[..., :20]
    for got, want in [(m.mT @ m, np.swapaxes(x, -1, -2) @ x), (m @ m.mT, x @ np.swapaxes(x, -1, -2)),
                      (part.mT @ part, np.swapaxes(xp, -1, -2) @ xp)]:
        g = ac.asnumpy(got)
        np.testing.assert_array_equal(g, np.swapaxes(g, -1, -2))
        dev.check_close(got, want, shape[-2])
    # The same memory but not a transpose: a plain product.
    sq = dev.random_array(rng, (40, 40), dtype)
    dev.check_close(ac.asarray(sq) @ ac.asarray(sq), sq @ sq, 40)


NARROW_ULP = {"float16": 2.0**-10, "bfloat16": 2.0**-7}  # relative spacing at 1


def narrow_on_device(x32, dtype, device, kind):
    """float32 values x32 (exact in dtype) as a float16/bfloat16 array on device in layout
    `kind`, the view made in accel (NumPy has no bfloat16 without ml_dtypes)."""
    def narrow(y):
        return ac.asarray(np.ascontiguousarray(y), device=device).astype(dtype)
    if kind == "transposed" and x32.ndim >= 2:
        return ac.swapaxes(narrow(np.swapaxes(x32, -1, -2)), -1, -2)
    if kind == "sliced":
        big = np.zeros(tuple(2 * s for s in x32.shape), np.float32)
        big[tuple(slice(None, None, 2) for _ in x32.shape)] = x32
        return narrow(big)[tuple(slice(None, None, 2) for _ in x32.shape)]
    if kind == "reversed":
        return narrow(x32[..., ::-1])[..., ::-1]
    return narrow(x32)


def rounded_to(x32, dtype):
    return ac.asnumpy(ac.asarray(x32).astype(dtype).astype("float32"))


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
@pytest.mark.parametrize("mkn", [(8, 8, 8), (16, 16, 16), (64, 64, 64)])
def test_narrow_float_products_sum_in_float_and_round_once(dtype, mkn, device):
    # Each row is 1 followed by 63 halves of the spacing at 1: summed in float it is exactly
    # 1 + 63 half-spacings, a tie that rounds to even (1 + 64 of them); summed in the narrow
    # type every step would round back to 1.
    m, k, n = mkn
    half_ulp = NARROW_ULP[dtype] / 2
    a = np.full((m, k), half_ulp, np.float32)
    a[:, 0] = 1
    b = np.ones((k, n), np.float32)
    want = np.float32(1 + (k - 1 + (k - 1) % 2) * half_ulp)
    for la in ["contiguous", "transposed"]:
        got = narrow_on_device(a, dtype, device, la) @ narrow_on_device(b, dtype, device, "sliced")
        assert got.dtype == dtype
        assert np.all(ac.asnumpy(got.astype("float32")) == want), (la, ac.asnumpy(got.astype("float32"))[0, :4])


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
@pytest.mark.parametrize("la, lb", [("contiguous", "contiguous"), ("transposed", "sliced"),
                                    ("reversed", "transposed"), ("sliced", "reversed")])
@pytest.mark.parametrize("shapes", [((3, 40, 30), (30, 20)), ((2, 1, 9, 17), (3, 17, 12)),
                                    ((70,), (4, 70, 33)), ((5, 64), (64,))], ids=str)
def test_narrow_float_products_match_float32_rounded_once(dtype, la, lb, shapes, device):
    rng = np.random.default_rng(5)
    a = rounded_to(rng.uniform(-1, 1, shapes[0]).astype(np.float32), dtype)
    b = rounded_to(rng.uniform(-1, 1, shapes[1]).astype(np.float32), dtype)
    # Special values: inf * 0 and inf - inf give NaN, a NaN spreads along its row or column,
    # and 300 * 300 overflows float16 (not bfloat16) once summed.
    a.reshape(-1)[0], a.reshape(-1)[-1], b.reshape(-1)[1] = np.inf, 300, np.nan
    b.reshape(-1)[-1] = 300
    with np.errstate(invalid="ignore"):
        want = rounded_to(a @ b, dtype)
    got = narrow_on_device(a, dtype, device, la) @ narrow_on_device(b, dtype, device, lb)
    assert got.dtype == dtype and got.shape == want.shape
    np.testing.assert_allclose(ac.asnumpy(got.astype("float32")), want, rtol=NARROW_ULP[dtype],
                               atol=1e-3)


def test_float32_matmul_does_not_round_inputs_to_tf32(device):
    # 1 + 2**-12 needs 12 mantissa bits; TF32 keeps 10 and would give exactly 256.
    a = np.full((256, 256), 1 + 2.0**-12, np.float32)
    b = np.ones((256, 256), np.float32)
    got = ac.asnumpy(dev.on_device(a, device) @ dev.on_device(b, device))
    assert np.all(got == np.float32(256 * (1 + 2.0**-12))), got[0, :4]


@pytest.mark.parametrize("dtype", ["int8", "uint8", "int32", "int64", "uint64"])
def test_integer_products_wrap_around_like_numpy(dtype, device):
    info = np.iinfo(dtype)
    a = np.full((3, 70), info.max // 3 + 7, dtype)
    b = np.full((70, 2), info.max // 5 + 3, dtype)
    with np.errstate(over="ignore"):
        want = a @ b
    dev.check_close(dev.on_device(a, device) @ dev.on_device(b, device), want)


def test_bool_matmul_is_or_of_ands(device):
    a = np.array([[True, False, False], [False, False, False]])
    b = np.array([[False, True], [True, True], [False, False]])
    dev.check_close(dev.on_device(a, device) @ dev.on_device(b, device), a @ b)


@pytest.mark.parametrize("dtype", ["float64", "complex64", "int16"])
def test_tensordot_vecdot_and_dot(dtype, device):
    rng = np.random.default_rng(3)
    x, y = dev.random_array(rng, (3, 4, 5), dtype), dev.random_array(rng, (4, 5, 2), dtype)
    dev.check_close(ac.tensordot(dev.on_device(x, device), dev.on_device(y, device), axes=2), np.tensordot(x, y, axes=2), 20)
    dev.check_close(ac.tensordot(dev.on_device(x, device), dev.on_device(y, device), axes=([1], [0])), np.tensordot(x, y, axes=([1], [0])), 4)
    u, v = dev.random_array(rng, (6, 9), dtype), dev.random_array(rng, (6, 9), dtype)
    dev.check_close(ac.vecdot(dev.on_device(u, device), dev.on_device(v, device)), np.vecdot(u, v), 9)
    dev.check_close(ac.vecdot(dev.on_device(u, device), dev.on_device(v, device), axis=0), np.vecdot(u, v, axis=0), 6)
    w = dev.random_array(rng, (9,), dtype)
    dev.check_close(ac.dot(dev.on_device(u, device), dev.on_device(w, device)), np.dot(u, w), 9)
    dev.check_close(ac.dot(dev.on_device(w, device), dev.on_device(w, device)), np.dot(w, w), 9)


def test_matmul_results_stay_on_the_device_and_shape_errors_name_shapes(device):
    a = dev.on_device(np.ones((2, 3), np.float32), device)
    assert str((a @ dev.on_device(np.ones((3, 4), np.float32), device)).device).startswith(device)
    with pytest.raises(ValueError, match=r"\[matmul\] shapes \(2, 3\) and \(4, 4\) are not aligned"):
        ac.matmul(a, dev.on_device(np.ones((4, 4), np.float32), device))
