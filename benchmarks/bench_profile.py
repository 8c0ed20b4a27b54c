"""What the profiler costs (issue 14): the same small-op workloads with profiling off and on,
in CPU time of the calling thread (the cases are small enough to run on it alone),
and, with --baseline DIR, in a build without the profiler (DIR holds its `accel` package, e.g.
another worktree's python/), each in its own process. Ratios are against "off"; on top of
that, the cost per recorded event when on.

    PYTHONPATH=python python3 benchmarks/bench_profile.py [--baseline ../main/python]
"""

import argparse
import json
import os
import subprocess
import sys

CHILD = r"""
import json, sys, time
sys.path.insert(0, sys.argv[1])
sys.path.insert(0, sys.argv[2])
import accel as ac
mode = sys.argv[3]
small = ac.ones(16)
mid = ac.asarray([1.0] * 5000, copy=True)  # owned by accel, so its ops stay lazy
cases = {
    "eager add, 16 elements": lambda: small + small,
    "fused chain of 4, 5000 elements": lambda: ((mid * 2 + 1) * mid - 3).eval(),
    "sum, 16 elements": lambda: small.sum(),
}
def rounds(fn, session):
    # Median CPU seconds of this thread per call over 7 rounds of 2000 calls (CPU time, not
    # wall time: on a shared machine other processes would be counted too); with `session`, each round is one
    # profiling session (so recorded events do not pile up across rounds).
    fn()
    times = []
    for _ in range(7):
        if session:
            p = ac.profile()
            p.__enter__()
        t0 = time.thread_time()
        for _ in range(2000):
            fn()
        times.append((time.thread_time() - t0) / 2000)
        if session:
            p.__exit__(None, None, None)
    return sorted(times)[3]

out = {}
for name, fn in cases.items():
    events = 0
    if mode == "on":
        with ac.profile() as p:
            fn()
        events = len(p.events)
    out[name] = (rounds(fn, mode == "on"), events)
print(json.dumps(out))
"""


def run(python_dir, mode):
    here = os.path.dirname(os.path.abspath(__file__))
    res = subprocess.run([sys.executable, "-c", CHILD, python_dir, here, mode],
                         capture_output=True, text=True, check=True)
    return json.loads(res.stdout)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--baseline", help="python/ directory of a build without the profiler")
    args = parser.parse_args()
    this = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python")
    off = run(this, "off")
    on = run(this, "on")
    base = run(args.baseline, "off") if args.baseline else None
    print(f"{'case':34s} {'off':>10s} {'on':>10s} {'on/off':>7s} {'ns/event':>9s}"
          + (f" {'baseline':>10s} {'off/base':>8s}" if base else ""))
    for name, (t_off, _) in off.items():
        t_on, events = on[name]
        per_event = (t_on - t_off) / max(events, 1) * 1e9
        line = (f"{name:34s} {t_off * 1e6:8.2f}us {t_on * 1e6:8.2f}us {t_on / t_off:7.2f} "
                f"{per_event:9.0f}")
        if base:
            line += f" {base[name][0] * 1e6:8.2f}us {t_off / base[name][0]:8.3f}"
        print(line)


if __name__ == "__main__":
    main()
