"""NumPy's dispatch protocols on accel arrays (python/accel/_numpy_protocols.py): NumPy's
ufuncs and functions given accel arrays run accel's and return accel arrays on the same device;
what accel lacks raises TypeError naming it; accel dtypes work wherever NumPy takes a dtype."""

import numpy as np
import pytest

import accel as ac
import standard_special_values as standard

UFUNCS = sorted(n for n in dir(np) if isinstance(getattr(np, n), np.ufunc))
MISSING = {"bitwise_count", "frexp", "gcd", "isnat", "lcm", "ldexp", "matvec", "modf",
           "vecmat"}
rng = np.random.default_rng(7)


def operands(ufunc, dtype):
    n = 12
    if dtype == bool:
        return [rng.random(n) < 0.5 for _ in range(ufunc.nin)]
    if np.issubdtype(dtype, np.integer):
        return [rng.integers(1, 6, n).astype(dtype) for _ in range(ufunc.nin)]
    vals = np.concatenate([rng.uniform(-3, 3, n - 4), [0.0, -0.0, np.nan, np.inf]])
    return [rng.permutation(vals).astype(dtype) for _ in range(ufunc.nin)]


def numpy_answer(name, ufunc, xs):
    """NumPy's answer, with the standard's special values where accel follows the standard
    (standard_special_values.py): floor_divide, divmod's quotient, expm1, tanh."""
    if name == "divmod":
        return standard.floor_divide(*xs), np.remainder(*xs)
    return (standard.BY_NAME.get(name) or ufunc)(*xs)


def loop_dtype(ufunc):
    """A dtype the ufunc has a loop for: float64, else int64, else bool."""
    for dt in (np.float64, np.int64, np.bool_):
        if any(t.startswith(np.dtype(dt).char * ufunc.nin) for t in ufunc.types):
            return dt
    return None


@pytest.mark.parametrize("name", [n for n in UFUNCS if n not in MISSING])
def test_every_numpy_ufunc_accel_has_runs_accels_and_matches_numpy(name, device):
    ufunc = getattr(np, name)
    dt = loop_dtype(ufunc)
    if dt is None or name == "matmul":
        pytest.skip(f"numpy.{name} has no elementwise float64/int64/bool loop to compare")
    xs = operands(ufunc, dt)
    with np.errstate(all="ignore"):
        want = numpy_answer(name, ufunc, xs)
        got = ufunc(*[ac.asarray(x, device=device) for x in xs])
    for w, g in zip(want if isinstance(want, tuple) else (want,),
                    got if isinstance(got, tuple) else (got,)):
        assert isinstance(g, ac.ndarray) and g.device == ac.asarray(xs[0], device=device).device
        g = ac.asnumpy(g)
        assert g.dtype == w.dtype, name
        np.testing.assert_allclose(g, w, rtol=1e-12, equal_nan=True, err_msg=name)


@pytest.mark.parametrize("name", ["add", "multiply", "less", "sqrt", "negative", "divmod",
                                  "logical_and", "arctan2", "isnan"])
def test_plain_ufunc_calls_take_the_remembered_function_and_answer_the_same(name, device):
    """np.ufunc(accel array, Python number) is answered first by the Python handler, which
    remembers accel's function, and from then on by ndarray.__array_ufunc__'s fast path
    (array_protocol_bindings.cpp): the same values, dtypes and errors both times; NumPy
    operands, keywords and ufunc methods still take the handler."""
    from accel import _numpy_protocols

    ufunc = getattr(np, name)
    xn = np.array([0.5, -2.0, 3.0, np.nan], np.float32)
    x = ac.asarray(xn, device=device)
    _numpy_protocols._PLAIN_CALLS.clear()
    arg_lists = [[x] * ufunc.nin, [x, 2.5][:ufunc.nin], [x, True][:ufunc.nin], [x, 3][:ufunc.nin]]
    for args in arg_lists:
        answers = []
        for _ in range(2):  # the handler, then the fast path
            with np.errstate(all="ignore"):
                r = ufunc(*args)
            answers.append([ac.asnumpy(v.to_device("cpu")) for v in (r if isinstance(r, tuple) else (r,))])
        assert ufunc in _numpy_protocols._PLAIN_CALLS
        with np.errstate(all="ignore"):
            want = ufunc(*[xn if isinstance(a, ac.ndarray) else a for a in args])
        for got in answers:
            for g, w in zip(got, want if isinstance(want, tuple) else (want,)):
                assert g.dtype == w.dtype, name
                np.testing.assert_allclose(g, w, rtol=1e-6, equal_nan=True, err_msg=name)
    if ufunc.nin == 2:
        with pytest.raises(TypeError):  # a string: the handler's error, both times
            ufunc(x, "a")
        with pytest.raises(TypeError):
            ufunc(x, "a")
    if ufunc.nin == 2 and ufunc.nout == 1:
        out = ac.empty_like(x, dtype=ufunc(x, x).dtype)
        assert ufunc(x, x, out=out) is out  # keywords: the handler


