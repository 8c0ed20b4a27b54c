"""A fuzz program as data, how it runs, and how it prints as a standalone Python reproducer.

A program is a few input arrays and a list of statements. Each statement is one line of Python
over a namespace `xp` (NumPy or accel), with the names it defines, reads and writes, so the
shrinker can drop statements together with the ones that depend on them.
"""

import ast
import builtins
import contextlib
import dataclasses
import json
import pathlib
import warnings

import numpy as np

# Exec'd here and printed verbatim into every reproducer, so both run the very same NumPy.
PRELUDE = '''\
nan, inf = float("nan"), float("inf")


class NumpyAsAccel:
    """NumPy, except where accel deliberately returns a new value instead of a view:
    np.real/np.imag of a complex array are views into it; accel.real/imag are new arrays, laid
    out in their input's axis order as elementwise results are (order='K')."""

    def __getattr__(self, name):
        return getattr(np, name)

    @staticmethod
    def real(x):
        return _elementwise_copy(np.real(x))

    @staticmethod
    def imag(x):
        # NumPy's imaginary part of a real array is new zeros, C-ordered (Fortran-ordered for a
        # Fortran-ordered x) and read-only; accel's is an elementwise result, laid out as x.
        r = np.imag(x)
        if np.iscomplexobj(x) or not isinstance(r, np.ndarray):
            return _elementwise_copy(r)
        return np.where(False, x, 0).astype(r.dtype)


def _elementwise_copy(r):
    """A new array of r's values laid out as an elementwise op's result of r (NumPy's iterator's
    order='K', which keeps broadcast axes in C order; r.copy(order='K') moves them innermost)."""
    if isinstance(r, np.ndarray) and r.ndim:
        return np.where(True, r, r)
    return r.copy(order="K")  # raises for a Python number: accel's real(2.0) is not weak


class ThroughNumpy:
    """NumPy's own functions called on accel arrays, which hand them to accel through
    __array_function__ and __array_ufunc__ (the program's inputs are accel arrays)."""

    def __init__(self, ac):
        self.asarray = ac.asarray  # np.asarray would convert an accel array to NumPy
        self.ac = ac

    def __getattr__(self, name):
        return getattr(np, name)

    # The program runs with `a // b` as xp.floor_divide(a, b), as the oracle does. Of NumPy
    # values alone (np.fft.fftfreq's, a NumPy scalar) that is NumPy's own arithmetic, no accel
    # in it: those run the oracle's floor_divide, the standard's (fuzz seed 743312).
    def floor_divide(self, *args, **kwargs):
        if not any(isinstance(a, self.ac.ndarray) for a in args):
            return standard.floor_divide(*args, **kwargs)
        return np.floor_divide(*args, **kwargs)

    # np.real/np.imag of a NumPy array (a value no accel array fed, such as np.fft.rfftfreq's)
    # is NumPy's view, the array itself when it is real, which a later out= writes; the oracle
    # (NumpyAsAccel) models accel's new arrays, so these copy too (fuzz seed 611176).
    @staticmethod
    def real(x):
        r = np.real(x)
        return r.copy(order="K") if isinstance(r, np.ndarray) else r

    @staticmethod
    def imag(x):
        r = np.imag(x)
        return r.copy(order="K") if isinstance(r, np.ndarray) else r


# Factors unique only up to signs, phases or a basis (eigenvectors, singular vectors, Q and R)
# are compared through the products they multiply back to, which are unique.
def eigh_product(xp, h):
    w, v = xp.linalg.eigh(h)
    return (v * w[..., None, :]) @ xp.conj(v).mT


def svd_product(xp, a):
    u, s, vh = xp.linalg.svd(a, full_matrices=False)
    return (u * s[..., None, :]) @ vh


def qr_product(xp, a, mode):
    q, r = xp.linalg.qr(a, mode=mode)
    return q @ r
'''
_prelude = {"np": np}
exec(PRELUDE, _prelude)
NUMPY = _prelude["NumpyAsAccel"]()  # the generator's NumPy: its random stream must not change
LITERALS = {"np": np, "nan": _prelude["nan"], "inf": _prelude["inf"],
            **{f: _prelude[f] for f in ("eigh_product", "svd_product", "qr_product")}}

# The oracle's NumPy (run_numpy, and the NumPy side of reproducers): NumPy's answers with the
# Array API standard's special values where accel follows the standard (issue 12), taken from
# the one reference the elementwise tests use as well.
REFERENCE_DIR = pathlib.Path(__file__).resolve().parents[1] / "python"
STANDARD_PRELUDE = f'''\
import sys
sys.path.insert(0, {str(REFERENCE_DIR)!r})
import standard_special_values as standard


class StandardNumpy(NumpyAsAccel):
    """NumpyAsAccel with the standard's floor_divide, expm1 and tanh (and divmod's quotient:
    accel's divmod is (x1 // x2, x1 % x2) with its own floor_divide)."""
    floor_divide = staticmethod(standard.floor_divide)
    expm1 = staticmethod(standard.expm1)
    tanh = staticmethod(standard.tanh)

    @staticmethod
    def divmod(x1, x2):
        return standard.floor_divide(x1, x2), np.remainder(x1, x2)
'''
exec(STANDARD_PRELUDE, _prelude)
STANDARD_NUMPY = _prelude["StandardNumpy"]()


