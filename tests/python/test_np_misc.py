"""NumPy's axis, layout, dtype-query, printing and einsum_path functions in
python/accel/_np_misc.py, against NumPy: values, dtypes, views, errors and NumPy's dispatch."""

import numpy as np
import pytest

import accel as ac
from numpy_errors import both_raise

rng = np.random.default_rng(29)
DTYPES = ["bool", "int8", "int64", "uint16", "uint64", "float32", "float64", "complex64",
          "complex128"]
AXIS_ERROR = (ac.AxisError, np.exceptions.AxisError)


def sample(dt, shape):
    dt = np.dtype(dt)
    if dt == bool:
        return rng.random(shape) < 0.5
    if dt.kind in "iu":
        return rng.integers(0, 100, shape).astype(dt)
    v = rng.standard_normal(shape) * 10
    if dt.kind == "c":
        v = v + 1j * rng.standard_normal(shape)
    return np.asarray(v.astype(dt))


def same(got, want, device=None):
    assert isinstance(got, ac.ndarray), type(got)
    if device is not None:
        assert str(got.device) == device
    got, want = ac.asnumpy(got), np.asarray(want)
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    assert got.shape == want.shape, (got.shape, want.shape)
    np.testing.assert_array_equal(got, want)


def writeable(x):
    try:
        x[(0,) * x.ndim] = x[(0,) * x.ndim]
    except ValueError:
        return False
    return True


# ---- rollaxis, isfortran ------------------------------------------------------------------------

@pytest.mark.parametrize("shape", [(5,), (2, 3), (2, 3, 4), (1, 4, 0, 2)])
def test_rollaxis_matches_numpy_for_every_axis_and_start(shape, device):
    a = sample("float64", shape)
    x = ac.asarray(a, device=device)
    n = len(shape)
    for axis in range(-n, n):
        for start in range(-n, n + 1):
            same(ac.rollaxis(x, axis, start), np.rollaxis(a, axis, start), device)
    same(np.rollaxis(x, n - 1), np.rollaxis(a, n - 1), device)  # NumPy's dispatch


def test_rollaxis_is_a_view_and_checks_axis_and_start(device):
    a = sample("int64", (2, 3, 4))
    x = ac.asarray(a, device=device)
    r = ac.rollaxis(x, 2, 0)
    r[1, 0, 2] = -7
    assert int(x[0, 2, 1]) == -7
    assert ac.shares_memory(ac.rollaxis(x, 1, 2), x)  # axis == start: still a view
    both_raise(AXIS_ERROR, lambda: ac.rollaxis(x, 3), lambda: np.rollaxis(a, 3))
    both_raise(AXIS_ERROR, lambda: ac.rollaxis(x, -4), lambda: np.rollaxis(a, -4))
    err = both_raise(AXIS_ERROR, lambda: ac.rollaxis(x, 0, 4), lambda: np.rollaxis(a, 0, 4))
    assert "[rollaxis]" in str(err) and "start" in str(err)
    both_raise(AXIS_ERROR, lambda: ac.rollaxis(x, 0, -4), lambda: np.rollaxis(a, 0, -4))


def test_isfortran_reads_the_strides(device):
    a = sample("float32", (3, 4, 5))
    x = ac.asarray(a, device=device)
    views = [lambda v: v, lambda v: v.T, lambda v: v[0], lambda v: v[0].T, lambda v: v[:, 0].T,
             lambda v: v[:, :, ::2].T, lambda v: v[0, 0], lambda v: v[:0].T, lambda v: v[:1].T,
             lambda v: v[0, :1].T, lambda v: v[0, 0, 0], lambda v: v[:2, :1, :].T]
    for view in views:
        assert ac.isfortran(view(x)) == np.isfortran(view(a)), view(a).strides
    assert ac.isfortran([[1, 2], [3, 4]]) is False


# ---- fromfunction, fromiter, frombuffer ---------------------------------------------------------

