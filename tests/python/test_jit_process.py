"""The host JIT's compiler runs beside the user's program without touching it: Ctrl-C during a
background compile reaches the program, and a program that ends while a compile is in flight
leaves neither the compile's directory in the temporary directory nor the compiler running
(backend/cpu/compiler_process.h). The compiler is a wrapper that sleeps first, so the compile is
surely in flight when the test acts."""

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

import accel

pytestmark = pytest.mark.cxx

PYTHON_DIR = str(Path(accel.__file__).resolve().parents[1])

# Queues one fused kernel for the background compile (a million elements, three ops), then
# waits until the compiler wrapper has started.
START_COMPILE = textwrap.dedent("""
    import os, sys, time
    import accel as ac
    a = ac.ones(1 << 20, dtype=ac.float32)
    (ac.sin(a) * 3.5 + 1.25).eval()
    deadline = time.monotonic() + 60
    while not os.path.exists(os.environ["WRAPPER_PID"]) and time.monotonic() < deadline:
        time.sleep(0.02)
    """)


def wrapper_env(tmp_path):
    wrapper = tmp_path / "slow-c++"
    wrapper.write_text(textwrap.dedent("""\
        #!/bin/sh
        if [ "$1" = "--version" ]; then exec c++ --version; fi
        echo $$ > "$WRAPPER_PID.tmp" && mv "$WRAPPER_PID.tmp" "$WRAPPER_PID"
        sleep 120
        exec c++ "$@"
        """))
    wrapper.chmod(0o755)
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    env = dict(os.environ, ACCEL_CXX=str(wrapper), ACCEL_JIT="1", ACCEL_CACHE_DIR=str(tmp_path / "cache"),
               TMPDIR=str(tmp), WRAPPER_PID=str(tmp_path / "wrapper.pid"),
               PYTHONPATH=os.pathsep.join(filter(None, [PYTHON_DIR, os.environ.get("PYTHONPATH")])))
    env.pop("ACCEL_JIT_ALWAYS", None)
    return env, tmp


def alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def assert_compile_stopped(tmp_path, tmp):
    pid = int((tmp_path / "wrapper.pid").read_text())
    deadline = time.monotonic() + 20
    while alive(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not alive(pid), "the compiler wrapper still runs after its process ended"
    assert not list(tmp.glob("accel-jit-*")), "the compile's directory was left behind"


def test_exit_during_a_background_compile_stops_it_and_removes_its_directory(tmp_path):
    env, tmp = wrapper_env(tmp_path)
    r = subprocess.run([sys.executable, "-c", START_COMPILE + 'print("compiling")'], env=env, capture_output=True,
                       text=True, timeout=120)
    assert r.returncode == 0 and r.stdout.strip() == "compiling", r.stderr
    assert_compile_stopped(tmp_path, tmp)


def interrupt_while_compiling(env, body):
    """Runs START_COMPILE then `body` (which prints "compiling" first) with Python's own SIGINT
    handler, even where this test's runner started it with SIGINT ignored (a background job of
    a shell without job control); sends SIGINT once "compiling" is printed. (stdout, stderr,
    exit status.)"""
    script = "import signal; signal.signal(signal.SIGINT, signal.default_int_handler)\n"
    script += START_COMPILE + textwrap.dedent(body)
    p = subprocess.Popen([sys.executable, "-c", script], env=env, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True)
    try:
        assert p.stdout.readline().strip() == "compiling"
        p.send_signal(signal.SIGINT)
        out, err = p.communicate(timeout=60)
    finally:
        p.kill()
    return out, err, p.returncode


def test_ctrl_c_during_a_background_compile_reaches_the_program(tmp_path):
    env, tmp = wrapper_env(tmp_path)
    out, err, status = interrupt_while_compiling(env, """
        try:
            print("compiling", flush=True)
            time.sleep(20)
            print("not interrupted", flush=True)
        except KeyboardInterrupt:
            print("interrupted", flush=True)
        """)
    assert out.strip() == "interrupted" and status == 0, err
    assert_compile_stopped(tmp_path, tmp)


def test_an_uncaught_ctrl_c_during_a_background_compile_stops_it(tmp_path):
    """Python ends an uncaught KeyboardInterrupt by raising SIGINT again, which skips exit()'s
    handlers; accel's atexit callback stops the compile."""
    env, tmp = wrapper_env(tmp_path)
    out, err, status = interrupt_while_compiling(env, """
        print("compiling", flush=True)
        time.sleep(20)
        """)
    assert status == -signal.SIGINT and "KeyboardInterrupt" in err, err
    assert_compile_stopped(tmp_path, tmp)
