"""Fixtures shared by the Python tests. `device` runs a test once per device: "cpu" always and
"cuda" where a GPU is usable; without one the cuda case is reported as skipped, with the reason,
and carries the `cuda` marker so `pytest -m cuda` (scripts/gpu-check) selects it. The marker `cxx`
skips a test (or a module: `pytestmark = pytest.mark.cxx`) where no host C++ compiler is found."""

import atexit
import os
import shutil
import tempfile

import pytest

# Kernels the tests compile go to a private kernel cache, removed at exit, unless the caller chose
# one: set before accel is imported (the cache directory is read at its first use).
if "ACCEL_CACHE_DIR" not in os.environ:
    os.environ["ACCEL_CACHE_DIR"] = tempfile.mkdtemp(prefix="accel-test-cache-")
    atexit.register(shutil.rmtree, os.environ["ACCEL_CACHE_DIR"], True)

import accel as ac  # noqa: E402

CUDA_USABLE = ac.cuda.is_available()
NO_CUDA_REASON = "no CUDA driver/GPU: " + ac.cuda.unavailable_reason().split("\n")[0]

DEVICES = [
    "cpu",
    pytest.param("cuda", marks=[pytest.mark.cuda,
                                pytest.mark.skipif(not CUDA_USABLE, reason=NO_CUDA_REASON)]),
]


@pytest.fixture(params=DEVICES)
def device(request):
    """The name of each device present: pass it as `device=` when making arrays."""
    return request.param


# accel.linalg's decompositions, eig/eigvals included: LAPACK on the CPU, cuSOLVER on CUDA (not
# yet run on a GPU; eig/eigvals need cusolverDnXgeev, CUDA 12.6).
LINALG_DEVICES = DEVICES
# accel.fft: accel's own FFT on the CPU, cuFFT on CUDA (not yet run on a GPU).
FFT_DEVICES = DEVICES


@pytest.fixture(params=LINALG_DEVICES)
def linalg_device(request):
    return request.param


@pytest.fixture(params=FFT_DEVICES)
def fft_device(request):
    return request.param


# The compilers accel's host build looks for (backend/cpu/host_compiler.cpp), in its order.
HAVE_CXX = bool(shutil.which(os.environ.get("ACCEL_CXX") or "c++") or shutil.which("g++")
                or shutil.which("clang++"))
NO_CXX_REASON = "no C++ compiler on PATH (kernels on the CPU need one)"


_CONFIG = {}


def pytest_configure(config):
    _CONFIG["config"] = config
    config.addinivalue_line("markers", "cxx(note=None): needs a host C++ compiler (kernels on the "
                            "CPU); skipped without one, the note added to the reason")


def pytest_collection_modifyitems(config, items):
    if HAVE_CXX:
        return
    for item in items:
        marker = item.get_closest_marker("cxx")
        if marker is not None:
            note = marker.kwargs.get("note")
            reason = NO_CXX_REASON[:-1] + f"; {note})" if note else NO_CXX_REASON
            item.add_marker(pytest.mark.skip(reason=reason))


# ACCEL_TEST_FAILURE_LOG=path: each failed test (and each test slower than 10 s) is appended to
# that file the moment its report arrives, with its traceback, so a run cut off by a time limit
# (scripts/gpu-check on a lent GPU) still says which tests failed; pytest's own summary is only
# printed at the end. Under pytest-xdist the controller writes it, once per report.
FAILURE_LOG = os.environ.get("ACCEL_TEST_FAILURE_LOG")
SLOW_SECONDS = 10.0


def _log_report(config, report):
    failed = report.failed and not (report.when == "call" and hasattr(report, "wasxfail"))
    slow = report.when == "call" and report.duration > SLOW_SECONDS
    if not (failed or slow) or hasattr(config, "workerinput"):
        return
    with open(FAILURE_LOG, "a", encoding="utf-8") as f:
        if failed:
            lines = report.longreprtext.splitlines()
            shown = lines if len(lines) <= 60 else lines[:20] + ["    [...]"] + lines[-40:]
            f.write(f"FAILED ({report.when}, {report.duration:.1f} s) {report.nodeid}\n")
            f.write("\n".join("    " + line for line in shown) + "\n\n")
        else:
            f.write(f"SLOW ({report.duration:.1f} s) {report.nodeid}\n")


if FAILURE_LOG:
    @pytest.hookimpl(trylast=True)
    def pytest_runtest_logreport(report):
        _log_report(_CONFIG["config"], report)
