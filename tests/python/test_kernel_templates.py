"""accel.ElementwiseKernel and accel.ReductionKernel (CuPy's kernel templates) against NumPy, on
every device present: CuPy's documented examples, dtypes, broadcasts, strides, empty and 0-d
arrays, special values, out=, raw params, placeholders and their errors, axes and keepdims, the
CUDA source of each call compiled by NVRTC (no GPU needed), and the kernel cache across
processes. On the CPU kernels are built by the host C++ compiler."""

import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import accel as ac

# Child processes import the very accel under test (the installed package in CI).
ACCEL_PARENT = os.path.dirname(os.path.dirname(os.path.abspath(ac.__file__)))
CHILD_ENV = dict(os.environ, PYTHONPATH=ACCEL_PARENT + os.pathsep + os.environ.get("PYTHONPATH", ""))
HAVE_GPU = ac.cuda.is_available()
NO_GPU_REASON = "no CUDA driver/GPU: " + ac.cuda.unavailable_reason().split("\n")[0]
DEVICES = [
    "cpu",
    pytest.param("cuda", marks=[pytest.mark.cuda, pytest.mark.skipif(not HAVE_GPU, reason=NO_GPU_REASON)]),
]

squared_diff = ac.ElementwiseKernel("float32 x, float32 y", "float32 z",
                                    "z = (x - y) * (x - y)", "squared_diff")
squared_diff_generic = ac.ElementwiseKernel("T x, T y", "T z", "z = (x - y) * (x - y)",
                                            "squared_diff_generic")
add_reverse = ac.ElementwiseKernel("T x, raw T y", "T z", "z = x + y[_ind.size() - i - 1]",
                                   "add_reverse")
l2norm = ac.ReductionKernel("T x", "T y", "x * x", "a + b", "y = sqrt(a)", "0", "l2norm")
# z = x * y + x in the param's own type: C++'s arithmetic converted back as NumPy wraps/rounds.
mul_add = ac.ElementwiseKernel("T x, T y", "T z", "z = T(x * y + x)", "mul_add")


def arr(a, device):
    return ac.asarray(np.asarray(a), device=device)


def host(a):
    return ac.asnumpy(a)


# --- CuPy's documented examples ---------------------------------------------------------

@pytest.mark.parametrize("device", DEVICES)
def test_squared_diff_documented_example(device):
    x = np.arange(10, dtype=np.float32).reshape(2, 5)
    y = np.arange(5, dtype=np.float32)
    np.testing.assert_array_equal(host(squared_diff(arr(x, device), arr(y, device))), (x - y) ** 2)
    np.testing.assert_array_equal(host(squared_diff(arr(x, device), 5)), (x - 5) ** 2)
    z = ac.empty((2, 5), dtype=ac.float32, device=device)
    r = squared_diff(arr(x, device), arr(y, device), z)
    assert r is z or np.array_equal(host(r), host(z))
    np.testing.assert_array_equal(host(z), (x - y) ** 2)


@pytest.mark.parametrize("device", DEVICES)
def test_type_generic_squared_diff_keeps_the_argument_dtype(device):
    for dt in (np.float64, np.int32):
        x = np.arange(10, dtype=dt).reshape(2, 5)
        y = np.arange(5, dtype=dt)
        r = squared_diff_generic(arr(x, device), arr(y, device))
        np.testing.assert_array_equal(host(r), (x - y) ** 2)
        assert host(r).dtype == dt


@pytest.mark.parametrize("device", DEVICES)
def test_raw_argument_indexed_from_the_end(device):
    x = np.arange(5, dtype=np.float32)
    y = np.arange(5, dtype=np.float32) * 10
    got = host(add_reverse(arr(x, device), arr(y, device)))
    np.testing.assert_array_equal(got, x + y[::-1])


@pytest.mark.parametrize("device", DEVICES)
def test_l2norm_documented_example(device):
    x = np.arange(10, dtype=np.float32).reshape(2, 5)
    np.testing.assert_allclose(host(l2norm(arr(x, device), axis=1)),
                               np.sqrt((x * x).sum(axis=1)), rtol=1e-6)


