"""NumPy's dispatch protocols on accel arrays (NEP 13 `__array_ufunc__`, NEP 18
`__array_function__`), and accel dtypes wherever NumPy expects a dtype.

`np.sin(a)`, `np.concatenate([a, b])`, `np.mean(a)` with accel arrays run accel's own function
and return accel arrays on the same device, as CuPy does: NumPy code and libraries written
against NumPy (Dask's chunk functions) run on accel unchanged. A NumPy function accel does not
implement raises TypeError naming it, instead of silently copying a GPU array to the host; an
explicit `accel.asnumpy(x)` (or `np.asarray(x)`, which uses `__array__`) still converts."""

import numpy as _np

from . import _core
from . import _np_creation

# NumPy ufuncs whose accel function has another name.
_UFUNC_ALIASES = {"invert": "bitwise_invert", "left_shift": "bitwise_left_shift",
                  "right_shift": "bitwise_right_shift"}
# ufunc.reduce / ufunc.accumulate as accel reductions and scans.
_UFUNC_METHODS = ("reduce", "accumulate", "outer", "at", "reduceat")
# Functions that answer about dtypes: NumPy's own answer over the arrays' NumPy dtypes (accel
# follows NumPy 2's promotion), so they return NumPy dtypes as callers of NumPy expect.
_DTYPE_FUNCTIONS = {"result_type", "can_cast", "promote_types"}
# NumPy submodules whose functions map onto accel's submodules of the same name.
_SUBMODULES = ("linalg", "fft")


def _accel():
    import accel
    return accel


def _not_implemented(what):
    return TypeError(f"accel does not implement {what} for accel arrays; convert explicitly "
                     "with accel.asnumpy(x) to run NumPy's (a copy to the host)")


def _foreign(x):
    """An array of another library that takes part in NumPy's dispatch (Dask, xarray, ...)."""
    t = type(x)
    return (not isinstance(x, (_core.ndarray, _np.ndarray, _np.generic, int, float, complex))
            and (hasattr(t, "__array_ufunc__") or hasattr(t, "__array_function__")))


def _outputs(kwargs):
    out = kwargs.get("out")
    return out if isinstance(out, tuple) else () if out is None else (out,)


def _single_out(kwargs, what):
    out = kwargs.get("out")
    if isinstance(out, tuple):  # NumPy always passes out= to __array_ufunc__ as a tuple
        if len(out) != 1:
            raise _not_implemented(f"{what} with {len(out)} outputs")
        kwargs["out"] = out[0]
    return kwargs


def _into_numpy(result, out, what, where=True):
    """A result written into out= a NumPy array, which is returned, as NumPy's ufuncs do: a
    NumPy array's in-place operator with an accel operand (`np_array += accel_array` calls
    numpy.add(np_array, accel_array, out=(np_array,))) leaves a NumPy array with the values.
    The cast is NumPy's ufunc rule, same_kind; a result off the CPU is not copied to the host
    behind the caller's back."""
    accel = _accel()
    if result.device.type != "cpu":
        raise TypeError(f"[{what}] out= is a NumPy array but the result is on {result.device}; "
                        "copy it explicitly with accel.asnumpy(x), or pass an accel array as out=")
    if tuple(out.shape) != tuple(result.shape):
        raise ValueError(f"[{what}] out= has shape {tuple(out.shape)} but the result has shape "
                         f"{tuple(result.shape)}")
    if where is not True:  # where=: out keeps its values where the mask does not hold
        where = accel.asnumpy(where) if isinstance(where, _core.ndarray) else _np.asarray(where)
        if where.dtype != _np.bool_:
            raise TypeError(f"[{what}] where= must be a boolean array or bool; got {where.dtype}")
        where = _np.broadcast_to(where, out.shape)
    try:
        _np.copyto(out, accel.asnumpy(result), casting="same_kind", where=where)
    except TypeError as e:
        raise TypeError(f"[{what}] {e} (out= is a NumPy array of {out.dtype})") from None
    return out


def _on_host(x, what):
    """An operand of NumPy's own ufunc method: accel arrays (in an index tuple too) as NumPy
    arrays; TypeError for one off the CPU (no copy to the host behind the caller's back)."""
    if isinstance(x, tuple):
        return tuple(_on_host(i, what) for i in x)
    if isinstance(x, _core.ndarray):
        if x.device.type != "cpu":
            raise TypeError(f"[{what}] an operand is on {x.device} and the array written is a "
                            "NumPy array; copy it explicitly with accel.asnumpy(x)")
        return _accel().asnumpy(x)
    return x


