"""einsum against NumPy: matrix and batched products, traces and diagonals (repeated labels),
transposes, full and partial sums, outer products, ellipsis broadcasting (including size-1
axes), implicit output order, three- and four-operand chains, empty and 0-d operands, the
interleaved sublist form, every dtype kind, out= and dtype=, and NumPy's errors."""

import numpy as np
import pytest

import accel as ac

CASES = [
    ("ij,jk->ik", [(3, 4), (4, 5)]), ("ij,jk", [(3, 4), (4, 5)]), ("ii->i", [(4, 4)]),
    ("ii", [(4, 4)]), ("ij->ji", [(2, 3)]), ("ij->", [(2, 3)]), ("i,i->", [(5,), (5,)]),
    ("i,j->ij", [(3,), (4,)]), ("bij,bjk->bik", [(2, 3, 4), (2, 4, 5)]),
    ("...ij,...jk->...ik", [(2, 3, 4), (4, 5)]), ("...ij,...jk", [(7, 1, 3, 4), (2, 4, 5)]),
    ("ijk,jil->kl", [(3, 4, 5), (4, 3, 2)]), ("ij,jk,kl->il", [(2, 3), (3, 4), (4, 5)]),
    ("iij->j", [(3, 3, 4)]), ("ijj,jk->ik", [(2, 3, 3), (3, 4)]), ("i,i,i->i", [(4,), (4,), (4,)]),
    ("ab,cd->", [(2, 3), (4, 5)]), ("a,b,c,d->abcd", [(1,), (2,), (3,), (2,)]),
    ("Ab,bA->", [(3, 4), (4, 3)]), ("ba,aC", [(2, 3), (3, 4)]), ("ij,ij->ij", [(3, 1), (3, 4)]),
    ("...", [(2, 3)]), ("i...->...", [(3, 2, 2)]), ("ij,jk->ik", [(0, 4), (4, 5)]),
    ("ij,jk->ik", [(3, 0), (0, 5)]), (",->", [(), ()]), ("i,->i", [(3,), ()]),
    ("iii->i", [(3, 3, 3)]), ("ijk,ikl,ilm->jm", [(3, 2, 4), (3, 4, 5), (3, 5, 2)]),
    (" ij , jk -> ik ", [(2, 2), (2, 2)]),
]
ERRORS = [("ij,jk->ik", [(3, 4), (5, 6)]), ("ij->iij", [(2, 2)]), ("ij->k", [(2, 2)]),
          ("i->ii", [(3,)]), ("ij,jk", [(2, 2)]), ("ijk", [(2, 2)]), ("i$->i", [(2, 2)])]
DTYPES = ["float64", "float32", "int64", "int32", "complex128", "bool"]


def _operand(rng, shape, dtype):
    a = rng.normal(size=shape) * 3
    return a + 1j * rng.normal(size=shape) if dtype == "complex128" else a.astype(dtype)


@pytest.mark.parametrize("dtype", DTYPES)
def test_matches_numpy(device, dtype):
    rng = np.random.default_rng(DTYPES.index(dtype))
    for sub, shapes in CASES:
        ops = [_operand(rng, s, dtype) for s in shapes]
        want = np.asarray(np.einsum(sub, *ops))
        got = ac.asnumpy(ac.einsum(sub, *[ac.asarray(o, device=device) for o in ops]))
        assert got.dtype == want.dtype and got.shape == want.shape, sub
        tol = 1e-5 if dtype == "float32" else 1e-12
        np.testing.assert_allclose(got, want, rtol=tol, atol=tol, err_msg=sub)


def test_errors_match_numpy(device):
    rng = np.random.default_rng(1)
    for sub, shapes in ERRORS:
        ops = [rng.normal(size=s) for s in shapes]
        with pytest.raises(ValueError) as numpy_error:
            np.einsum(sub, *ops)
        with pytest.raises(type(numpy_error.value)):
            ac.einsum(sub, *[ac.asarray(o, device=device) for o in ops])


def test_interleaved_out_and_dtype(device):
    rng = np.random.default_rng(2)
    a, b = rng.normal(size=(3, 4)), rng.normal(size=(4, 5))
    x, y = ac.asarray(a, device=device), ac.asarray(b, device=device)
    np.testing.assert_allclose(ac.asnumpy(ac.einsum(x, [0, 1], y, [1, 2], [0, 2])), a @ b)
    np.testing.assert_allclose(ac.asnumpy(ac.einsum(x, [0, 1], y, [1, 2])), a @ b)
    out = ac.empty((3, 5), dtype=ac.float64, device=device)
    assert ac.einsum("ij,jk->ik", x, y, out=out) is out
    np.testing.assert_allclose(ac.asnumpy(out), a @ b)
    r = ac.einsum("ij,jk->ik", x, y, dtype=ac.float32)
    assert r.dtype == ac.float32


def test_views_and_copies(device):
    x = ac.asarray(np.arange(4.0).reshape(2, 2), device=device)
    t = ac.einsum("ij->ji", x)  # a pure transpose is a view, as in NumPy
    t[0, 1] = 50.0
    assert ac.asnumpy(x)[1, 0] == 50.0
    d = ac.einsum("ii->i", x)
    d[0] = 100.0  # a diagonal is a writable view, as NumPy's (ac.diagonal's is read-only)
    assert ac.asnumpy(x)[0, 0] == 100.0
    d[...] += 1
    np.testing.assert_array_equal(ac.asnumpy(x), [[101.0, 1.0], [50.0, 4.0]])
    assert ac.asnumpy(ac.einsum("iij->ji", ac.zeros((2, 2, 3), device=device))).shape == (3, 2)
    b = ac.broadcast_to(ac.asarray([[1.0, 2.0]], device=device), (2, 2))
    with pytest.raises(ValueError):  # a view of a read-only array stays read-only
        ac.einsum("ii->i", b)[0] = 5.0
    e = ac.einsum("ii", x)  # a trace: a new 0-d array
    assert float(e) == 105.0
    assert isinstance(np.einsum("ij->", x), ac.ndarray)


def test_other_results_are_new_writable_arrays_laid_out_as_numpys(device):
    # Sums, products and dtype changes give a new array (no copy of its own when the product is
    # already laid out as NumPy's result): writes to it never reach an operand, and its strides
    # are NumPy's.
    rng = np.random.default_rng(3)
    a, b, c = rng.normal(size=(4, 4)), rng.normal(size=4), rng.normal(size=(4, 3))
    for sub, ops, kw in [("ij->i", [a], {}), ("ij->j", [a], {}), ("ij,j->ij", [a, b], {}),
                         ("ij,i->ij", [a, b], {}), ("ij,j->i", [a, b], {}), ("i,i->i", [b, b], {}),
                         ("ij,jk->ik", [a, c], {}), ("ij,jk->ki", [a, c], {}),
                         ("ij,kj->ikj", [a, c.T], {}), ("i,j->ij", [b, b], {}),
                         ("ij->i", [a], {"dtype": "float32", "casting": "unsafe"})]:
        xs = [ac.asarray(o, device=device) for o in ops]
        want = np.einsum(sub, *ops, **kw)
        got = ac.einsum(sub, *xs, **kw)
        assert ac.asnumpy(got).strides == want.strides, sub
        got[...] = -7.0
        for x, o in zip(xs, ops):
            np.testing.assert_array_equal(ac.asnumpy(x), o, err_msg=sub)
    # A full sum of one operand is a new 0-d array, writable too (fuzz seed 2331020).
    s = ac.einsum("i...->...", ac.asarray([0.0], device=device))
    ac.logical_or(s, 1j, s)
    assert float(s) == 1.0
