"""`python -m accel bench` (the machine benchmark beside NumPy), the progress bar it draws on a
terminal, and `p.plot(path)` (the profile as a roofline and a time breakdown), issue 14."""

import io
import json
import os
import subprocess
import sys

import numpy as np
import pytest

import accel as ac
from accel import _bench, _plot, _progress

BIG = 50_000  # past the eager limit: the ops stay lazy, fuse and run as kernels


def test_bench_reports_every_case_beside_numpy_as_json():
    out = subprocess.run([sys.executable, "-m", "accel", "bench", "--quick", "--json"],
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    # stderr is not a terminal here: no progress bar
    assert out.stderr == ""
    d = json.loads(out.stdout)
    assert d["threads"] == ac.num_threads()
    cases = {r["case"]: r for r in d["rows"]}
    assert {"memory bandwidth: a + b", "per-op overhead: a + b, 16 float32", "sum",
            "fused: 2*a*b + c - 1", "matmul 256x256 float32"} <= set(cases)
    for r in d["rows"]:
        assert r["accel"] > 0 and r["numpy"] > 0, r
        # the ratio is the time ratio: for a rate unit, accel's rate over NumPy's
        want = r["numpy"] / r["accel"] if r["unit"] == "us" else r["accel"] / r["numpy"]
        assert r["ratio_numpy"] == pytest.approx(want, rel=1e-9), r
    if not ac.cuda.is_available():
        assert all(r["device"] == "cpu" for r in d["rows"])


def test_bench_text_table_names_its_columns():
    out = subprocess.run([sys.executable, "-m", "accel", "bench", "--quick"],
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0].startswith(f"accel bench: {__import__('os').cpu_count()} cores")
    assert lines[1].split()[:5] == ["case", "unit", "accel", "numpy", "ratio"]
    assert any(line.startswith("matmul 256x256 float32") and "GFLOP/s" in line for line in lines)


def test_the_estimate_uses_the_bench_figures_of_this_cpu():
    f = _bench.cpu_figures(quick=True)
    assert f["bandwidth"] > 1e8 and 0 < f["launch"] < 1e-3 and f["flops32"] > 1e6


def test_progress_bar_draws_on_a_terminal_and_clears_itself():
    s = io.StringIO()
    with _progress.Progress(3, "accel bench", stream=s, enabled=True) as p:
        p.step("one")
        p.step("two")
        assert "accel bench [################........] 2/3" in s.getvalue()
        assert s.getvalue().rsplit("\r", 1)[1].rstrip().endswith("two")
    assert s.getvalue().endswith("\r")  # the line is blanked at the end


def test_progress_bar_is_silent_when_not_a_terminal():
    s = io.StringIO()  # isatty() is False
    with _progress.Progress(2, "x", stream=s) as p:
        p.step()
        p.step()
    assert s.getvalue() == ""


@pytest.mark.cxx
def test_a_kernel_compile_shows_its_status_line_on_a_terminal(tmp_path):
    import os
    import pty

    code = (
        "import accel as ac\n"
        "ac._core._compile_status_for_testing(0.0, 0.05)  # draw at once\n"
        "k = ac.RawKernel('extern \"C\" __global__ void k(float* x) { x[threadIdx.x] += 1; }', 'k')\n"
        "x = ac.zeros(4, dtype=ac.float32)\n"
        "k((1,), (4,), (x,))\n"
        "print('result', ac.asnumpy(x).tolist())\n")
    primary, secondary = pty.openpty()
    env = dict(os.environ, ACCEL_CACHE_DIR=str(tmp_path))  # a cold cache: a real compile
    out = subprocess.run([sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=secondary,
                         text=True, timeout=120, env=env)
    os.close(secondary)
    err = b""
    while True:
        try:
            chunk = os.read(primary, 4096)
        except OSError:
            break
        if not chunk:
            break
        err += chunk
    os.close(primary)
    assert out.returncode == 0, err
    assert "result [1.0, 1.0, 1.0, 1.0]" in out.stdout
    assert "compiling RawKernel kernel.cu with the host compiler ... " in err.decode()
    assert err.decode().endswith("\r")  # cleared before the program went on


@pytest.mark.cxx
def test_compiles_draw_nothing_when_stderr_is_not_a_terminal(tmp_path):
    code = ("import accel as ac\n"
            "k = ac.RawKernel('extern \"C\" __global__ void k(float* x) { x[threadIdx.x] += 2; }', 'k')\n"
            "x = ac.zeros(4, dtype=ac.float32)\n"
            "k((1,), (4,), (x,))\n"
            "print('result', ac.asnumpy(x).tolist())\n")
    env = dict(os.environ, ACCEL_CACHE_DIR=str(tmp_path))  # a cold cache: a real compile
    env.pop("ACCEL_PROGRESS", None)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                         env=env)
    assert out.returncode == 0, out.stderr
    assert "result [2.0, 2.0, 2.0, 2.0]" in out.stdout
    assert out.stderr == ""


def _profile_some_kernels():
    x = ac.asarray(np.random.default_rng(0).random(BIG, dtype=np.float32))
    with ac.profile() as p:
        for _ in range(3):
            float((2 * x * x + 1).sum())
            (ac.ones((64, 64), dtype=ac.float32) @ ac.ones((64, 64), dtype=ac.float32)).eval()
    return p


def test_plot_draws_each_kernel_with_arithmetic_on_this_cpus_roofline(tmp_path):
    pytest.importorskip("matplotlib", reason="p.plot needs matplotlib (optional; scripts/setup "
                                             "installs it)")
    p = _profile_some_kernels()
    kernels = [e for e in p.events if e["kind"] == "kernel" and e["dur_us"] > 0]
    with_flops = [e for e in kernels if e["flops"] > 0 and e["bytes"] > 0]
    assert with_flops  # the fused expression, the sum and the matmuls
    drawn = p.plot(tmp_path / "profile.png")
    assert drawn["device"] == "cpu" and drawn["roofline"]
    assert drawn["kernels"] == len(with_flops)
    assert drawn["without_arithmetic"] == len(kernels) - len(with_flops)
    assert drawn["time_us"]["kernel"] == pytest.approx(sum(e["dur_us"] for e in p.events
                                                           if e["kind"] == "kernel"))
    data = (tmp_path / "profile.png").read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 10_000
    p.plot(tmp_path / "profile.svg")
    assert (tmp_path / "profile.svg").read_text().lstrip().startswith("<?xml")


def test_plot_of_gpu_kernels_with_given_roofs_needs_no_gpu(tmp_path):
    pytest.importorskip("matplotlib", reason="p.plot needs matplotlib (optional; scripts/setup "
                                             "installs it)")
    def kernel(name, flops, nbytes, us):
        return {"kind": "kernel", "name": name, "device": "cuda:0", "flops": flops,
                "bytes": nbytes, "dur_us": us, "gpu_us": us, "flags": set()}
    events = [kernel("add", 1e6, 12e6, 10.0), kernel("matmul", 2e9, 12e6, 100.0),
              kernel("copy", 0, 8e6, 5.0),
              {"kind": "transfer", "name": "h2d", "device": "cuda:0", "dur_us": 400.0,
               "gpu_us": None, "flags": set()}]
    drawn = _plot.plot(events, tmp_path / "gpu.png", roofs=(3.35e12, 67e12))
    assert drawn == {"device": "cuda:0", "kernels": 2, "without_arithmetic": 1,
                     "time_us": {"kernel": 115.0, "transfer": 400.0, "compile": 0.0, "sync": 0.0},
                     "roofline": True}
    assert (tmp_path / "gpu.png").read_bytes()[:4] == b"\x89PNG"


def test_plot_without_matplotlib_says_how_to_install_it(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib raises ImportError
    with pytest.raises(ImportError, match=r"\[profile\] p.plot needs matplotlib: pip install matplotlib"):
        ac.profile().plot(tmp_path / "x.png")
