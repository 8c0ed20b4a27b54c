"""The Array API and NumPy surface of accel.ndarray that is not arithmetic, written in Python:
repr/str (NumPy's printer on a host copy), pickling, __array_namespace__ and the inspection API
(__array_namespace_info__), finfo/iinfo, isdtype and the constants. The ndarray methods that
use these are bound in python/src/array_protocol_bindings.cpp and forward here."""

import math
import sys

import numpy as _np

from . import _core
from . import cuda as _cuda

__all__ = [
    "__array_api_version__", "__array_namespace_info__", "e", "pi", "inf", "nan", "newaxis",
    "finfo", "iinfo", "isdtype", "clip",
]

__array_api_version__ = "2025.12"
_API_VERSIONS = ("2021.12", "2022.12", "2023.12", "2024.12", "2025.12")

e = math.e
pi = math.pi
inf = math.inf
nan = math.nan
newaxis = None


def _namespace():
    return sys.modules[__name__.rpartition(".")[0]]


def _as_dtype(obj):
    """An accel dtype from an accel/NumPy array, an accel/NumPy dtype, a scalar type or a name."""
    if isinstance(obj, _core.dtype):
        return obj
    if isinstance(obj, _core.ndarray) or isinstance(getattr(obj, "dtype", None), _np.dtype):
        obj = obj.dtype
    # promote_types(d, d) is d; it is the binding that understands every way to name a dtype.
    return _core.promote_types(obj, obj)


# ---- ndarray methods (forwarded from C++) -----------------------------------------------------

def _host(x):
    # A read-only zero-copy view for CPU arrays (NumPy cannot write it, so arrays printed or
    # pickled stay lazy), an explicit copy for device arrays.
    return _core._readonly_view(x)


def _bfloat16_text(x, show):
    """bfloat16 printed where ml_dtypes is missing: its values (exact in float32), as float32."""
    text = show(_host(x.astype(_core.float32)))
    return text.replace("dtype=float32", "dtype=bfloat16")


def _printable(x):
    if x.dtype != _core.bfloat16:
        return True
    try:
        import ml_dtypes  # noqa: F401 - NumPy prints bfloat16 through it
    except ImportError:
        return False
    return True


def array_repr(x):
    text = _np.array_repr(_host(x)) if _printable(x) else _bfloat16_text(x, _np.array_repr)
    if x.device.type != "cpu":
        # As torch does: say where the data lives, since it is not where NumPy would put it.
        text = f"{text[:-1]}, device='{x.device}')"
    return text


def array_str(x):
    return _np.array_str(_host(x)) if _printable(x) else _bfloat16_text(x, _np.array_str)


def array_format(x, spec):
    if not spec:
        return array_str(x)
    if x.ndim == 0:
        return format(x.item(), spec)
    raise TypeError(f"unsupported format string {spec!r} passed to accel.ndarray.__format__ "
                    f"(only 0-d arrays take a format spec; got shape {x.shape})")


def _rebuild(values, device):
    """Unpickles an array: `values` is a NumPy array, `device` where the array lived."""
    device = _core.Device(device)
    if device not in _devices():
        raise _core.DeviceError(
            f"[unpickle] the array was saved from {device}, which is not available here; "
            f"load it where {device} is usable, or unpickle the NumPy values with "
            f"pickle.loads and pass them to accel.asarray(..., device='cpu')")
    return _core.asarray(values, device=device, copy=True)


def array_reduce(x):
    # The values travel as a NumPy array (which pickles efficiently, protocol 5 included) and
    # the device as its name, so the array comes back where it was.
    return (_rebuild, (_host(x), str(x.device)))


def array_namespace(x, api_version=None):
    if api_version is not None and api_version not in _API_VERSIONS:
        raise ValueError(f"[__array_namespace__] unsupported api_version {api_version!r}; "
                         f"accel implements {', '.join(_API_VERSIONS)}")
    return _namespace()


# ---- inspection API ---------------------------------------------------------------------------

_KINDS = {
    "bool": lambda d: d == _core.bool,
    "signed integer": lambda d: d.kind == "i",
    "unsigned integer": lambda d: d.kind == "u",
    "integral": lambda d: d.kind in "iu",
    "real floating": lambda d: d.kind == "f",
    "complex floating": lambda d: d.kind == "c",
    "numeric": lambda d: d.kind in "iufc",
}

_ALL_DTYPES = ("bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
               "float32", "float64", "complex64", "complex128")


def isdtype(dtype, kind):
    """Array API isdtype: whether `dtype` is of `kind` (a dtype, a kind name or a tuple)."""
    if not isinstance(dtype, _core.dtype):
        raise TypeError(f"[isdtype] expected an accel dtype, got {dtype!r}")
    if isinstance(kind, tuple):
        return any(isdtype(dtype, k) for k in kind)
    if isinstance(kind, str):
        try:
            return _KINDS[kind](dtype)
        except KeyError:
            raise ValueError(f"[isdtype] unknown kind {kind!r}; expected one of "
                             f"{', '.join(map(repr, _KINDS))}, a dtype or a tuple") from None
    if isinstance(kind, _core.dtype):
        return dtype == kind
    raise TypeError(f"[isdtype] kind must be a dtype, a kind name or a tuple, got {kind!r}")


def _devices():
    # device_count() is 0 where CUDA is unavailable (accel.cuda.unavailable_reason() says why).
    return [_core.Device("cpu")] + [_core.Device(f"cuda:{i}") for i in range(_cuda.device_count())]


