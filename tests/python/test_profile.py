"""The profiler and the advisor (issue 14): what `accel.profile()` records, the summary, the
Chrome trace against the Trace Event Format, each advice rule provoked by a program (on the
CPU) or by a synthetic event list (GPU-only rules), and `python -m accel profile`."""

import json
import os
import subprocess
import textwrap
import sys

import numpy as np
import pytest

import accel as ac
from accel import _advice
from conftest import DEVICES

HERE = os.path.basename(__file__)
BIG = 50_000  # past the eager limit (4096): elementwise ops stay lazy and fuse


def _line_of(text):
    """The line number in this file of the first line containing `text`."""
    with open(__file__, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if text in line and "_line_of" not in line:
                return n
    raise AssertionError(text)


def kernel_flags(p):
    return set().union(*(k["flags"] for k in kinds(p, "kernel")))


def kinds(p, kind):
    return [e for e in p.events if e["kind"] == kind]


# --- recording ---------------------------------------------------------------------------------

def test_nothing_is_recorded_outside_a_session():
    a = ac.ones(BIG)
    with ac.profile() as p:
        pass
    (a + 1).eval()
    assert p.events == []
    assert not ac._core._profile_active()


def test_sessions_do_not_nest():
    with ac.profile():
        with pytest.raises(Exception, match="already active"):
            with ac.profile():
                pass


@pytest.mark.parametrize("device", DEVICES)
def test_fused_chain_records_ops_one_region_and_one_kernel(device):
    # A copy: ops reading memory shared with NumPy run at once, so they would not fuse.
    a = ac.asarray(np.arange(BIG, dtype=np.float32), device=device, copy=True)
    with ac.profile() as p:
        y = ac.exp(a * 2.0) + 1.0  # chain-line
        y.eval()
    ops = kinds(p, "op")
    assert [o["name"] for o in ops] == ["multiply", "exp", "add"]
    assert all(o["detail"].endswith(f"-> ({BIG},) float32") for o in ops)
    assert ops[0]["detail"].startswith(f"({BIG},) float32")
    assert {o["site"] for o in ops} == {f"{__file__}:{_line_of('# chain-line')}"}
    (region,) = kinds(p, "region")
    assert region["members"] == [o["id"] for o in reversed(ops)]
    assert "fused" in region["flags"]
    assert "float64" not in kernel_flags(p)  # the Python floats are weak: no float64 work
    assert all(o["region"] == region["id"] and o["fused"] and not o["eager"] for o in ops)
    (kernel,) = [k for k in kinds(p, "kernel") if k["region"] == region["id"]]
    assert kernel["name"] == "fused(multiply+exp+add)"
    assert kernel["elements"] == BIG
    # One float32 input and one output; the two scalars are read once each.
    assert 2 * BIG * 4 <= kernel["bytes"] <= 2 * BIG * 4 + 16
    assert kernel["flops"] == 3 * BIG
    assert kernel["device"] == ("cpu" if device == "cpu" else "cuda:0")
    # The kernel ran inside the region, on the same host thread.
    assert kernel["thread"] == region["thread"] and kernel["depth"] > region["depth"]
    assert region["ts_us"] <= kernel["ts_us"]
    assert kernel["ts_us"] + kernel["dur_us"] <= region["ts_us"] + region["dur_us"] + 1e-3


def test_unfused_op_is_a_region_of_one_and_small_ops_are_eager():
    a = ac.ones(BIG, dtype=ac.float64)
    s = ac.ones(10)
    with ac.profile() as p:
        ac.sqrt(a).eval()
        s + s
    sqrt, add = kinds(p, "op")
    assert sqrt["name"] == "sqrt" and not sqrt["fused"] and not sqrt["eager"]
    assert add["name"] == "add" and add["eager"] and add.get("region", 0) == 0
    names = [k["name"] for k in kinds(p, "kernel")]
    assert names == ["sqrt", "add"]
    assert "float64" in kinds(p, "kernel")[0]["flags"]


def test_reductions_matmul_and_allocations_are_recorded():
    a = ac.ones((64, 64))
    with ac.profile() as p:
        a.sum()
        a @ a
    sums = [k for k in kinds(p, "kernel") if k["name"] == "sum"]
    mm = [k for k in kinds(p, "kernel") if k["name"] == "matmul"]
    assert len(sums) == 1 and sums[0]["flops"] == 64 * 64
    assert len(mm) == 1 and mm[0]["flops"] == 2 * 64 * 64 * 64
    allocs = kinds(p, "alloc")
    assert allocs and all(e["bytes"] > 0 and e["in_use"] >= e["bytes"] for e in allocs)
    assert "peak in use" in p.summary()


def test_host_reads_are_syncs_at_the_python_line():
    a = ac.ones(BIG)
    with ac.profile() as p:
        b = a * 3
        value = float(b.sum())  # read-line
        arr = ac.asnumpy(b + 0)  # asnumpy-line
        text = repr(b)  # print-line
    assert value == 3 * BIG and arr[0] == 3 and "3." in text
    syncs = [e for e in kinds(p, "sync") if e["name"] == "to_host"]
    lines = [int(e["site"].rsplit(":", 1)[1]) for e in syncs]
    for marker in ("# read-line", "# asnumpy-line", "# print-line"):
        assert _line_of(marker) in lines, (marker, lines)
    assert all(e["site"].startswith(__file__) for e in syncs)  # accel's own frames skipped
    assert any("pending" in e["detail"] for e in syncs)  # asnumpy computed b first


def test_recording_from_several_threads_is_complete():
    import threading

    arrays = [ac.ones(BIG) for _ in range(4)]

    def work(x):
        for _ in range(20):
            (x + 1).eval()

    with ac.profile() as p:
        threads = [threading.Thread(target=work, args=(x,)) for x in arrays]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    adds = [k for k in kinds(p, "kernel") if k["name"] == "add"]
    assert len(adds) == 80
    assert len({k["thread"] for k in adds}) == 4


# --- summary and trace --------------------------------------------------------------------------

def _workload():
    a = ac.ones((300, 300))
    with ac.profile() as p:
        for _ in range(3):
            b = ac.sin(a) * 2 + 1
            float(b.sum())
            a.T.flatten()
    return p


def test_summary_is_sorted_by_total_time_and_counts_every_timed_event():
    p = _workload()
    rows = p.table("op")
    assert [r["total_us"] for r in rows] == sorted((r["total_us"] for r in rows), reverse=True)
    counted = {(r["kind"], r["key"]): r["count"] for r in rows}
    # b.sum() reads b as it is computed (cpu/reduce_kernel.cpp): one kernel, b never stored
    assert counted[("kernel", "sum(fused(sin+multiply+add))")] == 3
    assert ("kernel", "sum") not in counted
    assert counted[("kernel", "copy")] == 3
    text = p.summary()
    assert "sum(fused(sin+multiply+add))" in text and text.splitlines()[1].split()[:2] == ["kind", "count"]
    by_line = p.table("line")
    assert sum(r["count"] for r in by_line) == sum(r["count"] for r in rows)
    assert all(r["key"].startswith(__file__) for r in by_line if r["kind"] == "kernel")
    with pytest.raises(ValueError, match="groups by"):
        p.table("file")


def test_chrome_trace_follows_the_trace_event_format(tmp_path):
    p = _workload()
    path = tmp_path / "trace.json"
    p.export_chrome_trace(path)
    doc = json.loads(path.read_text())
    events = doc["traceEvents"]
    for e in events:
        assert {"name", "ph", "pid", "tid"} <= e.keys()
        assert e["ph"] in ("X", "i", "M", "C")
        if e["ph"] != "M":
            assert isinstance(e["ts"], float) and e["ts"] >= 0
        if e["ph"] == "X":
            assert e["dur"] >= 0
        if e["ph"] == "i":
            assert e["s"] == "t"
    # Every track is named, and complete events on one track nest (a stack never overlaps).
    named = {(e["pid"], e["tid"]) for e in events if e["ph"] == "M" and e["name"] == "thread_name"}
    tracks = {}
    for e in events:
        if e["ph"] in ("X", "i"):
            assert (e["pid"], e["tid"]) in named
        if e["ph"] == "X":
            tracks.setdefault((e["pid"], e["tid"]), []).append(e)
    for track in tracks.values():
        stack = []
        for e in sorted(track, key=lambda e: (e["ts"], -e["dur"])):
            while stack and stack[-1] <= e["ts"] + 1e-3:
                stack.pop()
            assert not stack or e["ts"] + e["dur"] <= stack[-1] + 1e-3
            stack.append(e["ts"] + e["dur"])
    # Counting against the summary: one complete event per timed event it counted.
    rows = p.table("op")
    for kind in ("kernel", "compile"):
        in_summary = sum(r["count"] for r in rows if r["kind"] == kind)
        in_trace = sum(1 for e in events if e["ph"] == "X" and e["cat"] == kind
                       and e["pid"] != 2)
        assert in_trace == in_summary
    ops = sum(1 for e in events if e["ph"] == "i" and e["cat"] == "op")
    assert ops == len(kinds(p, "op"))


def test_trace_puts_each_stream_transfers_and_compiles_on_their_own_tracks():
    from accel._trace import COMPILES, STREAMS, TRANSFERS, trace_events

    def ev(kind, **kw):
        e = {"kind": kind, "name": kind, "detail": "", "device": "cuda:0", "stream": None,
             "ts_us": 1.0, "dur_us": 2.0, "gpu_us": None, "bytes": 0, "elements": 0,
             "flops": 0, "in_use": 0, "id": 0, "region": 0, "members": [], "thread": 1,
             "site": None, "flags": set(), "depth": 0}
        e.update(kw)
        return e

    events = [ev("kernel", stream=0, gpu_us=1.5), ev("kernel", stream=7, gpu_us=1.0),
              ev("kernel", stream=7, gpu_us=1.0), ev("transfer", bytes=1 << 20),
              ev("compile", thread=5)]
    trace = trace_events(events)
    stream_tracks = {e["tid"] for e in trace if e["ph"] == "X" and e["pid"] == STREAMS}
    assert stream_tracks == {0, 7}
    assert [e["cat"] for e in trace if e["ph"] == "X" and e["pid"] == TRANSFERS] == ["transfer"]
    assert [e["cat"] for e in trace if e["ph"] == "X" and e["pid"] == COMPILES] == ["compile"]


# --- advice provoked on the CPU -----------------------------------------------------------------

def _findings(p, kind):
    return [f for f in p.advice() if f.kind == kind]


def test_advice_sync_in_loop_names_the_line():
    a = ac.ones(BIG)
    with ac.profile() as p:
        total = 0.0
        for _ in range(12):
            total += float((a * 2).sum())  # loop-sync
    (f,) = _findings(p, "sync_in_loop")
    assert f.site == f"{__file__}:{_line_of('# loop-sync')}"
    assert f.evidence["waits"] == 12
    assert "read it once after the loop" in f.fix


def test_advice_strided_copies():
    a = ac.ones((200, 300))
    with ac.profile() as p:
        for _ in range(4):
            a.T.flatten()  # strided-copy
    (f,) = _findings(p, "strided_copies")
    assert f.evidence["copies"] == 4
    assert f.site.endswith(f":{_line_of('# strided-copy')}")


def test_advice_fusion_cut_by_broadcast():
    row = ac.ones((1, BIG))
    big = ac.ones((20, BIG))
    with ac.profile() as p:
        r = ac.exp(row)  # cut-op
        (r + big).eval()
    (f,) = _findings(p, "fusion_cut")
    assert f.evidence["op"] == "exp"
    assert "broadcast" in f.evidence["reason"] and f"(20, {BIG})" in f.evidence["reason"]
    assert f.site.endswith(f":{_line_of('# cut-op')}")


def test_advice_fusion_cut_by_chain_depth():
    x = ac.ones(BIG)
    with ac.profile() as p:
        for _ in range(40):
            x = x + 1.0
        x.eval()
    (f,) = [f for f in _findings(p, "fusion_cut") if "kMaxPendingDepth" in f.evidence["reason"]]
    assert f.evidence["op"] == "add" and f.evidence["times"] >= 1


def test_advice_recompiles_when_dtypes_vary(tmp_path, monkeypatch):
    monkeypatch.setenv("ACCEL_CACHE_DIR", str(tmp_path))
    kernel = ac.ElementwiseKernel("T x", "T y", "y = x * 3", "profile_triple")
    with ac.profile() as p:
        for dt in (ac.float32, ac.float64, ac.int32):
            kernel(ac.ones(8, dtype=dt))
    compiles = [e for e in kinds(p, "compile") if e["name"] == "profile_triple"]
    assert len(compiles) == 3 and all(e["detail"] == "host C++" for e in compiles)
    (f,) = [f for f in _findings(p, "recompiles") if f.evidence["kernel"] == "profile_triple"]
    assert f.evidence["compiles"] == 3


def test_no_advice_for_a_clean_program():
    a = ac.ones(BIG)
    with ac.profile() as p:
        ac.asnumpy(ac.exp(a) * 2 + 1)
    assert p.advice() == []


# --- GPU-only advice on synthetic events --------------------------------------------------------

def _gpu_kernel(us, elements=1 << 20, flags=()):
    return {"kind": "kernel", "name": "k", "device": "cuda:0", "dur_us": us, "gpu_us": us,
            "elements": elements, "flags": set(flags), "site": None}


def _transfer(us, nbytes, pinned=False):
    return {"kind": "transfer", "name": "h2d", "device": "cuda:0", "dur_us": us, "gpu_us": None,
            "bytes": nbytes, "flags": {"pinned"} if pinned else set(), "site": None}


def test_transfer_bound_reports_share_and_bandwidth():
    events = [_transfer(800.0, 8 << 20), _transfer(200.0, 2 << 20, pinned=True),
              _gpu_kernel(1000.0)]
    (f,) = _advice.transfer_bound(events)
    assert f.evidence["share"] == pytest.approx(0.5)
    assert f.evidence["bytes"] == 10 << 20
    assert f.evidence["gb_per_s"] == pytest.approx((10 << 20) / 1000e3)
    assert f.evidence["pageable"] == 1
    assert _advice.transfer_bound([_transfer(10.0, 1 << 20), _gpu_kernel(1000.0)]) == []


def test_launch_bound_counts_kernels_under_10_us():
    events = [_gpu_kernel(3.0) for _ in range(60)] + [_gpu_kernel(500.0) for _ in range(10)]
    (f,) = _advice.launch_bound(events)
    assert f.evidence == {"short_kernels": 60, "kernels": 70}
    assert _advice.launch_bound([_gpu_kernel(3.0) for _ in range(10)]) == []


def test_small_arrays_reports_the_median():
    events = [_gpu_kernel(50.0, elements=n) for n in [100] * 15 + [10**7] * 10]
    (f,) = _advice.small_arrays(events)
    assert f.evidence["median_elements"] == 100
    assert _advice.small_arrays([_gpu_kernel(50.0, elements=10**6)] * 30) == []


def test_float64_on_gpu_reports_its_share():
    events = [_gpu_kernel(300.0, flags={"float64"}), _gpu_kernel(700.0)]
    (f,) = _advice.float64_on_gpu(events)
    assert f.evidence == {"kernels": 1, "share": pytest.approx(0.3)}
    cpu = dict(_gpu_kernel(300.0, flags={"float64"}), device="cpu")
    assert _advice.float64_on_gpu([cpu]) == []


# --- the command line ---------------------------------------------------------------------------

def test_python_m_accel_profile_runs_a_script(tmp_path):
    script = tmp_path / "work.py"
    script.write_text(
        "import sys\nimport accel as ac\n"
        "a = ac.ones(50000)\n"
        "for _ in range(12):\n"
        "    float((a * 2).sum())\n"
        "print('args', sys.argv[1:])\n")
    trace = tmp_path / "t.json"
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [os.path.dirname(os.path.dirname(ac.__file__)), os.environ.get("PYTHONPATH", "")]))
    out = subprocess.run([sys.executable, "-m", "accel", "profile", "-o", str(trace),
                          str(script), "x", "--y"], capture_output=True, text=True, env=env,
                         timeout=120)
    assert out.returncode == 0, out.stderr
    assert "args ['x', '--y']" in out.stdout
    assert "fused(multiply)" in out.stdout or "multiply" in out.stdout
    assert f"sync_in_loop [{script}:5]" in out.stdout
    assert json.loads(trace.read_text())["traceEvents"]


