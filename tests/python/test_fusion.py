"""Fusion of elementwise chains: fused results equal unfused ones over random expression trees
(ops of the registry, broadcasting, dtypes, strides), aliasing semantics, explain()."""

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import accel as ac
from elementwise_oracle import rtol_on

UNARY = ["negative", "abs", "square", "sin", "cos", "exp", "log1p", "sqrt", "tanh", "floor",
         "sign", "isnan", "logical_not", "bitwise_invert", "reciprocal", "expm1", "atan"]
BINARY = ["add", "subtract", "multiply", "divide", "floor_divide", "remainder", "pow",
          "maximum", "minimum", "fmax", "less", "equal", "greater_equal", "logical_and",
          "logical_xor", "bitwise_and", "bitwise_or", "bitwise_left_shift", "atan2", "hypot",
          "copysign", "logaddexp"]
DTYPES = ["bool", "int8", "int32", "int64", "uint8", "uint16", "float32", "float64", "complex64"]


@pytest.fixture(autouse=True)
def fusion_on():
    # Small ops stay lazy here (they are computed at once by default): these tests fuse them.
    ac.set_fusion(True)
    ac.set_eager_small(False)
    yield
    ac.set_fusion(True)
    ac.set_eager_small(True)


def tree(depth):
    leaf = st.one_of(st.tuples(st.just("arr"), st.integers(0, 3)),
                     st.tuples(st.just("scalar"), st.sampled_from([2, 3, -1, 0.5, 2.0, True])))
    if depth == 0:
        return leaf
    sub = tree(depth - 1)
    return st.one_of(
        leaf,
        st.tuples(st.sampled_from(UNARY), sub),
        st.tuples(st.sampled_from(BINARY), sub, sub),
        st.tuples(st.just("where"), sub, sub, sub),
        st.tuples(st.just("astype"), st.sampled_from(DTYPES), sub),
    )


@st.composite
def operands(draw):
    """Four NumPy arrays broadcastable to one shape, some of them non-contiguous views."""
    nd = draw(st.integers(0, 3))
    shape = tuple(draw(st.integers(1, 6)) for _ in range(nd))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    out = []
    for _ in range(4):
        k = draw(st.integers(0, nd))
        sub = tuple(1 if draw(st.booleans()) and d > 1 else d for d in shape[nd - k:])
        dt = draw(st.sampled_from(DTYPES))
        kind = draw(st.sampled_from(["c", "T", "step"]))
        base = rng.uniform(-5, 5, size=sub[::-1] if kind == "T" else
                           tuple(2 * d for d in sub) if kind == "step" else sub)
        if kind == "T":
            base = base.T
        elif kind == "step":
            base = base[tuple(slice(None, None, 2) for _ in sub)]
        if dt == "bool":
            a = base > 0
        elif dt.startswith("complex"):
            a = (base + 1j * base[::-1] if base.ndim else base + 0.5j).astype(dt)
        else:
            a = base.astype(dt)
        out.append(a)
    return out


def build(recipe, arrays):
    kind = recipe[0]
    if kind == "arr":
        return arrays[recipe[1]]
    if kind == "scalar":
        return recipe[1]
    if kind == "astype":
        x = build(recipe[2], arrays)
        return ac.astype(x, recipe[1]) if isinstance(x, ac.ndarray) else x
    args = [build(r, arrays) for r in recipe[1:]]
    if not any(isinstance(a, ac.ndarray) for a in args):
        args[0] = arrays[0]
    return getattr(ac, kind)(*args)


def evaluate(recipe, np_arrays, fused):
    ac.set_fusion(fused)
    arrays = [ac.asarray(a) for a in np_arrays]
    with np.errstate(all="ignore"):
        try:
            y = build(recipe, arrays)
        except (TypeError, ValueError, OverflowError):
            return None  # a dtype or value the op rejects: the same with fusion on or off
        return ac.asnumpy(y).copy() if isinstance(y, ac.ndarray) else None


