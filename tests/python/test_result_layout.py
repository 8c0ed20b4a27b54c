"""New elementwise results keep their inputs' axis order (NumPy's order='K'): sin(m.T) is laid out
as m.T, m.T + m stays C-ordered. NumPy is the oracle for the layout (strides on every axis longer
than 1) and for the values, small (computed at once) and large (recorded, fused), on every device."""

import numpy as np
import pytest

import accel as ac


def layout(x):
    """The strides of the axes longer than 1, in elements: what the layout decides."""
    x = np.asarray(x) if isinstance(x, np.ndarray) else x
    return tuple(s // x.itemsize for s, n in zip(x.strides, x.shape) if n > 1)


def check(got, want, rtol=0):
    """Layout and values; `rtol` for math functions (libm and NumPy's own kernels round apart)."""
    assert got.shape == want.shape
    assert got.dtype == ac.asarray(want).dtype
    if want.size:
        assert layout(got) == layout(want), (got.strides, want.strides)
    if rtol:
        np.testing.assert_allclose(ac.asnumpy(got), want, rtol=rtol)
    else:
        np.testing.assert_array_equal(ac.asnumpy(got), want)


def views(base):
    """Views of a 3-d array in several axis orders and with slices (np and ac alike)."""
    return {
        "T": lambda a: a.T,
        "120": lambda a: a.transpose(1, 2, 0),
        "021": lambda a: a.transpose(0, 2, 1),
        "T sliced": lambda a: a[:, ::2].T,
        "reversed T": lambda a: a[::-1].T,
        "C": lambda a: a,
    }


SIZES = {"small": (3, 4, 5), "large": (30, 40, 50)}  # eager below 4096 elements, lazy above


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("view", views(None))
def test_results_keep_the_axis_order_of_their_inputs(size, view, device):
    rng = np.random.default_rng(7)
    base = rng.standard_normal(SIZES[size]).astype(np.float32)
    make = views(None)[view]
    n = make(base)
    a = make(ac.asarray(base, device=device))
    check(ac.sin(a), np.sin(n), rtol=4e-6)
    check(a > 0.5, n > 0.5)
    check(ac.isnan(a), np.isnan(n))
    check(a * 2 + 1, n * np.float32(2) + np.float32(1))
    check(a + a, n + n)
    check(a.astype(ac.float64), n.astype(np.float64))
    check(ac.where(a > 0, a, 0.0), np.where(n > 0, n, np.float32(0.0)))
    check(ac.maximum(a, 0.25), np.maximum(n, np.float32(0.25)))


@pytest.mark.parametrize("size", SIZES)
def test_mixed_layouts_follow_numpy(size, device):
    rng = np.random.default_rng(8)
    base = rng.standard_normal(SIZES[size][:2]).astype(np.float64)
    n = base
    a = ac.asarray(base, device=device)
    row = rng.standard_normal(n.shape[0])
    col = rng.standard_normal((n.shape[1], 1))
    check(a.T + a.T, n.T + n.T)
    check(a + a.T.T, n + n.T.T)
    sq = rng.standard_normal((n.shape[0], n.shape[0]))
    s = ac.asarray(sq, device=device)
    check(s.T + s, sq.T + sq)        # the inputs disagree: C order
    check(s + s.T, sq + sq.T)
    check(a.T + row, n.T + row)      # a broadcast row says nothing about the order
    check(a.T * ac.asarray(col, device=device), n.T * col)
    check(ac.asarray(col, device=device) - a.T, col - n.T)


def test_chains_of_transposed_inputs_fuse_and_stay_correct(device):
    rng = np.random.default_rng(9)
    n = rng.standard_normal((300, 200)).astype(np.float32)
    a = ac.asarray(n, device=device)
    t, u = a.T * 2, n.T * np.float32(2)
    # t feeds two results: one region with two outputs, both laid out as a.T
    r1, r2 = t + 1, ac.exp(t) - t
    ac.eval(r1, r2)
    check(r1, u + np.float32(1))
    check(r2, np.exp(u) - u, rtol=4e-6)
    check(t, u)
    # a reduction of a transposed chain reads it as computed; axis 0 and 1 of the transpose
    np.testing.assert_allclose(ac.asnumpy(ac.sum(ac.sin(a.T) * 2, axis=0)),
                               (np.sin(n.T) * 2).sum(axis=0), rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(ac.asnumpy(ac.sum(ac.sin(a.T) * 2, axis=1)),
                               (np.sin(n.T) * 2).sum(axis=1), rtol=1e-4, atol=1e-4)


def test_results_laid_out_as_transposes_behave_as_numpys(device):
    n = np.arange(24, dtype=np.float64).reshape(4, 6)
    a = ac.asarray(n, device=device)
    r, m = a.T + 1, n.T + 1
    # a reshape of an F-ordered result copies, as NumPy's: writes into it leave r alone
    flat = r.reshape(-1)
    np.testing.assert_array_equal(ac.asnumpy(flat), m.reshape(-1))
    flat[0] = -5
    assert ac.asnumpy(r)[0, 0] == m[0, 0]
    # r.T is C-contiguous, so its reshape is a view: writes go through
    v = r.T.reshape(-1)
    v[1] = 100.0
    m.T.reshape(-1)[1] = 100.0
    np.testing.assert_array_equal(ac.asnumpy(r), m)
    # in-place arithmetic and slicing of the transposed result
    r += 1
    m += 1
    r[1:3, ::2] *= -1
    m[1:3, ::2] *= -1
    np.testing.assert_array_equal(ac.asnumpy(r), m)
    assert layout(r) == layout(m)
    np.testing.assert_array_equal(ac.asnumpy(ac.ascontiguousarray(r)), np.ascontiguousarray(m))
    assert layout(r.copy()) == layout(m.copy())  # ndarray.copy() is C-ordered


def test_copies_are_c_ordered_and_astype_keeps_the_order(device):
    n = np.arange(12, dtype=np.int32).reshape(3, 4)
    a = ac.asarray(n, device=device)
    check(a.T.astype(ac.float32), n.T.astype(np.float32))
    check(a.T.astype(ac.int32, copy=True), n.T.astype(np.int32, copy=True))
    for order in ("K", "A", "C", "F"):  # np.copy's orders, on C, transposed and sliced inputs
        for make in (lambda x: x, lambda x: x.T, lambda x: x[:, ::2].T):
            check(ac.copy(make(a), order=order), np.copy(make(n), order=order))
    with pytest.raises(ValueError, match="order"):
        ac.copy(a, order="X")


def test_astype_of_broadcast_and_sliced_inputs_lays_out_as_numpys(device):
    # astype and np.copy sort the axes by step, broadcast ones innermost (NumPy's
    # PyArray_NewLikeArray); elementwise ops keep C order there: both as NumPy's.
    row = np.arange(4, dtype=np.float32)
    col = np.arange(3, dtype=np.float32).reshape(3, 1)
    cube = np.arange(60, dtype=np.float32).reshape(3, 4, 5)
    cases = [lambda x: np.broadcast_to(x, (3, 4)) if isinstance(x, np.ndarray)
             else ac.broadcast_to(x, (3, 4))]
    for base, make in [(row, cases[0]), (col, cases[0]),
                       (row.reshape(1, 4), lambda x: x[[0, 0, 0]].T),
                       (cube, lambda x: x.transpose(1, 0, 2)[:, ::2]),
                       (cube, lambda x: x[:, :1, ::-1]),
                       (cube, lambda x: x.transpose(2, 0, 1)[::2, :, 1:])]:
        n, a = make(base), make(ac.asarray(base, device=device))
        for dt in (np.float64, np.complex64, np.int16):
            check(a.astype(dt), n.astype(dt))
        check(ac.copy(a), np.copy(n))
        check(a + 1, n + np.float32(1))


@pytest.mark.parametrize("dtype", [np.int16, np.uint32, np.float32, np.float64, np.complex64])
def test_round_lays_out_as_numpys(dtype, device):
    # NumPy's round is no ufunc: it rounds a copy (order K) of an integer or complex array, a
    # float one through rint (a ufunc's layout), and with decimals != 0 into a new C array
    # (Fortran where x is Fortran- and not C-contiguous). They differ where x broadcasts
    # (fuzz seed 1052656), is transposed or sliced.
    rng = np.random.default_rng(3)
    cube = (rng.standard_normal((4, 5, 6)) * 500)
    cube = (np.abs(cube) if np.dtype(dtype).kind == "u" else cube).astype(dtype)
    if np.dtype(dtype).kind == "c":
        cube = cube + (rng.standard_normal((4, 5, 6)) * 500).astype(dtype) * 1j
    row = cube[0, 0]
    makes = [lambda x: x.T, lambda x: x.transpose(2, 0, 1),
             lambda x: x[:, ::2, 1:].transpose(1, 0, 2), lambda x: x[0].T, lambda x: x]
    cases = [(cube, m) for m in makes] + [
        (row, lambda x: np.broadcast_to(x, (3, 6)) if isinstance(x, np.ndarray)
         else ac.broadcast_to(x, (3, 6)))]
    # Complex decimals != 0 are left out: NumPy rounds the parts as floats, accel the complex
    # values (x * 10 / 10 in complex arithmetic moves the last bit: issue 15's note).
    decimals = [0] if np.dtype(dtype).kind == "c" else [0, 1, -1, -2]
    for base, make in cases:
        n, a = make(base), make(ac.asarray(base, device=device))
        for d in decimals:
            check(ac.round(a, d), np.round(n, d))


@pytest.mark.parametrize("dtype", [np.float32, np.complex128, np.int16, np.bool_])
def test_nan_to_num_and_angle_lay_out_as_numpys(dtype, device):
    # nan_to_num replaces in a copy of x (order K: a broadcast row comes back Fortran-ordered);
    # angle of a real z is arctan2 of a Python 0 and z (a ufunc's layout; float64 for bools).
    rng = np.random.default_rng(5)
    cube = (rng.standard_normal((3, 4, 5)) * 3).astype(dtype)
    if np.dtype(dtype).kind in "fc":
        cube.flat[:3] = [np.nan, np.inf, -np.inf]
    for make in (lambda x, xp: x.T, lambda x, xp: x[:, ::2, 1:].transpose(1, 0, 2),
                 lambda x, xp: xp.broadcast_to(x[0, 0], (3, 5))):
        n, a = make(cube, np), make(ac.asarray(cube, device=device), ac)
        check(ac.nan_to_num(a), np.nan_to_num(n))
        check(ac.nan_to_num(a, nan=5.0, posinf=7.0), np.nan_to_num(n, nan=5.0, posinf=7.0))
        check(ac.angle(a), np.angle(n), rtol=1e-6)


def test_casts_inside_elementwise_ops_keep_the_ufunc_layout(device):
    # NumPy's ufuncs cast their inputs inside the loop, so dtype=, float-only functions of ints
    # and where's non-bool condition lay the result out as the ufunc would without the cast
    # (C order on broadcast axes), not as an astype copy (broadcast axes innermost).
    row = np.arange(-3, 3, dtype=np.int16)
    bc = lambda x, xp: xp.broadcast_to(x, (4, 6))  # noqa: E731
    n, a = bc(row, np), bc(ac.asarray(row, device=device), ac)
    nb, ab = n > 0, a > 0
    nc = bc(row.astype(np.complex64) / 2, np)
    ac_c = bc(ac.asarray(row.astype(np.complex64) / 2, device=device), ac)
    check(ac.fabs(a), np.fabs(n))
    check(ac.rint(a), np.rint(n))
    check(ac.rint(ac_c), np.rint(nc))
    check(ac.spacing(a), np.spacing(n))
    check(ac.bitwise_count(ab), np.bitwise_count(nb))
    u, un = bc(ac.asarray(row.astype(np.uint16), device=device), ac), bc(row.astype(np.uint16), np)
    check(ac.bitwise_count(u), np.bitwise_count(un))  # fuzz seed 1629828: an astype copy, F
    check(ac.sqrt(a, dtype=ac.float64), np.sqrt(n, dtype=np.float64))
    check(ac.where(a, 1.5, 2.5), np.where(n, 1.5, 2.5))
    check(ac.round(a), np.round(n))  # np.round is no ufunc: a copy (order K)
    m = np.arange(12, dtype=np.float32).reshape(3, 4)
    check(ac.clip(ac.asarray(m, device=device).T), np.clip(m.T))


def test_like_functions_lay_out_as_their_prototype(device):
    # np.zeros_like(m.T) is stored as m.T (order='K'): a reshape of it copies, as NumPy's.
    cube = np.arange(60, dtype=np.float32).reshape(3, 4, 5)
    for make in (lambda x: x, lambda x: x.T, lambda x: x.transpose(1, 0, 2)[:, ::2],
                 lambda x: x[:, :1, ::-1], lambda x: x[0]):
        n, a = make(cube), make(ac.asarray(cube, device=device))
        check(ac.zeros_like(a), np.zeros_like(n))
        check(ac.ones_like(a, dtype=ac.int16), np.ones_like(n, dtype=np.int16))
        check(ac.full_like(a, 2.5), np.full_like(n, 2.5))
        row = np.arange(n.shape[-1], dtype=np.float32)
        check(ac.full_like(a, ac.asarray(row, device=device)), np.full_like(n, row))
        e, f = ac.empty_like(a), np.empty_like(n)
        assert (e.shape, e.dtype, layout(e)) == (f.shape, ac.float32, layout(f))
    n = np.zeros((4, 6)).T
    a = ac.zeros_like(ac.asarray(np.ones((4, 6)), device=device).T)
    flat = a.reshape(-1)
    flat[0] = 7  # a copy: a stays zero, as NumPy's
    assert ac.asnumpy(a).sum() == 0 and not np.shares_memory(n.reshape(-1), n)


@pytest.mark.parametrize("eager", [True, False])
def test_in_place_arithmetic_on_an_uncomputed_result_keeps_its_layout(eager, device):
    # x -= 1 on a result not yet computed rebinds x to new memory: laid out as x was.
    n = np.arange(6).reshape(2, 3) % 2 == 0
    was = ac.eager_small_enabled()
    ac.set_eager_small(eager)
    try:
        a = ac.asarray(n, device=device, copy=True).T % np.int64(2)
        a -= np.uint8(7)
        m = n.T % np.int64(2)
        m -= np.uint8(7)
        check(a, m)
    finally:
        ac.set_eager_small(was)


@pytest.mark.parametrize("perm", [(1, 0, 2), (2, 1, 0), (1, 2, 0), (0, 2, 1)])
def test_reductions_of_chains_laid_out_as_their_inputs_match_numpy(perm, device):
    """A reduction of a pending chain over transposed inputs walks it in memory order (where the
    kept axes keep their order): the same values as NumPy's and as the stored chain's."""
    rng = np.random.default_rng(12)
    n = rng.standard_normal((40, 50, 70)).astype(np.float32)
    a = ac.asarray(n, copy=True, device=device)
    nt = n.transpose(perm)
    for axis in (None, 0, 1, 2, (0, 1), (1, 2), (0, 2)):
        for name in ("sum", "max", "mean", "count_nonzero"):
            def chain(x, xp):
                return x > 0.5 if name == "count_nonzero" else x * 2 - 1
            got = getattr(ac, name)(chain(a.transpose(perm), ac), axis=axis)
            stored = getattr(ac, name)(chain(a.transpose(perm), ac).eval(), axis=axis)
            want = getattr(np, name)(chain(nt, np), axis=axis)
            np.testing.assert_allclose(ac.asnumpy(got), want, rtol=2e-5, atol=1e-3,
                                       err_msg=f"{name} axis={axis}")
            np.testing.assert_allclose(ac.asnumpy(got), ac.asnumpy(stored), rtol=2e-6, atol=1e-4,
                                       err_msg=f"{name} axis={axis} (stored)")


@pytest.mark.parametrize("shape", [(1, 300), (300, 1), (30, 1, 40), (1, 20, 30)])
def test_std_and_var_of_transposed_arrays_with_length_one_axes(shape, device):
    """var/std reduce a chain that reads a keepdims mean (length-1 axes) beside the input: with
    the input transposed, the walk in memory order must step nowhere along length-1 axes."""
    rng = np.random.default_rng(13)
    n = rng.standard_normal(shape)
    for make in (lambda x: x, lambda x: x.T, lambda x: x.transpose(*range(x.ndim)[::-1])):
        x, a = make(n), make(ac.asarray(n, copy=True, device=device))
        for axis in [None] + list(range(x.ndim)):
            for name in ("std", "var"):
                got = getattr(ac, name)(a, axis=axis, keepdims=True)
                np.testing.assert_allclose(ac.asnumpy(got), getattr(np, name)(x, axis=axis, keepdims=True),
                                           rtol=1e-10, atol=1e-12, err_msg=f"{name} axis={axis}")


JOINS_AND_SCANS = {
    "sort axis 0": lambda xp, x: xp.sort(x, axis=0),
    "sort last axis": lambda xp, x: xp.sort(x, axis=-1),
    "argsort": lambda xp, x: xp.argsort(x, axis=0),
    "concatenate axis 0": lambda xp, x: xp.concatenate([x, x], axis=0),
    "concatenate last axis": lambda xp, x: xp.concatenate([x, x], axis=-1),
    "concatenate with a C copy": lambda xp, x: xp.concatenate([x, xp.ascontiguousarray(x)]),
    "stack": lambda xp, x: xp.stack([x, x]),
    "stack axis 1": lambda xp, x: xp.stack([x, x], axis=1),
    "append": lambda xp, x: xp.append(x, x, axis=0),
    "cumsum axis 0": lambda xp, x: xp.cumsum(x, axis=0),
    "cumprod last axis": lambda xp, x: xp.cumprod(x, axis=-1),
    "cumulative_sum include_initial": lambda xp, x: xp.cumulative_sum(x, axis=0,
                                                                      include_initial=True),
    "roll axis 0": lambda xp, x: xp.roll(x, 1, axis=0),
    "roll flat": lambda xp, x: xp.roll(x, 1),
    "pad": lambda xp, x: xp.pad(x, 1),
    "pad edge": lambda xp, x: xp.pad(x, (1, 2), mode="edge"),
    "pad by nothing": lambda xp, x: xp.pad(x, 0),
}


@pytest.mark.parametrize("op", JOINS_AND_SCANS)
@pytest.mark.parametrize("view", ["F", "T", "120", "T sliced", "broadcast row", "C"])
def test_sorts_joins_scans_and_pads_lay_out_as_numpys(op, view, device):
    """NumPy lays these out after their input (sort and roll as empty_like, concatenate by the
    axis order its inputs share, cumsum as its iterator, pad Fortran-ordered for a Fortran
    input), so a later reshape or ravel of them is a view or a copy as in NumPy: a write through
    it reaches the result, or not, as in NumPy."""
    base = np.arange(24.0).reshape(2, 3, 4) % 7
    if view == "F":
        n = np.asfortranarray(base[0])
        a = ac.asfortranarray(ac.asarray(base[0], device=device))
    elif view == "broadcast row":
        n = np.broadcast_to(base[0, 0], (3, 4))
        a = ac.broadcast_to(ac.asarray(base[0, 0], device=device), (3, 4))
    else:
        n = views(base)[view](base)
        a = views(base)[view](ac.asarray(base, device=device))
    want, got = JOINS_AND_SCANS[op](np, n), JOINS_AND_SCANS[op](ac, a)
    check(got, want)
    # The consequence users see: ravel() is a view exactly where NumPy's is.
    flat_n, flat_a = want.ravel(), got.ravel()
    flat_n[0] = flat_a[0] = 99
    np.testing.assert_array_equal(ac.asnumpy(got), want)


GETITEMS = {
    "x[:, i]": lambda x, i, m: x[:, i],
    "x[:, :, i]": lambda x, i, m: x[:, :, i],
    "x[i]": lambda x, i, m: x[i],
    "x[:, i, i]": lambda x, i, m: x[:, i, i],
    "x[i, :, i]": lambda x, i, m: x[i, :, i],
    "x[:, 2-d i]": lambda x, i, m: x[:, i.reshape(2, 1)],
    "x[1:, i]": lambda x, i, m: x[1:, i],
    "x[:, i, 1]": lambda x, i, m: x[:, i, 1],
    "x[..., i]": lambda x, i, m: x[..., i],
    "x[:, ::-1, i]": lambda x, i, m: x[:, ::-1, i],
    "x[mask]": lambda x, i, m: x[m],
    "x[None, :, i]": lambda x, i, m: x[None, :, i],
    # A transposed index: C-ordered index dimensions beside a subspace, the index's own order
    # without one (one element per index).
    "x[i.T]": lambda x, i, m: x[i.reshape(1, 2).repeat(3, 0).T],
    "x[:, i.T, 0]": lambda x, i, m: x[:, i.reshape(1, 2).repeat(3, 0).T, 0],
    "x[i.T, i.T]": lambda x, i, m: x[i.reshape(1, 2).repeat(3, 0).T, i.reshape(1, 2).repeat(3, 0).T],
    "x[0, 0, 0, i.T]": lambda x, i, m: x[0, 0, 0, i.reshape(1, 2).repeat(3, 0).T],
    "x[i.T, i.T, 0, i.T]": lambda x, i, m: x[i.reshape(1, 2).repeat(3, 0).T,
                                              i.reshape(1, 2).repeat(3, 0).T, 0,
                                              i.reshape(1, 2).repeat(3, 0).T],
}


@pytest.mark.parametrize("key", GETITEMS)
@pytest.mark.parametrize("view", ["C", "T", "T sliced", "reversed T"])
def test_advanced_indexing_lays_out_as_numpys(key, view, device):
    """NumPy's x[...] with index arrays puts the index dimensions outermost and x's other axes in
    their memory order, then moves the index dimensions into place: x[:, i] of a C-ordered x is
    not C-ordered, and its ravel('A'), reshape and transposes copy or view as NumPy's (fuzz seed
    1456317: einsum('ij->ji', x[:, i] > 0).ravel('A') came out in another order)."""
    base = np.arange(2 * 3 * 4 * 5, dtype=np.float64).reshape(2, 3, 4, 5)
    n = views(base)[view](base) if view != "C" else base
    a = views(base)[view](ac.asarray(base, device=device)) if view != "C" else ac.asarray(base, device=device)
    index = np.array([1, 0])
    mask = np.arange(n.shape[0]) % 2 == 0
    want = GETITEMS[key](n, index, mask)
    got = GETITEMS[key](a, ac.asarray(index, device=device), ac.asarray(mask, device=device))
    check(got, want)
    np.testing.assert_array_equal(ac.asnumpy(got.ravel("A")), want.ravel("A"))


REDUCTIONS = {
    "sum axis 0": lambda xp, x: xp.sum(x, axis=0),
    "sum last axis keepdims": lambda xp, x: xp.sum(x, axis=-1, keepdims=True),
    "prod axis 1": lambda xp, x: xp.prod(x / 8 + 1, axis=1),
    "max axes (0, 2)": lambda xp, x: xp.max(x, axis=(0, 2), keepdims=True),
    "min axis 1": lambda xp, x: xp.min(x, axis=1),
    "mean axis 0": lambda xp, x: xp.mean(x, axis=0),
    "var axis 1 ddof": lambda xp, x: xp.var(x, axis=1, ddof=1),
    "std keepdims": lambda xp, x: xp.std(x, axis=0, keepdims=True),
    "any axis 0": lambda xp, x: xp.any(x > 3, axis=0),
    "count_nonzero axis 1": lambda xp, x: xp.count_nonzero(x > 3, axis=1),
    "argmax axis 0 (C)": lambda xp, x: xp.argmax(x, axis=0),
    "argmin keepdims (C)": lambda xp, x: xp.argmin(x, axis=1, keepdims=True),
    "sum where": lambda xp, x: xp.sum(x, axis=0, where=x > 2),
    "mean where": lambda xp, x: xp.mean(x, axis=1, where=x > -1),
    "var where of a broadcast mask": lambda xp, x: xp.var(x, axis=0, where=xp.asarray([True])),
    "sum of a chain": lambda xp, x: xp.sum(x * 2 - 1, axis=0),
    "mean of a chain keepdims": lambda xp, x: xp.mean(xp.abs(x - 3), axis=1, keepdims=True),
    "var of bools": lambda xp, x: xp.var(x > 3, axis=0),
    # NumPy's nan functions reduce a copy of x (empty_like's layout), nanmax/nanmin x itself.
    "nansum axis 0": lambda xp, x: xp.nansum(x, axis=0),
    "nanmean keepdims": lambda xp, x: xp.nanmean(x, axis=-1, keepdims=True),
    "nanvar axis 1": lambda xp, x: xp.nanvar(x, axis=1),
    "nanmax axis 0": lambda xp, x: xp.nanmax(x, axis=0),
    "nancumsum axis 0": lambda xp, x: xp.nancumsum(x, axis=0),
}


@pytest.mark.parametrize("size", ["small", "large"])
@pytest.mark.parametrize("op", REDUCTIONS)
@pytest.mark.parametrize("view", ["F", "T", "120", "021", "T sliced", "broadcast row",
                                  "broadcast column", "C"])
def test_reductions_lay_out_as_numpys(op, view, size, device):
    """NumPy allocates a reduction's result through its iterator, so the kept axes keep the
    input's axis order (argmax and argmin are C-ordered: NumPy copies the axis last first);
    mean and var divide the masked sum by its count in place. Large inputs reduce a recorded
    chain as it is computed (the fused path, which writes the result in its memory order)."""
    shape = (3, 4, 5) if size == "small" else (30, 40, 50)
    base = np.arange(np.prod(shape), dtype=np.float64).reshape(shape) % 7
    if view == "F":
        n = np.asfortranarray(base)
        a = ac.asfortranarray(ac.asarray(base, device=device))
    elif view == "broadcast row":
        n = np.broadcast_to(base[0, :1], shape)
        a = ac.broadcast_to(ac.asarray(base[0, :1], device=device), shape)
    elif view == "broadcast column":
        n = np.broadcast_to(base[:1, :, :1], shape)
        a = ac.broadcast_to(ac.asarray(base[:1, :, :1], device=device), shape)
    else:
        n = views(base)[view](base)
        a = views(base)[view](ac.asarray(base, device=device))
    want, got = REDUCTIONS[op](np, n), REDUCTIONS[op](ac, a)
    assert got.shape == want.shape and got.dtype == ac.asarray(want).dtype
    assert layout(got) == layout(want), (got.strides, want.strides)
    np.testing.assert_allclose(ac.asnumpy(got), want, rtol=1e-12)
    # The consequence users see: ravel() is a view exactly where NumPy's is.
    if want.ndim and want.size:
        flat_n, flat_a = want.ravel(), got.ravel()
        flat_n[0] = flat_a[0] = 99
        np.testing.assert_allclose(ac.asnumpy(got), want, rtol=1e-12)


@pytest.mark.parametrize("view", ["F", "T", "broadcast row", "C"])
def test_asarray_copies_keep_the_layout_and_order_c_asks_for_c(view, device):
    """np.asarray(x, copy=True) copies in order 'K' (x's layout); order='C' and
    ascontiguousarray give C order; isclose of a broadcast array is C-ordered as NumPy's."""
    base = np.arange(12.0).reshape(3, 4)
    if view == "F":
        n, a = np.asfortranarray(base), ac.asfortranarray(ac.asarray(base, device=device))
    elif view == "broadcast row":
        n = np.broadcast_to(base[0], (3, 4))
        a = ac.broadcast_to(ac.asarray(base[0], device=device), (3, 4))
    else:
        n, a = views(base)[view](base), views(base)[view](ac.asarray(base, device=device))
    check(ac.asarray(a, copy=True), np.asarray(n, copy=True))
    check(ac.asarray(a, copy=True, order="C"), np.asarray(n, copy=True, order="C"))
    check(ac.asarray(a, copy=True, order="F"), np.asarray(n, copy=True, order="F"))
    check(ac.ascontiguousarray(a), np.ascontiguousarray(n))
    check(ac.isclose(a, a), np.isclose(n, n))


def _ints(xp, x):
    return xp.astype(x * 10, xp.int64) if xp is ac else (x * 10).astype(np.int64)


EXTRAS = {
    "frexp mantissa": lambda xp, x: xp.frexp(x)[0],
    "frexp exponent": lambda xp, x: xp.frexp(x)[1],
    "ldexp": lambda xp, x: xp.ldexp(x, -3),
    "ldexp float32": lambda xp, x: xp.ldexp(x.astype(xp.float32), 5),
    "gcd": lambda xp, x: xp.gcd(_ints(xp, x), 4),
    "lcm": lambda xp, x: xp.lcm(_ints(xp, x), _ints(xp, x) + 1),
    "gradient": lambda xp, x: xp.gradient(x, axis=1),
    "gradient edge_order 2": lambda xp, x: xp.gradient(x, 0.5, axis=0, edge_order=2),
    "unwrap": lambda xp, x: xp.unwrap(x * 3, axis=0),
    "insert an index": lambda xp, x: xp.insert(x, 1, 2.0, axis=0),
    "insert indices": lambda xp, x: xp.insert(x, [0, 1], 5.0, axis=1),
    "insert a slice": lambda xp, x: xp.insert(x, slice(0, 2), 5.0, axis=0),
    "delete an index": lambda xp, x: xp.delete(x, 1, axis=1),
    "delete a slice": lambda xp, x: xp.delete(x, slice(0, None, 2), axis=-1),
    "delete indices": lambda xp, x: xp.delete(x, [0, 1], axis=0),
    "delete a mask": lambda xp, x: xp.delete(x, xp.asarray([True] + [False] * (x.shape[0] - 1)),
                                             axis=0),
    "isclose": lambda xp, x: xp.isclose(x, x + 1e-9),
}


@pytest.mark.parametrize("op", EXTRAS)
@pytest.mark.parametrize("view", ["F", "T", "120", "T sliced", "broadcast row", "C"])
def test_numpy_extras_lay_out_as_numpys(op, view, device):
    """NumPy's ufuncs (frexp, ldexp, gcd, lcm) keep their inputs' axis order; gradient writes an
    empty_like of its input, unwrap a copy of it; insert and delete build a new array Fortran-
    ordered for a Fortran input (else C), delete by index arrays index with a mask."""
    base = (np.arange(60.0).reshape(3, 4, 5) % 7) / 4 - 0.6
    if view == "F":
        n = np.asfortranarray(base)
        a = ac.asfortranarray(ac.asarray(base, device=device))
    elif view == "broadcast row":
        n = np.broadcast_to(base[0, 0], (3, 4, 5))
        a = ac.broadcast_to(ac.asarray(base[0, 0], device=device), (3, 4, 5))
    else:
        n = views(base)[view](base)
        a = views(base)[view](ac.asarray(base, device=device))
    check(EXTRAS[op](ac, a), EXTRAS[op](np, n), rtol=1e-12 if "unwrap" in op else 0)


# matmul is a gufunc: NumPy allocates its result through the iterator of the batch axes, which
# orders them as the operands' memory, and appends each product C-ordered.
MATMUL_OPERANDS = {
    "C": lambda x: x,
    "F": np.asfortranarray,
    "batch swapped": lambda x: np.ascontiguousarray(x.transpose(1, 0, 2, 3)).transpose(1, 0, 2, 3),
    "batch reversed, rows stepped": lambda x: x[::-1, :, ::2],
    "matrices transposed": lambda x: np.ascontiguousarray(x.swapaxes(-1, -2)).swapaxes(-1, -2),
}


@pytest.mark.parametrize("right", ["C", "F", "batch swapped", "broadcast", "vector"])
@pytest.mark.parametrize("left", MATMUL_OPERANDS)
def test_matmul_batch_axes_lay_out_as_numpys(left, right, device):
    rng = np.random.default_rng(3)
    an = MATMUL_OPERANDS[left](rng.standard_normal((3, 4, 5, 6)))
    if right == "broadcast":
        bn = np.asfortranarray(rng.standard_normal((4, 6, 2)))
    elif right == "vector":
        bn = rng.standard_normal(6)
    else:
        bn = MATMUL_OPERANDS[right](rng.standard_normal((3, 4, 6, 2)))
    a, b = ac.asarray(an, device=device), ac.asarray(bn, device=device)
    got, want = a @ b, an @ bn
    assert got.shape == want.shape
    assert layout(got) == layout(want), (left, right, got.strides, want.strides)
    np.testing.assert_allclose(ac.asnumpy(got), want, rtol=1e-12)
    # A reshape of the result reads it in C order whatever its layout, as NumPy's.
    np.testing.assert_allclose(ac.asnumpy(ac.reshape(got, (-1,))), want.reshape(-1), rtol=1e-12)


# NumPy's einsum allocates its result through an iterator over the output's labels and then the
# summed ones, sorted by the operands' steps (a repeated label steps by the sum of its axes'),
# or in the order asked for.
EINSUMS = ["ij->ij", "ij,ij->ij", "ijk->ij", "ijk->ik", "ijk,ikl->ijl", "ijk,k->ji",
           "iik->ki", "iik->ik", "ij,j->i", "ijk->kij"]


@pytest.mark.parametrize("dtypes", [("float32", "int64"), ("int32", "float64"), ("float64", "float64")])
def test_matmul_orders_the_batch_as_the_given_operands_not_their_casts(dtypes, device):
    """NumPy's iterator sorts the batch axes by the operands as given, then casts: a cast copy of
    a broadcast operand (laid out with its one stepping axis outermost) must not decide (fuzz
    seed 1837907)."""
    rng = np.random.default_rng(4)
    col = rng.standard_normal((4, 1, 1)).astype(dtypes[0])
    an = np.broadcast_to(col, (3, 4, 2, 5))
    bn = rng.standard_normal(5).astype(dtypes[1])
    a = ac.broadcast_to(ac.asarray(col, device=device), (3, 4, 2, 5))
    vec = ac.asarray(bn, device=device)
    for bn2, b2 in [(bn, vec), (np.broadcast_to(bn.reshape(5, 1), (4, 5, 3)),
                                ac.broadcast_to(ac.reshape(vec, (5, 1)), (4, 5, 3)))]:
        want, got = an @ bn2, a @ b2
        assert layout(got) == layout(want), (got.strides, want.strides)
        np.testing.assert_allclose(ac.asnumpy(got), want, rtol=1e-6)


@pytest.mark.parametrize("dtype", ["uint32", "int64", "bool"])
def test_average_of_integers_lays_out_as_their_mean(dtype, device):
    """NumPy's average is a.mean(axis): integers reduce to float64 straight from a, laid out as
    a's reduction, not as a float64 copy of a broadcast a (fuzz seed 1832075)."""
    row = np.array([0, 1, 2, 0]).astype(dtype).reshape(1, 1, 4)
    n = np.broadcast_to(row, (3, 5, 3, 4))
    a = ac.broadcast_to(ac.asarray(row, device=device), (3, 5, 3, 4))
    for axis in (0, 2, (1, 2)):
        check(ac.average(a, axis=axis), np.average(n, axis=axis), rtol=1e-15)


@pytest.mark.parametrize("view", ["F", "T", "rot", "reversed T", "C", "broadcast"])
def test_weighted_average_lays_out_as_numpys(view, device):
    """NumPy's weighted average is multiply(a, w, dtype=...).sum(axes) / w.sum(axes): laid out
    as that product's reduction (fuzz seed 1928002: a float64 copy of a transposed or broadcast
    a first was C-ordered), with weights along any tuple of axes as NumPy 2 takes them."""
    rng = np.random.default_rng(13)
    if view == "broadcast":
        n = np.broadcast_to(rng.integers(0, 5, (1, 4, 1)).astype(np.int16), (3, 4, 5))
    else:
        n = laid_out(rng, (3, 4, 5), view)
    a = ac.asarray(n, device=device) if view != "broadcast" else \
        ac.broadcast_to(ac.asarray(n[:1, :, :1], device=device), n.shape)
    for axis in (0, 1, 2, (0, 2), (2, 0), None):
        shape = n.shape if axis is None else \
            tuple(n.shape[k] for k in ((axis,) if isinstance(axis, int) else axis))
        wn = rng.integers(1, 4, shape).astype(np.float32)
        want, wscl = np.average(n, axis=axis, weights=wn, returned=True)
        got, scl = ac.average(a, axis=axis, weights=ac.asarray(wn, device=device), returned=True)
        check(got, np.asarray(want), rtol=1e-12)
        check(scl, np.asarray(wscl))


def laid_out(rng, shape, view):
    """A NumPy array of `shape` in a layout: F, axes reversed (T) or rotated (rot) in memory,
    reversed T stepping backwards along its last axis, or C."""
    nd = len(shape)
    perm = {"T": list(range(nd))[::-1], "reversed T": list(range(nd))[::-1],
            "rot": list(range(1, nd)) + [0]}.get(view, list(range(nd)))
    x = rng.standard_normal([shape[p] for p in perm]).transpose(np.argsort(perm))
    if view == "reversed T":
        x = x[..., ::-1]
    return np.asfortranarray(x) if view == "F" else x


@pytest.mark.parametrize("order", ["K", "C", "F", "A"])
@pytest.mark.parametrize("sub", EINSUMS)
@pytest.mark.parametrize("view", ["F", "T", "rot", "reversed T", "C"])
def test_einsum_lays_out_as_numpys(sub, view, order, device):
    rng = np.random.default_rng(5)
    sizes = {"i": 3, "j": 4, "k": 5, "l": 2}
    terms = sub.split("->")[0].split(",")
    ns = [laid_out(rng, tuple(sizes[c] for c in t), view) for t in terms]
    want = np.einsum(sub, *ns, order=order)
    got = ac.einsum(sub, *[ac.asarray(n, device=device) for n in ns], order=order)
    assert got.shape == want.shape
    assert layout(got) == layout(want), (got.strides, want.strides)
    np.testing.assert_allclose(ac.asnumpy(got), want, rtol=1e-12)


# vecdot is a gufunc as matmul is, and is computed as a batch of products: its batch axes keep
# the operands' order, and the values stay right however the product is laid out (fuzz seed
# 1024: a broadcast batch read as C-ordered gave wrong dot products).
@pytest.mark.parametrize("view", ["F", "T", "rot", "reversed T", "C"])
@pytest.mark.parametrize("axis", [0, 1, -1])
def test_vecdot_lays_out_as_numpys(view, axis, device):
    rng = np.random.default_rng(8)
    an = laid_out(rng, (3, 4, 5), view)
    bn = an[:, :1]  # broadcast along axis 1
    for x, y in [(an, an), (an, bn), (bn, an[::-1])]:
        if axis == 1 and y.shape[1] != x.shape[1]:
            continue
        want = np.linalg.vecdot(x, y, axis=axis)
        got = ac.linalg.vecdot(ac.asarray(x, device=device), ac.asarray(y, device=device), axis=axis)
        assert layout(got) == layout(want), (got.strides, want.strides)
        np.testing.assert_allclose(ac.asnumpy(got), want, rtol=1e-12)
    a2 = ac.asarray(np.array([0, 1], dtype=np.uint32).reshape(2, 1, 1), device=device)
    np.testing.assert_array_equal(ac.asnumpy(ac.linalg.vecdot(a2, a2[:, [0, -1, -1]], axis=-1)),
                                  [[0, 0, 0], [1, 1, 1]])


# NumPy's iterator sorts no axes over no elements: an empty elementwise result and the reduction
# of an empty input are laid out C-ordered (fuzz --namespace numpy, seed 1714665: trapezoid
# along an axis of length 1 sums an empty difference).
@pytest.mark.parametrize("shape,axis", [((2, 0, 3), 1), ((2, 3, 0), 2), ((4, 3, 0), 0)])
def test_reductions_of_empty_arrays_are_c_ordered_as_numpys(shape, axis, device):
    f = np.asfortranarray(np.ones(shape))
    a = ac.asarray(f, device=device)
    for got, want in [(ac.sum(a, axis=axis), np.sum(f, axis=axis)),
                      (ac.sum(a + 1, axis=axis), np.sum(f + 1, axis=axis)),
                      (ac.max(ac.sin(a), axis=axis, initial=0.0),
                       np.max(np.sin(f), axis=axis, initial=0.0))]:
        assert got.shape == want.shape
        if want.size > 1:
            assert layout(got) == layout(want), (got.strides, want.strides)
        np.testing.assert_array_equal(ac.asnumpy(got), want)
    y = ac.asarray(np.ones((3, 1, 2), np.float32).transpose(2, 0, 1), device=device)
    yn = np.ones((3, 1, 2), np.float32).transpose(2, 0, 1)
    assert layout(ac.trapezoid(y, axis=2)) == layout(np.trapezoid(yn, axis=2))


def test_reductions_of_empty_views_lay_out_as_their_strides(device):
    # An empty view of memory keeps its strides, and NumPy's iterator sorts the reduction's
    # result by them (fuzz seeds 2206432, 2271999: the trace of a rotated array's empty
    # diagonal); a new empty array, Fortran-ordered or not, gives a C-ordered result.
    base = np.arange(60.0).reshape(4, 3, 5)
    a = ac.asarray(base, device=device)
    views = [(a.transpose(1, 0, 2)[:, :, :0], base.transpose(1, 0, 2)[:, :, :0]),
             (ac.rot90(ac.reshape(a[:, :1, :1], (4, 1, 1, 1)), 1, axes=(0, 3)),
              np.rot90(base[:, :1, :1].reshape(4, 1, 1, 1), 1, axes=(0, 3)))]
    for got_v, want_v in views:
        for got, want in [(ac.sum(got_v, axis=-1), np.sum(want_v, axis=-1)),
                          (ac.prod(got_v, axis=-1, keepdims=True),
                           np.prod(want_v, axis=-1, keepdims=True))]:
            if want.size > 1:
                assert got.strides == want.strides, (got.strides, want.strides)
            np.testing.assert_array_equal(ac.asnumpy(got.to_device("cpu")), want)
    r = ac.rot90(ac.asarray(np.arange(9.0).reshape(3, 1, 3, 1), device=device), 1, axes=(0, 3))
    rn = np.rot90(np.arange(9.0).reshape(3, 1, 3, 1), 1, axes=(0, 3))
    assert ac.trace(r, offset=1).strides == np.trace(rn, offset=1).strides
    for make in ("zeros", "empty"):
        got = ac.sum(getattr(ac, make)((3, 0, 4), order="F", device=device), axis=1)
        assert got.strides == np.sum(getattr(np, make)((3, 0, 4), order="F"), axis=1).strides


# NumPy's nan forms of median and quantile reach their results by other roads than median and
# quantile: nanmedian along fewer than 600 values sorts masked arrays (a reduction's layout of
# the kept axes), along more it takes apply_along_axis (C); nanquantile and nanpercentile fill
# apply_along_axis' C-ordered buffer with each slice's quantiles innermost, then move q's axes to
# the front. Several axes are merged behind the kept ones first, a view when they merge.
NAN_STATS = [("nanmedian", None), ("nanquantile", 0.3), ("nanquantile", [0.2, 0.7]),
             ("nanpercentile", [[10, 50], [90, 100]])]


@pytest.mark.filterwarnings("ignore:All-NaN slice")
@pytest.mark.parametrize("keepdims", [False, True])
@pytest.mark.parametrize("axis", [0, 1, 2, (0, 2), (1, 2), None])
@pytest.mark.parametrize("fn,q", NAN_STATS)
@pytest.mark.parametrize("view", ["F", "T", "rot", "reversed T", "C"])
def test_nan_medians_and_quantiles_lay_out_as_numpys(fn, q, axis, keepdims, view, device):
    rng = np.random.default_rng(11)
    for shape in [(3, 4, 5), (2, 3, 601)]:
        xn = laid_out(rng, shape, view)
        xn[rng.random(shape) < 0.2] = np.nan
        args = () if q is None else (q,)
        if isinstance(axis, tuple) and np.ndim(q) == 2:
            # NumPy's nanquantile moves the wrong axes for a 2-d q and several axes (its from_ax
            # counts from axis -1); accel answers as NumPy does once the axes are merged by hand,
            # the steps NumPy's _ureduce takes, along the one axis that leaves.
            kept = [d for d in range(xn.ndim) if d not in axis]
            merged = np.moveaxis(xn, kept, range(len(kept)))
            merged = merged.reshape(merged.shape[:len(kept)] + (-1,))
            want = getattr(np, fn)(merged, *args, axis=-1)
            if keepdims:
                want = want[(Ellipsis,) + tuple(None if d in axis else slice(None)
                                                for d in range(xn.ndim))]
        else:
            want = getattr(np, fn)(xn, *args, axis=axis, keepdims=keepdims)
        got = getattr(ac, fn)(ac.asarray(xn, device=device), *args, axis=axis, keepdims=keepdims)
        assert got.shape == want.shape and got.dtype == want.dtype
        assert layout(got) == layout(want), (shape, got.strides, want.strides)
        np.testing.assert_allclose(ac.asnumpy(got), want, rtol=1e-12)


# NumPy functions outside the standard, laid out as NumPy's own code lays them out (fuzz
# statement kind numpy_rest, seeds 2, 22, 63, 704): vander fills a C-ordered matrix through a
# reversed view; argwhere is transpose(nonzero(x)), a view stepping down its columns;
# unravel_index writes the coordinates into one array (coordinate axis innermost, the others in
# the indices' iterator order) and returns views of it; ravel_multi_index allocates through the
# iterator over the coordinates as given (seed 1901808); isclose(equal_nan=True) ORs NaN pairs
# into its result in place.
@pytest.mark.parametrize("view", ["F", "T", "rot", "reversed T", "C"])
def test_index_sets_and_matrices_lay_out_as_numpys(view, device):
    rng = np.random.default_rng(12)
    xn = laid_out(rng, (3, 4, 5), view)
    x = ac.asarray(xn, device=device)
    want = np.argwhere(xn > 0)
    check(ac.argwhere(x > 0), want)
    idx_n = (np.abs(xn) * 100).astype(np.int64) % 12
    idx = ac.asarray(idx_n, device=device)
    for order in "CF":
        for got, w in zip(ac.unravel_index(idx, (3, 4), order=order),
                          np.unravel_index(idx_n, (3, 4), order=order)):
            check(got, w)
    row = np.broadcast_to(idx_n[0, 0], (2, 5))
    for got, w in zip(ac.unravel_index(ac.asarray(row, device=device), (3, 4)),
                      np.unravel_index(row, (3, 4))):
        check(got, w)
    for mode in ("wrap", "clip"):  # through the iterator over the coordinates as given
        check(ac.ravel_multi_index((idx, ac.broadcast_to(idx[:, :1], idx.shape)), (3, 4), mode=mode),
              np.ravel_multi_index((idx_n, np.broadcast_to(idx_n[:, :1], idx_n.shape)), (3, 4),
                                   mode=mode))
    yn = np.where(xn > 0.5, np.nan, xn)
    y = ac.asarray(yn, device=device)
    check(ac.isclose(y, y[:1], equal_nan=True), np.isclose(yn, yn[:1], equal_nan=True))
    check(ac.isclose(y, x, rtol=0.5), np.isclose(yn, xn, rtol=0.5))
    vn = xn[0, 0]
    for increasing in (False, True):
        check(ac.vander(ac.asarray(vn, device=device), 4, increasing=increasing),
              np.vander(vn, 4, increasing=increasing))


OPERAND_LAYOUTS = {
    "C": lambda xp, b: b,
    "T": lambda xp, b: xp.ascontiguousarray(b.T).T,
    "broadcast row": lambda xp, b: xp.broadcast_to(b[:1], b.shape),
    "broadcast column": lambda xp, b: xp.broadcast_to(b[:, :1], b.shape),
    "stepped T": lambda xp, b: xp.ascontiguousarray(xp.repeat(b, 2, axis=0).T).T[::2],
}


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
@pytest.mark.parametrize("ex", list(OPERAND_LAYOUTS))
@pytest.mark.parametrize("xv", list(OPERAND_LAYOUTS))
def test_ldexp_lays_out_as_numpys_ufunc(xv, ex, dtype, device):
    """ldexp's steps (casts, clips, a gathered power of two) lose the layout NumPy's iterator
    gives the ufunc's result over the operands as given (fuzz seed 2057219: a broadcast row
    scaled came out Fortran-ordered)."""
    rng = np.random.default_rng(3)
    xb, eb = (rng.standard_normal((3, 4)) * 8).astype(dtype), rng.integers(-20, 20, (3, 4))
    xn, en = OPERAND_LAYOUTS[xv](np, xb), OPERAND_LAYOUTS[ex](np, eb)
    x = OPERAND_LAYOUTS[xv](ac, ac.asarray(xb, device=device))
    e = OPERAND_LAYOUTS[ex](ac, ac.asarray(eb, device=device))
    check(ac.ldexp(x, e), np.ldexp(xn, en))
    check(ac.ldexp(x, 5), np.ldexp(xn, 5))


@pytest.mark.parametrize("fn,dtype", [("gcd", "int32"), ("lcm", "int16"), ("float_power", "int32"),
                                      ("float_power", "float32")])
@pytest.mark.parametrize("right", list(OPERAND_LAYOUTS))
@pytest.mark.parametrize("left", list(OPERAND_LAYOUTS))
def test_composite_ufuncs_lay_out_as_numpys(fn, dtype, left, right, device):
    """gcd, lcm and float_power are written as several steps whose casts and broadcasts lose
    the operands' order: a Fortran operand beside a broadcast one gave C order, where NumPy's
    iterator, which ignores the broadcast axes, gives Fortran order."""
    rng = np.random.default_rng(4)
    xb, yb = ((rng.standard_normal((3, 4)) * 20).astype(dtype) for _ in range(2))
    xn, yn = OPERAND_LAYOUTS[left](np, xb), OPERAND_LAYOUTS[right](np, yb)
    x = OPERAND_LAYOUTS[left](ac, ac.asarray(xb, device=device))
    y = OPERAND_LAYOUTS[right](ac, ac.asarray(yb, device=device))
    with np.errstate(all="ignore"):
        want = getattr(np, fn)(xn, yn)
    check(getattr(ac, fn)(x, y), want, rtol=1e-12 if fn == "float_power" else 0)


@pytest.mark.parametrize("dtype", ["int32", "float64"])
@pytest.mark.parametrize("bounds", [("broadcast row", "broadcast column"), ("T", "C"),
                                    ("broadcast column", None), (None, "T"),
                                    ("stepped T", "broadcast row"), ("T", "T")], ids=str)
@pytest.mark.parametrize("xv", list(OPERAND_LAYOUTS))
def test_clip_with_array_bounds_lays_out_as_numpys(xv, bounds, dtype, device):
    """NumPy's clip is one ufunc over x and both bounds; accel's maximum then minimum (and the
    bounds' casts) kept the order of the last step's operands: a Fortran x beside a broadcast
    bound came out C-ordered."""
    rng = np.random.default_rng(5)
    xb, lo, hi = ((rng.standard_normal((3, 4)) * 8).astype(dtype) for _ in range(3))
    lo, hi = np.minimum(lo, hi), np.maximum(lo, hi)
    args_n = [OPERAND_LAYOUTS[xv](np, xb)]
    args_a = [OPERAND_LAYOUTS[xv](ac, ac.asarray(xb, device=device))]
    for view, b in zip(bounds, (lo, hi)):
        args_n.append(None if view is None else OPERAND_LAYOUTS[view](np, b))
        args_a.append(None if view is None else OPERAND_LAYOUTS[view](ac, ac.asarray(b, device=device)))
    check(ac.clip(*args_a), np.clip(*args_n))


def test_isreal_of_real_values_lays_out_as_the_imag_attribute(device):
    """NumPy's isreal is imag(x) == 0, and a real array's imag is new zeros in order A: C for a
    strided view that is neither C- nor Fortran-contiguous, not the view's own order."""
    b = np.arange(12.0).reshape(4, 3)
    check(ac.isreal(ac.asarray(b, device=device)[::2].T), np.isreal(b[::2].T))
    check(ac.isreal(ac.asarray(b, device=device).T), np.isreal(b.T))


def test_real_if_close_is_a_view_of_the_real_parts(device):
    zn = np.array([1 + 1e-17j, 2 - 0j, -3 + 0j])
    z = ac.asarray(zn, device=device)
    r = ac.real_if_close(z)
    assert r.dtype == ac.float64
    z[0] = 7 + 0j  # NumPy's real_if_close returns z.real: writes to z show through
    wn = np.real_if_close(zn)
    zn[0] = 7 + 0j
    check(r, wn)
    x = ac.asarray([1.0, 2.0], device=device)
    assert ac.real_if_close(x) is x  # a real array comes back as itself, as NumPy's
    c = ac.asarray([1 + 1j], device=device)
    assert ac.real_if_close(c) is c


@pytest.mark.parametrize("func", ["cumulative_sum", "cumulative_prod"])
@pytest.mark.parametrize("shape,perm,axis", [((1, 3, 1, 4), (0, 1, 2, 3), -2),
                                             ((4, 1, 3), (2, 1, 0), 1), ((3, 4), (1, 0), 0),
                                             ((2, 1), (1, 0), 1)])
def test_cumulative_with_the_initial_value_lays_out_as_numpys(func, shape, perm, axis, device):
    # NumPy joins full_like(scan, shape=...) and the scan with concatenate: where the axis had
    # length 1 the join puts it where C order has it (fuzz seed 2190772: a cumulative_prod of a
    # linspace along a length-1 axis came out with that axis outermost).
    base = np.arange(1, 1 + int(np.prod(shape)), dtype=np.float64).reshape(shape)
    xn = np.asfortranarray(base) if perm != tuple(range(len(shape))) else base
    x = ac.asarray(xn, device=device)
    want = getattr(np, func)(xn, axis=axis, include_initial=True)
    got = getattr(ac, func)(x, axis=axis, include_initial=True)
    check(got.to_device("cpu"), want)