def test_numpy_functions_take_the_remembered_function_and_answer_the_same(device):
    """np.sum(a), np.concatenate([a, b]): answered first by the Python handler, which remembers
    accel's function, then by ndarray.__array_function__'s fast path (no keywords) or the
    handler's own shortcut (keywords, still checked against NumPy's signature)."""
    from accel import _numpy_protocols

    mn = np.arange(12.0).reshape(3, 4)
    m = ac.asarray(mn, device=device)
    _numpy_protocols._PLAIN_FUNCTIONS.clear()
    calls = [(np.sum, (m,), {}), (np.sum, (m,), {"axis": 0}), (np.concatenate, ([m, m],), {}),
             (np.concatenate, ([m, m],), {"axis": 1}), (np.transpose, (m,), {}),
             (np.where, (m > 3, m, 0.5), {}), (np.cumsum, (m,), {"axis": 1})]
    for func, args, kwargs in calls:
        nargs = [ac.asnumpy(a.to_device("cpu")) if isinstance(a, ac.ndarray) else
                 [ac.asnumpy(v.to_device("cpu")) for v in a] if isinstance(a, list) else a
                 for a in args]
        want = func(*nargs, **kwargs)
        for _ in range(2):
            got = func(*args, **kwargs)
            assert isinstance(got, ac.ndarray) and got.device == m.device
            np.testing.assert_array_equal(ac.asnumpy(got.to_device("cpu")), want)
        assert func in _numpy_protocols._PLAIN_FUNCTIONS
    for _ in range(2):
        with pytest.raises(TypeError, match="unexpected keyword argument 'axes'"):
            np.sum(m, axes=0)
    # like= creation: placed by the like array, whatever an earlier call asked
    for _ in range(2):
        assert np.asarray([1.0, 2.0], like=m).device == m.device
        assert np.asarray([1.0], like=m, device="cpu").device == ac.Device("cpu")
    assert np.asarray not in _numpy_protocols._PLAIN_FUNCTIONS


def test_matmul_and_out_and_scalars(device):
    a = rng.random((3, 4))
    b = rng.random((4, 2))
    x, y = ac.asarray(a, device=device), ac.asarray(b, device=device)
    np.testing.assert_allclose(ac.asnumpy(np.matmul(x, y)), a @ b, rtol=1e-12)
    out = ac.empty((3, 4), device=device)
    r = np.multiply(x, 2.0, out=out)
    assert r is out
    np.testing.assert_array_equal(ac.asnumpy(out), a * 2)
    assert ac.asnumpy(np.add(x, np.float32(1))).dtype == np.float64


# NumPy arrays live on the host, so the accel operands here are CPU arrays.
@pytest.mark.parametrize("name,args", [
    ("put_along_axis", lambda t, ac_: (t, ac_([[1], [0]]), 7.0, 1)),
    ("putmask", lambda t, ac_: (t, ac_(t > 0.5), 9.0)),
    ("place", lambda t, ac_: (t, ac_(t > 0.5), [8.0])),
    ("copyto", lambda t, ac_: (t, ac_([[1.0, 2.0]]))),
    ("put", lambda t, ac_: (t, ac_([0, 3]), 6.0)),
    ("fill_diagonal", lambda t, ac_: (t, ac_(4.0))),
])
def test_numpy_functions_writing_into_a_numpy_array_with_accel_operands(name, args):
    """np.putmask(numpy_array, accel_mask, ...) reaches accel through __array_function__ and
    writes into the NumPy array's own memory, as NumPy does (fuzz --namespace numpy, seed
    1689077: accel raised TypeError)."""
    target = np.array([[0.25, 0.75], [1.0, 0.0]])
    want = target.copy()
    assert getattr(np, name)(*args(target, lambda v: ac.asarray(np.asarray(v)))) is None
    getattr(np, name)(*args(want, np.asarray))
    np.testing.assert_array_equal(target, want)
    frozen = np.ones((2, 2))
    frozen.flags.writeable = False
    with pytest.raises(ValueError):  # read-only, as NumPy's "destination is read-only"
        getattr(np, name)(*args(frozen, lambda v: ac.asarray(np.asarray(v))))


