"""accel.linalg: the Array API linalg extension and NumPy's numpy.linalg on accel arrays.

The decompositions and solvers (cholesky, inv, solve, det, slogdet, eigh, eigvalsh, eig, eigvals,
svd, svdvals, qr, and pinv and matrix_rank on the SVD) are C++ ops over LAPACK
(accel/ops/linalg_decompose.h), batched over the leading axes and spread over accel's threads.
The rest are compositions of those and of accel's own ops, written here: the norms, lstsq, cond,
cross, matrix_power, multi_dot (in the cheapest order), and the hermitian= forms of svd, pinv and
matrix_rank (from eigh). CUDA arrays run on cuSOLVER (loaded at run time; eig/eigvals need
cusolverDnXgeev, CUDA 12.6); without it they raise BackendUnavailable."""

import math
import operator
from typing import NamedTuple

from . import _core
from ._core import matmul, tensordot, vecdot  # noqa: F401
from ._numpy_functions import cross_last

LinAlgError = _core._LinAlgError

__all__ = ["LinAlgError", "EighResult", "EigResult", "QRResult", "SlogdetResult", "SVDResult",
           "cholesky", "cond", "cross", "det", "diagonal", "eig", "eigh", "eigvals", "eigvalsh",
           "inv", "lstsq", "matmul", "matrix_norm", "matrix_power", "matrix_rank",
           "matrix_transpose", "multi_dot", "norm", "outer", "pinv", "qr", "slogdet", "solve",
           "svd", "svdvals", "tensordot", "trace", "vecdot", "vector_norm"]


class EighResult(NamedTuple):
    eigenvalues: object
    eigenvectors: object


class EigResult(NamedTuple):
    eigenvalues: object
    eigenvectors: object


class QRResult(NamedTuple):
    Q: object
    R: object


class SlogdetResult(NamedTuple):
    sign: object
    logabsdet: object


class SVDResult(NamedTuple):
    U: object
    S: object
    Vh: object


def _accel():
    import accel
    return accel


def _array(x):
    return x if isinstance(x, _core.ndarray) else _accel().asarray(x)


# The dtypes linalg computes in as they are: isdtype(d, ("real floating", "complex floating")),
# kept (asking costs a microsecond, more than a small vector's norm).
_INEXACT = frozenset((_core.float16, _core.bfloat16, _core.float32, _core.float64,
                      _core.complex64, _core.complex128))
_REAL_DOT = frozenset((_core.float32, _core.float64))
_COMPLEX = frozenset((_core.complex64, _core.complex128))


def _inexact(x):
    """x in the dtype NumPy's linalg computes in: integers and bool as float64."""
    x = _array(x)
    if x.dtype in _INEXACT:
        return x
    return _core.astype(x, _core.float64)


def _eps(x):
    return _accel().finfo(x.dtype).eps


def _mT(x):
    return _accel().matrix_transpose(x)


def _upper_as_lower(a, UPLO):
    """The matrix whose lower triangle is a's UPLO triangle (a's conjugate transpose for 'U')."""
    if UPLO not in ("L", "U"):
        raise ValueError(f"[eigh] UPLO must be 'L' or 'U', got {UPLO!r}")
    a = _array(a)
    return a if UPLO == "L" else _accel().conj(_mT(a))


# --- the LAPACK-backed ops ---

def cholesky(x, /, *, upper=False):
    return _core._linalg_cholesky(x, bool(upper))


def inv(x, /):
    return _core._linalg_inv(x)


def solve(x1, x2, /):
    return _core._linalg_solve(x1, x2)


def det(x, /):
    return _core._linalg_det(x)


def slogdet(x, /):
    return SlogdetResult(*_core._linalg_slogdet(x))


def eigh(x, /, UPLO="L"):
    return EighResult(*_core._linalg_eigh(_upper_as_lower(x, UPLO)))


def eigvalsh(x, /, UPLO="L"):
    return _core._linalg_eigvalsh(_upper_as_lower(x, UPLO))


def eig(x, /):
    return EigResult(*_core._linalg_eig(x))


