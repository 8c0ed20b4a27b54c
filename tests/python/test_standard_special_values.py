"""Where accel follows the Array API standard's special values instead of NumPy's (issue 12):
floor_divide of floats at infinities, complex expm1 and complex tanh at infinities, NaNs and
signed zeros. Every pair of special values, float16/float32/float64 (bfloat16 through float32),
complex64/complex128, contiguous and strided operands, fusion on and off, the operators, and the
host JIT's compiled kernels, on every device; the oracle is standard_special_values.py (NumPy's
answers with the standard's cases applied), itself checked against the standard's own lists."""

import json
import os
import subprocess
import sys

import numpy as np
import pytest

import accel as ac
import standard_special_values as standard

SPECIALS = [0.0, -0.0, 1.0, -1.0, 2.5, -2.5, 1e30, -1e-30, np.inf, -np.inf, np.nan]
FLOATS = ["float16", "float32", "float64"]
COMPLEX = ["complex64", "complex128"]


@pytest.fixture(params=[False, True], ids=["unfused", "fused"])
def fusion(request):
    was = ac.fusion_enabled()
    ac.set_fusion(request.param)
    yield request.param
    ac.set_fusion(was)


def pairs(dtype):
    """Every ordered pair of SPECIALS, as two arrays of dtype."""
    a, b = (x.ravel() for x in np.meshgrid(SPECIALS, SPECIALS))
    with np.errstate(over="ignore"):
        return a.astype(dtype), b.astype(dtype)


def complex_grid(dtype):
    """Every complex number whose parts are both in SPECIALS."""
    re, im = (x.ravel() for x in np.meshgrid(SPECIALS, SPECIALS))
    z = np.empty(re.size, dtype)
    z.real, z.imag = re, im
    return z


def strided(x, device):
    """An accel view of x with stride 2 (every other element of a larger array)."""
    big = np.zeros(2 * x.size, x.dtype)
    big[::2] = x
    return ac.asarray(big, device=device)[::2]


def finish(y, fused):
    # A second op makes a fused region, which the kernel interpreter (or a compiled kernel) runs.
    return ac.asnumpy(ac.where(ac.asarray(True), y, y) if fused else y)


def assert_identical(got, want, label):
    """Equal values, NaN where NaN, and the same sign of every zero, part by part."""
    assert got.dtype == want.dtype, f"{label}: dtype {got.dtype} != {want.dtype}"
    parts = (np.real, np.imag) if want.dtype.kind == "c" else (np.real,)
    for part in parts:
        g, w = part(got).astype(np.float64), part(want).astype(np.float64)
        same = (g == w) & (np.signbit(g) == np.signbit(w)) | np.isnan(g) & np.isnan(w)
        bad = np.flatnonzero(~same)
        assert bad.size == 0, f"{label}: {bad.size} differ, first {got[bad[0]]} != {want[bad[0]]}"


def assert_close(got, want, rtol, label):
    """Part by part: identical where the reference's part is special (inf, NaN or a zero),
    within rtol elsewhere (the math libraries may round apart)."""
    assert got.dtype == want.dtype, f"{label}: dtype {got.dtype} != {want.dtype}"
    for part in (np.real, np.imag):
        g, w = part(got), part(want)
        special = ~np.isfinite(w) | (w == 0)
        assert_identical(g[special], w[special], f"{label} ({part.__name__})")
        np.testing.assert_allclose(g[~special], w[~special], rtol=rtol, err_msg=label)


# ---- the reference against the standard's own lists ----------------------------------------------

def test_reference_floor_divide_follows_the_standards_infinity_cases():
    inf = np.inf
    # (x1, x2, result) as the standard's floor_divide special cases list them.
    cases = [(inf, 2.0, inf), (inf, -2.0, -inf), (-inf, 2.0, -inf), (-inf, -2.0, inf),
             (2.0, inf, 0.0), (2.0, -inf, -0.0), (-2.0, inf, -0.0), (-2.0, -inf, 0.0),
             (inf, inf, np.nan), (-inf, inf, np.nan), (0.0, inf, 0.0), (-0.0, inf, -0.0)]
    x1, x2, want = (np.array(c) for c in zip(*cases))
    assert_identical(standard.floor_divide(x1, x2), want, "reference floor_divide")


