"""accel arrays as the chunks of a Dask array on a local cluster of two worker processes.

Builds a large Dask array whose chunks are accel arrays, runs an elementwise pipeline and a
reduction on the cluster, checks the result against the same pipeline on NumPy chunks, and
prints both times. On a machine with GPUs, start one worker per GPU with ACCEL_DEVICE=cuda and
CUDA_VISIBLE_DEVICES set per worker (as dask-cuda does); the chunks then live on each worker's
GPU.

    python examples/python/dask_cluster.py [n]
"""

import sys
import time

import dask
import dask.array as da
import numpy as np
from distributed import Client, LocalCluster

import accel as ac


def pipeline(x):
    y = da.sqrt(x * x + 1.0) * da.exp(-x / 4) - da.log1p(x * x)
    return y.sum(dtype=np.float64), y.std()


if __name__ == "__main__":
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 2 * 10**7
    with LocalCluster(n_workers=2, threads_per_worker=1, host="127.0.0.1") as cluster, \
            Client(cluster) as client:
        print("dashboard:", cluster.dashboard_link, "(needs `pip install bokeh` to serve pages)")
        base = da.random.default_rng(0).standard_normal(n, chunks=n // 8).astype(np.float32)
        on_accel = base.map_blocks(ac.asarray, meta=ac.empty((0,), dtype=ac.float32))
        print("chunk type:", type(on_accel._meta).__name__)
        for label, x in (("accel chunks", on_accel), ("numpy chunks", base)):
            dask.compute(*pipeline(x))  # warm up
            t0 = time.perf_counter()
            total, std = dask.compute(*pipeline(x))
            print(f"{label}: sum {float(total):.6e}, std {float(std):.6f} "
                  f"({type(total).__module__.split('.')[0]} result) in {time.perf_counter() - t0:.2f} s")
