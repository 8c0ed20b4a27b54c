"""Matrix products vs NumPy, same run: large square matmul (BLAS gemm) in float32 and float64,
a transposed operand (no copy: BLAS reads it transposed), a batch of small matrices (BLAS per
matrix, spread over the pool), matrix-vector (gemv), and an integer matmul (not BLAS). Each row
also shows accel's GFLOP/s and NumPy's, and the header which BLAS each side uses (accel's is
chosen at run time: ACCEL_BLAS_PATH=none or a library path changes it)."""

import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(__file__))
from _timing import median_time, print_table  # noqa: E402

import accel as ac  # noqa: E402
from accel import _info  # noqa: E402


def gflops(flops, seconds):
    return flops / seconds / 1e9


def numpy_blas():
    blas = np.show_config(mode="dicts")["Build Dependencies"]["blas"]
    return blas.get("openblas configuration") or f"{blas.get('name')} {blas.get('version', '')}"


def main():
    rng = np.random.default_rng(0)
    cases = []

    def case(name, a_np, b_np, flops, target="", transpose_b=False):
        a, b = ac.asarray(a_np), ac.asarray(b_np)
        if transpose_b:
            b, b_np = b.mT, b_np.swapaxes(-1, -2)
        ta = median_time(lambda: a @ b, repeat=5)
        tn = median_time(lambda: a_np @ b_np, repeat=5)
        cases.append((name, ta, tn, flops, target))

    n = 2048
    for dt in ("float32", "float64"):
        a = rng.standard_normal((n, n)).astype(dt)
        b = rng.standard_normal((n, n)).astype(dt)
        case(f"a @ b, {dt}, {n}x{n}", a, b, 2 * n**3, ">= 0.9x" if dt == "float32" else "")
    a = rng.standard_normal((1024, 1024)).astype("float32")
    case("a @ b.mT, float32, 1024x1024", a, a, 2 * 1024**3, transpose_b=True)
    a = rng.standard_normal((1000, 16, 16)).astype("float32")
    case("batched 1000 x (16x16 @ 16x16), float32", a, a, 1000 * 2 * 16**3)
    a = rng.standard_normal((10000, 4, 4))
    case("batched 10000 x (4x4 @ 4x4), float64", a, a, 10000 * 2 * 4**3)
    m = rng.standard_normal((4096, 4096)).astype("float32")
    v = rng.standard_normal(4096).astype("float32")
    case("matrix @ vector, float32, 4096x4096", m, v, 2 * 4096**2)
    case("vector @ matrix, float32, 4096x4096", v, m, 2 * 4096**2)
    x = rng.integers(-100, 100, (256, 256)).astype("int32")
    case("a @ b, int32, 256x256 (no BLAS)", x, x, 2 * 256**3)

    threads = os.environ.get("ACCEL_NUM_THREADS", str(os.cpu_count()))
    print(f"accel's BLAS (accel threads: {threads}):")
    print("\n".join(_info.format_blas(ac._core._blas_info())))
    print(f"NumPy's BLAS:\n  BLAS:    {numpy_blas()}")
    print_table(f"accel vs NumPy {np.__version__}: matmul",
                [(name, ta, tn, target) for name, ta, tn, _, target in cases])
    print(f"\n{'case':44s} {'accel GFLOP/s':>14s} {'numpy GFLOP/s':>14s}")
    for name, ta, tn, flops, _ in cases:
        print(f"{name:44s} {gflops(flops, ta):14.1f} {gflops(flops, tn):14.1f}")


if __name__ == "__main__":
    main()