def test_reference_complex_expm1_and_tanh_follow_the_standards_cases():
    inf, nan = np.inf, np.nan
    z = complex_of
    expm1_cases = [((0.0, 0.0), (0.0, 0.0)), ((-0.0, 0.0), (0.0, 0.0)), ((inf, 0.0), (inf, 0.0)),
                   ((-inf, inf), (-1.0, 0.0)), ((-inf, nan), (-1.0, 0.0)),
                   ((nan, 0.0), (nan, 0.0)), ((-inf, 1.0), (-1.0, 0.0))]
    for (re, im), (wre, wim) in expm1_cases:
        got = standard.expm1(z(re, im))
        assert_identical(got, z(wre, wim), f"reference expm1({re}, {im})")
    for re, im in ((inf, inf), (inf, nan)):
        got = standard.expm1(z(re, im))[0]
        assert np.isinf(got.real) and np.isnan(got.imag), f"reference expm1({re}, {im}): {got}"
    for (re, im), (wre, wim) in [((inf, 1.0), (1.0, 0.0)), ((inf, 2.0), (1.0, 0.0)),
                                 ((-inf, 2.0), (-1.0, 0.0)), ((inf, -2.0), (1.0, -0.0)),
                                 ((nan, 0.0), (nan, 0.0))]:
        assert_identical(standard.tanh(z(re, im)), z(wre, wim), f"reference tanh({re}, {im})")


def complex_of(re, im):
    out = np.empty(1, np.complex128)
    out.real, out.imag = re, im
    return out


# ---- accel against the reference ---------------------------------------------------------------

