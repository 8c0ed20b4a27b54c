"""accel's elementwise functions as ufuncs (python/accel/_ufuncs.py): NumPy's methods reduce,
accumulate, outer, at and reduceat, and its attributes, against NumPy's own ufuncs on every
device; NumPy's ufunc methods called on accel arrays reach them too."""

import pickle

import numpy as np
import pytest

import accel as ac

RNG = np.random.default_rng(77)

# Binary ufuncs and the operands they are tried on: floats, ints or bools.
BINARY = {
    "add": "f", "subtract": "f", "multiply": "f", "divide": "f", "maximum": "f", "minimum": "f",
    "fmax": "f", "fmin": "f", "hypot": "f", "arctan2": "f", "power": "p", "logaddexp": "f",
    "copysign": "f", "logical_and": "b", "logical_or": "b", "logical_xor": "b",
    "bitwise_and": "i", "bitwise_or": "i", "bitwise_xor": "i", "gcd": "i", "lcm": "i",
    "left_shift": "s", "floor_divide": "d", "remainder": "d", "greater": "f", "equal": "i",
}
# The exact ones compare element for element; the others (libm's last place, sums' order)
# closely.
EXACT = {"maximum", "minimum", "fmax", "fmin", "logical_and", "logical_or", "logical_xor",
         "bitwise_and", "bitwise_or", "bitwise_xor", "gcd", "lcm", "left_shift", "greater",
         "equal", "copysign", "floor_divide", "remainder"}


def operand(kind, shape):
    if kind == "f":
        x = RNG.standard_normal(shape)
        x.flat[::7] = np.nan if x.size > 7 else x.flat[::7]
        return x
    if kind == "p":
        return RNG.uniform(0.5, 1.5, shape)
    if kind == "b":
        return RNG.random(shape) < 0.6
    if kind == "s":
        return RNG.integers(0, 3, shape)
    if kind == "d":
        return RNG.integers(1, 9, shape) * RNG.choice([-1, 1], shape)
    return RNG.integers(-40, 40, shape)


def check(got, want, name):
    assert isinstance(got, ac.ndarray), name
    host = ac.asnumpy(got.to_device("cpu"))
    want = np.asarray(want)
    assert host.shape == want.shape, (name, host.shape, want.shape)
    assert host.dtype == want.dtype, (name, host.dtype, want.dtype)
    if name in EXACT:
        np.testing.assert_array_equal(host, want, err_msg=name)
    else:
        np.testing.assert_allclose(host, want, rtol=1e-12, atol=1e-300, equal_nan=True,
                                   err_msg=name)


def test_ufunc_attributes_call_and_pickle(device):
    x = ac.arange(4.0, device=device)
    for name in ("add", "sin", "maximum", "logical_not", "gcd", "ldexp", "rint", "abs"):
        u, ref = getattr(ac, name), getattr(np, name)
        assert isinstance(u, ac.ufunc), name
        assert (u.nin, u.nout, u.nargs) == (ref.nin, ref.nout, ref.nin + ref.nout), name
        assert u.identity == ref.identity and u.signature is None and u.__name__ == name
        assert repr(u) == f"<ufunc '{name}'>"
        assert pickle.loads(pickle.dumps(u)) is u  # Dask ships functions by name
    assert ac.add(x, 1.0).tolist() == [1.0, 2.0, 3.0, 4.0]  # a call is the function's
    assert ac.add(x, 1.0, out=x) is x and x.tolist() == [1.0, 2.0, 3.0, 4.0]
    assert "Absolute" in ac.abs.__doc__ or ac.abs.__doc__  # the function's documentation
    # gufuncs and functions of two outputs stay functions, as they have no such methods here.
    assert not isinstance(ac.matmul, ac.ufunc) and not isinstance(ac.divmod, ac.ufunc)


@pytest.mark.parametrize("name", list(BINARY))
@pytest.mark.parametrize("shape,axis", [((5, 4), 0), ((5, 4), 1), ((3, 4, 2), -1), ((6,), 0),
                                        ((3, 4, 2), None), ((3, 4, 2), (0, 2)), ((1, 3), 0)])
