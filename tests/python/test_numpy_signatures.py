"""NumPy's own ways of passing arguments to the functions accel shares with it: positional
parameters NumPy code passes positionally (np.asarray(x, np.float32), np.concat((a, b), 1),
np.eye(3, 4, 1, float, 'F')) and NumPy's keywords (zeros_like(x, shape=...), clip(x, a_min=0),
meshgrid(..., copy=False)), each compared with NumPy on every device. The Array API's
signatures stay as they were (its keywords accepted positionally is what the standard allows)."""

import inspect

import numpy as np
import pytest

import accel as ac

RNG = np.random.default_rng(2026)

LAYOUTS = {
    "C": lambda a: a,
    "F": lambda a: np.asfortranarray(a),
    "T": lambda a: a.T,
    "strided": lambda a: a[:, ::2],
}


def same(got, want):
    assert isinstance(got, ac.ndarray)
    host = ac.asnumpy(got.to_device("cpu"))
    assert host.shape == want.shape and host.dtype == want.dtype
    np.testing.assert_array_equal(host, want)


def flags(x):
    f = x.flags
    return bool(f["C_CONTIGUOUS"]), bool(f["F_CONTIGUOUS"])


@pytest.mark.parametrize("dtype", ["float32", "int16", "complex64"])
def test_asarray_takes_dtype_and_order_positionally(device, dtype):
    an = RNG.random((3, 4)).astype(np.float64).T
    same(ac.asarray(an, getattr(ac, dtype), device=device), np.asarray(an, np.dtype(dtype)))
    same(ac.asarray(an, dtype, device=device), np.asarray(an, dtype))
    for order in ("C", "F", "K", "A", None):
        got = ac.asarray(an, None, order, device=device)
        want = np.asarray(an, None, order)
        same(got, want)
        assert flags(got) == flags(want), order
    x = ac.asarray(an, device=device)
    assert ac.asarray(x, None) is x  # nothing to change: x itself, as NumPy's asarray
    with pytest.raises(ValueError, match="order must be one of"):
        ac.asarray(an, None, "Q", device=device)
    with pytest.raises(TypeError):
        ac.asarray(an, None, "C", None)  # device and copy stay keyword-only, as NumPy's
    assert str(inspect.signature(ac.asarray)) == \
        "(a, dtype=None, order=None, *, device=None, copy=None, like=None)"


@pytest.mark.parametrize("layout", list(LAYOUTS))
@pytest.mark.parametrize("order", ["K", "A", "C", "F"])
@pytest.mark.parametrize("shape", [(4, 3), (2, 6), (12,), (2, 3, 2), (), (0, 5)])
def test_like_functions_take_numpys_shape(device, layout, order, shape):
    an = LAYOUTS[layout](RNG.random((3, 4)).astype(np.float32))
    x = ac.asarray(an, device=device)
    for name in ("empty_like", "zeros_like", "ones_like"):
        got = getattr(ac, name)(x, order=order, shape=shape)
        want = getattr(np, name)(an, order=order, shape=shape)
        assert got.shape == want.shape and got.dtype == ac.float32 and got.device == x.device
        assert flags(got) == flags(want), (name, layout, order, shape)
        if name != "empty_like":
            same(got, want)
    got = ac.full_like(x, 2.5, ac.float64, order, True, shape)  # NumPy's positional order
    want = np.full_like(an, 2.5, np.float64, order, True, shape)
    same(got, want)
    assert flags(got) == flags(want)
    # An array fill broadcasts against the new shape, as NumPy's.
    if shape and shape[-1] == 3:
        fill = np.arange(3, dtype=np.float32)
        same(ac.full_like(x, ac.asarray(fill, device=device), shape=shape),
             np.full_like(an, fill, shape=shape))