@pytest.mark.parametrize("dt", [float, "int32", "float32", "complex128", ac.int16])
def test_fromfunction_calls_function_with_accel_index_arrays(dt, device):
    np_dt = ac.asnumpy(ac.zeros(1, dtype=dt)).dtype if dt is ac.int16 else dt
    for shape in [(3,), (2, 4), (2, 0, 3)]:
        got = ac.fromfunction(lambda *ix: sum(i * 10 ** k for k, i in enumerate(ix)), shape,
                              dtype=dt, device=device)
        want = np.fromfunction(lambda *ix: sum(i * 10 ** k for k, i in enumerate(ix)), shape,
                               dtype=np_dt)
        same(got, want, device)
    seen = []
    r = ac.fromfunction(lambda i, j, scale: seen.append(type(i)) or (i - j) * scale, (2, 3),
                        scale=2, device=device)
    same(r, np.fromfunction(lambda i, j, scale: (i - j) * scale, (2, 3), scale=2), device)
    assert seen == [ac.ndarray]
    like = ac.zeros(1, device=device)
    same(ac.fromfunction(lambda i: i * i, (4,), like=like), np.arange(4.0) ** 2, device)
    same(np.fromfunction(lambda i: i + 1, (3,), like=ac.zeros(1)), np.arange(1.0, 4.0))


@pytest.mark.parametrize("dt", ["int8", "int64", "uint32", "float32", "float64", "complex128",
                                "bool"])
def test_fromiter_reads_count_values_of_dtype(dt, device):
    values = sample(dt, (7,)).tolist()
    for count in (-1, 0, 3, 7):
        same(ac.fromiter(iter(values), dt, count=count, device=device),
             np.fromiter(iter(values), dt, count=count), device)
    same(ac.fromiter((v for v in values), dtype=getattr(ac, dt), device=device),
         np.fromiter(values, dtype=dt), device)
    both_raise(ValueError, lambda: ac.fromiter(iter(values), dt, count=8),
               lambda: np.fromiter(iter(values), dt, count=8))


def test_fromiter_errors_and_like_dispatch(device):
    both_raise(TypeError, lambda: ac.fromiter(range(3)), lambda: np.fromiter(range(3)))
    both_raise(ValueError, lambda: ac.fromiter(["a", "b"], "f8"),
               lambda: np.fromiter(["a", "b"], "f8"))
    like = ac.zeros(1, device=device)
    same(np.fromiter(range(4), np.int16, like=like), np.arange(4, dtype=np.int16), device)
    same(ac.fromiter(range(4), "f4", like=like), np.arange(4, dtype="f4"), device)


@pytest.mark.parametrize("dt", ["uint8", "int16", "int32", "float32", "float64", "complex64"])
def test_frombuffer_reads_count_items_from_offset(dt, device):
    raw = rng.integers(0, 256, 64, dtype=np.uint8).tobytes()
    size = np.dtype(dt).itemsize
    for count, offset in [(-1, 0), (2, 0), (1, size), (-1, 2 * size), (0, 8)]:
        same(ac.frombuffer(raw, dt, count, offset, device=device),
             np.frombuffer(raw, dt, count, offset), device)
    same(ac.frombuffer(bytearray(raw), dtype=getattr(ac, dt), device=device),
         np.frombuffer(raw, dtype=dt), device)
    same(ac.frombuffer(memoryview(raw)[8:], dt, device=device), np.frombuffer(raw[8:], dt),
         device)


def test_frombuffer_defaults_to_float64_and_raises_numpys_errors(device):
    raw = np.arange(4.0).tobytes()
    same(ac.frombuffer(raw, device=device), np.frombuffer(raw), device)
    same(ac.frombuffer(raw, dtype=None, device=device), np.frombuffer(raw, dtype=None), device)
    for kwargs in [dict(dtype="f8", count=5), dict(dtype="f4", offset=40),
                   dict(dtype="f8", offset=-1), dict(dtype="f8", offset=4)]:
        both_raise(ValueError, lambda: ac.frombuffer(raw, **kwargs, device=device),
                   lambda: np.frombuffer(raw, **kwargs))
    both_raise(TypeError, lambda: ac.frombuffer([1.0, 2.0]), lambda: np.frombuffer([1.0, 2.0]))
    like = ac.zeros(1, device=device)
    same(np.frombuffer(raw, like=like), np.arange(4.0), device)