def test_reduce_equals_numpy(device, name, shape, axis):
    xn = operand(BINARY[name], shape)
    x = ac.asarray(xn, device=device)
    u, ref = getattr(ac, name), getattr(np, name)
    with np.errstate(all="ignore"):
        try:
            want = ref.reduce(xn, axis=axis)
        except (ValueError, TypeError) as e:  # not reorderable, no loop: the same refusal
            with pytest.raises(TypeError if isinstance(e, TypeError) else ValueError,
                               match="reorderable|no loop"):
                u.reduce(x, axis=axis)
            return
        check(u.reduce(x, axis=axis), want, name)
        check(u.reduce(x, axis=axis, keepdims=True), ref.reduce(xn, axis=axis, keepdims=True),
              name)
        if BINARY[name] in "fp":
            check(u.reduce(x, axis=axis, initial=0.5), ref.reduce(xn, axis=axis, initial=0.5),
                  name)


@pytest.mark.parametrize("name", ["add", "multiply", "maximum", "minimum", "logical_or",
                                  "bitwise_or"])
def test_reduce_with_where_dtype_and_out(device, name):
    kind = BINARY[name]
    xn = operand(kind, (4, 5))
    if kind == "f":
        xn = np.abs(np.nan_to_num(xn)) + 0.5
    mask = RNG.random((4, 5)) < 0.5
    x, m = ac.asarray(xn, device=device), ac.asarray(mask, device=device)
    u, ref = getattr(ac, name), getattr(np, name)
    extra = {} if ref.identity is not None else {"initial": xn.min() if name == "maximum" else xn.max()}
    check(u.reduce(x, axis=1, where=m, **extra), ref.reduce(xn, axis=1, where=mask, **extra), name)
    out = ac.zeros(5, dtype=u.reduce(x).dtype, device=device)
    assert u.reduce(x, axis=0, out=out) is out
    check(out, ref.reduce(xn, axis=0), name)
    if kind == "f":
        check(u.reduce(x, axis=0, dtype=ac.float32), ref.reduce(xn, axis=0, dtype=np.float32),
              name)


@pytest.mark.parametrize("name", list(BINARY))
@pytest.mark.parametrize("shape,axis", [((7,), 0), ((5, 4), 0), ((5, 4), 1), ((2, 3, 4), -1),
                                        ((0, 3), 0)])
def test_accumulate_equals_numpy(device, name, shape, axis):
    xn = operand(BINARY[name], shape)
    x = ac.asarray(xn, device=device)
    with np.errstate(all="ignore"):
        try:
            want = getattr(np, name).accumulate(xn, axis=axis)
        except TypeError:  # no loop that returns its operands' dtype: the same refusal
            with pytest.raises(TypeError, match="no loop"):
                getattr(ac, name).accumulate(x, axis=axis)
            return
    check(getattr(ac, name).accumulate(x, axis=axis), want, name)


@pytest.mark.parametrize("name", ["add", "subtract", "multiply", "maximum", "power", "greater",
                                  "bitwise_and", "arctan2"])
def test_outer_equals_numpy(device, name):
    kind = BINARY[name]
    an, bn = operand(kind, (3, 2)), operand(kind, (4,))
    a, b = ac.asarray(an, device=device), ac.asarray(bn, device=device)
    with np.errstate(all="ignore"):
        check(getattr(ac, name).outer(a, b), getattr(np, name).outer(an, bn), name)
        check(getattr(ac, name).outer(b, 2), getattr(np, name).outer(bn, 2), name)


@pytest.mark.parametrize("name,index", [
    ("add", [0, 1, 0, 3, 0]), ("subtract", [2, 2, 2]), ("multiply", [1, 4, 1]),
    ("maximum", [0, 0, 5, 5]), ("minimum", np.array([3, 3, 1])), ("add", slice(1, 4)),
    ("add", (np.array([0, 0, 1]), np.array([1, 1, 2]))), ("negative", [1, 1, 2]),
    ("add", 2), ("bitwise_xor", [0, 0, 1])])