@pytest.mark.parametrize("dtype", FLOATS)
def test_floor_divide_of_every_special_pair_follows_the_standard(device, dtype, fusion):
    a, b = pairs(dtype)
    want = standard.floor_divide(a, b)
    for label, x, y in (("contiguous", ac.asarray(a, device=device), ac.asarray(b, device=device)),
                        ("strided", strided(a, device), strided(b, device))):
        assert_identical(finish(ac.floor_divide(x, y), fusion), want, f"floor_divide {label}")
        assert_identical(finish(x // y, fusion), want, f"// {label}")


def test_floor_divide_of_bfloat16_follows_the_standard(device, fusion):
    # bfloat16 computes in float32 and rounds once; infinities and zeros are exact in both.
    a, b = pairs("float32")
    x = ac.asarray(a, device=device).astype(ac.bfloat16)
    y = ac.asarray(b, device=device).astype(ac.bfloat16)
    got = ac.floor_divide(x, y).astype(ac.float32)
    want32 = standard.floor_divide(ac.asnumpy(x.astype(ac.float32)),
                                   ac.asnumpy(y.astype(ac.float32)))
    want = ac.asnumpy(ac.asarray(want32).astype(ac.bfloat16).astype(ac.float32))  # rounded once
    assert_identical(finish(got, fusion), want, "floor_divide bfloat16")


@pytest.mark.parametrize("dtype", FLOATS)
def test_floor_divide_operators_reflected_in_place_and_with_scalars(device, dtype):
    a, b = pairs(dtype)
    want = standard.floor_divide(a, b)
    x = ac.asarray(a, device=device)
    x //= ac.asarray(b, device=device)
    assert_identical(ac.asnumpy(x), want, "//=")
    for s in (np.inf, -np.inf, 2.5, -2.5):
        assert_identical(ac.asnumpy(ac.asarray(a, device=device) // s),
                         standard.floor_divide(a, s), f"array // {s}")
        assert_identical(ac.asnumpy(s // ac.asarray(b, device=device)),
                         standard.floor_divide(s, b), f"{s} // array")


@pytest.mark.parametrize("dtype", ["int8", "int64", "uint16"])
def test_integer_floor_division_is_unchanged(device, dtype):
    info = np.iinfo(dtype)
    rng = np.random.default_rng(3)
    a = rng.integers(info.min, int(info.max) + 1, 200, dtype=dtype)
    b = rng.integers(info.min, int(info.max) + 1, 200, dtype=dtype)
    b[:3] = [0, 1, info.max]
    with np.errstate(all="ignore"):
        want = np.floor_divide(a, b)
    got = ac.asnumpy(ac.asarray(a, device=device) // ac.asarray(b, device=device))
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("name", ["expm1", "tanh"])
@pytest.mark.parametrize("dtype", COMPLEX)
def test_complex_function_of_every_special_pair_follows_the_standard(device, name, dtype, fusion):
    z = complex_grid(dtype)
    want = getattr(standard, name)(z)
    rtol = 1e-5 if dtype == "complex64" else 1e-13
    for label, x in (("contiguous", ac.asarray(z, device=device)), ("strided", strided(z, device))):
        got = finish(getattr(ac, name)(x), fusion)
        assert_close(got, want, rtol, f"{name} {dtype} {label}")


@pytest.mark.parametrize("dtype", COMPLEX)
def test_complex_expm1_and_tanh_are_numpys_away_from_the_special_cases(device, dtype):
    rng = np.random.default_rng(5)
    z = (rng.standard_normal(300) * 3 + 1j * rng.standard_normal(300) * 3).astype(dtype)
    rtol = 1e-5 if dtype == "complex64" else 1e-13
    for name in ("expm1", "tanh"):
        np.testing.assert_allclose(ac.asnumpy(getattr(ac, name)(ac.asarray(z, device=device))),
                                   getattr(np, name)(z), rtol=rtol, err_msg=name)


JIT_SCRIPT = r"""
import json, sys
import numpy as np
import accel as ac
sys.path.insert(0, sys.argv[1])
import standard_special_values as standard
specials = [0.0, -0.0, 2.5, -2.5, np.inf, -np.inf, np.nan]
a, b = (x.ravel() for x in np.meshgrid(specials, specials))
n = 1 << 20  # large enough for the host JIT
a, b = np.tile(a, n // a.size + 1)[:n], np.tile(b, n // b.size + 1)[:n]
z = np.empty(n, np.complex128)
z.real, z.imag = a, b
x, y, w = ac.asarray(a, copy=True), ac.asarray(b, copy=True), ac.asarray(z, copy=True)
def run():  # a second, exact op (negation) makes each a fused region
    return [ac.asnumpy((-(x // y)).eval()).copy(), ac.asnumpy((-ac.expm1(w)).eval()).copy(),
            ac.asnumpy((-ac.tanh(w)).eval()).copy()]
first = run()
ac.jit_wait()
second = run()
with np.errstate(all="ignore"):
    want = [-standard.floor_divide(a, b), -standard.expm1(z), -standard.tanh(z)]
def same(g, w):
    # Part by part: identical where NumPy's part is special (inf, NaN, a zero), else within 1e-13.
    g, w = g.view(np.float64), w.view(np.float64)
    special = ~np.isfinite(w) | (w == 0)
    exact = (g == w) & (np.signbit(g) == np.signbit(w)) | np.isnan(g) & np.isnan(w)
    near = np.abs(g - w) <= 1e-13 * np.abs(w)
    return bool(np.all(np.where(special, exact, near)))
print(json.dumps(dict(ac.jit_stats(), interpreter=[same(g, w) for g, w in zip(first, want)],
                      compiled=[same(g, w) for g, w in zip(second, want)])))
"""


@pytest.mark.cxx
def test_host_jit_compiled_kernels_give_the_standards_values(tmp_path):
    # The compiled kernels include the same functors' text: they must agree with the interpreter
    # and the reference, special values and zero signs included.
    env = dict(os.environ, ACCEL_CACHE_DIR=str(tmp_path), ACCEL_JIT="1")
    out = subprocess.run([sys.executable, "-c", JIT_SCRIPT, os.path.dirname(__file__)], env=env,
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout.strip().splitlines()[-1])
    assert result["jit_runs"] >= 1 and result["failures"] == 0, result
    assert result["interpreter"] == [True] * 3 and result["compiled"] == [True] * 3, result