def test_like_functions_shape_errors(device):
    x = ac.ones((2, 3), device=device)
    with pytest.raises(ValueError):
        ac.zeros_like(x, shape=(-1, 2))
    with pytest.raises(TypeError):
        ac.zeros_like(x, shape=2.5)
    with pytest.raises(ValueError):  # the fill cannot broadcast to the new shape
        ac.full_like(x, ac.ones(4, device=device), shape=(3, 3))


def test_eye_takes_numpys_names_and_order(device):
    for args in [(3,), (3, 4), (3, 4, 1), (4, 3, -2, np.float32), (3, 5, 2, np.float32, "F"),
                 (3, None, 0, np.int8, "C")]:
        acc = tuple(getattr(ac, a.__name__) if isinstance(a, type) else a for a in args)
        got, want = ac.eye(*acc, device=device), np.eye(*args)
        same(got, want)
        assert flags(got) == flags(want), args
    same(ac.eye(N=2, M=3, k=1, device=device), np.eye(N=2, M=3, k=1))
    with pytest.raises(ValueError, match="order"):
        ac.eye(2, 2, 0, None, "X", device=device)


def test_concat_takes_the_axis_and_out_positionally(device):
    an, bn = RNG.random((2, 3)), RNG.random((2, 1))
    a, b = ac.asarray(an, device=device), ac.asarray(bn, device=device)
    same(ac.concat((a, b), 1), np.concat((an, bn), 1))
    same(ac.concat((a, a), None), np.concat((an, an), None))
    out = ac.empty((2, 4), device=device)
    assert ac.concat((a, b), 1, out) is out
    same(out, np.concat((an, bn), 1))
    same(ac.concat((a, b), axis=1, dtype=ac.float32), np.concat((an, bn), axis=1, dtype=np.float32))
    with pytest.raises(ValueError):
        ac.concat((a, b), 0)


@pytest.mark.parametrize("indexing", ["xy", "ij"])
@pytest.mark.parametrize("sparse", [False, True])
def test_meshgrid_copy_false_gives_views(device, indexing, sparse):
    xn, yn, zn = np.arange(3.0), np.arange(4.0) * 10, np.arange(2.0) * 100
    x, y, z = (ac.asarray(v, device=device) for v in (xn, yn, zn))
    got = ac.meshgrid(x, y, z, indexing=indexing, sparse=sparse, copy=False)
    want = np.meshgrid(xn, yn, zn, indexing=indexing, sparse=sparse, copy=False)
    for g, w in zip(got, want):
        same(g, np.ascontiguousarray(w))
        # A dense grid repeats each element: read-only (NumPy's warns on writes, accel refuses).
        assert g.flags.writeable == sparse
    if sparse:  # views of the inputs: a write reaches them
        got[0][...] = -1.0
        np.testing.assert_array_equal(ac.asnumpy(x.to_device("cpu")), [-1.0, -1.0, -1.0])
    else:
        with pytest.raises(ValueError, match="read-only"):
            got[0][0, 0, 0] = 5.0
    copies = ac.meshgrid(x, y, indexing=indexing, sparse=sparse)  # copy=True (the default)
    assert all(c.flags.writeable for c in copies)


def test_clip_takes_numpys_bound_names(device):
    an = RNG.standard_normal(10)
    x = ac.asarray(an, device=device)
    same(ac.clip(x, a_min=-0.5, a_max=0.5), np.clip(an, a_min=-0.5, a_max=0.5))
    same(ac.clip(x, a_min=0.0), np.clip(an, a_min=0.0, a_max=None))
    same(ac.clip(x, -0.5, a_max=0.25), np.clip(an, -0.5, 0.25))
    same(ac.clip(x, min=-0.1, max=0.1), np.clip(an, min=-0.1, max=0.1))
    with pytest.raises(TypeError, match="given twice"):
        ac.clip(x, 0.0, a_min=1.0)
    with pytest.raises(TypeError, match="given twice"):
        ac.clip(x, max=0.0, a_max=1.0)


