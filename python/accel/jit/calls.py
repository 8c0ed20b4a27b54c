"""Calls and attributes in kernel source: Python builtins, dtype conversions, ``math``/accel
math functions, Numba's CUDA intrinsics (``grid``, ``syncthreads``, ``atomic.add``, shuffles,
``shared.array``, ...) and calls of ``@accel.jit.func`` device functions."""

import ast
import builtins
import math

import numpy as np

from . import intrinsics as I
from . import types as T
from .values import ArrayVal, PyObj, TupleVal, Value, _c_string

# name -> (arity, float32 C function, float64 C function); results keep a float input's
# precision, integers compute in float64 (as NumPy's ufuncs on int32/int64).
_MATH = {
    "sin": 1, "cos": 1, "tan": 1, "asin": 1, "acos": 1, "atan": 1, "sinh": 1, "cosh": 1,
    "tanh": 1, "asinh": 1, "acosh": 1, "atanh": 1, "exp": 1, "exp2": 1, "expm1": 1, "log": 1,
    "log2": 1, "log10": 1, "log1p": 1, "sqrt": 1, "cbrt": 1, "erf": 1, "erfc": 1, "lgamma": 1,
    "tgamma": 1, "atan2": 2, "hypot": 2, "copysign": 2, "fmod": 2, "pow": 2, "floor": 1,
    "ceil": 1, "trunc": 1, "fabs": 1,
}
# Other spellings (NumPy/accel and math) of the same functions.
_ALIASES = {"arcsin": "asin", "arccos": "acos", "arctan": "atan", "arcsinh": "asinh",
            "arccosh": "acosh", "arctanh": "atanh", "arctan2": "atan2", "gamma": "tgamma",
            "power": "pow", "absolute": "fabs"}
_PREDICATES = ("isnan", "isinf", "isfinite", "signbit")
_INTEGER_RESULT = ("floor", "ceil", "trunc")  # math.floor etc. return Python ints


def _math_functions():
    import accel
    table = {}
    for module in (accel, np, math):
        for name in list(_MATH) + list(_ALIASES) + list(_PREDICATES):
            f = getattr(module, name, None)
            if f is not None and callable(f) and not isinstance(f, type):
                canon = _ALIASES.get(name, name)
                table.setdefault(id(f), (canon, module is math, f))
    return table


_math_table = None


def dtype_name(obj):
    """The jit dtype name of a dtype-like object (accel.float32, numpy.int64, float, "int32")."""
    if obj is float:
        return "float64"
    if obj is int:
        return "int64"
    if obj is bool:
        return "bool"
    if obj is complex:
        return "complex128"
    if isinstance(obj, str):
        return obj if obj in T.C_TYPES else None
    name = T.from_dtype(obj)
    if name is not None:
        return name
    try:
        return T.from_dtype(np.dtype(obj).name)
    except TypeError:
        return None


def special_value(tr, obj, node):
    """Intrinsics used as values (``laneid``) and Python constants; None if neither."""
    if obj is I.laneid:
        return Value("((int)((threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * "
                     "threadIdx.z)) & 31))", T.INT32, nonneg=True)
    return None


def attribute(tr, obj, attr, node):
    if isinstance(obj, I.Dim3):
        if attr not in ("x", "y", "z"):
            raise tr.loc.syntax_error(node, f"{obj.name} has .x, .y and .z, not .{attr}")
        return Value(f"((int){obj.name}.{attr})", T.INT32, nonneg=True)
    if not hasattr(obj, attr):
        raise tr.loc.type_error(node, f"{obj!r} has no attribute {attr!r}")
    value = getattr(obj, attr)
    special = special_value(tr, value, node)
    return special if special is not None else tr.from_python(value, node)


