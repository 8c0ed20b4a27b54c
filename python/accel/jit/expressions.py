"""Expressions of kernel source -> C++ text with a type: names (locals, arrays, Python
globals), constants, attributes, indexing (with wrap-around and checked mode), operators,
conditionals and conversions. Mixed into ``FunctionTranslator`` (translate.py)."""

import ast
import builtins

from . import types as T
from .values import ArrayVal, PyObj, TupleVal, Value, _array_name, _balanced, _c_string, \
    _describe


class ExpressionTranslator:
    """The expression half of FunctionTranslator (which provides locals, arrays, loc, emit)."""

    def expr(self, node):
        method = getattr(self, "expr_" + type(node).__name__, None)
        if method is None:
            raise self.loc.syntax_error(
                node, f"'{type(node).__name__}' expressions are not supported in a kernel",
                "use numbers, names, arithmetic, comparisons, and/or/not, x if c else y, "
                "array indexing and calls")
        return method(node)

    def scalar(self, v, node):
        if isinstance(v, Value) and isinstance(v.type, T.Scalar):
            return v
        what = "an array" if isinstance(v, ArrayVal) else "a tuple" if isinstance(
            v, (TupleVal, Value)) else f"{_describe(v)}"
        raise self.loc.type_error(node, f"expected a number or a bool here, got {what}")

    def expr_Constant(self, node):
        t = T.literal_type(node.value)
        if t is None:
            raise self.loc.syntax_error(node, f"the constant {node.value!r} cannot be used in a "
                                        "kernel", "use int, float or bool constants")
        return Value(T.c_literal(node.value, t), t, node.value)

    def expr_Name(self, node):
        name = node.id
        if name in self.arrays:
            return self.arrays[name]
        if name in self.locals:
            return Value(self.cname_of(name), self.local_type(name),
                         nonneg=name not in self.signed and name not in self.params)
        return self.from_python(self.resolve_global(name, node), node)

    def resolve_global(self, name, node=None):
        f = self.pyfunc
        if f.__closure__:
            for n, cell in zip(f.__code__.co_freevars, f.__closure__):
                if n == name:
                    return cell.cell_contents
        if name in f.__globals__:
            return f.__globals__[name]
        if hasattr(builtins, name):
            return getattr(builtins, name)
        if node is None:
            return None
        raise self.loc.type_error(node, f"name {name!r} is not defined")

    def from_python(self, obj, node):
        from .calls import special_value
        special = special_value(self, obj, node)
        if special is not None:
            return special
        t = T.literal_type(obj)
        if t is not None:
            return Value(T.c_literal(obj, t), t, obj)
        if isinstance(obj, tuple) and all(T.literal_type(o) for o in obj):
            return TupleVal([self.from_python(o, node) for o in obj])
        return PyObj(obj)

    def expr_Attribute(self, node):
        base = self.expr(node.value)
        attr = node.attr
        if isinstance(base, ArrayVal):
            if attr == "shape":
                return TupleVal([Value(s, T.INT64, nonneg=True) for s in base.shape])
            if attr == "size":
                return Value(base.size(), T.INT64, nonneg=True)
            if attr == "ndim":
                return Value(str(base.type.ndim), T.WEAK_INT, base.type.ndim)
            raise self.loc.syntax_error(node, f"arrays have no attribute {attr!r} in a kernel",
                                        "use .shape, .size or .ndim")
        if isinstance(base, PyObj):
            from .calls import attribute
            return attribute(self, base.obj, attr, node)
        if isinstance(base, Value) and isinstance(base.type, T.Scalar) and \
                attr in ("real", "imag"):
            if base.type.kind != "c":
                return base if attr == "real" else Value("0", T.WEAK_INT, 0)
            part = T.Scalar(T.REAL_OF[base.type.dtype], weak=base.type.weak)
            return Value(f"({base.code}).{attr[:2]}", part)
        raise self.loc.syntax_error(node, f"attribute {attr!r} of a number is not supported",
                                    "numbers have .real and .imag")

    def expr_Tuple(self, node):
        return TupleVal([self.expr(e) for e in node.elts])

    def expr_Subscript(self, node):
        base = self.expr(node.value)
        if isinstance(base, ArrayVal):
            arr, idx = self.element(node)
            return Value(idx, T.Scalar(arr.type.dtype))
        k = self.const_int(node.slice)
        if isinstance(base, TupleVal):
            if not -len(base.items) <= k < len(base.items):
                raise self.loc.type_error(node, f"tuple index {k} out of range")
            return base.items[k]
        if isinstance(base, Value) and isinstance(base.type, T.Tuple):
            n = len(base.type.items)
            if not -n <= k < n:
                raise self.loc.type_error(node, f"tuple index {k} out of range")
            return Value(f"({base.code}).f{k % n}", base.type.items[k % n])
        raise self.loc.type_error(node, "only arrays and tuples can be indexed")

    def element(self, node):
        """(array, C++ lvalue of the element) of ``x[i]`` / ``x[i, j]``."""
        arr = self.expr(node.value)
        if not isinstance(arr, ArrayVal):
            raise self.loc.type_error(node.value, "only arrays can be indexed here")
        sl = node.slice
        idx_nodes = sl.elts if isinstance(sl, ast.Tuple) else [sl]
        idx = self.expr(sl) if not isinstance(sl, ast.Tuple) else None
        if isinstance(idx, TupleVal):  # x[t] with t a tuple (e.g. grid(2))
            vals = idx.items
            idx_nodes = [sl] * len(vals)
        else:
            vals = [idx] if idx is not None else [self.expr(n) for n in idx_nodes]
        if any(isinstance(n, ast.Slice) for n in idx_nodes):
            raise self.loc.syntax_error(sl, "slices are not supported in a kernel",
                                        "index every dimension with an integer")
        if len(vals) != arr.type.ndim:
            raise self.loc.type_error(node, f"a {arr.type.ndim}-d array needs {arr.type.ndim} "
                                      f"indices, got {len(vals)}",
                                      "index every dimension: x[i, j]")
        terms = []
        for k, (v, n) in enumerate(zip(vals, idx_nodes)):
            v = self.scalar(v, n)
            if v.type.kind not in "iub":
                raise self.loc.type_error(n, f"an index must be an integer, not {v.type}")
            code = v.code if v.type == T.INT64 else f"(long long)({v.code})"
            if v.const is not None and v.const < 0:  # a negative literal counts from the end
                code = f"({arr.shape[k]} + {v.const}ll)"
            elif not v.nonneg:  # NumPy's (and Numba's) wrap-around of a negative index
                code = f"accel_jit_wrap({code}, {arr.shape[k]})"
            if self.checked:
                what = _c_string(f"accel.jit: index out of bounds for {_array_name(node.value)} "
                                 f"axis {k}")
                code = f"ACCEL_JIT_CHECK({code}, {arr.shape[k]}, {what})"
            terms.append(code if arr.strides[k] == "1" else f"{code} * {arr.strides[k]}")
        offset = " + ".join(terms) if terms else "0"
        return arr, f"{arr.ptr}[{offset}]"

    def expr_IfExp(self, node):
        cond = self.as_bool(self.expr(node.test), node.test)
        a, b = self.expr(node.body), self.expr(node.orelse)
        if isinstance(a, TupleVal) and isinstance(b, TupleVal) and len(a.items) == len(b.items):
            return TupleVal([self._select(cond, x, y, node) for x, y in zip(a.items, b.items)])
        return self._select(cond, a, b, node)

    def _select(self, cond, a, b, node):
        a, b = self.scalar(a, node.body), self.scalar(b, node.orelse)
        t = T.promote(a.type, b.type)
        ct = T.concrete(t) if not (a.type.weak and b.type.weak) else t
        return Value(f"(({cond}) ? {self.cast(a, ct, node)} : {self.cast(b, ct, node)})", t,
                     nonneg=a.nonneg and b.nonneg)

    def expr_UnaryOp(self, node):
        v = self.scalar(self.expr(node.operand), node.operand)
        op = node.op
        if isinstance(op, ast.Not):
            return Value(f"(!{self.as_bool(v, node)})", T.BOOL)
        if isinstance(op, ast.UAdd):
            return v
        if isinstance(op, ast.USub):
            if v.const is not None:
                return Value(T.c_literal(-v.const, v.type), v.type, -v.const)
            t = T.INT64 if v.type.kind == "b" else v.type  # NumPy: -bool is an error; Python: int
            return Value(f"(({t.ctype})(-{self.cast(v, t, node)}))", t)
        if isinstance(op, ast.Invert):
            if v.type.kind == "f":
                raise self.loc.type_error(node, f"~ takes integers or bools, not {v.type}")
            if v.type.kind == "b":
                return Value(f"(!{v.code})", T.BOOL)
            return Value(f"(({T.concrete(v.type).ctype})(~{v.code}))", v.type)
        raise self.loc.syntax_error(node, "unsupported unary operator")

    def expr_BinOp(self, node):
        a = self.scalar(self.expr(node.left), node.left)
        b = self.scalar(self.expr(node.right), node.right)
        return self.binop(node.op, a, b, node)

    def binop(self, op, a, b, node):
        from .operators import binary
        return binary(self, op, self.scalar(a, node), self.scalar(b, node), node)

    def expr_BoolOp(self, node):
        op = " && " if isinstance(node.op, ast.And) else " || "
        parts = [self.as_bool(self.scalar(self.expr(v), v), v) for v in node.values]
        return Value("(" + op.join(parts) + ")", T.BOOL)

    def expr_Compare(self, node):
        from .operators import compare
        parts = []
        left = self.scalar(self.expr(node.left), node.left)
        for op, right_node in zip(node.ops, node.comparators):
            right = self.scalar(self.expr(right_node), right_node)
            parts.append(compare(self, op, left, right, node))
            left = right
        return Value(parts[0] if len(parts) == 1 else "(" + " && ".join(parts) + ")", T.BOOL)

    def expr_Call(self, node):
        from .calls import call
        return call(self, node)

    # ---- conversions ----
    def cast(self, v, t, node):
        """``v``'s C++ text converted to scalar type ``t``."""
        if not isinstance(v, Value) or not isinstance(v.type, T.Scalar):
            raise self.loc.type_error(node, f"expected a number or a bool, not {_describe(v)}")
        if v.const is not None:
            return T.c_literal(v.const, t)
        if not v.type.weak and v.type.dtype == t.dtype:
            return v.code
        return f"(({t.ctype})({v.code}))"

    def as_bool(self, v, node):
        v = self.scalar(v, node)
        code = v.code if v.type.kind == "b" else f"(({v.code}) != 0)"
        return code[1:-1] if code.startswith("((") and code.endswith("))") and \
            _balanced(code[1:-1]) else code

    def const_int(self, node):
        v = self.expr(node)
        if isinstance(v, Value) and isinstance(v.const, int) and not isinstance(v.const, bool):
            return v.const
        raise self.loc.type_error(node, "this must be an integer known when the kernel is "
                                  "compiled (a literal or a global constant)")

    def dtype_of(self, node):
        from .calls import dtype_name
        v = self.expr(node)
        name = dtype_name(v.obj) if isinstance(v, PyObj) else None
        if name is None:
            raise self.loc.type_error(node, "expected a dtype here",
                                      "use accel.float32, numpy.int64, float, int or bool")
        return T.Scalar(name)

    def target_name(self, node):
        if not isinstance(node, ast.Name):
            raise self.loc.syntax_error(node, "an annotation needs a plain name")
        return node.id