def test_at_applies_every_occurrence_in_order(device, name, index):
    kind = "i" if name == "bitwise_xor" else "f"
    two_d = isinstance(index, tuple)
    an = operand(kind, (3, 4) if two_d else (6,))
    an = np.nan_to_num(an)
    u, ref = getattr(ac, name), getattr(np, name)
    a = ac.asarray(an, device=device, copy=True)
    selected = an[index]
    args = () if u.nin == 1 else (operand(kind, np.shape(selected)) if np.ndim(selected) else 1.5,)
    if kind == "i" and args:
        args = (np.asarray(args[0]).astype(an.dtype),)
    ref.at(an, index, *args)
    acc_index = tuple(ac.asarray(i, device=device) for i in index) if two_d else index
    u.at(a, acc_index, *(ac.asarray(v, device=device) for v in args))
    check(a, an, "bitwise_xor" if kind == "i" else name + "_at")


def test_at_errors(device):
    a = ac.zeros(3, device=device)
    with pytest.raises(TypeError, match="accel array"):
        ac.add.at(np.zeros(3), [0], 1)
    with pytest.raises(TypeError, match="needs a second operand"):
        ac.add.at(a, [0])
    with pytest.raises(TypeError, match="takes no second operand"):
        ac.negative.at(a, [0], 1)
    with pytest.raises(IndexError):
        ac.add.at(a, [5], 1)


@pytest.mark.parametrize("name", ["add", "multiply", "maximum", "subtract", "bitwise_or"])
@pytest.mark.parametrize("indices", [[0, 4, 1, 5], [0, 3, 6], [2], [5, 5, 1], [7, 0]])
def test_reduceat_equals_numpy(device, name, indices):
    kind = "i" if name == "bitwise_or" else "f"
    xn = np.nan_to_num(operand(kind, (8, 3)))
    x = ac.asarray(xn, device=device)
    check(getattr(ac, name).reduceat(x, indices), getattr(np, name).reduceat(xn, indices), name)
    check(getattr(ac, name).reduceat(x.T, indices[:1] + [1] if indices[0] < 3 else [0, 2], axis=1),
          getattr(np, name).reduceat(xn.T, indices[:1] + [1] if indices[0] < 3 else [0, 2],
                                     axis=1), name)
    with pytest.raises(IndexError):
        getattr(ac, name).reduceat(x, [0, 8])


def test_method_errors(device):
    x = ac.ones((2, 3), device=device)
    with pytest.raises(ValueError, match="binary"):
        ac.sin.reduce(x)
    with pytest.raises(ValueError, match="not reorderable"):
        ac.subtract.reduce(x, axis=(0, 1))
    with pytest.raises(ValueError, match="no identity"):
        ac.maximum.reduce(ac.ones((0, 3), device=device))
    assert ac.add.reduce(ac.ones((0, 3), device=device)).tolist() == [0.0, 0.0, 0.0]
    with pytest.raises(ValueError, match="0-d"):
        ac.add.reduce(ac.asarray(1.0, device=device))
    with pytest.raises(ValueError, match="outer"):
        ac.sin.outer(x, x)


def test_numpys_ufunc_methods_on_accel_arrays(device):
    xn = operand("f", (4, 3))
    x = ac.asarray(xn, device=device)
    with np.errstate(all="ignore"):
        for got, want, name in [
                (np.subtract.reduce(x, axis=1), np.subtract.reduce(xn, axis=1), "subtract"),
                (np.maximum.accumulate(x), np.maximum.accumulate(xn), "maximum"),
                (np.add.outer(x[0], x[1]), np.add.outer(xn[0], xn[1]), "add"),
                (np.multiply.reduceat(x, [0, 2]), np.multiply.reduceat(xn, [0, 2]), "multiply"),
                (np.fmax.reduce(x, axis=0), np.fmax.reduce(xn, axis=0), "fmax")]:
            check(got, want, name)
    a, an = ac.zeros(4, device=device), np.zeros(4)
    np.add.at(a, [0, 0, 3], 2.0)
    np.add.at(an, [0, 0, 3], 2.0)
    check(a, an, "add")