def call(tr, node):
    if isinstance(node.func, ast.Attribute) and node.func.attr in ("conjugate", "conj"):
        base = tr.expr(node.func.value)
        if isinstance(base, Value) and isinstance(base.type, T.Scalar):
            _args(tr, node, 0)
            if base.type.kind != "c":
                return base
            return Value(f"accel_jit_conj({base.code})", base.type)
    callee = tr.expr(node.func)
    if not isinstance(callee, PyObj):
        raise tr.loc.type_error(node.func, "this is not a function that can be called in a "
                                "kernel")
    f = callee.obj
    from .kernel import DeviceFunction, JitKernel
    if isinstance(f, DeviceFunction):
        return _device_call(tr, f, node)
    if isinstance(f, JitKernel):
        raise tr.loc.syntax_error(node, "a kernel cannot call another kernel",
                                  "make the callee an @accel.jit.func device function")
    if isinstance(f, I.Intrinsic):
        handler = _INTRINSICS.get(f.name)
        if handler is None:
            raise tr.loc.syntax_error(node, f"accel.jit.{f.name} cannot be called")
        return handler(tr, node)
    if f is builtins.print:
        return _print(tr, node)
    if node.keywords:
        raise tr.loc.syntax_error(node, "keyword arguments are only taken by shared.array and "
                                  "local.array here")
    if f is builtins.range:
        raise tr.loc.syntax_error(node, "range() is only allowed as a for loop's iterable")
    if f in (builtins.min, builtins.max):
        return _minmax(tr, node, "accel_jit_min" if f is builtins.min else "accel_jit_max")
    if f is builtins.abs:
        v = _args(tr, node, 1)[0]
        if v.type.kind == "c":
            t = T.Scalar(T.REAL_OF[v.type.dtype], weak=v.type.weak)
            return Value(f"accel_jit_abs({tr.cast(v, T.concrete(v.type), node)})", t,
                         nonneg=True)
        t = T.INT64 if v.type.kind == "b" else v.type
        return Value(f"accel_jit_abs({tr.cast(v, T.concrete(t), node)})", t)
    if f is builtins.len:
        return _len(tr, node)
    if f in (builtins.int, builtins.float, builtins.bool) or dtype_name(f) is not None and \
            not callable(getattr(f, "__code__", None)):
        name = dtype_name(f)
        if f is builtins.complex and len(node.args) == 2:
            re, im = _args(tr, node, 2)
            if "c" in (re.type.kind, im.type.kind):
                raise tr.loc.type_error(node, "complex(re, im) takes two real numbers")
            return Value(f"accel_jit_complex<double>({tr.cast(re, T.FLOAT64, node)}, "
                         f"{tr.cast(im, T.FLOAT64, node)})", T.Scalar("complex128"))
        if name is not None and len(node.args) == 1:
            v = _args(tr, node, 1)[0]
            t = T.Scalar(name)
            if t.kind == "b":
                return Value(tr.as_bool(v, node), t)
            return Value(tr.cast(v, t, node), t, nonneg=v.nonneg and t.kind != "f")
    global _math_table
    if _math_table is None:
        _math_table = _math_functions()
    hit = _math_table.get(id(f))
    if hit is not None and hit[2] is f:
        return _math(tr, node, hit[0], hit[1])
    raise tr.loc.type_error(node.func, f"{_name_of(f)} cannot be called in a kernel",
                            "call math/accel math functions, min, max, abs, int, float, dtype "
                            "conversions, accel.jit intrinsics or @accel.jit.func functions")


def _name_of(f):
    return getattr(f, "__qualname__", None) or getattr(f, "__name__", None) or repr(f)


def _args(tr, node, n, arrays=False):
    if len(node.args) != n:
        raise tr.loc.type_error(node, f"this call takes {n} argument(s), got {len(node.args)}")
    out = [tr.expr(a) for a in node.args]
    if not arrays:
        out = [tr.scalar(v, a) for v, a in zip(out, node.args)]
    return out


