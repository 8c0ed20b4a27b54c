"""A process that uses accel ends cleanly: nothing on stderr at exit, with nanobind's leak report
turned on (ACCEL_LEAK_WARNINGS=1), so every accel object, type and function is freed by the
time Python has finished. Without the variable the report is off, for objects third-party
tools keep alive past the end (python/src/module.cpp says why)."""

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import accel

# The children import the very accel under test: the source tree's in development, the
# installed package in CI (whose source tree has no built extension).
PYTHON_DIR = str(Path(accel.__file__).resolve().parents[1])

TYPICAL_WORK = textwrap.dedent("""
    import copy, pickle
    import numpy as np
    import accel as ac

    x = ac.asarray(np.arange(24.0).reshape(4, 6))
    y = ac.asarray(np.linspace(-1, 1, 6, dtype=np.float32))
    fused = ac.where(x > 3, ac.sqrt(ac.abs(x * 0.5 + y)), -x) + 1
    print(fused, repr(x[1:, ::2]), f"{ac.asarray(1.5):.2f}", ac.explain(x * 2 + y - 1)[:10])
    print(x.sum(axis=0), ac.mean(x), ac.argmax(x, axis=1), ac.cumulative_sum(x, axis=1),
          ac.nansum(x), ac.var(x, axis=0))
    print(x[ac.asarray([0, 2])], x[x > 5], x[..., None, 1], x[::-1, 2:4])
    x[0] = 5
    x[x > 20] = 0
    x[ac.asarray([1, 3]), 0] = -1
    x += 1
    z = ac.empty_like(x)
    ac.add(x, 1, out=z)
    print(x @ x.T, ac.tensordot(x, x, axes=([1], [1])), ac.concat([x, z]), ac.stack([y, y]))
    print(ac.broadcast_to(y, (3, 6)), ac.reshape(x, (6, 4)).T, x.astype(ac.int32).dtype)
    print(np.asarray(x), ac.asnumpy(y), memoryview(x).shape, ac.asarray(np.arange(3.0)[::2]))
    print(pickle.loads(pickle.dumps(x)), copy.deepcopy(y), [row for row in x][0])
    print(ac.finfo(ac.float32), ac.iinfo(ac.int8), ac.isdtype(ac.float32, "real floating"))
    print(ac.float32 == np.float32, ac.float32 == None, x.device == "cpu", y.dtype)
    info = ac.__array_namespace_info__()
    # Kept in module globals until the end, as test suites keep their parameters.
    kept = [info.devices(), info.dtypes(), ac.add, ac.sin, ac.float64, x.device, ac.ndarray]
    errors = []
    for bad in (lambda: x + ac.ones((5,)), lambda: x[100], lambda: ac.reshape(x, (5,)),
                lambda: x.astype("no-such-dtype"), lambda: ac.sum(x, axis=7),
                lambda: ac.zeros(-1), lambda: x.to_device("cuda:7"), lambda: ac.ones(1 << 62)):
        try:
            bad()
        except Exception as e:  # kept, with its traceback and frames, in a module global
            errors.append(e)
    print("errors:", len(errors))
    try:
        import accel.cuda
        print(accel.cuda.is_available(), accel.cuda.device_count())
    except ImportError:
        pass
    """)


def run(code, leak_warnings):
    env = dict(os.environ, PYTHONPATH=PYTHON_DIR + os.pathsep + os.environ.get("PYTHONPATH", ""))
    env.pop("ACCEL_LEAK_WARNINGS", None)
    if leak_warnings:
        env["ACCEL_LEAK_WARNINGS"] = "1"
    return subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                          timeout=300)


def test_typical_work_leaves_nothing_on_stderr_with_the_leak_report_on():
    r = run(TYPICAL_WORK, leak_warnings=True)
    assert r.returncode == 0, r.stderr
    assert "errors: 8" in r.stdout
    assert r.stderr == ""


# An accel array held past the end of the interpreter (by a daemon thread still running, as
# tools can hold objects): the report names it only when asked for.
HELD_PAST_EXIT = textwrap.dedent("""
    import threading, time
    import accel as ac
    def hold(a):
        time.sleep(3600)
    threading.Thread(target=hold, args=(ac.ones(3),), daemon=True).start()
    """)


def test_objects_held_past_exit_are_reported_only_when_asked_for():
    quiet = run(HELD_PAST_EXIT, leak_warnings=False)
    assert quiet.returncode == 0 and quiet.stderr == ""
    loud = run(HELD_PAST_EXIT, leak_warnings=True)
    assert loud.returncode == 0
    assert "nanobind: leaked 1 instances" in loud.stderr and "accel._core.ndarray" in loud.stderr