# --- estimate -----------------------------------------------------------------------------------

def test_estimate_model_arithmetic_on_synthetic_events():
    from accel._estimate import Machine, predict

    m = Machine("G", bandwidth=1e12, flops32=1e13, flops64=1e11, launch_s=5e-6, link=1e10)
    events = [
        {"kind": "kernel", "bytes": 4e9, "flops": 1e9, "flags": set()},          # memory: 4 ms
        {"kind": "kernel", "bytes": 1e6, "flops": 1e11, "flags": set()},         # compute: 10 ms
        {"kind": "kernel", "bytes": 1e6, "flops": 1e9, "flags": {"float64"}},    # fp64: 10 ms
        {"kind": "kernel", "bytes": 64, "flops": 16, "flags": set()},            # launch: 5 us
        {"kind": "transfer", "bytes": 1e9, "flags": set()},                      # not a kernel
    ]
    p = predict(events, m, cpu_s=0.1, transfer_bytes=2e8)
    assert p.kernels == 4
    assert p.compute_s == pytest.approx(4e-3 + 10e-3 + 10e-3 + 5e-6)
    assert p.transfer_s == pytest.approx(0.02)
    assert p.speedup_resident == pytest.approx(0.1 / p.compute_s)
    assert p.speedup_with_transfers == pytest.approx(0.1 / (p.compute_s + 0.02))
    assert str(p).startswith("on G: ~24 ms compute + 20 ms transfers -> 2.3x faster")