# --- ElementwiseKernel against NumPy ------------------------------------------------------

@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("dt", [np.bool_, np.int8, np.uint8, np.int64, np.float32, np.float64,
                                np.complex64, np.complex128])
def test_mul_add_matches_numpy_for_each_dtype(device, dt):
    rng = np.random.default_rng(1)
    if dt == np.bool_:
        x, y = rng.random((3, 7)) > 0.5, rng.random((3, 7)) > 0.5
        want = x | (x & y)
    else:
        x = (rng.standard_normal((3, 7)) * 50).astype(dt)
        y = (rng.standard_normal((3, 7)) * 50).astype(dt)
        if np.issubdtype(dt, np.complexfloating):
            x = x + 1j * (rng.standard_normal((3, 7)) * 5).astype(dt)
        with np.errstate(over="ignore"):
            want = (x * y + x).astype(dt)
    got = host(mul_add(arr(x, device), arr(y, device)))
    assert got.dtype == want.dtype
    if np.issubdtype(dt, np.inexact):
        np.testing.assert_allclose(got, want, rtol=1e-5 if dt in (np.float32, np.complex64) else 1e-12)
    else:
        np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("device", DEVICES)
def test_broadcasts_strides_and_views(device):
    rng = np.random.default_rng(2)
    base = rng.standard_normal((6, 8)).astype(np.float32)
    col = rng.standard_normal((6, 1)).astype(np.float32)
    b = arr(base, device)
    cases = [
        (b.T, arr(col.T, device), base.T, col.T),                  # transposed + broadcast row
        (b[::2, 1::3], arr(col[::2], device), base[::2, 1::3], col[::2]),  # steps
        (b[::-1], b[:, ::-1], base[::-1], base[:, ::-1]),            # negative strides
        (arr(base[:, :1], device), arr(base[:1, :], device), base[:, :1], base[:1, :]),  # outer
    ]
    for ax, ay, nx, ny in cases:
        np.testing.assert_array_equal(host(squared_diff(ax, ay)), (nx - ny) ** 2)


def random_view(rng, shape, device):
    """A float64 array of `shape` on `device` with random strides: a slice with steps (some
    negative) of a bigger array, or a transpose."""
    steps = [int(rng.choice([1, 2, -1, -2])) for _ in shape]
    big = rng.standard_normal([n * abs(s) + 1 for n, s in zip(shape, steps)])
    view = big[tuple(slice(None, n * abs(s), s) if s > 0 else slice(n * abs(s) - 1, None, s)
                     for n, s in zip(shape, steps))]
    assert view.shape == tuple(shape)
    if len(shape) >= 2 and rng.random() < 0.3:
        t = np.ascontiguousarray(view.T)
        return t.T, ac.asarray(t, device=device).T
    a = ac.asarray(big, device=device)
    return view, a[tuple(slice(None, n * abs(s), s) if s > 0 else slice(n * abs(s) - 1, None, s)
                         for n, s in zip(shape, steps))]


@pytest.mark.parametrize("device", DEVICES)
def test_random_shapes_strides_and_broadcasts(device):
    rng = np.random.default_rng(7)
    for _ in range(8):
        shape = [int(n) for n in rng.integers(1, 6, size=rng.integers(1, 4))]
        yshape = [n if rng.random() < 0.6 else 1 for n in shape][int(rng.integers(0, len(shape))):]
        nx, ax = random_view(rng, shape, device)
        ny, ay = random_view(rng, yshape, device)
        np.testing.assert_array_equal(host(squared_diff_generic(ax, ay)), (nx - ny) ** 2)


@pytest.mark.parametrize("device", DEVICES)
def test_random_reductions(device):
    rng = np.random.default_rng(8)
    for _ in range(6):
        shape = [int(n) for n in rng.integers(1, 7, size=rng.integers(1, 4))]
        nx, ax = random_view(rng, shape, device)
        k = int(rng.integers(1, len(shape) + 1))
        axis = tuple(int(a) for a in rng.choice(len(shape), size=k, replace=False))
        keep = bool(rng.random() < 0.5)
        np.testing.assert_allclose(host(l2norm(ax, axis=axis, keepdims=keep)),
                                   np.sqrt((nx * nx).sum(axis=axis, keepdims=keep)), rtol=1e-12)


