"""`p.plot(path)`: a profile as a picture (issue 14), with matplotlib (optional: imported only
here). Left, a roofline: each kernel placed by arithmetic intensity (operations per byte it
moved) and achieved throughput (operations per second), under the device's memory roof
(bandwidth x intensity) and compute roof; a kernel far below both is slowed by something else
(overhead, scattered access). Right, where the time went, by kind (kernels, transfers,
compiles, host waits).

The CPU's roofs are measured here, as `python -m accel bench` measures them (`_bench`): memory
bandwidth from an elementwise pass, compute from a float32 matmul (the BLAS, the best rate the
CPU reaches). A GPU's come from `_estimate.GPUS` when its name is there (none drawn otherwise).
Kernels whose data fit in the caches can sit above the memory roof, which is DRAM's.
"""

from __future__ import annotations

from ._profile import time_us

_KIND_ORDER = ("kernel", "transfer", "compile", "sync")
_KIND_LABEL = {"kernel": "kernels", "transfer": "transfers", "compile": "compiles",
               "sync": "host waits"}


def _roofs(device):
    """(bandwidth bytes/s, peak op/s, label) of a device, or None where unknown."""
    if device == "cpu":
        from ._bench import copy_bandwidth, matmul_flops

        # The compute roof is the best the CPU reaches: its BLAS matmul.
        return copy_bandwidth(repeat=2), matmul_flops(repeat=2), "this CPU (measured)"
    from ._estimate import GPUS

    try:
        import accel

        name = accel.cuda.Device(int(device.split(":")[1])).name
    except Exception:  # noqa: BLE001 - no GPU here: the profile came from elsewhere
        return None
    for known, (bw, f32, _f64, _launch, _link) in GPUS.items():
        if known.lower() in name.lower():
            return bw * 1e9, f32 * 1e12, f"{known} (datasheet)"
    return None


def plot(events, path, device=None, roofs=None):
    """Draws the profile's `events` to `path` (the format from its extension: .png, .svg, .pdf).
    `device`: whose kernels go on the roofline (default: the device with the most kernel time).
    `roofs`: (bandwidth bytes/s, peak op/s) instead of measuring them. Returns a dict of what was
    drawn: device, kernels placed, kernels without arithmetic (not placed), time by kind (us)."""
    try:
        import matplotlib

        matplotlib.use("Agg", force=False)
        import matplotlib.pyplot as plt
    except ImportError as e:
        raise ImportError("[profile] p.plot needs matplotlib: pip install matplotlib") from e

    kernels = [e for e in events if e["kind"] == "kernel"]
    if device is None:
        per_device = {}
        for e in kernels:
            per_device[e["device"]] = per_device.get(e["device"], 0.0) + time_us(e)
        device = max(per_device, key=per_device.get) if per_device else "cpu"
    mine = [e for e in kernels if e["device"] == device and time_us(e) > 0]
    placed = [e for e in mine if e["flops"] > 0 and e["bytes"] > 0]
    if roofs is None:
        found = _roofs(device) if placed else None
    else:
        found = (roofs[0], roofs[1], "given")
    by_kind = {k: 0.0 for k in _KIND_ORDER}
    for e in events:
        if e["kind"] in by_kind and not (e["kind"] == "sync" and e["name"] == "evaluate"):
            by_kind[e["kind"]] += time_us(e)

    fig, (roof_ax, bar_ax) = plt.subplots(1, 2, figsize=(12, 4.8),
                                          gridspec_kw={"width_ratios": [3, 2]})
    intensity = [e["flops"] / e["bytes"] for e in placed]
    achieved = [e["flops"] / (time_us(e) * 1e-6) for e in placed]
    if placed:
        sizes = [20 + 200 * time_us(e) / max(time_us(k) for k in placed) for e in placed]
        roof_ax.scatter(intensity, achieved, s=sizes, alpha=0.6, label="kernels (area: time)")
        # the slowest few named, where most of the time went
        for e, x, y in sorted(zip(placed, intensity, achieved), key=lambda t: -time_us(t[0]))[:5]:
            roof_ax.annotate(e["name"][:24], (x, y), fontsize=7, xytext=(4, 4),
                             textcoords="offset points")
    if found:
        bw, peak, label = found
        lo = min(intensity + [peak / bw]) / 4
        hi = max(intensity + [peak / bw]) * 4
        ridge = peak / bw
        roof_ax.plot([lo, ridge, hi], [bw * lo, peak, peak], color="black", linewidth=1.5,
                     label=f"roofline: {label}, {bw / 1e9:.0f} GB/s, {peak / 1e9:.0f} Gop/s")
    roof_ax.set_xscale("log")
    roof_ax.set_yscale("log")
    roof_ax.set_xlabel("arithmetic intensity (operations / byte)")
    roof_ax.set_ylabel("achieved (operations / s)")
    skipped = len(mine) - len(placed)
    roof_ax.set_title(f"{device}: {len(placed)} kernels"
                      + (f" ({skipped} without arithmetic not shown)" if skipped else ""))
    if placed or found:
        roof_ax.legend(fontsize=8, loc="lower right")
    labels = [_KIND_LABEL[k] for k in _KIND_ORDER]
    values = [by_kind[k] / 1e3 for k in _KIND_ORDER]
    bar_ax.barh(labels, values, color=["tab:blue", "tab:orange", "tab:green", "tab:red"])
    bar_ax.invert_yaxis()
    bar_ax.set_xlabel("time (ms)")
    bar_ax.set_title("where the time went (host waits contain the work they waited for)",
                     fontsize=9)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
    return {"device": device, "kernels": len(placed), "without_arithmetic": skipped,
            "time_us": by_kind, "roofline": found is not None}