def test_frombuffer_shares_a_writable_buffer_and_keeps_bytes_read_only():
    buf = bytearray(np.arange(6, dtype=np.int32).tobytes())
    x = ac.frombuffer(buf, dtype=ac.int32)
    buf[0:4] = np.int32(41).tobytes()
    assert int(x[0]) == 41  # the bytearray's memory, as NumPy's frombuffer
    x[1] = 42
    assert np.frombuffer(buf, np.int32)[1] == 42
    ro = ac.frombuffer(bytes(16), dtype="int32")
    assert not writeable(ro) and not np.frombuffer(bytes(16), "int32").flags.writeable
    with pytest.raises(ValueError, match="read-only"):
        ro[0] = 1


# ---- require ------------------------------------------------------------------------------------

@pytest.mark.parametrize("requirements", [None, "C", ["A"], ("W",), ["E", "c"], "CAWE",
                                          ["C_CONTIGUOUS", "writeable", "ALIGNED"],
                                          ["O"], ["OWNDATA", "ENSUREARRAY"]])
def test_require_gives_numpys_values_meeting_the_requirements(requirements, device):
    a = sample("float32", (3, 4))
    x = ac.asarray(a, device=device)
    for view, np_view in [(x, a), (x.T, a.T), (x[:, ::2], a[:, ::2])]:
        for dtype in (None, "float64", ac.int32):
            np_dtype = "int32" if dtype is ac.int32 else dtype
            got = ac.require(view, dtype, requirements)
            same(got, np.require(np_view, np_dtype, requirements), device)
            flags = {str(r).upper()[:1] for r in requirements or ()}
            if "C" in flags:
                assert got.strides == ac.asarray(got, copy=True).strides
            if "O" in flags:
                assert not ac.shares_memory(got, view)
            if not flags - {"A", "E"} and dtype is None:
                assert got is view or ac.shares_memory(got, view)


def test_require_copies_read_only_arrays_only_for_w():
    ro = ac.frombuffer(np.arange(4.0).tobytes())
    assert ac.require(ro, requirements="C") is ro or ac.shares_memory(ac.require(ro, None, "C"),
                                                                       ro)
    w = ac.require(ro, requirements=["W"])
    assert writeable(w) and not ac.shares_memory(w, ro)
    same(w, np.arange(4.0))
    x = ac.arange(3)
    assert ac.require(x, requirements="W") is x


def test_require_errors_and_like(device):
    a = np.arange(6.0).reshape(2, 3)
    x = ac.asarray(a, device=device)
    err = both_raise(ValueError, lambda: ac.require(x, requirements="CF"),
                     lambda: np.require(a, requirements="CF"))
    assert "both" in str(err)
    for req in (["F"], ["FORTRAN", "W"]):  # a Fortran-ordered copy, as NumPy's
        got = ac.require(x, requirements=req)
        assert got.flags.f_contiguous and np.array_equal(ac.asnumpy(got), a)
        assert ac.require(got, requirements=req) is got
    both_raise(KeyError, lambda: ac.require(x, requirements="Q"),
               lambda: np.require(a, requirements="Q"))
    same(ac.require([[1, 2]], "int8", "C", like=x), np.require([[1, 2]], "int8", "C"), device)


# ---- dtype queries ------------------------------------------------------------------------------

GENERICS = [np.generic, np.number, np.integer, np.signedinteger, np.unsignedinteger,
            np.inexact, np.floating, np.complexfloating, np.bool_, np.float32, np.int64,
            np.complex128, float, int, complex, "f4", "i8"]


@pytest.mark.parametrize("dt", DTYPES)
def test_issubdtype_takes_accel_dtypes_and_arrays(dt, device):
    accel_dt, np_dt = getattr(ac, dt) if dt != "bool" else ac.bool, np.dtype(dt)
    x = ac.zeros(2, dtype=accel_dt, device=device)
    for generic in GENERICS:
        want = np.issubdtype(np_dt, generic)
        assert ac.issubdtype(accel_dt, generic) == want, generic
        assert ac.issubdtype(x, generic) == want, generic
        assert ac.issubdtype(np_dt, generic) == want, generic
    for other in DTYPES:
        assert ac.issubdtype(accel_dt, getattr(ac, other)) == np.issubdtype(np_dt, other)
        assert ac.issubdtype(np_dt.type, getattr(ac, other)) == np.issubdtype(np_dt, other)


