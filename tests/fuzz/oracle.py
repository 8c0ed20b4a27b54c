"""NumPy as the oracle: the expected values, how far each may fairly be off, and the comparison.

Two libraries may round differently where an op is not correctly rounded (sin, pow, a sum in
another order). How far that can move a program's values is measured, not guessed: the program
runs on NumPy once exactly and six times with noise of a few units in the last place put on the
inputs and results of each such statement (Stmt.inexact), or of exactly one on its results. A float may differ from NumPy by a few
ulps plus a multiple of the spread the noise caused; an integer or bool (a comparison, a cast, an
argmax) must be equal wherever the noise runs agree with the exact run, and is not compared where
they disagree (it sits on a rounding boundary). Dtypes are always compared, and shapes unless
the noise runs change them (a mask of values on a rounding boundary).
"""

import numpy as np

from program import Invalid, run_numpy

NOISE_ULPS_IN, NOISE_ULPS_OUT = 16, 32
ULPS = 8  # allowed beyond the noise spread
SPREAD = 4  # times the spread the noise caused
ILL_CONDITIONED = 1000  # a spread this many times the noise: not compared


def complex_of(re, im, dtype):
    """re + 1j * im without the NaN that 1j * inf makes."""
    out = np.empty(np.shape(re), dtype)
    out.real, out.imag = re, im
    return out