def test_reduceat_starts_each_segment_from_its_first_element(device):
    # NumPy's reduceat applies no identity: a one-element segment of gcd is the element, sign
    # included (fuzz seed 2088090), where gcd.reduce of it starts from 0 and gives |x|.
    xn = np.array([-3, 2, 6, -4, 8], dtype=np.int32)
    x = ac.asarray(xn, device=device)
    for name in ("gcd", "add", "subtract", "bitwise_or"):
        check(getattr(ac, name).reduceat(x, [0, 1, 3, 2]), getattr(np, name).reduceat(xn, [0, 1, 3, 2]),
              "gcd" if name == "gcd" else "bitwise_or")
    check(ac.gcd.reduce(x[:1]), np.gcd.reduce(xn[:1]), "gcd")


# ufunc.at's one-pass fold (ops/ufunc_at.h): the registry's binary ops on a dtype they keep.
AT_FOLDS = [
    ("add", "float64"), ("add", "float32"), ("add", "float16"), ("add", "complex128"),
    ("add", "int8"), ("add", "uint64"), ("add", "bool"), ("subtract", "float32"),
    ("subtract", "int16"), ("multiply", "float64"), ("multiply", "complex64"),
    ("multiply", "uint8"), ("maximum", "float64"), ("minimum", "float32"), ("fmax", "float64"),
    ("fmin", "float16"), ("divide", "float64"), ("power", "float64"), ("hypot", "float32"),
    ("arctan2", "float64"), ("copysign", "float64"), ("bitwise_and", "int32"),
    ("bitwise_or", "uint16"), ("bitwise_xor", "int64"), ("left_shift", "uint32"),
    ("floor_divide", "int64"), ("remainder", "float64"), ("logaddexp", "float64"),
    ("logical_and", "bool"), ("logical_or", "bool"), ("logical_xor", "bool"),
]
# Exact in NumPy's order: the fold takes every listing in order, as NumPy's loop does.
AT_EXACT = {"add", "subtract", "multiply", "maximum", "minimum", "fmax", "fmin", "copysign",
            "bitwise_and", "bitwise_or", "bitwise_xor", "left_shift", "floor_divide",
            "logical_and", "logical_or", "logical_xor"}


