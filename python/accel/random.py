"""Random numbers with NumPy's Generator API, the same on the CPU and on CUDA.

``accel.random.default_rng(seed)`` returns a :class:`Generator` whose methods have the names
and signatures of ``numpy.random.Generator`` (plus ``device=``). The numbers come from
Philox4x32-10, a counter-based generator (as in Random123 and cuRAND): element k of a call is
element k past the numbers the stream's earlier calls used, and takes its bits from the block
at a counter derived from that index alone (a block holds four float32 uniforms, two float64
uniforms or a pair of normals), so for a given seed, call sequence, shape, dtype and
distribution the values are bit-identical on every device and for any ``ACCEL_NUM_THREADS``.

NumPy's streams are **not** reproduced: ``accel.random.default_rng(0).random(3)`` and
``numpy.random.default_rng(0).random(3)`` are different numbers, with the same distribution.

Distributions: uniform from the high bits of a 32- or 64-bit word (24 for float32, 53 for
float64); normal by Box-Muller (both branches: a pair of normals per counter, computed in float64); exponential as ``-log1p(-u)``;
integers by Lemire's multiply with rejection (unbiased). ``permutation``, ``shuffle``,
``permuted`` and ``choice`` without replacement sort random keys, so they run where ``argsort``
does (the CPU); ``choice(p=...)`` with replacement inverts the cumulative probabilities, without
replacement sorts exponential clocks ``E_i / p_i`` (successive draws in proportion to p among the
entries left, as NumPy's). ``multivariate_normal`` multiplies standard normals by a factor of the
covariance (svd, eigh or cholesky, as NumPy's ``method``). ``standard_gamma``/``gamma`` use
Marsaglia and Tsang's method, ``beta`` the ratio of two gammas. ``poisson`` inverts one uniform
for means below 10 and uses Hormann's PTRS above (NumPy's method), ``binomial`` inversion where
``n * min(p, 1 - p) < 10`` and Hormann's BTRS above; both return int64. Parameters of gamma,
beta, poisson and binomial may be arrays (one per element, broadcast with ``size``); uniform,
normal and exponential take arrays through the ops ``low + (high - low) * u`` and alike.
"""

import operator
import secrets

import numpy as np

from . import _core

__all__ = ["Generator", "RandomState", "default_rng"]

# Distribution numbers of device_src/philox.h.
_UNIFORM, _NORMAL, _EXPONENTIAL, _INTEGERS, _GAMMA = 0, 1, 2, 3, 4


def _seed_words(seed):
    """64-bit words from a non-negative int or a sequence of them (each int's word count first,
    so that different seeds give different words)."""
    ints = [seed] if isinstance(seed, (int, np.integer)) else list(seed)
    words = [len(ints)]
    for value in ints:
        value = operator.index(value)
        if value < 0:
            raise ValueError(f"[random.default_rng] seed must be non-negative, got {value}")
        chunk = []
        while True:
            chunk.append(value & 0xFFFFFFFFFFFFFFFF)
            value >>= 64
            if not value:
                break
        words += [len(chunk)] + chunk
    return words


def _shape(size):
    if size is None:
        return ()
    if isinstance(size, (int, np.integer)):
        return (operator.index(size),)
    return tuple(operator.index(s) for s in size)


def _device_of(device, *operands):
    if device is not None:
        return device
    for x in operands:
        if isinstance(x, _core.ndarray):
            return x.device
    return None