def _minmax(tr, node, fn):
    vals = [tr.scalar(tr.expr(a), a) for a in node.args]
    if any(v.type.kind == "c" for v in vals):
        raise tr.loc.type_error(node, "min()/max() take real numbers (complex ones have no "
                                "order)")
    if len(vals) < 2:
        raise tr.loc.type_error(node, "min()/max() in a kernel take two or more numbers",
                                "write min(a, b) or min(a, b, c)")
    acc = vals[0]
    for v in vals[1:]:
        t = T.promote(acc.type, v.type)
        ct = T.concrete(t)
        nonneg = (acc.nonneg and v.nonneg) if fn == "accel_jit_min" else (acc.nonneg or
                                                                          v.nonneg)
        acc = Value(f"{fn}<{ct.ctype}>({tr.cast(acc, ct, node)}, {tr.cast(v, ct, node)})", t,
                    nonneg=nonneg)
    return acc


def _len(tr, node):
    v = _args(tr, node, 1, arrays=True)[0]
    if isinstance(v, ArrayVal):
        return Value(v.shape[0] if v.shape else "1ll", T.INT64, nonneg=True)
    if isinstance(v, TupleVal):
        return Value(str(len(v.items)), T.WEAK_INT, len(v.items))
    raise tr.loc.type_error(node, "len() takes an array or a tuple")


def _math(tr, node, name, from_math_module):
    if name in _PREDICATES:
        v = _args(tr, node, 1)[0]
        if v.type.kind != "f":
            return Value("false" if name != "isfinite" else "true", T.BOOL,
                         name == "isfinite")
        return Value(f"({name}({v.code}) != 0)", T.BOOL)
    arity = _MATH[name]
    vals = _args(tr, node, arity)
    if any(v.type.kind == "c" for v in vals):
        raise tr.loc.type_error(node, f"{name} of complex numbers is not supported in a kernel",
                                "complex numbers have abs(), .real, .imag and .conjugate()")
    t = vals[0].type
    for v in vals[1:]:
        t = T.promote(t, v.type)
    t = T.FLOAT64 if t.kind != "f" else T.concrete(t)
    codes = [tr.cast(v, t, node) for v in vals]
    cname = {"fabs": "fabs"}.get(name, name)
    if t.dtype == "float32":
        cname += "f"
    code = f"{cname}({', '.join(codes)})"
    if from_math_module and name in _INTEGER_RESULT:
        return Value(f"((long long){code})", T.INT64)
    return Value(code, t)


def _print(tr, node):
    """print(...) as one printf (C's on the CPU, the device's on a GPU): strings, numbers and
    bools, separated by spaces; floats as %g."""
    if node.keywords:
        raise tr.loc.syntax_error(node, "print() in a kernel takes no keyword arguments")
    fmt, vals = [], []
    for a in node.args:
        if isinstance(a, ast.Constant) and isinstance(a.value, str):
            fmt.append(a.value.replace("%", "%%"))
            continue
        v = tr.scalar(tr.expr(a), a)
        kind = v.type.kind
        if kind == "c":
            fmt.append("(%g%+gj)")
            vals += [f"(double)(({v.code}).re)", f"(double)(({v.code}).im)"]
        elif kind == "b":
            fmt.append("%s")
            vals.append(f'(({tr.as_bool(v, a)}) ? "True" : "False")')
        elif kind == "i":
            fmt.append("%lld")
            vals.append(f"(long long)({v.code})")
        elif kind == "u":
            fmt.append("%llu")
            vals.append(f"(unsigned long long)({v.code})")
        else:
            fmt.append("%g")
            vals.append(f"(double)({v.code})")
    text = _c_string(" ".join(fmt) + "\n")
    return Value(f"printf({', '.join([text] + vals)})", None)