class Noise:
    """Rounding noise. The two noise runs are mirror images (same draws, opposite signs), so
    every value is pushed both ways: one that sits on a boundary (fmod of cbrt(-27), a
    comparison, a floor) is seen on both sides of it, whatever the draw."""

    def __init__(self, seed, direction, coherent=False, one_ulp=False):
        self.rng = np.random.default_rng(seed)
        self.direction = direction
        self.coherent = coherent  # every value pushed the same way: noise cannot cancel out
        # Results moved by exactly one unit in the last place, inputs not at all: the other
        # library's libm is often one ulp off NumPy's, and one ulp may reach an exact value
        # (NumPy's tanh(19) is 1 - 2^-53, another's 1.0: tanh(19) - 1 is then zero or not,
        # which pushes of 32 ulps never show).
        self.one_ulp = one_ulp

    def perturb(self, v, ulps, result=True, normwise=False):
        # An array stays an array: arithmetic on a 0-d array gives a NumPy scalar, whose x[...]
        # is a scalar again ("a NumPy scalar from indexing": a quarter of the programs left
        # unstable, all for that).
        return np.asarray(self._perturb(v, ulps, result, normwise))

    def _perturb(self, v, ulps, result, normwise):
        """v moved by `ulps` units of its dtype's epsilon (relative), each element by the full
        amount with a random sign, so no element escapes the noise. Complex values move by
        that much of their magnitude in both parts, as complex rounding errors do. normwise:
        every element by that much of the largest finite magnitude in v (an FFT's or a
        solve's rounding, which leaves NumPy's exact 0 as another library's 1e-19 where the
        neighbouring values are of order 1; fuzz seed 70716). In the coherent runs such a
        result's elements within that noise of zero become exactly zero: another library may
        get the exact 0 where NumPy has 1e-8 (accel's irfft of integer data: NumPy's x / x is
        1.0 where accel's is NaN; a QR product's zeros under logical_and; fuzz seeds 93410,
        92797, 91935), and no push of a nonzero value reaches it."""
        v = np.asarray(v)
        if v.dtype.kind not in "fc" or v.size == 0:
            return v
        if self.one_ulp:
            if not result:
                return v
            # An inf stays an inf, and a zero a zero: an exact result (log2(1.0)) is exact in
            # every library, and moved to the smallest subnormal it hid the exact 0 that a
            # one-ulp-up tan(pi/4) leads to (fuzz seed 2067806).
            part = lambda p: np.where(  # noqa: E731
                np.isfinite(p) & (p != 0), np.nextafter(p, self.direction * np.inf),
                p).astype(p.dtype)
            if v.dtype.kind == "f":
                return part(v)
            return complex_of(part(v.real), part(v.imag), v.dtype)
        step = ulps * np.finfo(v.dtype).eps
        sign = lambda: self.direction * (  # noqa: E731
            np.ones(v.shape) if self.coherent else self.rng.choice([-1.0, 1.0], v.shape))
        with np.errstate(all="ignore"):
            mag = np.abs(v)
            if normwise:
                finite = mag[np.isfinite(mag)]
                mag = np.where(np.isfinite(mag), finite.max() if finite.size else 0.0, 0.0)
        # A complex part's rounding is relative to the value's magnitude, as a normwise result's
        # is to the largest: a part within the noise of zero (the imaginary part of a product
        # of conjugate pairs, all cancellation) may be another library's exact 0, which a later
        # x / 0 turns into NaN where NumPy's -1e-12 gives -inf (fuzz seed 1881885).
        flush = self.coherent and (normwise or v.dtype.kind == "c")
        if v.dtype.kind == "f":
            flush = flush and normwise
            if normwise:
                moved = v + step * mag * sign()
                return np.where(flush & (np.abs(v) <= step * mag), 0, moved).astype(v.dtype)
            return (v * (1 + step * sign())).astype(v.dtype)
        with np.errstate(all="ignore"):
            move = step * np.where(np.isfinite(mag), mag, 0)  # an inf part stays as it is
            part = lambda p: np.where(  # noqa: E731
                flush & (np.abs(p) <= move), 0, p + move * sign())
            return complex_of(part(v.real), part(v.imag), v.dtype)

    def before(self, stmt, env):
        if stmt.kind == "write":  # it must write into the real arrays
            return env
        return {**env, **{n: self.perturb(env[n], NOISE_ULPS_IN, result=False)
                          for n in stmt.uses if n in env}}

    def after(self, stmt, env):
        name = stmt.defines or stmt.writes
        v = np.asarray(env[name])
        if v.dtype.kind not in "fc" or v.size == 0:
            return
        # A result that combines n terms (a sum, a matmul, a variance) may carry about n ulps:
        # NumPy sums along an outer axis one term after another, not pairwise.
        terms = max((np.size(env[u]) for u in stmt.uses if u in env), default=1) // v.size
        ulps = NOISE_ULPS_OUT + max(terms, 1) - 1
        if stmt.normwise:
            # A transform's or a solve's rounding grows with the log of its length (more with
            # Bluestein's three transforms for a large prime factor: fuzz seed 754803).
            n = max((np.size(env[u]) for u in stmt.uses if u in env), default=1)
            ulps += 4 * int(np.ceil(np.log2(max(n, 2))))
        if stmt.defines or not isinstance(env[name], np.ndarray):
            env[name] = self.perturb(v, ulps, normwise=stmt.normwise)
        else:
            v[...] = self.perturb(v, ulps, normwise=stmt.normwise)