def at_values(name, dtype, n):
    dt = np.dtype(dtype)
    if dt == bool:
        return RNG.random(n) < 0.5
    if name in ("left_shift",):
        return RNG.integers(0, 3, n).astype(dt)
    if name in ("floor_divide",):
        return (RNG.integers(1, 4, n) * RNG.choice([-1, 1], n)).astype(dt)
    if dt.kind in "iu":
        return RNG.integers(0 if dt.kind == "u" else -50, 50, n).astype(dt)
    if name in ("power", "multiply", "divide"):
        v = RNG.uniform(0.9, 1.1, n)
    elif name == "arctan2":
        # away from 0: atan2(acc, v) amplifies a last-place difference by 1/|v| per step
        v = RNG.uniform(1, 10, n) * RNG.choice([-1, 1], n)
    else:
        v = RNG.standard_normal(n) * 10
    if dt.kind == "c":
        v = v + 1j * RNG.standard_normal(n)
    v = v.astype(dt)
    if name not in ("power", "multiply", "divide"):
        v[::13] = [np.nan, np.inf, -np.inf, -0.0][: len(v[::13])] * (len(v[::13]) // 4) + \
            [np.nan, np.inf, -np.inf, -0.0][: len(v[::13]) % 4]
    return v


@pytest.mark.parametrize("name,dtype", AT_FOLDS)
def test_at_folds_repeated_positions_like_numpy(device, name, dtype):
    # 600 listings of 9 positions (negative ones too), an accel index array into a 1-d array
    # (the device path) and a list into a 2-d one (flat positions worked out on the host).
    ref, u = getattr(np, name), getattr(ac, name)
    start = at_values(name, dtype, 9) if name not in ("power",) else RNG.uniform(0.5, 2, 9)
    start = np.asarray(start).astype(dtype)
    index = RNG.integers(-9, 9, 600)
    values = at_values(name, dtype, 600)
    want = start.copy()
    with np.errstate(all="ignore"):
        ref.at(want, index, values)
    a = ac.asarray(start, device=device, copy=True)
    u.at(a, ac.asarray(index, device=device), ac.asarray(values, device=device))
    got = ac.asnumpy(a.to_device("cpu"))
    assert got.dtype == want.dtype
    # (Complex products: accel's, as NumPy's a * b, fuse where the CPU has FMA; NumPy's at runs
    # its loop one element at a time, which does not, so the last bits of each step differ.)
    exact = name in AT_EXACT and not (name == "multiply" and dtype.startswith("complex"))
    if exact:
        np.testing.assert_array_equal(got, want, err_msg=f"{name}.at {dtype}")
    else:
        np.testing.assert_allclose(got, want, rtol=1e-5 if dtype in ("float32", "complex64") else 1e-12,
                                   equal_nan=True, err_msg=f"{name}.at {dtype}")
    # A 2-d target, rows picked by a list (NumPy's index forms, flattened on the host).
    start2 = np.asarray(at_values(name, dtype, 12)).astype(dtype).reshape(3, 4)
    if name == "power":
        start2 = RNG.uniform(0.5, 2, (3, 4))
    rows = [0, 2, 2, -1, 0]
    vals2 = np.asarray(at_values(name, dtype, 20)).astype(dtype).reshape(5, 4)
    want2 = start2.copy()
    with np.errstate(all="ignore"):
        ref.at(want2, rows, vals2)
    a2 = ac.asarray(start2, device=device, copy=True)
    u.at(a2, rows, ac.asarray(vals2, device=device))
    got2 = ac.asnumpy(a2.to_device("cpu"))
    if exact:
        np.testing.assert_array_equal(got2, want2, err_msg=f"{name}.at 2-d {dtype}")
    else:
        np.testing.assert_allclose(got2, want2, rtol=1e-5 if dtype in ("float32", "complex64") else 1e-12,
                                   equal_nan=True, err_msg=f"{name}.at 2-d {dtype}")


def test_at_sums_repeats_in_numpys_order(device):
    # 1e16 + 1 + 1 ... in order stays 1e16 (NumPy's loop); any reassociation would not.
    want = np.array([1e16, 0.0])
    idx = np.array([0] * 50 + [1, 1])
    np.add.at(want, idx, 1.0)
    a = ac.asarray([1e16, 0.0], device=device)
    ac.add.at(a, ac.asarray(idx, device=device), 1.0)
    np.testing.assert_array_equal(ac.asnumpy(a.to_device("cpu")), want)
    # A scalar value, broadcast; an empty index list changes nothing.
    ac.add.at(a, ac.asarray(np.zeros(0, np.int64), device=device), 5.0)
    np.testing.assert_array_equal(ac.asnumpy(a.to_device("cpu")), want)


@pytest.mark.parametrize("dtype", ["int8", "int32", "uint16", "int64"])
def test_at_of_many_integer_positions(device, dtype):
    # Integer add (wrapping), maximum and minimum are the same in any order: 100,000 listings
    # into 50 elements fold on every CPU thread, each into its own copy. Negative positions,
    # values that wrap, a scalar value too.
    index = RNG.integers(-50, 50, 100_000)
    info = np.iinfo(dtype)
    values = RNG.integers(info.min, info.max, 100_000, endpoint=True).astype(dtype)
    start = RNG.integers(info.min, info.max, 50, endpoint=True).astype(dtype)
    for name in ("add", "maximum", "minimum"):
        for v in (values, 3):
            want = start.copy()
            getattr(np, name).at(want, index, v)
            a = ac.asarray(start, device=device, copy=True)
            getattr(ac, name).at(a, ac.asarray(index, device=device),
                                 ac.asarray(v, device=device) if isinstance(v, np.ndarray) else v)
            np.testing.assert_array_equal(ac.asnumpy(a.to_device("cpu")), want, err_msg=name)


def test_at_strided_targets_and_views_write_through(device):
    base = RNG.standard_normal((4, 6))
    want = base.copy()
    np.add.at(want.T, (np.array([0, 5, 5]), np.array([1, 3, 3])), 2.5)
    np.maximum.at(want[:, ::2], np.array([1, 1, -1]), np.array([100.0, 7.0, -3.0]))
    a = ac.asarray(base, device=device, copy=True)
    ac.add.at(a.T, (ac.asarray([0, 5, 5], device=device), ac.asarray([1, 3, 3], device=device)),
              2.5)
    ac.maximum.at(a[:, ::2], ac.asarray([1, 1, -1], device=device),
                  ac.asarray([100.0, 7.0, -3.0], device=device))
    np.testing.assert_array_equal(ac.asnumpy(a.to_device("cpu")), want)


def test_at_bad_index_writes_nothing_and_mixed_dtypes_follow_numpy(device):
    a = ac.asarray([1.0, 2.0, 3.0], device=device)
    for index in (ac.asarray([0, 3], device=device), [0, -4], np.array([1, 7])):
        with pytest.raises(IndexError, match="out of bounds"):
            ac.add.at(a, index, 1.0)
        np.testing.assert_array_equal(ac.asnumpy(a.to_device("cpu")), [1.0, 2.0, 3.0])
    ro = ac.asarray(np.arange(3.0), device=device)
    ro.flags.writeable = False
    with pytest.raises((ValueError, TypeError), match="read-only|writ"):
        ac.add.at(ro, [0], 1.0)
    # float32 target, float64 values: NumPy's loop runs in float64 and casts back each step.
    want = np.ones(3, np.float32)
    np.add.at(want, [0, 0, 2], np.array([1e-8, 0.5, 0.25]))
    b = ac.ones(3, dtype=ac.float32, device=device)
    ac.add.at(b, [0, 0, 2], ac.asarray([1e-8, 0.5, 0.25], device=device))
    np.testing.assert_array_equal(ac.asnumpy(b.to_device("cpu")), want)
    # Integers into an int8 target wrap as NumPy's do.
    want8 = np.array([120, 0], np.int8)
    np.add.at(want8, [0, 0, 0], np.int8(5))
    c = ac.asarray(np.array([120, 0], np.int8), device=device)
    ac.add.at(c, ac.asarray([0, 0, 0], device=device), ac.asarray(np.int8(5), device=device))
    np.testing.assert_array_equal(ac.asnumpy(c.to_device("cpu")), want8)


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64", "complex64", "int8", "uint8",
                                   "int64"])
