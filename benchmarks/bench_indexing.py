"""Indexing vs NumPy, same run: scalar and slice indexing (view creation cost), integer-array
gathers (rows and elements, 1-d and 2-d), boolean masks, take / take_along_axis, scatters
(x[idx] = v, x[mask] = s), ufunc.at (add.at / maximum.at: histograms, 2-d scatter-adds) and
nonzero. Results are computed (eval) inside the timing."""

import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(__file__))
from _timing import median_time, print_table  # noqa: E402

import accel as ac  # noqa: E402


def main():
    rng = np.random.default_rng(0)
    rows = []

    def case(name, fa, fn, target=""):
        rows.append((name, median_time(fa), median_time(fn), target))

    small_n = np.arange(100.0).reshape(10, 10)
    small = ac.asarray(small_n)
    case("x[3] (view), 10x10", lambda: small[3], lambda: small_n[3])
    case("x[1:-1, ::-2] (view), 10x10", lambda: small[1:-1, ::-2], lambda: small_n[1:-1, ::-2])
    case("x[[1, 2]], 10x10", lambda: small[[1, 2]], lambda: small_n[[1, 2]])

    n = 10_000_000
    big_n = rng.standard_normal(n).astype("float32")
    big = ac.asarray(big_n)
    idx_n = rng.integers(0, n, size=1_000_000)
    idx = ac.asarray(idx_n)
    case("x[idx] 1M of 10M, float32", lambda: big[idx], lambda: big_n[idx_n], ">= 1x")
    case("take(x, idx) 1M of 10M", lambda: ac.take(big, idx), lambda: np.take(big_n, idx_n))
    mask_n = big_n > 0.5
    mask = ac.asarray(mask_n)
    case("x[mask] 10M, ~30% true", lambda: big[mask], lambda: big_n[mask_n], ">= 1x")
    case("nonzero(mask) 10M", lambda: ac.nonzero(mask), lambda: np.nonzero(mask_n))

    m_n = rng.standard_normal((4000, 1000))
    m = ac.asarray(m_n)
    ridx_n = rng.integers(0, 4000, size=2000)
    ridx = ac.asarray(ridx_n)
    case("x[rows] 2000 rows of 4000x1000 f64", lambda: m[ridx], lambda: m_n[ridx_n])
    case("x[:, cols] 500 cols of 4000x1000", lambda: m[:, ridx[:500] % 1000],
         lambda: m_n[:, ridx_n[:500] % 1000])
    order_n = np.argsort(m_n[:, :100], axis=1)
    order = ac.asarray(order_n)
    case("take_along_axis 4000x100", lambda: ac.take_along_axis(m[:, :100], order, axis=1),
         lambda: np.take_along_axis(m_n[:, :100], order_n, axis=1))

    dst_n = np.zeros(n, "float32")
    dst = ac.asarray(dst_n.copy())
    vals_n = rng.standard_normal(1_000_000).astype("float32")
    vals = ac.asarray(vals_n)

    def set_idx():
        dst[idx] = vals

    def set_idx_np():
        dst_n[idx_n] = vals_n

    case("x[idx] = v 1M of 10M", set_idx, set_idx_np)

    def set_mask():
        dst[mask] = 1.0

    def set_mask_np():
        dst_n[mask_n] = 1.0

    case("x[mask] = 1.0 10M", set_mask, set_mask_np)

    # ufunc.at: the scatter that accumulates repeated positions (histograms, scatter-adds).
    bins_n = np.zeros(1000)
    bins = ac.asarray(bins_n.copy())
    hidx_n = rng.integers(0, 1000, size=1_000_000)
    hidx = ac.asarray(hidx_n)
    w_n = rng.random(1_000_000)
    w = ac.asarray(w_n)
    case("add.at 1M into 1000 bins, f64", lambda: ac.add.at(bins, hidx, w),
         lambda: np.add.at(bins_n, hidx_n, w_n), ">= 1x")
    case("maximum.at 1M into 1000 bins", lambda: ac.maximum.at(bins, hidx, w),
         lambda: np.maximum.at(bins_n, hidx_n, w_n))
    small_bins_n = np.zeros(10)
    small_bins = ac.asarray(small_bins_n.copy())
    sidx_n = rng.integers(0, 10, size=1000)
    sidx = ac.asarray(sidx_n)
    case("add.at 1000 into 10 bins, +1", lambda: ac.add.at(small_bins, sidx, 1.0),
         lambda: np.add.at(small_bins_n, sidx_n, 1.0))
    grid_n = np.zeros((100, 100))
    grid = ac.asarray(grid_n.copy())
    gi_n, gj_n = rng.integers(0, 100, size=(2, 100_000))
    gi, gj = ac.asarray(gi_n), ac.asarray(gj_n)
    case("add.at (i, j) 100k into 100x100", lambda: ac.add.at(grid, (gi, gj), 1.0),
         lambda: np.add.at(grid_n, (gi_n, gj_n), 1.0))
    print_table(f"Indexing ({ac.__name__} threads: {os.environ.get('ACCEL_NUM_THREADS', 'all')})", rows)


if __name__ == "__main__":
    main()