def assert_same(fused, unfused):
    assert fused.dtype == unfused.dtype and fused.shape == unfused.shape
    if fused.dtype.kind in "biu":
        np.testing.assert_array_equal(fused, unfused)
    else:
        eps = np.finfo(fused.dtype).eps
        scale = np.nanmax(np.abs(unfused[np.isfinite(unfused)]), initial=1.0)
        np.testing.assert_allclose(fused, unfused, rtol=64 * eps, atol=64 * eps * scale,
                                   equal_nan=True)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(recipe=tree(4), np_arrays=operands())
def test_random_trees_fused_equal_unfused(recipe, np_arrays):
    unfused = evaluate(recipe, np_arrays, fused=False)
    assume(unfused is not None)
    fused = evaluate(recipe, np_arrays, fused=True)
    assert_same(fused, unfused)


def test_chain_is_one_group_and_explain_shows_it():
    # Copies: operations on memory NumPy shares are computed at once (NumPy may write it).
    a, b, c = (ac.asarray(np.arange(1000, dtype=np.float32), copy=True) for _ in range(3))
    text = ac.explain(2 * a * b + c - 1)
    assert "group 0: 4 nodes of shape (1000,) on cpu" in text
    assert "multiply" in text and "subtract" in text and "kernel fk" in text
    ac.set_fusion(False)
    assert "fusion off" in ac.explain(2 * a * b + c - 1)


def test_explain_of_computed_array():
    a = ac.asarray(np.ones(3))
    assert "nothing pending" in ac.explain(a)


def test_eval_of_several_arrays_shares_one_pass():
    a = ac.asarray(np.linspace(-1, 1, 101))
    s, d = a + 1, ac.sin(a) * 2
    ac.eval(s, d)
    assert not s.is_pending and not d.is_pending
    np.testing.assert_array_equal(ac.asnumpy(s), np.linspace(-1, 1, 101) + 1)
    np.testing.assert_allclose(ac.asnumpy(d), np.sin(np.linspace(-1, 1, 101)) * 2, rtol=1e-15)


def test_pending_reader_sees_old_values():
    xn = np.arange(10.0)
    x = ac.asarray(xn.copy())
    y = x * 2 + 1
    x += 1
    np.testing.assert_array_equal(ac.asnumpy(y), xn * 2 + 1)
    np.testing.assert_array_equal(ac.asnumpy(x), xn + 1)


@pytest.mark.parametrize("n", [1, 7, 64])
def test_inplace_add_of_own_transpose(n):
    an = np.random.default_rng(n).uniform(size=(n, n))
    a = ac.asarray(an.copy())
    a += a.T * 2 - 1
    an += an.T * 2 - 1  # NumPy handles the overlap by buffering, as accel must
    np.testing.assert_array_equal(ac.asnumpy(a), an)


@pytest.mark.skipif(not hasattr(ac.ndarray, "__setitem__"), reason="this build has no __setitem__")
def test_shifted_self_assignment():
    xn = np.arange(12.0)
    x = ac.asarray(xn.copy())
    x[1:] = x[:-1] * 2
    xn[1:] = xn[:-1] * 2
    np.testing.assert_array_equal(ac.asnumpy(x), xn)


def test_intermediate_held_by_user_is_computed_once_and_kept():
    a = ac.asarray(np.linspace(0, 3, 50))
    t = ac.exp(a) * 2
    y = t - 1
    y.eval()
    assert not t.is_pending
    np.testing.assert_array_equal(ac.asnumpy(y), ac.asnumpy(t) - 1)


def test_views_of_the_same_elements_are_one_input(device):
    mn = np.arange(300 * 200, dtype=np.float32).reshape(300, 200) / 7
    m = ac.asarray(mn, copy=True, device=device)
    y = m.T * m.T + m[::-1].T * m[::-1].T - m[::-1].T[::-1]
    listing = ac.explain(y)
    want = mn.T * mn.T + mn[::-1].T * mn[::-1].T - mn[::-1].T[::-1]
    np.testing.assert_array_equal(ac.asnumpy(y), want)
    # m.T twice and m[::-1].T twice are one input each; m[::-1].T[::-1] is another.
    assert "(3 inputs, 1 outputs" in listing, listing