def test_common_type_is_numpys_scalar_type(device):
    combos = [("int8",), ("float32",), ("float32", "int64"), ("float32", "complex64"),
              ("uint16", "int8"), ("complex64", "float64"), ("float32", "float32"),
              ("int32", "complex64")]
    for combo in combos:
        xs = [ac.zeros((2, 1), dtype=getattr(ac, d), device=device) for d in combo]
        want = np.common_type(*[np.zeros(1, d) for d in combo])
        assert ac.common_type(*xs) is want
        assert np.common_type(*xs) is want  # NumPy's dispatch
        assert ac.common_type(*[getattr(ac, d) for d in combo]) is want
    assert ac.common_type(ac.zeros(1, device=device), np.zeros(1, np.float16)) is np.float64
    assert ac.common_type() is np.common_type()
    b = ac.zeros(2, dtype=ac.bool, device=device)
    both_raise(TypeError, lambda: ac.common_type(b), lambda: np.common_type(np.zeros(2, bool)))


def test_mintypecode_and_typename(device):
    cases = [(["f", "d"],), (["i", "f"],), ("fF",), (["G"],), ([],), (["b"], "fd", "x"),
             (["F", "d"], "GDFgdf")]
    for args in cases:
        assert ac.mintypecode(*args) == np.mintypecode(*args)
    x32 = ac.zeros(3, dtype=ac.float32, device=device)
    c64 = ac.zeros(3, dtype=ac.complex64, device=device)
    assert ac.mintypecode([x32, "d"]) == np.mintypecode([np.zeros(1, "f4"), "d"]) == "d"
    assert ac.mintypecode([x32, c64]) == np.mintypecode("fF")
    assert ac.mintypecode([ac.float32, ac.complex128]) == np.mintypecode("fD")
    assert ac.mintypecode(x32) == np.mintypecode(np.zeros(3, "f4"))
    assert ac.mintypecode(x32[:0]) == np.mintypecode(np.zeros(0, "f4"))
    both_raise(TypeError, lambda: ac.mintypecode(x32[0]), lambda: np.mintypecode(np.float32(0)))
    for char in "?bBhHiIlLqQfdgFDGSUVO":
        assert ac.typename(char) == np.typename(char)
    for dt in DTYPES:
        accel_dt = getattr(ac, dt) if dt != "bool" else ac.bool
        assert ac.typename(accel_dt) == np.typename(np.dtype(dt).char)
    assert ac.typename(x32) == "single precision"
    both_raise(KeyError, lambda: ac.typename("z"), lambda: np.typename("z"))


@pytest.mark.parametrize("value", [0, 1, 255, 256, -1, -129, 2 ** 40, 2 ** 64 - 1, 1.5, 1e300,
                                   1 + 2j, 1e200j, True])
def test_min_scalar_type_reads_the_value_of_0d_arrays(value, device):
    assert ac.min_scalar_type(value) == np.min_scalar_type(value)
    a = np.asarray(value)
    x = ac.asarray(a, device=device)
    assert ac.min_scalar_type(x) == np.min_scalar_type(a)
    assert ac.min_scalar_type(ac.reshape(x, (1,))) == np.min_scalar_type(a.reshape(1))
    # NumPy's own function on an accel array answers the same (it dispatches here).
    assert np.min_scalar_type(x) == np.min_scalar_type(a)


# ---- printing -----------------------------------------------------------------------------------

PRINTED = [("float64", (3, 4)), ("float32", (2, 2, 3)), ("int16", (5,)), ("bool", (2, 3)),
           ("complex128", (2,)), ("float64", ()), ("uint8", (0, 3)), ("float64", (40, 40))]