class _FloorDivisionAsCall(ast.NodeTransformer):
    """`a // b` and `a //= b` where an operand is one of the program's arrays or the result of
    an xp function (an array on accel's side: `xp.sqrt(inf) // 1` is accel's floor_divide
    there, the standard's inf, where NumPy's scalar gives nan; fuzz seed 302373), as
    xp.floor_divide calls, so that the oracle's floor_divide answers them. Operands that are all
    Python or NumPy scalars are computed by Python or NumPy on both sides and stay as they are."""

    def __init__(self, globals_):
        self.globals = globals_

    def reads_an_array(self, node):
        return any((isinstance(n, ast.Name) and n.id not in self.globals) or _calls_xp(n)
                   for n in ast.walk(node))

    def call(self, args, keywords=()):
        xp = ast.Attribute(ast.Name("xp", ast.Load()), "floor_divide", ast.Load())
        return ast.Call(xp, list(args), list(keywords))

    def visit_BinOp(self, node):
        self.generic_visit(node)
        if isinstance(node.op, ast.FloorDiv) and (self.reads_an_array(node.left)
                                                  or self.reads_an_array(node.right)):
            return self.call([node.left, node.right])
        return node

    def visit_AugAssign(self, node):
        self.generic_visit(node)
        if isinstance(node.op, ast.FloorDiv) and isinstance(node.target, ast.Name):
            name = ast.Name(node.target.id, ast.Load())
            out = ast.keyword("out", ast.Name(node.target.id, ast.Load()))
            return ast.Expr(self.call([name, node.value], [out]))
        return node


def _calls_xp(node):
    """node is a call of an xp function (xp.sqrt(...), xp.linalg.norm(...))."""
    if not isinstance(node, ast.Call):
        return False
    f = node.func
    while isinstance(f, ast.Attribute):
        f = f.value
    return isinstance(f, ast.Name) and f.id == "xp"


def standard_text(text):
    """A statement as the oracle runs it (floor division through xp.floor_divide)."""
    if "//" not in text:
        return text
    tree = _FloorDivisionAsCall(set(LITERALS) | {"xp"} | set(dir(builtins))).visit(ast.parse(text))
    return ast.unparse(ast.fix_missing_locations(tree))


@dataclasses.dataclass
class Input:
    name: str
    values: str  # a NumPy expression (literal values or a seeded RNG) for the array


@dataclasses.dataclass
class Stmt:
    text: str  # one line of Python over xp, np and the program's names
    defines: str = None  # the name it binds
    uses: tuple = ()  # names it reads (including the one it writes)
    writes: str = None  # the name whose memory it writes into
    kind: str = "value"  # value (a new array), view (shares memory), write
    inexact: bool = False  # may differ from NumPy by rounding (the oracle's noise runs model it)
    # Its rounding is bounded relative to the largest value, not each one (an FFT, a solve):
    # the noise on its result is scaled by the result's largest magnitude.
    normwise: bool = False
    guard: str = None  # a NumPy-side check that must hold (excluded cases, e.g. unsafe casts)
    # Its result is laid out as NumPy's (elementwise ops and astype: order='K', the inputs' axis
    # order): the oracle compares strides too.
    layout: bool = False


@dataclasses.dataclass
class Program:
    seed: int
    inputs: list
    stmts: list

    def names(self):
        """Every name the program binds, in order."""
        return [i.name for i in self.inputs] + [s.defines for s in self.stmts if s.defines]

    def to_json(self):
        return json.dumps(dataclasses.asdict(self))

    @staticmethod
    def from_json(text):
        d = json.loads(text)
        return Program(d["seed"], [Input(**i) for i in d["inputs"]],
                       [Stmt(**{**s, "uses": tuple(s["uses"])}) for s in d["stmts"]])


def input_array(inp):
    return np.asarray(eval(inp.values, dict(LITERALS)))


_compiled = {}


def compiled(text):
    code = _compiled.get(text)
    if code is None:
        code = _compiled[text] = compile(text, "<fuzz>", "exec")
    return code


class Invalid(Exception):
    """The program is outside what the fuzzer compares (NumPy rejects it, or a guard fails).
    Raised by a statement: `at` is its index and `env` the values of the statements before it."""

    def __init__(self, message, at=None, env=None):
        super().__init__(message)
        self.at, self.env = at, env


def run_numpy(program, noise=None):
    """Runs the program on NumPy; returns the names' values. Raises Invalid where NumPy raises
    or a guard fails. noise (the oracle's noise runs) perturbs the values of inexact statements:
    noise.before(stmt, env) gives the names the statement sees, noise.after(stmt, env) changes
    what it wrote."""
    env = {}
    for inp in program.inputs:
        env[inp.name] = input_array(inp).copy()
    g = {"xp": STANDARD_NUMPY, **LITERALS, **GUARDS}
    for at, s in enumerate(program.stmts):
        if s.guard and not guard_holds(s.guard, g, env):
            raise Invalid(f"guard {s.guard!r} fails", at, env)
        local = noise.before(s, env) if noise and s.inexact else env
        try:
            with quiet():
                exec(compiled(standard_text(s.text)), g, local)
        except Exception as e:
            raise Invalid(f"NumPy raises {type(e).__name__}: {e}", at, env) from None
        if s.defines:
            v = local[s.defines]
            if not isinstance(v, np.ndarray):
                if s.kind == "view":
                    # accel has no scalars: x[i] of a 1-d x is a 0-d view, NumPy's a copy
                    raise Invalid(f"{s.defines} is a NumPy scalar from indexing", at, env)
                v = np.asarray(v)
            env[s.defines] = v
        if noise and s.inexact:
            noise.after(s, env)
    return env


