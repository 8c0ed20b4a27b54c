"""accel arrays as Dask chunks (python/accel/_dask.py): Dask's array operations on accel
chunks against NumPy, the `_meta` of every result, serialization across processes, and a real
distributed.LocalCluster with two worker processes (loopback only), including a worker killed
mid-computation."""

import os
import pickle
import time

import numpy as np
import pytest

import accel as ac

da = pytest.importorskip("dask.array", reason="dask is installed by scripts/setup; not here")
dask = pytest.importorskip("dask")

rng = np.random.default_rng(5)


def accel_chunks(a, chunks, device="cpu"):
    return da.from_array(ac.asarray(a, device=device), chunks=chunks, asarray=False)


def check(result, want, rtol=1e-6):
    assert isinstance(result, da.Array)
    assert isinstance(result._meta, ac.ndarray), type(result._meta)
    got = result.compute(scheduler="synchronous")
    assert isinstance(got, ac.ndarray), type(got)
    got = ac.asnumpy(got)
    want = np.asarray(want)
    assert got.shape == want.shape and got.dtype == want.dtype, (got.shape, want.shape, got.dtype, want.dtype)
    np.testing.assert_allclose(got, want, rtol=rtol)


OPS = {
    "arithmetic": lambda m, x, y: (x + 1) * y - x / 2,
    "ufunc": lambda m, x, y: m.sin(x) + m.exp(-y * y),
    "where": lambda m, x, y: m.where(x > 0.2, x, y),
    "sum": lambda m, x, y: x.sum(),
    "sum_axis": lambda m, x, y: x.sum(axis=0),
    "mean": lambda m, x, y: x.mean(axis=1),
    "std": lambda m, x, y: x.std(),
    "var_keepdims": lambda m, x, y: x.var(axis=0, keepdims=True),
    "max": lambda m, x, y: x.max(axis=1),
    "argmax": lambda m, x, y: x.argmax(axis=0),
    "argmin_flat": lambda m, x, y: x.argmin(),
    "dot": lambda m, x, y: m.dot(x, y.T),
    "matmul": lambda m, x, y: x @ y.T,
    "tensordot": lambda m, x, y: m.tensordot(x, y, axes=((0, 1), (0, 1))),
    "slice": lambda m, x, y: x[1:5, ::2],
    "fancy": lambda m, x, y: x[[0, 3, 5]],
    "transpose": lambda m, x, y: x.T + y.T,
    "concatenate": lambda m, x, y: m.concatenate([x, y], axis=1),
    "stack": lambda m, x, y: m.stack([x, y]),
    "cumsum": lambda m, x, y: m.cumsum(x, axis=1),
    "reshape": lambda m, x, y: x.reshape(-1),
}


@pytest.mark.parametrize("op", sorted(OPS))
def test_dask_operations_on_accel_chunks_match_numpy(op, device):
    a = rng.uniform(-1, 1, (6, 8))
    b = rng.uniform(-1, 1, (6, 8))
    x, y = accel_chunks(a, (4, 3), device), accel_chunks(b, (4, 3), device)
    with np.errstate(all="ignore"):
        want = OPS[op](np, a, b)
    rtol = 1e-6 if op not in ("std", "var_keepdims") else 1e-9
    check(OPS[op](da, x, y) if op not in ("dot", "tensordot", "concatenate", "stack", "cumsum")
          else OPS[op](da, x, y), want, rtol)


def test_percentile_and_einsum_on_accel_chunks_match_dask_on_numpy(device):
    # Dask's percentile is approximate (per-chunk percentiles merged by interpolation): the
    # baseline is the same Dask algorithm over NumPy chunks, which it must equal.
    a = rng.normal(size=1000)
    x = accel_chunks(a, 100, device)
    # (q inside (0, 100): Dask pads q with 0 and 100, and duplicate q values make its merge
    # depend on how argsort orders ties, NumPy's quicksort or accel's stable sort)
    for q in ([10, 50, 90], [1, 99], [37.5]):
        want = da.percentile(da.from_array(a, chunks=100), q).compute(scheduler="synchronous")
        check(da.percentile(x, q), want, rtol=1e-12)
    y = accel_chunks(a.reshape(40, 25), (10, 25), device)
    check(da.einsum("ij,ij->i", y, y), np.einsum("ij,ij->i", a.reshape(40, 25), a.reshape(40, 25)),
          rtol=1e-12)