def test_fusion_switch_gives_identical_results_for_benchmark_expressions(device):
    rng = np.random.default_rng(0)
    an, bn, cn = (rng.random(100_003, dtype=np.float32) for _ in range(3))
    dn, en = rng.standard_normal(1000), rng.standard_normal(1000)
    out = []
    for on in (True, False):
        ac.set_fusion(on)
        a, b, c, d, e = (ac.asarray(x, device=device) for x in (an, bn, cn, dn, en))
        out.append((ac.asnumpy(2 * a * b + c - 1).copy(),
                    ac.asnumpy(ac.sin(a) ** 2 + ac.cos(a) ** 2 - ac.exp(-b) * c).copy(),
                    ac.asnumpy(ac.tanh(d) * e + 1).copy()))
    np.testing.assert_array_equal(out[0][0], out[1][0])
    np.testing.assert_allclose(out[0][1], out[1][1], rtol=4e-7, atol=4e-7)
    np.testing.assert_array_equal(out[0][2], out[1][2])
    np.testing.assert_allclose(out[0][2], np.tanh(dn) * en + 1, rtol=rtol_on(device, "float64"))


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
def test_fused_expressions_match_numpy(dtype, device):
    rng = np.random.default_rng(11)
    a, b, c = (rng.standard_normal((300, 257)).astype(dtype) for _ in range(3))
    x, y, z = (ac.asarray(v, device=device) for v in (a, b, c))
    r = ac.sin(x) ** 2 + ac.cos(x) ** 2 - ac.exp(-y) * z
    assert ("cuda dialect" if device.startswith("cuda") else "host dialect") in ac.explain(r)
    want = np.sin(a) ** 2 + np.cos(a) ** 2 - np.exp(-b) * c
    tol = rtol_on(device, dtype) * 4
    np.testing.assert_allclose(ac.asnumpy(r), want, rtol=tol, atol=tol)
    # Only rounded + - *: bit for bit (no FMA contraction on the GPU).
    np.testing.assert_array_equal(ac.asnumpy(2 * x * y + z - 1), 2 * a * b + c - 1)
    # Broadcasting, a transposed operand and mixed dtypes inside one kernel.
    row = rng.standard_normal(257).astype(np.float32)
    r2 = (x.T * 0.5 + ac.asarray(np.ascontiguousarray(a.T), device=device)
          * ac.asarray(row, device=device)[:, None]) / 3
    want2 = (a.T * 0.5 + a.T * row[:, None]) / 3
    np.testing.assert_allclose(ac.asnumpy(r2), want2, rtol=rtol_on(device, want2.dtype.name))


def test_fused_region_with_several_outputs_and_integer_results(device):
    rng = np.random.default_rng(12)
    a = rng.integers(-1000, 1000, (64, 65)).astype(np.int32)
    b = rng.integers(1, 50, (64, 65)).astype(np.int32)
    x, y = ac.asarray(a, device=device), ac.asarray(b, device=device)
    q = x // y + x % y * 3
    s = q * 2 - (x << 1)
    t = ac.where(q > 0, ac.astype(s, ac.float32), -1.5)
    ac.eval(q, s, t)
    qa = a // b + a % b * 3
    sa = qa * 2 - (a << 1)
    np.testing.assert_array_equal(ac.asnumpy(q), qa)
    np.testing.assert_array_equal(ac.asnumpy(s), sa)
    np.testing.assert_array_equal(ac.asnumpy(t), np.where(qa > 0, sa.astype(np.float32), -1.5)
                                  .astype(np.float32))


# Host JIT and its kernel cache, each run in a fresh process with its own cache directory.
JIT_SCRIPT = r"""
import json, sys
import numpy as np
import accel as ac
rng = np.random.default_rng(1)
an, bn = rng.random(1 << 20, dtype=np.float32), rng.random(1 << 20, dtype=np.float32)
a, b = ac.asarray(an), ac.asarray(bn)
y = (ac.sin(a) * 2 + b * b - 1).eval()  # big enough to be compiled in the background
ac.jit_wait()
y = ac.asnumpy((ac.sin(a) * 2 + b * b - 1).eval())
ok = bool(np.allclose(y, np.sin(an) * 2 + bn * bn - 1, rtol=1e-5, atol=1e-6))
print(json.dumps(dict(ac.jit_stats(), ok=ok)))
"""