@pytest.mark.parametrize("dt, shape", PRINTED)
def test_array2string_str_and_repr_print_as_numpy(dt, shape, device):
    a = sample(dt, shape)
    x = ac.asarray(a, device=device)
    suffix = "" if device == "cpu" else f", device='{x.device}')"
    for kwargs in [{}, dict(precision=2), dict(max_line_width=30, suppress_small=True)]:
        assert ac.array_str(x, **kwargs) == np.array_str(a, **kwargs)
        want_repr = np.array_repr(a, **kwargs)
        if suffix:
            want_repr = want_repr[:-1] + suffix
        assert ac.array_repr(x, **kwargs) == want_repr
    assert ac.array_repr(x) == repr(x) and ac.array_str(x) == str(x)
    for kwargs in [{}, dict(separator=", ", prefix="v = "), dict(threshold=5, edgeitems=1),
                   dict(sign="+", floatmode="fixed", precision=3), dict(suffix=";"),
                   dict(formatter={"all": lambda v: "*"}), dict(legacy="1.13")]:
        assert ac.array2string(x, **kwargs) == np.array2string(a, **kwargs), kwargs
    assert np.array2string(x, separator=",") == np.array2string(a, separator=",")  # dispatch
    assert np.array_repr(x) == ac.array_repr(x) and np.array_str(x) == np.array_str(a)


def test_bfloat16_prints_as_accels_repr(device):
    x = ac.asarray([1.5, -2.25, 3.0], dtype=ac.bfloat16, device=device)
    assert ac.array_repr(x) == repr(x) and ac.array_str(x) == str(x)
    assert ac.array2string(x, separator=",") == "[1.5,-2.25,3]"


def test_printing_functions_give_numpys_answer_for_numpy_arrays():
    a = np.array([[1.5, -2.0], [1e-9, 3.25]])
    assert ac.array2string(a, precision=2) == np.array2string(a, precision=2)
    assert ac.array_repr(a) == np.array_repr(a) and ac.array_str(a) == np.array_str(a)
    both_raise(AttributeError, lambda: ac.array2string([1.5, 2]),
               lambda: np.array2string([1.5, 2]))


def test_print_options_are_numpys_and_change_accel_printing(device):
    x = ac.asarray([1 / 3, 2e-9, 12345.678], device=device)
    a = ac.asnumpy(x)
    before = ac.get_printoptions()
    assert before == np.get_printoptions()
    with ac.printoptions(precision=3, suppress=True):
        assert np.get_printoptions()["precision"] == 3
        assert str(x) == str(a) == "[    0.333     0.    12345.678]"
        assert ac.array2string(x) == np.array2string(a)
    assert ac.get_printoptions() == before
    try:
        ac.set_printoptions(threshold=4, edgeitems=1, linewidth=40)
        long = ac.arange(100, device=device)
        assert str(long) == str(np.arange(100)) == "[ 0 ... 99]"
        assert ac.get_printoptions()["threshold"] == 4
    finally:
        ac.set_printoptions(**before)
    assert ac.get_printoptions() == before
    both_raise(TypeError, lambda: ac.set_printoptions(precision="x"),
               lambda: np.set_printoptions(precision="x"))
    both_raise(ValueError, lambda: ac.set_printoptions(floatmode="nope"),
               lambda: np.set_printoptions(floatmode="nope"))
    assert ac.get_printoptions() == before


# ---- einsum_path --------------------------------------------------------------------------------

EINSUM_CASES = [("ij,jk->ik", [(2, 3), (3, 4)]), ("ij,jk,kl->il", [(2, 30), (30, 4), (4, 50)]),
                ("abc,cd,de,ea->b", [(3, 4, 5), (5, 6), (6, 7), (7, 3)]),
                ("ii->i", [(4, 4)]), ("i,i", [(5,), (5,)]), ("...ij,...jk", [(2, 1, 3, 4),
                                                                          (5, 4, 2)]),
                ("ij,j,jk,k", [(8, 9), (9,), (9, 10), (10,)])]


@pytest.mark.parametrize("optimize", ["greedy", "optimal", True, False])
def test_einsum_path_plans_as_numpy_from_shapes(optimize, device):
    for subscripts, shapes in EINSUM_CASES:
        dt = rng.choice(["float32", "float64", "complex64", "int32"])
        arrays = [sample(dt, s) for s in shapes]
        xs = [ac.asarray(a, device=device) for a in arrays]
        want = np.einsum_path(subscripts, *arrays, optimize=optimize)
        assert ac.einsum_path(subscripts, *xs, optimize=optimize) == want
        assert np.einsum_path(subscripts, *xs, optimize=optimize) == want  # dispatch
    arrays = [sample("float64", s) for s in [(2, 3), (3, 4), (4, 5)]]
    xs = [ac.asarray(a, device=device) for a in arrays]
    path = ["einsum_path", (1, 2), (0, 1)]
    assert ac.einsum_path("ij,jk,kl", *xs, optimize=path) == np.einsum_path(
        "ij,jk,kl", *arrays, optimize=path)