def eigvals(x, /):
    return _core._linalg_eigvals(x)


def svd(x, /, full_matrices=True, compute_uv=True, hermitian=False):
    """hermitian=True: x is Hermitian (real symmetric), and its SVD comes from its
    eigendecomposition, as NumPy computes it: the singular values are the eigenvalues' absolute
    values, largest first, U the eigenvectors and Vh their conjugate transpose with each row
    times the eigenvalue's sign."""
    if hermitian:
        return _hermitian_svd(_inexact(x), compute_uv)
    if not compute_uv:
        return _core._linalg_svdvals(x)
    return SVDResult(*_core._linalg_svd(x, bool(full_matrices)))


def _hermitian_svd(x, compute_uv):
    ac = _accel()
    if not compute_uv:
        return ac.flip(ac.sort(ac.abs(eigvalsh(x)), axis=-1), axis=-1)
    w, v = eigh(x)
    sign = ac.sign(w)
    s = ac.abs(w)
    order = ac.flip(ac.argsort(s, axis=-1, stable=True), axis=-1)
    s, sign = ac.take_along_axis(s, order, axis=-1), ac.take_along_axis(sign, order, axis=-1)
    u = ac.take_along_axis(v, ac.expand_dims(order, axis=-2), axis=-1)
    vh = ac.conj(_mT(u * ac.expand_dims(sign, axis=-2).astype(u.dtype)))
    return SVDResult(u, s, vh)


def svdvals(x, /):
    return _core._linalg_svdvals(x)


def qr(x, /, mode="reduced"):
    """mode 'reduced', 'complete' (Q, R), 'r' (R alone) or NumPy's 'raw' (h, tau: geqrf's
    output, h transposed as NumPy returns it)."""
    if mode in ("r", "raw"):
        return _core._linalg_qr(x, mode)
    return QRResult(*_core._linalg_qr(x, mode))


# --- compositions ---

def _svd_cutoff(s, rtol, shape):
    """Singular values at or below this are zero: rtol (default max(M, N) * eps) times the
    largest, per matrix."""
    ac = _accel()
    if rtol is None:
        rtol = max(shape[-2:]) * _eps(s)
    return rtol * ac.max(s, axis=-1, keepdims=True) if s.shape[-1] else ac.zeros_like(s)


def pinv(x, /, rcond=None, hermitian=False, *, rtol=None):
    """The Moore-Penrose pseudo-inverse (C++, from the SVD). rtol (Array API) or rcond (NumPy)
    is the relative cutoff; without either, max(M, N) * eps (the Array API's default).
    hermitian=True: from the eigendecomposition (svd(hermitian=True)), as NumPy."""
    cutoff = rtol if rtol is not None else rcond
    if not hermitian:
        return _core._linalg_pinv(x, cutoff)
    ac = _accel()
    u, s, vh = svd(_inexact(x), hermitian=True)
    keep = s > _svd_cutoff(s, cutoff, u.shape)
    s_inv = ac.where(keep, 1 / ac.where(keep, s, 1), 0).astype(s.dtype)
    return matmul(ac.conj(_mT(vh)), ac.expand_dims(s_inv, axis=-1).astype(u.dtype) * ac.conj(_mT(u)))


def matrix_rank(x, /, tol=None, hermitian=False, *, rtol=None):
    """Singular values above tol (absolute, NumPy) or rtol * the largest (Array API; default
    max(M, N) * eps), counted per matrix. A vector's rank is 1 unless it is all zeros (NumPy)."""
    ac = _accel()
    x = _array(x)
    if x.ndim < 2:
        return ac.astype(ac.any(x != 0), ac.int64)
    if not hermitian:
        return _core._linalg_matrix_rank(x, rtol, tol)
    # The singular values of a Hermitian matrix are its eigenvalues' absolute values.
    s = ac.abs(eigvalsh(_inexact(x)))
    cutoff = _svd_cutoff(s, rtol, x.shape) if tol is None else tol
    return ac.astype(ac.sum(s > cutoff, axis=-1), ac.int64)


