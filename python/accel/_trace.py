"""A profile as a Chrome trace (Trace Event Format, JSON object form), which chrome://tracing
and Perfetto open.

Tracks (pid / tid):
  1 "host"            one thread per recording thread: regions, kernels, syncs, allocations
                      as complete ("X") events, nested as they were on that thread; ops and
                      fusion cuts as thread-scoped instants ("i").
  2 "cuda:N streams"  one thread per stream: each kernel's device time ("X"). The driver
                      gives durations, not start times, so a kernel is placed at its host start.
  3 "transfers"       one thread per device.
  4 "compiles"        one thread: every compile or cache lookup, whichever thread did it.
  5 "memory"          counters ("C") of bytes in use per device.
Timestamps and durations are in microseconds.
"""

from __future__ import annotations

import json

HOST, STREAMS, TRANSFERS, COMPILES, MEMORY = 1, 2, 3, 4, 5
_PROCESS_NAMES = {HOST: "host", STREAMS: "device streams", TRANSFERS: "transfers",
                  COMPILES: "compiles", MEMORY: "memory"}


def _args(e):
    keep = ("detail", "device", "bytes", "elements", "site", "id", "region")
    a = {k: e[k] for k in keep if e.get(k) not in (None, "", 0)}
    if e["flags"]:
        a["flags"] = sorted(e["flags"])
    return a


def trace_events(events):
    """The list of trace events for a profile's events (see the module docstring)."""
    out = []
    names = {}  # (pid, tid) -> track name

    def track(pid, tid, name):
        names.setdefault((pid, tid), name)
        return pid, tid

    for e in events:
        kind = e["kind"]
        common = {"name": e["name"] or kind, "cat": kind, "ts": e["ts_us"], "args": _args(e)}
        if kind in ("kernel", "region", "sync", "alloc"):
            pid, tid = track(HOST, e["thread"], f"host thread {e['thread']}")
            out.append({**common, "ph": "X", "dur": e["dur_us"], "pid": pid, "tid": tid})
            if kind == "kernel" and e["gpu_us"] is not None:
                stream = e["stream"] or 0
                pid, tid = track(STREAMS, stream, f"{e['device']} stream {stream}")
                out.append({**common, "ph": "X", "dur": e["gpu_us"], "pid": pid, "tid": tid})
            if kind == "alloc":
                out.append({"name": f"{e['device']} bytes in use", "ph": "C", "ts": e["ts_us"],
                            "pid": MEMORY, "tid": 0, "args": {"in_use": e["in_use"]}})
                track(MEMORY, 0, "bytes in use")
        elif kind == "transfer":
            dev = int(e["device"].split(":")[1]) if ":" in e["device"] else 0
            pid, tid = track(TRANSFERS, dev, f"{e['device']} transfers")
            out.append({**common, "ph": "X", "dur": e["dur_us"], "pid": pid, "tid": tid})
        elif kind == "compile":
            pid, tid = track(COMPILES, 0, "compiles")
            out.append({**common, "ph": "X", "dur": e["dur_us"], "pid": pid, "tid": tid})
        else:  # op, fusion_cut: instants on the thread that recorded them
            pid, tid = track(HOST, e["thread"], f"host thread {e['thread']}")
            out.append({**common, "ph": "i", "s": "t", "pid": pid, "tid": tid})
    meta = []
    for pid in sorted({p for p, _ in names}):
        meta.append({"name": "process_name", "ph": "M", "pid": pid, "tid": 0, "ts": 0,
                     "args": {"name": _PROCESS_NAMES[pid]}})
    for (pid, tid), name in sorted(names.items()):
        meta.append({"name": "thread_name", "ph": "M", "pid": pid, "tid": tid, "ts": 0,
                     "args": {"name": name}})
    return meta + out


def write_chrome_trace(events, path):
    with open(path, "w", encoding="utf-8") as f:
        json.dump({"traceEvents": trace_events(events), "displayTimeUnit": "ms"}, f)