def guard_holds(guard, g, env):
    try:
        with quiet():
            return bool(eval(guard, g, env))
    except Exception:  # the guarded expression itself is invalid
        return False


def run_accel(program, ac, device="cpu", eager=False, namespace="accel"):
    """Runs the program on accel; returns the names' values (accel arrays, maybe pending).
    eager: compute each new value at once (tells lazy-evaluation bugs from wrong kernels).
    namespace "numpy": the program calls NumPy's functions on accel arrays (dispatch)."""
    env = {}
    for inp in program.inputs:
        env[inp.name] = ac.asarray(input_array(inp), copy=True, device=device)
    xp = ac if namespace == "accel" else _prelude["ThroughNumpy"](ac)
    g = {"xp": xp, **LITERALS}
    for at, s in enumerate(program.stmts):
        try:
            exec(compiled(s.text if namespace == "accel" else standard_text(s.text)), g, env)
            if eager and s.defines:
                env[s.defines].eval()
        except Exception as e:
            e.fuzz_statement = at  # the oracle asks whether NumPy's answer there was stable
            raise
    return env


@contextlib.contextmanager
def quiet():
    """NumPy's warnings (overflow, division by zero, casts) are part of its answers."""
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        yield


def no_zero(x):
    """Integer reciprocal of 0: accel gives 0, NumPy INT_MIN (elementwise_oracle.py lists it)."""
    return not (np.asarray(x) == 0).any()


def safe_cast(x, dtype):
    """False where C leaves the conversion undefined: a NaN, infinite or out-of-range float
    converted to an integer (NumPy's answer is whatever its platform gives)."""
    x = np.asarray(x)
    dt = np.dtype(dtype)
    if x.dtype.kind not in "fc" or dt.kind not in "iu":
        return True
    r = np.real(x).astype(np.float64)
    if not np.isfinite(r).all():
        return False
    info = np.iinfo(dt)
    t = np.trunc(r)
    return bool(((t >= float(info.min)) & (t < float(info.max) + 1)).all())


def blas_safe(*arrays):
    """BLAS gives no IEEE promise for inf, NaN or overflow (it may skip zeros, reorder, fuse),
    and NumPy and accel may run different BLAS kernels: float products are compared only on
    finite inputs that cannot overflow."""
    return all(np.asarray(a).dtype.kind not in "fc" or
               (np.isfinite(a).all() and (np.abs(a) < 1e15).all()) for a in arrays)


def no_nan(x):
    """A NaN's sign bit (signbit, copysign) depends on how it was made: not compared."""
    return not np.isnan(np.asarray(x, dtype=complex)).any()


def no_zero_tie(a, b):
    """minimum/maximum/fmin/fmax of 0 and -0.0: IEEE leaves the sign of the result open, and
    NumPy's differs between its SIMD lanes and its scalar loop. Nor a signalling NaN (made by a
    view of other bits): NumPy's fmin(1.5, sNaN) is 1.5 in its SIMD lanes and NaN in its scalar
    loop (glibc's fminf), so which one depends on the array's length (fuzz seed 1752734)."""
    a, b = np.broadcast_arrays(np.asarray(a), np.asarray(b))
    return not ((a == 0) & (b == 0)).any() and not signalling_nan(a) and not signalling_nan(b)


def signalling_nan(x):
    """Whether x holds a NaN whose quiet bit (the mantissa's highest) is clear."""
    x = np.asarray(x)
    if x.dtype.kind == "c":  # both parts
        x = np.ascontiguousarray(x).view(f"f{x.dtype.itemsize // 2}")
    if x.dtype.kind != "f" or not x.size:
        return False
    bits = np.ascontiguousarray(x).reshape(-1).view(f"u{x.dtype.itemsize}")
    quiet = np.array(1, bits.dtype) << np.array(np.finfo(x.dtype).nmant - 1, bits.dtype)
    return bool((np.isnan(x.reshape(-1)) & ((bits & quiet) == 0)).any())


def moderate(x):
    """Finite values below 2^20 in magnitude: arguments of sin/cos/tan (see generate.PERIODIC),
    integer samples whose sums stay exact. (Measured in float64: abs(INT64_MIN) wraps.)"""
    x = np.asarray(x)
    finite = x[np.isfinite(x)] if x.dtype.kind in "fc" else x
    return not (np.abs(finite.astype(np.complex128 if x.dtype.kind == "c" else np.float64))
                >= 2.0**20).any()


def halves_finite(x):
    """Values whose sum of two stays finite: NumPy's median averages the middle values, and
    on one path even a lone middle value with itself (nanmedian along an axis of length 1: 3e38j
    in complex64 becomes nan+infj, where its 1-d path keeps 3e38j; fuzz seed 721193)."""
    x = np.asarray(x)
    if x.dtype.kind not in "fc":
        return True
    if x.dtype.kind == "c" and not np.isfinite(x).all():
        return False  # (inf+1e30j + a) / 2: which parts turn NaN depends on the division (seed 720791)
    finite = np.abs(x[np.isfinite(x)])
    return not (finite >= float(np.finfo(x.dtype).max) / 4).any()