def lstsq(a, b, rcond=None):
    """NumPy's lstsq from the SVD of a (M, N): (x, residuals, rank, s). Singular values at or
    below rcond * the largest (default max(M, N) * eps) count as zero, as in LAPACK's gelsd."""
    ac = _accel()
    a, b = _inexact(a), _inexact(b)
    if a.ndim != 2:
        raise LinAlgError(f"[lstsq] {a.ndim}-dimensional array given. Array must be "
                          "two-dimensional")
    if b.ndim not in (1, 2):
        raise LinAlgError(f"[lstsq] b must be 1- or 2-dimensional, got {b.ndim} dimensions")
    m, n = a.shape
    if b.shape[0] != m:
        raise LinAlgError(f"[lstsq] Incompatible dimensions: a has {m} rows, b {b.shape[0]}")
    dtype = ac.result_type(a, b)
    a, b = ac.astype(a, dtype), ac.astype(b, dtype)
    vector = b.ndim == 1
    b2 = ac.reshape(b, (m, 1)) if vector else b
    u, s, vh = svd(a, full_matrices=False)
    cutoff = _svd_cutoff(s, rcond, a.shape)
    keep = s > cutoff
    s_inv = ac.where(keep, 1 / ac.where(keep, s, 1), 0).astype(s.dtype)
    x = matmul(ac.conj(_mT(vh)),
               ac.expand_dims(s_inv, axis=-1) * matmul(ac.conj(_mT(u)), b2))
    rank = int(ac.count_nonzero(keep))
    if rank == n and m > n:
        residuals = ac.sum(ac.abs(b2 - matmul(a, x)) ** 2, axis=0)
    else:
        residuals = ac.empty((0,), dtype=s.dtype)
    return (ac.reshape(x, (n,)) if vector else x), residuals, rank, s


def _flat_norm2(x):
    """The 2-norm of every element of a float or complex x, as NumPy computes it: the square root
    of a dot of the flattened array, in memory order, and for complex x the dots of its real and
    imaginary parts."""
    flat = x.ravel("K")
    if x.dtype in _COMPLEX:
        re, im = flat.real, flat.imag
        return _core.sqrt(vecdot(re, re) + vecdot(im, im))
    return _core.sqrt(vecdot(flat, flat))


def vector_norm(x, /, *, axis=None, keepdims=False, ord=2):
    ac = _accel()
    x = _inexact(x)
    if axis is None:
        axes = tuple(range(x.ndim))
    elif isinstance(axis, tuple):
        axes = tuple(operator.index(a) for a in axis)
    else:
        axes = (operator.index(axis),)
    if ord == 2 and x.ndim and len({d % x.ndim for d in axes}) == x.ndim and \
            x.dtype in (ac.float32, ac.float64, ac.complex64, ac.complex128):
        # Over every axis, NumPy's norm is the square root of a dot of the flattened array
        # (BLAS), one pass over memory: abs, square and sum took 10x its time. In memory order
        # (no copy of a transposed x), and for complex x the dots of its real and imaginary
        # parts (views), as NumPy's: a complex dot sums in complex and loses a few more digits.
        r = _flat_norm2(x)
        return ac.reshape(r, (1,) * x.ndim) if keepdims else r
    a = ac.abs(x)
    if ord == 2:
        r = ac.sqrt(ac.sum(a * a, axis=axes, keepdims=keepdims))
    elif ord == 1:
        r = ac.sum(a, axis=axes, keepdims=keepdims)
    elif ord == math.inf:
        r = ac.max(a, axis=axes, keepdims=keepdims) if a.size else \
            ac.zeros(ac.sum(a, axis=axes, keepdims=keepdims).shape, dtype=a.dtype)
    elif ord == -math.inf:
        r = ac.min(a, axis=axes, keepdims=keepdims)
    elif ord == 0:
        r = ac.astype(ac.sum(a != 0, axis=axes, keepdims=keepdims), a.dtype)
    else:
        r = ac.sum(a ** ord, axis=axes, keepdims=keepdims) ** (1 / ord)
    return ac.astype(r, a.dtype, copy=False)