def run_jit(cache_dir, count=1):
    import json
    import os
    import subprocess
    import sys

    env = dict(os.environ, ACCEL_CACHE_DIR=str(cache_dir), ACCEL_JIT="1")
    procs = [subprocess.Popen([sys.executable, "-c", JIT_SCRIPT], env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True) for _ in range(count)]
    out = []
    for p in procs:
        stdout, stderr = p.communicate(timeout=240)
        assert p.returncode == 0, stderr
        out.append(json.loads(stdout.strip().splitlines()[-1]))
    return out


def test_jit_compiles_once_then_hits_the_disk_cache_and_recovers_from_corruption(tmp_path):
    (first,) = run_jit(tmp_path)
    assert first["ok"] and first["compiles"] == 1 and first["disk_hits"] == 0
    assert first["jit_runs"] >= 1 and first["failures"] == 0
    (second,) = run_jit(tmp_path)
    assert second["ok"] and second["compiles"] == 0 and second["disk_hits"] == 1
    payloads = list(tmp_path.glob("*/*/payload"))
    assert len(payloads) == 1
    payloads[0].write_bytes(b"not a shared object")
    (third,) = run_jit(tmp_path)  # the damaged entry is never loaded: compiled again
    assert third["ok"] and third["compiles"] == 1 and third["failures"] == 0


JIT_ALWAYS_SCRIPT = r"""
import json
import numpy as np
import accel as ac
ac.set_eager_small(False)  # keep the 12-element ops lazy, so they fuse
mn = np.arange(12.0).reshape(3, 4)
m = ac.asarray(mn, copy=True)
before = ac.jit_stats()
y = ac.asnumpy((m.T * 2 + 1).eval())  # strided, small, seen once: compiled all the same
row = ac.asnumpy(((m - m[0]) * 3).eval())  # a broadcast row
after = ac.jit_stats()
print(json.dumps(dict(
    ok=bool(np.array_equal(y, mn.T * 2 + 1) and np.array_equal(row, (mn - mn[0]) * 3)),
    built=after["compiles"] + after["disk_hits"] - before["compiles"] - before["disk_hits"],
    runs=after["jit_runs"] - before["jit_runs"], failures=after["failures"])))
"""


@pytest.mark.cxx
def test_jit_always_compiles_every_fused_kernel_before_its_first_run(tmp_path):
    """ACCEL_JIT_ALWAYS=1 (the fuzzer's --jit): no size or repetition threshold, no background
    thread; the first run already uses the compiled kernel."""
    import json
    import os
    import subprocess
    import sys

    env = dict(os.environ, ACCEL_CACHE_DIR=str(tmp_path), ACCEL_JIT="1", ACCEL_JIT_ALWAYS="1")
    r = subprocess.run([sys.executable, "-c", JIT_ALWAYS_SCRIPT], env=env, capture_output=True,
                       text=True, timeout=240)
    assert r.returncode == 0, r.stderr
    got = json.loads(r.stdout.strip().splitlines()[-1])
    assert got == {"ok": True, "built": 2, "runs": 2, "failures": 0}, got