def test_rechunk_map_blocks_blockwise_and_reductions_with_dtypes(device):
    a = rng.integers(-50, 50, (9, 10)).astype(np.int32)
    x = accel_chunks(a, (4, 4), device)
    check(x.rechunk((9, 2)), a)
    check(x.map_blocks(lambda blk: blk * 2 + 1, dtype=x.dtype), a * 2 + 1)
    check(da.blockwise(lambda p, q: p - q, "ij", x, "ij", x.T.T, "ij", dtype=x.dtype), a - a)
    check(x.sum(axis=1, dtype=np.int64), a.sum(axis=1, dtype=np.int64))
    check(x.astype(np.float32).mean(), a.astype(np.float32).mean())
    check((x > 0).any(axis=0), (a > 0).any(axis=0))


def test_mixing_dask_and_accel_arrays_stays_lazy():
    x = accel_chunks(np.ones((4, 4)), 2)
    one = ac.ones((4, 4))
    for r in (x + one, one + x, np.add(one, x), one * x):
        assert isinstance(r, da.Array)  # accel deferred to Dask, computing nothing
    check(one + x, np.full((4, 4), 2.0))


def test_compute_returns_accel_arrays_from_numpy_style_creation():
    x = da.ones((4, 6), chunks=2).map_blocks(ac.asarray, meta=ac.empty((0, 0)))
    assert isinstance(x._meta, ac.ndarray)
    check(x * 3, np.full((4, 6), 3.0))


def test_dask_random_through_accels_generator():
    def state(seed):
        return da.random.RandomState(seed, RandomState=ac.random.RandomState)

    x = state(5).standard_normal((4000, 10), chunks=(1000, 10))
    assert isinstance(x._meta, ac.ndarray)
    a = x.compute(scheduler="synchronous")
    assert isinstance(a, ac.ndarray) and a.dtype == ac.float64 and a.shape == (4000, 10)
    a = ac.asnumpy(a)
    assert abs(a.mean()) < 0.05 and abs(a.std() - 1) < 0.05
    blocks = a.reshape(4, 1000, 10)
    assert not np.array_equal(blocks[0], blocks[1])  # each chunk its own stream
    again = ac.asnumpy(state(5).standard_normal((4000, 10), chunks=(1000, 10)).compute())
    np.testing.assert_array_equal(a, again)  # the seed decides every chunk
    assert not np.array_equal(a, ac.asnumpy(state(6).standard_normal((4000, 10), chunks=(1000, 10)).compute()))
    u = ac.asnumpy(state(1).uniform(2, 3, size=1000, chunks=300).compute())
    assert u.min() >= 2 and u.max() < 3
    k = ac.asnumpy(state(1).randint(0, 10, size=1000, chunks=300).compute())
    assert k.dtype == np.int64 and k.min() >= 0 and k.max() <= 9 and len(np.unique(k)) == 10


def test_bound_functions_pickle_by_name():
    for f in (ac.asarray, ac.sum, ac.concatenate):
        assert pickle.loads(pickle.dumps(f)) is f


