"""The CPU BLAS accel loads at run time: each choice (none, NumPy's bundled ILP64 OpenBLAS, the
system's LP64 one) gives NumPy's products on every BLAS path (gemm, 1-row / 1-column gemv,
transposed, strided, batched), and a bad ACCEL_BLAS_PATH fails clearly. The BLAS is chosen once
per process, so each choice runs in a subprocess that calls check_products_against_numpy()."""

import ctypes
import ctypes.util
import os
import subprocess
import sys

import numpy as np
import pytest

import accel as ac
from accel import _blas
from device_arrays import FLOAT_DTYPES

HERE = os.path.dirname(os.path.abspath(__file__))
DTYPES = FLOAT_DTYPES
TOL = {"float32": 2e-4, "complex64": 2e-4, "float64": 1e-11, "complex128": 1e-11}


def _values(rng, shape, dtype):
    x = rng.standard_normal(shape)
    if np.dtype(dtype).kind == "c":
        x = x + 1j * rng.standard_normal(shape)
    return x.astype(dtype)


# (name, a shape, b shape, view applied to both operands' NumPy and accel forms)
CASES = [
    ("gemm", (33, 29), (29, 17), None),
    ("gemm threaded size", (130, 120), (120, 110), None),
    ("one row (gemv)", (1, 40), (40, 31), None),
    ("one column (gemv)", (40, 31), (31, 1), None),
    ("vector @ matrix", (40,), (40, 31), None),
    ("matrix @ vector", (40, 31), (31,), None),
    ("vector @ vector (dot)", (40,), (40,), None),
    ("row @ column (dot)", (1, 40), (40, 1), None),
    ("strided vectors (dot)", (80,), (120,), lambda a, b: (a[::2], b[::-3])),
    ("transposed row and column (dot)", (40, 1), (1, 40), lambda a, b: (a.mT, b.mT)),
    ("both transposed", (29, 33), (17, 29), lambda a, b: (a.mT, b.mT)),
    ("transposed, one row", (40, 1), (40, 31), lambda a, b: (a.mT, b)),
    ("transposed, one column", (31, 40), (1, 31), lambda a, b: (a.mT, b.mT)),
    ("strided rows and columns", (66, 58), (58, 34), lambda a, b: (a[::2, ::2], b[::2, ::2])),
    ("reversed", (33, 29), (29, 17), lambda a, b: (a[::-1], b[:, ::-1])),
    ("column slice (ld > n)", (33, 40), (40, 30), lambda a, b: (a[:, :29], b[:29, 3:20])),
    ("batch", (5, 12, 10), (5, 10, 9), None),
    ("broadcast batch", (3, 1, 12, 10), (4, 10, 9), None),
    ("batch of gemv", (6, 1, 30), (6, 30, 20), None),
    ("transposed batch", (5, 10, 12), (9, 10), lambda a, b: (a.mT, b.mT)),
    ("tiny (own loop)", (3, 4), (4, 2), None),
]


def check_products_against_numpy():
    rng = np.random.default_rng(0)
    for dtype in DTYPES:
        for name, sa, sb, view in CASES:
            a, b = _values(rng, sa, dtype), _values(rng, sb, dtype)
            xa, xb = ac.asarray(a), ac.asarray(b)
            if view:
                a, b = view(a, b)
                xa, xb = view(xa, xb)
            want = a @ b
            got = ac.asnumpy(xa @ xb)
            assert got.dtype == want.dtype and got.shape == want.shape, (name, dtype)
            np.testing.assert_allclose(got, want, rtol=TOL[dtype], atol=TOL[dtype] * 10,
                                       err_msg=f"{name}, {dtype}")


def run_in_subprocess(code, **env):
    full = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    full.pop("OPENBLAS_CORETYPE", None)
    full.update(env)
    r = subprocess.run([sys.executable, "-c", f"import sys; sys.path.insert(0, {HERE!r})\n" + code],
                       env=full, capture_output=True, text=True, timeout=240)
    assert r.returncode == 0, r.stdout + r.stderr
    return r.stdout


CHECK = "import test_blas, accel as ac\ntest_blas.check_products_against_numpy()\n"


def system_lp64_openblas():
    name = ctypes.util.find_library("openblas") or "libopenblas.so.0"
    try:
        ctypes.CDLL(name)
    except OSError:
        pytest.skip("no system OpenBLAS here (apt-get install libopenblas0-pthread)")
    return name