@pytest.mark.parametrize("device", DEVICES)
def test_zero_d_and_empty_arrays(device):
    x0 = np.float32(3.5)
    got = squared_diff(arr(np.array(x0), device), arr(np.array(1.5, np.float32), device))
    assert host(got).shape == ()
    assert host(got) == 4.0
    e = np.zeros((0, 4), np.float32)
    got = squared_diff(arr(e, device), arr(np.ones(4, np.float32), device))
    assert host(got).shape == (0, 4)


@pytest.mark.parametrize("device", DEVICES)
def test_special_values_pass_through_as_numpy(device):
    x = np.array([np.nan, np.inf, -np.inf, -0.0, 0.0, 1e38, -1e-45], np.float32)
    y = np.array([1.0, np.inf, 2.0, 0.0, -0.0, -1e38, 0.0], np.float32)
    with np.errstate(invalid="ignore", over="ignore"):
        want = (x - y) * (x - y)
    got = host(squared_diff(arr(x, device), arr(y, device)))
    np.testing.assert_array_equal(got, want)
    neg = ac.ElementwiseKernel("T x", "T z", "z = -x", "negate")
    got = host(neg(arr(x, device)))
    np.testing.assert_array_equal(np.signbit(got), np.signbit(-x))


@pytest.mark.parametrize("device", DEVICES)
def test_outputs_given_by_out_and_several_outputs(device):
    k = ac.ElementwiseKernel("T x", "T s, T p", "s = x + x; p = x * x", "sum_and_square")
    x = np.arange(6, dtype=np.float64).reshape(2, 3)
    s, p = k(arr(x, device))
    np.testing.assert_array_equal(host(s), x + x)
    np.testing.assert_array_equal(host(p), x * x)
    o1 = ac.zeros((2, 3), dtype=ac.float64, device=device)
    o2 = ac.zeros((2, 3), dtype=ac.float64, device=device)
    k(arr(x, device), out=(o1, o2))
    np.testing.assert_array_equal(host(o2), x * x)
    single = ac.zeros((3, 2), dtype=ac.float32, device=device).T  # a strided output
    squared_diff(arr(x.astype(np.float32), device), 1.0, out=single)
    np.testing.assert_array_equal(host(single), (x.astype(np.float32) - 1) ** 2)


@pytest.mark.parametrize("device", DEVICES)
def test_index_size_and_scalar_params(device):
    k = ac.ElementwiseKernel("T x, float64 scale", "float64 z", "z = x * scale + i + _ind.size()",
                             "affine_index")
    x = np.arange(12, dtype=np.int32).reshape(3, 4)
    got = host(k(arr(x, device), 0.5))
    np.testing.assert_array_equal(got, x * 0.5 + np.arange(12).reshape(3, 4) + 12)


@pytest.mark.parametrize("device", DEVICES)
def test_all_raw_arguments_need_size(device):
    k = ac.ElementwiseKernel("raw T x", "raw T y", "y[i] = x[x.size() - 1 - i] * 2", "rev2")
    x = np.arange(8, dtype=np.int64)
    y = ac.zeros(8, dtype=ac.int64, device=device)
    with pytest.raises(ValueError, match="size="):
        k(arr(x, device), y)
    k(arr(x, device), y, size=8)
    np.testing.assert_array_equal(host(y), x[::-1] * 2)


def test_preamble_and_options_reach_the_compiler():
    k = ac.ElementwiseKernel("T x", "T z", "z = twice(x) + OFFSET", "with_preamble",
                             preamble="template <class U> __device__ U twice(U v) { return v + v; }",
                             options=("-DOFFSET=3",))
    np.testing.assert_array_equal(host(k(ac.asarray(np.arange(4.0)))), np.arange(4.0) * 2 + 3)


# --- errors ---------------------------------------------------------------------------------

