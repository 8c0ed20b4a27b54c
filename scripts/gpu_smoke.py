"""One quick touch of every kernel family on the GPU, each result compared with NumPy: the
smoke stage of scripts/gpu-check. One line per family, "ok" or "FAIL" with the error; a
failure does not stop the others (a fault that breaks the CUDA context shows in every family
after it, and the first FAIL is the one to read).

Exit status: 0 all families ok, 1 one or more failed, 2 CUDA is not usable here (the reason
is accel's own verdict, as `python -m accel info` prints it). With --verdict it prints the
verdict only (0 usable, 2 not): the other stages of gpu-check ask it first."""

import sys
import time
import traceback

import numpy as np

import accel as ac
from accel._cuda_info import cuda_section

CUDA_NOT_USABLE = 2
MiB = 1 << 20

SAXPY = r"""
extern "C" __global__ void saxpy(float a, const float* x, float* y, long long n) {
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n;
       i += (long long)gridDim.x * blockDim.x)
    y[i] = a * x[i] + y[i];
}
"""

rng = np.random.default_rng(0)


def gpu(x):
    return ac.asarray(x, device="cuda")


def same(got, want):
    np.testing.assert_array_equal(ac.asnumpy(got), want)


def close(got, want, rtol=1e-6):
    np.testing.assert_allclose(ac.asnumpy(got), want, rtol=rtol, atol=rtol)


def transfer():
    x = rng.standard_normal((1000, 37))
    g = gpu(x)
    assert str(g.device) == "cuda:0", g.device
    same(g, x)
    same(gpu(x.T), x.T)  # a strided host source
    pinned = ac.cuda.pinned_empty(x.shape, x.dtype)
    ac.cuda.copy_from_host(x * 2, g)
    ac.cuda.copy_to_host(g, pinned)
    same(pinned, x * 2)


def elementwise():
    a = rng.standard_normal(100_003).astype(np.float32)
    b = rng.standard_normal(100_003).astype(np.float32)
    same(gpu(a) + gpu(b), a + b)
    same(gpu(a) * 2.5, a * np.float32(2.5))
    close(ac.sin(gpu(a)), np.sin(a), rtol=1e-6)
    same(ac.astype(gpu(a), ac.int16), a.astype(np.int16))


def fused_region():
    a, b, c = (rng.standard_normal((300, 257)) for _ in range(3))
    x, y, z = gpu(a), gpu(b), gpu(c)
    r = ac.sin(x) ** 2 + ac.cos(x) ** 2 - ac.exp(-y) * z
    plan = ac.explain(r)
    assert "cuda dialect" in plan, "not one fused CUDA kernel:\n" + plan
    close(r, np.sin(a) ** 2 + np.cos(a) ** 2 - np.exp(-b) * c, rtol=1e-12)


def reduction():
    a = rng.standard_normal((1000, 1003))
    close(ac.sum(gpu(a)), a.sum(), rtol=1e-12)
    close(ac.sum(gpu(a), axis=0), a.sum(axis=0), rtol=1e-12)
    close(ac.sum(gpu(a), axis=1), a.sum(axis=1), rtol=1e-12)
    i = rng.integers(-1000, 1000, 1 << 20).astype(np.int32)
    same(ac.max(gpu(i)), i.max())
    same(ac.argmin(gpu(i)), i.argmin())


def scan():
    i = rng.integers(-1000, 1000, (3, 100_001)).astype(np.int32)
    same(ac.cumsum(gpu(i), axis=1), np.cumsum(i, axis=1))
    same(ac.cumsum(gpu(i), axis=0), np.cumsum(i, axis=0))