def numpy_bundled_openblas():
    libs = [p for p in _blas.numpy_blas_libraries() if "scipy_openblas64" in os.path.basename(p)]
    if not libs:
        pytest.skip("this NumPy does not bundle scipy-openblas64 (not a wheel install)")
    return libs[0]


def test_without_blas_matmul_uses_own_loops_and_matches_numpy():
    out = run_in_subprocess(CHECK + "i = ac._core._blas_info()\n"
                            "assert not i['loaded'] and 'ACCEL_BLAS_PATH=none' in i['problem'], i\n"
                            "from accel import _info\nprint(_info.format_info(_info.info()))",
                            ACCEL_BLAS_PATH="none")
    assert "BLAS:    none: disabled by ACCEL_BLAS_PATH=none" in out


def test_unusable_blas_path_raises_backend_unavailable_naming_it():
    out = run_in_subprocess(
        "import accel as ac, pytest\n"
        "with pytest.raises(ac.BackendUnavailable, match=r'ACCEL_BLAS_PATH=/nonexistent.*"
        "cannot open shared object file') as e:\n"
        "    (ac.ones((20, 20)) @ ac.ones((20, 20))).eval()\n"
        "assert isinstance(e.value, RuntimeError)\n"
        "with pytest.raises(ac.BackendUnavailable, match='nonexistent'):\n"  # small products too
        "    ac.ones((2, 2), dtype='complex64') @ ac.ones((2, 2), dtype='complex64')\n"
        "assert ac.asnumpy(ac.ones((3, 3), dtype='int32') @ ac.ones((3, 3), dtype='int32')).sum() == 27\n"
        "i = ac._core._blas_info()\n"
        "assert not i['loaded'] and i['attempts'][0].startswith('/nonexistent'), i\n"
        "from accel import _info\nprint(_info.format_info(_info.info()))",
        ACCEL_BLAS_PATH="/nonexistent")
    assert "not used: /nonexistent" in out


def test_not_a_blas_is_refused_with_the_reason():
    libc = ctypes.util.find_library("m") or "libm.so.6"
    out = run_in_subprocess("import accel as ac\ntry:\n    ac.ones((20, 20)) @ ac.ones((20, 20))\n"
                            "except ac.BackendUnavailable as e:\n    print(e)\n",
                            ACCEL_BLAS_PATH=libc)
    assert "not a CBLAS (no cblas_sgemm" in out


def test_ilp64_numpy_bundled_openblas_matches_numpy():
    lib = numpy_bundled_openblas()
    run_in_subprocess(CHECK + "i = ac._core._blas_info()\n"
                      "assert i['loaded'] and i['flavour'] == 'ILP64', i\n"
                      "assert i['symbol'] == 'scipy_cblas_sgemm64_', i\n"
                      "assert i['source'] == 'ACCEL_BLAS_PATH', i\n", ACCEL_BLAS_PATH=lib)


def test_lp64_system_openblas_matches_numpy_and_gets_a_core_type():
    lib = system_lp64_openblas()
    code = (CHECK + "i = ac._core._blas_info()\n"
            "assert i['loaded'] and i['flavour'] == 'LP64' and i['symbol'] == 'cblas_sgemm', i\n"
            "print(i['coretype'], i['coretype_set_by_accel'])\n")
    coretype, by_accel = run_in_subprocess(code, ACCEL_BLAS_PATH=lib).split()
    with open("/proc/cpuinfo") as f:
        avx2 = " avx2" in f.read()
    # Set before loading a library not yet in the process (Debian's may misdetect the CPU).
    assert (by_accel == "True") == avx2 and (coretype in ("Haswell", "SkylakeX")) == avx2
    # The user's choice wins.
    out = run_in_subprocess(code, ACCEL_BLAS_PATH=lib, OPENBLAS_CORETYPE="Sandybridge")
    assert out.split() == ["Sandybridge", "False"]


def test_python_defaults_to_the_blas_numpy_loaded():
    if os.environ.get("ACCEL_BLAS_PATH"):
        pytest.skip("ACCEL_BLAS_PATH is set for this run")
    lib = numpy_bundled_openblas()
    info = ac._core._blas_info()
    assert info["loaded"] and info["source"] == "registered candidate", info
    assert os.path.samefile(info["path"], lib)
    assert info["flavour"] == "ILP64"