class Generator:
    """A stream of Philox4x32-10 random numbers with numpy.random.Generator's methods.

    NumPy's streams are not reproduced (see the module's docstring); the values are the same on
    every accel device. Make one with :func:`default_rng`.
    """

    def __init__(self, stream):
        if not isinstance(stream, _core._PhiloxStream):
            raise TypeError("[random.Generator] use accel.random.default_rng(seed) to make one")
        self._stream = stream

    def __repr__(self):
        return f"Generator(Philox4x32-10, key={self._stream.key:#018x}, counter={self._stream.counter})"

    # -- draws -------------------------------------------------------------------------------

    def _draw(self, distribution, size, dtype, out, device, low=0, range_=0, op="random",
              param=0.0):
        if out is not None:
            if not isinstance(out, _core.ndarray):
                raise TypeError(f"[random.{op}] out must be an accel.ndarray, got {type(out).__name__}")
            if size is not None and _shape(size) != tuple(out.shape):
                raise ValueError(f"[random.{op}] size {_shape(size)} must match out.shape {tuple(out.shape)}")
            if np.dtype(str(out.dtype)) != np.dtype(dtype):
                raise TypeError(f"[random.{op}] out has dtype {out.dtype}, expected {np.dtype(dtype)}")
            self._stream.fill(out, distribution, low, range_, param)
            return out
        return self._stream.draw(_shape(size), dtype, device, distribution, low, range_, param)

    def random(self, size=None, dtype=np.float64, out=None, *, device=None):
        """Uniform floats in [0, 1) (float32: 24 random bits, float64: 53)."""
        return self._draw(_UNIFORM, size, dtype, out, device, op="random")

    def standard_normal(self, size=None, dtype=np.float64, out=None, *, device=None):
        """Standard normal floats (Box-Muller, computed in float64)."""
        return self._draw(_NORMAL, size, dtype, out, device, op="standard_normal")

    def standard_exponential(self, size=None, dtype=np.float64, method="zig", out=None, *,
                             device=None):
        """Standard exponential floats, -log1p(-u); `method` is accepted and not used."""
        if method not in ("zig", "inv"):
            raise ValueError(f"[random.standard_exponential] method must be 'zig' or 'inv', got {method!r}")
        return self._draw(_EXPONENTIAL, size, dtype, out, device, op="standard_exponential")

    def standard_gamma(self, shape, size=None, dtype=np.float64, out=None, *, device=None):
        """Standard gamma floats of shape `shape` (a non-negative number, or an array of them
        broadcast with `size`: one shape per element), Marsaglia and Tsang's method computed in
        float64."""
        if _is_real_number(shape):
            return self._draw(_GAMMA, size, dtype, out, device, op="standard_gamma",
                              param=float(shape))
        a = _param_array(shape, device)
        drawn = self._stream.standard_gamma_per_element(
            a, _per_element_shape(size if out is None else out.shape, "standard_gamma", a), dtype)
        if out is None:
            return drawn
        if not isinstance(out, _core.ndarray):
            raise TypeError(f"[random.standard_gamma] out must be an accel.ndarray, got {type(out).__name__}")
        if np.dtype(str(out.dtype)) != np.dtype(dtype):
            raise TypeError(f"[random.standard_gamma] out has dtype {out.dtype}, expected {np.dtype(dtype)}")
        out[...] = drawn
        return out

    def gamma(self, shape, scale=1.0, size=None, *, device=None):
        """Gamma floats: scale * standard_gamma(shape); shape and scale numbers or arrays."""
        scale = _operand(scale)
        _check_non_negative(scale, "gamma", "scale")
        if _is_real_number(shape):
            a = float(shape)
            if _is_real_number(scale):
                return self._stream.scaled(_shape(size), np.float64, device, _GAMMA,
                                           float(scale), 0.0, param=a)
            shape_ = _shape(size) if size is not None else np.shape(scale)
            return self._stream.draw(shape_, np.float64, _device_of(device, scale), _GAMMA,
                                     param=a) * scale
        a = _param_array(shape, _device_of(device, shape, scale))
        base = self._stream.standard_gamma_per_element(
            a, _per_element_shape(size, "gamma", a, scale), np.float64)
        return base if _is_real_number(scale) and scale == 1 else base * scale

    def beta(self, a, b, size=None, *, device=None):
        """Beta floats: X / (X + Y) with X ~ gamma(a), Y ~ gamma(b) (a, b positive numbers or
        arrays of them)."""
        if _is_real_number(a) and _is_real_number(b):
            a, b = _positive(a, "beta", "a"), _positive(b, "beta", "b")
            shape = _shape(size)
            x = self._stream.draw(shape, np.float64, device, _GAMMA, param=a)
            y = self._stream.draw(shape, np.float64, device, _GAMMA, param=b)
            return x / (x + y)
        dev = _device_of(device, a, b)
        a, b = _param_array(a, dev), _param_array(b, dev)
        _positive(a, "beta", "a")
        _positive(b, "beta", "b")
        shape = _per_element_shape(size, "beta", a, b)
        x = self._stream.standard_gamma_per_element(a, shape, np.float64)
        y = self._stream.standard_gamma_per_element(b, shape, np.float64)
        return x / (x + y)

    def poisson(self, lam=1.0, size=None, *, device=None):
        """Poisson counts (int64) of mean `lam`, a number or an array of them (one mean per
        element, broadcast with `size`): inversion of one uniform for means below 10, Hormann's
        transformed rejection (PTRS, NumPy's method too) from 10."""
        if _is_real_number(lam):
            return self._stream.poisson(float(lam), _shape(size), device)
        lam = _param_array(lam, device)
        return self._stream.poisson_per_element(lam, _per_element_shape(size, "poisson", lam))

    def binomial(self, n, p, size=None, *, device=None):
        """Binomial counts (int64) of `n` trials (up to 2^53) with success probability `p`;
        numbers or arrays (an array of n must hold integers). Inversion of one uniform where
        n * min(p, 1 - p) < 10, Hormann's BTRS above."""
        if _is_real_number(n) and _is_real_number(p):
            return self._stream.binomial(float(n), float(p), _shape(size), device)
        dev = _device_of(device, n, p)
        trials = n if isinstance(n, _core.ndarray) else np.asarray(n)
        if np.dtype(str(trials.dtype)).kind not in "iub":
            raise TypeError(f"[random.binomial] n must hold integers, got dtype {trials.dtype}")
        trials = _core.asarray(trials, device=dev)
        p = _param_array(p, dev)
        return self._stream.binomial_per_element(trials, p,
                                                 _per_element_shape(size, "binomial", trials, p))

    def _affine(self, distribution, shift, scale, size, device, op):
        shape = _shape(size) if size is not None else np.broadcast_shapes(np.shape(shift), np.shape(scale))
        dev = _device_of(device, shift, scale)
        if _is_real_number(scale) and _is_real_number(shift):
            # Applied in the draw's own pass, with the bits of the two float64 ops below.
            return self._stream.scaled(shape, np.float64, dev, distribution, float(scale),
                                       float(shift))
        base = self._stream.draw(shape, np.float64, dev, distribution)
        return base * scale + shift

    def uniform(self, low=0.0, high=1.0, size=None, *, device=None):
        """Uniform floats in [low, high): low + (high - low) * random()."""
        low, high = _operand(low), _operand(high)
        return self._affine(_UNIFORM, low, high - low, size, device, "uniform")

    def normal(self, loc=0.0, scale=1.0, size=None, *, device=None):
        """Normal floats: loc + scale * standard_normal()."""
        loc, scale = _operand(loc), _operand(scale)
        _check_non_negative(scale, "normal", "scale")
        return self._affine(_NORMAL, loc, scale, size, device, "normal")

    def exponential(self, scale=1.0, size=None, *, device=None):
        """Exponential floats: scale * standard_exponential()."""
        scale = _operand(scale)
        _check_non_negative(scale, "exponential", "scale")
        return self._affine(_EXPONENTIAL, 0.0, scale, size, device, "exponential")

    def integers(self, low, high=None, size=None, dtype=np.int64, endpoint=False, *, device=None):
        """Integers in [low, high) (or [low, high] with endpoint=True), unbiased.

        `low` and `high` are Python or NumPy integers (not arrays)."""
        if high is None:
            low, high = 0, low
        try:
            low, high = operator.index(low), operator.index(high)
        except TypeError:
            raise TypeError("[random.integers] low and high must be integers; "
                            "arrays of bounds are not supported") from None
        if endpoint:
            high += 1
        if low >= high:
            raise ValueError(f"[random.integers] low >= high ({low} >= {high})")
        dt = np.dtype(dtype)
        if dt == np.bool_:
            lo, hi = 0, 2
        elif dt.kind in "iu":
            info = np.iinfo(dt)
            lo, hi = int(info.min), int(info.max) + 1
        else:
            raise TypeError(f"[random.integers] dtype must be an integer type or bool, not {dt}")
        if low < lo:
            raise ValueError(f"[random.integers] low is out of bounds for {dt}")
        if high > hi:
            raise ValueError(f"[random.integers] high is out of bounds for {dt}")
        range_ = (high - low) & 0xFFFFFFFFFFFFFFFF  # 2^64 values: 0
        return self._stream.draw(_shape(size), dt, device, _INTEGERS, low, range_)

    # -- permutations (argsort of random 64-bit keys) ----------------------------------------

    def _order(self, n, device):
        keys = self._stream.draw((n,), np.uint64, device, _INTEGERS, 0, 0)
        return _core.argsort(keys)

    def permutation(self, x, axis=0, *, device=None):
        """A permuted range (x an int) or a permuted copy of x along `axis`."""
        if isinstance(x, (int, np.integer)):
            n = operator.index(x)
            if n < 0:
                raise ValueError(f"[random.permutation] n must be non-negative, got {n}")
            return self._order(n, device)
        x = _core.asarray(x, device=device) if not isinstance(x, _core.ndarray) else x
        if x.ndim == 0:
            raise ValueError("[random.permutation] x must be an integer or at least 1-dimensional")
        axis = operator.index(axis)
        order = self._order(x.shape[axis], x.device)
        return _core.take(x, order, axis=axis)

    def shuffle(self, x, axis=0):
        """Shuffles an accel array in place along `axis`."""
        if not isinstance(x, _core.ndarray):
            raise TypeError(f"[random.shuffle] x must be an accel.ndarray, got {type(x).__name__}")
        if x.ndim == 0:
            raise ValueError("[random.shuffle] x must be at least 1-dimensional")
        shuffled = self.permutation(x, axis=axis)
        x[...] = shuffled

    def choice(self, a, size=None, replace=True, p=None, axis=0, shuffle=True, *, device=None):
        """Samples from a (an int: arange(a)) along `axis`, with or without replacement; with
        `p`, each entry with its probability (without replacement: successive draws among the
        entries left, each in proportion to its p, as NumPy's)."""
        if isinstance(a, (int, np.integer)):
            n, population = operator.index(a), None
            if n <= 0:
                raise ValueError("[random.choice] a must be a positive integer or a non-empty array")
        else:
            population = a if isinstance(a, _core.ndarray) else _core.asarray(a, device=device)
            if population.ndim == 0:
                raise ValueError("[random.choice] a must be 1-dimensional or an integer")
            axis = operator.index(axis)
            n = population.shape[axis]
            if n == 0:
                raise ValueError("[random.choice] a cannot be empty unless no samples are taken")
            device = population.device
        shape = _shape(size)
        k = int(np.prod(shape, dtype=np.int64))
        if p is not None:
            picks = self._weighted_picks(_probabilities(p, n), shape, k, replace, device)
        elif replace:
            picks = self._stream.draw(shape, np.int64, device, _INTEGERS, 0, n)
        else:
            if k > n:
                raise ValueError("[random.choice] cannot take a larger sample than population "
                                 "when replace=False")
            picks = _core.reshape(self._order(n, device)[:k], shape)
        if population is None:
            return picks
        return _core.take(population, picks, axis=axis)

    def _weighted_picks(self, p, shape, k, replace, device):
        probs = _core.asarray(p, device=device)
        if replace:
            # Inverse CDF: the first entry whose cumulative probability exceeds u (an entry of
            # probability 0 spans an empty interval, so it is never picked).
            cdf = _core.cumsum(probs)
            u = self._stream.draw(shape, np.float64, device, _UNIFORM) * cdf[-1]
            return _core.clip(_core.searchsorted(cdf, u, side="right"), 0, len(p) - 1)
        if k > int(np.count_nonzero(p)):
            raise ValueError("[random.choice] fewer non-zero entries in p than size")
        # Exponential clocks: entry i rings at E_i / p_i; the entries in the order they ring are
        # successive draws without replacement, each in proportion to p among those left
        # (Efraimidis and Spirakis); p_i = 0 never rings.
        clocks = self._stream.draw((len(p),), np.float64, device, _EXPONENTIAL) / probs
        return _core.reshape(_core.argsort(clocks)[:k], shape)

    def permuted(self, x, *, axis=None, out=None):
        """x with each slice along `axis` shuffled independently (axis=None: all elements as
        one); into `out` when given (which may be x itself)."""
        x = x if isinstance(x, _core.ndarray) else _core.asarray(x)
        if axis is None:
            keys = self._stream.draw((x.size,), np.uint64, x.device, _INTEGERS, 0, 0)
            result = _core.reshape(_core.take(_core.reshape(x, (-1,)), _core.argsort(keys)),
                                   x.shape)
        else:
            axis = operator.index(axis)
            if not -x.ndim <= axis < x.ndim:
                raise np.exceptions.AxisError(axis, x.ndim, "[random.permuted]")
            keys = self._stream.draw(x.shape, np.uint64, x.device, _INTEGERS, 0, 0)
            result = _core.take_along_axis(x, _core.argsort(keys, axis=axis), axis=axis)
        if out is None:
            return result
        if not isinstance(out, _core.ndarray) or out.shape != x.shape:
            raise ValueError(f"[random.permuted] out must be an accel array of shape {x.shape}")
        out[...] = result
        return out

    def multivariate_normal(self, mean, cov, size=None, check_valid="warn", tol=1e-8, *,
                            method="svd", device=None):
        """Normal vectors with mean `mean` (n,) and covariance `cov` (n, n): standard normals
        times a factor F of cov (F^T F = cov) plus mean. method: svd (default, as NumPy; cov
        may be singular), eigh, or cholesky (positive definite cov only, the fastest).
        check_valid: warn, raise or ignore when cov is not positive semi-definite (svd)."""
        from . import linalg

        mean = mean if isinstance(mean, _core.ndarray) else _core.asarray(mean, dtype=_core.float64, device=device)
        cov = cov if isinstance(cov, _core.ndarray) else _core.asarray(cov, dtype=_core.float64, device=device)
        if mean.ndim != 1 or cov.ndim != 2 or cov.shape != (mean.shape[0], mean.shape[0]):
            raise ValueError("[random.multivariate_normal] mean must be 1-d and cov square of "
                             f"the same size; got shapes {mean.shape} and {cov.shape}")
        if check_valid not in ("warn", "raise", "ignore"):
            raise ValueError("[random.multivariate_normal] check_valid must be warn, raise or ignore")
        if method == "cholesky":
            factor = _core.matrix_transpose(linalg.cholesky(cov))
        elif method == "eigh":
            s, u = linalg.eigh(cov)
            factor = _core.matrix_transpose(u * _core.sqrt(_core.abs(s)))
        elif method == "svd":
            u, s, vh = linalg.svd(cov)
            factor = _core.sqrt(s)[:, None] * vh
            if check_valid != "ignore":
                psd = np.allclose(_core.asnumpy(_core.matrix_transpose(vh) * s @ vh),
                                  _core.asnumpy(cov), rtol=tol, atol=tol)
                if not psd and check_valid == "warn":
                    import warnings
                    warnings.warn("covariance is not symmetric positive-semidefinite.",
                                  RuntimeWarning, stacklevel=2)
                elif not psd:
                    raise ValueError("[random.multivariate_normal] covariance is not symmetric "
                                     "positive-semidefinite.")
        else:
            raise ValueError("[random.multivariate_normal] method must be svd, eigh or cholesky")
        shape = _shape(size) + (mean.shape[0],)
        z = self._stream.draw(shape, np.float64, mean.device, _NORMAL)
        return z @ _core.astype(factor, _core.float64) + mean

    # -- streams -----------------------------------------------------------------------------

    def spawn(self, n_children):
        """`n_children` new Generators with their own keys, independent of this one."""
        n = operator.index(n_children)
        if n < 0:
            raise ValueError(f"[random.spawn] n_children must be non-negative, got {n}")
        return [Generator(self._stream.spawn()) for _ in range(n)]


