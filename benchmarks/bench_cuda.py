"""The CUDA layer against CuPy, same run, same GPU: transfer bandwidth host->device and
device->host (pinned and pageable host memory), device-to-device copy bandwidth, kernel launch
overhead, cold / warm kernel compile time, and array ops: matmul 4096^2 float32 / float64 (both
on cuBLAS), a gather of 1e7 float32 elements (x[idx], random int64 indices; accel checks the
bounds and waits for the result to say whether one was bad, CuPy does neither), and elementwise
work on float32 arrays of 1e7 and 1e8 elements (a + b, a * 2, a fused expression, astype) with
the effective bandwidth of each; reductions (sum of 1e8 float32: all of it, and over each
axis of a 10000 x 10000 view; cumsum of 1e8 float32); sort and argsort of 1e7 float32 (accel's
result checked against NumPy's first); the host time of `a + b` on 10
elements; elementwise bandwidth as a share of the D2D copy's. Beside PyTorch (where it sees the
GPU): D2D copy, a + b on 10 elements, sum of 1e8 float32, matmul 8192^2 float32 (TF32 off, as
accel) and bfloat16 (PyTorch only). Run by scripts/gpu-check (its bench stage).

Bandwidths count bytes moved one way (a device-to-device copy counts them read plus written, as
nvbandwidth does). Device-side work is timed with CUDA events; host-side calls with
time.perf_counter around a synchronised loop. Each figure is the median of several rounds."""

import os
import statistics
import sys
import time
import uuid

import numpy as np

import accel

try:
    import cupy as cp
except Exception as e:  # noqa: BLE001 - any import failure means "no CuPy here"
    cp = None
    CUPY_WHY = f"{type(e).__name__}: {e}"

MiB = 1 << 20
TRANSFER = 256 * MiB
D2D = 1024 * MiB
LAUNCHES = 20000
ROUNDS = 7
MATMUL_N = 4096
GATHER_N = 10_000_000
SMALL_N = 10
SMALL_OPS = 2000
TORCH_MATMUL_N = 8192

NOOP = 'extern "C" __global__ void noop(float* p, int n) { if (n < 0) p[0] = 0; }\n'
COMPILE_SRC = r"""
extern "C" __global__ void saxpy_%s(float a, const float* x, float* y, long long n) {
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n;
       i += (long long)gridDim.x * blockDim.x)
    y[i] = a * x[i] + y[i];
}
"""


def attempt(what, fn, default=None):
    """fn(), or `default` after printing why it failed: on a first GPU run one broken case (a
    kernel bug, a missing library) must not cost the rest of the table."""
    try:
        return fn()
    except Exception as e:  # noqa: BLE001 - reported, and the table goes on
        print(f"bench_cuda: {what} failed: {type(e).__name__}: {str(e).splitlines()[0][:300]}",
              file=sys.stderr)
        return default


def median_seconds(fn, rounds=ROUNDS):
    fn()
    times = []
    for _ in range(rounds):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def median_event_ms(fn, new_event, rounds=ROUNDS):
    fn()
    times = []
    for _ in range(rounds):
        start, end = new_event(), new_event()
        start.record()
        fn()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end) if hasattr(start, "elapsed_time")
                     else cp.cuda.get_elapsed_time(start, end))
    return statistics.median(times)


# ---------------------------------------------------------------- accel