def sort():
    f = rng.standard_normal((7, 30_001)).astype(np.float32)
    f[:, ::97] = np.nan
    f[:, 1::89] = -0.0
    same(ac.sort(gpu(f), axis=1), np.sort(f, axis=1))
    same(ac.argsort(gpu(f), axis=0), np.argsort(f, axis=0, kind="stable"))
    # descending: the reverse of an ascending sort of the reversed axis (NaNs first)
    same(ac.sort(gpu(f.T), axis=0, descending=True), np.sort(f.T, axis=0)[::-1])
    c = (rng.integers(-3, 3, 5000) + 1j * rng.integers(-3, 3, 5000)).astype(np.complex64)
    same(ac.argsort(gpu(c)), np.argsort(c, kind="stable"))
    u = rng.integers(0, 2**64 - 1, 100_000, dtype=np.uint64)
    same(ac.sort(gpu(u)), np.sort(u))
    s = np.sort(f[0])
    same(ac.searchsorted(gpu(s), gpu(f[1]), side="right"), np.searchsorted(s, f[1], side="right"))
    close(ac.median(gpu(f), axis=1), np.median(f, axis=1))
    # interp's kernel (device_src/interp.cuh), to the bit: NumPy's float64 loop, no FMA
    xp = np.sort(rng.standard_normal(5000))
    fp = rng.standard_normal(5000) + 1j * rng.standard_normal(5000)
    x = np.concatenate([rng.uniform(-4, 4, 20_000), xp, [np.nan, -np.inf, np.inf]])
    same(ac.interp(gpu(x), gpu(xp), gpu(fp.real)), np.interp(x, xp, fp.real))
    same(ac.interp(gpu(x), gpu(xp), gpu(fp), left=1j, right=2.0), np.interp(x, xp, fp, 1j, 2.0))


def matmul_cublas():
    why = ac.cuda.cublas_unavailable_reason()
    assert not why, "cuBLAS not found, float matmul ran on the kernel: " + why.split("\n")[0]
    a, b = rng.standard_normal((300, 200)), rng.standard_normal((200, 100))
    close(gpu(a) @ gpu(b), a @ b, rtol=1e-10)
    af, bf = a.astype(np.float32), b.astype(np.float32)
    close(gpu(af) @ gpu(bf), af @ bf, rtol=1e-4)


def fft_cufft():
    why = ac.cuda.cufft_unavailable_reason()
    assert not why, "cuFFT not found: " + why.split("\n")[0]
    x = rng.standard_normal((6, 100)) + 1j * rng.standard_normal((6, 100))
    close(ac.fft.fft(gpu(x)), np.fft.fft(x), rtol=1e-10)
    close(ac.fft.ifft(gpu(x[:, ::3]), n=50, norm="ortho"), np.fft.ifft(x[:, ::3], n=50, norm="ortho"),
          rtol=1e-10)
    r = rng.standard_normal((30, 41)).astype(np.float32)
    close(ac.fft.rfft2(gpu(r)), np.fft.rfft2(r), rtol=1e-3)
    close(ac.fft.irfftn(ac.fft.rfftn(gpu(r)), s=r.shape), r, rtol=1e-4)  # 41 columns: odd, so s=
    close(ac.fft.hfft(gpu(x[0]), n=30), np.fft.hfft(x[0], n=30), rtol=1e-10)
    close(ac.fft.fftn(gpu(x.T.copy()), axes=(0,)), np.fft.fftn(x.T, axes=(0,)), rtol=1e-10)


def linalg_cusolver():
    why = ac.cuda.cusolver_unavailable_reason()
    assert not why, "cuSOLVER not found: " + why.split("\n")[0]
    a = rng.standard_normal((3, 40, 40)) + 40 * np.eye(40)
    b = rng.standard_normal((3, 40, 2))
    close(ac.linalg.solve(gpu(a), gpu(b)), np.linalg.solve(a, b), rtol=1e-9)
    close(ac.linalg.inv(gpu(a)), np.linalg.inv(a), rtol=1e-9)
    close(ac.linalg.det(gpu(a[:, :5, :5])), np.linalg.det(a[:, :5, :5]), rtol=1e-9)
    sign, logdet = ac.linalg.slogdet(gpu(a))
    close(sign, np.linalg.slogdet(a)[0], rtol=1e-9)
    close(logdet, np.linalg.slogdet(a)[1], rtol=1e-9)
    spd = a @ np.swapaxes(a, -1, -2)
    close(ac.linalg.cholesky(gpu(spd)), np.linalg.cholesky(spd), rtol=1e-8)
    close(ac.linalg.cholesky(gpu(spd), upper=True), np.linalg.cholesky(spd, upper=True), rtol=1e-8)
    close(ac.linalg.eigvalsh(gpu(spd)), np.linalg.eigvalsh(spd), rtol=1e-8)
    w, v = ac.linalg.eigh(gpu(spd))
    close(gpu(spd) @ v, ac.asnumpy(v) * ac.asnumpy(w)[:, None, :], rtol=1e-6)
    for shape in ((3, 7, 5), (3, 5, 7)):
        m = rng.standard_normal(shape) + 1j * rng.standard_normal(shape)
        u, s, vh = ac.linalg.svd(gpu(m), full_matrices=False)
        close(s, np.linalg.svd(m, compute_uv=False), rtol=1e-9)
        close((ac.asnumpy(u) * ac.asnumpy(s)[:, None, :]) @ ac.asnumpy(vh), m, rtol=1e-9)
        q, r = ac.linalg.qr(gpu(m), mode="complete")
        close(ac.asnumpy(q) @ ac.asnumpy(r), m, rtol=1e-9)
        close(np.abs(ac.asnumpy(r)), np.abs(np.linalg.qr(m, mode="complete").R), rtol=1e-9)
    for g in (rng.standard_normal((3, 30, 30)),
              rng.standard_normal((3, 30, 30)) + 1j * rng.standard_normal((3, 30, 30))):
        w, v = (ac.asnumpy(r) for r in ac.linalg.eig(gpu(g)))
        close(g.astype(w.dtype) @ v, v * w[:, None, :], rtol=1e-9)
        close(np.sort_complex(ac.asnumpy(ac.linalg.eigvals(gpu(g)))),
              np.sort_complex(np.linalg.eigvals(g)).astype(w.dtype), rtol=1e-9)
    singular = np.ones((2, 4, 4))
    try:
        ac.linalg.inv(gpu(singular))
        raise AssertionError("inv of a singular matrix did not raise")
    except ac.linalg.LinAlgError as e:
        assert "Singular matrix" in str(e), e


