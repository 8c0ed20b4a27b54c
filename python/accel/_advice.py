"""The advisor: what limits a profiled program and what to change (`p.advice()`).

Each rule reads the profile's events (`_profile.py`) and returns findings with the numbers that
triggered it. The thresholds are below, each with why; rules about GPUs look only at kernels
and transfers on CUDA devices.
"""

from __future__ import annotations

import collections
import dataclasses
import statistics

from ._profile import time_us

# Transfers above this share of (kernels + transfers) time dominate: the GPU mostly waits.
TRANSFER_SHARE = 0.3
# A GPU kernel under 10 us costs about what launching it does (5-10 us on current drivers).
SHORT_KERNEL_US = 10.0
# ... and a program is launch-bound when at least this many, and half its kernels, are short.
MIN_SHORT_KERNELS = 50
# Below this many elements (median over GPU kernels) a GPU cannot fill its cores.
SMALL_ELEMENTS = 10_000
MIN_KERNELS_FOR_SIZE = 20
# The same line waiting this often is a wait inside a loop.
SYNCS_PER_LINE = 10
# One kernel name compiled this many times: its shapes or dtypes keep changing.
RECOMPILES = 3
# float64 kernels above this share of GPU kernel time (consumer GPUs run FP64 at 1/32 to 1/64).
FLOAT64_SHARE = 0.1
# The same line copying a strided view this often.
STRIDED_COPIES = 3
# Any allocation that found its device full: each one released the whole cache (on a GPU after
# synchronising it), so later allocations pay the device's allocator again.
OOM_RETRIES = 1


@dataclasses.dataclass
class Finding:
    kind: str      # transfer_bound, launch_bound, small_arrays, sync_in_loop, recompiles,
    #                fusion_cut, float64_on_gpu, strided_copies, memory_pressure
    title: str     # one line, with the numbers
    evidence: dict  # the numbers behind it
    fix: str       # what to change
    site: str | None = None  # the Python line concerned, where one is

    def __str__(self):
        where = f" [{self.site}]" if self.site else ""
        return f"{self.kind}{where}: {self.title}\n  fix: {self.fix}"


def _gpu(events, kind):
    return [e for e in events if e["kind"] == kind and e["device"] != "cpu"]


def transfer_bound(events):
    transfers, kernels = _gpu(events, "transfer"), _gpu(events, "kernel")
    t_transfer = sum(time_us(e) for e in transfers)
    t_kernel = sum(time_us(e) for e in kernels)
    if not transfers or t_transfer < TRANSFER_SHARE * (t_transfer + t_kernel):
        return []
    share = t_transfer / (t_transfer + t_kernel)
    nbytes = sum(e["bytes"] for e in transfers)
    pageable = sum("pinned" not in e["flags"] for e in transfers)
    gbps = nbytes / (t_transfer * 1e3) if t_transfer else 0.0
    return [Finding(
        "transfer_bound",
        f"transfers take {share:.0%} of the time ({len(transfers)} transfers, "
        f"{nbytes / 2**20:.1f} MiB at {gbps:.1f} GB/s; {pageable} from pageable memory)",
        {"share": share, "transfers": len(transfers), "bytes": nbytes, "gb_per_s": gbps,
         "pageable": pageable},
        "keep data on the device between steps (create it there, move it once); "
        "use pinned host memory for the transfers that remain")]


def launch_bound(events):
    kernels = _gpu(events, "kernel")
    short = [e for e in kernels if time_us(e) < SHORT_KERNEL_US]
    if len(short) < MIN_SHORT_KERNELS or 2 * len(short) < len(kernels):
        return []
    return [Finding(
        "launch_bound",
        f"{len(short)} of {len(kernels)} GPU kernels ran under {SHORT_KERNEL_US:g} us: "
        "launch overhead dominates",
        {"short_kernels": len(short), "kernels": len(kernels)},
        "batch the work into larger arrays, or keep elementwise chains lazy so they fuse "
        "into one kernel (avoid reading values back between ops)")]


def small_arrays(events):
    kernels = _gpu(events, "kernel")
    if len(kernels) < MIN_KERNELS_FOR_SIZE:
        return []
    median = statistics.median(e["elements"] for e in kernels)
    if median >= SMALL_ELEMENTS:
        return []
    return [Finding(
        "small_arrays",
        f"the median GPU kernel works on {median:g} elements: too small to fill a GPU",
        {"median_elements": median, "kernels": len(kernels)},
        "run this on the CPU (device='cpu'), or stack many small arrays into one")]