def _operand(x):
    """Bounds and parameters as they are (accel arrays, numbers), array-likes through NumPy."""
    if isinstance(x, (_core.ndarray, int, float, np.generic)):
        return x
    return np.asarray(x, dtype=np.float64)


def _is_real_number(x):
    """A Python or NumPy real scalar whose float64 value is exactly what `base * x` uses."""
    return isinstance(x, (int, float, np.integer, np.floating)) and not isinstance(x, np.longdouble)


def _probabilities(p, n):
    """choice's p as float64 NumPy values, checked as NumPy checks them."""
    p = np.asarray(p, dtype=np.float64)
    if p.ndim != 1 or p.shape[0] != n:
        raise ValueError(f"[random.choice] p must be 1-dimensional with one entry per choice ({n}), "
                         f"got shape {p.shape}")
    if not np.all(np.isfinite(p)) or np.any(p < 0):
        raise ValueError("[random.choice] probabilities are not non-negative finite numbers")
    if abs(p.sum() - 1) > np.sqrt(np.finfo(np.float64).eps):
        raise ValueError(f"[random.choice] probabilities do not sum to 1 (they sum to {p.sum()!r})")
    return p


def _param_array(x, device):
    """A distribution's parameter array as an accel array (on `device` when given)."""
    if isinstance(x, _core.ndarray):
        return x if device is None or x.device == device else _core.asarray(x, device=device)
    return _core.asarray(np.asarray(x, dtype=np.float64), device=device)