# ---- jit intrinsics ----
def _grid(tr, node, size):
    n = tr.const_int(node.args[0]) if len(node.args) == 1 else 0
    if n not in (1, 2, 3):
        raise tr.loc.type_error(node, "grid()/gridsize() take 1, 2 or 3")
    axes = "xyz"[:n]
    if size:
        items = [Value(f"((long long)blockDim.{a} * gridDim.{a})", T.INT64, nonneg=True)
                 for a in axes]
    else:
        items = [Value(f"((long long)blockIdx.{a} * blockDim.{a} + threadIdx.{a})", T.INT64,
                       nonneg=True) for a in axes]
    return items[0] if n == 1 else TupleVal(items)


def _barrier(fn, result):
    def handler(tr, node):
        if result is None:
            if node.args:
                raise tr.loc.type_error(node, "syncthreads() takes no arguments")
            return Value(f"{fn}()", None)
        p = _args(tr, node, 1)[0]
        return Value(f"{fn}({tr.as_bool(p, node)})", result)
    return handler


def _syncwarp(tr, node):
    mask = _args(tr, node, len(node.args))[0] if node.args else Value("0xffffffffu", T.UINT32)
    return Value(f"__syncwarp({tr.cast(mask, T.UINT32, node)})", None)


def _shuffle(fn):
    def handler(tr, node):
        mask, value, lane = _args(tr, node, 3)
        if value.type.kind in "bc" or value.type.dtype in ("int8", "int16", "uint8", "uint16"):
            raise tr.loc.type_error(node.args[1], f"a shuffle moves 32- and 64-bit numbers, not "
                                    f"{value.type}")
        vt = T.concrete(value.type)
        lane_t = T.UINT32 if fn != "__shfl_sync" and fn != "__shfl_xor_sync" else T.INT32
        return Value(f"{fn}({tr.cast(mask, T.UINT32, node)}, {tr.cast(value, vt, node)}, "
                     f"{tr.cast(lane, lane_t, node)})", vt)
    return handler


def _vote(fn, result):
    def handler(tr, node):
        mask, pred = _args(tr, node, 2)
        code = f"{fn}({tr.cast(mask, T.UINT32, node)}, {tr.as_bool(pred, node)})"
        return Value(f"({code} != 0)" if result is T.BOOL else code, result)
    return handler


def _activemask(tr, node):
    _args(tr, node, 0)
    return Value("__activemask()", T.UINT32)


_ATOMIC_TYPES = ("int32", "uint32", "int64", "uint64", "float32", "float64")


def _atomic(op):
    def handler(tr, node):
        n = 4 if op == "cas" else 3
        if len(node.args) != n:
            raise tr.loc.type_error(node, f"atomic.{op} takes (array, index, "
                                    f"{'old, value' if op == 'cas' else 'value'})")
        sub = ast.Subscript(value=node.args[0], slice=node.args[1], ctx=ast.Load())
        ast.copy_location(sub, node)
        arr = tr.expr(node.args[0])
        if not isinstance(arr, ArrayVal):
            raise tr.loc.type_error(node.args[0], f"atomic.{op} takes an array first")
        if arr.type.dtype not in _ATOMIC_TYPES:
            raise tr.loc.type_error(node.args[0], f"atomic.{op} works on arrays of "
                                    f"{', '.join(_ATOMIC_TYPES)}, not {arr.type.dtype}")
        _, elem = tr.element(sub)
        tr.mark_written(arr)
        t = T.Scalar(arr.type.dtype)
        vals = [tr.cast(tr.scalar(tr.expr(a), a), t, a) for a in node.args[2:]]
        return Value(f"accel_jit_atomic_{op}<{t.ctype}>(&{elem}, {', '.join(vals)})", t)
    return handler