class Reference:
    """The expected values of a program and the noise runs' values."""

    def __init__(self, program):
        self.exact = run_numpy(program)  # raises Invalid
        self.noisy = []
        # A noise run that stops at statement k (a guard fails or NumPy raises there: the values
        # are too close to call) still has the values before k: those are compared, unless a
        # later statement writes into memory (which could change them).
        limit = len(program.stmts)
        # Mirrored pairs: random signs (noise that cancels in a difference shows its size), and
        # all up / all down (noise on a statement's inputs and on its operands' results cannot
        # cancel each other, as random signs sometimes do).
        # And one ulp up / one ulp down on every inexact result.
        for direction, coherent, one_ulp in ((1.0, False, False), (-1.0, False, False),
                                             (1.0, True, False), (-1.0, True, False),
                                             (1.0, True, True), (-1.0, True, True)):
            try:
                self.noisy.append(run_numpy(
                    program, Noise(program.seed * 7919, direction, coherent, one_ulp)))
            except Invalid as e:
                # Noise changed what NumPy accepts (a shape from a mask on a rounding boundary):
                # the values from there on are too close to call.
                self.noisy.append(e.env)
                limit = min(limit, e.at)
        if any(s.kind == "write" for s in program.stmts[limit:]):
            raise Unstable()
        # The names compared: the inputs and what the statements before the limit define.
        self.compared = {inp.name for inp in program.inputs} | {
            s.defines for s in program.stmts[:limit] if s.defines}
        self.partial = limit < len(program.stmts)

    def chaotic(self, stmt):
        """Whether the noise runs make the statement's result anything: some stopped before it
        (NumPy raised or a guard failed), or its values moved by far more than the noise put in
        (an inverse of a matrix that is singular but for rounding)."""
        name = stmt.defines
        if name is None or name not in self.exact:
            return False
        if any(name not in n for n in self.noisy):
            return True
        want = np.asarray(self.exact[name])
        if want.dtype.kind not in "fc" or want.size == 0:
            return False
        eps = np.finfo(want.dtype).eps
        with np.errstate(all="ignore"):
            bound = ILL_CONDITIONED * NOISE_ULPS_OUT * eps * np.maximum(np.abs(want), 1)
            return any(bool((np.abs(np.asarray(n[name]) - want) > bound).any())
                       for n in self.noisy)


class Unstable(Exception):
    pass


def compare(name, want, got, noisy):
    """None if got (from accel) matches want (from NumPy), else what differs."""
    if got.dtype != want.dtype:
        return f"{name}: dtype {got.dtype}, NumPy {want.dtype}"
    noisy = [n[name] for n in noisy]
    # A shape the noise changes (a mask of values on a rounding boundary) is not compared.
    if any(n.shape != want.shape for n in noisy):
        return None
    if got.shape != want.shape:
        return f"{name}: shape {got.shape}, NumPy {want.shape}"
    if want.size == 0:
        return None
    if want.dtype.kind in "biu":
        stable = np.logical_and.reduce([n == want for n in noisy]) if noisy else True
        bad = (got != want) & stable
    else:
        bad = np.zeros(want.shape, bool)
        # The magnitude to measure ulps by: a NaN in one part of a complex value (nan+0.1j) must
        # not make the other part's tolerance NaN.
        scale = np.fmax(np.abs(np.real(want)), np.abs(np.imag(want))) if want.dtype.kind == "c" \
            else np.abs(want)
        for part in (np.real, np.imag) if want.dtype.kind == "c" else (np.real,):
            bad |= float_mismatch(part(want), part(got), [part(n) for n in noisy], scale)
    if not bad.any():
        return None
    where = tuple(int(i) for i in np.argwhere(bad)[0]) if bad.ndim else ()
    return (f"{name}: {int(bad.sum())} of {want.size} values differ, first at {where}: "
            f"accel {got[where]!r}, NumPy {want[where]!r} ({want.dtype}, shape {want.shape})")


def float_mismatch(want, got, noisy, scale):
    shape = want.shape
    want, got, scale = want.reshape(-1), got.reshape(-1), scale.reshape(-1)
    noisy = [n.reshape(-1) for n in noisy]
    with np.errstate(all="ignore"):
        eps = np.finfo(want.dtype).eps
        spread = np.zeros(want.shape)
        nan_stable = np.ones(want.shape, bool)
        for n in noisy:
            d = np.abs(n.astype(np.float64) - want)
            d[np.isnan(d) & ~(np.isnan(n) & np.isnan(want))] = np.inf
            d[np.isnan(n) & np.isnan(want)] = 0
            spread = np.maximum(spread, d)
            nan_stable &= np.isnan(n) == np.isnan(want)
        # Noise from two statements cancels in some elements by the luck of the signs (tanh(x)
        # - mean(y), both pushed up by the same amount): no element's spread is taken as below
        # what most elements of the same value show.
        finite = spread[np.isfinite(spread)]
        floor = np.percentile(finite, 90) if finite.size else 0.0
        tol = ULPS * eps * scale + np.finfo(want.dtype).tiny + SPREAD * np.maximum(spread, floor)
        # Chaotic values (sin of 1e20): rounding noise moved them by far more than it put in,
        # so any answer is as good as NumPy's; two noise runs cannot bound them.
        chaotic = spread > ILL_CONDITIONED * NOISE_ULPS_OUT * eps * np.maximum(scale, 1)
        w, g = want.astype(np.float64), got.astype(np.float64)
        nan_bad = (np.isnan(w) != np.isnan(g)) & nan_stable
        close = (w == g) | (np.abs(w - g) <= tol) | (np.isnan(w) & np.isnan(g))
        return ((nan_bad | (~close & ~np.isnan(w) & ~np.isnan(g))) & ~chaotic).reshape(shape)


