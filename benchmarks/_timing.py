"""Side-by-side timing used by every benchmark: medians of repeated runs, ratios vs a baseline."""

import statistics
import time


def median_time(fn, *, number=None, repeat=7, min_seconds=0.05, clock=time.perf_counter):
    """Median seconds per call of fn() over `repeat` rounds of `number` calls (auto-sized).
    `clock=time.thread_time` counts the calling thread's CPU time only: on a loaded machine it
    leaves out the time spent waiting for a core, but also any work on other threads."""
    fn()  # warm up: allocations, caches, lazy imports
    if number is None:
        number = 1
        while True:
            t0 = clock()
            for _ in range(number):
                fn()
            if clock() - t0 >= min_seconds or number >= 1 << 20:
                break
            number *= 4
    rounds = []
    for _ in range(repeat):
        t0 = clock()
        for _ in range(number):
            fn()
        rounds.append((clock() - t0) / number)
    return statistics.median(rounds)


def fmt_time(seconds):
    if seconds < 1e-6:
        return f"{seconds * 1e9:.0f} ns"
    if seconds < 1e-3:
        return f"{seconds * 1e6:.2f} us"
    return f"{seconds * 1e3:.2f} ms"


def print_table(title, rows, baseline_name="numpy"):
    """rows: (case, accel_seconds, baseline_seconds[, target text]). Ratio = baseline/accel."""
    print(f"\n{title}")
    print(f"{'case':44s} {'accel':>11s} {baseline_name:>11s} {'speedup':>8s}  target")
    for row in rows:
        case, ta, tb = row[:3]
        target = row[3] if len(row) > 3 else ""
        print(f"{case:44s} {fmt_time(ta):>11s} {fmt_time(tb):>11s} {tb / ta:7.2f}x  {target}")


def paired_times(fa, fb, *, rounds=3, repeat=5, min_seconds=0.01, clock=time.perf_counter):
    """(seconds per call of fa, of fb), each the minimum over `rounds` of a median, measured
    alternately so that both see the same load on a shared machine."""
    ta, tb = [], []
    for _ in range(rounds):
        ta.append(median_time(fa, repeat=repeat, min_seconds=min_seconds, clock=clock))
        tb.append(median_time(fb, repeat=repeat, min_seconds=min_seconds, clock=clock))
    return min(ta), min(tb)