@pytest.mark.parametrize("layout", ["C", "F", "T"])
def test_subtract_methods_are_numpys_running_difference(device, dtype, layout):
    # subtract's reduce and reduceat are the segmented fold x0 - x1 - ... in order, accumulate a
    # cumsum of the negated terms (exact: a - b is a + (-b)); float16 along NumPy's inner loop
    # runs in float32 and rounds once, as NumPy's half loop does, and rounds every step along
    # the other axes.
    x = (RNG.standard_normal((9, 5, 4)) * 100).astype(dtype) if dtype[0] in "fc" else \
        RNG.integers(0, 120, (9, 5, 4)).astype(dtype)
    x = np.asfortranarray(x) if layout == "F" else x.transpose(1, 2, 0) if layout == "T" else x
    a = ac.asarray(x, device=device)
    for axis in (0, 1, 2, -1):
        for method, kw in [("accumulate", {}), ("reduce", {}), ("reduce", {"initial": 3}),
                           ("reduce", {"keepdims": True})]:
            with np.errstate(all="ignore"):
                want = getattr(np.subtract, method)(x, axis=axis, **kw)
            r = getattr(ac.subtract, method)(a, axis=axis, **kw)
            if method == "accumulate":  # laid out as x, as NumPy's (fuzz seed 2111893)
                assert r.strides == want.strides, (axis, r.strides, want.strides)
            got = ac.asnumpy(r.to_device("cpu"))
            assert got.dtype == want.dtype
            np.testing.assert_array_equal(got, want, err_msg=f"{method} axis={axis} {kw}")
    for axis in (0, 1, 2):
        want = np.subtract.reduceat(x, [0, 3, 1, 3], axis=axis)
        got = ac.asnumpy(ac.subtract.reduceat(a, [0, 3, 1, 3], axis=axis).to_device("cpu"))
        np.testing.assert_array_equal(got, want, err_msg=f"reduceat axis={axis}")