# The accel function of each NumPy ufunc called plainly (`np.add(a, b)`), found once.
_PLAIN_CALLS = {}
# Operand types of a plain call that need no check (no foreign array, no NumPy array).
_PLAIN_OPERANDS = frozenset((_core.ndarray, int, float, complex, bool))


def array_ufunc(self, ufunc, method, inputs, kwargs):
    """ndarray.__array_ufunc__ (bound in array_protocol_bindings.cpp), with the inputs as a
    tuple and the keywords as a dict."""
    if method == "__call__" and not kwargs:
        # np.sqrt(a), np.add(a, 1) of accel arrays and Python numbers: the function found
        # before, without the checks below (they were eight times accel's own call).
        fn = _PLAIN_CALLS.get(ufunc)
        if fn is not None and all(type(x) in _PLAIN_OPERANDS for x in inputs):
            return fn(*inputs)
    accel = _accel()
    name = ufunc.__name__
    if any(_foreign(x) for x in inputs + tuple(_outputs(kwargs))):
        return NotImplemented  # a Dask (or other) array holding accel chunks: its own dispatch
    what = f"numpy.{name}" if method == "__call__" else f"numpy.{name}.{method}"
    if method == "at" and isinstance(inputs[0], _np.ndarray):
        # np.add.at(numpy_array, accel_indices, accel_values): NumPy's array is written in place
        # by NumPy's own at, the accel operands brought to the host (fuzz seed 2100975).
        return ufunc.at(*[_on_host(x, what) for x in inputs])
    if method == "__call__":
        fn = getattr(accel, _UFUNC_ALIASES.get(name, name), None)
        if fn is None:
            raise _not_implemented(what)
        if isinstance(ufunc, _np.ufunc):
            _PLAIN_CALLS[ufunc] = fn
    else:
        # np.add.reduce(x), np.maximum.accumulate(x), np.add.at(x, i, v), ...: the method of
        # accel's ufunc of the same name (python/accel/_ufuncs.py).
        ufunc_here = getattr(accel, _UFUNC_ALIASES.get(name, name), None)
        if not isinstance(ufunc_here, _core.ufunc) or method not in _UFUNC_METHODS:
            raise _not_implemented(what)
        fn = getattr(ufunc_here, method)
    kwargs = _single_out(kwargs, what)
    if isinstance(kwargs.get("out"), _np.ndarray):
        out = kwargs.pop("out")
        # The mask applies to the copy into NumPy's out (fuzz seed 2092561), not to accel's
        # result, which has no out= of its own here.
        where = kwargs.pop("where", True) if method == "__call__" else True
        return _into_numpy(fn(*inputs, **kwargs), out, what, where)
    return fn(*inputs, **kwargs)


def _numpy_dtype_of(x):
    if isinstance(x, _core.ndarray):
        return to_numpy_dtype(x.dtype)
    if isinstance(x, type(_core.float32)):
        return to_numpy_dtype(x)
    return x


# NumPy functions whose signature differs from accel's function of the same name.
# (The *_like functions take NumPy's signature, shape= included, themselves.)
_NUMPY_SIGNATURES = {"array": _np_creation.array}
# Creation functions NumPy dispatches through `like=`: the result goes on the device of the
# `like` array (the `self` of __array_function__).
_LIKE_CREATION = {"array", "asarray", "asanyarray", "ascontiguousarray", "empty", "zeros", "ones",
                  "full", "arange", "linspace", "eye", "identity", "tri", "frombuffer", "fromiter",
                  "fromfunction"}


def _accel_function(func):
    accel = _accel()
    module = func.__module__ or ""
    for sub in _SUBMODULES:
        if module.startswith(f"numpy.{sub}"):
            return getattr(getattr(accel, sub, None), func.__name__, None), f"numpy.{sub}.{func.__name__}"
    return getattr(accel, func.__name__, None), f"numpy.{func.__name__}"


# The accel function of each NumPy function called with accel arrays alone (`np.sum(a)`),
# found once; the functions whose answer depends on more than the name are not kept.
_PLAIN_FUNCTIONS = {}


