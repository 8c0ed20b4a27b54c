"""NumPy's functions about axes, memory layout, dtypes and printing that accel lacked:
rollaxis, fromfunction, fromiter, frombuffer, require, isfortran; the dtype queries issubdtype,
common_type, mintypecode, min_scalar_type and typename; the printing functions array2string,
array_repr, array_str and the print options; and einsum_path. Each follows NumPy 2.4 (its
signature, results and errors) and answers `np.<name>(accel_array, ...)` where NumPy dispatches.

Questions about dtypes, printing and einsum planning are answered by NumPy itself over what it
needs of the accel arguments (their NumPy dtypes, a read-only host view, zero-stride stand-ins
of their shapes), so the answers are NumPy's and no data moves that is not printed."""

import operator as _operator

import numpy as _np

from . import _core
from ._common import as_array as _arr, axis_index as _axis_index
from ._array_api import _bfloat16_text, _host, _printable
from ._np_io import _device_array
from ._np_creation import _like_device, array as _array, indices as _indices
from ._numpy_protocols import _numpy_dtype_of

__all__ = ["rollaxis", "fromfunction", "fromiter", "frombuffer", "require", "isfortran",
           "issubdtype", "common_type", "mintypecode", "min_scalar_type", "typename",
           "array2string", "array_repr", "array_str", "set_printoptions", "get_printoptions",
           "printoptions", "einsum_path", "binary_repr", "base_repr", "format_float_positional",
           "format_float_scientific", "fromstring", "row_stack"]


# ---- axes and memory layout ---------------------------------------------------------------------

def rollaxis(a, axis, start=0):
    """a with `axis` moved to stand before `start` (a view, as NumPy's). NumPy keeps rollaxis
    for old code; moveaxis says the same more plainly."""
    x = _arr(a)
    n = x.ndim
    axis = _axis_index(axis, n, "rollaxis")
    start = _operator.index(start)
    if start < 0:
        start += n
    if not 0 <= start < n + 1:
        raise _core.AxisError(f"[rollaxis] 'start' arg requires {-n} <= start < {n + 1}, but "
                              f"{start} was passed in")
    if axis < start:
        start -= 1  # the axis is removed before it is inserted
    if axis == start:
        return x[...]
    axes = [i for i in range(n) if i != axis]
    axes.insert(start, axis)
    return _core.permute_dims(x, tuple(axes))


def isfortran(a):
    """Whether a is Fortran-contiguous and not C-contiguous (NumPy's flags.fnc): a transposed
    view of a C-ordered array is; 1-d and empty arrays, contiguous both ways, are not."""
    return _arr(a).flags.fnc


def _as_required(a, dtype, device):
    """a itself where it is an accel array of dtype on device (NumPy's require returns its
    argument when nothing needs changing), else a as one, without a copy where none is needed."""
    if isinstance(a, _core.ndarray) and (dtype is None or _core.result_type(dtype) == a.dtype) \
            and (device is None or _core.Device(str(device)) == a.device):
        return a
    return _array(a, dtype=dtype, copy=None, device=device)


# NumPy's require: each name a requirement may be given by, and the flag it stands for.
_REQUIREMENTS = {"C": "C", "C_CONTIGUOUS": "C", "CONTIGUOUS": "C",
                 "F": "F", "F_CONTIGUOUS": "F", "FORTRAN": "F",
                 "A": "A", "ALIGNED": "A",
                 "W": "W", "WRITEABLE": "W",
                 "O": "O", "OWNDATA": "O",
                 "E": "E", "ENSUREARRAY": "E"}


def require(a, dtype=None, requirements=None, *, like=None):
    """a as an accel array of dtype meeting requirements (NumPy's names: 'C'/'C_CONTIGUOUS',
    'A'/'ALIGNED', 'W'/'WRITEABLE', 'O'/'OWNDATA', 'E'/'ENSUREARRAY'), copied only where a
    requirement is not met. accel arrays are always aligned and have no subclasses, so 'A' and
    'E' hold already. accel does not track which arrays own their memory, so 'O' always
    copies. like= (an accel array) places the result on its device."""
    device = _like_device(like, None)
    if not requirements:
        return _as_required(a, dtype, device)
    wanted = set()
    for r in requirements:
        try:
            wanted.add(_REQUIREMENTS[r.upper()])
        except KeyError:
            raise KeyError(f"[require] unknown requirement {r!r}; expected one of "
                           f"{', '.join(_REQUIREMENTS)}") from None
    if wanted >= {"C", "F"}:
        raise ValueError('[require] Cannot specify both "C" and "F" order')
    x = _as_required(a, dtype, device)
    flags = x.flags
    if ("C" in wanted and not flags.c_contiguous) or ("F" in wanted and not flags.f_contiguous) \
            or ("W" in wanted and not flags.writeable) or "O" in wanted:
        return x.copy(order="F" if "F" in wanted else "C")
    return x


