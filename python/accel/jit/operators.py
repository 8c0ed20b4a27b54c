"""Arithmetic, bitwise and comparison operators with NumPy's result types and Python's integer
semantics (floor division and modulo round toward -inf; ``/`` of integers is float64)."""

import ast

from . import types as T
from .values import Value

_SIMPLE = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*"}
_BITWISE = {ast.BitAnd: "&", ast.BitOr: "|", ast.BitXor: "^"}
_COMPARE = {ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=", ast.Eq: "==", ast.NotEq: "!="}


def _fold(op, a, b):
    """Python's value of an operation on two literals (kept weak, like NumPy's scalars)."""
    fn = {ast.Add: lambda x, y: x + y, ast.Sub: lambda x, y: x - y,
          ast.Mult: lambda x, y: x * y, ast.Div: lambda x, y: x / y,
          ast.FloorDiv: lambda x, y: x // y, ast.Mod: lambda x, y: x % y,
          ast.Pow: lambda x, y: x ** y, ast.BitAnd: lambda x, y: x & y,
          ast.BitOr: lambda x, y: x | y, ast.BitXor: lambda x, y: x ^ y,
          ast.LShift: lambda x, y: x << y, ast.RShift: lambda x, y: x >> y}.get(type(op))
    try:
        v = fn(a, b) if fn else None
    except (ZeroDivisionError, OverflowError, ValueError, TypeError):
        return None
    return v if isinstance(v, (int, float)) and not isinstance(v, complex) else None


def binary(tr, op, a, b, node):
    if a.const is not None and b.const is not None and a.type.weak and b.type.weak:
        v = _fold(op, a.const, b.const)
        if v is not None and (not isinstance(v, int) or -(1 << 63) <= v < (1 << 64)):
            t = T.literal_type(v)
            return Value(T.c_literal(v, t), t, v)
    t = T.promote(a.type, b.type)
    ct = T.concrete(t)
    kind = t.kind
    x, y = tr.cast(a, ct, node), tr.cast(b, ct, node)
    both = a.nonneg and b.nonneg  # signed wrap on overflow aside, as C++'s arithmetic
    if type(op) in _SIMPLE:
        if kind == "b" and isinstance(op, ast.Sub):
            raise tr.loc.type_error(node, "- of two bools is not allowed (as in NumPy)",
                                    "use ^ or !=")
        return Value(f"(({ct.ctype})({x} {_SIMPLE[type(op)]} {y}))", t,
                     nonneg=both and not isinstance(op, ast.Sub))
    if isinstance(op, ast.Div):
        if kind in "biu":
            r = T.WEAK_FLOAT if t.weak else T.FLOAT64
            return Value(f"((double)({x}) / (double)({y}))", r)
        return Value(f"({x} / {y})", t)
    if kind == "c" and not isinstance(op, ast.Div):
        raise tr.loc.type_error(node, f"complex numbers take + - * / here, not "
                                f"{type(op).__name__} (as NumPy: no //, % or bitwise)")
    if isinstance(op, (ast.FloorDiv, ast.Mod)):
        if kind == "b":
            t, ct = T.Scalar("int8"), T.Scalar("int8")
            x, y = tr.cast(a, ct, node), tr.cast(b, ct, node)
        fn = "accel_jit_floordiv" if isinstance(op, ast.FloorDiv) else "accel_jit_mod"
        nonneg = both if isinstance(op, ast.FloorDiv) else b.nonneg  # % has the divisor's sign
        return Value(f"{fn}<{ct.ctype}>({x}, {y})", t, nonneg=nonneg)
    if isinstance(op, ast.Pow):
        if kind == "f":
            fn = "powf" if ct.dtype == "float32" else "pow"
            return Value(f"{fn}({x}, {y})", t)
        if kind == "b":
            t, ct = T.Scalar("int8"), T.Scalar("int8")
            x, y = tr.cast(a, ct, node), tr.cast(b, ct, node)
        return Value(f"accel_jit_ipow<{ct.ctype}>({x}, {y})", t)
    if type(op) in _BITWISE or isinstance(op, (ast.LShift, ast.RShift)):
        if kind == "f":
            raise tr.loc.type_error(node, f"bitwise operators take integers or bools, not {t}")
        if type(op) in _BITWISE:
            nonneg = (a.nonneg or b.nonneg) if isinstance(op, ast.BitAnd) else both
            return Value(f"(({ct.ctype})({x} {_BITWISE[type(op)]} {y}))", t, nonneg=nonneg)
        if kind == "b":
            t, ct = T.INT64, T.INT64
            x, y = tr.cast(a, ct, node), tr.cast(b, ct, node)
        fn = "accel_jit_lshift" if isinstance(op, ast.LShift) else "accel_jit_rshift"
        return Value(f"{fn}<{ct.ctype}>({x}, {y})", t,
                     nonneg=a.nonneg and isinstance(op, ast.RShift))
    raise tr.loc.syntax_error(node, f"the operator {type(op).__name__} is not supported",
                              "use + - * / // % ** & | ^ << >>")


def compare(tr, op, a, b, node):
    if "c" in (a.type.kind, b.type.kind) and not isinstance(op, (ast.Eq, ast.NotEq)):
        raise tr.loc.type_error(node, "complex numbers are compared with == and != only")
    if type(op) not in _COMPARE:
        raise tr.loc.syntax_error(node, f"the comparison {type(op).__name__} is not supported "
                                  "in a kernel", "use < <= > >= == !=")
    t = T.concrete(T.promote(a.type, b.type))
    return f"({_bare(tr.cast(a, t, node))} {_COMPARE[type(op)]} {_bare(tr.cast(b, t, node))})"


def _bare(code):
    """A name or literal without its parentheses (readability of the generated source)."""
    inner = code[1:-1] if code.startswith("(") and code.endswith(")") else code
    return inner if inner.replace("_", "").replace(".", "").isalnum() else code