def _ufuncs():
    """(name, arity) of every registry op that NumPy has as a ufunc of the same arity."""
    out = []
    for name, arity, *_ in ac._core._op_registry():
        ufunc = getattr(np, name, None)
        if isinstance(ufunc, np.ufunc) and ufunc.nin == arity and ufunc.nout == 1:
            out.append((name, arity))
    return out


@pytest.mark.parametrize("name,arity", _ufuncs())
def test_every_ufunc_takes_where_as_numpy(device, name, arity):
    """np.<op>(..., out=o, where=mask): the result where mask holds, o's own values elsewhere,
    the mask broadcast with the operands; out= may be a larger array the operands broadcast
    to. Each op in a dtype it takes (floats, or ints for the integer ones)."""
    floats = [np.array([0.5, -1.0, 2.0, 0.0, 3.5, 0.25], dtype=np.float64),
              np.array([1.5, 2.0, -0.5, 4.0, 1.0, 3.0], dtype=np.float64)]
    ints = [np.array([3, 5, 12, 1, 7, 2], dtype=np.int64), np.array([2, 1, 3, 4, 1, 5], np.int64)]
    mask_n = np.array([True, False, True, True, False, True])
    ufunc = getattr(np, name)
    for operands in (floats, ints):
        ops_n = operands[:arity]
        with np.errstate(all="ignore"):
            try:
                plain = ufunc(*ops_n)
            except TypeError:
                continue  # NumPy has no loop for these dtypes
        if plain.dtype == object:
            continue
        ops = [ac.asarray(o, device=device) for o in ops_n]
        fn = getattr(ac, name)
        # out= of the result's dtype, then a larger out= the operands broadcast to.
        for shape, mask_shape in (((6,), (6,)), ((2, 6), (6,)), ((2, 6), (2, 1))):
            o_n = np.full(shape, 9, dtype=plain.dtype)
            m_n = np.resize(mask_n, mask_shape) if mask_shape != (6,) else mask_n
            o = ac.asarray(o_n, device=device, copy=True)
            with np.errstate(all="ignore"):
                want = ufunc(*ops_n, out=o_n, where=m_n)
            got = fn(*ops, out=o, where=ac.asarray(m_n, device=device))
            assert got is o
            np.testing.assert_allclose(ac.asnumpy(o.to_device("cpu")), want, rtol=1e-12,
                                       equal_nan=True, err_msg=f"{name} {shape} {mask_shape}")
        # where=False leaves out= alone; where=True is the plain call.
        o = ac.asarray(np.full(6, 9, dtype=plain.dtype), device=device, copy=True)
        fn(*ops, out=o, where=False)
        np.testing.assert_array_equal(ac.asnumpy(o.to_device("cpu")), np.full(6, 9, plain.dtype))
        with np.errstate(all="ignore"):
            np.testing.assert_allclose(ac.asnumpy(fn(*ops, where=True).to_device("cpu")), plain,
                                       rtol=1e-12, equal_nan=True)


def test_ufunc_where_errors_and_no_out(device):
    x = ac.arange(6.0, device=device)
    with pytest.raises(TypeError, match="where= must be a boolean"):
        ac.add(x, 1, where=ac.arange(6, device=device))
    with pytest.raises(ValueError, match="broadcast"):
        ac.add(x, 1, where=ac.ones(4, dtype=ac.bool, device=device))
    out = ac.zeros(6, dtype=ac.int32, device=device)
    with pytest.raises(TypeError, match="same_kind"):
        ac.add(x, 1, out=out, where=x > 2)
    # Without out=, NumPy's elements outside the mask are uninitialised; accel's are the op's
    # values, and the mask broadcasts the result as NumPy's does.
    got = ac.add(x, 1, where=x > 2)
    np.testing.assert_array_equal(ac.asnumpy(got.to_device("cpu")), np.arange(6.0) + 1)
    assert ac.add(1.0, 2.0, where=ac.ones((2, 3), dtype=ac.bool, device=device)).shape == (2, 3)
    # In place, reading the array it writes: NumPy's x *= 2 where x > 1.
    ac.multiply(x, 2, out=x, where=x > 1)
    np.testing.assert_array_equal(ac.asnumpy(x.to_device("cpu")), [0, 1, 4, 6, 8, 10])
    # Integers past float64's precision go into out= exactly (no promotion in the merge).
    big = ac.asarray(np.array([2**62 + 1, 5], dtype=np.uint64), device=device)
    o = ac.zeros(2, dtype=ac.uint64, device=device)
    ac.add(big, 2, out=o, where=ac.asarray([True, False], device=device))
    assert ac.asnumpy(o.to_device("cpu")).tolist() == [2**62 + 3, 0]