def test_estimate_names_gpus_and_rejects_unknown_ones():
    x = ac.ones(1 << 20, dtype=ac.float32)
    cpu, h100 = ac.estimate(lambda a: a * 2 + 1, x, gpus=("H100",))
    assert h100.machine == "H100" and h100.kernels >= 1
    assert h100.transfer_s == pytest.approx(2 * x.nbytes / 25e9)  # argument in, result out
    with pytest.raises(ValueError, match="no figures for GPU 'Z9'"):
        ac.estimate(lambda a: a + 1, x, gpus=("Z9",))


def test_estimate_predicts_this_cpu_within_a_factor_of_5_for_memory_bound_work():
    # A factor, not a tolerance: the model counts bytes and a measured bandwidth only.
    a = ac.ones(1 << 23, dtype=ac.float32)
    b = ac.ones(1 << 23, dtype=ac.float32)
    cpu = ac.estimate(lambda x, y: (x + y) * 0.5, a, b, gpus=())[0]
    assert cpu.compute_s / 5 <= cpu.cpu_s <= cpu.compute_s * 5, str(cpu)


# --- out of memory ----------------------------------------------------------------------------

def test_an_allocation_that_finds_the_cpu_full_is_recorded_and_advised():
    # Under a 4 GiB address-space limit a 16 GiB result fails: the allocator releases its cache,
    # retries, and raises; the profile keeps the failed allocation with its flag.
    code = textwrap.dedent("""
        import resource
        import numpy as np
        import accel as ac
        resource.setrlimit(resource.RLIMIT_AS, (4 << 30, 4 << 30))
        big = ac.asarray(np.broadcast_to(np.float64(1.0), (1 << 31,)))
        with ac.profile() as p:
            try:
                (big + 1).eval()
            except MemoryError:
                pass
        failed = [e for e in p.events if e["kind"] == "alloc" and "oom_retry" in e["flags"]]
        print("detail", failed[0]["detail"], failed[0]["bytes"], len(failed))
        print("summary", [l for l in p.summary().splitlines() if l.startswith("allocations")][0])
        print("advice", [str(f).splitlines()[0] for f in p.advice() if f.kind == "memory_pressure"])
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert f"detail out of memory {16 << 30} " in out.stdout
    n = int(out.stdout.split(f"detail out of memory {16 << 30} ")[1].split()[0])
    assert n >= 1
    assert f"{n} retried after out of memory" in out.stdout
    assert f"memory_pressure: {n} allocations found cpu full and released accel's cache to try " \
           f"again ({n} still failed)" in out.stdout


def test_memory_pressure_advice_names_the_device_and_line():
    def alloc(device, retry, in_use, site="step.py:7"):
        return {"kind": "alloc", "name": device, "device": device, "bytes": 1 << 20,
                "in_use": in_use, "flags": {"oom_retry"} if retry else set(), "site": site,
                "detail": ""}
    events = [alloc("cuda:0", False, 10 << 20), alloc("cuda:0", True, 30 << 20),
              alloc("cuda:0", True, 20 << 20), alloc("cpu", False, 1 << 20)]
    (f,) = _advice.memory_pressure(events)
    assert f.evidence == {"retries": 2, "failed": 0, "peak_bytes": 30 << 20}
    assert f.site == "step.py:7"
    assert f.title.startswith("2 allocations found cuda:0 full")
    assert _advice.memory_pressure([alloc("cpu", False, 1)]) == []