def _gaps(a, b, eps):
    """(|a - b|, the distance within which two values may be one rounding apart: 10^4 units in
    the last place of the compared dtype or of the coarser precision eps they were rounded at),
    elementwise over the broadcast pair; None for values that are not floats."""
    a, b = np.broadcast_arrays(np.asarray(a), np.asarray(b))
    dt = np.result_type(a, b)
    if dt.kind not in "fc":
        return None
    with np.errstate(all="ignore"):
        a, b = a.astype(np.complex128), b.astype(np.complex128)
        tol = 1e4 * max(np.finfo(dt).eps, eps)
        return np.abs(a - b), tol * np.maximum(np.abs(a), np.abs(b))


def no_near_tie(a, b, eps=0.0):
    """An equality test of values that may carry rounding differences: no pair of values is
    close without being equal (closer than 10^4 units in the last place, of the compared dtype
    or of the coarser precision eps the values were rounded at: rad2deg(deg2rad(1)) in float32,
    widened to complex128, is 1 - 2^-24 in one library and 1 in another)."""
    gaps = _gaps(a, b, eps)
    if gaps is None:
        return True
    gap, near = gaps
    return not ((gap > 0) & (gap <= near)).any()


def no_order_tie(a, b, eps=0.0):
    """An ordering test (<, <=, >, >=) of values that may carry rounding differences: no pair
    of values is equal or close (within 10^4 units in the last place). The noise runs push each
    element of an array by its own random sign, so two equal elements of one array (sinc of two
    integers: both -(pi - fl(pi)) / fl(pi) to the last place) keep their tie in half the draws,
    and another library's values one ulp apart then order otherwise (fuzz seed 1937370)."""
    gaps = _gaps(a, b, eps)
    if gaps is None:
        return True
    gap, near = gaps
    return not (np.isfinite(gap) & (gap <= near)).any()


def no_integer_exponent_jump(base, exponent, eps=0.0):
    """x ** y of a negative real x is NaN unless y is a whole number: a rounded y on or within
    10^4 units in the last place of a whole number decides NaN against a finite value by its
    last place (fuzz seed 1924392: cbrt(-1 - 2^-52) is -1 in accel's libm and one ulp further
    from it in NumPy's, so (-1 - 2^-52) ** it is finite here and NaN there)."""
    x, y = np.broadcast_arrays(np.asarray(base), np.asarray(exponent))
    if x.dtype.kind == "c" or y.dtype.kind == "c" or y.dtype.kind not in "fc":
        return True
    with np.errstate(all="ignore"):
        yf = y.astype(np.float64)
        tol = 1e4 * max(np.finfo(y.dtype).eps, eps)
        near = np.isfinite(yf) & (np.abs(yf - np.round(yf)) <= tol * np.maximum(np.abs(yf), 1))
        negative = x.astype(np.float64) < 0
    return not (near & negative).any()


def no_near_zero(x, eps=0.0):
    """Truth tests (logical_and/or/xor/not) of values that may carry rounding differences: no
    value is nonzero yet below 10^4 units in the last place of 1, where another library's
    rounding may have left an exact 0 (tan(pi/4) is 1 - 2^-53 in NumPy and 1 in accel's libm,
    and log2 of it -1.6e-16 against 0; fuzz seed 1854159)."""
    x = np.asarray(x)
    if x.dtype.kind not in "fc":
        return True
    tol = 1e4 * max(np.finfo(x.dtype).eps, eps)
    with np.errstate(all="ignore"):
        mag = np.abs(x.astype(np.complex128))
    return not ((mag > 0) & (mag < tol)).any()


def no_rounded_zero_over_zero(num, den, eps=0.0):
    """A rounded value divided by 0: each part's sign, or its being 0, picks inf, -inf or NaN,
    and a residue near 0 picks as it likes (an FFT's 1.8e-7 where NumPy has 0.0, inf against
    NaN; fuzz seed 2298994). True where no part of a numerator over a zero divisor is below 10^4
    units in the last place of 1 (0 included)."""
    num, den = np.broadcast_arrays(np.asarray(num), np.asarray(den))
    if num.dtype.kind not in "fc":
        return True
    over_zero = num[den == 0]
    if over_zero.size == 0:
        return True
    tol = 1e4 * max(np.finfo(num.dtype).eps, eps)
    parts = [over_zero.real, over_zero.imag] if num.dtype.kind == "c" else [over_zero]
    with np.errstate(all="ignore"):
        return not any((np.abs(p.astype(np.float64)) < tol).any() for p in parts)


def no_near_multiple(a, b, eps=0.0):
    """floor/ceil/trunc, %, // and fmod of values that may carry rounding differences: none
    within 10^4 ulps of a multiple of the divisor, where the result jumps (NumPy's tan(pi/4)
    is 1 - 2^-53, another library's 1.0: 2 * tan(pi/4) % 1 is then 1 or 0). Complex values:
    both parts (round and casts to integers jump on each)."""
    a, b = np.broadcast_arrays(np.asarray(a), np.asarray(b))
    if a.dtype.kind == "c":
        return no_near_multiple(a.real, b.real, eps) and no_near_multiple(a.imag, b.real, eps)
    if a.dtype.kind not in "f":
        return True
    with np.errstate(all="ignore"):
        q = a.astype(np.float64) / b.astype(np.float64)
        tol = 1e4 * max(np.finfo(a.dtype).eps, eps)  # eps: as no_near_tie's
        near = np.abs(q - np.round(q)) <= tol * np.maximum(np.abs(q), 1)
    return not (near & np.isfinite(q)).any()