STREAMED_SCRIPT = r"""
import json
import numpy as np
import accel as ac
rng = np.random.default_rng(4)
bad = []
# Rows of 8 MB and more (one thread: one chunk per row): the compiled kernel writes them with
# streaming stores, 32 bytes at a time, from a 32-byte-aligned start (else ordinary stores); odd
# lengths leave a ragged end and offsets 1 and 3 misalign views of accel memory.
for n, dt in [((1 << 21) + 3, np.float32), ((1 << 20) + 5, np.float64),
              ((1 << 21) + 1, np.int32), ((1 << 23) + 7, np.uint8)]:
    a = (rng.standard_normal((3, n + 4)) * 40).astype(dt)
    big = ac.asarray(a, copy=True)
    for off in (0, 1, 3):
        x = [a[i, off:off + n] for i in range(3)]
        v = [big[i, off:off + n] for i in range(3)]
        got = ac.asnumpy((2 * v[0] * v[1] + v[2] - 1).eval())
        if not np.array_equal(got, 2 * x[0] * x[1] + x[2] - 1):
            bad.append([n, str(np.dtype(dt)), off, "fused"])
        got = ac.asnumpy((v[0] + v[1]).eval())  # one op: the interpreter's streamed block
        if not np.array_equal(got, x[0] + x[1]):
            bad.append([n, str(np.dtype(dt)), off, "single"])
print(json.dumps(dict(bad=bad, runs=ac.jit_stats()["jit_runs"])))
"""


@pytest.mark.cxx
def test_large_rows_written_with_streaming_stores_equal_numpy(tmp_path):
    """Fused kernels stream outputs of 8 MB+ (ACCEL_JIT_ALWAYS=1, so the compiled kernel runs;
    one thread, so a row is one chunk): aligned and misaligned views, ragged ends, four dtypes,
    bit for bit against NumPy."""
    import json
    import os
    import subprocess
    import sys

    env = dict(os.environ, ACCEL_CACHE_DIR=str(tmp_path), ACCEL_JIT="1", ACCEL_JIT_ALWAYS="1",
               ACCEL_NUM_THREADS="1")
    r = subprocess.run([sys.executable, "-c", STREAMED_SCRIPT], env=env, capture_output=True,
                       text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    got = json.loads(r.stdout.strip().splitlines()[-1])
    assert got["bad"] == [] and got["runs"] >= 12, got


JIT_AGREES_SCRIPT = r"""
import json
import numpy as np
import accel as ac
rng = np.random.default_rng(2)
n = 1 << 20
x = 1 + rng.random(n) * 1e-3
z = ac.asarray(x + 1j * x, copy=True)  # z * z: re = x*x - x*x, exactly 0 without an FMA
w = ac.asarray(np.tile(np.array([complex(0, 1e-308), complex(1, 2)]), n // 2), copy=True)
d = ac.asarray(np.tile(np.array([complex(-1, 1e-308), complex(3, -1)]), n // 2), copy=True)
def run():
    return [ac.asnumpy((z * z * z).eval()).copy(), ac.asnumpy(((w / d) * d).eval()).copy()]
first = run()  # the interpreter; both kernels are compiled in the background
ac.jit_wait()
second = run()  # the compiled kernels
same = all(np.array_equal(a.view(np.uint64), b.view(np.uint64)) for a, b in zip(first, second))
print(json.dumps(dict(ac.jit_stats(), same=same)))
"""


def test_compiled_kernels_round_exactly_as_the_interpreter(tmp_path):
    # A result must not depend on whether its kernel was compiled yet (which depends on what the
    # process ran before): the JIT compiles without floating-point contraction, as the library,
    # so a complex product or quotient does not become a fused multiply-add in one and not in
    # the other (a last bit, the sign of a zero, inf or nan).
    import json
    import os
    import subprocess
    import sys

    env = dict(os.environ, ACCEL_CACHE_DIR=str(tmp_path), ACCEL_JIT="1")
    out = subprocess.run([sys.executable, "-c", JIT_AGREES_SCRIPT], env=env, capture_output=True,
                         text=True, timeout=240)
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout.strip().splitlines()[-1])
    assert result["jit_runs"] >= 2 and result["failures"] == 0
    assert result["same"]


def test_two_processes_compiling_one_kernel_at_once_both_succeed(tmp_path):
    results = run_jit(tmp_path, count=2)
    assert all(r["ok"] and r["failures"] == 0 and r["jit_runs"] >= 1 for r in results)
    assert len(list(tmp_path.glob("*/*/payload"))) == 1


@pytest.mark.parametrize("base,exponent", [
    (np.arange(5, dtype=np.float32), 2), (np.arange(5, dtype=np.float64), 2.0),
    (np.arange(5, dtype=np.int8), 2.0), (np.arange(5, dtype=np.float32), np.float64(2))])