@pytest.mark.parametrize("layout", ["C", "F", "T", "strided"])
def test_reduceat_lays_its_result_out_as_numpy(device, layout):
    # NumPy's iterator orders the output's axes by x's steps, the segment axis telling nothing
    # (fuzz seed 2232004: a C-ordered x gave a result laid out segment axis first).
    x = RNG.standard_normal((4, 5, 6))
    x = np.asfortranarray(x) if layout == "F" else x.transpose(2, 0, 1) if layout == "T" else \
        x[::-1, :, ::2] if layout == "strided" else x
    a = ac.asarray(x, device=device)
    for axis in range(3):
        want = np.add.reduceat(x, [0, 2], axis=axis)
        got = ac.add.reduceat(a, [0, 2], axis=axis)
        assert got.strides == want.strides, (axis, got.strides, want.strides)
        np.testing.assert_allclose(ac.asnumpy(got.to_device("cpu")), want, rtol=1e-12)


@pytest.mark.parametrize("name,kind", [("add", "i"), ("add", "f"), ("maximum", "f"),
                                       ("bitwise_xor", "i"), ("multiply", "p"), ("fmin", "f")])
def test_reduceat_of_many_segments_folds_like_numpy(device, name, kind):
    # Many segments (sorted, repeated, decreasing pairs) fold in one C++ pass (ufunc_reduceat's
    # segmented fold); each starts as its first element and takes the rest in order.
    # Integer-valued floats for add: NumPy adds a segment's later elements pairwise, then to its
    # first; exact sums make that grouping not matter (a cancelling sum would magnify it).
    x = operand("i", (400, 7)).astype(np.float64) if (name, kind) == ("add", "f") else \
        operand(kind, (400, 7))
    if (name, kind) == ("add", "f"):
        x.flat[::7] = np.nan
    a = ac.asarray(x, device=device)
    idx = np.sort(RNG.integers(0, 400, 120))
    idx[::9] = idx[::9][::-1]  # some decreasing pairs: those segments are one element
    for axis, index in ((0, idx), (1, [0, 3, 3, 6, 1])):
        want = getattr(np, name).reduceat(x, index, axis=axis)
        got = getattr(ac, name).reduceat(a, ac.asarray(index, device=device), axis=axis)
        check(got, want, "maximum" if (name, kind) == ("add", "f") else name)  # exact


REDUCEAT_OPS = ["add", "subtract", "multiply", "divide", "maximum", "minimum", "fmax", "fmin",
                "hypot", "arctan2", "copysign", "logical_and", "logical_xor", "bitwise_and",
                "bitwise_xor", "floor_divide", "remainder", "power", "logaddexp"]


@pytest.mark.parametrize("name", REDUCEAT_OPS)
@pytest.mark.parametrize("layout", ["C", "T", "strided"])
def test_reduceat_of_every_op_that_keeps_its_dtype(device, name, layout):
    # The segmented fold of ops/ufunc_at.h for each registry op: along every axis, segments of
    # one, of several and to the end, a repeated index and decreasing pairs, C, transposed and
    # strided operands (a contiguous copy folds), NaN among the floats.
    kind = BINARY[name]
    x = operand(kind, (11, 6, 5))
    x = x.transpose(2, 0, 1) if layout == "T" else x[::-1, ::2] if layout == "strided" else x
    a = ac.asarray(x, device=device)
    for axis in range(3):
        n = x.shape[axis]
        for index in ([0, 1, n - 2, 2], [n - 1], [0, 0, min(3, n - 1), 2, n - 1]):
            with np.errstate(all="ignore"):
                want = getattr(np, name).reduceat(x, index, axis=axis)
                got = getattr(ac, name).reduceat(a, index, axis=axis)
            check(got, want, name)