@pytest.mark.parametrize("name", ["var", "std"])
@pytest.mark.parametrize("dtype", ["float64", "float32", "int32", "complex128"])
def test_var_and_std_take_a_precomputed_mean(device, name, dtype):
    # NumPy 2's mean=: the mean as keepdims=True gives it, used as it is (not recomputed); a
    # mean of another dtype promotes the deviations as arr - mean does.
    rng = np.random.default_rng(5)
    x = rng.standard_normal((4, 6)) * 10
    x = (x + 1j * x[::-1]) if dtype == "complex128" else x.astype(dtype)
    a = ac.asarray(x, device=device)
    for axis in (0, 1, (0, 1)):
        m = np.mean(x, axis=axis, keepdims=True)
        for kw in ({}, {"ddof": 1, "keepdims": True}, {"where": x.real > 0}):
            want = getattr(np, name)(x, axis=axis, mean=m, **kw)
            akw = {k: (ac.asarray(v, device=device) if k == "where" else v) for k, v in kw.items()}
            got = getattr(ac, name)(a, axis=axis, mean=ac.asarray(m, device=device), **akw)
            host = ac.asnumpy(got.to_device("cpu"))
            assert host.dtype == want.dtype and host.shape == want.shape, (axis, kw)
            np.testing.assert_allclose(host, want, rtol=1e-5 if dtype == "float32" else 1e-12)
    # Another mean is used as given (NumPy's deviations from it), and the method takes it too.
    want = getattr(np, name)(x, axis=0, mean=np.zeros((1, 6)))
    got = getattr(a, name)(axis=0, mean=ac.zeros((1, 6), device=device))
    np.testing.assert_allclose(ac.asnumpy(got.to_device("cpu")), want, rtol=1e-5)
    with pytest.raises((ValueError, ac.ShapeError)):
        getattr(ac, name)(a, axis=0, mean=ac.zeros((3,), device=device))


# NumPy functions whose NumPy keyword accel does not take, and why.
KEYWORD_EXCEPTIONS = {
    # accel's real and imag are ufuncs (out=, where=, dtype=), whose operand is positional as
    # every ufunc's; NumPy's are plain functions of `val`.
    ("real", "val"), ("imag", "val"),
}


def accepted_keywords(fn):
    """The keyword names fn takes, or None where it takes any (**kwargs): from
    inspect.signature, or from nanobind's signature for the C++ functions (their fast paths
    stand in front of the full functions kept in _core._full_functions)."""
    import re

    from accel import _core
    full = getattr(_core, "_full_functions", {}).get(getattr(fn, "__name__", ""))
    if full is not None and isinstance(fn, type(len)):
        fn = full
    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError):
        sig = None
    if sig is not None:
        if any(p.kind == p.VAR_KEYWORD for p in sig.parameters.values()):
            return None
        return {p.name for p in sig.parameters.values()
                if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)}
    names = set()
    for overload in getattr(fn, "__nb_signature__", ()):
        text = overload[0]
        depth, part, parts = 0, "", []
        for ch in text[text.index("(") + 1:text.rindex(")")]:
            depth += (ch in "[(") - (ch in "])")
            if ch == "," and depth == 0:
                parts.append(part)
                part = ""
            else:
                part += ch
        parts.append(part)
        for p in (p.strip() for p in parts):
            if p.startswith("**"):
                return None
            m = re.match(r"\*?(\w+)", p)
            if m and not p.startswith("*") and p != "/":
                names.add(m.group(1))
    return names