def test_errors_are_typed_and_name_the_kernel():
    f32 = ac.asarray(np.ones(4, np.float32))
    f64 = ac.asarray(np.ones(4, np.float64))
    with pytest.raises(TypeError, match=r"squared_diff_generic.*placeholder T.*float32.*float64"):
        squared_diff_generic(f32, f64)
    with pytest.raises(ValueError, match="takes 2 input arguments"):
        squared_diff_generic(f32)
    with pytest.raises(ValueError, match="takes 2 input arguments"):
        squared_diff_generic(f32, f32, f32, f32)
    with pytest.raises(TypeError, match="from argument 'z'"):
        squared_diff_generic(f32, f32, f64)
    with pytest.raises(TypeError, match="output 'z' is float64"):
        squared_diff(f32, f32, f64)
    with pytest.raises(ValueError, match=r"output 'z' has shape \(4,\)"):
        squared_diff_generic(ac.ones((2, 4), dtype=ac.float32), f32, f32)
    with pytest.raises(ValueError):
        squared_diff_generic(f32, ac.asarray(np.ones(3, np.float32)))
    with pytest.raises(TypeError, match="placeholder U"):
        ac.ElementwiseKernel("T x", "U z", "z = x", "to_u")(f32)
    with pytest.raises(TypeError, match="unknown type 'float17'"):
        ac.ElementwiseKernel("float17 x", "T z", "z = x", "bad_type")
    with pytest.raises(ValueError, match="reserved"):
        ac.ElementwiseKernel("T i", "T z", "z = i", "reserved_name")
    with pytest.raises(ValueError, match="declared twice"):
        ac.ElementwiseKernel("T x, T x", "T z", "z = x", "twice_declared")
    ints = ac.ElementwiseKernel("int8 x", "int8 z", "z = x", "int8_copy")
    with pytest.raises(OverflowError):
        ints(300)
    with pytest.raises(TypeError, match="cannot become int8"):
        ints(2.5)
    with pytest.raises(TypeError, match="same_kind"):
        ints(f32)
    with pytest.raises(ac.CompileError, match="undeclared|not declared"):
        ac.ElementwiseKernel("T x", "T z", "z = nope(x)", "broken")(f32)


# --- ReductionKernel against NumPy ----------------------------------------------------------

@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("axis", [None, 0, 1, -1, (0, 2), (2, 0, 1)])
@pytest.mark.parametrize("keepdims", [False, True])
def test_l2norm_axes_and_keepdims(device, axis, keepdims):
    x = np.random.default_rng(3).standard_normal((3, 4, 5))
    got = host(l2norm(arr(x, device), axis=axis, keepdims=keepdims))
    want = np.sqrt((x * x).sum(axis=axis, keepdims=keepdims))
    assert got.shape == want.shape
    np.testing.assert_allclose(got, want, rtol=1e-12)


@pytest.mark.parametrize("device", DEVICES)
def test_reduction_of_two_broadcast_strided_inputs(device):
    dot = ac.ReductionKernel("T x, T y", "T z", "x * y", "a + b", "z = a", "0", "rowdot")
    rng = np.random.default_rng(4)
    a = rng.standard_normal((7, 5))
    b = rng.standard_normal(7)
    got = host(dot(arr(a, device).T, arr(b, device), axis=1))
    np.testing.assert_allclose(got, a.T @ b, rtol=1e-12)


@pytest.mark.parametrize("device", DEVICES)
def test_reduce_type_widens_and_empty_reductions_give_the_identity(device):
    total = ac.ReductionKernel("int8 x", "int64 y", "x", "a + b", "y = a", "0", "int8_total",
                               reduce_type="int64")
    x = np.random.default_rng(5).integers(-128, 127, size=(4, 3000), dtype=np.int8)
    np.testing.assert_array_equal(host(total(arr(x, device), axis=1)), x.sum(axis=1, dtype=np.int64))
    np.testing.assert_array_equal(host(total(arr(x, device))), x.sum(dtype=np.int64))
    e = np.zeros((3, 0), np.int8)
    np.testing.assert_array_equal(host(total(arr(e, device), axis=1)), np.zeros(3, np.int64))
    out = ac.zeros(4, dtype=ac.int64, device=device)
    total(arr(x, device), axis=1, out=out)
    np.testing.assert_array_equal(host(out), x.sum(axis=1, dtype=np.int64))


