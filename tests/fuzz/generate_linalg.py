"""Statements for accel.linalg and accel.fft (a mixin of generate.Builder).

Matrices are cut from the program's arrays (x[..., :k, :k] of any array with two or more axes,
strided views and batches included). Every float result is inexact: the oracle's noise runs put
rounding noise on the operands, which moves a solve or an inverse by as much as its condition
number says, so the comparison's tolerance follows each matrix's conditioning; and the noise on
a transform's or a factorization's result is normwise (Stmt.normwise: a few ulps of the largest
value, as their error bounds are). Beyond that:

- factorizations are compared on well-conditioned matrices only (program.well_conditioned):
  near a singular matrix the answer is the rounding's choice (an exact 0 determinant or 1e-17);
- factors unique only up to signs, phases or a basis (eigenvectors, singular vectors, Q and R)
  are compared through what is unique: the products they multiply back to
  (program.eigh_product, svd_product, qr_product) and |R|;
- transforms and factorizations take float and complex inputs only: an integer input gets no
  rounding noise, so where NumPy's answer is exactly 0 (the other bins of an FFT of ones, an
  inverse's zeros) nothing would allow for the other library's 1e-17 (seed 518);
- products and sums (matmul, tensordot, vecdot, multi_dot, matrix_power) carry the matmul
  maker's guards (blas_safe, no cancellation), and every input is finite and below 1e15
  (LAPACK and the FFTs give no IEEE promise about where an inf or a NaN goes).
"""

import re

import numpy as np

from program import GUARDS, LITERALS, NUMPY

MAX_ORDER = 24  # largest matrix order cut (keeps the noise runs' rounding model honest)
NORMS = ["None", "'backward'", "'ortho'", "'forward'"]
VECTOR_ORDS = ["2", "1", "inf", "-inf", "0", "3", "-1", "0.5"]
MATRIX_ORDS = ["'fro'", "'nuc'", "1", "-1", "2", "-2", "inf", "-inf"]