def test_out_may_be_a_numpy_array(device):
    """A NumPy array's in-place operator with an accel operand (`v += x` calls
    numpy.add(v, x, out=(v,))) writes into the NumPy array, as NumPy does, for CPU results;
    a result on a GPU is not copied to the host implicitly (fuzz --namespace numpy, seed
    120249: `v //= x` with v from np.fft.rfftfreq)."""
    a = rng.uniform(-3, 3, 6)
    b = rng.uniform(1, 2, 6)
    x = ac.asarray(b, device=device)
    if ac.asarray(a, device=device).device.type != "cpu":
        v = a.copy()
        with pytest.raises(TypeError, match=r"\[numpy.add\] out= is a NumPy array but the "
                                            r"result is on cuda"):
            v += x
        np.testing.assert_array_equal(v, a)  # untouched
        return
    v = a.copy()
    v //= x
    assert type(v) is np.ndarray
    np.testing.assert_array_equal(v, standard.floor_divide(a, b))
    v = a.copy()
    r = np.multiply(x, 2.0, out=v)
    assert r is v
    np.testing.assert_array_equal(v, b * 2)
    # Written into with NumPy's cast: float32 out of a float64 result (same_kind).
    v32 = np.zeros(6, np.float32)
    np.add(x, x, out=(v32,))
    np.testing.assert_array_equal(v32, (b + b).astype(np.float32))
    # ufunc.reduce / accumulate with a NumPy out=.
    m = rng.uniform(-2, 2, (3, 4))
    o = np.empty(4)
    assert np.add.reduce(ac.asarray(m, device=device), out=o) is o
    np.testing.assert_allclose(o, m.sum(axis=0), rtol=1e-12)
    o = np.empty((3, 4))
    np.multiply.accumulate(ac.asarray(m, device=device), axis=1, out=o)
    np.testing.assert_allclose(o, np.multiply.accumulate(m, axis=1), rtol=1e-12)
    # NumPy's errors, with the ufunc named: an int array cannot take a float result, and the
    # shapes must agree.
    i = np.arange(6)
    with pytest.raises(TypeError, match=r"\[numpy.add\] Cannot cast .*float64.*int64"):
        i += x
    np.testing.assert_array_equal(i, np.arange(6))
    with pytest.raises(ValueError, match=r"out= has shape \(3,\) but the result has shape \(6,\)"):
        np.add(x, x, out=np.empty(3))


@pytest.mark.parametrize("ufunc,axis", [(np.add, None), (np.add, 1), (np.multiply, 0),
                                        (np.maximum, 1), (np.minimum, 0), (np.logical_and, 0),
                                        (np.logical_or, 1), (np.fmax, 0), (np.fmin, 1)])
def test_ufunc_reduce(ufunc, axis, device):
    a = rng.uniform(-2, 2, (4, 5))
    if ufunc in (np.logical_and, np.logical_or):
        a = a > 0
    if ufunc in (np.fmax, np.fmin):
        a[1, 2] = np.nan
    x = ac.asarray(a, device=device)
    kw = {} if axis is None else {"axis": axis}
    got = ufunc.reduce(x, **kw)
    assert isinstance(got, ac.ndarray)
    np.testing.assert_allclose(ac.asnumpy(got), ufunc.reduce(a, **kw), rtol=1e-12)
    np.testing.assert_allclose(ac.asnumpy(ufunc.reduce(x, axis=1, keepdims=True)),
                               ufunc.reduce(a, axis=1, keepdims=True), rtol=1e-12)


@pytest.mark.parametrize("ufunc", [np.add, np.multiply])
def test_ufunc_accumulate(ufunc, device):
    a = rng.uniform(-2, 2, (3, 4))
    x = ac.asarray(a, device=device)
    for kw in ({}, {"axis": 1}):
        np.testing.assert_allclose(ac.asnumpy(ufunc.accumulate(x, **kw)), ufunc.accumulate(a, **kw),
                                   rtol=1e-12)


@pytest.mark.parametrize("call", [
    lambda m, a, b: m.concatenate([a, b]),
    lambda m, a, b: m.concatenate([a, b], axis=1),
    lambda m, a, b: m.stack([a, b], axis=1),
    lambda m, a, b: m.mean(a, axis=0),
    lambda m, a, b: m.std(a, axis=1),
    lambda m, a, b: m.sum(a),
    lambda m, a, b: m.argmax(a, axis=1),
    lambda m, a, b: m.where(a > 0, a, b),
    lambda m, a, b: m.tensordot(a, b.T, 1),
    lambda m, a, b: m.transpose(a),
    lambda m, a, b: m.reshape(a, (4, 3)),
    lambda m, a, b: m.clip(a, -0.5, 0.5),
    lambda m, a, b: m.sort(a, axis=0),
    lambda m, a, b: m.cumsum(a, axis=1),
    lambda m, a, b: m.expand_dims(a, 0),
    lambda m, a, b: m.broadcast_to(a[:1], (3, 4)),
    lambda m, a, b: m.trace(a, 1),
    lambda m, a, b: m.average(a, axis=1, weights=m.abs(b[0])),
    lambda m, a, b: m.nan_to_num(m.log(a)),
    lambda m, a, b: m.isclose(a, a + 1e-9),
])
def test_numpy_functions_run_accels_on_the_same_device(call, device):
    a, b = rng.uniform(-1, 1, (3, 4)), rng.uniform(-1, 1, (3, 4))
    x, y = ac.asarray(a, device=device), ac.asarray(b, device=device)
    want = call(np, a, b)
    got = call(np, x, y)
    assert isinstance(got, ac.ndarray) and got.device == x.device
    np.testing.assert_allclose(ac.asnumpy(got), want, rtol=1e-12)