def shared_functions():
    out = []
    for name in sorted(dir(np)):
        f, g = getattr(np, name), getattr(ac, name, None)
        if name.startswith("_") or g is None or not callable(f) or isinstance(f, (type, np.ufunc)):
            continue
        try:
            sig = inspect.signature(f)
        except (TypeError, ValueError):
            continue
        out.append((name, sig))
    return out


def test_every_shared_function_takes_numpys_keywords():
    # NumPy code passes its parameters by name too (np.take(a, indices=i, axis=0),
    # np.asarray(x, like=y), np.clip(a=x, a_min=0)): each function accel shares with NumPy takes
    # every keyword NumPy's takes (the Array API's names are positional-only where they differ,
    # so NumPy's are free to use).
    missing = []
    checked = 0
    for name, sig in shared_functions():
        names = accepted_keywords(getattr(ac, name))
        if names is None:
            continue
        checked += 1
        for p in sig.parameters.values():
            if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY) and p.name not in names \
                    and (name, p.name) not in KEYWORD_EXCEPTIONS:
                missing.append(f"{name}({p.name}=)")
    assert checked > 150, checked
    assert not missing, missing


def test_numpys_keywords_reach_the_functions(device):
    x = RNG.standard_normal((4, 5)).astype(np.float32)
    a = ac.asarray(x, device=device)
    same(ac.take(a=a, indices=[0, 2], axis=1), np.take(a=x, indices=[0, 2], axis=1))
    same(ac.take_along_axis(arr=a, indices=ac.zeros((4, 1), dtype=ac.int64, device=device), axis=1),
         np.take_along_axis(arr=x, indices=np.zeros((4, 1), np.int64), axis=1))
    same(ac.tril(m=a, k=1), np.tril(m=x, k=1))
    same(ac.clip(a=a, a_min=-0.5, a_max=0.5), np.clip(a=x, a_min=-0.5, a_max=0.5))
    same(ac.round(a=a, decimals=1), np.round(a=x, decimals=1))
    same(ac.permute_dims(a=a, axes=(1, 0)), np.permute_dims(a=x, axes=(1, 0)))
    xi = np.round(x * 4)  # whole numbers: the product is exact in any order
    same(ac.tensordot(a=ac.asarray(xi, device=device), b=ac.asarray(xi.T, device=device), axes=1),
         np.tensordot(a=xi, b=xi.T, axes=1))
    same(ac.zeros_like(a=a, shape=(2,)), np.zeros_like(a=x, shape=(2,)))
    same(ac.broadcast_to(a, (2, 4, 5), subok=True), np.broadcast_to(x, (2, 4, 5), subok=True))
    same(ac.flatnonzero(a=a > 0), np.flatnonzero(a=x > 0))
    same(ac.asarray(a=x, like=a), np.asarray(a=x))
    # like=: an accel array's device is the default; a NumPy array makes an accel array too.
    for got, want in [(ac.zeros(3, like=a), np.zeros(3)), (ac.arange(4, like=a), np.arange(4)),
                      (ac.eye(2, like=a), np.eye(2)), (ac.full(2, 1.5, like=x), np.full(2, 1.5)),
                      (ac.identity(2, like=a), np.identity(2)), (ac.ones(2, like=None), np.ones(2))]:
        same(got, want)
    assert ac.empty(3, like=a).device == a.device
    with pytest.raises(TypeError, match="like= must be an array"):
        ac.zeros(3, like=[1, 2])
    m = x.copy()
    m[0, 1] = np.nan
    mean = np.nanmean(m, axis=1, keepdims=True)
    got = ac.nanvar(ac.asarray(m, device=device), axis=1, mean=ac.asarray(mean, device=device))
    np.testing.assert_allclose(ac.asnumpy(got.to_device("cpu")), np.nanvar(m, axis=1, mean=mean),
                               rtol=1e-6)