def _array(space):
    def handler(tr, node):
        args = list(node.args)
        kw = {k.arg: k.value for k in node.keywords}
        if len(args) < 2:
            args += [kw.pop(k) for k in ("shape", "dtype")[len(args):] if k in kw]
        if len(args) != 2 or kw:
            raise tr.loc.type_error(node, f"{space}.array takes (shape, dtype)")
        shape_v = tr.expr(args[0])
        shape = shape_v.items if isinstance(shape_v, TupleVal) else [shape_v]
        dims = []
        for v in shape:
            if not (isinstance(v, Value) and isinstance(v.const, int) and v.const >= 0):
                raise tr.loc.type_error(args[0], f"a {space} array's shape must be integers "
                                        "known when the kernel is compiled",
                                        "use literals or global constants")
            dims.append(v.const)
        t = tr.dtype_of(args[1])
        name = tr.temp(space)
        dynamic = space == "shared" and dims == [0]
        if dynamic:
            tr.decls.append(f"extern __shared__ {t.ctype} {name}[];")
            return ArrayVal(T.Array(t.dtype, 1, "C", space), name, ["0x7fffffffffffffffll"], ["1"])
        if 0 in dims:
            raise tr.loc.type_error(args[0], f"a {space} array cannot have a zero-length axis "
                                    "(shared.array(0, dtype) is dynamic shared memory)")
        total = 1
        for d in dims:
            total *= d
        qual = "__shared__ " if space == "shared" else ""
        tr.decls.append(f"{qual}{t.ctype} {name}[{total}];")
        strides, s = [], 1
        for d in reversed(dims):
            strides.insert(0, str(s))
            s *= d
        return ArrayVal(T.Array(t.dtype, len(dims), "C", space, tuple(dims)), name,
                        [f"{d}ll" for d in dims], strides)
    return handler


def _device_call(tr, f, node):
    if node.keywords:
        raise tr.loc.syntax_error(node, "device functions take positional arguments only")
    params = [p.arg for p in tr.program.parse(f)[0].args.args]
    if len(params) != len(node.args):
        raise tr.loc.type_error(node, f"{f.__name__}() takes {len(params)} arguments, got "
                                f"{len(node.args)}")
    vals = [tr.expr(a) for a in node.args]
    types, codes = [], []
    for v, a in zip(vals, node.args):
        if isinstance(v, ArrayVal):
            types.append(T.Array(v.type.dtype, v.type.ndim, "A"))
            codes += [f"({v.type.ctype}*)({v.ptr})"] + list(v.shape) + list(v.strides)
        else:
            v = tr.scalar(v, a)
            t = T.concrete(v.type)
            types.append(t)
            codes.append(tr.cast(v, t, a))
    cname, ret, written = tr.program.device_function(f, tuple(types), tr.checked, node, tr.loc)
    for v, p in zip(vals, params):
        if isinstance(v, ArrayVal) and p in written:
            tr.mark_written(v)
    return Value(f"{cname}({', '.join(codes)})", ret)


_INTRINSICS = {
    "grid": lambda tr, node: _grid(tr, node, False),
    "gridsize": lambda tr, node: _grid(tr, node, True),
    "syncthreads": _barrier("__syncthreads", None),
    "syncthreads_count": _barrier("__syncthreads_count", T.INT32),
    "syncthreads_and": _barrier("__syncthreads_and", T.INT32),
    "syncthreads_or": _barrier("__syncthreads_or", T.INT32),
    "syncwarp": _syncwarp,
    "shfl_sync": _shuffle("__shfl_sync"),
    "shfl_up_sync": _shuffle("__shfl_up_sync"),
    "shfl_down_sync": _shuffle("__shfl_down_sync"),
    "shfl_xor_sync": _shuffle("__shfl_xor_sync"),
    "all_sync": _vote("__all_sync", T.BOOL),
    "any_sync": _vote("__any_sync", T.BOOL),
    "ballot_sync": _vote("__ballot_sync", T.UINT32),
    "activemask": _activemask,
    "shared.array": _array("shared"),
    "local.array": _array("local"),
    **{f"atomic.{op}": _atomic(op) for op in ("add", "sub", "max", "min", "exch", "cas")},
}