def test_what_accel_lacks_raises_type_error_naming_it():
    x = ac.asarray([1.0, 2.0])
    with pytest.raises(TypeError, match=r"numpy\.isnat"):  # a ufunc (accel has no datetimes)
        np.isnat(x)
    with pytest.raises(TypeError, match=r"numpy\.isnat\.at"):  # a method of a ufunc it lacks
        np.isnat.at(x, [0])
    with pytest.raises(TypeError, match=r"numpy\.datetime_as_string"):
        np.datetime_as_string(x)
    # Explicit conversion still works, and NumPy's own arrays are untouched by the protocol.
    assert isinstance(np.asarray(x), np.ndarray)
    assert isinstance(np.polyfit(ac.asnumpy(x), ac.asnumpy(x), 1), np.ndarray)


def test_other_array_types_are_left_to_their_own_protocols():
    class Other:
        def __array_function__(self, func, types, args, kwargs):
            return "other"

    assert np.concatenate([ac.asarray([1.0]), Other()]) == "other"


@pytest.mark.parametrize("dt", ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16",
                                "uint32", "uint64", "float32", "float64", "complex64",
                                "complex128"])
def test_accel_dtypes_wherever_numpy_takes_a_dtype(dt):
    d = getattr(ac, dt)
    assert np.dtype(d) == np.dtype(dt)
    assert np.zeros(2, dtype=d).dtype == np.dtype(dt)
    x = ac.zeros(2, dtype=d)
    for other in (1, 1.0, np.int16(1), np.float32(1), ac.zeros(1, dtype=ac.float32)):
        ref = np.float32(1) if isinstance(other, ac.ndarray) else other
        zero = np.zeros(2, dt)
        with np.errstate(all="ignore"):
            want = np.result_type(zero, ref.dtype if isinstance(other, ac.ndarray) else ref)
        assert np.result_type(x, other) == want
    assert np.can_cast(d, ac.complex128) == np.can_cast(np.dtype(dt), np.complex128)
    assert np.can_cast(x, np.float64) == np.can_cast(np.dtype(dt), np.float64)
    if dt.startswith(("float", "complex")):
        assert np.finfo(d) == np.finfo(np.dtype(dt))


@pytest.mark.parametrize("call", [
    lambda m, a, b: m.allclose(a, b), lambda m, a, b: m.allclose(a, a + 1e-9),
    lambda m, a, b: m.array_equal(a, a), lambda m, a, b: m.array_equal(a, b),
    lambda m, a, b: m.array_equiv(a, a[:1]), lambda m, a, b: m.ndim(a),
    lambda m, a, b: m.shape(a), lambda m, a, b: m.size(a, 1), lambda m, a, b: m.iscomplexobj(a),
])
def test_numpy_functions_returning_python_values(call, device):
    a, b = rng.uniform(-1, 1, (3, 4)), rng.uniform(-1, 1, (3, 4))
    x, y = ac.asarray(a, device=device), ac.asarray(b, device=device)
    want, got = call(np, a, b), call(np, x, y)
    assert type(got) is type(want) and got == want


def test_a_numpy_out_with_where_keeps_its_values_outside_the_mask(device):
    # np.add(accel_x, 1, numpy_out, where=mask): only the masked elements are written (fuzz
    # --namespace numpy, seed 2092561: the whole result was copied in).
    x = ac.asarray(np.array([0.0, -1.0, 2.0, -3.0]), device=device)
    if x.device.type != "cpu":  # no hidden copy of a GPU result to the host, mask or not
        out = np.full(4, 7.0)
        with pytest.raises(TypeError, match="out= is a NumPy array but the result is on"):
            np.add(x, 1, out, where=np.array([True, False, True, False]))
        np.testing.assert_array_equal(out, np.full(4, 7.0))
        return
    for mask in (ac.signbit(x), np.array([True, False, False, True]), [False] * 4, True):
        out = np.full(4, 7.0)
        np.add(x, 1, out, where=mask)
        m = np.broadcast_to(np.asarray(ac.asnumpy(mask) if isinstance(mask, ac.ndarray)
                                       else mask), 4)
        np.testing.assert_array_equal(out, np.where(m, ac.asnumpy(x) + 1, 7.0))
    with pytest.raises(TypeError, match="where= must be a boolean"):
        np.add(x, 1, np.zeros(4), where=np.arange(4))