def no_near_power_of_two(x, eps=0.0):
    """spacing of values that may carry rounding differences: none within 10^4 ulps of a power
    of two, where the gap to the next value doubles (float16's toward zero for negative x)."""
    x = np.asarray(x)
    if x.dtype.kind != "f":
        return True
    with np.errstate(all="ignore"):
        a = np.abs(x.astype(np.float64))
        m = np.frexp(a)[0]  # in [0.5, 1) for finite nonzero a
        tol = 1e4 * max(np.finfo(x.dtype).eps, eps)
        near = (m - 0.5 <= tol) | (1.0 - m <= tol)
    return not (near & np.isfinite(a) & (a != 0)).any()


def no_extreme_tie(x, largest, axis, eps=0.0):
    """argmin/argmax of values that may carry rounding differences: along the axis, the extreme
    is apart from the runner-up by more than 10^4 ulps (var of two rows can tie exactly in NumPy
    and differ by an ulp in another library, which then picks the other row). Complex values
    are ordered by their real parts first: two real parts near each other leave the choice to
    the rounding (the ifft of a real signal has conjugate pairs, whose real parts NumPy's
    pocketfft may round equal and another FFT an ulp apart)."""
    x = np.asarray(x)
    if x.dtype.kind == "c":
        x = x.real
    if x.dtype.kind != "f" or x.size < 2:
        return True
    x = x.reshape(-1) if axis is None else np.moveaxis(x, axis, -1)
    if x.shape[-1] < 2:
        return True
    with np.errstate(all="ignore"):
        s = np.sort(-x if largest else x, axis=-1)  # NaNs last
        a, b = s[..., 0], s[..., 1]
        tol = 1e4 * max(np.finfo(x.dtype).eps, eps)  # eps: as no_near_tie's
        near = (np.abs(a - b) <= tol * np.maximum(np.abs(a), np.abs(b)))
    return not (near | np.isinf(a) & (a == b)).any()


def no_flat_lane(x, axis, where=True):
    """var/std along `axis` (None: all of x) of no run of two or more equal nonzero finite
    values: their variance is 0, but NumPy's mean of them may round an ulp off (float16's mean of
    three equal values, computed in float32) and leave a residue far below the values' rounding,
    which the noise runs do not move (the values stay equal) and a division then tells from 0
    (fuzz seed 1082323: std of a broadcast, divided by itself, is 1.0 in NumPy and NaN here).
    A lane's values are those where= selects, NaNs left out: nanvar of equal values and NaNs
    is such a residue too (NumPy 5e-32, accel 0; fuzz seed 2196158)."""
    x = np.asarray(x)
    if x.dtype.kind not in "fc" or x.size < 2:
        return True
    keep = np.broadcast_to(np.asarray(where, dtype=bool), x.shape) & ~np.isnan(x)
    if axis is None:
        x, keep = x.reshape(-1, 1), keep.reshape(-1, 1)
    else:
        x, keep = np.moveaxis(x, axis, 0), np.moveaxis(keep, axis, 0)
        x, keep = x.reshape(x.shape[0], -1), keep.reshape(x.shape[0], -1)
    for lane, kept in zip(x.T, keep.T):
        values = lane[kept]
        with np.errstate(all="ignore"):
            if (values.size >= 2 and np.all(values == values[0]) and np.isfinite(values[0])
                    and values[0] != 0):
                return False
    return True


def exact_float_sum(x):
    """Integer means, variances and deviations whose float64 sum is exact: past 2^53 the sum
    rounds by the order of its terms, and the deviation of equal huge values (0 exactly) comes
    out as whatever that rounding left (NumPy 256, another order 2304). The oracle's noise
    cannot show it, as it does not perturb integers."""
    x = np.asarray(x)
    return bool(np.abs(x.astype(np.float64)).sum() < 2.0**53)


def exact_weighted_sum(x, w, axis):
    """Integer averages weighted by abs(w) + 1 whose float64 products and their sums are exact
    (below 2^53): past it they round by the order of the terms, and a sum that cancels keeps
    only that rounding (fuzz seed 1832141: -4605780524233271 against NumPy's ...484)."""
    x = np.asarray(x).astype(np.float64)
    weights = np.abs(np.asarray(w).astype(np.float64)) + 1
    if weights.shape != x.shape:  # 1-d weights along the one axis
        shape = [1] * x.ndim
        shape[axis] = -1
        weights = weights.reshape(shape)
    return bool((np.abs(x) * weights).sum() < 2.0**53)


def no_signed_zeros(x):
    """min/max reductions over both 0.0 and -0.0: which one a tie gives is not defined."""
    x = np.asarray(x)
    zeros = x[x == 0]
    return not (np.signbit(zeros).any() and (~np.signbit(zeros)).any())


def order_defined(index):
    """Advanced assignment with a repeated index keeps the value written last, in the order
    NumPy iterates, which follows memory order, not C order, for a non-contiguous index."""
    index = np.asarray(index)
    return bool(index.flags.c_contiguous) or np.unique(index).size == index.size


def no_overlap(target, value):
    """Advanced (mask, index array) assignment of a value or with a mask that overlaps the
    target: NumPy reads the value and the mask while it writes, without a copy (x = flip(v);
    x[x > 0] = v; x[v] = 0 stops at the mask values it cleared), accel copies first."""
    return not np.shares_memory(target, value)