def accel_cases():
    out = {}
    host = np.random.default_rng(0).random(TRANSFER // 4, dtype=np.float32)
    pinned = accel.cuda.pinned_empty(host.shape, np.float32)
    pinned[:] = host
    dev = accel.asarray(host, device="cuda")
    back = np.empty_like(host)
    out["H2D pageable"] = TRANSFER / median_seconds(lambda: accel.cuda.copy_from_host(host, dev))
    out["H2D pinned"] = TRANSFER / median_seconds(lambda: accel.cuda.copy_from_host(pinned, dev))
    out["D2H pageable"] = TRANSFER / median_seconds(lambda: accel.cuda.copy_to_host(dev, back))
    out["D2H pinned"] = TRANSFER / median_seconds(lambda: accel.cuda.copy_to_host(dev, pinned))
    assert np.array_equal(back, host) and np.array_equal(pinned, host)
    big = accel.asarray(np.ones(D2D // 4, np.float32), device="cuda")

    def d2d():
        for _ in range(5):
            accel.asarray(big, copy=True).eval()
    ms = median_event_ms(d2d, accel.cuda.Event)
    out["D2D copy"] = 5 * 2 * D2D / (ms / 1e3)
    del big, dev

    k = accel.RawKernel(NOOP, "noop")
    buf = accel.asarray(np.zeros(1, np.float32), device="cuda")
    args = (buf, np.int32(1))

    def launches():
        for _ in range(LAUNCHES):
            k((1,), (32,), args)
        accel.cuda.synchronize()
    out["launch"] = median_seconds(launches, rounds=5) / LAUNCHES

    def cold():
        tag = uuid.uuid4().hex
        accel.RawKernel(COMPILE_SRC % tag, "saxpy_" + tag).kernel()
    out["compile cold"] = median_seconds(cold, rounds=5)
    tag = uuid.uuid4().hex
    accel.RawKernel(COMPILE_SRC % tag, "saxpy_" + tag).kernel()

    def warm():  # a new kernel object for the same source: served by the caches
        accel.RawKernel(COMPILE_SRC % tag, "saxpy_" + tag).kernel()
    out["compile warm"] = median_seconds(warm)
    small = accel.asarray(np.ones(SMALL_N, np.float32), device="cuda")
    out["a+b small"] = median_seconds(lambda: small_ops(lambda: (small + small).eval(),
                                                        accel.cuda.synchronize)) / SMALL_OPS
    out.update(attempt("accel matmul/gather", accel_array_ops, {}))
    return out


def small_ops(op, synchronize):
    """SMALL_OPS calls of op, then a wait: the host's cost per op, the GPU hardly working."""
    for _ in range(SMALL_OPS):
        op()
    synchronize()


def array_op_inputs():
    rng = np.random.default_rng(0)
    mats = {dt: (rng.random((MATMUL_N, MATMUL_N)).astype(dt), rng.random((MATMUL_N, MATMUL_N)).astype(dt))
            for dt in ("float32", "float64")}
    return mats, rng.random(GATHER_N, dtype=np.float32), rng.integers(0, GATHER_N, GATHER_N)


def accel_array_ops():
    out = {}
    mats, x, idx = array_op_inputs()
    for dt, (a, b) in mats.items():
        da, db = accel.asarray(a, device="cuda"), accel.asarray(b, device="cuda")
        out["matmul " + dt] = attempt(
            "accel matmul " + dt, lambda: median_event_ms(lambda: da @ db, accel.cuda.Event) / 1e3)
    dx, didx = accel.asarray(x, device="cuda"), accel.asarray(idx, device="cuda")

    def gather():
        assert np.array_equal(accel.asnumpy(dx[didx]), x[idx]), "gather differs from NumPy"
        return median_event_ms(lambda: dx[didx], accel.cuda.Event) / 1e3
    out["gather"] = attempt("accel gather", gather)
    return out


# ---------------------------------------------------------------- reductions (both libraries)

REDUCE_N = 100_000_000


def reduction_cases(xp, to_device, new_event):
    """Effective bandwidth (input bytes read per second) of sum and cumsum on 1e8 float32."""
    out = {}
    x = to_device(np.random.default_rng(0).random(REDUCE_N, dtype=np.float32))
    m = x.reshape(10_000, 10_000)
    cases = {
        "sum all": lambda: xp.sum(x),
        "sum axis 0": lambda: xp.sum(m, axis=0),
        "sum axis 1": lambda: xp.sum(m, axis=1),
        "cumsum": lambda: xp.cumsum(x),
    }
    for key, fn in cases.items():
        out[key] = attempt(f"{xp.__name__} {key}",
                           lambda: 4 * REDUCE_N / (median_event_ms(fn, new_event) / 1e3))
    return out


# ---------------------------------------------------------------- sorts (both libraries)

SORT_N = 10_000_000


def sort_cases(xp, to_device, new_event, check=False):
    """Seconds to sort and argsort 1e7 float32 (random, so every radix pass moves data)."""
    host = np.random.default_rng(0).random(SORT_N, dtype=np.float32)
    x = to_device(host)
    out = {}
    for key, fn in {"sort": lambda: xp.sort(x), "argsort": lambda: xp.argsort(x)}.items():
        def run(key=key, fn=fn):
            if check:
                got = accel.asnumpy(fn())
                want = np.sort(host) if key == "sort" else np.argsort(host, kind="stable")
                assert np.array_equal(got, want), f"{key} differs from NumPy"
            return median_event_ms(fn, new_event, rounds=3) / 1e3
        out[key] = attempt(f"{xp.__name__} {key}", run)
    return out


# ---------------------------------------------------------------- cuFFT and cuSOLVER (both libraries)

def fft_linalg_cases(xp, to_device, new_event):
    """Seconds for library-backed work: both accel and CuPy call cuFFT / cuSOLVER, so the ratio
    measures the wrapping (plan caching, layout copies, the batch loop), not the library."""
    rng = np.random.default_rng(0)
    c = to_device((rng.standard_normal(1 << 22) + 1j * rng.standard_normal(1 << 22)).astype(np.complex64))
    img = to_device(rng.standard_normal((2048, 2048)).astype(np.float32))
    a = rng.standard_normal((1024, 1024))
    spd = to_device(a @ a.T + 1024 * np.eye(1024))
    small = to_device(rng.standard_normal((1000, 8, 8)) + 8 * np.eye(8))
    # Many tiny matrices: cuBLAS's batched LU in accel (and in CuPy's inv and det).
    tiny = to_device(rng.standard_normal((10_000, 4, 4)) + 4 * np.eye(4))
    tiny_b = to_device(rng.standard_normal((10_000, 4, 1)))
    cases = {
        "fft 2^22 c64": lambda: xp.fft.fft(c),
        "rfft2 2048^2 f32": lambda: xp.fft.rfft2(img),
        "cholesky 1024^2 f64": lambda: xp.linalg.cholesky(spd),
        "solve 1024^2 f64": lambda: xp.linalg.solve(spd, spd[:, :8]),
        "eigh 1024^2 f64": lambda: xp.linalg.eigh(spd),
        "inv 1000x8x8 f64": lambda: xp.linalg.inv(small),
        "inv 10000x4x4 f64": lambda: xp.linalg.inv(tiny),
        "solve 10000x4x4 f64": lambda: xp.linalg.solve(tiny, tiny_b),
        "det 10000x4x4 f64": lambda: xp.linalg.det(tiny),
    }
    return {key: attempt(f"{xp.__name__} {key}",
                         lambda fn=fn: median_event_ms(fn, new_event, rounds=3) / 1e3)
            for key, fn in cases.items()}


# ---------------------------------------------------------------- CuPy

def cupy_cases():
    out = {}
    host = np.random.default_rng(0).random(TRANSFER // 4, dtype=np.float32)
    import cupyx
    pinned = cupyx.empty_pinned(host.shape, np.float32)
    pinned[:] = host
    dev = cp.asarray(host)
    back = np.empty_like(host)
    out["H2D pageable"] = TRANSFER / median_seconds(lambda: (dev.set(host), cp.cuda.Stream.null.synchronize()))
    out["H2D pinned"] = TRANSFER / median_seconds(lambda: (dev.set(pinned), cp.cuda.Stream.null.synchronize()))
    out["D2H pageable"] = TRANSFER / median_seconds(lambda: dev.get(out=back))
    out["D2H pinned"] = TRANSFER / median_seconds(lambda: dev.get(out=pinned))
    big = cp.ones(D2D // 4, np.float32)

    def d2d():
        for _ in range(5):
            big.copy()
    ms = median_event_ms(d2d, cp.cuda.Event)
    out["D2D copy"] = 5 * 2 * D2D / (ms / 1e3)
    del big, dev

    k = cp.RawKernel(NOOP, "noop")
    buf = cp.zeros(1, np.float32)
    args = (buf, np.int32(1))

    def launches():
        for _ in range(LAUNCHES):
            k((1,), (32,), args)
        cp.cuda.Device().synchronize()
    out["launch"] = median_seconds(launches, rounds=5) / LAUNCHES

    def cold():
        tag = uuid.uuid4().hex
        cp.RawKernel(COMPILE_SRC % tag, "saxpy_" + tag).kernel  # noqa: B018 - compiles and loads
    out["compile cold"] = median_seconds(cold, rounds=5)
    tag = uuid.uuid4().hex
    cp.RawKernel(COMPILE_SRC % tag, "saxpy_" + tag).kernel  # noqa: B018

    def warm():
        cp.RawKernel(COMPILE_SRC % tag, "saxpy_" + tag).kernel  # noqa: B018
    out["compile warm"] = median_seconds(warm)
    small = cp.ones(SMALL_N, np.float32)
    out["a+b small"] = median_seconds(lambda: small_ops(lambda: small + small,
                                                        cp.cuda.Device().synchronize)) / SMALL_OPS
    out.update(cupy_array_ops())
    return out


def cupy_array_ops():
    out = {}
    mats, x, idx = array_op_inputs()
    for dt, (a, b) in mats.items():
        da, db = cp.asarray(a), cp.asarray(b)
        out["matmul " + dt] = median_event_ms(lambda: da @ db, cp.cuda.Event) / 1e3
    dx, didx = cp.asarray(x), cp.asarray(idx)
    out["gather"] = median_event_ms(lambda: dx[didx], cp.cuda.Event) / 1e3
    return out


# ---------------------------------------------------------------- PyTorch

def torch_module():
    try:
        import torch
    except Exception as e:  # noqa: BLE001 - any import failure means "no PyTorch here"
        return None, f"{type(e).__name__}: {e}"
    return (torch, "") if torch.cuda.is_available() else (None, "torch.cuda.is_available() is False")


def torch_cases(torch):
    """The same rows as accel_vs_torch_cases, on PyTorch."""
    out = {}
    new_event = lambda: torch.cuda.Event(enable_timing=True)  # noqa: E731
    big = torch.ones(D2D // 4, dtype=torch.float32, device="cuda")

    def d2d():
        for _ in range(5):
            big.clone()
    out["D2D copy"] = 5 * 2 * D2D / (median_event_ms(d2d, new_event) / 1e3)
    del big
    small = torch.ones(SMALL_N, dtype=torch.float32, device="cuda")
    out["a+b small"] = median_seconds(lambda: small_ops(lambda: small + small, torch.cuda.synchronize)) / SMALL_OPS
    x = torch.rand(REDUCE_N, dtype=torch.float32, device="cuda")
    out["sum all"] = 4 * REDUCE_N / (median_event_ms(lambda: x.sum(), new_event) / 1e3)
    del x
    for dt in ("float32", "bfloat16"):
        a, b = (torch.rand(TORCH_MATMUL_N, TORCH_MATMUL_N, device="cuda").to(getattr(torch, dt)) for _ in range(2))
        out["matmul8192 " + dt] = attempt(f"torch matmul {dt}", lambda: median_event_ms(lambda: a @ b, new_event) / 1e3)
    return out


def accel_vs_torch_cases():
    """accel's figures for the PyTorch table that the main table does not have."""
    rng = np.random.default_rng(0)
    a, b = (accel.asarray(rng.random((TORCH_MATMUL_N, TORCH_MATMUL_N), dtype=np.float32), device="cuda")
            for _ in range(2))
    return {"matmul8192 float32": median_event_ms(lambda: (a @ b).eval(), accel.cuda.Event) / 1e3}


TORCH_ROWS = [  # (key, label, kind), as ROWS
    ("D2D copy", "device->device copy, 1 GiB (read+write)", "bw"),
    ("a+b small", f"a + b, {SMALL_N} float32 (host time per op)", "s"),
    ("sum all", "sum of 1e8 float32 (input bytes/s)", "bw"),
    ("matmul8192 float32", f"matmul {TORCH_MATMUL_N}^2 float32 (no TF32)", "s"),
    ("matmul8192 bfloat16", f"matmul {TORCH_MATMUL_N}^2 bfloat16 (accel has none)", "s"),
]


def print_torch_table(a):
    torch, why = torch_module()
    if torch is None:
        print(f"\nPyTorch: not available ({why})")
        return
    torch.backends.cuda.matmul.allow_tf32 = False  # accel's float32 matmul rounds as float32
    t = attempt("PyTorch cases", lambda: torch_cases(torch), {})
    a = dict(a, **attempt("accel 8192 matmul", accel_vs_torch_cases, {}))
    print(f"\n{'beside PyTorch ' + torch.__version__:44s} {'accel':>12s} {'PyTorch':>12s} {'accel/PyTorch':>14s}")
    for key, label, kind in TORCH_ROWS:
        av, tv = a.get(key), t.get(key)
        ratio = "" if tv is None or av is None else f"{(av / tv if kind == 'bw' else tv / av):13.2f}x"
        print(f"{label:44s} {fmt(av, kind):>12s} {fmt(tv, kind):>12s} {ratio:>14s}")


# ---------------------------------------------------------------- elementwise

EW_SIZES = (10**7, 10**8)
EW_REPEATS = 10


def fused_expression(xp, a, b, c):
    return xp.sin(a) ** 2 + xp.cos(a) ** 2 - xp.exp(-b) * c


# (key, label, bytes moved per element read + written, function of (xp, a, b, c))
EW_CASES = [
    ("a+b", "a + b", 12, lambda xp, a, b, c: a + b),
    ("a*2", "a * 2", 8, lambda xp, a, b, c: a * 2),
    ("fused", "sin(a)**2 + cos(a)**2 - exp(-b)*c", 16, fused_expression),
    ("astype", "a.astype(float64)", 12, lambda xp, a, b, c: a.astype("float64")),
    ("astype16", "a.astype(int16)", 6, lambda xp, a, b, c: a.astype("int16")),
]


def elementwise_times(xp, to_device, compute, new_event):
    """{(key, n): seconds per call} for one library: each case once to compile and warm up,
    then EW_REPEATS calls between two events on the current stream."""
    out = {}
    rng = np.random.default_rng(0)
    for n in EW_SIZES:
        a, b, c = (to_device(rng.standard_normal(n, dtype=np.float32)) for _ in range(3))
        for key, _label, _bytes, fn in EW_CASES:
            def run():
                for _ in range(EW_REPEATS):
                    compute(fn(xp, a, b, c))

            def measure():
                compute(fn(xp, a, b, c))  # compile and warm up
                return median_event_ms(run, new_event, rounds=3) / 1e3 / EW_REPEATS
            out[(key, n)] = attempt(f"{xp.__name__} {key} n={n:.0e}", measure)
        del a, b, c
    return out


def accel_elementwise():
    def compute(y):
        y.eval()  # queues the kernel; the end event waits for it
    return elementwise_times(accel, lambda h: accel.asarray(h, device="cuda"), compute,
                             accel.cuda.Event)


def cupy_elementwise():
    fused = cp.fuse()(lambda a, b, c: fused_expression(cp, a, b, c))
    out = elementwise_times(cp, cp.asarray, lambda y: None, cp.cuda.Event)
    rng = np.random.default_rng(0)
    for n in EW_SIZES:  # CuPy's own fusion of the same expression, for reference
        a, b, c = (cp.asarray(rng.standard_normal(n, dtype=np.float32)) for _ in range(3))
        fused(a, b, c)

        def run():
            for _ in range(EW_REPEATS):
                fused(a, b, c)
        out[("cupy.fuse", n)] = median_event_ms(run, cp.cuda.Event, rounds=3) / 1e3 / EW_REPEATS
        del a, b, c
    return out


def print_elementwise(a, c, d2d):
    """d2d: accel's device-to-device copy bandwidth, which elementwise work should approach."""
    print(f"\n{'elementwise, float32':44s} {'n':>5s} {'accel':>10s} {'GB/s':>7s} {'of D2D':>6s} "
          f"{'CuPy':>10s} {'GB/s':>7s} {'accel/CuPy':>11s}")
    for key, label, nbytes, _fn in EW_CASES:
        for n in EW_SIZES:
            av, cv = a.get((key, n)), c.get((key, n))
            ratio = "" if cv is None or av is None else f"{cv / av:10.2f}x"
            cbw = "" if cv is None else f"{nbytes * n / cv / 1e9:7.0f}"
            abw = "" if av is None else f"{nbytes * n / av / 1e9:7.0f}"
            share = "" if av is None or not d2d else f"{nbytes * n / av / d2d:6.0%}"
            print(f"{label:44s} {n:5.0e} {fmt(av, 's'):>10s} {abw:>7s} {share:>6s} "
                  f"{fmt(cv, 's'):>10s} {cbw:>7s} {ratio:>11s}")
    for n in EW_SIZES:
        if ("cupy.fuse", n) in c:
            print(f"{'  (CuPy with cupy.fuse on the fused expression)':44s} {n:5.0e} {'':>10s} "
                  f"{'':>7s} {'':>6s} {fmt(c[('cupy.fuse', n)], 's'):>10s} "
                  f"{16 * n / c[('cupy.fuse', n)] / 1e9:7.0f} "
                  + (f"{c[('cupy.fuse', n)] / a[('fused', n)]:10.2f}x" if a.get(("fused", n)) else ""))


# ---------------------------------------------------------------- table

ROWS = [  # (key, label, kind): kind "bw" is bytes/s (higher is better), "s" is seconds
    ("H2D pageable", "host->device, pageable, 256 MiB", "bw"),
    ("H2D pinned", "host->device, pinned, 256 MiB", "bw"),
    ("D2H pageable", "device->host, pageable, 256 MiB", "bw"),
    ("D2H pinned", "device->host, pinned, 256 MiB", "bw"),
    ("D2D copy", "device->device copy, 1 GiB (read+write)", "bw"),
    ("launch", "kernel launch overhead (empty kernel)", "s"),
    ("a+b small", f"a + b, {SMALL_N} float32 (host time per op)", "s"),
    ("compile cold", "compile + load, cold (new source)", "s"),
    ("compile warm", "compile + load, warm (cached source)", "s"),
    ("matmul float32", f"matmul {MATMUL_N}x{MATMUL_N} float32", "s"),
    ("matmul float64", f"matmul {MATMUL_N}x{MATMUL_N} float64", "s"),
    ("gather", f"gather x[idx], {GATHER_N:.0e} float32", "s"),
    ("sum all", "sum of 1e8 float32 (input bytes/s)", "bw"),
    ("sum axis 0", "sum over axis 0 of 10000 x 10000 float32", "bw"),
    ("sum axis 1", "sum over axis 1 of 10000 x 10000 float32", "bw"),
    ("cumsum", "cumsum of 1e8 float32 (input bytes/s)", "bw"),
    ("sort", f"sort of {SORT_N:.0e} float32", "s"),
    ("argsort", f"argsort of {SORT_N:.0e} float32", "s"),
    ("fft 2^22 c64", "fft of 2^22 complex64 (cuFFT)", "s"),
    ("rfft2 2048^2 f32", "rfft2 of 2048x2048 float32 (cuFFT)", "s"),
    ("cholesky 1024^2 f64", "cholesky 1024x1024 float64 (cuSOLVER)", "s"),
    ("solve 1024^2 f64", "solve 1024x1024, 8 rhs, float64 (cuSOLVER)", "s"),
    ("eigh 1024^2 f64", "eigh 1024x1024 float64 (cuSOLVER)", "s"),
    ("inv 1000x8x8 f64", "inv of 1000 8x8 float64 (cuSOLVER loop)", "s"),
]


def fmt(value, kind):
    if value is None:
        return "n/a"
    if kind == "bw":
        return f"{value / 1e9:.1f} GB/s"
    return f"{value * 1e6:.1f} us" if value < 1e-3 else f"{value * 1e3:.1f} ms"


def main():
    if not accel.cuda.is_available():
        print("bench_cuda: CUDA is not usable here:\n" + accel.cuda.unavailable_reason())
        return 1
    props = accel.cuda.get_device_properties(0)
    print(f"GPU: {props['name']} (compute capability {props['compute_capability']}), "
          f"driver CUDA {accel.cuda.driver_info()['version']}, NVRTC {accel.cuda.nvrtc_info()['version']}"
          + (f", CuPy {cp.__version__}" if cp else f", CuPy not available ({CUPY_WHY})"))
    a = attempt("accel transfers/launch/compile", accel_cases, {})
    c = attempt("CuPy transfers/launch/compile", cupy_cases, {}) if cp else {}
    a.update(attempt("accel reductions", lambda: reduction_cases(
        accel, lambda h: accel.asarray(h, device="cuda"), accel.cuda.Event), {}))
    if cp:
        c.update(attempt("CuPy reductions", lambda: reduction_cases(cp, cp.asarray, cp.cuda.Event), {}))
    a.update(attempt("accel sorts", lambda: sort_cases(
        accel, lambda h: accel.asarray(h, device="cuda"), accel.cuda.Event, check=True), {}))
    if cp:
        c.update(attempt("CuPy sorts", lambda: sort_cases(cp, cp.asarray, cp.cuda.Event), {}))
    a.update(attempt("accel fft/linalg", lambda: fft_linalg_cases(
        accel, lambda h: accel.asarray(h, device="cuda"), accel.cuda.Event), {}))
    if cp:
        c.update(attempt("CuPy fft/linalg", lambda: fft_linalg_cases(cp, cp.asarray, cp.cuda.Event), {}))
    print(f"\n{'case':44s} {'accel':>12s} {'CuPy':>12s} {'accel/CuPy':>11s}")
    for key, label, kind in ROWS:
        av, cv = a.get(key), c.get(key)
        ratio = "" if cv is None or av is None else f"{(av / cv if kind == 'bw' else cv / av):10.2f}x"
        print(f"{label:44s} {fmt(av, kind):>12s} {fmt(cv, kind):>12s} {ratio:>11s}")
    print_elementwise(attempt("accel elementwise", accel_elementwise, {}),
                      attempt("CuPy elementwise", cupy_elementwise, {}) if cp else {}, a.get("D2D copy"))
    print_torch_table(a)
    print("\naccel/CuPy > 1 means accel is faster (higher bandwidth or less time). Elementwise "
          "GB/s count each element read and written once (the fused expression: a, b, c, out).")
    return 0


if __name__ == "__main__":
    sys.exit(main())