class LinalgFftMakers:
    """linalg() and fft() for Builder.MAKERS; they use Builder's pick/choice/define."""

    # ---- operands -------------------------------------------------------------------------------

    def matrix(self, square=True, kinds="fc"):
        """(text, k, m) of a k x m matrix (batch) cut from a program array, or None."""
        x = self.pick(lambda v: v.ndim >= 2 and min(v.shape[-2:]) > 0 and v.dtype.kind in kinds)
        if x is None:
            return None
        p, q = (min(d, MAX_ORDER) for d in self.env[x].shape[-2:])
        if square:
            p = q = min(p, q)
        elif self.chance(0.5):  # a tall matrix (lstsq's full-rank case)
            q = min(p, q)
        if (p, q) == self.env[x].shape[-2:]:
            return x, p, q
        return f"{x}[..., :{p}, :{q}]", p, q

    def hermitian(self, m, k):
        """A Hermitian (real: symmetric) matrix from m; with spd, positive definite (m m^H + k I)."""
        h = f"xp.conj({m}).mT" if self.value_of(m).dtype.kind == "c" else f"{m}.mT"
        return f"({m} + {h})", f"({m} @ {h} + {k} * xp.eye({k}, dtype={m}.dtype))"

    def value_of(self, text):
        return np.asarray(eval(text, {"xp": NUMPY, **LITERALS, **GUARDS}, self.env))

    # ---- linalg ---------------------------------------------------------------------------------

    def linalg(self):
        r = self.rng.random()
        if r < 0.25:
            return self.linalg_products()
        if r < 0.4:
            return self.linalg_norms()
        cut = self.matrix(square=r < 0.85)
        if cut is None:
            return False
        m, k, n = cut
        if k != n:  # tall or wide: least squares, pseudo-inverse, singular values, QR
            # b: a's first column upside down. Its first column itself would make the exact
            # solution e_1, which NumPy's gelsd finds to 1e-17 and an SVD-based solve to an
            # ulp of float32, while the noise runs, moving a and b together, keep it exact
            # (fuzz seed 70803).
            b = f"xp.flip({m}[..., :1], axis=-2)"
            forms = [(f"xp.linalg.lstsq({m}, {b}, rcond=None)[0]", "cond"),
                     (f"xp.linalg.lstsq({m}, {b}, rcond=None)[3]", "cond"),
                     (f"xp.linalg.pinv({m})", "cond"),
                     (f"xp.linalg.svdvals({m})", "finite"),
                     (f"svd_product(xp, {m})", "finite"),
                     (f"qr_product(xp, {m}, {self.choice(['reduced', 'complete'])!r})",
                      "finite"),
                     (f"xp.abs(xp.linalg.qr({m}, mode='r'))", "cond")]
        else:
            sym, spd = self.hermitian(m, k)
            p = int(self.rng.integers(-2, 4))
            forms = [(f"xp.linalg.inv({m})", "cond"), (f"xp.linalg.det({m})", "cond"),
                     (f"xp.linalg.slogdet({m}).{self.choice(['sign', 'logabsdet'])}", "cond"),
                     (f"xp.linalg.solve({m}, {self.rhs(m, k)})", "cond"),
                     (f"xp.linalg.cholesky({spd}, upper={self.chance(0.3)})", f"cond:{spd}"),
                     (f"xp.linalg.eigvalsh({sym})", f"finite:{sym}"),
                     (f"eigh_product(xp, {sym})", f"finite:{sym}"),
                     (f"xp.linalg.svdvals({m})", "finite"),
                     (f"xp.linalg.pinv({m})", "cond"),
                     (f"xp.linalg.matrix_power({m}, {p})", "cond" if p < 0 else "power"),
                     (f"xp.abs(xp.linalg.qr({m}, mode='r'))", "cond")]
        text, need = self.choice(forms)
        what, _, operand = need.partition(":")
        operand = operand or m
        uses = self.uses_of(text)
        if what == "power":
            guard = f"blas_safe({operand})"
            if self.value_of(m).dtype.kind in "fc":
                guard += f" and cancel_free({text}, xp.linalg.matrix_power(xp.abs({m}), {p}))"
        else:
            guard = f"{'well_conditioned' if what == 'cond' else 'blas_safe'}({operand})"
            if "lstsq(" in text and text.endswith("[0]"):
                guard += f" and small_residual({m}, {b})"
            if ".det(" in text or "slogdet(" in text:
                guard += f" and det_in_range({operand})"
            if "solve(" in text:
                # every operand, the right-hand side included: uses are in definition order, so
                # the last one is not always the right-hand side (an inf in it, fuzz seed 426)
                guard += f" and blas_safe({', '.join(uses)})"
        return self.define(text, uses, inexact=True, guard=guard, normwise=True)

    def rhs(self, m, k):
        """A right-hand side for solve: a vector of length k or a k x j batch. Never a's own
        columns: solve(a, a) is the identity, whose zeros NumPy gets exactly and another
        library as 1e-17, and a truth test of them (logical_and) then differs (fuzz seed
        70907); a's rows upside down give a solution without such structure."""
        vec = self.pick(lambda v: v.ndim == 1 and v.shape[0] >= k and v.dtype.kind in "fc")
        if vec and self.chance(0.4):
            return f"{vec}[:{k}]"
        own = self.uses_of(m)
        mat = self.pick(lambda v: v.ndim >= 2 and v.shape[-2] >= k and v.shape[-1] > 0
                        and v.dtype.kind in "fc")
        if mat is None or mat in own:
            return f"xp.flip({m}, axis=-2)"
        return f"{mat}[..., :{k}, :{min(self.env[mat].shape[-1], 3)}]"

    def linalg_products(self):
        """matmul, tensordot, vecdot, outer, cross, multi_dot: sums of products."""
        x = self.pick(lambda v: v.ndim >= 1 and v.dtype.kind in "iufc")
        if x is None:
            return False
        v = self.env[x]
        y = self.pick(lambda u: u.ndim >= 1 and u.shape[-1] == v.shape[-1]) or x
        r = self.rng.random()
        if r < 0.2:
            text = f"xp.linalg.vecdot({x}, {y}, axis=-1)"
        elif r < 0.35 and v.shape[-1] >= 3:
            # NumPy's cross too, its vectors put along the result's first axis.
            text = (f"xp.linalg.cross({x}[..., :3], {y}[..., :3])" if self.chance(0.5) else
                    f"xp.cross({x}[..., :3], {y}[..., :3], axisc=0)")
        elif r < 0.5:
            text = f"xp.linalg.outer(xp.reshape({x}, (-1,))[:8], xp.reshape({y}, (-1,))[:8])"
        elif r < 0.7 and v.ndim >= 2:
            text = f"xp.linalg.tensordot({x}, {y}, axes=([-1], [-1]))"
        elif r < 0.85 and v.ndim == 2:
            text = f"xp.linalg.multi_dot([{x}, {x}.mT, {y}, {x}.mT])"
        elif v.ndim >= 2:
            text = f"xp.linalg.matmul({x}, {y}.mT)"
        else:
            text = f"xp.tensordot({x}, {y}, axes=1)"
        uses = self.uses_of(text)
        value_kind = np.result_type(*(self.env[u].dtype for u in uses)).kind
        guard = f"blas_safe({', '.join(uses)})"
        # cross has two terms a side, which the noise runs' random signs show cancelling; an
        # outer product has one.
        if value_kind in "fc" and not re.search(r"\.(outer|cross)\(", text):
            abs_text = text
            for u in uses:
                abs_text = re.sub(rf"\b{u}\b", f"xp.abs({u})", abs_text)
            guard += f" and cancel_free({text}, {abs_text})"
        return self.define(text, uses, inexact=value_kind in "fc", guard=guard)

    def linalg_norms(self):
        x = self.pick(lambda v: v.ndim >= 1 and v.dtype.kind in "iufc")
        if x is None:
            return False
        v = self.env[x]
        keep = self.chance(0.3)
        guard = f"blas_safe({x})"
        if v.ndim >= 2 and self.chance(0.5):
            ord_ = self.choice(MATRIX_ORDS)
            text = f"xp.linalg.matrix_norm({x}, ord={ord_}, keepdims={keep})"
            if ord_ == "-2":
                # The smallest singular value is computed to within eps times the largest: of
                # a nearly singular matrix it is the rounding's choice (NumPy's exact 0 of an
                # int64 matrix of 9e18 entries, another SVD's 5.0; fuzz seeds 90235, 91069).
                guard = f"well_conditioned({x})"
        else:
            axis = self.choice(["None", str(int(self.rng.integers(-v.ndim, v.ndim)))]
                               + (["(0, -1)"] if v.ndim >= 2 else []))
            text = (f"xp.linalg.vector_norm({x}, ord={self.choice(VECTOR_ORDS)}, axis={axis}, "
                    f"keepdims={keep})")
        return self.define(text, [x], inexact=True, guard=guard)

    # ---- fft ------------------------------------------------------------------------------------

    def fft(self):
        x = self.pick(lambda v: v.ndim >= 1 and v.size > 0 and v.dtype.kind in "fc")
        if x is None:
            return False
        v = self.env[x]
        nd = v.ndim
        norm = self.choice(NORMS)
        r = self.rng.random()
        inexact = True
        if r < 0.5:
            fn = self.choice(["fft", "ifft", "rfft", "irfft", "hfft", "ihfft"])
            n = self.choice(["None", "None", str(int(self.rng.integers(1, 10)))])
            text = f"xp.fft.{fn}({x}, n={n}, axis={int(self.rng.integers(-nd, nd))}, norm={norm})"
        elif r < 0.8:
            fn = self.choice(["fftn", "ifftn", "rfftn", "irfftn", "fft2", "rfft2"])
            axes = [int(a) for a in self.rng.choice(nd, min(nd, int(self.rng.integers(1, 3))),
                                                    replace=False)]
            if fn.endswith("2") and len(axes) != 2:
                return False
            s = [int(self.rng.integers(1, 7)) for _ in axes] if self.chance(0.3) else None
            text = f"xp.fft.{fn}({x}, s={s}, axes={axes}, norm={norm})"
        elif r < 0.9:
            fn = self.choice(["fftshift", "ifftshift"])
            axes = self.choice(["None", str(int(self.rng.integers(-nd, nd)))])
            text = f"xp.fft.{fn}({x}, axes={axes})"
            inexact = False
        else:
            fn = self.choice(["fftfreq", "rfftfreq"])
            n = int(self.rng.integers(1, 12))
            text = f"xp.fft.{fn}({n}, d={self.choice(['1.0', '0.25', '3'])})"
            return self.define(text, (), inexact=True)
        guard = f"blas_safe({x})" if inexact else None
        return self.define(text, [x], inexact=inexact, guard=guard, normwise=inexact)