@pytest.mark.parametrize("dt", ["bool", "int8", "uint64", "float32", "float64", "complex64"])
@pytest.mark.parametrize("shape", [(), (0,), (5,), (3, 4)])
def test_serialization_round_trip(dt, shape, device):
    """On CUDA the bytes travel through pinned host memory both ways."""
    protocol = pytest.importorskip("distributed.protocol", reason="distributed is installed by scripts/setup")
    a = (rng.random(shape) * 10).astype(dt)
    x = ac.asarray(a, device=device)
    header, frames = protocol.serialize(x)
    assert header["serializer"] == "dask"  # the bytes as a frame, not a pickle
    y = protocol.deserialize(header, frames)
    assert isinstance(y, ac.ndarray) and y.device == x.device
    got = ac.asnumpy(y)
    assert got.dtype == a.dtype and got.shape == a.shape
    np.testing.assert_array_equal(got, a)
    # Writable, like NumPy's deserialized arrays. (In one process, as here, it shares the frame
    # with x, as distributed's NumPy serializer does; between processes the frame is a copy.)
    y[...] = 0
    assert not ac.asnumpy(y).any()


def test_serialization_of_a_strided_view(device):
    protocol = pytest.importorskip("distributed.protocol", reason="distributed is installed by scripts/setup")
    a = np.arange(24.0).reshape(4, 6)
    x = ac.asarray(a, device=device)[::2, 1::2].T
    y = protocol.deserialize(*protocol.serialize(x))
    np.testing.assert_array_equal(ac.asnumpy(y), a[::2, 1::2].T)
    assert y.device == x.device


def test_serialization_sends_a_contiguous_cpu_array_without_copying():
    from accel import _dask
    x = ac.asarray(np.arange(12.0).reshape(3, 4))
    _, frames = _dask.serialize(x)
    assert np.shares_memory(np.frombuffer(frames[0], dtype=np.float64), np.asarray(x))
    _, frames = _dask.serialize(x.T)  # a transposed view goes out C-ordered
    np.testing.assert_array_equal(np.frombuffer(frames[0], dtype=np.float64).reshape(4, 3),
                                  np.arange(12.0).reshape(3, 4).T)


# ---- a real cluster --------------------------------------------------------------------------

SCALE_KERNEL = r"""
extern "C" __global__ void scale_add(const float* x, float* y, float a, long long n) {
    long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + 1.0f;
}
"""