def test_einsum_path_interleaved_form_and_einsum_call(device):
    a, b, c = sample("float64", (3, 4)), sample("float64", (4, 5)), sample("float64", (5, 2))
    x, y, z = (ac.asarray(v, device=device) for v in (a, b, c))
    want = np.einsum_path(a, [0, 1], b, [1, 2], c, [2, 3], [0, 3], optimize="optimal")
    assert ac.einsum_path(x, [0, 1], y, [1, 2], z, [2, 3], [0, 3], optimize="optimal") == want
    assert ac.einsum_path(x, [0, 1], y, [1, 2]) == np.einsum_path(a, [0, 1], b, [1, 2])
    assert ac.einsum_path("ij,jk", x, b) == np.einsum_path("ij,jk", a, b)  # mixed operands
    operands, contractions = ac.einsum_path("ij,jk,kl->il", x, y, z, einsum_call=True)
    want_ops, want_contractions = np.einsum_path("ij,jk,kl->il", a, b, c, einsum_call=True)
    assert [o is v for o, v in zip(operands, (x, y, z))] == [True] * 3
    assert [step[:3] for step in contractions] == [step[:3] for step in want_contractions]


def test_einsum_path_errors_are_numpys(device):
    a, b = np.ones((2, 3)), np.ones((4, 5))
    x, y = ac.asarray(a, device=device), ac.asarray(b, device=device)
    both_raise(ValueError, lambda: ac.einsum_path("ij,jk", x, y), lambda: np.einsum_path(
        "ij,jk", a, b))
    both_raise(ValueError, lambda: ac.einsum_path("ij,jk", x), lambda: np.einsum_path("ij,jk", a))
    z, c = ac.ones((3, 4), device=device), np.ones((3, 4))
    both_raise(KeyError, lambda: ac.einsum_path("ij,jk,kl", x, z, y, optimize="fast"),
               lambda: np.einsum_path("ij,jk,kl", a, c, b, optimize="fast"))
    both_raise(TypeError, lambda: ac.einsum_path("ij,jk,kl", x, z, y, optimize=["bad"]),
               lambda: np.einsum_path("ij,jk,kl", a, c, b, optimize=["bad"]))


# ---- floating-point error settings and numbers as text -------------------------------------------

def test_errstate_takes_ignore_and_refuses_what_accel_cannot_do(device):
    assert ac.geterr() == {"divide": "ignore", "over": "ignore", "under": "ignore",
                           "invalid": "ignore"}
    old = ac.seterr(all="ignore")
    assert ac.seterr(**old) == old  # the save-and-restore idiom runs as written
    with ac.errstate(divide="ignore", invalid="ignore"):
        r = ac.asarray([1.0, 0.0, -1.0], device=device) / 0
    with np.errstate(divide="ignore", invalid="ignore"):
        np.testing.assert_array_equal(ac.asnumpy(r), np.array([1.0, 0.0, -1.0]) / 0)

    @ac.errstate(over="ignore")
    def square(x):
        return x * x
    assert float(square(ac.asarray(3.0, device=device))) == 9.0
    for kwargs in ({"all": "raise"}, {"divide": "warn"}, {"over": "call"}):
        with pytest.raises(NotImplementedError, match="do not detect floating-point errors"):
            ac.errstate(**kwargs)
        with pytest.raises(NotImplementedError):
            ac.seterr(**kwargs)
    with pytest.raises(ValueError, match="the modes are"):
        ac.seterr(divide="loud")
    with pytest.raises(NotImplementedError):
        ac.seterrcall(print)
    assert ac.seterrcall(None) is None and ac.geterrcall() is None