def _largest(v):
    """max over the last axis, 0 where it is empty: NumPy's norms take the max with initial=0
    (the min forms have no such default and raise on an empty axis, in both)."""
    ac = _accel()
    return ac.max(v, axis=-1) if v.shape[-1] else ac.sum(v, axis=-1)


def matrix_norm(x, /, *, keepdims=False, ord="fro"):
    ac = _accel()
    x = _inexact(x)
    if x.ndim < 2:
        raise LinAlgError(f"[matrix_norm] {x.ndim}-dimensional array given. Array must be at "
                          "least two-dimensional")
    a = ac.abs(x)
    if ord == "fro":
        r = ac.sqrt(ac.sum(a * a, axis=(-2, -1)))
    elif ord == "nuc":
        r = ac.sum(svdvals(x), axis=-1)
    elif ord in (2, -2):
        s = svdvals(x)
        r = _largest(s) if ord == 2 else ac.min(s, axis=-1)
    elif ord in (1, -1):
        col = ac.sum(a, axis=-2)
        r = _largest(col) if ord == 1 else ac.min(col, axis=-1)
    elif ord in (math.inf, -math.inf):
        row = ac.sum(a, axis=-1)
        r = _largest(row) if ord == math.inf else ac.min(row, axis=-1)
    else:
        raise ValueError(f"[matrix_norm] Invalid norm order {ord!r} for matrices")
    if keepdims:
        r = ac.expand_dims(ac.expand_dims(r, axis=-1), axis=-1)
    return ac.astype(r, a.dtype, copy=False)


def norm(x, ord=None, axis=None, keepdims=False):
    """NumPy's norm: a vector norm over one axis (or the flattened array when axis and ord are
    None), a matrix norm over two."""
    if ord is None and axis is None and not keepdims and type(x) is _core.ndarray and \
            x.dtype in _REAL_DOT:
        # The commonest call, norm(v) of a real float v: vector_norm's answer without its
        # argument handling (4 us of a 10-element norm).
        return _flat_norm2(x)
    ac = _accel()
    x = _inexact(x)
    if axis is None:
        if ord is None or x.ndim == 1:
            r = vector_norm(x, axis=None, ord=2 if ord is None else ord)
            return ac.reshape(r, (1,) * x.ndim) if keepdims else r
        if x.ndim != 2:
            raise ValueError("[norm] Improper number of dimensions to norm.")
        axis = (0, 1)
    if isinstance(axis, int) or (isinstance(axis, tuple) and len(axis) == 1):
        return vector_norm(x, axis=axis, keepdims=keepdims, ord=2 if ord is None else ord)
    if len(axis) != 2:
        raise ValueError("[norm] Improper number of dimensions to norm.")
    r0, r1 = (operator.index(a) % x.ndim for a in axis)
    if r0 == r1:
        raise ValueError("[norm] Duplicate axes given.")
    moved = ac.moveaxis(x, (r0, r1), (-2, -1))
    r = matrix_norm(moved, ord="fro" if ord is None else ord)
    if keepdims:
        for a in sorted((r0, r1)):
            r = ac.expand_dims(r, axis=a)
    return r


def cond(x, p=None):
    """The condition number: the ratio of extreme singular values for p None, 2 or -2, else
    norm(x, p) * norm(inv(x), p)."""
    ac = _accel()
    x = _inexact(x)
    if p in (None, 2, -2):
        s = svdvals(x)
        r = s[..., 0] / s[..., -1] if p != -2 else s[..., -1] / s[..., 0]
        return r
    return matrix_norm(x, ord=p) * matrix_norm(inv(x), ord=p)


def cross(x1, x2, /, *, axis=-1):
    """The cross product of 3-element vectors along axis, after broadcasting x1 with x2."""
    ac = _accel()
    x1, x2 = ac.broadcast_arrays(_array(x1), _array(x2))
    if not -x1.ndim <= axis < x1.ndim:
        raise _core.AxisError(f"[cross] axis {axis} is out of bounds for {x1.ndim} dimensions")
    if x1.shape[axis] != 3:
        raise ValueError(f"[cross] both inputs must have 3 elements along axis {axis}; the "
                         f"broadcast shape is {x1.shape}")
    r = cross_last(ac.moveaxis(x1, axis, -1), ac.moveaxis(x2, axis, -1))
    return ac.moveaxis(r, -1, axis)