def raw_kernel_block(block):
    """A user kernel run on each chunk, on the worker (compiled there, cached on its disk)."""
    import accel
    k = accel.RawKernel(SCALE_KERNEL, "scale_add")
    x = accel.ascontiguousarray(block) if hasattr(accel, "ascontiguousarray") else block
    out = accel.empty_like(x)
    n = x.size
    k(((n + 255) // 256,), (256,), (x, out, np.float32(3.0), np.int64(n)))
    return out


def slow_block(block):
    time.sleep(0.3)
    return block + 1


@pytest.fixture(scope="module")
def client():
    distributed = pytest.importorskip("distributed", reason="distributed is installed by scripts/setup")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  host="127.0.0.1", dashboard_address=None,
                                  silence_logs=40) as cluster, distributed.Client(cluster) as c:
        yield c


def black_scholes(xp, S, K, T, r=0.02, v=0.3):
    """A European call's price, with the normal CDF as its logistic approximation."""
    def cdf(x):
        return 1 / (1 + xp.exp(-1.702 * x))
    d1 = (xp.log(S / K) + (r + 0.5 * v * v) * T) / (v * np.sqrt(T))
    d2 = d1 - v * np.sqrt(T)
    return S * cdf(d1) - K * np.exp(-r * T) * cdf(d2)


def test_cluster_blocked_matmul_4096(client):
    a = rng.standard_normal((4096, 4096), dtype=np.float32)
    b = rng.standard_normal((4096, 4096), dtype=np.float32)
    A, B = accel_chunks(a, (2048, 2048)), accel_chunks(b, (2048, 2048))
    C = client.compute(A @ B).result()
    assert isinstance(C, ac.ndarray)
    want = a.astype(np.float64) @ b.astype(np.float64)
    assert np.abs(ac.asnumpy(C) - want).max() < 1e-3 * np.abs(want).max()


def test_cluster_black_scholes_pipeline_1e8(client):
    n, chunk = 10**8, 10**8 // 8
    S = da.random.default_rng(1).uniform(10, 50, n, chunks=chunk).astype(np.float32)
    S = S.map_blocks(ac.asarray, meta=ac.empty((0,), dtype=ac.float32))
    price = black_scholes(da, S, np.float32(30), np.float32(0.5))
    assert isinstance(price._meta, ac.ndarray)
    total, first = client.compute([price.sum(dtype=np.float64), price[:1000]], sync=True)
    assert isinstance(total, ac.ndarray) and isinstance(first, ac.ndarray)
    s0 = da.random.default_rng(1).uniform(10, 50, n, chunks=chunk).astype(np.float32)[:1000].compute()
    np.testing.assert_allclose(ac.asnumpy(first), black_scholes(np, s0, np.float32(30), np.float32(0.5)),
                               rtol=2e-5, atol=1e-5)
    # The whole sum against NumPy chunk by chunk (1e8 elements at once would need 4 GB here).
    want = sum(float(black_scholes(np, c, np.float32(30), np.float32(0.5)).sum(dtype=np.float64))
               for c in (da.random.default_rng(1).uniform(10, 50, n, chunks=chunk)
                         .astype(np.float32).blocks[i].compute() for i in range(8)))
    assert float(total) == pytest.approx(want, rel=1e-5)  # float32 prices, float64 sums


def test_cluster_mean_std_1e4_squared(client):
    X = (da.random.default_rng(2).standard_normal((10**4, 10**4), chunks=(2500, 10**4))
         .astype(np.float32).map_blocks(ac.asarray, meta=ac.empty((0, 0), dtype=ac.float32)))
    m, s, col = client.compute([X.mean(), X.std(), X.mean(axis=0)[:5]], sync=True)
    assert all(isinstance(v, ac.ndarray) for v in (m, s, col))
    ref = da.random.default_rng(2).standard_normal((10**4, 10**4), chunks=(2500, 10**4)).astype(np.float32)
    wm, ws, wcol = dask.compute(ref.mean(), ref.std(), ref.mean(axis=0)[:5])
    np.testing.assert_allclose(ac.asnumpy(m), wm, rtol=1e-3, atol=1e-6)
    np.testing.assert_allclose(ac.asnumpy(s), ws, rtol=1e-5)
    np.testing.assert_allclose(ac.asnumpy(col), wcol, rtol=1e-4, atol=1e-6)


def test_cluster_random_through_accels_generator(client):
    x = da.random.RandomState(3, RandomState=ac.random.RandomState).standard_normal(
        (4000, 1000), chunks=(1000, 1000))  # drawn on the workers, by Philox
    m, s = client.compute([x.mean(), x.std()], sync=True)
    assert isinstance(m, ac.ndarray) and isinstance(s, ac.ndarray)
    assert abs(float(m)) < 0.01 and abs(float(s) - 1) < 0.01


def test_cluster_map_blocks_with_a_raw_kernel(client):
    a = rng.standard_normal(100_000).astype(np.float32)
    x = accel_chunks(a, 25_000)
    y = client.compute(x.map_blocks(raw_kernel_block, dtype=np.float32)).result()
    assert isinstance(y, ac.ndarray)
    np.testing.assert_allclose(ac.asnumpy(y), 3 * a + 1, rtol=1e-6)


def test_cluster_survives_a_worker_killed_mid_computation(client):
    a = np.arange(40.0)
    x = accel_chunks(a, 2)  # 20 blocks of 0.3 s over 2 workers: about 3 s of work
    future = client.compute(x.map_blocks(slow_block, dtype=x.dtype))
    time.sleep(1.0)
    assert not future.done()  # killed mid-computation
    victim = sorted(client.scheduler_info()["workers"])[0]
    # The process dies without cleaning up (so the call gets no answer: errors ignored).
    client.run(os._exit, 1, workers=[victim], on_error="ignore")
    y = future.result(timeout=120)
    assert victim not in client.scheduler_info()["workers"]  # (its nanny starts a new one)
    assert isinstance(y, ac.ndarray)
    np.testing.assert_array_equal(ac.asnumpy(y), a + 1)