def linalg_cublas_batched():
    """10,000 4x4 matrices: one cuBLAS batched LU (getrf + getrs/getri) instead of a cuSOLVER
    call per matrix. Rows permuted so that LU pivots."""
    why = ac.cuda.cublas_unavailable_reason()
    assert not why, "cuBLAS not found: " + why.split("\n")[0]
    a = (rng.standard_normal((10_000, 4, 4)) / 11 + np.eye(4))[:, [2, 0, 3, 1], :]
    b = rng.standard_normal((10_000, 4, 2))
    for dtype, rtol in ((np.float64, 1e-9), (np.complex64, 1e-4)):
        x, y = a.astype(dtype), b.astype(dtype)
        close(ac.linalg.solve(gpu(x), gpu(y)), np.linalg.solve(x, y), rtol=rtol)
        close(ac.linalg.inv(gpu(x)), np.linalg.inv(x), rtol=rtol)
        close(ac.linalg.det(gpu(x)), np.linalg.det(x), rtol=rtol)
        close(ac.linalg.slogdet(gpu(x))[1], np.linalg.slogdet(x)[1], rtol=rtol)
    singular = a.copy()
    singular[123, :, 1] = 0
    assert ac.asnumpy(ac.linalg.det(gpu(singular)))[123] == 0
    try:
        ac.linalg.solve(gpu(singular), gpu(b))
        raise AssertionError("solve with a singular matrix in the batch did not raise")
    except ac.linalg.LinAlgError as e:
        assert "Singular matrix" in str(e), e


def matmul_kernel():
    a = rng.integers(-100, 100, (130, 70)).astype(np.int32)
    b = rng.integers(-100, 100, (70, 90)).astype(np.int32)
    same(gpu(a) @ gpu(b), a @ b)


def gather_scatter():
    x = rng.standard_normal(10_000)
    idx = rng.integers(0, x.size, 5000)
    same(gpu(x)[gpu(idx)], x[idx])
    g, want = gpu(x), x.copy()
    g[gpu(idx)] = gpu(-np.arange(idx.size, dtype=np.float64))
    want[idx] = -np.arange(idx.size, dtype=np.float64)  # repeated indices: the last one wins
    same(g, want)
    mask = x > 0
    same(gpu(x)[gpu(mask)], x[mask])


def raw_kernel():
    n = 1 << 20
    x, y = rng.standard_normal(n).astype(np.float32), rng.standard_normal(n).astype(np.float32)
    gy = gpu(y)
    ac.RawKernel(SAXPY, "saxpy")((256,), (256,), (np.float32(3), gpu(x), gy, np.int64(n)))
    # NVRTC contracts a * x + y into one fma (one rounding, NumPy rounds twice): 1 ulp apart.
    close(gy, np.float32(3) * x + y, rtol=1e-6)