def _per_element_shape(size, op, *params):
    """The shape of a draw with array parameters: theirs broadcast together, or `size`, which
    they must broadcast to (NumPy's rule)."""
    shapes = [tuple(np.shape(x)) for x in params]
    try:
        shape = np.broadcast_shapes(*shapes)
    except ValueError:
        raise ValueError(f"[random.{op}] parameter shapes {shapes} do not broadcast together") from None
    if size is None:
        return shape
    size = _shape(size)
    try:
        fits = np.broadcast_shapes(size, shape) == size
    except ValueError:
        fits = False
    if not fits:
        raise ValueError(f"[random.{op}] parameters of shape {shape} do not broadcast to size {size}")
    return size


def _positive(value, op, name):
    """Checks that a parameter (number or accel array) is positive (NaN fails), as NumPy's
    beta does; returns a number as a float."""
    if isinstance(value, _core.ndarray):
        if not bool(_core.all(_core.greater(value, 0))):
            raise ValueError(f"[random.{op}] {name} <= 0")
        return value
    if not float(value) > 0:
        raise ValueError(f"[random.{op}] {name} <= 0")
    return float(value)


def _check_non_negative(value, op, name):
    if isinstance(value, _core.ndarray):
        bad = bool(_core.any(_core.less(value, 0)))
    else:
        bad = bool(np.any(np.asarray(value) < 0))
    if bad:
        raise ValueError(f"[random.{op}] {name} < 0")


