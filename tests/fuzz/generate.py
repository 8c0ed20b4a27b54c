"""Random programs: a DAG of statements over a few input arrays, built with NumPy as the model.

Every candidate statement is executed on NumPy as it is generated: one NumPy rejects (a bad
broadcast, a dtype without a loop, an out-of-range index or Python int) is dropped and another
is drawn, so programs are valid by construction and the generator needs no copy of NumPy's
rules. Statements cover accel's surface: every op of accel/core/ops.def and operator, Python
(weak) and NumPy (strong) scalars, long chains, casts, views, reductions and scans, matmul,
linalg and fft (generate_linalg.py), indexing, sorting, searching and set functions, in-place
operators, slice/advanced/mask assignment and out=.
"""

import pathlib
import re
import warnings

import numpy as np

from generate_linalg import LinalgFftMakers
from program import GUARDS, LITERALS, NUMPY, Input, Program, Stmt, compiled, guard_holds, quiet

DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
          "float16", "float32", "float64", "complex64", "complex128"]
INTS = [d for d in DTYPES if d[0] in "iu"]

_OPS_DEF = pathlib.Path(__file__).resolve().parents[2] / "accel" / "core" / "ops.def"
_REGISTRY = re.findall(r"^ACCEL_OP\((\w+), (\d)", _OPS_DEF.read_text(), re.M)
UNARY = [n for n, a in _REGISTRY if a == "1" and n != "cast"]
BINARY = [n for n, a in _REGISTRY if a == "2"]

# Ops whose float results are not correctly rounded, so two libraries may differ in the last
# places (libm vs NumPy's SIMD kernels); also divide/pow/... on complex (formulas differ).
INEXACT = {"pow", "atan2", "hypot", "logaddexp", "logaddexp2", "cbrt", "exp", "exp2", "expm1",
           "log", "log1p", "log2", "log10", "sin", "cos", "tan", "asin", "acos", "atan", "sinh",
           "cosh", "tanh", "asinh", "acosh", "atanh", "deg2rad", "rad2deg"}
INEXACT_ON_COMPLEX = {"multiply", "divide", "square", "reciprocal", "sqrt", "abs", "sign"}
# Periodic ops of a huge argument: the libraries reduce the argument with different precision
# (NumPy's SIMD kernels and glibc disagree past 2^24 or so), so the answers are both "right".
PERIODIC = {"sin", "cos", "tan"}
# Complex ops periodic in one part (exp's in the imaginary, sinh's too, sin's in the real):
# cis() of a huge part is the sign of a rounding (exp2 of 4e125-5e124j, seed 1885).
COMPLEX_PERIODIC = PERIODIC | {"exp", "exp2", "expm1", "sinh", "cosh", "tanh"}
# Float ops whose result moves by far more than their divisor's rounding: 1 % 0.0005000001.
AMPLIFIERS = {"remainder", "fmod", "floor_divide"}
# Ops whose result for a tie of 0 and -0.0 has no defined sign (see program.no_zero_tie).
ZERO_TIE_OPS = {"minimum", "maximum", "fmin", "fmax"}
OPERATORS = {"add": "+", "subtract": "-", "multiply": "*", "divide": "/", "floor_divide": "//",
             "remainder": "%", "pow": "**", "bitwise_and": "&", "bitwise_or": "|",
             "bitwise_xor": "^", "bitwise_left_shift": "<<", "bitwise_right_shift": ">>",
             "equal": "==", "not_equal": "!=", "less": "<", "less_equal": "<=", "greater": ">",
             "greater_equal": ">="}
REDUCTIONS = ["sum", "prod", "min", "max", "mean", "var", "std", "any", "all", "argmin",
              "argmax", "cumsum", "cumprod", "count_nonzero", "cumulative_sum"]
INEXACT_REDUCTIONS = {"sum", "prod", "mean", "var", "std"}  # summation order differs
NAN_FORMS = {"sum", "prod", "min", "max", "mean", "var", "std"}  # nansum, nanmin, ...
MAX_SIZE = 40000
SPELLINGS = {"negative": ["(-{})"], "positive": ["(+{})"], "bitwise_invert": ["(~{})"],
             "abs": ["abs({})"]}

PY_SCALARS = ["0", "1", "2", "3", "5", "-1", "-3", "7", "100", "127", "255", "-128", "1000",
              "65535", "0.5", "2.0", "-1.5", "0.0", "-0.0", "3.25", "0.001", "1e10", "1e300",
              "nan", "inf", "-inf", "1j", "(2-0.5j)", "True", "False"]


class Node:
    """A generated expression: its text and its NumPy value."""

    def __init__(self, text, value, inexact=False, guards=()):
        self.text, self.value, self.inexact = text, np.asarray(value), inexact
        # NumPy computes on 0-d inputs as scalars, which follow scalar rules in places.
        self.numpy_scalar = isinstance(value, np.generic)
        self.guards = list(guards)