def test_numbers_as_text_as_numpys(device):
    for n, width in ((5, None), (-5, 8), (0, 3), (2**40 + 3, None)):
        assert ac.binary_repr(n, width) == np.binary_repr(n, width)
    assert ac.binary_repr(ac.asarray(-3, device=device), 4) == np.binary_repr(-3, 4)
    assert ac.base_repr(255, 16, 2) == np.base_repr(255, 16, 2)
    with pytest.raises(TypeError):
        ac.binary_repr(ac.asarray(2.5, device=device))
    x = ac.asarray(0.1, dtype=ac.float32, device=device)
    assert ac.format_float_positional(x) == np.format_float_positional(np.float32(0.1))
    assert (ac.format_float_scientific(1.5e-7, precision=3)
            == np.format_float_scientific(1.5e-7, precision=3))
    got = ac.fromstring("1, 2, 3.5", sep=",", device=device)
    np.testing.assert_array_equal(ac.asnumpy(got), np.fromstring("1, 2, 3.5", sep=","))
    rows = [np.arange(3), np.arange(3) * 2]
    np.testing.assert_array_equal(ac.asnumpy(ac.row_stack([ac.asarray(r, device=device)
                                                           for r in rows])), np.vstack(rows))


# ---- sliding windows ----------------------------------------------------------------------------

WINDOWS = [((7,), 3, None), ((7,), (7,), None), ((4, 5), (2, 3), None), ((4, 5), 2, 1),
           ((4, 5), (2, 2), (1, 1)), ((3, 4, 5), (2, 3), (2, 0)), ((4, 5), (), ()),
           ((0, 5), (2,), (1,)), ((6,), 0, None)]


@pytest.mark.parametrize("shape,window,axis", WINDOWS)
@pytest.mark.parametrize("layout", ["C", "T", "strided"])
def test_sliding_window_view_as_numpys(shape, window, axis, layout, device):
    n = np.arange(int(np.prod(shape)), dtype=np.float32).reshape(shape)
    a = ac.asarray(n, device=device)
    if layout == "T":
        n, a = n.T, a.T
    elif layout == "strided" and n.ndim and n.shape[-1] > 1:
        n, a = n[..., ::-2], a[..., ::-2]
    if axis is None and np.ndim(window) and len(window) != n.ndim:
        return
    try:
        want = np.lib.stride_tricks.sliding_window_view(n, window, axis)
    except ValueError:  # a window longer than its axis (of the transposed empty array)
        with pytest.raises(ValueError, match="larger than input"):
            ac.lib.stride_tricks.sliding_window_view(a, window, axis)
        return
    got = ac.lib.stride_tricks.sliding_window_view(a, window, axis)
    assert got.shape == want.shape and got.strides == want.strides
    np.testing.assert_array_equal(ac.asnumpy(got), want)
    assert not got.flags.writeable  # as NumPy's by default: windows share elements
    same_fn = np.lib.stride_tricks.sliding_window_view(a, window, axis)  # NumPy's, dispatched
    np.testing.assert_array_equal(ac.asnumpy(same_fn), want)


def test_sliding_window_view_is_a_view_and_refuses_what_numpy_does(device):
    n = np.arange(10.0)
    a = ac.asarray(n, device=device)
    got = ac.sliding_window_view(a, 3)
    a[4] = -1.0  # a view: the write shows in every window holding element 4
    n[4] = -1.0
    np.testing.assert_array_equal(ac.asnumpy(got),
                                  np.lib.stride_tricks.sliding_window_view(n, 3))
    moving_mean = ac.sliding_window_view(a, 4).mean(axis=-1)
    np.testing.assert_allclose(ac.asnumpy(moving_mean),
                               np.lib.stride_tricks.sliding_window_view(n, 4).mean(axis=-1))
    for args, match in [((11,), "larger than input"), ((-1,), "negative"),
                        (((2, 2),), "one length per axis"), ((2, (0, 0)), "same length")]:
        with pytest.raises(ValueError, match=match):
            ac.sliding_window_view(a, *args)
    with pytest.raises(ValueError, match="writeable"):
        ac.sliding_window_view(a, 2, writeable=True)
    with pytest.raises(ValueError, match="read-only"):
        got[0, 0] = 1.0