def _check_device(device, where):
    if device is not None and _core.Device(str(device)) not in _devices():
        raise ValueError(f"[{where}] device {device} is not available here")


class _NamespaceInfo:
    """What `accel.__array_namespace_info__()` returns (Array API inspection)."""

    __module__ = "accel"

    def capabilities(self):
        ns = _namespace()
        return {
            "boolean indexing": _supports_boolean_indexing(),
            "data-dependent shapes": hasattr(ns, "nonzero") and hasattr(ns, "unique_values"),
            "max dimensions": None,  # accel sets no limit on the number of dimensions
        }

    def default_device(self):
        return _core.default_device()

    def default_dtypes(self, *, device=None):
        _check_device(device, "default_dtypes")
        return {"real floating": _core.float64, "complex floating": _core.complex128,
                "integral": _core.int64, "indexing": _core.int64}

    def dtypes(self, *, device=None, kind=None):
        _check_device(device, "dtypes")
        every = {name: getattr(_core, name) for name in _ALL_DTYPES}
        if kind is None:
            return every
        return {name: d for name, d in every.items() if isdtype(d, kind)}

    def devices(self):
        return tuple(_devices())  # the standard (2025.12) asks for a tuple


def _supports_boolean_indexing():
    try:
        x = _core.asarray([1, 2], device="cpu")
        return x[_core.asarray([True, False], device="cpu")].shape == (1,)
    except Exception:  # noqa: BLE001 - any failure means "not supported"
        return False


def clip(a, min=None, max=None, out=None, *, a_min=None, a_max=None):  # noqa: A002
    """a limited to [min, max] elementwise (either bound may be None, a scalar or an array).
    Python, not the binding itself, so that inspect.signature sees the standard's signature:
    the Array API suite cannot call an uninspectable clip (it has no example value for min).
    a, a_min and a_max are NumPy's names (np.clip(a=x, a_min=0, a_max=1)); the standard's x
    is positional-only."""
    x = a
    if a_min is not None or a_max is not None:
        if (a_min is not None and min is not None) or (a_max is not None and max is not None):
            raise TypeError("[clip] a bound given twice: a_min and min (or a_max and max) name "
                            "the same bound; pass one of them")
        min = a_min if a_min is not None else min
        max = a_max if a_max is not None else max
    if type(min) is int or type(max) is int:
        # As NumPy's clip: a Python int bound beyond an integer dtype's range limits nothing, so
        # it is dropped before it meets NEP 50's range check (uint16 clipped to [-3, 5]).
        kind = getattr(x, "dtype", None) and x.dtype.kind
        if kind in ("i", "u"):
            lo, hi = _int_range(x.dtype)
            min = None if type(min) is int and min <= lo else min
            max = None if type(max) is int and max >= hi else max
    return _core.clip(x, min, max, out=out)


def _int_range(dtype):
    bits = dtype.itemsize * 8
    if dtype.kind == "i":
        return -(1 << (bits - 1)), (1 << (bits - 1)) - 1
    return 0, (1 << bits) - 1


def __array_namespace_info__():
    return _NamespaceInfo()


# ---- finfo / iinfo ----------------------------------------------------------------------------

class _BFLOAT16_INFO:  # noqa: N801 - stands where a NumPy finfo would
    """bfloat16's limits from its format (NumPy has no bfloat16; these are ml_dtypes.finfo's)."""

    bits = 16
    eps = 2.0 ** -7
    max = (2.0 - 2.0 ** -7) * 2.0 ** 127
    min = -max
    smallest_normal = 2.0 ** -126
    precision = 2
    resolution = 0.010009765625  # 10^-precision rounded to bfloat16, as ml_dtypes


class finfo:  # noqa: N801 - NumPy's and the Array API's name
    """Machine limits of a floating-point dtype (for complex dtypes: of its real part)."""

    __module__ = "accel"

    def __init__(self, type):  # noqa: A002 - the Array API's parameter name
        dt = _as_dtype(type)
        if dt.kind not in "fc":
            raise ValueError(f"[finfo] {dt.name} is not a floating-point dtype; use iinfo")
        real = {"complex64": _core.float32, "complex128": _core.float64}.get(dt.name, dt)
        info = _BFLOAT16_INFO if real == _core.bfloat16 else _np.finfo(_np.dtype(real.name))
        self.dtype = real
        self.bits = int(info.bits)
        self.eps = float(info.eps)
        self.max = float(info.max)
        self.min = float(info.min)
        self.smallest_normal = float(info.smallest_normal)
        self.tiny = self.smallest_normal
        self.resolution = float(info.resolution)
        self.precision = int(info.precision)

    def __repr__(self):
        return (f"finfo(resolution={self.resolution:g}, min={self.min:e}, max={self.max:e}, "
                f"dtype={self.dtype.name})")


class iinfo:  # noqa: N801
    """Machine limits of an integer dtype."""

    __module__ = "accel"

    def __init__(self, type):  # noqa: A002
        dt = _as_dtype(type)
        if dt.kind not in "iu":
            raise ValueError(f"[iinfo] {dt.name} is not an integer dtype; use finfo")
        info = _np.iinfo(_np.dtype(dt.name))
        self.dtype = dt
        self.bits = int(info.bits)
        self.max = int(info.max)
        self.min = int(info.min)

    def __repr__(self):
        return f"iinfo(min={self.min}, max={self.max}, dtype={self.dtype.name})"
