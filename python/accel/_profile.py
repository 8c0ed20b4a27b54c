"""The profiler: `with accel.profile() as p:` records what accel did (issue 14).

Recording happens in the C++ core (accel/runtime/profiler.h); this module turns the events it
hands over at the end into dicts (`p.events`), a summary table (`p.summary()`), a Chrome trace
(`p.export_chrome_trace(path)`, `_trace.py`), advice (`p.advice()`, `_advice.py`) and a
roofline chart (`p.plot(path)`, `_plot.py`).

Each event is a dict with at least: kind (op, kernel, region, transfer, compile, alloc, sync,
fusion_cut), name, detail, device ("cpu", "cuda:0"), stream (CUDA stream id or None), ts_us and
dur_us (host clock, from the session's start), gpu_us (device time, None where not measured),
bytes, elements, flops, in_use, id, region, members, thread, site ("file:line" of the Python
line that caused it, or None), flags (a set: fused, cache_hit, disk_cache, pinned,
strided_copy, float64, lazy, oom_retry: an allocation that found its device full and released
accel's cache to try again) and depth (nesting on its thread).
"""

from __future__ import annotations

import collections
import os
import time

from . import _core

_FLAG_NAMES = {1: "fused", 2: "cache_hit", 4: "pinned", 8: "strided_copy", 16: "float64",
               32: "disk_cache", 64: "lazy", 128: "oom_retry"}
_FIELDS = ("kind", "name", "detail", "device", "stream", "start_ns", "dur_ns", "gpu_ns", "bytes",
           "elements", "flops", "in_use", "id", "region", "members", "thread", "site", "flags",
           "depth")
_PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__)) + os.sep


def _event(raw, sites):
    e = dict(zip(_FIELDS, raw))
    e["device"] = "cpu" if e["device"] < 0 else f"cuda:{e['device']}"
    e["stream"] = None if e["stream"] < 0 else e["stream"]
    e["ts_us"] = e.pop("start_ns") / 1e3
    e["dur_us"] = e.pop("dur_ns") / 1e3
    gpu = e.pop("gpu_ns")
    e["gpu_us"] = None if gpu < 0 else gpu / 1e3
    e["site"] = sites[e["site"] - 1] if e["site"] else None
    e["flags"] = {name for bit, name in _FLAG_NAMES.items() if e["flags"] & bit}
    return e


def _link(events):
    """Says for each op which region computed it (and whether fused), and gives each fusion
    cut the line where its op was written."""
    ops = {e["id"]: e for e in events if e["kind"] == "op"}
    for e in events:
        if e["kind"] == "region":
            for m in e["members"]:
                if m in ops:
                    ops[m]["region"] = e["id"]
                    ops[m]["fused"] = "fused" in e["flags"]
    for op in ops.values():
        op.setdefault("fused", False)
        op["eager"] = "lazy" not in op["flags"]
    for e in events:
        if e["kind"] == "fusion_cut" and e["id"] in ops and ops[e["id"]]["site"]:
            e["op_site"] = ops[e["id"]]["site"]


def time_us(e):
    """An event's time: device time where measured, else host wall time."""
    return e["gpu_us"] if e.get("gpu_us") is not None else e["dur_us"]


class Profile:
    """A profiling session; use as `with accel.profile() as p:`, then read `p.events`,
    `p.summary()`, `p.advice()`, `p.export_chrome_trace(path)`."""

    def __init__(self, events=None, wall_us=0.0):
        self.events = list(events) if events is not None else []
        self.wall_us = wall_us
        self._t0 = None

    def __enter__(self):
        _core._profile_start(_PACKAGE_DIR)
        self._t0 = time.perf_counter_ns()
        return self

    def __exit__(self, *exc):
        raw, sites = _core._profile_stop()
        self.wall_us = (time.perf_counter_ns() - self._t0) / 1e3
        self.events = [_event(r, sites) for r in raw]
        _link(self.events)
        return False

    def of_kind(self, kind):
        return [e for e in self.events if e["kind"] == kind]

    def table(self, by="op"):
        """Rows of the summary: dicts with key (op name, or "file:line" when by="line"), kind,
        count, total_us, mean_us, share (of all timed work), sorted by total time."""
        if by not in ("op", "line"):
            raise ValueError(f"[profile] summary groups by 'op' or 'line', not {by!r}")
        groups = collections.defaultdict(lambda: [0, 0.0])
        for e in self.events:
            if e["kind"] not in _TIMED or (e["kind"] == "sync" and e["name"] == "evaluate"):
                continue
            key = e["name"] if by == "op" else (e["site"] or "?")
            g = groups[(e["kind"], key)]
            g[0] += 1
            g[1] += time_us(e)
        total = sum(g[1] for (kind, _), g in groups.items() if kind != "sync") or 1.0
        rows = [{"kind": kind, "key": key, "count": n, "total_us": t, "mean_us": t / n,
                 "share": t / total} for (kind, key), (n, t) in groups.items()]
        rows.sort(key=lambda r: -r["total_us"])
        return rows

    def summary(self, by="op", limit=30):
        """A text table sorted by total time, grouped by op or by Python line (by="line").
        Syncs are host waits that contain the work they waited for, so their share is of the
        same total but they are not added into it."""
        rows = self.table(by)
        head = f"{'kind':<10} {'count':>7} {'total ms':>10} {'mean us':>10} {'share':>7}  " + (
            "op" if by == "op" else "line")
        lines = [f"accel profile: {len(self.events)} events, {self.wall_us / 1e3:.3f} ms wall",
                 head, "-" * len(head)]
        for r in rows[:limit]:
            lines.append(f"{r['kind']:<10} {r['count']:>7} {r['total_us'] / 1e3:>10.3f} "
                         f"{r['mean_us']:>10.2f} {r['share']:>6.1%}  {r['key']}")
        if len(rows) > limit:
            lines.append(f"... {len(rows) - limit} more rows")
        allocs = self.of_kind("alloc")
        if allocs:
            peak = max(e["in_use"] for e in allocs)
            hits = sum("cache_hit" in e["flags"] for e in allocs)
            retries = sum("oom_retry" in e["flags"] for e in allocs)
            lines.append(f"allocations: {len(allocs)} ({hits} from the cache"
                         + (f", {retries} retried after out of memory" if retries else "")
                         + f"), peak in use {peak / 2**20:.2f} MiB")
        return "\n".join(lines)

    def export_chrome_trace(self, path):
        """Writes the Trace Event Format (chrome://tracing, Perfetto): the host threads, each
        CUDA stream, transfers and compiles on tracks of their own."""
        from ._trace import write_chrome_trace

        write_chrome_trace(self.events, path)

    def plot(self, path, device=None):
        """A roofline of the kernels (by arithmetic intensity and achieved throughput, under
        this machine's measured roofs) and where the time went, saved to `path` (.png, .svg,
        .pdf). Needs matplotlib. Returns what was drawn (`_plot.plot`)."""
        from ._plot import plot

        return plot(self.events, path, device=device)

    def advice(self):
        """Findings: what limits this program and what to change, each with its evidence."""
        from ._advice import advise

        return advise(self.events)


# Kinds that take time of their own in the summary.
_TIMED = ("kernel", "transfer", "compile", "sync")


def profile():
    """`with accel.profile() as p:` records every op, kernel, transfer, compile, allocation and
    host wait until the block ends. One session at a time."""
    return Profile()
