"""NumPy's bit packing (packbits, unpackbits) and the matrix-vector gufuncs of NumPy 2.2 (matvec,
vecmat). Each is composed from accel ops (shifts, a weighted sum over a length-8 axis, matmul),
so it runs on every device, and follows NumPy 2.4's signature and dtypes: `np.packbits(a)` and
`np.matvec(a, b)` with accel arrays land here through NumPy's dispatch protocols (matvec and
vecmat are ufuncs, found by name through `__array_ufunc__`). vecdot is accel's own
(accel.vecdot, which conjugates its first argument as NumPy's)."""

import operator as _operator

from . import _core
from ._common import as_array as _arr, axis_index as _axis_index
from ._indexing import copyto as _copyto

__all__ = ["packbits", "unpackbits", "matvec", "vecmat"]


# ---- bit packing ------------------------------------------------------------------------------

def _integer_argument(value, what, name):
    """value as a Python int, as NumPy's C argument parsers take it: bools and floats refused."""
    if isinstance(value, bool):
        raise TypeError(f"[{name}] {what} must be an integer, got a bool")
    try:
        return _operator.index(value)
    except TypeError:
        raise TypeError(f"[{name}] {what} must be an integer, got {type(value).__name__}") \
            from None


def _bit_weights(bitorder, device, name):
    """The value of each of a byte's 8 bits, first bit first: 128..1 ('big') or 1..128."""
    if not isinstance(bitorder, str):
        raise TypeError(f"[{name}] bitorder must be a str, got {type(bitorder).__name__}")
    if bitorder not in ("big", "little"):
        raise ValueError(f"[{name}] bitorder must be either 'little' or 'big', got {bitorder!r}")
    shifts = range(7, -1, -1) if bitorder == "big" else range(8)
    return _core.asarray([1 << s for s in shifts], dtype=_core.uint8, device=device)


def _bit_axis_last(x, axis, name):
    """x with the packing axis moved last, and that axis: axis=None flattens; a 0-d array is
    taken as 1-d, as NumPy's packbits/unpackbits take it."""
    if axis is None or x.ndim == 0:
        x = _core.reshape(x, (-1,))
    if axis is None:
        return x, 0
    axis = _axis_index(_integer_argument(axis, "axis", name), x.ndim, name)
    return _core.moveaxis(x, axis, -1), axis