def overlap_as_copy(target, value):
    """A basic assignment of a value that overlaps the target: NumPy copies the value first,
    except into a 1-d target walked in the value's direction, which it writes like memmove:
    right when the two strides are equal (x[1:] = x[:-1]), not otherwise (x[::2] = x[:4] reads
    x[2] after writing it; fuzz seed 738742). accel copies first."""
    target, value = np.asarray(target), np.asarray(value)
    if target.ndim != 1 or value.ndim < 1 or not np.may_share_memory(target, value):
        return True
    t, v = target.strides[0], value.strides[-1]
    return t * v <= 0 or t == v


def same_dtype(value, target):
    """An out= of another precision: NumPy rounds in the op's dtype and the oracle's noise is
    put on the stored result, so the two would not bound each other."""
    return np.asarray(value).dtype == np.asarray(target).dtype


def c_contiguous(x):
    return bool(np.asarray(x).flags.c_contiguous)


def cancel_free(value, abs_value):
    """Sums and matrix products whose result is not far smaller than the sum of the magnitudes
    of its terms and does not overflow: where terms cancel, the result carries the rounding of
    the terms, not its own, and where partial sums overflow, inf or nan depends on the order;
    two libraries summing in other orders may then differ in every digit."""
    value, abs_value = np.abs(np.asarray(value)), np.asarray(abs_value)
    if value.dtype.kind not in "fc":
        return True
    with np.errstate(all="ignore"):
        # A NaN term makes NaN in any order; an overflow (inf from finite terms) depends on it.
        return bool(np.all(np.isnan(abs_value) |
                           (np.isfinite(abs_value) & (value * 2**10 >= abs_value))))


def diff_cancel_free(x, n, axis, prepend=None, append=None):
    """np.diff of rounded values: each difference not far smaller than the magnitudes it
    subtracts (as cancel_free), where only the operands' rounding residues would be left (pow
    results one ulp apart in NumPy and accel, a difference of neighbours 1e-13 apart relative;
    fuzz seed 2124362). prepend/append as np.diff takes them."""
    x = np.asarray(x)
    if x.dtype.kind not in "fc" or n == 0 or x.ndim == 0:
        return True

    def edge(e):  # a scalar prepend/append is one slice along the axis, as np.diff makes it
        e = np.asarray(e)
        if e.ndim == 0:
            shape = list(x.shape)
            shape[axis] = 1
            e = np.broadcast_to(e, shape)
        return e

    parts = ([edge(prepend)] if prepend is not None else []) + [x] + \
        ([edge(append)] if append is not None else [])
    ext = np.concatenate(parts, axis=axis) if len(parts) > 1 else x
    with np.errstate(all="ignore"):
        value = np.diff(ext, n=n, axis=axis)
        mag = np.abs(ext.astype(np.complex128 if ext.dtype.kind == "c" else np.float64))
        for _ in range(n):
            m = mag.shape[axis]
            mag = np.take(mag, range(1, m), axis=axis) + np.take(mag, range(0, m - 1), axis=axis)
    return cancel_free(value, mag)


def no_part_overflow(x):
    """Complex sums whose parts' finite terms cannot overflow in any order: cancel_free measures
    magnitudes, and a NaN in one part makes the magnitude NaN and exempts the sum, while the
    other part's partial sums may reach inf (then inf - inf = NaN) in one order and not in
    another (complex64 near 3e38, fuzz seed 2131961)."""
    x = np.asarray(x)
    if x.dtype.kind != "c":
        return True
    top = float(np.finfo(x.dtype).max)
    for part in (x.real, x.imag):
        finite = part[np.isfinite(part)].astype(np.float64)
        if np.abs(finite).sum() >= top:
            return False
    return True


def order_free_product(x):
    """Products whose value does not depend on the order of the multiplications.
    Complex: only of finite values whose running products cannot overflow (inf and NaN parts
    depend on the order, and where a product overflows, on whether its parts are computed with
    fused multiply-adds: NumPy's cumprod fuses them along one axis and not along another).
    Real: not both a zero (or a running product that may underflow to one) and an inf (or one
    that may overflow): 1e-40 * 1e-40 * inf is inf or nan by the order; and no running product
    that may reach the subnormals, where the digits it keeps depend on the order."""
    x = np.asarray(x)
    if x.dtype.kind not in "fc":
        return True
    fi = np.finfo(x.dtype)
    with np.errstate(all="ignore"):
        mags = np.abs(x).astype(np.float64)
        logs = np.log2(mags[(mags > 0) & np.isfinite(mags)])
    up, down = logs[logs > 0].sum(), logs[logs < 0].sum()
    if x.dtype.kind == "c":
        return bool(np.isfinite(x).all() and up < fi.maxexp - 2)
    may_overflow = up >= fi.maxexp - 1
    if (x == 0).any():
        return not (may_overflow or (~np.isfinite(x)).any())
    # Without a zero: overflow decides by the order only where values below 1 pull the running
    # product back (1e30 * 1e30 * 1e-30 is inf, 1e30 * 1e-30 * 1e30 is 1e30).
    return bool(down > fi.minexp and not (may_overflow and (mags < 1).any()))


def exact_in_common_dtype(*arrays):
    """isin of operands whose promoted dtype holds every value exactly: NumPy's sort path
    concatenates both operands in that dtype and takes neighbours that became equal (two uint64
    near 2^64 rounding to one float64) as found, answering True for values in no test element;
    accel compares each element with the test values only."""
    common = np.result_type(*arrays)
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return all(np.array_equal(np.asarray(a).astype(common).astype(np.asarray(a).dtype),
                                  np.asarray(a), equal_nan=np.asarray(a).dtype.kind in "fc")
                   for a in arrays)


