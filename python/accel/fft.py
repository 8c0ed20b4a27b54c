"""accel.fft: discrete Fourier transforms with NumPy 2's names and semantics (numpy.fft) and
the Array API's fft extension, over accel's own FFT (accel/backend/cpu/fft_plan.h: mixed radix
2, 3, 4, 5 and generic odd primes, Bluestein for lengths with a large prime factor).

Dtypes as NumPy 2: float16, float32 and complex64 transform in single precision (complex64
results; irfft/hfft of float16 return float16), everything else (float64, complex128,
integers, bool) in double. `norm` is "backward" (the
default; None means it), "ortho" or "forward". `n` / `s` crop or zero-pad the input. `out=`
takes the result under ufunc rules (exact shape, same_kind casting). CUDA arrays are transformed
by cuFFT (loaded at run time, plans cached per device); without it they raise
BackendUnavailable.
"""

import operator

from . import _core

__all__ = ["fft", "ifft", "fftn", "ifftn", "rfft", "irfft", "rfftn", "irfftn", "hfft", "ihfft",
           "fft2", "ifft2", "rfft2", "irfft2", "fftfreq", "rfftfreq", "fftshift", "ifftshift"]


def fft(a, n=None, axis=-1, norm=None, out=None):
    """The 1-d discrete Fourier transform along `axis`."""
    return _core._fft_fft(a, n, axis, norm, out)


def ifft(a, n=None, axis=-1, norm=None, out=None):
    """The 1-d inverse discrete Fourier transform along `axis`."""
    return _core._fft_ifft(a, n, axis, norm, out)


def rfft(a, n=None, axis=-1, norm=None, out=None):
    """The n // 2 + 1 non-negative frequencies of the transform of a real input."""
    return _core._fft_rfft(a, n, axis, norm, out)


def irfft(a, n=None, axis=-1, norm=None, out=None):
    """The real signal of length n (default 2 (m - 1)) whose rfft is `a`."""
    return _core._fft_irfft(a, n, axis, norm, out)


def hfft(a, n=None, axis=-1, norm=None, out=None):
    """The real transform of a Hermitian-symmetric signal given by its first half."""
    return _core._fft_hfft(a, n, axis, norm, out)


def ihfft(a, n=None, axis=-1, norm=None, out=None):
    """The inverse of hfft: the first n // 2 + 1 terms of the inverse transform of a real input."""
    return _core._fft_ihfft(a, n, axis, norm, out)


def fftn(a, s=None, axes=None, norm=None, out=None):
    """The N-d transform over `axes` (default: the last len(s), or all), last axis first."""
    return _core._fft_fftn(a, s, axes, norm, out)


def ifftn(a, s=None, axes=None, norm=None, out=None):
    """The N-d inverse transform over `axes`."""
    return _core._fft_ifftn(a, s, axes, norm, out)


def rfftn(a, s=None, axes=None, norm=None, out=None):
    """The real transform over the last of `axes`, then complex transforms over the others."""
    return _core._fft_rfftn(a, s, axes, norm, out)


def irfftn(a, s=None, axes=None, norm=None, out=None):
    """The inverse of rfftn (the last length defaults to 2 (m - 1))."""
    return _core._fft_irfftn(a, s, axes, norm, out)


def fft2(a, s=None, axes=(-2, -1), norm=None, out=None):
    """fftn over the last two axes."""
    return _core._fft_fftn(a, s, axes, norm, out)


def ifft2(a, s=None, axes=(-2, -1), norm=None, out=None):
    """ifftn over the last two axes."""
    return _core._fft_ifftn(a, s, axes, norm, out)


def rfft2(a, s=None, axes=(-2, -1), norm=None, out=None):
    """rfftn over the last two axes."""
    return _core._fft_rfftn(a, s, axes, norm, out)


def irfft2(a, s=None, axes=(-2, -1), norm=None, out=None):
    """irfftn over the last two axes."""
    return _core._fft_irfftn(a, s, axes, norm, out)


def _frequencies(indices, n, d, dtype):
    # NumPy's formula: integer bin numbers times 1 / (n d) in float64, then the asked dtype.
    result = indices * (1.0 / (n * d))
    return result if dtype is None else _core.astype(result, dtype)


def fftfreq(n, d=1.0, *, dtype=None, device=None):
    """The sample frequencies of an n-point transform: [0, 1, ..., -(n // 2), ..., -1] / (n d).
    float64 unless `dtype` (Array API) says otherwise; on `device` (default: the default one)."""
    n = operator.index(n)
    positive = _core.arange(0, (n - 1) // 2 + 1, device=device)
    negative = _core.arange(-(n // 2), 0, device=device)
    return _frequencies(_core.concat([positive, negative]), n, d, dtype)


def rfftfreq(n, d=1.0, *, dtype=None, device=None):
    """The n // 2 + 1 non-negative sample frequencies of an n-point real transform."""
    n = operator.index(n)
    return _frequencies(_core.arange(0, n // 2 + 1, device=device), n, d, dtype)


def _shift(x, axes, sign):
    x = _core.asarray(x)
    if axes is None:
        axes = tuple(range(x.ndim))
    elif isinstance(axes, int) or hasattr(axes, "__index__"):
        axes = (operator.index(axes),)
    axes = tuple(operator.index(ax) for ax in axes)
    # An axis out of range is left to roll, which raises AxisError naming it.
    shifts = tuple(sign * (x.shape[ax] // 2) if -x.ndim <= ax < x.ndim else 0 for ax in axes)
    return _core.roll(x, shifts, axis=axes) if axes else x


def fftshift(x, axes=None):
    """Moves the zero frequency to the centre: a roll by n // 2 along each of `axes` (all)."""
    return _shift(x, axes, 1)


def ifftshift(x, axes=None):
    """The inverse of fftshift: a roll by -(n // 2) along each of `axes` (all)."""
    return _shift(x, axes, -1)
