"""Configuration (accel/runtime/config.{def,h}): every ACCEL_* variable is read in one place,
each kind parsed one way; a malformed value raises ValueError naming the variable instead of
being ignored. Run in child processes, since each variable is read once per process."""

import os
import subprocess
import sys
from pathlib import Path

import accel

PYTHON_DIR = str(Path(accel.__file__).resolve().parents[1])


def run(code, **env):
    full = {**os.environ, "PYTHONPATH": PYTHON_DIR, **env}
    return subprocess.run([sys.executable, "-c", code], env=full, capture_output=True, text=True,
                          timeout=120)


def test_the_registry_lists_every_variable_with_its_value():
    names = {n: (kind, value) for n, kind, _, value, _ in accel._core._config()}
    assert {"ACCEL_DEVICE", "ACCEL_NUM_THREADS", "ACCEL_FUSION", "ACCEL_JIT", "ACCEL_DEBUG",
            "ACCEL_BLAS_PATH", "ACCEL_CACHE_DIR", "ACCEL_LEAK_WARNINGS"} <= names.keys()
    assert names["ACCEL_FUSION"][0] == "flag" and names["ACCEL_NUM_THREADS"][0] == "number"
    assert names["ACCEL_CACHE_DIR"][1] == os.environ.get("ACCEL_CACHE_DIR")


def test_flags_take_the_usual_spellings_and_numbers_are_parsed():
    code = "import accel; print(accel.fusion_enabled(), accel.num_threads())"
    for off in ["0", "off", "False", "no"]:
        r = run(code, ACCEL_FUSION=off, ACCEL_NUM_THREADS="1")
        assert r.stdout.split() == ["False", "1"], (off, r.stderr)
    r = run(code, ACCEL_FUSION="on", ACCEL_NUM_THREADS="2")
    assert r.stdout.split() == ["True", "2"], r.stderr


def test_malformed_values_raise_value_error_naming_the_variable():
    r = run("import accel; accel.fusion_enabled()", ACCEL_FUSION="maybe")
    assert r.returncode != 0 and "ValueError" in r.stderr and "ACCEL_FUSION='maybe'" in r.stderr
    r = run("import accel; accel.num_threads()", ACCEL_NUM_THREADS="four")
    assert r.returncode != 0 and "ACCEL_NUM_THREADS='four'" in r.stderr