def test_power_of_a_literal_two_is_square(base, exponent, device):
    # As NumPy's fast scalar power: x ** 2 is computed as x * x (exact, no pow call), decided
    # when the op is built, so every device and kernel sees square.
    y = ac.asarray(base, copy=True, device=device) ** exponent
    listing = ac.explain(y)
    assert "square" in listing and "pow" not in listing
    want = base ** exponent
    np.testing.assert_array_equal(ac.asnumpy(y), want)
    assert y.dtype == want.dtype.name
    assert "pow" in ac.explain(ac.asarray(base, copy=True, device=device) ** 3)  # others: pow


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_square_of_random_values_is_bit_equal_to_numpy(dtype, device):
    # Where a GPU's pow may round x ** 2 differently from x * x.
    x = np.random.default_rng(5).standard_normal(100_003).astype(dtype) * 1e3
    g = ac.asarray(x, device=device)
    np.testing.assert_array_equal(ac.asnumpy(g ** 2), x ** 2)
    np.testing.assert_array_equal(ac.asnumpy(g ** np.float64(2.0)), x ** np.float64(2.0))


# Host JIT over strided operands (transposes, broadcast rows and columns, reversed and stepped
# axes, strided outputs): compiled in this process, checked bit for bit against the interpreter
# and against NumPy. Shapes hold 2^15+ elements, so three runs ask for a compile.
def interpreted_and_compiled(fn):
    ac.set_jit(False)
    try:
        interpreted = ac.asnumpy(fn()).copy()
    finally:
        ac.set_jit(True)
    for _ in range(3):
        ac.asnumpy(fn())
    ac.jit_wait()
    runs = ac.jit_stats()["jit_runs"]
    compiled = ac.asnumpy(fn()).copy()
    assert ac.jit_stats()["jit_runs"] == runs + 1, "the compiled kernel did not run"
    return interpreted, compiled


def same_bits(a, b):
    assert a.dtype == b.dtype and a.shape == b.shape
    np.testing.assert_array_equal(a.view(np.uint8), b.view(np.uint8))


N_SIDE = 185  # 185^2 = 34225 >= 2^15


def square(dtype=np.float32, side=N_SIDE, cols=N_SIDE):
    return np.sin(np.arange(side * cols)).reshape(side, cols).astype(dtype) * 3


STRIDED_CASES = {  # (m, column, 0-d array) -> expression
    "transposed": lambda m, c, s: m.T * 2 + m - 1,
    "broadcast_row": lambda m, c, s: (m - m[0]) * 2 + 1,
    "broadcast_column": lambda m, c, s: (m - c) * 2 + 1,
    "reversed_and_stepped": lambda m, c, s: m[::-1, ::-1] * m[:, ::1].T - abs(m[::-1]),
    "zero_dim_and_transposed": lambda m, c, s: m.T * s + m[5, 7] - m,
}


@pytest.mark.cxx
@pytest.mark.parametrize("case", sorted(STRIDED_CASES))
def test_host_jit_runs_strided_operands_as_the_interpreter(case):
    expr = STRIDED_CASES[case]
    mn = square()
    cn, sn = mn[:, 5:6].copy(), np.array(mn[3, 0])
    m, c, s = (ac.asarray(x, copy=True) for x in (mn, cn, sn))
    interpreted, compiled = interpreted_and_compiled(lambda: expr(m, c, s).eval())
    same_bits(interpreted, compiled)
    np.testing.assert_allclose(compiled, expr(mn, cn, sn), rtol=1e-6, atol=1e-6)


@pytest.mark.cxx
@pytest.mark.parametrize("dtype", ["bool", "int8", "uint16", "int32", "int64", "float16",
                                   "bfloat16", "float64", "complex64"])