def test_reduceat_sums_as_numpy_groups_them(device):
    # NumPy adds a segment's later elements first (pairwise, from -0.0) and its first element to
    # their sum: a short segment (under 8 later elements, which NumPy adds in order) is NumPy's
    # to the bit on every device, along any axis, and a segment of -0.0s sums to -0.0.
    x = RNG.standard_normal((40, 6)) * 10.0 ** RNG.integers(-8, 9, (40, 6))
    x[5:9] = -0.0
    x[20, 2] = np.inf
    a = ac.asarray(x, device=device)
    index = [0, 3, 5, 9, 12, 12, 17, 24, 30, 36, 39]
    for axis, (xs, xa) in enumerate([(x, a), (x.T, a.T)]):
        want = np.add.reduceat(xs, index, axis=axis)
        got = ac.asnumpy(ac.add.reduceat(xa, index, axis=axis).to_device("cpu"))
        np.testing.assert_array_equal(got, want, err_msg=f"axis {axis}")
        assert np.array_equal(np.signbit(got), np.signbit(want)), axis
    for dtype in (np.float32, np.complex128):
        z = np.array([-0.0, -0.0, -0.0, 0.0, -0.0, 1.5, -1.5, -0.0], dtype=dtype)
        index = [0, 2, 3, 5, 7]
        got = ac.asnumpy(ac.add.reduceat(ac.asarray(z, device=device), index).to_device("cpu"))
        want = np.add.reduceat(z, index)
        np.testing.assert_array_equal(got, want)
        for part in (np.real, np.imag):
            assert np.array_equal(np.signbit(part(got)), np.signbit(part(want))), (dtype, got)
    # Long segments: the CPU groups a contiguous run's rest as NumPy's pairwise sum does (to the
    # bit); the GPU's thread per segment adds in order.
    long = RNG.standard_normal(100000).astype(np.float32)
    index = np.sort(RNG.integers(0, 100000, 37))
    rows = RNG.standard_normal((3000, 40)) * 10.0 ** RNG.integers(-6, 7, (3000, 40))
    for xs, axis, index in ((long, 0, index), (long.astype(np.complex128) * (1 - 2j), 0, index),
                            (rows, 0, [0, 5, 1000, 2999]), (rows.T, 1, [0, 2000]),
                            (rows.astype(np.complex64)[:, :9], 0, [0, 300])):
        want = np.add.reduceat(xs, index, axis=axis)
        got = ac.asnumpy(ac.add.reduceat(ac.asarray(xs, device=device), index, axis=axis)
                         .to_device("cpu"))
        if device == "cpu":
            np.testing.assert_array_equal(got, want)
        else:
            np.testing.assert_allclose(got, want, rtol=2e-4, atol=2e-3)


def test_reduceat_errors(device):
    x = ac.ones((4, 3), device=device)
    with pytest.raises(IndexError, match="index 4 out of bounds for axis 0 of size 4"):
        ac.add.reduceat(x, [0, 4])
    with pytest.raises(IndexError, match="-1"):
        ac.maximum.reduceat(x, [-1], axis=1)
    with pytest.raises(ValueError, match="0-d"):
        ac.add.reduceat(ac.asarray(1.0, device=device), [0])
    got = ac.add.reduceat(x, [], axis=1)
    assert got.shape == (4, 0) and got.dtype == ac.float64


def test_numpys_at_on_a_numpy_array_with_accel_operands(device):
    # np.add.at(numpy_array, accel_indices, accel_values) writes the NumPy array in place, as
    # NumPy's at does (fuzz seed 2100975 raised TypeError): NumPy's own at, the accel operands
    # brought to the host; one off the CPU is refused rather than copied behind the caller.
    want, got = np.ones(4), np.ones(4)
    np.multiply.at(want, np.array([-3, 0, 0]), 0.25)
    np.multiply.at(got, ac.asarray([-3, 0, 0]), 0.25)
    np.testing.assert_array_equal(got, want)
    want, got = np.zeros((2, 3)), np.zeros((2, 3))
    np.add.at(want, (np.array([0, 1, 1]), [2, 2, 2]), np.array([1.0, 2.0, 3.0]))
    index = ac.asarray([0, 1, 1], device=device)
    values = ac.asarray([1.0, 2.0, 3.0], device=device)
    if device == "cpu":
        np.add.at(got, (index, [2, 2, 2]), values)
        np.testing.assert_array_equal(got, want)
    else:
        with pytest.raises(TypeError, match="copy it explicitly"):
            np.add.at(got, (index, [2, 2, 2]), values)
