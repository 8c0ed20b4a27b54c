"""Manipulation vs NumPy, same run: the cost of making views (reshape, transpose, flip,
broadcast_to, expand_dims: no data moves, so this is per-call overhead) and the copying ops
(concatenate, stack, roll, repeat, tile, flatten of a transposed array) on large arrays."""

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

    small_n = np.arange(24.0).reshape(2, 3, 4)
    small = ac.asarray(small_n)
    case("reshape (view) 2x3x4 -> 6x4", lambda: small.reshape(6, 4), lambda: small_n.reshape(6, 4))
    case("transpose (view) 2x3x4", lambda: small.transpose(2, 0, 1),
         lambda: small_n.transpose(2, 0, 1))
    case("flip (view) 2x3x4", lambda: ac.flip(small), lambda: np.flip(small_n))
    case("expand_dims (view)", lambda: ac.expand_dims(small, 0), lambda: np.expand_dims(small_n, 0))
    case("broadcast_to (view) -> 5x2x3x4", lambda: ac.broadcast_to(small, (5, 2, 3, 4)),
         lambda: np.broadcast_to(small_n, (5, 2, 3, 4)))
    case("concatenate 3 small", lambda: ac.concatenate([small, small, small]),
         lambda: np.concatenate([small_n, small_n, small_n]))

    big_n = rng.standard_normal((2000, 2000)).astype("float32")
    big = ac.asarray(big_n)
    case("concatenate axis 0, 2x 2000x2000 f32", lambda: ac.concatenate([big, big]),
         lambda: np.concatenate([big_n, big_n]), ">= 1x")
    case("concatenate axis 1, 2x 2000x2000 f32", lambda: ac.concatenate([big, big], axis=1),
         lambda: np.concatenate([big_n, big_n], axis=1), ">= 1x")
    other_n = big_n.astype("float64")
    other = ac.asarray(other_n)
    case("concatenate f32 + f64 (promotes)", lambda: ac.concatenate([big, other]),
         lambda: np.concatenate([big_n, other_n]))
    case("stack axis -1, 2x 2000x2000 f32", lambda: ac.stack([big, big], axis=-1),
         lambda: np.stack([big_n, big_n], axis=-1))
    case("flatten of transposed 2000x2000", lambda: big.T.flatten(), lambda: big_n.T.flatten())
    case("roll (100, 7) over both axes", lambda: ac.roll(big, (100, 7), (0, 1)),
         lambda: np.roll(big_n, (100, 7), (0, 1)))
    case("repeat 3 along axis 1", lambda: ac.repeat(big, 3, axis=1),
         lambda: np.repeat(big_n, 3, axis=1))
    case("repeat 3 flattened", lambda: ac.repeat(big, 3), lambda: np.repeat(big_n, 3))
    counts_n = rng.integers(0, 4, size=2000)
    case("repeat per-row counts axis 0", lambda: ac.repeat(big, counts_n, axis=0),
         lambda: np.repeat(big_n, counts_n, axis=0))
    vec_n = rng.standard_normal(1_000_000)
    vec = ac.asarray(vec_n)
    vcounts_n = rng.integers(0, 4, size=1_000_000)
    vcounts = ac.asarray(vcounts_n)
    case("repeat 1M random counts", lambda: ac.repeat(vec, vcounts),
         lambda: np.repeat(vec_n, vcounts_n))
    case("tile (2, 2) of 2000x2000", lambda: ac.tile(big, (2, 2)), lambda: np.tile(big_n, (2, 2)))
    row_n = rng.standard_normal(1000)
    row = ac.asarray(row_n)
    case("tile (1000, 1) of a 1000 row", lambda: ac.tile(row, (1000, 1)),
         lambda: np.tile(row_n, (1000, 1)))
    print_table(f"Manipulation (threads: {os.environ.get('ACCEL_NUM_THREADS', 'all')})", rows)


if __name__ == "__main__":
    main()
