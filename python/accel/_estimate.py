"""`accel.estimate(fn, *args)`: would this run faster on a GPU? (issue 14)

The model (a roofline per kernel, plus the host link):

- `fn(*args)` runs once on the CPU under the profiler (after one unprofiled warm-up run, so
  compiles and first-touch allocations are not counted); the CPU time it is compared with is
  the best of that run and two more. Each kernel event gives the bytes it
  touched (operands, broadcast axes once), the arithmetic it did (flops as the recorder counts
  them: one per element per elementwise op, 2mnk per matmul, one per element reduced) and
  whether it ran in float64.
- On a GPU each kernel takes max(bytes / memory bandwidth, flops / peak FLOP/s (float64's
  where the kernel used float64), launch overhead): a kernel is bound by memory, by arithmetic
  or, when tiny, by the launch itself. Kernels run one after the other.
- Transfers: every array argument goes to the device and the result comes back, at the host
  link's bandwidth (pageable memory over PCIe reaches about half the link's peak, so the table
  below gives achieved figures, not peaks).
- The GPU's numbers come from `GPUS` (datasheet figures; named by `gpus=`), or, with a GPU
  present, from the same table matched by device name. The CPU's own prediction uses this
  machine's measured copy bandwidth and its kernels' achieved FLOP/s and launch (per-op)
  overhead, so the model can be checked against the CPU's measured time (the tests do:
  within a factor of 4 for memory-bound work).

What it ignores: overlap of transfers with compute, caches (data reused between kernels is
counted again), kernels that are slower than their roofline (scattered gathers, sorts), and
the host-side time of Python itself.
"""

from __future__ import annotations

import dataclasses
import time

from ._profile import Profile

# name: (memory GB/s, float32 TFLOP/s, float64 TFLOP/s, launch us, host link GB/s achieved)
GPUS = {
    "H200": (4800.0, 67.0, 34.0, 5.0, 25.0),
    "H100": (3350.0, 67.0, 34.0, 5.0, 25.0),
    "A100": (2039.0, 19.5, 9.7, 5.0, 12.0),
    "L4": (300.0, 30.3, 0.49, 5.0, 12.0),
    "RTX 4090": (1008.0, 82.6, 1.3, 5.0, 12.0),
    "T4": (320.0, 8.1, 0.25, 5.0, 6.0),
}


CPU_NAME = "this CPU (measured)"


@dataclasses.dataclass
class Machine:
    name: str
    bandwidth: float     # bytes / s
    flops32: float       # FLOP / s
    flops64: float
    launch_s: float      # per kernel
    link: float          # host link, bytes / s (inf: the data is already where it runs)

    @classmethod
    def gpu(cls, name):
        try:
            bw, f32, f64, launch_us, link = GPUS[name]
        except KeyError:
            raise ValueError(f"[estimate] no figures for GPU {name!r}; known: "
                             f"{', '.join(GPUS)}") from None
        return cls(name, bw * 1e9, f32 * 1e12, f64 * 1e12, launch_us * 1e-6, link * 1e9)


@dataclasses.dataclass
class Prediction:
    machine: str
    compute_s: float
    transfer_s: float
    cpu_s: float
    kernels: int

    @property
    def speedup_resident(self):
        """CPU time / GPU time when the data already lives on the GPU."""
        return self.cpu_s / self.compute_s if self.compute_s else float("inf")

    @property
    def speedup_with_transfers(self):
        total = self.compute_s + self.transfer_s
        return self.cpu_s / total if total else float("inf")

    def __str__(self):
        ms = lambda s: f"{s * 1e3:.3g} ms"  # noqa: E731
        verdict = (f"{self.speedup_with_transfers:.1f}x faster than the CPU including transfers"
                   if self.speedup_with_transfers >= 1 else
                   f"{self.speedup_resident:.1f}x faster than the CPU only if the data already "
                   "lives on the GPU" if self.speedup_resident >= 1 else
                   f"slower than the CPU ({ms(self.cpu_s)})")
        if self.machine == CPU_NAME:
            return (f"the model on this CPU: ~{ms(self.compute_s)} predicted, "
                    f"{ms(self.cpu_s)} measured ({self.kernels} kernels)")
        return (f"on {self.machine}: ~{ms(self.compute_s)} compute + "
                f"{ms(self.transfer_s)} transfers -> {verdict}")


def kernel_time(e, m: Machine):
    """One kernel's modelled time on machine m (seconds)."""
    peak = m.flops64 if "float64" in e["flags"] else m.flops32
    return max(e["bytes"] / m.bandwidth, e["flops"] / peak, m.launch_s)


def predict(events, m: Machine, cpu_s, transfer_bytes):
    """The model over a profile's events (pure arithmetic; tests feed synthetic events)."""
    kernels = [e for e in events if e["kind"] == "kernel"]
    compute = sum(kernel_time(e, m) for e in kernels)
    return Prediction(m.name, compute, transfer_bytes / m.link, cpu_s, len(kernels))


def _array_bytes(obj):
    from . import _core

    if isinstance(obj, _core.ndarray):
        return obj.nbytes
    if isinstance(obj, (list, tuple)):
        return sum(_array_bytes(o) for o in obj)
    return 0


def _measure_cpu():
    """This machine's CPU as a Machine: copy bandwidth, elementwise FLOP/s, per-op overhead (the
    figures `python -m accel bench` reports, measured the same way)."""
    from ._bench import cpu_figures

    f = cpu_figures()
    return Machine(CPU_NAME, f["bandwidth"], f["flops32"], f["flops32"] / 2, f["launch"], float("inf"))


def estimate(fn, *args, gpus=("H100", "A100", "L4")):
    """Runs fn(*args) once on the CPU under the profiler and predicts its time on each GPU
    named (figures from `GPUS`), with the transfers of its array arguments and result.
    Returns a list of `Prediction` (print them); the first entry is the model applied to this
    CPU itself, beside its measured time, as a check of the model."""
    def timed():
        t0 = time.perf_counter()
        result = fn(*args)
        if hasattr(result, "eval"):
            result.eval()
        return result, time.perf_counter() - t0

    timed()  # warm-up: compiles, allocator caches
    with Profile() as p:
        result, cpu_s = timed()
    # The CPU's time is the best of three runs: one run on a busy machine can take several
    # times longer than the work needs.
    cpu_s = min(cpu_s, timed()[1], timed()[1])
    transfer_bytes = _array_bytes(list(args)) + _array_bytes(result)
    out = [predict(p.events, _measure_cpu(), cpu_s, 0)]
    out += [predict(p.events, Machine.gpu(name), cpu_s, transfer_bytes) for name in gpus]
    return out
