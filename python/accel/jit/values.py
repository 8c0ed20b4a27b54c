"""What a kernel expression can be while it is translated: a C++ value (``Value``), an array
in scope (``ArrayVal``), a tuple known element by element (``TupleVal``) or a Python object
(``PyObj``); and small text helpers for the generated C++."""

import ast

from . import types as T


class Value:
    """An expression's C++ text and its type (Scalar or a struct-returned Tuple); ``nonneg``:
    known never to be negative (an index that needs no wrap-around)."""
    __slots__ = ("code", "type", "const", "nonneg")

    def __init__(self, code, type_, const=None, nonneg=False):
        self.code = code
        self.type = type_
        self.const = const  # the Python value when known at translation time
        self.nonneg = bool(nonneg) or (isinstance(const, (int, float)) and const >= 0) or (
            isinstance(type_, T.Scalar) and type_.kind in "ub")


class ArrayVal:
    """An array in scope: its pointer, shape and (element) strides as C++ expressions."""

    def __init__(self, type_, ptr, shape, strides, param=None):
        self.type = type_
        self.ptr = ptr
        self.shape = shape
        self.strides = strides
        self.param = param  # the kernel/function parameter it is, for const-ness

    def size(self):
        return "(" + " * ".join(self.shape) + ")" if self.shape else "1ll"


class TupleVal:
    """A tuple known element by element at translation time (``x.shape``, ``grid(2)``,
    ``(a, b)``)."""

    def __init__(self, items):
        self.items = items


class PyObj:
    """A Python object named in the kernel (a module, a dtype, an intrinsic, a device function)."""

    def __init__(self, obj):
        self.obj = obj


def _balanced(code):
    depth = 0
    for ch in code:
        depth += ch == "("
        depth -= ch == ")"
        if depth < 0:
            return False
    return depth == 0


def _describe(v):
    if isinstance(v, ArrayVal):
        return "an array"
    if isinstance(v, TupleVal):
        return "a tuple"
    if isinstance(v, PyObj):
        return f"the Python object {v.obj!r}"
    return str(getattr(v, "type", v))


def _array_name(node):
    return node.id if isinstance(node, ast.Name) else "array"


def _c_string(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'