class Builder(LinalgFftMakers):
    def __init__(self, seed):
        self.seed = seed
        self.rng = np.random.default_rng(seed)
        self.env = {}  # NumPy values of the names, as the program stands
        self.inputs, self.stmts = [], []
        self.readonly = set()
        # Names NumPy may lay out otherwise than accel (see add()).
        self.foreign_layout = set()
        # Names whose values may differ from NumPy's in the last places (see rounded()).
        self.rounded = set()
        # The coarsest precision each rounded name was rounded at (its machine epsilon): a
        # float32 sin widened to complex128 still carries float32-sized differences.
        self.rounding_eps = {}
        # Rounded names whose differences are relative to their array's largest value (a
        # factorization's or a transform's result, and what is computed from one).
        self.normwise = set()

    # ---- choices --------------------------------------------------------------------------------

    def choice(self, seq):
        return seq[int(self.rng.integers(len(seq)))]

    def chance(self, p):
        return self.rng.random() < p

    def names(self, pred=None):
        return [n for n, v in self.env.items() if pred is None or pred(v)]

    def pick(self, pred=None, writable=False):
        """A name, the recent ones more often (chains), any of them sometimes (shared values)."""
        names = [n for n in self.names(pred)
                 if not writable or n not in self.readonly]
        if not names:
            return None
        w = np.ones(len(names))
        w[-4:] += 3
        return names[int(self.rng.choice(len(names), p=w / w.sum()))]

    # ---- inputs ---------------------------------------------------------------------------------

    def base_shape(self):
        r = self.rng.random()
        if r < 0.07:
            return ()
        if r < 0.14:
            s = list(self.rng.integers(1, 5, int(self.rng.integers(1, 3))))
            s[int(self.rng.integers(len(s)))] = 0
            return tuple(int(d) for d in s)
        if r < 0.22:  # large enough for vector loops, threads and BLAS
            return self.choice([(int(self.rng.integers(300, 5000)),),
                                (int(self.rng.integers(20, 130)), int(self.rng.integers(20, 130)))])
        return tuple(int(d) for d in self.rng.integers(1, 6, int(self.rng.integers(1, 4))))

    def input_shape(self, base):
        r = self.rng.random()
        if r < 0.6 or not base:
            return base
        if r < 0.8:  # broadcastable: drop leading axes, set some to 1
            s = list(base[int(self.rng.integers(len(base) + 1)):])
            return tuple(1 if self.chance(0.3) else d for d in s)
        return base[::-1]

    def literal(self, dtype, shape):
        n = int(np.prod(shape))
        rng, dt = self.rng, np.dtype(dtype)
        if n > 64:
            s = int(rng.integers(1 << 30))
            r = f"np.random.default_rng({s})"
            if dt.kind == "b":
                return f"{r}.random({shape}) < 0.5"
            if dt.kind in "iu":
                lo, hi = (-50, 50) if dt.kind == "i" else (0, 100)
                return f"{r}.integers({lo}, {hi}, {shape}).astype({dtype!r})"
            if dt.kind == "f":
                return f"{r}.normal(0, 3, {shape}).astype({dtype!r})"
            return (f"({r}.normal(0, 3, {shape}) + 1j * np.random.default_rng({s + 1})"
                    f".normal(0, 3, {shape})).astype({dtype!r})")
        vals = [self.element(dt) for _ in range(n)]
        body = vals[0] if shape == () else "[" + ", ".join(vals) + "]"
        text = f"np.array({body}, dtype={dtype!r})"
        return text if len(shape) <= 1 else f"{text}.reshape({shape})"

    def element(self, dt):
        rng = self.rng
        if dt.kind == "b":
            return str(bool(rng.random() < 0.5))
        if dt.kind in "iu":
            info = np.iinfo(dt)
            r = rng.random()
            if r < 0.6:
                lo = 0 if dt.kind == "u" else -5
                return str(int(rng.integers(lo, 10)))
            if r < 0.8:
                return str(self.choice([int(info.min), int(info.max), 0, 1, int(info.max) - 1]))
            return str(int(rng.integers(int(info.min), int(info.max), endpoint=True, dtype=dt)))
        if dt.kind == "c":
            real = np.dtype(dt.char.lower())
            return f"complex({self.element(real)}, {self.element(real)})"
        r = rng.random()
        if r < 0.6:
            v = float(rng.integers(-40, 40)) / 8
        elif r < 0.75:
            v = self.choice([np.nan, np.inf, -np.inf, 0.0, -0.0, 1e30, -1e-30, 3e38, 1e-40])
        else:
            v = float(rng.normal() * 10)
        return repr(float(np.asarray(v, dtype=dt)))

    def make_inputs(self):
        base = self.base_shape()
        for i in range(int(self.rng.integers(2, 5))):
            shape = self.input_shape(base)
            dtype = self.choice(DTYPES + ["float32", "float64", "int32", "int64"])
            inp = Input(f"a{i}", self.literal(dtype, shape))
            self.inputs.append(inp)
            self.env[inp.name] = np.asarray(eval(inp.values, dict(LITERALS))).copy()

    # ---- statements -----------------------------------------------------------------------------

    def add(self, stmt):
        """Executes stmt on NumPy; keeps it if NumPy accepts it (returns whether it did)."""
        g = {"xp": NUMPY, **LITERALS, **GUARDS}
        if stmt.guard and not guard_holds(stmt.guard, g, self.env):
            return False
        if stmt.writes in self.readonly:
            return False
        before = {n: v.copy() for n, v in self.env.items()} if stmt.kind == "write" else None
        local = dict(self.env)
        try:
            exec(compiled(stmt.text), g, local)
        except Exception:
            if before is not None:  # a failed write may have written part of its values
                self.env = before
            return False
        if stmt.defines:
            v = local[stmt.defines]
            scalar = not isinstance(v, np.ndarray)
            v = np.asarray(v)
            if v.size > MAX_SIZE or v.dtype == object:
                return False
            if scalar and stmt.kind == "view":
                return False  # accel has no scalars: its x[i] is a 0-d view, NumPy's a copy
            if scalar:
                # NumPy returns a scalar where accel returns a 0-d array: say so in the text.
                stmt.text = f"{stmt.defines} = xp.asarray({stmt.text.split(' = ', 1)[1]})"
            if stmt.kind == "view" and not v.flags.writeable:
                self.readonly.add(stmt.defines)
            # Views of a read-only view that other statements make (array_split's parts of a
            # sliding window) are read-only in accel too; NumPy's ufunc.at writes through them
            # (fuzz seed 2223250), so no write may pick them.
            if any(u in self.readonly and isinstance(self.env.get(u), np.ndarray) and
                   np.shares_memory(v, self.env[u]) for u in stmt.uses):
                self.readonly.add(stmt.defines)
            # A result NumPy lays out otherwise than C may be laid out otherwise in accel, and
            # views inherit the difference; except a statement whose layout the oracle checks
            # (layout=True: elementwise, astype, sorts, joins, scans, fancy indexing, pads) over
            # inputs laid out alike, whose layout must then be NumPy's.
            foreign_input = bool(self.foreign_layout.intersection(stmt.uses))
            if (foreign_input if stmt.kind == "view"
                    else v.ndim >= 2 and not v.flags.c_contiguous
                    and (foreign_input or not stmt.layout)):
                self.foreign_layout.add(stmt.defines)
            self.env[stmt.defines] = v
        if (stmt.defines or stmt.writes) and (stmt.inexact or self.rounded.intersection(stmt.uses)):
            dtype = self.env[stmt.defines or stmt.writes].dtype
            own = float(np.finfo(dtype).eps) if stmt.inexact and dtype.kind in "fc" else 0.0
            eps = max([self.rounding_eps[n] for n in self.rounded.intersection(stmt.uses)] + [own])
            if stmt.defines:
                names = [stmt.defines]
            else:  # every name that shows the memory written
                w = self.env[stmt.writes]
                names = [n for n, v in self.env.items() if np.shares_memory(v, w)]
            normwise = stmt.normwise or bool(self.normwise.intersection(stmt.uses))
            for n in names:
                self.rounded.add(n)
                self.rounding_eps[n] = max(self.rounding_eps.get(n, 0.0), eps)
                if normwise:
                    self.normwise.add(n)
        self.stmts.append(stmt)
        return True

    def separated(self, *names):
        """The guard that rounded values are far enough apart for a sort or a set operation:
        apart by their own magnitude, or by their array's largest where normwise."""
        normwise = ", normwise=True" if self.normwise.intersection(names) else ""
        return f"well_separated({', '.join(names)}{normwise})"

    def is_rounded(self, node):
        """Whether an expression's float value may differ from NumPy's in the last places: it
        reads a name an inexact statement computed (a libm-rounded sin, a sum in another order)."""
        return node.value.dtype.kind in "fc" and bool(
            self.rounded.intersection(self.uses_of(node.text)))

    def rounding_eps_of(self, *nodes):
        """The machine epsilon of the coarsest precision the nodes' rounded names were rounded
        at, as a literal for a guard's eps argument."""
        return repr(max([self.rounding_eps[n] for x in nodes
                         for n in self.rounded.intersection(self.uses_of(x.text))] + [0.0]))

    def new_name(self):
        return f"v{len(self.stmts)}"

    def define(self, text, uses, kind="value", inexact=False, guard=None, normwise=False,
               layout=False):
        name = self.new_name()
        return self.add(Stmt(f"{name} = {text}", name, tuple(uses), kind=kind,
                             inexact=inexact, guard=guard, normwise=normwise, layout=layout))

    # ---- expressions ----------------------------------------------------------------------------

    def scalar(self):
        if self.chance(0.6):
            t = self.choice(PY_SCALARS)
        else:
            dt = self.choice(DTYPES)
            v = {"b": "True", "i": self.choice(["2", "-3", "1"]), "u": self.choice(["2", "7"]),
                 "f": self.choice(["1.5", "-0.25", "3.0"]), "c": "(1-2j)"}[np.dtype(dt).kind]
            t = f"np.{dt}({v})" if dt != "bool" else f"np.bool_({v})"
        return Node(t, eval(t, dict(LITERALS)))

    def leaf(self, like=None):
        if self.chance(0.25):
            return self.scalar()
        name = self.pick(lambda v: like is None or broadcasts(v.shape, like.shape))
        if name is None:
            return self.scalar()
        return Node(name, self.env[name])

    def node(self, depth, top, first=None):
        """An elementwise expression. Inexact ops only at the top, so the oracle's noise on a
        statement's result models exactly where the libraries may round differently."""
        if depth == 0:
            return first or self.leaf()
        a = first or self.node(depth - 1, False)
        r = self.rng.random()
        for _ in range(4):
            guards = []
            if r < 0.3:
                op = self.choice(UNARY)
                if op == "round" and a.value.dtype.kind == "b":
                    continue  # NumPy rounds bools in float16, accel keeps bool (a listed difference)
                args = [a]
                text = self.choice([f"xp.{op}({a.text})"] + SPELLINGS.get(op, [])).format(a.text)
                if op == "signbit":
                    guards.append(f"no_nan({a.text})")  # a NaN's sign is not part of its value
                if op in ("logical_not", "sign", "signbit") and self.is_rounded(a):
                    # Jumps at 0, where another library's rounding may land exactly (seed
                    # 2067806: sign(log2(tan(pi/4))), -1 in NumPy, 0 in accel).
                    guards.append(f"no_near_zero({a.text}, {self.rounding_eps_of(a)})")
                if op in ("log", "log2", "log10") and self.is_rounded(a):
                    # Near 1 the log is a value near 0 whose zero-ness is the rounding's: accel's
                    # tan(atan(1)) is 1.0, NumPy's 1 - 2^-53, and their log2s 0 and -1.6e-16,
                    # which the one-ulp runs never reach from both sides (seed 2067806).
                    guards.append(f"no_near_zero(({a.text}) - 1, {self.rounding_eps_of(a)})")
                if op == "reciprocal" and a.value.dtype.kind in "biu":
                    guards.append(f"no_zero({a.text})")
                if op in PERIODIC or (op in COMPLEX_PERIODIC and a.value.dtype.kind == "c"):
                    guards.append(f"moderate({a.text})")
                if op == "spacing" and self.is_rounded(a):
                    # The gap doubles at each power of two and takes x's sign: a rounded value
                    # near either may give another library the other answer.
                    eps = self.rounding_eps_of(a)
                    guards += [f"no_near_power_of_two({a.text}, {eps})",
                               f"no_near_zero({a.text}, {eps})"]
                if op in ("floor", "ceil", "trunc") and self.is_rounded(a):
                    guards.append(f"no_near_multiple({a.text}, 1, {self.rounding_eps_of(a)})")
                if op == "round" and self.is_rounded(a):  # jumps at halves (seed 1111315)
                    guards.append(f"no_near_multiple({a.text} + 0.5, 1, {self.rounding_eps_of(a)})")
            elif r < 0.9:
                op = self.choice(BINARY)
                b = self.node(depth - 1, False) if self.chance(0.3) else self.leaf(a.value)
                args = [a, b] if self.chance(0.8) else [b, a]
                if op == "pow" and args[0].numpy_scalar and args[0].value.dtype == bool:
                    continue  # np.True_ ** 2 is int64; a 0-d bool array's (and accel's) int8
                if op == "pow" and "c" in {x.value.dtype.kind for x in args}:
                    # A complex power's angle is Im(y log x): cis() of a huge exponent's is the
                    # sign of a rounding (vander's 1.6e77 as an exponent, seed 2133178).
                    guards.append(f"moderate({args[1].text})")
                if op == "copysign":
                    guards.append(f"no_nan({args[1].text})")
                # The sign taken and heaviside's step jump at 0, as sign() does.
                jump = {"copysign": args[1], "heaviside": args[0]}.get(op)
                if jump is not None and self.is_rounded(jump):
                    guards.append(f"no_near_zero({jump.text}, {self.rounding_eps_of(jump)})")
                if op in ZERO_TIE_OPS:
                    guards.append(f"no_zero_tie({args[0].text}, {args[1].text})")
                if op in ("logical_and", "logical_or", "logical_xor"):
                    guards += [f"no_near_zero({x.text}, {self.rounding_eps_of(x)})"
                               for x in args if self.is_rounded(x)]
                if (op in ("equal", "not_equal", "nextafter") and args[0].text != args[1].text
                        and (self.is_rounded(args[0]) or self.is_rounded(args[1]))):
                    # acos(cos(1)) == 1: NumPy's 1 - 1 ulp is another library's 1. The noise
                    # runs find exact ties, not such near ones. nextafter steps a rounded value
                    # onto its target or one ulp short of it (seed 50025814: 2**log2(3)).
                    guards.append(f"no_near_tie({args[0].text}, {args[1].text}, "
                                  f"{self.rounding_eps_of(*args)})")
                if (op in ("less", "less_equal", "greater", "greater_equal")
                        and args[0].text != args[1].text
                        and (self.is_rounded(args[0]) or self.is_rounded(args[1]))):
                    guards.append(f"no_order_tie({args[0].text}, {args[1].text}, "
                                  f"{self.rounding_eps_of(*args)})")
                if (op in ("less", "less_equal", "greater", "greater_equal")
                        and "c" in {x.value.dtype.kind for x in args}):
                    # NumPy orders a complex value with a NaN part one way as an array element
                    # (False: its loops test the parts for NaN) and another as a NumPy scalar,
                    # which a 0-d intermediate inside a statement is (1e10 > fmin(z, z) with z
                    # = -12.2+nan j is True; fuzz seed 1991227); accel's 0-d arrays are arrays.
                    guards += [f"no_nan({x.text})" for x in args]
                if op == "pow" and self.is_rounded(args[1]):
                    guards.append(f"no_integer_exponent_jump({args[0].text}, {args[1].text}, "
                                  f"{self.rounding_eps_of(args[1])})")
                if op == "divide" and self.is_rounded(args[0]):
                    guards.append(f"no_rounded_zero_over_zero({args[0].text}, {args[1].text}, "
                                  f"{self.rounding_eps_of(args[0])})")
                if op in AMPLIFIERS and self.is_rounded(args[0]):
                    guards.append(f"no_near_multiple({args[0].text}, {args[1].text}, "
                                  f"{self.rounding_eps_of(args[0])})")
                if (op in AMPLIFIERS and args[1].value.dtype.kind in "fc"
                        and args[1].text not in {i.name for i in self.inputs}
                        and not args[1].text[0].isdigit()):
                    continue  # a computed divisor: its last-place differences are amplified
                sym = OPERATORS.get(op)
                if sym and self.chance(0.7):
                    text = f"({args[0].text} {sym} {args[1].text})"
                else:
                    text = f"xp.{op}({args[0].text}, {args[1].text})"
            else:
                op = "where"
                c = self.leaf(a.value)
                if c.value.dtype != bool:
                    c = Node(f"({c.text} > 0)", np.greater(c.value, 0))
                args = [c, a, self.leaf(a.value)]
                if any(not 0 <= python_int(x.text, 0) <= 100 for x in args):
                    continue  # NumPy's where wraps an out-of-range Python int; accel raises
                text = f"xp.where({c.text}, {a.text}, {args[2].text})"
            inexact = op in INEXACT or (op in INEXACT_ON_COMPLEX and any(
                x.value.dtype.kind == "c" for x in args))
            if inexact and not top:
                continue
            try:
                value = eval(compiled_expr(text), {"xp": NUMPY, **LITERALS}, self.env)
            except Exception:
                continue
            if type(value) is int and not -2**63 <= value < 2**64:
                continue  # Python's own big-int arithmetic on literals: NumPy makes an object
            n = Node(text, value, inexact, [g for x in args for g in x.guards] + guards)
            if n.value.size <= MAX_SIZE:
                return n
        return a

    def respell(self):
        """Whether to write a call another way NumPy reads alike (a positional axis, a shape as a
        tuple): chosen by the statement count, not a draw, so the programs of every seed keep
        their values and only some calls are spelt the other way, reaching the methods' fast
        paths (python/src/fast_methods.h) as well as their full bindings."""
        return len(self.env) % 2 == 1

    def uses_of(self, text):
        return tuple(n for n in self.env if re.search(rf"\b{n}\b", text))

    def elementwise(self, first=None):
        n = self.node(int(self.rng.integers(1, 4)), True, first)
        if n.text in self.env:
            return False
        return self.define(n.text, self.uses_of(n.text), inexact=n.inexact,
                           guard=" and ".join(n.guards) or None, layout=True)

    def chain(self):
        """10-40 dependent statements: past kMaxPendingDepth and the fusion caps (ir/fuse.h)."""
        prev = self.pick()
        for _ in range(int(self.rng.integers(10, 41))):
            if self.elementwise(Node(prev, self.env[prev])):
                prev = self.stmts[-1].defines
        return True

    def astype(self):
        """A conversion, or (a fifth of the time) a new array shaped and laid out as one:
        both are laid out as NumPy's (astype and the *_like functions keep the axis order)."""
        x = self.pick()
        dt = self.choice(DTYPES)
        order = self.choice(["", "", ", order='C'", ", order='F'", ", order='A'", ", order='K'"])
        if self.chance(0.2):
            # NumPy's shape=: a permutation of x's axes keeps x's axis order, another rank is C.
            v = self.env[x]
            shape = tuple(int(d) for d in self.rng.permutation(v.shape)) if self.chance(0.7) \
                else (v.size,)
            if 1 in v.shape and v.ndim > 1:
                # A length-1 axis has no place in accel's memory order (ops/result_layout.h);
                # NumPy's places it by the stride it happens to have.
                shape = v.shape
            text = self.choice([f"xp.zeros_like({x}{order})", f"xp.ones_like({x}, dtype={dt!r})",
                                f"xp.full_like({x}, 1{order})", f"{x}.copy({order[2:]})",
                                f"xp.zeros_like({x}, shape={shape}{order})",
                                f"xp.full_like({x}, 2, {dt!r}, {order[9:-1] or 'K'!r}, True, {shape})"])
            return self.define(text, [x], layout=True)
        guard = f"safe_cast({x}, {dt!r})"
        if x in self.rounded and self.env[x].dtype.kind in "fc" and dt in INTS + ["bool"]:
            if dt == "bool":
                return False  # a rounding residue (1e-17 against 0.0) is True against False
            # Truncation jumps at each integer (fuzz seed 1110506: an ihfft's 1 - 1e-16 is 0).
            guard += f" and no_near_multiple({x}, 1, {self.rounding_eps.get(x, 0.0)!r})"
        # NumPy's asarray(x, dtype, order) converts as astype(dtype, order=order) (copy=False).
        text = self.choice([f"{x}.astype({dt!r}{order})",
                            f"xp.asarray({x}, {dt!r}{', ' + order[8:] if order else ''})"])
        return self.define(text, [x], guard=guard, layout=True)

    def view(self):
        x = self.pick()
        v = self.env[x]
        nd = v.ndim
        forms = [f"{x}[...]", f"{x}[None]", f"xp.expand_dims({x}, {int(self.rng.integers(-nd - 1, nd + 1))})",
                 f"{x}.reshape(-1)", f"xp.squeeze({x})", f"{x}.T"]
        if nd:
            forms += [f"{x}[{self.basic_key(v.shape)}]", f"{x}[{self.basic_key(v.shape)}]",
                      f"xp.flip({x}, axis={int(self.rng.integers(nd))})",
                      f"xp.broadcast_to({x}, {(int(self.rng.integers(1, 4)),) + v.shape})",
                      f"{x}[{int(self.rng.integers(-v.shape[0], v.shape[0])) if v.shape[0] else 0}]",
                      f"{x}.reshape({reshape_target(self.rng, v.shape)})",
                      f"{x}.reshape({reshape_target(self.rng, v.shape)}, order='F')",
                      f"xp.moveaxis({x}, 0, -1)", f"{x}.ravel()",
                      f"{x}.ravel({self.choice(['F', 'A', 'K'])!r})"]
        if nd == 1:  # a sparse grid without copies: a view of x with a length-1 axis
            forms.append(f"xp.meshgrid({x}, {x}, sparse=True, copy=False, "
                         f"indexing={self.choice(['xy', 'ij'])!r})[{int(self.rng.integers(2))}]")
        if nd and v.size:
            # every window along one axis (a read-only view, elements repeated across windows)
            ax = int(self.rng.integers(nd))
            w = int(self.rng.integers(1, v.shape[ax] + 1))
            if v.size * w <= MAX_SIZE:
                forms.append(f"xp.lib.stride_tricks.sliding_window_view({x}, {w}, axis={ax})")
        if nd >= 2:
            forms += [f"xp.rot90({x}, {int(self.rng.integers(-1, 3))}, axes=(0, {nd - 1}))"]
            k = int(self.rng.integers(-2, 3))
            forms += [f"xp.diagonal({x}, {k}, 0, {nd - 1})", f"{x}.diagonal({k})"]
            forms += [f"{x}.mT", f"xp.swapaxes({x}, 0, {nd - 1})",
                      f"xp.permute_dims({x}, {tuple(int(i) for i in self.rng.permutation(nd))})",
                      f"xp.matrix_transpose({x})"]
        forms += [f"{x}.real", f"{x}.imag"]  # views of a complex x; x itself, new zeros else
        guard = None
        if self.chance(0.1):
            return self.reinterpret(x)
        form = self.choice(forms)
        if self.respell() and "order=" not in form:  # x.reshape((2, -1)) for x.reshape(2, -1)
            form = re.sub(r"\.reshape\((.*, .*)\)$", r".reshape((\1))", form)
            form = re.sub(r"\.T$", ".transpose()", form)  # and x.transpose() for x.T
            # and x.transpose(2, 0, 1) for xp.permute_dims(x, (2, 0, 1))
            form = re.sub(r"^xp\.permute_dims\((\w+), \((.*)\)\)$", r"\1.transpose(\2)", form)
        # Whether reshape/ravel copy depends on x's memory layout, and fresh results are laid
        # out differently (NumPy keeps an input's order, accel is always C-contiguous): the
        # NumPy-side guard only speaks for accel where both lay x out alike.
        reshapes = ".reshape(" in form or ".ravel(" in form
        if reshapes and x in self.foreign_layout:
            return False
        guard = f"c_contiguous({x})" if reshapes else None
        return self.define(form, [x], kind="view", guard=guard)

    def reinterpret(self, x):
        """x.view(dtype) and x.getfield(dtype, offset): x's bits read as another dtype. Exact values only (a rounded float's
        last bits differ by library), without NaNs (their payloads and signs are not values);
        another item size only of an input, whose memory starts at 0 (accel refuses a view
        starting between items, where NumPy reads unaligned). Bools are the bytes 0 and 1 in
        accel: neither viewed from nor as another dtype (accel makes such views read-only)."""
        v = self.env[x]
        if x in self.rounded or v.dtype == bool:  # accel's views of bools are read-only
            return False
        guard = f"no_nan({x})" if v.dtype.kind in "fc" else None
        if v.itemsize > 1 and self.chance(0.3):
            # x.getfield(dtype, offset): a part of each item, x's shape kept; offsets on whole
            # items of dtype (x's items and steps are multiples of its power-of-two size).
            dt = self.choice([d for d in DTYPES if d != "bool" and np.dtype(d).itemsize <= v.itemsize])
            size = np.dtype(dt).itemsize
            offset = size * int(self.rng.integers(0, v.itemsize // size))
            text = f"{x}.getfield({dt!r}, {offset})"
        else:
            sizes = [v.itemsize] if x not in {i.name for i in self.inputs} else [1, 2, 4, 8, 16]
            targets = [d for d in DTYPES if d != "bool" and np.dtype(d).itemsize in sizes]
            dt = self.choice(targets)
            text = f"{x}.view({dt!r})"
        if np.dtype(dt).kind in "fc":
            # Integer bits read as floats may be NaNs, and an op on them sets their sign as its
            # library does, which the integer view then shows (fuzz seed 1843415: NumPy's
            # float16 NaN ** True drops the sign).
            guard = f"{guard} and no_nan({text})" if guard else f"no_nan({text})"
        return self.define(text, [x], kind="view", guard=guard)

    def with_axis(self, pred):
        """(name, value, a random axis of it) for a name whose value satisfies pred (of one
        dimension at least), or None when there is none."""
        x = self.pick(pred)
        if x is None:
            return None
        v = self.env[x]
        return x, v, int(self.rng.integers(-v.ndim, v.ndim))

    def basic_key(self, shape):
        parts = []
        for d in shape[: int(self.rng.integers(1, len(shape) + 1))]:
            r = self.rng.random()
            if r < 0.15 and d:
                parts.append(str(int(self.rng.integers(-d, d))))
            elif r < 0.25:
                parts.append(":")
            else:
                lo = int(self.rng.integers(-d - 1, d + 1)) if self.chance(0.5) else ""
                hi = int(self.rng.integers(-d - 1, d + 1)) if self.chance(0.5) else ""
                step = self.choice([1, 2, 3, -1, -2])
                parts.append(f"{lo}:{hi}:{step}" if step != 1 else f"{lo}:{hi}")
        if self.chance(0.2):
            parts.insert(int(self.rng.integers(len(parts) + 1)), self.choice(["None", "..."]))
        return ", ".join(parts)

    def advanced_key(self, x):
        v = self.env[x]
        self.mask_of = None  # "full" or "row" when the key is a bool mask of x or of its rows
        if v.ndim == 0:
            return "..."
        r = self.rng.random()
        d = v.shape[0]
        if r < 0.35 and d:
            idx = [int(i) for i in self.rng.integers(-d, d, int(self.rng.integers(0, 5)))]
            # Half of them as an int64 array, as NumPy code builds indices: the direct gathers
            # and stores (ops/store_element.h) take arrays, not lists.
            text = f"xp.asarray({idx}, dtype=xp.int64)" if self.respell() else str(idx)
            return text if v.ndim == 1 or self.chance(0.5) else f"{text}, ..."
        if r < 0.5 and v.ndim >= 2 and v.shape[1]:
            idx = [int(i) for i in self.rng.integers(-v.shape[1], v.shape[1], 3)]
            return f":, {idx}"
        if r < 0.65 and d:
            w = self.pick(lambda u: u.dtype.kind in "iu" and u.size < 200)
            if w:
                return f"{w} % {d}"
        if r < 0.85:
            # Not an empty one: NumPy reads an empty array-like that is not its own array as an
            # integer index (np.zeros((0, 2))[empty_accel_bool] is (0, 2, 2)), and a target
            # NumPy made (np.asfortranarray in --namespace numpy) is indexed so (seed 2119675).
            m = self.pick(lambda u: u.dtype == bool and u.shape == v.shape and u.size)
            if m:
                self.mask_of = "full"
                return m
        # Now and then (by the statement count, not a draw) a mask over axis 0 alone, from the
        # first column: x[x[:, 0] > 0] picks whole rows (the backends' compress_rows).
        row = x
        if v.ndim >= 2 and all(v.shape[1:]) and self.respell():
            row = f"{x}[:{', 0' * (v.ndim - 1)}]"
        self.mask_of = "full" if row == x else "row"
        if x in self.rounded and v.dtype.kind in "fc":
            # A rounded 1e-17 against 0.0 would flip the mask (an FFT's exact zero in NumPy is
            # another library's 1e-17, fuzz seed 1843923): NaN tests only.
            return self.choice([f"xp.isnan({row})", f"{row} != {row}"])
        return self.choice([f"{row} > 0", f"xp.isnan({row})", f"{row} != {row}"]) \
            if v.dtype.kind != "c" or self.chance(0.5) else f"{row} == 0"

    def index(self):
        x = self.pick(lambda v: v.ndim > 0)
        if x is None:
            return False
        key = self.advanced_key(x)
        # A 0-d integer key (w % d of a 0-d w: a NumPy scalar) is an integer to NumPy and to
        # accel: basic indexing, a view.
        w = key.split(" % ")[0] if " % " in key else None
        kind = "view" if w in self.env and self.env[w].ndim == 0 else "value"
        text = f"{x}[{key}]"
        # compress and extract pick what the mask picks; spelt so by the statement count, not a
        # draw, so every seed keeps its values.
        if self.mask_of == "row" and len(self.env) % 4 == 1:
            text = f"xp.compress({key}, {x}, axis=0)"
        elif self.mask_of == "full" and len(self.env) % 4 == 0:
            text = f"xp.extract({key}, {x})"
        # x[index arrays] is laid out as NumPy's getitem lays it out (ops/advanced_index.h).
        return self.define(text, self.uses_of(text), kind=kind,
                           layout=kind == "value" and text.startswith(f"{x}["))

    def take(self):
        x = self.pick(lambda v: v.ndim > 0 and v.shape[-1] > 0)
        if x is None:
            return False
        d = self.env[x].shape[-1]
        idx = [int(i) for i in self.rng.integers(-d, d, int(self.rng.integers(1, 5)))]
        return self.define(f"xp.take({x}, {idx}, axis=-1)", [x])

    def reduction(self):
        x = self.pick()
        v = self.env[x]
        op = self.choice(REDUCTIONS)
        # NumPy's NaN-ignoring form (nansum, nanmax, ...; functions only): not nanmin/nanmax of
        # complex values, whose NaN parts NumPy's fmin/fmax take from either operand.
        nan_form = (op in NAN_FORMS and not (op in ("min", "max") and v.dtype.kind == "c")
                    and self.chance(0.15))
        nd = v.ndim
        axis = None if not nd or self.chance(0.3) else int(self.rng.integers(-nd, nd))
        if op in ("sum", "prod", "min", "max", "mean", "any", "all") and nd >= 2 and self.chance(0.2):
            axis = tuple(int(a) for a in self.rng.choice(nd, 2, replace=False))
        args = [x] if axis is None and op != "cumulative_sum" else [x, f"axis={axis}"]
        if op == "cumulative_sum" and nd != 1 and axis is None:
            return False
        if op in ("var", "std") and self.chance(0.4):
            args.append("ddof=1")
        if op not in ("cumsum", "cumprod", "count_nonzero", "cumulative_sum") and self.chance(0.3):
            args.append("keepdims=True")
        if op in ("sum", "prod", "min", "max", "mean", "any", "all", "var", "std") and self.chance(0.2):
            # NumPy's where= (a mask the guards' abs(x) leaves alike) and initial= (min/max need
            # one with a mask; a nonzero one, so no tie of 0 and -0.0 decides a sign).
            mask = self.pick(lambda u: u.dtype == bool and broadcasts(u.shape, v.shape, strict=True))
            exact = x not in self.rounded  # a rounded 1e-17 against 0.0 would flip a mask
            args.append(f"where={mask or self.choice([f'({x} != 0)' if exact else f'xp.isnan({x})', f'xp.isfinite({x})'])}")
            if op in ("min", "max") or (op in ("sum", "prod") and self.chance(0.5)):
                args.append(f"initial={self.choice(['1', '2', '-1', '-3', '7'])}")
        if op in ("var", "std") and not nan_form and self.chance(0.15) and \
                not any(a.startswith("where=") for a in args):
            args.append(f"mean=xp.mean({x}, axis={axis}, keepdims=True)")  # NumPy 2's mean=
        if nan_form:
            text = f"xp.nan{op}({', '.join(args)})"
        elif self.chance(0.3) and op not in ("count_nonzero", "cumulative_sum"):
            margs = args[1:]
            # The axis positionally too (x.sum(1)), as the methods' fast path takes it
            # (python/src/fast_methods.h); keywords go through the full binding.
            if margs and margs[0].startswith("axis=") and self.respell():
                margs = [margs[0][len("axis="):]] + margs[1:]
            text = f"{x}.{op}({', '.join(margs)})"
        else:
            text = f"xp.{op}({', '.join(args)})"
        # Complex running products round as complex multiplies do (fused or not: NumPy's
        # cumprod fuses along one axis and not along another).
        inexact = (op in INEXACT_REDUCTIONS and v.dtype.kind in "fc") or op in ("mean", "var", "std") \
            or (op == "cumprod" and v.dtype.kind == "c")
        # Complex products with an inf or NaN give inf or NaN parts that depend on the order of
        # the multiplications, which NumPy does not fix.
        guard = f"order_free_product({x})" if op in ("prod", "cumprod") else None
        if op in ("min", "max") and v.dtype.kind in "fc":
            guard = f"no_signed_zeros({x})"  # which zero a tie of 0 and -0.0 gives is open
        if op in ("sum", "cumsum", "mean", "cumulative_sum") and v.dtype.kind in "fc":
            guard = no_cancellation(text, [x])
            if v.dtype.kind == "c":
                guard += f" and no_part_overflow({x})"
        if op in ("argmin", "argmax") and x in self.rounded and v.dtype.kind in "fc":
            # which of two (near-)equal rounded values is the extreme is the rounding's choice
            # (complex ones: their real parts, compared first; fuzz seed 1075173)
            guard = f"no_extreme_tie({x}, {op == 'argmax'}, {axis}, {self.rounding_eps[x]!r})"
        if op in ("mean", "var", "std") and v.dtype.kind in "iu":
            guard = f"exact_float_sum({x})"  # integers the float64 sum cannot hold round in it
        if op in ("var", "std") and v.dtype.kind in "fc":
            # 0 exactly or a rounding residue, over the values where= and the NaN forms keep
            mask = next((a[len("where="):] for a in args if a.startswith("where=")), None)
            guard = f"no_flat_lane({x}, {axis}" + (f", where={mask})" if mask else ")")
        # Reductions keep x's axis order (NumPy's iterator; argmin/argmax are C-ordered) and
        # running sums and products are laid out after x, as NumPy's accumulate; the nan forms
        # (but nanmin/nanmax) reduce a copy of x, laid out as empty_like(x).
        layout = True
        return self.define(text, self.uses_of(text), inexact=inexact, guard=guard, layout=layout)

    def matmul(self):
        a = self.pick(lambda v: v.ndim > 0)
        if a is None:
            return False
        va = self.env[a]
        b = self.pick(lambda v: v.shape == va.shape) or a
        forms = [f"{a} @ {b}"] if va.ndim == 1 else [f"{a} @ {b}.mT", f"xp.matmul({b}.mT, {a})",
                                                       f"xp.matmul({a}, xp.matrix_transpose({b}))"]
        c = self.pick(lambda v: v.ndim >= 1 and va.ndim >= 1 and v.shape[0] == va.shape[-1])
        if c and va.ndim >= 1:
            forms.append(f"xp.matmul({a}, {c})")
        text = self.choice(forms)
        uses = self.uses_of(text)
        # The kind of the form drawn (a @ c may be float where a @ b is an integer product).
        value_kind = np.result_type(*(self.env[u].dtype for u in uses)).kind
        guard = f"blas_safe({', '.join(uses)})"
        if value_kind in "fc":
            guard += " and " + no_cancellation(text, uses)
        # A complex product's parts round by the size of the whole terms: an imaginary part
        # that cancels to -4e-08 in NumPy is exactly 0 in another order (fuzz seed 900544).
        # Batch axes laid out as the operands' (NumPy's gufunc iterator), each product C-ordered.
        return self.define(text, uses, inexact=value_kind in "fc", guard=guard,
                           normwise=value_kind == "c", layout=True)

    def join(self):
        x = self.pick()
        y = self.pick(lambda v: v.shape == self.env[x].shape)
        r = self.rng.random()
        if r < 0.4:
            text = f"xp.stack([{x}, {y}], axis={int(self.rng.integers(self.env[x].ndim + 1))})"
        elif r < 0.7 and self.env[x].ndim:
            text = self.choice([f"xp.concat([{x}, {y}], axis=0)", f"xp.concat(({x}, {y}), 0)"])
        else:
            lo, hi = self.scalar(), self.scalar()
            if self.chance(0.4):
                # An array bound of x's dtype, in whatever layout it has: NumPy's clip is one
                # ufunc over x and both bounds, and lays its result out over all three.
                v = self.env[x]
                b = self.pick(lambda u: u.dtype == v.dtype and broadcasts(u.shape, v.shape, strict=True))
                if b is not None:
                    node = Node(b, self.env[b])
                    lo, hi = (node, hi) if self.chance(0.5) else (lo, node)
            text = f"xp.clip({x}, {lo.text}, {hi.text})"
            # accel's clip keeps x's dtype and takes no complex x (the Array API's clip);
            # NumPy's promotes with the bounds.
            if self.env[x].dtype.kind == "c" or np.clip(self.env[x], lo.value, hi.value).dtype \
                    != self.env[x].dtype:
                return False
        # Joined by the axis order the inputs share (NumPy's concatenate), clipped as a ufunc.
        return self.define(text, self.uses_of(text), layout=True)

    def inplace(self):
        t = self.pick(writable=True)
        op = self.choice(["+", "-", "*", "/", "//", "%", "**", "&", "|", "^", "<<", ">>"])
        b = self.leaf(self.env[t])
        name = {"+": "add", "-": "subtract", "*": "multiply", "/": "divide", "**": "pow"}.get(op)
        kinds = {self.env[t].dtype.kind, b.value.dtype.kind}
        if op in ("//", "%") and self.is_rounded(b):
            return False  # a rounded divisor: its last-place differences are amplified
        inexact = op == "**" and kinds & set("fc") or (name in INEXACT_ON_COMPLEX and "c" in kinds)
        guard = None
        if op == "**" and self.is_rounded(b):
            guard = f"no_integer_exponent_jump({t}, {b.text}, {self.rounding_eps_of(b)})"
        if op == "/" and t in self.rounded:
            guard = f"no_rounded_zero_over_zero({t}, {b.text}, {self.rounding_eps.get(t, 0.0)!r})"
        return self.add(Stmt(f"{t} {op}= {b.text}", None, self.uses_of(f"{t} {b.text}"), t,
                             kind="write", inexact=bool(inexact), guard=guard))

    def setitem(self):
        t = self.pick(lambda v: v.ndim > 0, writable=True)
        if t is None:
            return False
        v = self.env[t]
        if self.chance(0.1):  # x.fill(s), x.flat[k] = s: C order, whatever x's layout
            s = self.scalar()
            key = self.choice(["::2", "1:-1", str(int(self.rng.integers(-v.size, v.size)) if v.size else 0),
                               "[0, -1]", f"{t}.flat[:] > 0"])
            text = f"{t}.fill({s.text})" if self.chance(0.4) else f"{t}.flat[{key}] = {s.text}"
            guard = f"safe_cast({s.text}, {str(v.dtype)!r})" if s.value.dtype.kind in "fc" else None
            return self.add(Stmt(text, None, self.uses_of(text), t, kind="write", guard=guard))
        r = self.rng.random()
        if r < 0.45:
            key = self.basic_key(v.shape)
        elif r < 0.55 and v.shape[0] > 1:  # overlapping source and destination
            k = int(self.rng.integers(1, v.shape[0]))
            text = self.choice([f"{t}[{k}:] = {t}[:-{k}]", f"{t}[:-{k}] = {t}[{k}:]",
                                f"{t}[:] = {t}[::-1]"])
            return self.add(Stmt(text, None, (t,), t, kind="write"))
        else:
            key = self.advanced_key(t)
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                target = eval(f"{t}[{key}]", {"xp": NUMPY, **LITERALS}, self.env)
        except Exception:
            return False
        rhs = self.leaf(np.empty(np.shape(target)))
        if not broadcasts(rhs.value.shape, np.shape(target), strict=True):
            rhs = self.scalar()
        text = f"{t}[{key}] = {rhs.text}"
        guards = []
        if rhs.value.dtype.kind in "fc" and v.dtype.kind in "iu":
            guards.append(f"safe_cast({rhs.text}, {str(v.dtype)!r})")
        if re.fullmatch(r"\w+ % \d+", key):  # an index array that may repeat and be strided
            guards.append(f"order_defined({key})")
        if r >= 0.55 and rhs.text in self.env:
            guards.append(f"no_overlap({t}, {rhs.text})")
        elif rhs.text in self.env:
            guards.append(f"overlap_as_copy({t}[{key}], {rhs.text})")
        if r >= 0.55 and key in self.env:  # a mask in the target's own memory, x[::-1][x] = 0
            guards.append(f"no_overlap({t}, {key})")
        guard = " and ".join(guards) or None
        return self.add(Stmt(text, None, self.uses_of(text), t, kind="write", guard=guard))

    def out(self):
        op = self.choice(BINARY)
        a = self.pick()
        b = self.leaf(self.env[a])
        shape = np.broadcast_shapes(self.env[a].shape, b.value.shape) \
            if broadcasts(self.env[a].shape, b.value.shape) else None
        t = self.pick(lambda v: v.shape == shape, writable=True)
        if t is None:
            return False
        if op in AMPLIFIERS and self.is_rounded(b):
            return False  # a rounded divisor: its last-place differences are amplified
        # out= by keyword or positionally after the inputs (NumPy's ufuncs take both), chosen
        # by the statement count so each seed's values stay as they were.
        text = f"xp.{op}({a}, {b.text}, {t})" if self.respell() else f"xp.{op}({a}, {b.text}, out={t})"
        masked = self.env[a].dtype.kind != "c" and self.chance(0.3)
        if masked and op in COMPARISONS and self.env[a].dtype.kind in "iu" and \
                b.text.lstrip("-").isdigit() and not _fits(int(b.text), self.env[a].dtype):
            # NumPy 2.4 crashes (SIGSEGV) comparing an integer array with a Python int beyond
            # its range under where= (np.greater(int16, 65535, where=m); seeds 2100077, 2102739).
            masked = False
        if masked:
            # NumPy's where=: the result where a's sign bit is set, t's own values elsewhere.
            text = text[:-1] + f", where=xp.signbit({a}))"
        inexact = op in INEXACT or (op in INEXACT_ON_COMPLEX and "c" in {
            self.env[a].dtype.kind, b.value.dtype.kind, self.env[t].dtype.kind})
        guards = []
        if inexact:
            guards.append(f"same_dtype(xp.{op}({a}, {b.text}), {t})")
        if op == "copysign":
            guards.append(f"no_nan({b.text})")
        if op in ZERO_TIE_OPS:
            guards.append(f"no_zero_tie({a}, {b.text})")
        if op == "divide" and a in self.rounded:
            guards.append(f"no_rounded_zero_over_zero({a}, {b.text}, {self.rounding_eps.get(a, 0.0)!r})")
        if masked:
            guards.append(f"no_nan({a})")  # the sign bit of a NaN is its library's
            if a in self.rounded:
                # nor is the sign of a rounding residue near 0 (-1e-17 here, 1e-17 there)
                guards.append(f"no_near_zero({a}, {self.rounding_eps.get(a, 0.0)!r})")
            # An operand in out='s memory: NumPy's buffered copy of out is written back whole,
            # elements outside the mask included (np.logical_and(z, x.T, out=x, where=False)
            # changes x); accel writes only where the mask holds.
            guards += [f"no_overlap({t}, {o})" for o in (a, b.text) if o in self.env]
        return self.add(Stmt(text, None, self.uses_of(text), t, kind="write", inexact=inexact,
                             guard=" and ".join(guards)))

    def sorting(self):
        """sort/argsort (NumPy's stable kind: its default quicksort orders ties, -0.0 and 0.0
        among them, as it likes), searchsorted into a sorted value, isin, unique and diff."""
        x = self.pick(lambda v: v.ndim > 0)
        if x is None:
            return False
        v = self.env[x]
        nd = v.ndim
        axis = int(self.rng.integers(-nd, nd))
        y = self.pick(lambda u: u.size < 500) or x
        guard = None
        r = self.rng.random()
        if r < 0.3:
            fn = self.choice(["sort", "argsort"])
            text = self.choice([f"xp.{fn}({x}, axis={axis}, kind='stable')",
                                f"xp.{fn}({x}, axis=None, kind='stable')",
                                f"{x}.{fn}(axis={axis}, kind='stable')"])
        elif r < 0.45:
            side = self.choice(["left", "right"])
            text = f"xp.searchsorted(xp.sort({x}, axis=None, kind='stable'), {y}, side={side!r})"
        elif r < 0.6:
            text = f"xp.isin({x}, {y}, invert={self.chance(0.3)})"
        elif r < 0.8:
            part = self.choice(["", "[0]", "[1]"])
            flag = self.choice(["return_counts", "return_index", "return_inverse"])
            equal_nan = self.chance(0.5)
            text = (f"xp.unique({x}, {flag}=True, equal_nan={equal_nan}){part}" if part
                    else f"xp.unique({x}, equal_nan={equal_nan})")
            # NumPy's unique sorts with its unstable quicksort unless it returns indices: which
            # of -0.0 and 0.0 stands for their value is then open, and so is which of several
            # distinct NaNs (equal_nan=False) each inverse index points at (seed 30005047).
            if v.dtype.kind in "fc":
                guard = f"no_signed_zeros({x})"
                if flag == "return_inverse" and not equal_nan:
                    guard += f" and at_most_one_nan({x})"
        else:
            n = int(self.rng.integers(0, 3))
            extra = ""
            if self.chance(0.3):
                extra = f", {self.choice(['prepend', 'append'])}={self.scalar().text}"
            text = f"xp.diff({x}, n={n}, axis={axis}{extra})"
        uses = self.uses_of(text)
        guards = [guard] if guard else []
        if text.startswith("xp.isin("):
            guards.append(f"exact_in_common_dtype({x}, {y})")
        if self.rounded.intersection(uses) and not text.startswith("xp.diff("):
            guards.append(self.separated(*uses))
        if self.rounded.intersection(uses) and text.startswith("xp.diff("):
            guards.append(f"diff_cancel_free({x}, {n}, {axis}{extra})")
        # sort is laid out as x (NumPy's sorts a copy in x's order); argsort C-ordered.
        layout = text.startswith(("xp.sort(", "xp.argsort(")) and "axis=None" not in text
        return self.define(text, uses, guard=" and ".join(guards) or None, layout=layout)

    def statistics(self):
        """Order statistics (median, quantile, percentile and nan* forms, partition), counting
        (histogram, bincount, digitize), lexsort and einsum."""
        x = self.pick(lambda v: v.ndim > 0 and v.size > 0)
        if x is None:
            return False
        v = self.env[x]
        nd = v.ndim
        axis = None if self.chance(0.3) else int(self.rng.integers(-nd, nd))
        guard = None
        r = self.rng.random()
        if r < 0.35:
            fn = self.choice(["median", "nanmedian", "quantile", "nanquantile", "percentile",
                              "nanpercentile"])
            args = [x]
            if "median" not in fn:
                scale = 100 if "percentile" in fn else 1
                q = self.choice([0.5, 0.0, 1.0, 0.3, 0.75]) * scale
                if self.chance(0.4):
                    q = [0.1 * scale, 0.9 * scale]
                args.append(repr(q))
            args.append(f"axis={axis}")
            if "median" not in fn and self.chance(0.5):
                args.append(f"method={self.choice(QUANTILE_METHODS)!r}")
            if self.chance(0.3):
                args.append("keepdims=True")
            text = f"xp.{fn}({', '.join(args)})"
            # (and which zero an order statistic of 0.0 and -0.0 is, is the partition's choice:
            # NumPy's is not stable; fuzz seed 2224098)
            guard = f"halves_finite({x}) and no_signed_zeros({x})"
            if fn.startswith("nan") and "median" not in fn and isinstance(q, list):
                # An array q: NumPy's apply_along_axis takes the result's dtype from the first
                # slice's, and an all-NaN first slice keeps float32 (float64 otherwise).
                guard += f" and no_all_nan_slice({x}, {axis})"
            elif fn.startswith("nan") and v.dtype.kind == "c":
                # An all-NaN complex slice: NumPy's 1-d path returns the slice's last element
                # (-inf+nanj), its N-d path nan+0j (seed 471).
                guard += f" and no_all_nan_slice({x}, {axis})"
        elif r < 0.45:
            k = int(self.rng.integers(-v.shape[-1], v.shape[-1])) if v.shape[-1] else 0
            if not v.shape[-1]:
                return False
            fn = self.choice(["partition", "argpartition"])
            # only the kth places are defined: NumPy orders the rest as it likes
            inner = f"xp.{fn}({x}, {k})"
            text = (f"xp.take({inner}, [{k}], axis=-1)" if fn == "partition"
                    else f"xp.take_along_axis({x}, xp.take({inner}, [{k}], axis=-1), axis=-1)")
        elif r < 0.6:
            bins = self.choice(["3", "1", "[-2.0, 0.0, 0.5, 4.0]"])
            rng_ = self.choice(["None", "(-3, 3)"])
            part = self.choice(["[0]", "[1]"])
            density = self.chance(0.2)
            text = f"xp.histogram({x}, bins={bins}, range={rng_}, density={density}){part}"
            if density:
                text = f"xp.histogram({x}, bins={bins}, range={rng_}, density=True)[0]"
        elif r < 0.7:
            if v.dtype.kind not in "iub":
                return False
            text = f"xp.bincount(xp.reshape({x}, (-1,)) % 7, minlength={int(self.rng.integers(0, 9))})"
            # Weights add in input order in float64, as NumPy's: exact values only (a sum of
            # rounded ones may cancel to a residue).
            w = self.pick(lambda u: u.size == v.size and u.dtype.kind in "fiub")
            if w is not None and w not in self.rounded and self.chance(0.5):
                text = text[:-1] + f", weights=xp.reshape({w}, (-1,)))"
        elif r < 0.78:
            if v.dtype.kind == "c":
                return False
            bins = self.choice(["[-2, 0, 3]", "[5.5, 1.0, -1.0]", "[0]"])
            text = f"xp.digitize({x}, {bins}, right={self.chance(0.5)})"
        elif r < 0.86:
            y = self.pick(lambda u: u.shape == v.shape) or x
            text = f"xp.lexsort(({x}, {y}), axis={int(self.rng.integers(-nd, nd))})"
        else:
            forms = ["...i,...i->...", "i...->..."]
            if nd == 2:
                forms += ["ij->ji", "ij->i", "ij,kj->ik"]
                if v.shape[0] == v.shape[1]:
                    forms += ["ii->i", "ii", "ij,jk->ik"]
            if nd == 3:
                forms += ["bij,bkj->bik", "ijk->kji"]
            sub = self.choice(forms)
            n_ops = sub.split("->")[0].count(",") + 1
            text = f"xp.einsum({sub!r}, {', '.join([x] * n_ops)})"
            if sub == "ii->i":  # a view, writable in NumPy, read-only in accel (its diagonal)
                text = f"xp.asarray({text}, copy=True)"
        uses = self.uses_of(text)
        guards = [guard] if guard else []
        # Any rounded float operand: lexsort's second key may be the rounded one (fuzz seed
        # 2265629: lexsort((logical_not(r), r)) of an irfft's r, r unguarded).
        floats = [u for u in uses if u in self.rounded and self.env[u].dtype.kind in "fc"]
        rounded = bool(floats)
        inexact = False
        if text.startswith("xp.einsum("):
            inexact = v.dtype.kind in "fc"
            guards.append(f"blas_safe({', '.join(uses)})")
            if inexact:
                guards.append(no_cancellation(text, uses))
        elif rounded and text.startswith(("xp.histogram(", "xp.digitize(")):
            return False  # a value a rounding away from a bin edge may fall on either side
        elif rounded:
            guards.append(self.separated(*floats))
        if text.startswith("xp.histogram(") and "density=True" in text:
            inexact = True
        return self.define(text, uses, inexact=inexact, guard=" and ".join(guards) or None)

    def numpy_extras(self):
        """NumPy's functions outside the standard (python/accel/_np_*.py): set operations,
        padding, insertion and deletion, float decomposition, gcd, select, differences and
        sums of samples, kron, triangle indices. Functions whose result jumps at a rounding
        (frexp's exponent, modf's integral part, set membership) read exact values only."""
        r = self.rng.random()
        guard = None
        inexact = False
        if r < 0.14:  # set operations
            x = self.pick(lambda v: v.size < 300 and v.dtype.kind != "c")
            if x is None:
                return False
            y = self.pick(lambda u: u.size < 300 and u.dtype.kind != "c") or x
            fn = self.choice(["union1d", "intersect1d", "setdiff1d", "setxor1d"])
            text = f"xp.{fn}({x}, {y})"
            uses = [x, y]
            # Which of -0.0 and 0.0 stands for their value follows the sort (as unique).
            guards = [f"exact_in_common_dtype({x}, {y})"]
            guards.append(f"no_signed_zeros(xp.concat([xp.reshape({x}, (-1,)), xp.reshape({y}, (-1,))]))")
            if self.rounded.intersection(uses):
                guards.append(self.separated(x, y))
            guard = " and ".join(guards)
        elif r < 0.3:  # padding
            x = self.pick(lambda v: v.ndim > 0 and v.size < 300)
            if x is None:
                return False
            v = self.env[x]
            mode = self.choice(["constant", "edge", "reflect", "symmetric", "wrap"])
            width = self.choice(["1", "(0, 2)", repr(tuple((int(self.rng.integers(0, 3)),
                                                            int(self.rng.integers(0, 3)))
                                                           for _ in range(v.ndim)))])
            extra = f", constant_values={self.choice(['0', '2', '-1'])}" if mode == "constant" else ""
            if mode in ("reflect", "symmetric") and self.chance(0.3):
                extra = ", reflect_type='odd'"
                inexact = v.dtype.kind in "fc"  # 2 * edge - value rounds
            text = f"xp.pad({x}, {width}, mode={mode!r}{extra})"
            uses = [x]
        elif r < 0.42:  # insert, delete, append
            x = self.pick(lambda v: v.ndim > 0 and v.size < 300)
            if x is None:
                return False
            v = self.env[x]
            axis = int(self.rng.integers(-v.ndim, v.ndim))
            n = v.shape[axis]
            fn = self.choice(["delete", "insert", "append"])
            if fn == "delete":
                idx = self.choice([str(int(self.rng.integers(-n, n))) if n else "[]", "slice(None, None, 2)",
                                   repr(sorted({int(i) for i in self.rng.integers(-n, n, 2)})) if n else "[]"])
                text = f"xp.delete({x}, {idx}, axis={axis})"
            elif fn == "insert":
                where = self.choice([str(int(self.rng.integers(-n, n + 1))), f"[0, {n}]"])
                text = f"xp.insert({x}, {where}, {self.scalar().text}, axis={axis})"
            else:
                y = self.pick(lambda u: u.size < 300) or x
                text = f"xp.append({x}, {y})"
            uses = self.uses_of(text)
        elif r < 0.58:  # float decomposition and predicates of exact floats
            x = self.pick(lambda v: v.dtype.kind == "f" and v.dtype != np.dtype("float16"))
            if x is None or x in self.rounded:
                return False
            form = self.choice(["xp.frexp({x})[0]", "xp.frexp({x})[1]", "xp.modf({x})[0]",
                                "xp.modf({x})[1]", "xp.spacing({x})", "xp.fix({x})",
                                "xp.isposinf({x})", "xp.isneginf({x})",
                                "xp.ldexp({x}, -3)", "xp.ldexp({x}, 5)"])
            text = form.format(x=x)
            uses = [x]
        elif r < 0.66:  # integers
            x = self.pick(lambda v: v.dtype.kind in "iu" and v.dtype != np.dtype("uint64"))
            if x is None:
                return False
            y = self.pick(lambda u: u.dtype.kind in "iu" and u.dtype != np.dtype("uint64")
                          and broadcasts(u.shape, self.env[x].shape)) or x
            fn = self.choice(["gcd", "lcm", "bitwise_count"])
            text = f"xp.{fn}({x}, {y})" if fn != "bitwise_count" else f"xp.{fn}({x})"
            uses = self.uses_of(text)
        elif r < 0.76:  # select
            x = self.pick(lambda v: v.dtype.kind in "iuf")
            if x is None or x in self.rounded:
                return False
            y = self.pick(lambda u: broadcasts(u.shape, self.env[x].shape)) or x
            text = f"xp.select([{x} > 0, {x} < 0], [{x}, {y}], {self.choice(['0', '-1', '1.5'])})"
            uses = self.uses_of(text)
        elif r < 0.88:  # samples: differences, sums, slopes, sinc
            x = self.pick(lambda v: v.ndim > 0 and v.dtype.kind in "iuf" and v.size > 0)
            if x is None:
                return False
            v = self.env[x]
            axis = int(self.rng.integers(-v.ndim, v.ndim))
            form = self.choice(["xp.ediff1d({x})", "xp.trapezoid({x}, axis={axis})",
                                "xp.gradient({x}, axis={axis})", "xp.sinc({x})",
                                "xp.gradient({x}, 0.5, axis={axis}, edge_order=2)"])
            if "edge_order=2" in form and v.shape[axis] < 3 or "gradient" in form and v.shape[axis] < 2:
                return False
            if ("ediff1d" in form or "gradient" in form) and x in self.rounded:
                return False  # a difference of nearly equal rounded values is all rounding
            text = form.format(x=x, axis=axis)
            uses = [x]
            inexact = "ediff1d" not in text or v.dtype.kind == "f"
            if inexact and v.dtype.kind == "f" and "sinc" not in text:
                guard = no_cancellation(text, uses)
            elif inexact and v.dtype.kind in "iu" and "sinc" not in text:
                # Integer sums and differences wrap before the float division, and huge wrapped
                # terms cancel by the order of the sum (trapezoid of [-4, INT64_MIN, 7, 9, 0]:
                # 12.5 or 0.0; fuzz --namespace numpy, seed 1732436): below 2^20 they are exact.
                guard = f"moderate({x})"
        elif r < 0.94:  # products and index sets
            x = self.pick(lambda v: 0 < v.size <= 16 and v.dtype.kind in "iuf")
            if x is None:
                return False
            v = self.env[x]
            if v.ndim == 2 and self.chance(0.5):
                fn = self.choice(["tril_indices_from", "triu_indices_from"])
                text = f"xp.{fn}({x}, k={int(self.rng.integers(-1, 2))})[{int(self.rng.integers(2))}]"
            elif v.ndim == 1 and self.chance(0.5):
                text = f"xp.diag({x}, k={int(self.rng.integers(-1, 2))})"
            else:
                y = self.pick(lambda u: 0 < u.size <= 16 and u.dtype.kind in "iuf") or x
                text = f"xp.kron({x}, {y})"
                inexact = self.env[x].dtype.kind == "f" or self.env[y].dtype.kind == "f"
            uses = self.uses_of(text)
        else:  # rounding to decimals, NaN and infinity replaced, complex angles
            x = self.pick(lambda v: v.dtype.kind != "b")
            if x is None:
                return False
            v = self.env[x]
            fn = self.choice(["round", "nan_to_num", "angle", "clip", "conj"])
            if fn == "round":
                d = self.choice([-2, -1, 1, 2, 3])
                text = self.choice([f"xp.round({x}, {d})", f"{x}.round({d})"])
                if v.dtype.kind in "fc":
                    # x * 10**d rounds before rint, and rint jumps at halves: a rounded x
                    # must keep away from them.
                    if x in self.rounded:
                        eps = self.rounding_eps.get(x, 0.0)
                        parts = [f"xp.real({x})", f"xp.imag({x})"] if v.dtype.kind == "c" else [x]
                        guard = " and ".join(f"no_near_multiple({p} * {10.0 ** d!r} + 0.5, 1, {eps!r})"
                                             for p in parts)
            elif fn == "nan_to_num":
                extra = self.choice(["", ", nan=-1.5", ", posinf=7, neginf=-7",
                                     ", nan=2, posinf=1e4, neginf=0"])
                text = f"xp.nan_to_num({x}{extra})"
            elif fn == "angle":
                text = f"xp.angle({x}{self.choice(['', ', deg=True'])})"
                inexact = v.dtype.kind == "c" or "deg" in text
            elif fn == "clip":
                lo, hi = sorted(self.choice(PY_SCALARS[:8]) for _ in range(2))
                text = self.choice([f"{x}.clip({lo}, {hi})", f"{x}.clip(max={hi})"])
            else:
                text = self.choice([f"{x}.conj()", f"{x}.conjugate()"])
            uses = [x]
        # Laid out as NumPy's: the ufuncs after their inputs, pad, insert and delete
        # Fortran-ordered for a Fortran input (else C), gradient as empty_like of x.
        return self.define(text, uses, inexact=inexact, guard=guard, layout=True)

    def numpy_more(self):
        """More of NumPy's functions outside the standard: rearrangements (roll, tile, resize,
        triangles, flips, rot90, stacks, splits), exact predicates and bit packing, ufuncs NumPy
        has and the standard has not (heaviside, divmod, float_power, fabs, degrees, i0),
        products of vectors (vdot, matvec, vecmat, convolve, correlate) and sample statistics
        (average, ptp, cov, corrcoef, interp), with the nan forms of argmax and cumulative sums."""
        r = self.rng.random()
        guard = None
        inexact = False
        layout = True
        if r < 0.3:  # rearrangements: exact for every dtype
            picked = self.with_axis(lambda v: v.ndim > 0 and v.size < 400)
            if picked is None:
                return False
            x, v, axis = picked
            nd = v.ndim
            forms = [f"xp.roll({x}, {int(self.rng.integers(-3, 4))})",
                     f"xp.roll({x}, {int(self.rng.integers(-3, 4))}, axis={axis})",
                     f"xp.tile({x}, {self.choice(['2', '(2, 1)', '(1, 2, 1)'])})",
                     f"xp.resize({x}, {self.choice(['(7,)', '(2, 5)', '(3, 1, 2)'])})",
                     f"xp.flipud({x})", f"xp.atleast_3d({x})",
                     f"xp.array_split({x}, 2, axis={axis})[{int(self.rng.integers(2))}]",
                     f"xp.hstack([{x}, {x}])", f"xp.vstack([{x}, {x}])",
                     f"xp.column_stack([{x}, {x}])", f"xp.flatnonzero({x})"]
            if nd >= 2:
                k = int(self.rng.integers(-1, 2))
                forms += [f"xp.tril({x}, k={k})", f"xp.triu({x}, k={k})", f"xp.fliplr({x})",
                          f"xp.rot90({x}, {int(self.rng.integers(-1, 3))})",
                          f"xp.dstack([{x}, {x}])"]
            text = self.choice(forms)
            uses = [x]
        elif r < 0.42:  # bits and exact values
            x = self.pick(lambda v: v.dtype.kind in "bu" and v.size < 400)
            if x is None:
                return False
            v = self.env[x]
            forms = [f"xp.packbits({x} > 0)", f"xp.packbits({x} > 0, bitorder='little')"]
            if v.dtype == np.dtype("uint8"):
                forms += [f"xp.unpackbits({x})"]
                # NumPy pads an empty input's count with uninitialised memory.
                if v.ndim and v.size:
                    forms += [f"xp.unpackbits({x}, axis={int(self.rng.integers(-v.ndim, v.ndim))}, "
                              f"count={int(self.rng.integers(-3, 9))})"]
            if v.ndim:
                forms += [f"xp.packbits({x} > 0, axis={int(self.rng.integers(-v.ndim, v.ndim))})"]
            text = self.choice(forms)
            uses = [x]
            layout = "axis=" not in text  # NumPy packs along an axis through a moved copy
        elif r < 0.6:  # ufuncs beyond the standard's
            x = self.pick(lambda v: v.dtype.kind in "iuf")
            if x is None:
                return False
            y = self.pick(lambda u: u.dtype.kind in "iuf" and broadcasts(u.shape, self.env[x].shape)) or x
            fn = self.choice(["heaviside", "divmod0", "divmod1", "float_power", "fabs", "degrees",
                              "radians", "i0"])
            if fn.startswith("divmod"):
                if x in self.rounded or y in self.rounded:
                    return False  # the quotient jumps at multiples of the divisor
                text = f"xp.divmod({x}, {y})[{fn[-1]}]"
            elif fn == "heaviside":
                text = f"xp.heaviside({x}, {y})"
                if x in self.rounded:  # the step at 0 (as sign's)
                    guard = f"no_near_zero({x}, {self.rounding_eps[x]})"
            elif fn == "float_power":
                text = f"xp.float_power({x}, {self.choice(['2', '0.5', '-1', '3'])})"
                inexact = True
            else:
                text = f"xp.{fn}({x})"
                inexact = fn != "fabs"
                if fn == "fabs" and self.env[x].dtype.kind != "f":
                    return False  # NumPy's fabs takes floats only
            uses = self.uses_of(text)
        elif r < 0.75:  # products of vectors
            x = self.pick(lambda v: v.ndim >= 1 and v.dtype.kind in "iuf" and 0 < v.shape[-1] <= 64)
            if x is None:
                return False
            v = self.env[x]
            y = self.pick(lambda u: u.ndim == 1 and u.shape[0] == v.shape[-1]
                          and u.dtype.kind in "iuf")
            forms = []
            if y:
                forms += [f"xp.matvec({x}, {y})"] if v.ndim >= 2 else [f"xp.vdot({x}, {y})"]
                forms += [f"xp.vecmat({y}, {x})"] if v.ndim >= 2 else []
            if v.ndim == 1:
                z = self.pick(lambda u: u.ndim == 1 and 0 < u.shape[0] <= 64 and u.dtype.kind in "iuf") or x
                mode = self.choice(["full", "same", "valid"])
                forms += [f"xp.convolve({x}, {z}, mode={mode!r})",
                          f"xp.correlate({x}, {z}, mode={mode!r})"]
            if not forms:
                return False
            text = self.choice(forms)
            uses = self.uses_of(text)
            value_kind = np.result_type(*(self.env[u].dtype for u in uses)).kind
            inexact = value_kind == "f"
            guard = f"blas_safe({', '.join(uses)})"
            if inexact:
                guard += " and " + no_cancellation(text, uses)
        elif r < 0.88:  # sample statistics
            x = self.pick(lambda v: v.ndim >= 1 and v.dtype.kind in "iuf" and v.size > 1)
            if x is None:
                return False
            v = self.env[x]
            axis = int(self.rng.integers(-v.ndim, v.ndim))
            forms = [f"xp.ptp({x}, axis={axis})", f"xp.average({x}, axis={axis})"]
            w = self.pick(lambda u: u.ndim == 1 and u.shape[0] == v.shape[axis] and u.dtype.kind in "iu")
            if w:
                forms.append(f"xp.average({x}, axis={axis}, weights=xp.abs({w}) + 1)")
            # Weights of x's own shape, over any axes (NumPy 2 takes a tuple).
            w_full = self.pick(lambda u: u.shape == v.shape and u.dtype.kind in "iu")
            axes = self.choice(["None", str(axis), str(tuple(range(v.ndim))[-2:])])
            if w_full:
                forms.append(f"xp.average({x}, axis={axes}, weights=xp.abs({w_full}) + 1)")
            if v.ndim <= 2 and v.dtype.kind == "f" and x not in self.rounded:
                forms += [f"xp.cov({x})", f"xp.corrcoef({x})"]
            if v.ndim == 1 and v.dtype.kind == "f":
                forms.append(f"xp.interp({x}, xp.asarray([-1.0, 0.0, 2.0]), "
                             f"xp.asarray([3.0, -1.0, 5.0]))")
            text = self.choice(forms)
            if text.startswith("xp.interp("):  # (draws only when interp is chosen)
                fp = self.choice(["[3.0, -1.0, 5.0]", "[3.0, -1j, 5.0 + 2j]", "[4, 4, -2]"])
                ends = self.choice(["", ", left=-7.0", ", right=9.5",
                                    ", left=-0.0, right=float('nan')", ", period=2.5"])
                text = text.replace("xp.asarray([3.0, -1.0, 5.0]))", f"xp.asarray({fp}){ends})")
            uses = self.uses_of(text)
            inexact = "ptp" not in text
            if text.startswith(("xp.cov(", "xp.corrcoef(")):
                guard = f"well_conditioned_samples({x})"
            elif "average" in text and v.dtype.kind == "f":
                summed = axes if f"weights=xp.abs({w_full})" in text else axis
                guard = no_cancellation(f"xp.sum({x}, axis={summed})", [x])
            elif f"weights=xp.abs({w_full})" in text:  # integers: products and sums exact
                guard = f"exact_weighted_sum({x}, {w_full}, {axes})"
            elif "weights=" in text:
                guard = f"exact_weighted_sum({x}, {w}, {axis})"
            elif "average" in text:
                guard = f"exact_float_sum({x})"
            layout = not text.startswith(("xp.cov(", "xp.corrcoef(", "xp.interp("))
        else:  # nan forms
            x = self.pick(lambda v: v.ndim >= 1 and v.dtype.kind in "f" and v.size > 0)
            if x is None:
                return False
            v = self.env[x]
            axis = int(self.rng.integers(-v.ndim, v.ndim))
            fn = self.choice(["nanargmax", "nanargmin", "nancumsum", "nancumprod"])
            if fn.startswith("nanarg") and x in self.rounded:
                return False  # ties broken by a rounding
            text = f"xp.{fn}({x}, axis={axis})"
            uses = [x]
            if fn.startswith("nanarg"):
                guard = f"no_all_nan_slice({x}, {axis})"  # NumPy raises
            else:
                inexact = True
                guard = no_cancellation(text, uses) if fn == "nancumsum" else None
        return self.define(text, uses, inexact=inexact, guard=guard, layout=layout)

    def numpy_rest(self):
        """The rest of NumPy's namespace accel implements: splits and blocks, rolled axes,
        Fortran copies (asfortranarray, require), diagflat; choose, piecewise, argwhere,
        trim_zeros, isclose; meshgrid and index conversions; trace, dot, vander,
        cumulative_prod, polyval, unwrap, apply_over_axes; linspace, geomspace and logspace
        between arrays and histogram_bin_edges; the standard's unique_* functions. Selections
        read exact values only (a rounded value's sign or closeness jumps)."""
        r = self.rng.random()
        guard = None
        inexact = False
        layout = True
        if r < 0.2:  # rearrangements: exact for every dtype
            picked = self.with_axis(lambda v: v.ndim > 0 and v.size < 400)
            if picked is None:
                return False
            x, v, axis = picked
            nd = v.ndim
            forms = [f"xp.hsplit({x}, [1])[{int(self.rng.integers(2))}]",
                     f"xp.rollaxis({x}, {axis}, {int(self.rng.integers(0, nd + 1))})",
                     f"xp.asfortranarray({x})", f"xp.atleast_2d({x})",
                     f"xp.require({x}, requirements={self.choice(['F', 'C', 'FW', 'A'])!r})"]
            if v.size <= 16:
                forms.append(f"xp.diagflat({x}, {int(self.rng.integers(-1, 2))})")
            # repeat: one count, or one per element along the axis (0-6: short and long runs)
            counts = [int(c) for c in self.rng.integers(0, 7, v.shape[axis])]
            forms += [f"xp.repeat({x}, {counts}, axis={axis})", f"xp.repeat({x}, 2)"]
            if nd >= 2:
                forms += [f"xp.vsplit({x}, [1])[{int(self.rng.integers(2))}]",
                          f"xp.block([[{x}, {x}], [{x}, {x}]])"]
            if nd >= 3:
                forms.append(f"xp.dsplit({x}, [1])[{int(self.rng.integers(2))}]")
            text = self.choice(forms)
            uses = [x]
            # rollaxis is a view (moveaxis); the splits and atleast_2d are views too.
            kind = "view" if text.startswith(("xp.rollaxis", "xp.hsplit", "xp.vsplit",
                                              "xp.dsplit", "xp.atleast_2d")) else "value"
            if kind == "view":
                return self.define(text, uses, kind="view")
        elif r < 0.4:  # selections of exact values
            x = self.pick(lambda v: v.dtype.kind in "iuf" and v.size < 400)
            if x is None or x in self.rounded:
                return False
            v = self.env[x]
            y = self.pick(lambda u: u.dtype.kind in "iuf" and broadcasts(u.shape, v.shape))
            y = x if y is None or y in self.rounded else y
            forms = [f"xp.choose(({x} > 0) * 1, [{x}, {y}])",
                     f"xp.piecewise({x}, [{x} < 0, {x} > 1], [{self.choice(['-1', '0', '2'])}, "
                     f"{self.choice(['1', '3'])}, 0])",
                     f"xp.argwhere({x})", f"xp.isclose({x}, {y})",
                     f"xp.isclose({x}, {y}, rtol=0.25, atol=1, equal_nan=True)"]
            if v.ndim == 1:
                forms.append(f"xp.trim_zeros({x}, {self.choice(['fb', 'f', 'b'])!r})")
            text = self.choice(forms)
            uses = self.uses_of(text)
            if "isclose" in text:
                # |x - y| <= atol + rtol * |y| in the operands' dtype: values on the tolerance's
                # edge round either way in another order of the same operations.
                guard = f"exact_in_common_dtype({x}, {y})"
        elif r < 0.5:  # index sets
            x = self.pick(lambda v: v.dtype.kind in "iu" and v.dtype != np.dtype("uint64")
                          and v.size < 400)
            if x is None:
                return False
            v = self.env[x]
            y = self.pick(lambda u: u.dtype.kind in "iu" and u.dtype != np.dtype("uint64")
                          and broadcasts(u.shape, v.shape)) or x
            forms = [f"xp.unravel_index({x} % 12, (3, 4))[{int(self.rng.integers(2))}]",
                     f"xp.unravel_index({x} % 12, (3, 4), order='F')[{int(self.rng.integers(2))}]",
                     f"xp.ravel_multi_index(({x} % 3, {y} % 4), (3, 4))",
                     f"xp.ravel_multi_index(({x}, {y}), (3, 4), mode={self.choice(['clip', 'wrap'])!r})"]
            if v.ndim == 1 and v.size <= 40:
                z = self.pick(lambda u: u.ndim == 1 and u.size <= 40) or x
                forms.append(f"xp.meshgrid({x}, {z}, indexing={self.choice(['xy', 'ij'])!r})"
                             f"[{int(self.rng.integers(2))}]")
            text = self.choice(forms)
            uses = self.uses_of(text)
        elif r < 0.8:  # sums and products
            x = self.pick(lambda v: v.dtype.kind in "iuf" and v.ndim >= 1 and v.size < 400)
            if x is None:
                return False
            v = self.env[x]
            axis = int(self.rng.integers(-v.ndim, v.ndim))
            forms = [f"xp.cumulative_prod({x}, axis={axis}"
                     f"{self.choice(['', ', include_initial=True'])})" if v.ndim > 1 else
                     f"xp.cumulative_prod({x})"]
            if v.ndim >= 2:
                forms += [f"xp.trace({x}, offset={int(self.rng.integers(-1, 2))})",
                          f"xp.apply_over_axes(xp.sum, {x}, [0, -1])"]
            if v.ndim <= 2 and v.shape[-1] <= 64:
                y = self.pick(lambda u: u.ndim in (1, 2) and u.shape[0] == v.shape[-1]
                              and u.dtype.kind in "iuf")
                if y:
                    forms.append(f"xp.dot({x}, {y})")
            if v.ndim == 1 and v.size <= 12:
                forms += [f"xp.vander({x}, {int(self.rng.integers(1, 5))})",
                          f"xp.vander({x}, increasing=True)"]
                z = self.pick(lambda u: u.dtype.kind in "iuf" and u.size < 400) or x
                forms.append(f"xp.polyval({x}, {z})")
            text = self.choice(forms)
            uses = self.uses_of(text)
            kind = np.result_type(*(self.env[u].dtype for u in uses)).kind
            inexact = kind == "f"
            if text.startswith(("xp.cumulative_prod", "xp.vander")):
                # Products: order-free where no term can overflow or underflow on the way.
                guard = f"order_free_product({x})" if inexact else None
            elif text.startswith("xp.polyval"):
                # Horner's rule in the same order in both; the terms must not cancel.
                guard = f"moderate({x}) and moderate({uses[-1]})"
                if inexact:
                    guard += " and " + no_cancellation(text, uses)
            else:
                guard = no_cancellation(text, uses) if inexact else None
                if text.startswith("xp.dot"):
                    guard = f"blas_safe({', '.join(uses)})" + (f" and {guard}" if guard else "")
        elif r < 0.9:  # samples between arrays
            x = self.pick(lambda v: v.dtype.kind in "iuf" and v.size < 100)
            if x is None:
                return False
            v = self.env[x]
            y = self.pick(lambda u: u.dtype.kind in "iuf" and u.size < 100
                          and broadcasts(u.shape, v.shape)) or x
            num = int(self.rng.integers(0, 6))
            forms = [f"xp.linspace({x}, {y}, {num})",
                     f"xp.linspace({x}, {y}, {num}, endpoint=False, axis=-1)",
                     f"xp.logspace({x} % 4, {y} % 4, {num})",
                     f"xp.geomspace(xp.abs({x}) + 1, xp.abs({y}) + 1, {num})"]
            if v.ndim == 1 and v.size > 0:
                forms.append(f"xp.histogram_bin_edges({x}, bins={int(self.rng.integers(1, 6))})")
            if v.ndim >= 1 and v.dtype.kind == "f" and v.size > 1:
                forms.append(f"xp.unwrap({x}, axis={int(self.rng.integers(-v.ndim, v.ndim))})")
            text = self.choice(forms)
            uses = self.uses_of(text)
            inexact = True
            if text.startswith("xp.unwrap"):
                if x in self.rounded:
                    return False  # the jumps corrected depend on differences near pi
                guard = f"moderate({x})"
            else:
                guard = " and ".join(f"moderate({u})" for u in uses)
            layout = not text.startswith(("xp.linspace", "xp.logspace", "xp.geomspace"))
        elif r < 0.96:  # the standard's unique_* (NumPy's unique with equal_nan=False)
            x = self.pick(lambda v: v.dtype.kind != "c" and v.size < 300)
            if x is None:
                return False
            text = self.choice([f"xp.sort(xp.unique_values({x}))",  # NumPy's is unordered
                                f"xp.unique_counts({x}).values", f"xp.unique_counts({x}).counts",
                                f"xp.unique_inverse({x}).inverse_indices",
                                f"xp.unique_all({x}).indices", f"xp.unique_all({x}).counts"])
            uses = [x]
            guards = []
            if self.env[x].dtype.kind == "f":
                # Which of -0.0 and 0.0 stands for their value follows the sort, and each NaN
                # is a value of its own whose index the sort decides (as unique's guards).
                guards += [f"no_signed_zeros({x})", f"at_most_one_nan({x})"]
            if x in self.rounded:
                guards.append(self.separated(x))
            guard = " and ".join(guards) or None
            layout = False
        else:  # complex values
            x = self.pick(lambda v: v.dtype.kind in "fc" and v.ndim == 1 and v.size < 200)
            if x is None or x in self.rounded:
                return False
            text = self.choice([f"xp.sort_complex({x})", f"xp.real_if_close({x})",
                                f"xp.iscomplex({x})", f"xp.isreal({x})"])
            uses = [x]
            if "sort_complex" in text:
                guard = f"no_nan({x})"  # where NaNs sort is NumPy's complex order's corner
        return self.define(text, uses, inexact=inexact, guard=guard, layout=layout)

    def ufunc_method(self):
        """NumPy's ufunc methods on ops whose answer is exact in any order or grouping: reduce
        (an axis, keepdims, initial), accumulate, outer, reduceat, and at (in place, indices
        repeating, negative, as a list or an array); add, multiply and subtract on integers only
        for the others (float sums round by their order, which the reductions' own statements
        guard) but on floats too for at and reduceat, whose order is NumPy's."""
        x = self.pick(lambda v: v.ndim >= 1 and 0 < v.size < 300 and v.dtype.kind in "biuf")
        if x is None:
            return False
        v = self.env[x]
        ops = ["maximum", "minimum", "fmax", "fmin"]
        if v.dtype.kind in "biu":
            ops += ["bitwise_or", "bitwise_and", "bitwise_xor", "logical_xor", "logical_or"]
            if v.dtype.kind in "iu":
                ops += ["add", "multiply", "subtract", "gcd"]
        elif v.dtype in (np.float32, np.float64):
            ops.append("subtract")  # a running sum of the negated terms, in NumPy's order
        op = self.choice(ops)
        ax = int(self.rng.integers(-v.ndim, v.ndim))
        guards = []
        if v.dtype.kind == "f":
            guards.append(f"no_signed_zeros({x})")  # max(0.0, -0.0) is either, by the order
        r = self.rng.random()
        if r < 0.8:
            if r < 0.35:
                kd = self.choice(["", ", keepdims=True", ", initial=3" if op in (
                    "maximum", "minimum", "fmax", "fmin", "bitwise_or", "add") else ""])
                text = f"xp.{op}.reduce({x}, axis={ax}{kd})"
            elif r < 0.55:
                text = f"xp.{op}.accumulate({x}, axis={ax})"
            elif r < 0.7:
                y = self.pick(lambda u: u.dtype == v.dtype and u.size < 30 and u.ndim <= 2) or x
                if v.size * self.env[y].size > 3000:
                    return False
                text = f"xp.{op}.outer({x}, {y})"
            else:
                n = v.shape[ax]
                idx = sorted(int(i) for i in self.rng.integers(0, n, int(self.rng.integers(1, 5))))
                if self.chance(0.5):
                    idx = [int(i) for i in self.rng.permutation(idx)]  # decreasing pairs too
                if v.dtype in (np.float32, np.float64) and self.chance(0.4):
                    # reduceat's float sums group as NumPy's (the first element plus the rest
                    # pairwise: ops/ufunc_at.h), so they are exact too.
                    op = "add"
                text = f"xp.{op}.reduceat({x}, {idx}, axis={ax})"
            g = " and ".join(guards) or None
            return self.define(text, self.uses_of(text), guard=g)
        t = self.pick(lambda u: u.ndim >= 1 and u.size > 0 and u.dtype == v.dtype, writable=True)
        if t is None:
            return False
        if v.dtype.kind == "f" and self.chance(0.5):
            # at folds every listing in NumPy's order (ops/ufunc_at.h), so float sums and
            # products of repeated positions are exact too.
            op = self.choice(["add", "multiply", "subtract"])
        n = self.env[t].shape[0]
        idx = [int(i) for i in self.rng.integers(-n, n, int(self.rng.integers(1, 12)))]
        # An integer array into a 1-d target is the device path (no host bookkeeping).
        idx_text = f"xp.asarray({idx})" if self.env[t].ndim == 1 and self.chance(0.5) else str(idx)
        # Integer values typed as the target: NumPy's at runs uint64 with a Python int in its
        # float64 loop and casts negative results back as garbage (subtract.at of uint64 [1]
        # at [0, 0] by 2 leaves 0), where its ufuncs (and accel) keep uint64 (NEP 50).
        value = self.choice([str(int(self.rng.integers(0, 5))), "-1.5", "0.25"]) \
            if v.dtype.kind == "f" else f"np.{v.dtype.name}({int(self.rng.integers(0, 5))})"
        text = f"xp.{op}.at({t}, {idx_text}, {value})"
        if self.env[t].dtype.kind == "f":
            guards.append(f"no_signed_zeros({t})")
        return self.add(Stmt(text, None, self.uses_of(text), t, kind="write",
                             guard=" and ".join(guards) or None))

    def numpy_tail(self):
        """The rest of NumPy's namespace that no other statement draws: index builders used to
        index an array (tril/triu/diag/mask indices, ix_), unstack and atleast_1d, 2-d and N-d
        histograms, the polynomial functions on coefficient arrays (polyadd, polysub, polymul,
        polyder, polyint, polydiv, poly) and the layout and value predicates (isfortran,
        array_equiv, isrealobj, iscomplexobj)."""
        r = self.rng.random()
        guard = None
        inexact = False
        layout = True
        if r < 0.3:  # index builders: exact selections of any dtype
            x = self.pick(lambda v: v.ndim == 2 and 0 < v.size < 400)
            if x is None:
                return False
            v = self.env[x]
            n, m = v.shape
            d = min(n, m)
            k = int(self.rng.integers(-2, 3))
            forms = [f"{x}[xp.tril_indices({n}, {k}, {m})]", f"{x}[xp.triu_indices({n}, {k}, {m})]",
                     f"{x}[xp.tril_indices_from({x}, {k})]", f"{x}[xp.triu_indices_from({x}, {k})]",
                     f"{x}[xp.diag_indices({d})]",
                     f"{x}[:{d}, :{d}][xp.mask_indices({d}, xp.{self.choice(['triu', 'tril'])}, {k})]"]
            if n == m:
                forms.append(f"{x}[xp.diag_indices_from({x})]")
            i = self.pick(lambda u: u.ndim == 1 and u.dtype.kind in "iu" and u.size < 20)
            j = self.pick(lambda u: u.ndim == 1 and u.dtype.kind in "iu" and u.size < 20)
            if i and j:
                forms.append(f"{x}[xp.ix_({i} % {n}, {j} % {m})]")
            b = self.pick(lambda u: u.ndim == 1 and u.dtype.kind == "b" and u.size == n)
            if b:
                forms.append(f"{x}[xp.ix_({b}, xp.arange({m}) % 2 == 0)]")
            text = self.choice(forms)
            uses = self.uses_of(text)
        elif r < 0.45:  # unstack and atleast_1d: views
            picked = self.with_axis(lambda v: v.ndim > 0 and v.size < 400)
            x = self.pick(lambda v: v.size < 400)
            if picked is None or x is None:
                return False
            y, v, axis = picked
            if self.chance(0.5) and v.shape[axis] > 0:
                part = int(self.rng.integers(v.shape[axis]))
                return self.define(f"xp.unstack({y}, axis={axis})[{part}]", [y], kind="view")
            return self.define(f"xp.atleast_1d({x})", [x], kind="view")
        elif r < 0.6:  # histograms of 2 and N columns: counts jump where a value meets an edge
            x = self.pick(lambda v: v.ndim == 1 and v.dtype.kind in "iuf" and 0 < v.size < 300)
            if x is None or x in self.rounded:
                return False
            v = self.env[x]
            y = self.pick(lambda u: u.shape == v.shape and u.dtype.kind in "iuf") or x
            if y in self.rounded:
                return False
            bins = self.choice(["3", "[2, 4]", "[[-2.0, 0.0, 3.0], [-1.0, 1.0]]"])
            rng_ = self.choice(["None", "[(-3, 3), (-2, 2)]"])
            part = self.choice(["[0]", "[1][0]", "[2]" if self.chance(0.5) else "[1][1]"])
            if self.chance(0.5):
                text = f"xp.histogram2d({x}, {y}, bins={bins}, range={rng_}){part}"
            else:
                part = self.choice(["[0]", "[1][0]", "[1][1]"])
                text = f"xp.histogramdd(xp.stack([{x}, {y}], axis=1), bins={bins}, range={rng_}){part}"
            uses = self.uses_of(text)
            guard = " and ".join(f"moderate({u})" for u in uses)
            inexact = "[0]" not in text.split(")")[-1]  # the edges; the counts are exact
            layout = False
        elif r < 0.85:  # polynomials on coefficient arrays
            x = self.pick(lambda v: v.ndim == 1 and v.dtype.kind in "iuf" and 0 < v.size <= 8)
            if x is None:
                return False
            y = self.pick(lambda u: u.ndim == 1 and u.dtype.kind in "iuf" and 0 < u.size <= 8) or x
            forms = [f"xp.polyadd({x}, {y})", f"xp.polysub({x}, {y})", f"xp.polymul({x}, {y})",
                     f"xp.polyder({x}, {int(self.rng.integers(0, 3))})",
                     f"xp.polyint({x}, {int(self.rng.integers(0, 3))})",
                     f"xp.polyint({x}, 1, k=[2.5])"]
            if self.env[x].size <= 5:
                forms.append(f"xp.poly({x})")
            # Long division, step by step as NumPy's; the remainder's leading near-zeros are
            # dropped, so its length may follow a rounding (the noise runs then show it).
            forms.append(f"xp.polydiv({x}, {y})[{int(self.rng.integers(2))}]")
            text = self.choice(forms)
            uses = self.uses_of(text)
            kinds = {self.env[u].dtype.kind for u in uses}
            inexact = "f" in kinds or text.startswith(("xp.polyint", "xp.polydiv"))
            guard = " and ".join(f"moderate({u})" for u in uses)
            if inexact and not text.startswith(("xp.polyder", "xp.polyint", "xp.polydiv")):
                guard += " and " + no_cancellation(text, uses)
            layout = False
        else:  # predicates
            x = self.pick()
            v = self.env[x]
            y = self.pick(lambda u: broadcasts(u.shape, v.shape)) or x
            text = self.choice([f"xp.asarray(xp.isfortran({x}))", f"xp.asarray(xp.array_equiv({x}, {y}))",
                                f"xp.asarray(xp.isrealobj({x}))", f"xp.asarray(xp.iscomplexobj({x}))"])
            uses = self.uses_of(text)
            if "array_equiv" in text and self.rounded.intersection(uses):
                return False  # equality of rounded values
            layout = False
        return self.define(text, uses, inexact=inexact, guard=guard, layout=layout)

    def numpy_writes(self):
        """NumPy's functions that write into their first argument: putmask, place, put,
        put_along_axis, copyto (with where=) and fill_diagonal. Statements whose casts NumPy
        refuses are dropped; a float scalar stored into integers must fit (safe_cast)."""
        t = self.pick(lambda v: v.ndim > 0 and v.size > 0, writable=True)
        if t is None:
            return False
        v = self.env[t]
        s = self.scalar()
        guards = []
        if s.value.dtype.kind in "fc":
            guards.append(f"safe_cast({s.text}, {str(v.dtype)!r})")
        y = self.pick(lambda u: u.shape == v.shape and u.dtype.kind in "biu")
        r = self.rng.random()
        if r < 0.2:
            vals = y if y and self.chance(0.5) else s.text
            text = f"xp.putmask({t}, {t} > 0, {vals})"
            if vals == y:
                guards = [f"no_overlap({t}, {y})"]  # NumPy reads the values as it writes
        elif r < 0.3:
            text = f"xp.place({t}, {t} < 0, {s.text})"
        elif r < 0.45:
            n = v.size
            idx = sorted({int(i) for i in self.rng.integers(-n, n, 3)})
            text = f"xp.put({t}, {idx}, {s.text})"
        elif r < 0.6:
            axis = int(self.rng.integers(-v.ndim, v.ndim))
            n = v.shape[axis]
            shape = tuple(n if d == axis % v.ndim else 1 for d in range(v.ndim))
            perm = [int(i) for i in self.rng.permutation(n)]
            vals = y if y and self.chance(0.5) else s.text
            text = (f"xp.put_along_axis({t}, xp.reshape(xp.asarray({perm}), {shape}), {vals}, "
                    f"axis={axis})")
            if vals == y:
                guards = [f"no_overlap({t}, {y})"]
        elif r < 0.85:
            src = self.pick(lambda u: broadcasts(u.shape, v.shape, strict=True))
            where = f", where={t} > 0" if self.chance(0.4) else ""
            text = f"xp.copyto({t}, {src or s.text}{where})"
            if src:
                guards = [f"overlap_as_copy({t}, {src})" if not where else f"no_overlap({t}, {src})"]
        else:
            if v.ndim < 2 or (v.ndim > 2 and len(set(v.shape)) != 1):
                return False
            wrap = ", wrap=True" if v.ndim == 2 and self.chance(0.5) else ""
            text = f"xp.fill_diagonal({t}, {s.text}{wrap})"
        return self.add(Stmt(text, None, self.uses_of(text), t, kind="write",
                             guard=" and ".join(guards) or None))

    def observe(self):
        """Printing computes a value mid-program, between the writes."""
        x = self.pick()
        return self.add(Stmt(f"str({x})", None, (x,), kind="observe"))

    MAKERS = [("elementwise", 30), ("chain", 2), ("astype", 5), ("view", 12), ("index", 6),
              ("take", 2), ("reduction", 10), ("matmul", 3), ("join", 3), ("inplace", 10),
              ("setitem", 10), ("out", 3), ("observe", 2), ("sorting", 4),
              ("statistics", 4), ("linalg", 5), ("fft", 3), ("numpy_extras", 4),
              ("numpy_more", 4), ("numpy_writes", 3), ("numpy_rest", 4),
              ("numpy_tail", 3), ("ufunc_method", 3)]


QUANTILE_METHODS = ["inverted_cdf", "averaged_inverted_cdf", "closest_observation",
                    "interpolated_inverted_cdf", "hazen", "weibull", "linear", "median_unbiased",
                    "normal_unbiased", "lower", "higher", "midpoint", "nearest"]



# NumPy's comparison ufuncs.
COMPARISONS = ("greater", "greater_equal", "less", "less_equal", "equal", "not_equal")


def _fits(value, dtype):
    info = np.iinfo(dtype)
    return info.min <= value <= info.max

def python_int(text, default):
    """The value of an expression of Python literals only (-(65535 << False), abs(-128)) when it
    is an int, else default."""
    if not re.fullmatch(r"([-+*/%~<>()|&^ \d]|True|False|abs)+", text):
        return default
    try:
        v = eval(text, {"__builtins__": {}, "abs": abs})
    except Exception:
        return default
    return v if type(v) is int else default


def no_cancellation(text, uses):
    """A guard: the sum or product `text` does not cancel (see program.cancel_free), checked by
    computing it again over the absolute values of its operands."""
    abs_text = text
    for u in uses:
        abs_text = re.sub(rf"\b{u}\b", f"xp.abs({u})", abs_text)
    return f"cancel_free({text}, {abs_text})"


def compiled_expr(text):
    return compile(text, "<fuzz>", "eval")


def broadcasts(a, b, strict=False):
    """Whether shapes a and b broadcast together (strict: a broadcasts to b itself)."""
    try:
        s = np.broadcast_shapes(a, b)
    except ValueError:
        return False
    return not strict or s == tuple(b)


def reshape_target(rng, shape):
    n = int(np.prod(shape))
    divisors = [d for d in range(1, n + 1) if n % d == 0] or [0]
    d = int(divisors[int(rng.integers(len(divisors)))])
    return f"{d}, -1" if n else f"{shape[0]}, -1"


def generate(seed, max_statements=None):
    """The program of a seed (deterministic: the same seed gives the same program)."""
    b = Builder(seed)
    with quiet():
        b.make_inputs()
        target = max_statements or int(b.rng.integers(4, 40))
        names = [m for m, _ in Builder.MAKERS]
        w = np.array([w for _, w in Builder.MAKERS], dtype=float)
        attempts = 0
        while len(b.stmts) < target and attempts < 4 * target:
            attempts += 1
            getattr(b, names[int(b.rng.choice(len(names), p=w / w.sum()))])()
    return Program(seed, b.inputs, b.stmts)
