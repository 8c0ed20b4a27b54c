"""The differential fuzzer (tests/fuzz) in CI: a fixed set of programs, the same every run, and
a fresh random batch whose first seed is printed so a failure can be replayed with
`python3 tests/fuzz/run.py --seed S --programs N`. Both run with fusion on and off, in child
processes (a crash fails the test with the program that caused it)."""

import os
import random
import sys

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "fuzz"))

import run as fuzz  # noqa: E402

FIXED_PROGRAMS = int(os.environ.get("ACCEL_FUZZ_PROGRAMS", 3000))
FRESH_PROGRAMS = int(os.environ.get("ACCEL_FUZZ_FRESH", 1000))
DISPATCH_PROGRAMS = int(os.environ.get("ACCEL_FUZZ_DISPATCH", 500))
JIT_PROGRAMS = int(os.environ.get("ACCEL_FUZZ_JIT", 30))


def fuzz_passes(seed, programs, capsys, fail_on="any"):
    status = fuzz.main(["--programs", str(programs), "--seed", str(seed), "--fusion", "both",
                        "--jobs", "2", "--shrink", "3", "--fail-on", fail_on])
    out = capsys.readouterr().out
    print(out)
    return status == 0, out


def test_fixed_programs_match_numpy_with_fusion_on_and_off(capsys):
    ok, out = fuzz_passes(0, FIXED_PROGRAMS, capsys)
    assert ok, out


def test_fresh_random_programs_match_numpy(capsys):
    seed = random.randrange(10**6, 10**9)
    print(f"fresh fuzz seed {seed}: replay with "
          f"python3 tests/fuzz/run.py --seed {seed} --programs {FRESH_PROGRAMS}")
    # New programs fail the run on what is accel's own fault beyond doubt (a crash, a hang, fusion
    # on and off or lazy and eager disagreeing); a difference from NumPy alike in every mode is
    # printed for triage: about 0.1% of random programs land on rounding boundaries the oracle's
    # noise runs do not see (tests/fuzz/README.md). The fixed set above must match NumPy exactly.
    ok, out = fuzz_passes(seed, FRESH_PROGRAMS, capsys, fail_on="self")
    assert ok, f"fresh fuzz seed {seed}\n{out}"


def test_fixed_programs_through_numpys_functions(capsys):
    """The same programs written with NumPy's functions (np.sin(x), np.median(x), ...) called on
    accel arrays, which NumPy hands to accel through __array_function__ / __array_ufunc__."""
    status = fuzz.main(["--programs", str(DISPATCH_PROGRAMS), "--seed", "0", "--fusion", "on",
                        "--namespace", "numpy", "--jobs", "2", "--shrink", "3"])
    out = capsys.readouterr().out
    print(out)
    assert status == 0, out


@pytest.mark.cxx
def test_fixed_programs_through_host_compiled_kernels(capsys):
    """Every fused kernel compiled by the host JIT before it runs (--jit, ACCEL_JIT_ALWAYS=1),
    whatever its size: the compiled code over the programs' strided, broadcast and 0-d views is
    checked against NumPy, not the interpreter that serves small arrays otherwise. About 4
    compiled runs per program, 1-2 s each on 2 cores: ACCEL_FUZZ_JIT sets how many."""
    status = fuzz.main(["--programs", str(JIT_PROGRAMS), "--seed", "0", "--fusion", "on", "--jit",
                        "--jobs", "2", "--shrink", "3"])
    out = capsys.readouterr().out
    print(out)
    assert status == 0, out
    compiled = int(out.split("runs of compiled kernels: ")[1].split()[0])
    assert compiled >= JIT_PROGRAMS, f"only {compiled} compiled runs: the JIT was not used\n{out}"


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_program_prints_as_a_reproducer_that_runs(seed, tmp_path):
    """The printed reproducer is a standalone script: it runs and its comparison passes."""
    import subprocess

    from generate import generate
    from program import to_python

    script = tmp_path / "repro.py"
    script.write_text(to_python(generate(seed)))
    r = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr


def test_tie_guards_use_the_precision_a_value_was_rounded_at():
    """rad2deg(deg2rad(1)) in float32 is 1 - 2^-24 in one library and 1 in another; widened to
    complex128 and compared with True, the tie is near at float32's precision, not complex128's
    (seed 20038191 of the 100,000-program run). The generator passes that precision as eps."""
    import numpy as np

    from generate import Builder
    from program import Stmt, no_extreme_tie, no_near_multiple, no_near_tie

    one_ulp_low = np.complex128(np.float32(1) - np.float32(2.0**-24))
    assert no_near_tie(one_ulp_low, True)  # at complex128's own precision: not near
    assert not no_near_tie(one_ulp_low, True, float(np.finfo(np.float32).eps))
    assert no_near_tie(np.float64(1.5), True, float(np.finfo(np.float32).eps))
    low = np.float64(np.float32(3) - np.float32(3 * 2.0**-24))
    assert no_near_multiple(low, 1) and not no_near_multiple(low, 1, 2.0**-23)
    x = np.array([1.0, 1.0 - 2.0**-23])
    assert no_extreme_tie(x, True, None) and not no_extreme_tie(x, True, None, 2.0**-23)

    # The builder records the coarsest precision along a chain: a float32 inexact op, then an
    # exact widening, keeps float32's epsilon.
    b = Builder(0)
    b.env["a"] = np.ones(3, np.float32)
    b.add(Stmt("v0 = xp.sin(a)", "v0", ("a",), inexact=True))
    b.add(Stmt("v1 = v0.astype(xp.complex128)", "v1", ("v0",)))
    assert b.rounding_eps["v1"] == np.finfo(np.float32).eps


def test_oracle_takes_the_standards_special_values_where_accel_follows_them(tmp_path):
    """floor division at infinities (the function, the operator, in place, and between a scalar
    and an array), complex expm1 and tanh: the oracle gives the standard's values
    (tests/python/standard_special_values.py), accel matches them, and so does a reproducer.
    Between Python scalars alone, // is Python's on both sides and stays so."""
    import subprocess

    import numpy as np

    import accel as ac
    from oracle import Reference, check
    from program import Input, Program, Stmt, run_accel, to_python

    inputs = [Input("a", "np.array([inf, -inf, 2.5, -2.5, 0.0, nan], np.float32)"),
              Input("b", "np.array([2.0, -2.0, inf, inf, -inf, 1.0], np.float32)"),
              Input("z", "np.array([complex(-0.0, 0.0), complex(inf, 0.0), complex(-inf, inf),"
                         " complex(inf, 2.0), complex(nan, 0.0), complex(-inf, nan)])")]
    stmts = [Stmt("v0 = (a // b)", "v0", ("a", "b")),
             Stmt("v1 = xp.floor_divide(b, a)", "v1", ("a", "b")),
             Stmt("v2 = (-2.5 // b)", "v2", ("b",)),
             Stmt("v3 = xp.expm1(z)", "v3", ("z",), inexact=True),
             Stmt("v4 = xp.tanh(z)", "v4", ("z",), inexact=True),
             Stmt("v5 = xp.asarray(float(-2.5 // inf))", "v5", ()),
             Stmt("a //= b", None, ("a", "b"), "a", kind="write")]
    program = Program(1, inputs, stmts)
    reference = Reference(program)
    v0 = reference.exact["v0"]
    np.testing.assert_array_equal(v0, [np.inf, np.inf, 0.0, -0.0, -0.0, np.nan])
    np.testing.assert_array_equal(np.signbit(v0[:5]), [False, False, False, True, True])
    assert np.signbit(reference.exact["v2"][2]) and reference.exact["v2"][2] == 0  # -2.5 // inf
    assert reference.exact["v5"] == -1.0  # Python's own -2.5 // inf
    assert reference.exact["v4"][3] == 1 and not np.signbit(reference.exact["v4"][3].imag)
    verdict = check(program, reference, lambda p: run_accel(p, ac), ac.asnumpy)
    assert verdict == {"verdict": "ok"}, verdict
    script = tmp_path / "repro.py"
    script.write_text(to_python(program))
    r = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr
