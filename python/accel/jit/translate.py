"""A Python function's AST -> CUDA C++: the driver and the statements.

One ``FunctionTranslator`` turns one function, for one tuple of argument types, into the text
of a ``__global__`` kernel or a ``__device__`` function. Types flow forward from the arguments;
a local's type is fixed by its first assignment, except that a first assignment of a Python
literal (``acc = 0``) takes the type its later assignments promote it to (NEP 50's weak
literals), found by translating again. Expressions are in ``expressions.py``, operators in
``operators.py``, calls (builtins, math, jit intrinsics, device functions) in ``calls.py``.
Every statement is preceded by ``#line`` so compiler messages, asserts and
checked-mode index errors name the user's Python file and line.
"""

import ast
import builtins
import inspect
import textwrap

from . import types as T
from .errors import Location
from .expressions import ExpressionTranslator
from .values import ArrayVal, TupleVal, Value, _c_string

# C++ keywords and C library names a Python local could shadow; such locals get a suffix.
_RESERVED = set("""alignas alignof asm auto bool break case catch char class const constexpr
const_cast continue decltype default delete do double dynamic_cast else enum explicit export
extern false float for friend goto if inline int long mutable namespace new noexcept nullptr
operator private protected public register reinterpret_cast return short signed sizeof static
static_assert static_cast struct switch template this thread_local throw true try typedef typeid
typename union unsigned using virtual void volatile wchar_t while and or not xor bitand bitor
compl main printf assert min max abs sin cos tan exp log sqrt pow floor ceil fmod j0 j1 jn y0
y1 yn index signbit isnan isinf isfinite threadIdx blockIdx blockDim gridDim warpSize dim3
memcpy memset""".split())


class Redo(Exception):
    """Raised internally when a literal-initialised local's type is found to be wider."""


class FunctionTranslator(ExpressionTranslator):
    """Translates ``pyfunc`` for ``arg_types`` (kind: "kernel" or "device")."""

    def __init__(self, program, pyfunc, arg_types, kind, cname, checked):
        self.program = program
        self.pyfunc = pyfunc
        self.arg_types = list(arg_types)
        self.kind = kind
        self.cname = cname
        self.checked = checked
        self.tree, self.loc = parse_function(pyfunc)
        self.hints = {}      # local name -> type, from an earlier pass
        self.signed = set()  # locals assigned a value that may be negative (earlier passes)
        self.ret_hint = None

    # ---- driver ----
    def translate(self):
        """Returns (C++ text, return type, names of array parameters written)."""
        for _ in range(8):
            try:
                return self._pass()
            except Redo:
                continue
        raise self.loc.type_error(self.tree, "the types of the locals did not settle")

    def _pass(self):
        self.locals = {}       # name -> Scalar / Tuple (struct)
        self.first = {}        # name -> node of the first assignment
        self.weak_locals = {}  # name -> promoted type of a literal-initialised local
        self.arrays = {}       # name -> ArrayVal
        self.decls = []        # hoisted declarations
        self.written = set()   # parameter names of arrays written
        self.returns = []      # (node, type) of each return with a value
        self.params = set()    # scalar parameters (of unknown sign unless unsigned)
        self.new_signed = set()
        self.lines = []
        self.depth = 1
        self.loop_depth = 0
        self.tmp = 0
        fdef = self.tree
        a = fdef.args
        if a.vararg or a.kwarg or a.kwonlyargs or a.defaults or a.posonlyargs:
            raise self.loc.syntax_error(fdef, "a kernel takes plain positional parameters",
                                        "no *args, **kwargs, keyword-only or default values")
        if len(a.args) != len(self.arg_types):
            raise self.loc.type_error(fdef, f"{fdef.name}() takes {len(a.args)} arguments, "
                                      f"got {len(self.arg_types)}")
        params = []
        for arg, t in zip(a.args, self.arg_types):
            params.extend(self._param(arg.arg, t))
        self.block(fdef.body)
        changed = False
        for name, t in self.weak_locals.items():
            if not t.weak and self.hints.get(name) != t:
                self.hints[name] = t
                changed = True
        ret = self._return_type()
        if self.kind == "device" and ret != self.ret_hint:
            self.ret_hint = ret
            changed = True
        if not self.new_signed <= self.signed:  # a local thought non-negative is not
            self.signed |= self.new_signed
            changed = True
        if changed:
            raise Redo()
        param_text = []
        for p in params:
            ctype, name, array = p
            if array is not None and array not in self.written:
                ctype = "const " + ctype
            param_text.append(f"{ctype} {name}")
        if self.kind == "kernel":
            head = f'extern "C" __global__ void {self.cname}({", ".join(param_text)})'
        else:
            # internal linkage: inlined into the caller even in a -fPIC shared object
            head = (f"static __device__ inline {self._ret_ctype(ret)} {self.cname}"
                    f"({', '.join(param_text)})")
        body = [f"#line {self.loc.line(fdef)} \"{self._file()}\"", head + " {"]
        body += ["  " + d for d in self.decls] + self.lines + ["}"]
        return "\n".join(body) + "\n", ret, self.written

    def _file(self):
        return self.loc.filename.replace("\\", "\\\\").replace('"', '\\"')

    def _return_type(self):
        if not self.returns:
            return None
        t = self.returns[0][1]
        for node, u in self.returns[1:]:
            if isinstance(t, T.Scalar) and isinstance(u, T.Scalar):
                t = T.promote(t, u)
            elif t != u:
                raise self.loc.type_error(node, f"this return gives {u}, an earlier one {t}",
                                          "every return must give the same kind of value")
        return T.concrete(t) if isinstance(t, T.Scalar) else t

    def _ret_ctype(self, ret):
        if ret is None:
            return "void"
        if isinstance(ret, T.Tuple):
            return self.program.tuple_struct(ret)
        return ret.ctype

    def _param(self, name, t):
        cname = self.cname_of(name)
        if isinstance(t, T.Scalar):
            self.locals[name] = t
            self.first[name] = self.tree
            self.params.add(name)
            return [(t.ctype, cname, None)]
        if isinstance(t, T.Array):
            shape = [f"{cname}_shape{k}" for k in range(t.ndim)]
            out = [(t.ctype + "*", cname, name)] + [("long long", s, None) for s in shape]
            if t.layout == "C":  # strides from the shape; the last axis indexes directly
                strides = [f"{cname}_stride{k}" for k in range(t.ndim - 1)] + ["1"]
                for k in reversed(range(t.ndim - 1)):
                    inner = shape[k + 1] if k == t.ndim - 2 else \
                        f"{shape[k + 1]} * {strides[k + 1]}"
                    self.decls.append(f"const long long {strides[k]} = {inner};")
            else:
                strides = [f"{cname}_stride{k}" for k in range(t.ndim)]
                out += [("long long", s, None) for s in strides]
            self.arrays[name] = ArrayVal(t, cname, shape, strides, param=name)
            return out
        raise self.loc.type_error(self.tree, f"parameter {name!r} has an unsupported type {t}")

    def cname_of(self, name):
        return name + "_v" if name in _RESERVED or name.startswith("accel") or "__" in name \
            else name

    # ---- emission ----
    def emit(self, text, node=None):
        if node is not None and hasattr(node, "lineno"):
            self.lines.append(f"#line {self.loc.line(node)} \"{self._file()}\"")
        self.lines.append("  " * self.depth + text)

    def temp(self, prefix="t"):
        self.tmp += 1
        return f"accel_{prefix}{self.tmp}"

    def block(self, stmts):
        for s in stmts:
            self.stmt(s)

    def nested(self, stmts):
        self.depth += 1
        self.block(stmts)
        self.depth -= 1

    # ---- statements ----
    def stmt(self, node):
        method = getattr(self, "stmt_" + type(node).__name__, None)
        if method is None:
            raise self.loc.syntax_error(
                node, f"'{type(node).__name__}' statements are not supported in a kernel",
                "use assignments, if/elif/else, for ... in range(...), while, break, continue, "
                "return, assert and calls")
        method(node)

    def stmt_Pass(self, node):
        pass

    def stmt_Expr(self, node):
        if isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
            return  # a docstring
        v = self.expr(node.value)
        if isinstance(v, Value):
            self.emit(f"(void){v.code};", node)
        elif v is not None:
            raise self.loc.syntax_error(node, "this expression statement does nothing")

    def stmt_Assert(self, node):
        cond = self.as_bool(self.expr(node.test), node.test)
        msg = ""
        if node.msg is not None:
            if not (isinstance(node.msg, ast.Constant) and isinstance(node.msg.value, str)):
                raise self.loc.syntax_error(node.msg, "an assert's message must be a string "
                                            "literal")
            msg = " && " + _c_string(node.msg.value)
        self.emit(f"assert(({cond}){msg});", node)

    def stmt_Assign(self, node):
        if len(node.targets) != 1:
            raise self.loc.syntax_error(node, "chained assignment (a = b = ...) is not supported",
                                        "assign each name on its own line")
        self.assign(node.targets[0], node.value, node)

    def stmt_AnnAssign(self, node):
        t = self.dtype_of(node.annotation)
        name = self.target_name(node.target)
        if name in self.locals or name in self.arrays:
            raise self.loc.type_error(node, f"{name!r} is already defined; an annotation "
                                      "must come with the first assignment")
        self.declare(name, t, node)
        if node.value is not None:
            self.assign(node.target, node.value, node)

    def stmt_AugAssign(self, node):
        op = node.op
        if isinstance(node.target, ast.Name):
            name = node.target.id
            if name not in self.locals:
                raise self.loc.type_error(node.target, f"{name!r} is used before it is assigned")
            cur = self.expr_Name(node.target)
            self.store_local(name, self.binop(op, cur, self.expr(node.value), node), node)
        elif isinstance(node.target, ast.Subscript):
            arr, idx = self.element(node.target)
            elt = T.Scalar(arr.type.dtype)
            ref = self.temp("r")
            self.mark_written(arr)
            self.emit(f"{{ {elt.ctype}& {ref} = {idx};", node)
            self.depth += 1
            v = self.binop(op, Value(ref, elt), self.expr(node.value), node)
            self.emit(f"{ref} = {self.cast(v, elt, node.value)}; }}")
            self.depth -= 1
        else:
            raise self.loc.syntax_error(node.target, "augmented assignment to this target is "
                                        "not supported", "use a name or an array element")

    def assign(self, target, value_node, node):
        if isinstance(target, ast.Tuple):
            v = self.expr(value_node)
            n = len(target.elts)
            if isinstance(v, TupleVal):
                if len(v.items) != n:
                    raise self.loc.type_error(node, f"{len(v.items)} values to unpack into {n}")
                vals = list(v.items)
                tmps = []
                for item in vals:  # evaluate every right-hand side before storing (a, b = b, a)
                    if isinstance(item, Value) and item.const is None:
                        t = self.temp()
                        self.emit(f"const {T.concrete(item.type).ctype} {t} = {item.code};", node)
                        tmps.append(Value(t, item.type, nonneg=item.nonneg))
                    else:
                        tmps.append(item)
                for tgt, item in zip(target.elts, tmps):
                    self.store(tgt, item, node)
                return
            if isinstance(v, Value) and isinstance(v.type, T.Tuple):
                if len(v.type.items) != n:
                    raise self.loc.type_error(node, f"{len(v.type.items)} values to unpack into "
                                              f"{n}")
                t = self.temp()
                self.emit(f"const {self.program.tuple_struct(v.type)} {t} = {v.code};", node)
                for k, tgt in enumerate(target.elts):
                    self.store(tgt, Value(f"{t}.f{k}", v.type.items[k]), node)
                return
            raise self.loc.type_error(node, "only a tuple can be unpacked")
        self.store(target, self.expr(value_node), node)

    def store(self, target, v, node):
        if isinstance(target, ast.Name):
            name = target.id
            if isinstance(v, ArrayVal):
                if name in self.arrays and self.arrays[name] is not v:
                    raise self.loc.type_error(target, f"{name!r} already names another array")
                if name in self.locals:
                    raise self.loc.type_error(target, f"{name!r} is a {self.locals[name]}, not an "
                                              "array")
                self.arrays[name] = v
                return
            if isinstance(v, TupleVal):
                raise self.loc.type_error(target, "a tuple cannot be stored in a variable",
                                          "unpack it: a, b = ...")
            if not isinstance(v, Value):
                raise self.loc.type_error(target, f"{name!r} cannot hold this value",
                                          "a local holds a number or a bool")
            if name in self.arrays:
                raise self.loc.type_error(target, f"{name!r} is an array; it cannot be assigned "
                                          "a number")
            if name not in self.locals:
                self.declare(name, v.type, target)
            self.store_local(name, v, node)
        elif isinstance(target, ast.Subscript):
            arr, idx = self.element(target)
            if not isinstance(v, Value) or not isinstance(v.type, T.Scalar):
                raise self.loc.type_error(target, "an array element takes a number or a bool")
            self.mark_written(arr)
            self.emit(f"{idx} = {self.cast(v, T.Scalar(arr.type.dtype), node)};", node)
        else:
            raise self.loc.syntax_error(target, "assignment to this target is not supported",
                                        "assign to a name, an array element or a tuple of them")

    def declare(self, name, t, node):
        if isinstance(t, T.Scalar) and t.weak and name in self.hints:
            t = self.hints[name]
        elif isinstance(t, T.Scalar) and t.weak:
            self.weak_locals[name] = t
        self.locals[name] = t
        self.first[name] = node
        ctype = self.program.tuple_struct(t) if isinstance(t, T.Tuple) else T.concrete(t).ctype
        self.decls.append(f"{ctype} {self.cname_of(name)};")

    def local_type(self, name):
        return self.weak_locals.get(name, self.locals[name])

    def store_local(self, name, v, node):
        t = self.locals[name]
        if not v.nonneg:
            self.new_signed.add(name)
        if isinstance(t, T.Tuple) or isinstance(v.type, T.Tuple):
            if t != v.type:
                raise self.loc.type_error(node, f"{name!r} is a {t}; it cannot take a {v.type}")
            self.emit(f"{self.cname_of(name)} = {v.code};", node)
            return
        if name in self.weak_locals:
            self.weak_locals[name] = T.promote(self.weak_locals[name], v.type)
        elif not T.can_assign(t, v.type):
            first = self.first[name]
            raise self.loc.type_error(
                node, f"{name!r} is {t} (from its first assignment at line "
                f"{self.loc.line(first)}) and cannot take a {v.type} value",
                f"convert explicitly, e.g. accel.{t.dtype}(...), or start it as {v.type}")
        self.emit(f"{self.cname_of(name)} = {self.cast(v, T.concrete(t), node)};", node)

    def mark_written(self, arr):
        if arr.param is not None:
            self.written.add(arr.param)

    def stmt_If(self, node):
        cond = self.as_bool(self.expr(node.test), node.test)
        self.emit(f"if ({cond}) {{", node)
        self.nested(node.body)
        orelse = node.orelse
        while len(orelse) == 1 and isinstance(orelse[0], ast.If):
            elif_ = orelse[0]
            c = self.as_bool(self.expr(elif_.test), elif_.test)
            self.emit(f"}} else if ({c}) {{", elif_)
            self.nested(elif_.body)
            orelse = elif_.orelse
        if orelse:
            self.emit("} else {")
            self.nested(orelse)
        self.emit("}")

    def stmt_While(self, node):
        if node.orelse:
            raise self.loc.syntax_error(node, "while ... else is not supported",
                                        "use a flag variable")
        cond = self.as_bool(self.expr(node.test), node.test)
        self.emit(f"while ({cond}) {{", node)
        self.loop_depth += 1
        self.nested(node.body)
        self.loop_depth -= 1
        self.emit("}")

    def stmt_For(self, node):
        if node.orelse:
            raise self.loc.syntax_error(node, "for ... else is not supported",
                                        "use a flag variable")
        it = node.iter
        if not (isinstance(it, ast.Call) and isinstance(it.func, ast.Name)
                and it.func.id == "range" and self.resolve_global("range") is builtins.range):
            raise self.loc.syntax_error(it, "a kernel loops only over range(...)",
                                        "write for i in range(start, stop, step)")
        if it.keywords or not 1 <= len(it.args) <= 3:
            raise self.loc.syntax_error(it, "range takes 1 to 3 positional arguments")
        args = [self.scalar(self.expr(a), a) for a in it.args]
        for a, node_a in zip(args, it.args):
            if a.type.kind not in "iub":
                raise self.loc.type_error(node_a, f"range() takes integers, not {a.type}")
        if len(args) == 1:
            args = [Value("0", T.WEAK_INT, 0)] + args
        if len(args) == 2:
            args.append(Value("1", T.WEAK_INT, 1))
        t = args[0].type
        for a in args[1:]:
            t = T.promote(t, a.type)
        ct = T.concrete(t)
        if not isinstance(node.target, ast.Name):
            raise self.loc.syntax_error(node.target, "a for loop's target must be a name")
        name = node.target.id
        if name not in self.locals:
            self.declare(name, ct, node.target)
        step = args[2]
        if step.const == 0:
            raise self.loc.type_error(it.args[2], "range() step must not be zero")
        it_var, stop_var, step_var = self.temp("i"), self.temp("stop"), self.temp("step")
        self.emit(f"{{ const {ct.ctype} {stop_var} = {self.cast(args[1], ct, it)}; "
                  f"const {ct.ctype} {step_var} = {self.cast(step, ct, it)};", node)
        if step.const is not None:
            cmp = "<" if step.const > 0 else ">"
            cond = f"{it_var} {cmp} {stop_var}"
        else:
            cond = f"({step_var} > 0 ? {it_var} < {stop_var} : {it_var} > {stop_var})"
        self.emit(f"for ({ct.ctype} {it_var} = {self.cast(args[0], ct, it)}; {cond}; "
                  f"{it_var} += {step_var}) {{")
        self.depth += 1
        # the loop variable is never negative when counting up from >= 0, or down to >= -1
        nonneg = args[0].nonneg and step.nonneg or (
            step.const is not None and step.const < 0 and args[1].const is not None and
            args[1].const >= -1)
        self.store_local(name, Value(it_var, ct, nonneg=nonneg), node.target)
        self.loop_depth += 1
        self.block(node.body)
        self.loop_depth -= 1
        self.depth -= 1
        self.emit("} }")

    def stmt_Break(self, node):
        self.emit("break;", node)

    def stmt_Continue(self, node):
        self.emit("continue;", node)

    def stmt_Return(self, node):
        if node.value is None:
            if self.kind == "device" and self.ret_hint is not None:
                raise self.loc.type_error(node, "this function returns a value elsewhere; "
                                          "a bare return here is not allowed")
            self.emit("return;", node)
            return
        if self.kind == "kernel":
            raise self.loc.type_error(node, "a kernel cannot return a value",
                                      "write results into an array argument")
        v = self.expr(node.value)
        if isinstance(v, TupleVal):
            items = [self.scalar(i, node.value) for i in v.items]
            t = T.Tuple(tuple(T.concrete(i.type) for i in items))
            self.returns.append((node, t))
            if isinstance(self.ret_hint, T.Tuple) and len(self.ret_hint.items) == len(items):
                codes = [self.cast(i, rt, node) for i, rt in zip(items, self.ret_hint.items)]
                self.emit(f"return {self.program.tuple_struct(self.ret_hint)}"
                          f"{{{', '.join(codes)}}};", node)
            return
        v = self.scalar(v, node.value)
        self.returns.append((node, v.type))
        if isinstance(self.ret_hint, T.Scalar):
            self.emit(f"return {self.cast(v, self.ret_hint, node)};", node)


_parsed = {}


def parse_function(pyfunc):
    """The function's AST (dedented) and the Location mapping it back to the file."""
    key = pyfunc.__code__
    hit = _parsed.get(key)
    if hit is not None:
        return hit
    try:
        lines, first = inspect.getsourcelines(pyfunc)
        filename = inspect.getsourcefile(pyfunc) or pyfunc.__code__.co_filename
    except (OSError, TypeError) as e:
        raise TypeError(f"[jit {pyfunc.__name__}] the source of {pyfunc.__name__} is not "
                        f"available ({e}); a kernel must be defined in a file") from None
    text = "".join(lines)
    dedented = textwrap.dedent(text)
    indent = len(lines[0]) - len(lines[0].lstrip()) if lines else 0
    tree = ast.parse(dedented)
    fdef = tree.body[0]
    if not isinstance(fdef, ast.FunctionDef):
        raise TypeError(f"[jit] {pyfunc!r} is not a plain function (def ...)")
    loc = Location(filename, first, indent, lines, pyfunc.__name__)
    _parsed[key] = (fdef, loc)
    return fdef, loc
