"""accel.fft vs numpy.fft (pocketfft), same run: a large power-of-two complex64 transform, a 2-d
real transform, a prime length (Bluestein in accel, in pocketfft too), a batch of short
transforms along the last axis and one along a strided axis. NumPy's FFT runs on one thread;
accel's spreads lines (and large single transforms) over its pool, so the thread count is
printed with the table. Timed with the data already on the CPU; results are forced."""

import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(__file__))
from _timing import paired_times, print_table  # noqa: E402

import accel as ac  # noqa: E402


def done(x):
    x.eval()


def main():
    rng = np.random.default_rng(0)

    def cplx(shape, dtype):
        return (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(dtype)

    big_np = cplx(1 << 20, np.complex64)
    img_np = rng.standard_normal((1000, 1000))
    prime_np = cplx(1_000_003, np.complex128)
    prime_small_np = cplx(65537, np.complex64)
    batch_np = cplx((1000, 1024), np.complex64)
    big, img, prime, prime_small, batch = (ac.asarray(v) for v in
                                           (big_np, img_np, prime_np, prime_small_np, batch_np))
    cases = [
        ("fft complex64 2^20", lambda: done(ac.fft.fft(big)), lambda: np.fft.fft(big_np),
         ">= 1x"),
        ("rfft2 float64 1000x1000", lambda: done(ac.fft.rfft2(img)), lambda: np.fft.rfft2(img_np),
         ">= 1x"),
        ("fft complex128 prime 1,000,003", lambda: done(ac.fft.fft(prime)),
         lambda: np.fft.fft(prime_np), "report"),
        ("fft complex64 prime 65537", lambda: done(ac.fft.fft(prime_small)),
         lambda: np.fft.fft(prime_small_np), "report"),
        ("fft complex64 1000x1024 axis=-1", lambda: done(ac.fft.fft(batch)),
         lambda: np.fft.fft(batch_np), "report"),
        ("fft complex64 1000x1024 axis=0", lambda: done(ac.fft.fft(batch, axis=0)),
         lambda: np.fft.fft(batch_np, axis=0), "report"),
        ("ifft complex64 2^20", lambda: done(ac.fft.ifft(big)), lambda: np.fft.ifft(big_np),
         "report"),
    ]
    rows = [(name, *paired_times(fa, fn), target) for name, fa, fn, target in cases]
    print_table(f"FFT ({ac.__name__} vs NumPy {np.__version__}, {ac.num_threads()} threads; "
                "speedup = NumPy time / accel time)", rows)


if __name__ == "__main__":
    main()
