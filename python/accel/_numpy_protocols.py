"""NumPy's dispatch protocols on accel arrays (NEP 13 `__array_ufunc__`, NEP 18
`__array_function__`), and accel dtypes wherever NumPy expects a dtype.

`np.sin(a)`, `np.concatenate([a, b])`, `np.mean(a)` with accel arrays run accel's own function
and return accel arrays on the same device, as CuPy does: NumPy code and libraries written
against NumPy (Dask's chunk functions) run on accel unchanged. A NumPy function accel does not
implement raises TypeError naming it, instead of silently copying a GPU array to the host; an
explicit `accel.asnumpy(x)` (or `np.asarray(x)`, which uses `__array__`) still converts."""

import numpy as _np

from . import _core

# NumPy ufuncs whose accel function has another name.
_UFUNC_ALIASES = {"invert": "bitwise_invert", "left_shift": "bitwise_left_shift",
                  "right_shift": "bitwise_right_shift"}
# ufunc.reduce / ufunc.accumulate as accel reductions and scans.
_REDUCE = {"add": "sum", "multiply": "prod", "maximum": "max", "minimum": "min",
           "fmax": "nanmax", "fmin": "nanmin", "logical_and": "all", "logical_or": "any"}
_ACCUMULATE = {"add": "cumsum", "multiply": "cumprod"}
# Functions that answer about dtypes: NumPy's own answer over the arrays' NumPy dtypes (accel
# follows NumPy 2's promotion), so they return NumPy dtypes as callers of NumPy expect.
_DTYPE_FUNCTIONS = {"result_type", "can_cast", "min_scalar_type", "promote_types"}
# NumPy submodules whose functions map onto accel's submodules of the same name.
_SUBMODULES = ("linalg", "fft")


def _accel():
    import accel
    return accel


def _not_implemented(what):
    return TypeError(f"accel does not implement {what} for accel arrays; convert explicitly "
                     "with accel.asnumpy(x) to run NumPy's (a copy to the host)")


def _single_out(kwargs, what):
    out = kwargs.get("out")
    if isinstance(out, tuple):  # NumPy always passes out= to __array_ufunc__ as a tuple
        if len(out) != 1:
            raise _not_implemented(f"{what} with {len(out)} outputs")
        kwargs["out"] = out[0]
    return kwargs


def array_ufunc(self, ufunc, method, inputs, kwargs):
    """ndarray.__array_ufunc__ (bound in array_protocol_bindings.cpp), with the inputs as a
    tuple and the keywords as a dict."""
    accel = _accel()
    name = ufunc.__name__
    if method == "__call__":
        fn = getattr(accel, _UFUNC_ALIASES.get(name, name), None)
        if fn is None:
            raise _not_implemented(f"numpy.{name}")
        return fn(*inputs, **_single_out(kwargs, f"numpy.{name}"))
    table = {"reduce": _REDUCE, "accumulate": _ACCUMULATE}.get(method, {})
    if name not in table or len(inputs) != 1:
        raise _not_implemented(f"numpy.{name}.{method}")
    kwargs = _single_out(kwargs, f"numpy.{name}.{method}")
    if method == "reduce" and "axis" not in kwargs:
        kwargs["axis"] = 0  # ufunc.reduce's default, unlike sum's
    if method == "accumulate":
        kwargs.setdefault("axis", 0)
    return getattr(accel, table[name])(inputs[0], **kwargs)


def _numpy_dtype_of(x):
    if isinstance(x, _core.ndarray):
        return to_numpy_dtype(x.dtype)
    if isinstance(x, type(_core.float32)):
        return to_numpy_dtype(x)
    return x


def _accel_function(func):
    accel = _accel()
    module = func.__module__ or ""
    for sub in _SUBMODULES:
        if module.startswith(f"numpy.{sub}"):
            return getattr(getattr(accel, sub, None), func.__name__, None), f"numpy.{sub}.{func.__name__}"
    return getattr(accel, func.__name__, None), f"numpy.{func.__name__}"


def array_function(self, func, types, args, kwargs):
    """ndarray.__array_function__ (bound in array_protocol_bindings.cpp)."""
    if not all(issubclass(t, (_core.ndarray, _np.ndarray)) for t in types):
        return NotImplemented  # another library's arrays: let it (or NumPy) decide
    if func.__name__ in _DTYPE_FUNCTIONS:
        return func(*[_numpy_dtype_of(a) for a in args],
                    **{k: _numpy_dtype_of(v) for k, v in kwargs.items()})
    fn, what = _accel_function(func)
    if fn is None or fn is func:
        raise _not_implemented(what)
    return fn(*args, **kwargs)


def to_numpy_dtype(dt):
    """The NumPy dtype of an accel dtype (`np.dtype(accel.float32)` calls this through the
    dtype's `.dtype` attribute, which is how NumPy accepts dtype-like objects)."""
    return _np.dtype(dt.name)


def install():
    # NumPy accepts any object with a `.dtype` attribute holding a NumPy dtype as a dtype:
    # np.dtype(accel.int8), np.zeros(3, dtype=accel.float32), np.finfo(accel.float64).
    type(_core.float32).dtype = property(to_numpy_dtype,
                                         doc="This dtype as a NumPy dtype (for NumPy's APIs).")