def at_most_one_nan(x):
    """unique(..., return_inverse=True, equal_nan=False) of several NaNs: each NaN is its own
    unique value, and which one an input NaN's inverse index names follows the order NumPy's
    unstable sort left them in."""
    return int(np.isnan(np.asarray(x)).sum()) <= 1


def well_separated(*arrays, normwise=False):
    """Sorting, searching and set results over values that may carry rounding differences: no
    two elements are equal or within 10^4 units in the last place, so no rounding can reorder
    them or merge them. (Unlike a comparison, ties inside one array cannot be left to the noise
    runs: an exact 0 has no relative noise, and var of equal values is 0 in NumPy and 5e-38 in
    another summation order.) normwise: the units are those of the largest value, as a
    factorization's rounding is (the tiny singular values of a rank-deficient matrix are
    rounding alone: 0 twice in one library, 1e-7 and 3e-7 in another; fuzz seed 2056227)."""
    vals = np.concatenate([np.ravel(np.asarray(a)) for a in arrays])
    if vals.dtype.kind not in "fc":
        return True
    parts = [np.real(vals), np.imag(vals)] if vals.dtype.kind == "c" else [vals]
    for p in parts:
        p = np.sort(p[np.isfinite(p)].astype(np.float64))
        if p.size < 2:
            continue
        gap = np.diff(p)
        eps = np.finfo(vals.real.dtype).eps
        scale = np.abs(p).max() if normwise else np.maximum(np.abs(p[1:]), np.abs(p[:-1]))
        if (gap <= 1e4 * eps * scale).any():
            return False
    return True


def well_conditioned(m):
    """Factorizations, inverses and solves of finite matrices below 1e15 whose condition number
    is below 10^3: near a singular matrix the answer is the rounding's choice (a determinant of
    exactly 0 or 1e-17, a huge inverse or a LinAlgError)."""
    m = np.asarray(m)
    if not blas_safe(m):
        return False
    if m.size == 0:
        return True
    if m.dtype.kind in "fc":
        # Subnormal entries: LAPACK's pivots lose their digits, and a solve of [[0, 5e-324],
        # [5e-324, 5e-324]] (condition number 2.6) is inf in one LAPACK, NaN in another (fuzz
        # seed 400744).
        mag = np.abs(m)
        if ((mag > 0) & (mag < np.finfo(m.dtype).tiny)).any():
            return False
        # A matrix of tiny entries has a huge inverse: inv(m) @ inv(m) of entries near 1e-300
        # overflows, where inf - inf is the BLAS's choice (NumPy inf, accel NaN; fuzz seed
        # 1763978). Each matrix's largest entry stays above 1e-15, as blas_safe's below 1e15.
        if m.ndim >= 2 and m.shape[-1] and m.shape[-2] and (mag.max(axis=(-2, -1)) < 1e-15).any():
            return False
    with np.errstate(all="ignore"):
        c = np.linalg.cond(m.astype(np.complex128 if m.dtype.kind == "c" else np.float64))
    return bool(np.all(c < 1e3))


def small_residual(a, b):
    """lstsq solutions whose residual is not far larger than a @ x: a least-squares solution's
    forward error grows with cond(a)^2 |r| / (|a| |x|) (Golub & Van Loan, 5.3), so with b far
    from a's range two LAPACKs, both backward stable, differ far beyond rounding noise (fuzz
    seed 1235662: the column [2, 5, -4, -2^31] against its reverse, answers 4.7e-9 apart)."""
    a, b = np.asarray(a), np.asarray(b)
    if a.size == 0 or b.size == 0:
        return True
    wide = np.complex128 if "c" in (a.dtype.kind, b.dtype.kind) else np.float64
    a, b = a.astype(wide), b.astype(wide)
    with np.errstate(all="ignore"):
        x = np.linalg.pinv(a) @ b
        r = b - a @ x
        ratio = np.linalg.norm(r, axis=(-2, -1)) / (np.linalg.norm(a, axis=(-2, -1)) *
                                                     np.linalg.norm(x, axis=(-2, -1)))
    return bool(np.all(ratio < 100))


def det_in_range(m):
    """det of matrices whose determinant stays well inside the dtype's range: past it the
    product of the pivots overflows (or underflows), and which part of a complex result becomes
    inf or NaN is the LAPACK's choice (-inf+0j in NumPy's, -inf+nanj in another; fuzz seed
    401381)."""
    m = np.asarray(m)
    info = np.finfo(m.dtype if m.dtype.kind in "fc" else np.float64)
    with np.errstate(all="ignore"):
        d = np.abs(np.linalg.det(m.astype(np.complex128 if m.dtype.kind == "c" else np.float64)))
    return bool(np.all((d < info.max / 1e6) & ((d == 0) | (d > info.tiny * 1e6))))


def well_conditioned_samples(x):
    """cov and corrcoef of finite samples whose rows vary: a deviation from the mean cancels to
    the rounding of the mean where a row is nearly constant (corrcoef then divides 0 by 0 in one
    library and a rounding by a rounding in the other), and products overflow past 1e150."""
    x = np.atleast_2d(np.asarray(x)).astype(np.float64)
    if not (np.isfinite(x).all() and (np.abs(x) < 1e150).all()) or x.shape[-1] < 2:
        return False
    spread = np.var(x, axis=-1)
    return bool((spread > 1e-6 * np.mean(x * x, axis=-1)).all() and (spread > 1e-200).all())