# ---- creation from Python objects and memory ---------------------------------------------------

def fromfunction(function, shape, *, dtype=float, like=None, device=None, **kwargs):
    """function(*indices, **kwargs): function called once with one accel array per axis of
    shape, each holding its index along that axis (in dtype, float64 by default), as NumPy's.
    device= (or an accel array as like=) places the index arrays."""
    return function(*_indices(shape, dtype=dtype, device=_like_device(like, device)), **kwargs)


def fromiter(iter, dtype, count=-1, *, like=None, device=None):  # noqa: A002 - NumPy's name
    """A 1-d accel array of the values iter yields, in dtype (required): the first count of
    them, or all when count is -1. NumPy reads the iterator (a host loop either way), then the
    values go to device= (or like='s device)."""
    values = _np.fromiter(iter, dtype=_numpy_dtype_of(dtype), count=count)
    # A copy, so the result is accel's own memory rather than a NumPy array's.
    return _core.asarray(values, device=_like_device(like, device), copy=True)


def frombuffer(buffer, dtype=float, count=-1, offset=0, *, like=None, device=None):
    """A 1-d accel array of the memory of buffer (an object exporting the buffer protocol):
    count items of dtype (all that fit when -1) from byte offset. On the CPU it is the buffer's
    own memory, as NumPy's (writes to either show in the other, and a read-only buffer gives a
    read-only array); on another device it is a copy."""
    dtype = float if dtype is None else _numpy_dtype_of(dtype)
    view = _np.frombuffer(buffer, dtype=dtype, count=count, offset=offset)
    return _core.asarray(view, device=_like_device(like, device))


# ---- dtype queries ------------------------------------------------------------------------------

def issubdtype(arg1, arg2):
    """Whether arg1's dtype is arg2 or below it in NumPy's hierarchy (np.floating, np.integer,
    ...). Either may be an accel or NumPy dtype, a scalar type or an accel array."""
    return _np.issubdtype(_numpy_dtype_of(arg1), _numpy_dtype_of(arg2))


def _dtype_standin(x):
    # What NumPy reads of an array here is its dtype: an empty NumPy array holds just that.
    if isinstance(x, (_core.ndarray, _core.dtype)):
        return _np.empty(0, dtype=_numpy_dtype_of(x))
    return x


def common_type(*arrays):
    """The NumPy inexact scalar type (np.float16, np.float32, np.float64 or a complex type) that
    all arrays convert to; integer arrays count as float64, and a bool array raises TypeError,
    as NumPy's. Takes accel arrays (or dtypes) and NumPy arrays."""
    return _np.common_type(*[_dtype_standin(a) for a in arrays])


def _typechar(t):
    return _numpy_dtype_of(t).char if isinstance(t, (_core.ndarray, _core.dtype)) else t


def mintypecode(typechars, typeset="GDFgdf", default="d"):
    """The character of the smallest dtype in typeset that the types in typechars (type
    characters, accel or NumPy arrays, accel dtypes) safely cast to; default when none is in
    typeset."""
    if isinstance(typechars, _core.ndarray):
        typechars = [typechars.dtype] * min(len(typechars), 1)  # each row's, as NumPy reads
    return _np.mintypecode([_typechar(t) for t in typechars], typeset, default)


def min_scalar_type(a, /):
    """NumPy's min_scalar_type: for a scalar or a 0-d array, the smallest dtype that holds its
    value (so one element of a 0-d accel array is read); for any other array its dtype."""
    if isinstance(a, _core.ndarray):
        return _np.min_scalar_type(_host(a) if a.ndim == 0 else _np.empty(0, _numpy_dtype_of(a)))
    return _np.min_scalar_type(a)


def typename(char):
    """A description of the dtype with type character char ('d' gives 'double precision');
    an accel dtype or array stands for its character. An unknown character raises KeyError."""
    return _np.typename(_typechar(char))


# ---- printing -----------------------------------------------------------------------------------

def _text(a, show):
    """show(host array) for an accel array (a read-only host view; bfloat16 as float32 where
    NumPy cannot print it), NumPy's own answer for anything else."""
    if not isinstance(a, _core.ndarray):
        return show(a)
    return show(_host(a)) if _printable(a) else _bfloat16_text(a, show)


