"""NumPy's order= (C, F, A, K) on every function that takes it, NumPy the oracle for values and
layouts (strides of the axes longer than 1), on every device: new arrays (empty, zeros, ones,
full), the *_like functions, copies (astype, copy, ndarray.copy, asarray, array) and reshaping
(reshape, ravel, flatten) of C-ordered, transposed, sliced, reversed and permuted inputs."""

import numpy as np
import pytest

import accel as ac

VIEWS = {
    "C": lambda a: a,
    "T": lambda a: a.T,
    "F copy": lambda a: np.asfortranarray(a) if isinstance(a, np.ndarray) else a.copy(order="F"),
    "120": lambda a: a.transpose(1, 2, 0),
    "sliced": lambda a: a[:, 1:, ::2],
    "reversed T": lambda a: a[::-1, :, 1:].T,
    "broadcast": lambda a: a[:1, :1],
    "empty": lambda a: a[:, :0],
}
ORDERS = ["C", "F", "A", "K"]


def layout(x):
    return tuple(s for s, n in zip(x.strides, x.shape) if n > 1)


def same(got, want):
    """Values, dtype, shape and layout as NumPy's."""
    want = np.asarray(want)
    assert got.dtype == ac.asarray(want).dtype and got.shape == want.shape
    np.testing.assert_array_equal(ac.asnumpy(got), want)
    if want.size > 1:
        assert layout(got) == layout(want), (got.strides, want.strides)


def pair(view, device, dtype="float32"):
    base = np.arange(2 * 3 * 4).reshape(2, 3, 4).astype(dtype)
    return VIEWS[view](base), VIEWS[view](ac.asarray(base, device=device))


@pytest.mark.parametrize("order", ["C", "F"])
def test_new_arrays_in_either_order(order, device):
    for shape in [(2, 3), (2, 3, 4), (5,), (), (0, 3)]:
        e = ac.empty(shape, order=order, device=device)
        e[...] = 0  # (not e * 0: memory left by an earlier test may hold NaN bit patterns)
        same(e, np.zeros(shape, order=order))
        same(ac.zeros(shape, ac.int16, order, device=device), np.zeros(shape, np.int16, order))
        same(ac.ones(shape, order=order, device=device), np.ones(shape, order=order))
        same(ac.full(shape, 2.5, order=order, device=device), np.full(shape, 2.5, order=order))
    row = np.arange(3.0)
    same(ac.full((2, 3), ac.asarray(row, device=device), order=order, device=device),
         np.full((2, 3), row, order=order))


@pytest.mark.parametrize("view", VIEWS)
@pytest.mark.parametrize("order", ORDERS)
def test_like_functions_lay_out_as_numpys(view, order, device):
    n, a = pair(view, device)
    same(ac.zeros_like(a, order=order), np.zeros_like(n, order=order))
    same(ac.ones_like(a, dtype=ac.int8, order=order), np.ones_like(n, dtype=np.int8, order=order))
    same(ac.full_like(a, 7, order=order), np.full_like(n, 7, order=order))
    e = ac.empty_like(a, order=order)
    e[...] = 0  # (garbage memory may hold NaN bit patterns, which * 0 keeps)
    same(e, np.zeros_like(n, order=order))


@pytest.mark.parametrize("view", VIEWS)
@pytest.mark.parametrize("order", ORDERS)
def test_copies_lay_out_as_numpys(view, order, device):
    n, a = pair(view, device)
    same(a.astype(ac.float64, order=order), n.astype(np.float64, order=order))
    same(a.astype(ac.float32, order), n.astype(np.float32, order))  # positional, as NumPy's
    same(a.copy(order=order), n.copy(order=order))
    same(ac.copy(a, order=order), np.copy(n, order=order))
    same(ac.array(a, order=order), np.array(n, order=order))
    same(ac.asarray(a, order=order), np.asarray(n, order=order))
    if order == "K":
        same(a.copy(), n.copy())  # ndarray.copy: C unless asked


@pytest.mark.parametrize("view", list(VIEWS))
def test_contiguous_conversions_copy_only_when_numpy_does(view, device):
    n, a = pair(view, device)
    for fn in ("ascontiguousarray", "asfortranarray"):
        got, want = getattr(ac, fn)(a), getattr(np, fn)(n)
        same(got, want)
        assert (got is a) == (want is n), fn  # x itself where its layout already fits
        same(getattr(ac, fn)(a, dtype=ac.float64), getattr(np, fn)(n, dtype=np.float64))
    assert ac.asarray(a) is a and np.asarray(n) is n  # NumPy's asarray(x) is x
    assert ac.asfortranarray(ac.asarray(2.5, device=device)).shape == (1,)


@pytest.mark.parametrize("order", ["C", "F", "A"])
def test_astype_without_copy_returns_x_where_its_layout_fits(order, device):
    n, a = pair("T", device)
    got = a.astype(a.dtype, order=order, copy=False)
    want = n.astype(n.dtype, order=order, copy=False)
    assert (got is a) == (want is n)
    assert ac.asarray(a, order=order) is a if (want is n) else True
    with pytest.raises(ValueError, match="copy=False"):
        ac.asarray(pair("sliced", device)[1], order="C", copy=False)


def test_astype_casting_rule(device):
    a = ac.asarray([1.5, 2.5], device=device)
    with pytest.raises(TypeError, match="rule 'safe'"):
        a.astype(ac.int32, casting="safe")
    same(a.astype(ac.float32, casting="same_kind"), np.array([1.5, 2.5], np.float32))
    same(a.astype(ac.int32, casting="unsafe"), np.array([1, 2], np.int32))


@pytest.mark.parametrize("view", VIEWS)
@pytest.mark.parametrize("order", ["C", "F", "A"])
def test_reshape_in_either_order(view, order, device):
    n, a = pair(view, device)
    for shape in [(-1,), (n.size // 2, -1) if n.size else (0, 2), (1, -1, 1)]:
        got = a.reshape(shape, order=order)
        want = n.reshape(shape, order=order)
        same(got, want)
        assert ac.shares_memory(got, a) == np.shares_memory(want, n)
        same(ac.reshape(a, shape, order=order), np.reshape(n, shape, order=order))


@pytest.mark.parametrize("view", VIEWS)
@pytest.mark.parametrize("order", ORDERS)
def test_ravel_and_flatten_in_every_order(view, order, device):
    n, a = pair(view, device)
    got, want = a.ravel(order), n.ravel(order)
    same(got, want)
    assert ac.shares_memory(got, a) == np.shares_memory(want, n)
    same(ac.ravel(a, order=order), np.ravel(n, order=order))
    got = a.flatten(order)
    same(got, n.flatten(order))
    assert not ac.shares_memory(got, a)


def test_order_errors(device):
    a = ac.zeros((2, 3), device=device)
    with pytest.raises(ValueError, match="not permitted"):
        a.reshape(3, 2, order="K")
    with pytest.raises(ValueError, match="order must be one of"):
        ac.zeros(3, order="X")
    with pytest.raises(ValueError, match="order must be one of"):
        a.astype(ac.int8, order="CF")
    with pytest.raises(TypeError, match="order must be a string"):
        a.copy(order=1)