def array_function(self, func, types, args, kwargs):
    """ndarray.__array_function__ (bound in array_protocol_bindings.cpp)."""
    fn = _PLAIN_FUNCTIONS.get(func)
    if fn is not None and type(types) is tuple and len(types) == 1 and types[0] is _core.ndarray:
        if kwargs:
            _check_keywords(func, kwargs)
        return fn(*args, **kwargs)
    if not all(issubclass(t, (_core.ndarray, _np.ndarray)) for t in types):
        return NotImplemented  # another library's arrays: let it (or NumPy) decide
    if func.__name__ in _DTYPE_FUNCTIONS:
        return func(*[_numpy_dtype_of(a) for a in args],
                    **{k: _numpy_dtype_of(v) for k, v in kwargs.items()})
    like = func.__name__ in _LIKE_CREATION and "device" not in kwargs
    if func.__name__ in _NUMPY_SIGNATURES and func.__module__.startswith("numpy"):
        return _NUMPY_SIGNATURES[func.__name__](*args, **kwargs, **_device_of(self, like))
    fn, what = _accel_function(func)
    if fn is None or fn is func:
        raise _not_implemented(what)
    _check_keywords(func, kwargs)  # NumPy's keywords: device= below is accel's own
    if func.__name__ not in _LIKE_CREATION:  # their device depends on the call's keywords
        _PLAIN_FUNCTIONS[func] = fn
    return fn(*args, **kwargs, **_device_of(self, like))


def _device_of(self, like):
    # A creation function dispatched through like=: its result goes on the like array's device.
    return {"device": self.device} if like else {}


_NUMPY_KEYWORDS = {}


def _check_keywords(func, kwargs):
    """A keyword NumPy's function does not take raises NumPy's own TypeError ("... got an
    unexpected keyword argument ..."), which callers probe for (Dask's meta inference passes
    `computing_meta=` and retries without it on exactly that message)."""
    import inspect
    if func not in _NUMPY_KEYWORDS:
        try:
            params = inspect.signature(func).parameters.values()
            _NUMPY_KEYWORDS[func] = None if any(p.kind == p.VAR_KEYWORD for p in params) \
                else {p.name for p in params}
        except (TypeError, ValueError):  # a C function without a signature: not checked
            _NUMPY_KEYWORDS[func] = None
    names = _NUMPY_KEYWORDS[func]
    for k in kwargs:
        if names is not None and k not in names:
            raise TypeError(f"{func.__name__}() got an unexpected keyword argument '{k}'")


def to_numpy_dtype(dt):
    """The NumPy dtype of an accel dtype (`np.dtype(accel.float32)` calls this through the
    dtype's `.dtype` attribute, which is how NumPy accepts dtype-like objects)."""
    return _np.dtype(dt.name)


def _function_by_name(module, qualname):
    import importlib
    obj = importlib.import_module(module)
    for part in qualname.split("."):
        obj = getattr(obj, part)
    return obj


def _reduce_function(f):
    # A bound C++ function pickles as its module and name, as Python functions do (Dask and
    # multiprocessing ship functions such as accel.asarray to worker processes).
    return _function_by_name, (f.__module__, getattr(f, "__qualname__", f.__name__))


def install():
    import copyreg
    # nanobind's function type, from a function that is surely one (a name with a fast path,
    # fast_methods.h, is a builtin function instead, which pickles by name already).
    copyreg.pickle(type(_core._full_functions["asarray"]), _reduce_function)
    # NumPy accepts any object with a `.dtype` attribute holding a NumPy dtype as a dtype:
    # np.dtype(accel.int8), np.zeros(3, dtype=accel.float32), np.finfo(accel.float64).
    dtype_class = type(_core.float32)
    dtype_class.dtype = property(to_numpy_dtype,
                                 doc="This dtype as a NumPy dtype (for NumPy's APIs).")
    # Code written for NumPy reads dtype attributes (kind, itemsize, char, type, ...; Dask's
    # reductions do): an accel dtype answers them as its NumPy dtype does.
    dtype_class.__getattr__ = _numpy_dtype_attribute


def _numpy_dtype_attribute(self, name):
    if name.startswith("_"):
        raise AttributeError(name)
    return getattr(to_numpy_dtype(self), name)