def array2string(a, max_line_width=None, precision=None, suppress_small=None, separator=" ",
                 prefix="", *, formatter=None, threshold=None, edgeitems=None, sign=None,
                 floatmode=None, suffix="", legacy=None):
    """The values of a as NumPy prints them, under the current print options (those given here
    override them for this call)."""
    return _text(a, lambda h: _np.array2string(
        h, max_line_width, precision, suppress_small, separator, prefix, formatter=formatter,
        threshold=threshold, edgeitems=edgeitems, sign=sign, floatmode=floatmode, suffix=suffix,
        legacy=legacy))


def array_repr(arr, max_line_width=None, precision=None, suppress_small=None):
    """repr(arr) with these options: NumPy's array repr, with the device named for arrays off
    the CPU, as accel's repr does."""
    text = _text(arr, lambda h: _np.array_repr(h, max_line_width, precision, suppress_small))
    if isinstance(arr, _core.ndarray) and arr.device.type != "cpu":
        text = f"{text[:-1]}, device='{arr.device}')"
    return text


def array_str(a, max_line_width=None, precision=None, suppress_small=None):
    """str(a) with these options (NumPy's array str)."""
    return _text(a, lambda h: _np.array_str(h, max_line_width, precision, suppress_small))


# accel prints through NumPy's printer, so its print options are NumPy's: setting them here or
# in NumPy changes how both print. (override_repr replaces NumPy's ndarray repr only.)
set_printoptions = _np.set_printoptions
get_printoptions = _np.get_printoptions
printoptions = _np.printoptions


# ---- einsum_path --------------------------------------------------------------------------------

def _shape_standin(x):
    # A NumPy array of x's shape and dtype without x's data: every element is one zero.
    if isinstance(x, _core.ndarray):
        return _np.broadcast_to(_np.zeros((), _numpy_dtype_of(x)), tuple(x.shape))
    return x


def einsum_path(subscripts, *operands, optimize="greedy", einsum_call=False):
    """NumPy's einsum_path: the contraction order optimize picks ('greedy', 'optimal', False
    or an explicit path) and its report, planned from the operands' shapes alone. Takes the
    subscripts string or the interleaved form (operand, sublist, operand, sublist, ...)."""
    args = (subscripts,) + operands
    # In the interleaved form, operands stand at even positions and sublists at odd ones.
    first = 1 if isinstance(subscripts, str) else 0
    step = 1 if isinstance(subscripts, str) else 2
    standins = list(args)
    for i in range(first, len(args), step):
        standins[i] = _shape_standin(args[i])
    result = _np.einsum_path(*standins, optimize=optimize, einsum_call=einsum_call)
    if not einsum_call:
        return result
    originals = {id(s): a for s, a in zip(standins, args)}
    planned, contractions = result
    return [originals.get(id(op), op) for op in planned], contractions


# ---- numbers as text ----------------------------------------------------------------------------

def _python_scalar(x):
    """A 0-d (or one-element) accel array as the Python number NumPy's text functions take."""
    return x.item() if isinstance(x, _core.ndarray) else x


def binary_repr(num, width=None):
    """NumPy's binary_repr of an integer (a 0-d accel array too), two's complement with width."""
    return _np.binary_repr(_operator.index(_python_scalar(num)), width)


def base_repr(number, base=2, padding=0):
    return _np.base_repr(_operator.index(_python_scalar(number)), base, padding)


def _numpy_scalar(x):
    """x as the NumPy scalar of its dtype (float32 prints as float32), for NumPy's formatters."""
    return _host(x)[()] if isinstance(x, _core.ndarray) else x


def format_float_positional(x, *args, **kwargs):
    """NumPy's format_float_positional of a Python or NumPy float or a 0-d accel array."""
    return _np.format_float_positional(_numpy_scalar(x), *args, **kwargs)


def format_float_scientific(x, *args, **kwargs):
    return _np.format_float_scientific(_numpy_scalar(x), *args, **kwargs)


def fromstring(string, dtype=float, count=-1, *, sep, like=None, device=None):
    """NumPy's fromstring of text (sep= is required: NumPy's binary mode is deprecated; use
    frombuffer), as a 1-d accel array."""
    return _device_array(_np.fromstring(string, dtype=dtype, count=count, sep=sep), device)


def row_stack(tup, *, dtype=None, casting="same_kind"):
    """NumPy's row_stack: vstack by its older name."""
    from . import vstack
    return vstack(tup, dtype=dtype, casting=casting)