def no_all_nan_slice(x, axis):
    """nan* statistics: no slice along axis is all NaN (for complex x, which NaN NumPy returns
    depends on its code path: the last element as it is, or nan+0j; for an array q, an all-NaN
    first slice sets the result's dtype)."""
    return not np.isnan(np.asarray(x)).all(axis=axis).any()


def finite_if_complex(x):
    x = np.asarray(x)
    return x.dtype.kind != "c" or bool(np.isfinite(x).all())


GUARDS = {"halves_finite": halves_finite, "overlap_as_copy": overlap_as_copy, "c_contiguous": c_contiguous, "finite_if_complex": finite_if_complex, "no_nan": no_nan,
          "safe_cast": safe_cast, "no_zero": no_zero,
          "blas_safe": blas_safe, "no_zero_tie": no_zero_tie, "order_defined": order_defined,
          "same_dtype": same_dtype, "moderate": moderate, "no_overlap": no_overlap,
          "cancel_free": cancel_free, "order_free_product": order_free_product,
          "no_part_overflow": no_part_overflow,
          "exact_float_sum": exact_float_sum, "exact_weighted_sum": exact_weighted_sum,
          "no_near_tie": no_near_tie, "no_near_zero": no_near_zero, "no_order_tie": no_order_tie,
          "no_integer_exponent_jump": no_integer_exponent_jump,
          "no_extreme_tie": no_extreme_tie, "no_flat_lane": no_flat_lane,
          "no_near_multiple": no_near_multiple, "no_rounded_zero_over_zero": no_rounded_zero_over_zero,
          "no_near_power_of_two": no_near_power_of_two,
          "diff_cancel_free": diff_cancel_free,
          "no_signed_zeros": no_signed_zeros, "exact_in_common_dtype": exact_in_common_dtype,
          "well_separated": well_separated, "at_most_one_nan": at_most_one_nan,
          "det_in_range": det_in_range, "small_residual": small_residual,
          "well_conditioned": well_conditioned, "no_all_nan_slice": no_all_nan_slice,
          "well_conditioned_samples": well_conditioned_samples}


def small_ops_at_once(fusion, seed):
    """Whether a run computes small elementwise ops at once (accel's default) or records them
    lazily. Fusion on: lazily, so fusion is what the small arrays of these programs exercise.
    Fusion off: at once for even seeds, lazily (one node at a time) for odd ones."""
    return not fusion and seed % 2 == 0


def to_python(program, *, fusion=True, device="cpu", note="", namespace="accel"):
    """The program as a standalone script that runs it on NumPy and accel and compares."""
    lines = [f"# accel fuzz reproducer: seed {program.seed}, fusion {'on' if fusion else 'off'}, "
             f"device {device}" + (f"; {note}" if note else ""),
             "import numpy as np", "import accel as ac", "", PRELUDE, STANDARD_PRELUDE, ""]
    if not fusion:
        lines.insert(3, "ac.set_fusion(False)")
    if not small_ops_at_once(fusion, program.seed):
        lines.insert(3, "ac.set_eager_small(False)")
    names = program.names()
    texts = [s.text for s in program.stmts]
    numpy_texts = [standard_text(t) for t in texts]
    # NumPy runs the program as the oracle does: floor division through xp.floor_divide.
    functions = [("program", texts)]
    if numpy_texts != texts:
        functions.append(("numpy_program", numpy_texts))
    for function, body in functions:
        lines.append(f"def {function}(xp, device):")
        for inp in program.inputs:
            lines.append(f"    {inp.name} = xp.asarray({inp.values}, copy=True, device=device)")
        lines += [f"    {t}" for t in body]
        lines.append(f"    return {{{', '.join(repr(n) + ': ' + n for n in names)}}}")
        lines.append("")
    lines += ["",
              f'want = {functions[-1][0]}(StandardNumpy(), "cpu")',
              f'got = program(ac, "{device}")' if namespace == "accel"
              else f'got = {functions[-1][0]}(ThroughNumpy(ac), "{device}")  # NumPy functions on accel arrays',
              "# newest first: evaluating the last value first keeps the longest lazy chains",
              "for name in reversed(list(got)):",
              "    w, g = np.asarray(want[name]), ac.asnumpy(got[name])",
              "    same = w.dtype == g.dtype and w.shape == g.shape and (",
              "        np.array_equal(w, g, equal_nan=w.dtype.kind in 'fc')",
              "        or (w.dtype.kind in 'fc' and np.allclose(w, g, rtol=1e-5, equal_nan=True)))",
              "    if not same:",
              "        print(name, 'numpy:', w.dtype, w.shape, w.tolist())",
              "        print(name, 'accel:', g.dtype, g.shape, g.tolist())",
              "    assert same, name"]
    laid_out = {s.defines: list(s.uses) for s in program.stmts if s.layout}
    if laid_out:
        lines += ["# elementwise results and astype keep their inputs' axis order, as NumPy's",
                  "def steps(x):",
                  "    if not hasattr(x, 'strides') or not hasattr(x, 'itemsize'):",
                  "        return None",
                  "    return [s // x.itemsize for s, n in zip(x.strides, x.shape) if n > 1]",
                  f"for name, uses in {laid_out!r}.items():",
                  "    w, g = want[name], got[name]",
                  "    if all(steps(want[u]) == steps(got[u]) for u in uses) and np.ndim(w) and np.size(w) > 1:",
                  "        assert steps(w) == steps(g), (name, 'strides', g.strides, 'NumPy', w.strides)"]
    return "\n".join(lines) + "\n"