def steps(x):
    """An array's strides in elements on its axes longer than 1 (the others' are free), or None
    for a scalar."""
    if not hasattr(x, "strides") or not hasattr(x, "itemsize"):
        return None
    return [s // x.itemsize for s, n in zip(x.strides, x.shape) if n > 1]


def layout_mismatch(stmt, want, got):
    """None if the statement's result in got (accel's) is laid out as in want (NumPy's): an
    elementwise result or an astype keeps its inputs' axis order (order='K',
    ops/result_layout.h), so that reshapes view or copy as NumPy's do. Checked only where every
    name it reads is laid out alike in both: other ops' results (a gather, an FFT, select) may
    differ from NumPy's in layout while equal in value, and this statement then follows them."""
    name = stmt.defines
    w, g = want[name], got[name]
    if not isinstance(w, np.ndarray) or w.size <= 1:
        return None
    # A shape the rounding decides (a mask of an FFT's exact zeros) is the value comparison's
    # to judge; its steps say nothing.
    if w.shape != getattr(g, "shape", w.shape):
        return None
    if any(steps(want[u]) != steps(got[u]) for u in stmt.uses if u in want and u in got):
        return None
    # NumPy allocates empty arrays with all-zero strides (so its iterator keeps C order over
    # them) while its empty views of other arrays keep their steps, which it then sorts by;
    # accel's empty arrays have dense strides, and its layouts over them follow C order. Results
    # computed from an empty input are not compared for layout (fuzz --namespace numpy, seed
    # 1964315: count_nonzero along the empty axis of a reversed, transposed view).
    if any(np.size(want[u]) == 0 for u in stmt.uses if u in want):
        return None
    if steps(w) == steps(g):
        return None
    return f"{name}: strides {tuple(g.strides)}, NumPy {w.strides} (shape {w.shape})"


def check(program, reference, run_accel_program, to_numpy):
    """Runs the program on accel and compares every value, the newest first (so the longest
    lazy chains are evaluated whole). Returns a verdict dict."""
    try:
        got = run_accel_program(program)
    except Exception as e:
        at = getattr(e, "fuzz_statement", None)
        # Singular but for rounding: NumPy's inverse is huge where accel's rounding made the
        # matrix exactly singular (fuzz seed 282 after a pinv); the noise runs say so.
        if (type(e).__name__ == "LinAlgError" and at is not None
                and reference.chaotic(program.stmts[at])):
            return {"verdict": "unstable", "detail": f"accel raises {type(e).__name__}: {e}"}
        return {"verdict": "error", "detail": f"accel raises {type(e).__name__}: {e}"}
    problems = []
    laid_out = {s.defines: s for s in program.stmts if s.layout}
    for name in reversed(list(got)):
        if name not in reference.compared:
            continue
        try:
            g = to_numpy(got[name])
        except Exception as e:
            return {"verdict": "error",
                    "detail": f"computing {name}: accel raises {type(e).__name__}: {e}"}
        p = compare(name, reference.exact[name], g, reference.noisy)
        if not p and name in laid_out:
            p = layout_mismatch(laid_out[name], reference.exact, got)
        if p:
            problems.append(p)
    if problems:
        return {"verdict": "mismatch", "detail": "; ".join(problems[:3])}
    return {"verdict": "ok"}