def test_host_jit_strided_kernels_cover_every_dtype_class(dtype):
    mn = square(np.float64)
    m = ac.astype(ac.asarray(mn, copy=True), getattr(ac, dtype)).eval()
    col = m[:, 5:6]

    def expr(x, c):
        return x.T * 3 + x[::-1] - c

    def run():
        y = expr(m, col)
        return ac.astype(y, ac.float32).eval() if dtype == "bfloat16" else y.eval()

    interpreted, compiled = interpreted_and_compiled(run)
    same_bits(interpreted, compiled)
    if dtype != "bfloat16":  # NumPy has none; its bits are the interpreter's, checked above
        xn = ac.asnumpy(m)
        np.testing.assert_array_equal(compiled, expr(xn, xn[:, 5:6]))


@pytest.mark.cxx
def test_host_jit_writes_strided_outputs():
    an, bn = square(cols=2 * N_SIDE), square()

    def run():
        a = ac.asarray(an, copy=True)
        a[:, ::2] += ac.asarray(bn, copy=True).T * 2 + 1  # fused straight into the view
        return a

    interpreted, compiled = interpreted_and_compiled(run)
    same_bits(interpreted, compiled)
    want = an.copy()
    want[:, ::2] += bn.T * 2 + 1
    np.testing.assert_array_equal(compiled, want)


# Transposed operands are walked in square tiles of the last two axes (cpu/fused_rows.h): full
# 512-element tiles, ragged edges, a batch of matrices, a transposed output; the interpreter and
# the compiled kernel alike. Every shape holds at least 2^15 elements, so that its kernels
# compile after three runs (host_jit.cpp) whether or not another shape's compiled them first.
@pytest.mark.cxx
@pytest.mark.parametrize("shape", [(1100, 1300), (4, 130, 70), (2, 1, 600, 515)])
def test_transposed_operands_in_tiles_match_numpy(shape):
    rng = np.random.default_rng(11)
    xn = rng.standard_normal(shape).astype(np.float32)
    yn = rng.standard_normal(shape[:-2] + shape[-2:][::-1]).astype(np.float32)
    x, y = ac.asarray(xn, copy=True), ac.asarray(yn, copy=True)

    def expr(a, b):
        return ac.matrix_transpose(b) * 2 + a - 1 if isinstance(a, ac.ndarray) else \
            np.swapaxes(b, -1, -2) * 2 + a - 1

    want = expr(xn, yn)
    interpreted, compiled = interpreted_and_compiled(lambda: expr(x, y).eval())
    np.testing.assert_array_equal(interpreted, want)
    np.testing.assert_array_equal(compiled, want)

    zn = np.zeros(shape[:-2] + shape[-2:][::-1], np.float32)

    def into_transposed_view():
        z = ac.asarray(zn, copy=True)
        zt = ac.matrix_transpose(z)
        zt[...] = x * 3 - ac.matrix_transpose(y)  # written through the transposed view
        return z

    interpreted, compiled = interpreted_and_compiled(into_transposed_view)
    want_z = np.swapaxes(xn * 3 - np.swapaxes(yn, -1, -2), -1, -2)
    np.testing.assert_array_equal(interpreted, want_z)
    np.testing.assert_array_equal(compiled, want_z)

    # A result laid out as its transposed inputs (order K): the kernel walks it in memory order,
    # where every operand is contiguous, and a broadcast row is strided.
    rn = rng.standard_normal(shape[-2:][::-1][-1:]).astype(np.float32)
    r = ac.asarray(rn, copy=True)

    def laid_out_as_transpose():
        return ac.matrix_transpose(x) * 2 - ac.matrix_transpose(x) * r + 1

    want_k = np.swapaxes(xn, -1, -2) * 2 - np.swapaxes(xn, -1, -2) * rn + 1
    interpreted, compiled = interpreted_and_compiled(laid_out_as_transpose)
    np.testing.assert_array_equal(interpreted, want_k)
    np.testing.assert_array_equal(compiled, want_k)
    assert laid_out_as_transpose().eval().strides[-2:] == np.swapaxes(xn, -1, -2).strides[-2:]


def test_host_jit_leaves_empty_strided_arrays_alone():
    m = ac.asarray(np.ones((0, 7), np.float32))
    assert ac.asnumpy((m.T * 2 + 1 - m.T).eval()).shape == (7, 0)