def matrix_transpose(x, /):
    return _accel().matrix_transpose(x)


def diagonal(x, /, *, offset=0):
    return _accel().diagonal(x, offset=offset, axis1=-2, axis2=-1)


def trace(x, /, *, offset=0, dtype=None):
    return _accel().trace(x, offset=offset, axis1=-2, axis2=-1, dtype=dtype)


def outer(x1, x2, /):
    x1, x2 = _array(x1), _array(x2)
    if x1.ndim != 1 or x2.ndim != 1:
        raise ValueError(f"[outer] x1 and x2 must be 1-dimensional, got {x1.ndim} and "
                         f"{x2.ndim} dimensions")
    return _core.outer(x1, x2)


def matrix_power(x, n, /):
    """x multiplied by itself n times by repeated squaring; n < 0 powers the inverse."""
    ac = _accel()
    x = _array(x)
    n = operator.index(n)
    if x.ndim < 2 or x.shape[-1] != x.shape[-2]:
        raise LinAlgError(f"[matrix_power] expected a stack of square matrices, got shape "
                          f"{x.shape}")
    if n == 0:
        eye = ac.eye(x.shape[-1], dtype=x.dtype)
        return ac.broadcast_to(eye, x.shape).copy()
    if n < 0:
        x, n = inv(x), -n
    result, base = None, x
    while n:
        if n & 1:
            result = base if result is None else matmul(result, base)
        n >>= 1
        if n:
            base = matmul(base, base)
    return result


def _chain_order(dims):
    """The cheapest parenthesisation of a chain of matrices, matrix i being dims[i] x dims[i+1]
    (the classic dynamic programme over scalar multiplications, as NumPy's multi_dot):
    split[i][j] is where the product of matrices i..j is cut."""
    n = len(dims) - 1
    cost = [[0] * n for _ in range(n)]
    split = [[0] * n for _ in range(n)]
    for length in range(1, n):
        for i in range(n - length):
            j = i + length
            cost[i][j] = math.inf
            for k in range(i, j):
                c = cost[i][k] + cost[k + 1][j] + dims[i] * dims[k + 1] * dims[j + 1]
                if c < cost[i][j]:
                    cost[i][j], split[i][j] = c, k
    return split


def multi_dot(arrays, *, out=None):
    """The product of a chain of matrices in the order that needs the fewest multiplications
    (as NumPy; the values agree to rounding with any order). The first and last may be 1-d,
    as in NumPy: a row and a column vector."""
    ac = _accel()
    arrays = [_array(a) for a in arrays]
    if len(arrays) < 2:
        raise ValueError("[multi_dot] Expecting at least two arrays.")
    first_1d, last_1d = arrays[0].ndim == 1, arrays[-1].ndim == 1
    if first_1d:
        arrays[0] = ac.expand_dims(arrays[0], axis=0)
    if last_1d:
        arrays[-1] = ac.expand_dims(arrays[-1], axis=-1)
    for i, a in enumerate(arrays):
        if a.ndim != 2:
            raise LinAlgError(f"[multi_dot] array {i} is {a.ndim}-dimensional; the first and last "
                              "may be 1- or 2-dimensional, the others must be 2-dimensional")
    split = _chain_order([arrays[0].shape[0]] + [a.shape[1] for a in arrays])

    def product(i, j):
        if i == j:
            return arrays[i]
        return matmul(product(i, split[i][j]), product(split[i][j] + 1, j))

    result = product(0, len(arrays) - 1)
    if first_1d and last_1d:
        result = result[0, 0]
    elif first_1d:
        result = result[0]
    elif last_1d:
        result = result[:, 0]
    if out is not None:
        ac.copyto(out, result)
        return out
    return result