def default_rng(seed=None):
    """A Generator seeded by `seed`: None (fresh entropy), a non-negative int, a sequence of
    them, or a Generator (returned as it is). NumPy's stream for the same seed is not
    reproduced; accel's is the same on every device."""
    if isinstance(seed, Generator):
        return seed
    if seed is None:
        seed = secrets.randbits(128)
    elif isinstance(seed, (float, str, bytes)) or not (
            isinstance(seed, (int, np.integer)) or hasattr(seed, "__iter__")):
        raise TypeError(f"[random.default_rng] seed must be None, an int or a sequence of ints, "
                        f"got {type(seed).__name__}")
    key = _core._PhiloxStream.key_from_words(_seed_words(seed))
    return Generator(_core._PhiloxStream(key))


class RandomState:
    """numpy.random.RandomState's method names over accel's Generator, for libraries that make
    one per chunk from a seed: ``dask.array.random.RandomState(seed,
    RandomState=accel.random.RandomState)`` gives Dask arrays whose chunks are accel arrays drawn
    by Philox. The seed may be anything :func:`default_rng` takes (Dask passes each chunk a
    sequence of 32-bit words). NumPy's RandomState stream (Mersenne Twister) is not reproduced."""

    def __init__(self, seed=None):
        self._rng = default_rng(seed)

    def random_sample(self, size=None):
        return self._rng.random(size=size)

    random = random_sample

    def standard_normal(self, size=None):
        return self._rng.standard_normal(size=size)

    def normal(self, loc=0.0, scale=1.0, size=None):
        return self._rng.normal(loc, scale, size=size)

    def uniform(self, low=0.0, high=1.0, size=None):
        return self._rng.uniform(low, high, size=size)

    def standard_exponential(self, size=None):
        return self._rng.standard_exponential(size=size)

    def exponential(self, scale=1.0, size=None):
        return self._rng.exponential(scale, size=size)

    def randint(self, low, high=None, size=None, dtype=int):
        # RandomState.randint: [0, low) with one bound; int means int64 (NumPy on Linux).
        dtype = np.int64 if dtype is int else dtype
        return self._rng.integers(low, high, size=size, dtype=dtype)

    def permutation(self, x):
        return self._rng.permutation(x)

    def shuffle(self, x):
        self._rng.shuffle(x)