def streams_and_events():
    n = 1 << 22
    k = ac.RawKernel(SAXPY, "saxpy")
    x = gpu(np.ones(n, np.float32))
    y = gpu(np.zeros(n, np.float32))
    ac.cuda.synchronize()  # the uploads are done before other streams read them
    s1, s2 = ac.cuda.Stream(), ac.cuda.Stream()
    start, end = ac.cuda.Event(), ac.cuda.Event()
    with s1:
        start.record()
        for _ in range(10):
            k((512,), (256,), (np.float32(1), x, y, np.int64(n)))  # y = 10
        end.record()
    s2.wait_event(end)
    k((512,), (256,), (np.float32(2), y, y, np.int64(n)), stream=s2)  # y = 30, after s1
    s2.synchronize()
    assert end.query() and s1.query() and s2.query()
    assert start.elapsed_time(end) > 0
    same(y[[0, n - 1]], np.array([30, 30], np.float32))


def oom_recovery():
    ac.cuda.free_cached()
    stats = ac.cuda.memory_stats()
    ac.cuda.set_memory_limit(stats["in_use"] + stats["cached"] + 256 * MiB)
    try:
        try:
            ac.cuda.synchronize()
            gpu(np.zeros(400 * MiB, np.uint8))
        except ac.OutOfMemoryError as e:
            assert "out of memory allocating 400.00 MiB" in str(e), str(e)
        else:
            raise AssertionError("400 MiB past a limit 256 MiB above use did not raise OutOfMemoryError")
        same(gpu(np.full(100 * MiB, 7, np.uint8))[::MiB], np.full(100, 7, np.uint8))  # under the limit
    finally:
        ac.cuda.set_memory_limit(0)
    big = gpu(np.ones(400 * MiB, np.uint8))  # the limit lifted: the same request succeeds
    same(ac.sum(big, dtype=ac.int64), 400 * MiB)


FAMILIES = [
    ("transfer (H2D, D2H, pinned)", transfer),
    ("elementwise", elementwise),
    ("fused region", fused_region),
    ("reduction", reduction),
    ("scan", scan),
    ("sort (radix kernels), interp", sort),
    ("matmul (cuBLAS)", matmul_cublas),
    ("matmul (integer kernel)", matmul_kernel),
    ("fft (cuFFT)", fft_cufft),
    ("linalg (cuSOLVER)", linalg_cusolver),
    ("linalg (cuBLAS batched LU)", linalg_cublas_batched),
    ("gather/scatter", gather_scatter),
    ("RawKernel", raw_kernel),
    ("streams and events", streams_and_events),
    ("OOM recovery", oom_recovery),
]


def run_family(name, fn):
    t0 = time.perf_counter()
    try:
        fn()
        ac.cuda.synchronize()  # an asynchronous fault belongs to this family, not the next
    except Exception as e:  # noqa: BLE001 - each failure is reported and the rest still run
        first = (str(e).strip().split("\n") or [""])[0][:400]
        print(f"{name:30s} FAIL {time.perf_counter() - t0:6.2f} s  {type(e).__name__}: {first}")
        # The whole message and where it came from, for the log (a device is rarely lent: one
        # run has to say enough to fix the failure without another).
        print("\n".join("    " + line for line in traceback.format_exc().rstrip().split("\n")))
        return False
    print(f"{name:30s} ok   {time.perf_counter() - t0:6.2f} s")
    return True


def report_verdict():
    """Prints accel's verdict (and, when a library is missing, the rest of its explanation);
    True when CUDA is usable."""
    s = cuda_section()
    verdict = s["verdict"]
    print(("CUDA usable: " if verdict["usable"] else "CUDA not usable: ") + verdict["why"])
    for key in ("driver", "nvrtc"):
        if not s[key]["found"]:
            print("\n".join("  " + line for line in s[key]["error"].split("\n")[1:]))
            break
    return verdict["usable"]


def main(argv):
    if not report_verdict():
        return CUDA_NOT_USABLE
    if argv[1:] == ["--verdict"]:
        return 0
    failed = [name for name, fn in FAMILIES if not run_family(name, fn)]
    if failed:
        print(f"smoke: {len(failed)} of {len(FAMILIES)} families FAILED: {', '.join(failed)}")
        return 1
    print(f"smoke: all {len(FAMILIES)} families ok")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