def sync_in_loop(events):
    by_line = collections.Counter(e["site"] for e in events
                                  if e["kind"] == "sync" and e["name"] != "evaluate")
    out = []
    for site, n in by_line.most_common():
        if n < SYNCS_PER_LINE:
            break
        out.append(Finding(
            "sync_in_loop",
            f"the host waited for a device value {n} times at this line",
            {"waits": n},
            "keep the value on the device inside the loop (compare and accumulate with "
            "accel ops) and read it once after the loop",
            site))
    return out


def recompiles(events):
    compiles = [e for e in events if e["kind"] == "compile"
                and not ("cache_hit" in e["flags"] and "disk_cache" not in e["flags"])]
    by_name = collections.Counter(e["name"] for e in compiles)
    out = []
    for name, n in by_name.most_common():
        if n < RECOMPILES:
            break
        seconds = sum(e["dur_us"] for e in compiles if e["name"] == name) / 1e6
        out.append(Finding(
            "recompiles",
            f"kernel {name} was compiled {n} times ({seconds:.2f} s): its shapes, dtypes or "
            "options vary",
            {"kernel": name, "compiles": n, "seconds": seconds},
            "call it with one dtype (cast the inputs once) and fixed options; "
            "pass sizes as arguments rather than as -D defines"))
    return out


def fusion_cuts(events):
    cuts = collections.Counter((e.get("op_site") or e["site"], e["name"], e["detail"])
                               for e in events if e["kind"] == "fusion_cut")
    return [Finding(
        "fusion_cut",
        f"the fused chain was broken at {op} ({n} times): {why}",
        {"op": op, "times": n, "reason": why},
        "compute the broadcast operand once outside the chain, or split the expression "
        "where it changes shape" if "broadcast" in why else
        "evaluate long chains in stages (a.eval()) at points you choose",
        site) for (site, op, why), n in cuts.most_common()]


def float64_on_gpu(events):
    kernels = _gpu(events, "kernel")
    total = sum(time_us(e) for e in kernels)
    f64 = [e for e in kernels if "float64" in e["flags"]]
    t64 = sum(time_us(e) for e in f64)
    if not f64 or t64 < FLOAT64_SHARE * total:
        return []
    return [Finding(
        "float64_on_gpu",
        f"{len(f64)} GPU kernels in float64 take {t64 / total:.0%} of the kernel time",
        {"kernels": len(f64), "share": t64 / total},
        "use float32 where the precision allows (most GPUs run float64 at 1/32-1/64 of the "
        "float32 rate); NumPy inputs default to float64, so cast them on upload")]


def strided_copies(events):
    copies = collections.Counter(e["site"] for e in events
                                 if e["kind"] == "kernel" and "strided_copy" in e["flags"])
    return [Finding(
        "strided_copies",
        f"a strided or transposed view was copied to contiguous memory {n} times",
        {"copies": n},
        "copy it once before the loop (xt = x.T.copy()) and reuse the copy, or lay the data "
        "out in the order it is read",
        site) for site, n in copies.most_common() if n >= STRIDED_COPIES]


def memory_pressure(events):
    allocs = [e for e in events if e["kind"] == "alloc"]
    out = []
    for device in sorted({e["device"] for e in allocs}):
        retried = [e for e in allocs if e["device"] == device and "oom_retry" in e["flags"]]
        if len(retried) < OOM_RETRIES:
            continue
        failed = [e for e in retried if e.get("detail") == "out of memory"]
        peak = max(e["in_use"] for e in allocs if e["device"] == device)
        sites = collections.Counter(e["site"] for e in retried if e.get("site"))
        out.append(Finding(
            "memory_pressure",
            f"{len(retried)} allocations found {device} full and released accel's cache to try "
            f"again" + (f" ({len(failed)} still failed)" if failed else "")
            + f"; peak in use {peak / 2**20:.1f} MiB",
            {"retries": len(retried), "failed": len(failed), "peak_bytes": peak},
            "lower the peak: free large temporaries early (del x), work in smaller batches, "
            "or keep fewer intermediate arrays alive (fused expressions need none)",
            sites.most_common(1)[0][0] if sites else None))
    return out


RULES = (transfer_bound, launch_bound, small_arrays, sync_in_loop, recompiles, fusion_cuts,
         float64_on_gpu, strided_copies, memory_pressure)


def advise(events):
    return [f for rule in RULES for f in rule(events)]