def packbits(a, /, axis=None, bitorder="big"):
    """The elements of a (bools or integers; nonzero is a 1 bit) packed 8 to a uint8 along axis
    (axis=None: the flattened array), the last byte padded with 0 bits. bitorder 'big' puts the
    first element in the most significant bit, 'little' in the least."""
    x = _arr(a)
    if x.dtype.kind not in "biu":
        raise TypeError(f"[packbits] expected an input array of integer or boolean data type, "
                        f"got {x.dtype.name}")
    weights = _bit_weights(bitorder, x.device, "packbits")
    x, axis = _bit_axis_last(x, axis, "packbits")
    bits = _core.astype(x != 0, _core.uint8)
    batch, n = tuple(bits.shape[:-1]), bits.shape[-1]
    nbytes = -(-n // 8)
    if nbytes * 8 != n:
        pad = _core.zeros(batch + (nbytes * 8 - n,), dtype=_core.uint8, device=x.device)
        bits = _core.concat([bits, pad], axis=-1)
    # Distinct powers of two sum to at most 255: exact in uint8.
    packed = _core.sum(_core.reshape(bits, batch + (nbytes, 8)) * weights, axis=-1,
                       dtype=_core.uint8)
    return _core.moveaxis(packed, -1, axis)


def unpackbits(a, /, axis=None, count=None, bitorder="big"):
    """The bits of the uint8 array a as uint8 0s and 1s along axis (axis=None: the flattened
    array), 8 per byte, in bitorder ('big': most significant first). count keeps that many bits
    (a negative count drops -count from the end; a count past the bits there pads with 0s)."""
    x = _arr(a)
    if x.dtype != _core.uint8:
        raise TypeError(f"[unpackbits] expected an input array of unsigned byte data type "
                        f"(uint8), got {x.dtype.name}")
    weights = _bit_weights(bitorder, x.device, "unpackbits")
    x, axis = _bit_axis_last(x, axis, "unpackbits")
    batch, n = tuple(x.shape[:-1]), x.shape[-1] * 8
    if count is not None:
        count = _integer_argument(count, "count", "unpackbits")
        if count < 0:
            if -count > n:
                raise ValueError(f"[unpackbits] -count ({-count}) is larger than the number of "
                                 f"bits along the axis ({n})")
            count += n
    bits = _core.astype((_core.expand_dims(x, -1) & weights) != 0, _core.uint8)
    bits = _core.reshape(bits, batch + (n,))
    if count is not None and count < n:
        bits = bits[..., :count]
    elif count is not None and count > n:
        pad = _core.zeros(batch + (count - n,), dtype=_core.uint8, device=x.device)
        bits = _core.concat([bits, pad], axis=-1)
    return _core.moveaxis(bits, -1, axis)


# ---- matrix-vector products -------------------------------------------------------------------

def _core_axes(axes, core_dims, name):
    """The gufunc axes= argument as one tuple of core axes per operand (inputs, then output);
    an operand with one core dimension may give it as an int, as NumPy allows."""
    if axes is None:
        return [tuple(range(-n, 0)) for n in core_dims]
    if len(axes) != len(core_dims):
        raise ValueError(f"[{name}] axes= should be a list with an entry for each of its "
                         f"{len(core_dims)} operands, got {len(axes)}")
    parsed = []
    for entry, n in zip(axes, core_dims):
        entry = (entry,) if isinstance(entry, int) and n == 1 else tuple(entry)
        if len(entry) != n:
            raise ValueError(f"[{name}] axes= entry {entry} should have {n} axes")
        parsed.append(entry)
    return parsed


def _gufunc_operands(name, signature, core_dims, x1, x2, dtype, casting, axes):
    """x1, x2 with their core axes last, cast to the loop dtype (dtype=, else their promoted
    dtype, each cast allowed by casting= as NumPy's), and the output's core axis; their batch
    shapes must broadcast together."""
    a, b = _arr(x1), _arr(x2)
    ax = _core_axes(axes, core_dims, name)
    for i, (x, n) in enumerate(zip((a, b), core_dims)):
        if x.ndim < n:
            raise ValueError(f"[{name}] input operand {i} does not have enough dimensions (has "
                             f"{x.ndim}, gufunc core with signature {signature} requires {n})")
    a = _core.moveaxis(a, ax[0], tuple(range(-core_dims[0], 0)))
    b = _core.moveaxis(b, ax[1], tuple(range(-core_dims[1], 0)))
    dt = _core.result_type(a, b) if dtype is None else _core.result_type(dtype)
    for i, x in enumerate((a, b)):
        if not _core.can_cast(x.dtype, dt, casting=casting):
            raise TypeError(f"[{name}] cannot cast input {i} from {x.dtype.name} to {dt.name} "
                            f"with casting rule {casting!r}")
    batch_a = tuple(a.shape[:a.ndim - core_dims[0]])
    batch_b = tuple(b.shape[:b.ndim - core_dims[1]])
    try:
        _core.broadcast_shapes(batch_a, batch_b)
    except ValueError:
        raise _core.ShapeError(f"[{name}] the batch shapes {batch_a} and {batch_b} of inputs "
                               f"of shapes {tuple(a.shape)} and {tuple(b.shape)} cannot be "
                               "broadcast together") from None
    return _core.astype(a, dt, copy=False), _core.astype(b, dt, copy=False), ax[2][0]


def _check_contraction(name, signature, a_size, b_size):
    if a_size != b_size:
        raise _core.ShapeError(f"[{name}] input operand 1 has a mismatch in its core dimension "
                               f"n, with gufunc signature {signature} (size {b_size} is "
                               f"different from {a_size})")


def _deliver(name, result, out_axis, out, casting):
    """result (its core axis last) with its core axis at out_axis, or written into the accel
    array out= under casting=. As in NumPy's gufuncs, out='s batch axes take part in the
    broadcast but are never broadcast themselves."""
    if out is None:
        return _core.moveaxis(result, -1, out_axis)
    if isinstance(out, tuple) and len(out) == 1:
        out = out[0]
    if not isinstance(out, _core.ndarray):
        raise TypeError(f"[{name}] out= must be an accel array, got {type(out).__name__}")
    if not -out.ndim <= out_axis < out.ndim:
        raise _core.ShapeError(f"[{name}] out= of shape {tuple(out.shape)} has no core axis "
                               f"{out_axis}")
    core = out.shape[out_axis]
    batch = tuple(d for i, d in enumerate(out.shape) if i != out_axis % out.ndim)
    try:
        fits = tuple(_core.broadcast_shapes(tuple(result.shape[:-1]), batch)) == batch
    except ValueError:
        fits = False
    if core != result.shape[-1] or not fits:
        raise _core.ShapeError(f"[{name}] out= has shape {tuple(out.shape)}, which the result "
                               f"(batch shape {tuple(result.shape[:-1])}, core size "
                               f"{result.shape[-1]} at axis {out_axis}) does not fit")
    if not _core.can_cast(result.dtype, out.dtype, casting=casting):
        raise TypeError(f"[{name}] cannot cast the output from {result.dtype.name} to "
                        f"{out.dtype.name} with casting rule {casting!r}")
    result = _core.broadcast_to(result, batch + (core,))
    _copyto(out, _core.moveaxis(result, -1, out_axis), casting="unsafe")
    return out


_MATVEC = "(m,n),(n)->(m)"
_VECMAT = "(n),(n,m)->(m)"


def matvec(x1, x2, /, out=None, *, dtype=None, casting="same_kind", axes=None):
    """The matrix-vector product of the last two axes of x1 with the last axis of x2, the batch
    axes broadcast: (..., m, n) and (..., n) give (..., m) (NumPy's gufunc matvec, signature
    (m,n),(n)->(m)). bools give bool (logical or of ands). dtype= casts both inputs (under
    casting=) and computes in it; axes= names the core axes of each operand as NumPy's."""
    a, b, out_axis = _gufunc_operands("matvec", _MATVEC, (2, 1, 1), x1, x2, dtype, casting,
                                         axes)
    _check_contraction("matvec", _MATVEC, a.shape[-1], b.shape[-1])
    r = _core.squeeze(_core.matmul(a, _core.expand_dims(b, -1)), axis=-1)
    return _deliver("matvec", r, out_axis, out, casting)


def vecmat(x1, x2, /, out=None, *, dtype=None, casting="same_kind", axes=None):
    """The vector-matrix product of the complex conjugate of x1's last axis with the last two
    axes of x2, the batch axes broadcast: (..., n) and (..., n, m) give (..., m) (NumPy's gufunc
    vecmat, signature (n),(n,m)->(m)). Arguments as matvec's."""
    a, b, out_axis = _gufunc_operands("vecmat", _VECMAT, (1, 2, 1), x1, x2, dtype, casting,
                                         axes)
    _check_contraction("vecmat", _VECMAT, a.shape[-1], b.shape[-2])
    if a.dtype.kind == "c":
        a = _core.conj(a)
    r = _core.squeeze(_core.matmul(_core.expand_dims(a, -2), b), axis=-2)
    return _deliver("vecmat", r, out_axis, out, casting)