@pytest.mark.parametrize("device", DEVICES)
def test_max_reduction_over_a_long_row(device):
    # One output over 10^6 elements: the CPU splits the row over threads and folds in order.
    kmax = ac.ReductionKernel("T x", "T y", "x", "max(a, b)", "y = a", "-1e300", "row_max",
                              reduce_type="float64")
    x = np.random.default_rng(6).standard_normal(1_000_000)
    x[123457] = 99.0
    assert host(kmax(arr(x, device))) == 99.0


def test_reduction_errors_are_typed():
    x = ac.asarray(np.ones((2, 3)))
    with pytest.raises(ValueError):
        l2norm(x, axis=(0, 0))
    with pytest.raises(IndexError):
        l2norm(x, axis=2)
    with pytest.raises(ValueError, match="has shape"):
        l2norm(x, axis=0, out=ac.zeros(2))
    with pytest.raises(ValueError, match="reserved"):
        ac.ReductionKernel("T a", "T y", "a", "a + b", "y = a", "0", "bad")
    with pytest.raises(ValueError, match="identity is empty"):
        ac.ReductionKernel("T x", "T y", "x", "a + b", "y = a", "", "no_identity")


# --- the CUDA path, compiled without a GPU --------------------------------------------------

def _nvrtc_compiles(source):
    m = ac.cuda.compile(source, arch="sm_90", options=["-default-device", "--fmad=false"],
                        use_cache=False)
    assert m.is_cubin and m.arch == "sm_90"


@pytest.mark.skipif(bool(ac.cuda.nvrtc_unavailable_reason()),
                    reason="NVRTC not found: " + ac.cuda.nvrtc_unavailable_reason().split("\n")[0])
def test_generated_cuda_sources_compile_with_nvrtc():
    x = ac.asarray(np.arange(10, dtype=np.float32).reshape(2, 5))
    _nvrtc_compiles(squared_diff_generic.source(x, x.T.T[:, ::-1], device="cuda"))
    _nvrtc_compiles(add_reverse.source(x, x, device="cuda"))
    _nvrtc_compiles(mul_add.source(ac.zeros(3, dtype=ac.complex128),
                                   ac.zeros(3, dtype=ac.complex128), device="cuda"))
    _nvrtc_compiles(l2norm.source(x, axis=1, keepdims=True, device="cuda"))
    src = squared_diff.source(x, 5, device="cuda")
    assert "__global__" in src and "z = (x - y) * (x - y)" in src


# --- the kernel cache, shared by processes --------------------------------------------------

def test_a_second_process_loads_the_compiled_kernel_from_disk(tmp_path):
    script = textwrap.dedent("""
        import numpy as np, accel as ac
        k = ac.ElementwiseKernel("T x", "T z", "z = x * 3 + 1", "cache_probe")
        r = ac.ReductionKernel("T x", "T y", "x", "a + b", "y = a", "0", "cache_probe_sum")
        x = ac.asarray(np.arange(5.0))
        assert ac.asnumpy(k(x)).tolist() == [1.0, 4.0, 7.0, 10.0, 13.0]
        assert float(ac.asnumpy(r(x))) == 10.0
        s = ac.kernel_cache_stats()
        print(s["hits"], s["misses"])
    """)
    env = dict(CHILD_ENV, ACCEL_CACHE_DIR=str(tmp_path / "cache"))
    runs = [subprocess.run([sys.executable, "-c", script], env=env, capture_output=True,
                           text=True, timeout=300) for _ in range(2)]
    for r in runs:
        assert r.returncode == 0, r.stderr
    first = [int(v) for v in runs[0].stdout.split()]
    second = [int(v) for v in runs[1].stdout.split()]
    assert first == [0, 2]   # both compiled
    assert second == [2, 0]  # both loaded


def test_the_example_runs():
    example = os.path.join(os.path.dirname(__file__), "..", "..", "examples", "python",
                           "elementwise_kernel.py")
    r = subprocess.run([sys.executable, example], capture_output=True, text=True, timeout=300,
                       env=CHILD_ENV)
    assert r.returncode == 0, r.stderr
    assert "l2norm(x, axis=1)" in r.stdout
