"""``@accel.jit.vectorize`` and ``@accel.jit.reduce``: a scalar Python function becomes a device
function inside an ElementwiseKernel / ReductionKernel, which broadcast, take ``out=`` and run on
every device; one kernel per signature of argument dtypes."""

import numpy as np

from .. import _core
from .._kernel_templates import ElementwiseKernel, ReductionKernel
from . import types as T
from .kernel import Program
from .translate import FunctionTranslator


def _operand_type(a):
    """Arrays give their dtype; Python scalars are weak (NEP 50, as accel's own ops)."""
    if isinstance(a, _core.ndarray):
        name = T.from_dtype(a.dtype)
        if name is None:
            raise _core.KernelTypeError(f"[jit] arrays of {a.dtype} are not supported yet")
        return T.Scalar(name)
    if isinstance(a, (bool, np.bool_)):
        return T.BOOL
    if isinstance(a, np.generic) and T.from_dtype(a.dtype):
        return T.Scalar(T.from_dtype(a.dtype))
    if isinstance(a, int):
        return T.WEAK_INT
    if isinstance(a, float):
        return T.WEAK_FLOAT
    if isinstance(a, complex):
        return T.WEAK_COMPLEX
    if isinstance(a, np.ndarray):
        raise _core.KernelTypeError("[jit] a NumPy array was given; pass an accel array "
                                    "(accel.asarray): copies are never implicit")
    raise _core.KernelTypeError(f"[jit] an argument of type {type(a).__name__} is not supported")


def _device_source(pyfunc, types):
    program = Program(False, atomics=False)
    cname = f"accel_fn_{pyfunc.__name__}"
    tr = FunctionTranslator(program, pyfunc, types, "device", cname, False)
    text, ret, _ = tr.translate()
    if not isinstance(ret, T.Scalar):
        raise _core.KernelTypeError(f"[jit {pyfunc.__name__}] a vectorized function must "
                                    f"return one number (it returns {ret})")
    return program.source(text, "assert(" in text), cname, ret


class Vectorized:
    """An elementwise operation from a scalar function (broadcasting, ``out=``)."""

    def __init__(self, pyfunc):
        self.pyfunc = pyfunc
        self.__name__ = pyfunc.__name__
        self.__doc__ = pyfunc.__doc__
        self._kernels = {}

    def _kernel(self, types):
        k = self._kernels.get(types)
        if k is None:
            preamble, cname, ret = _device_source(self.pyfunc, types)
            names = [f"in{j}" for j in range(len(types))]
            params = ", ".join(f"{T.concrete(t).dtype} {n}" for t, n in zip(types, names))
            # the templates' complex is std::complex (CUDA: nvrtc_std.cuh's); the jit's its own
            args = [f"{T.concrete(t).ctype}({n}.real(), {n}.imag())" if t.kind == "c" else n
                    for t, n in zip(types, names)]
            call = f"{cname}({', '.join(args)})"
            if ret.kind == "c":
                real = T.C_TYPES[T.REAL_OF[ret.dtype]]
                op = f"const auto r = {call}; out0 = std::complex<{real}>(r.re, r.im)"
            else:
                op = f"out0 = {call}"
            k = ElementwiseKernel(params, f"{ret.dtype} out0", op, self.__name__,
                                  preamble=preamble)
            self._kernels[types] = k
        return k

    def __call__(self, *args, out=None):
        types = tuple(_operand_type(a) for a in args)
        return self._kernel(types)(*args, out=out)

    def source(self, *args, device="cpu"):
        types = tuple(_operand_type(a) for a in args)
        return self._kernel(types).source(*args, device=device)

    def __repr__(self):
        return f"<accel.jit.vectorize {self.__name__}>"


class Reduction:
    """A reduction from an associative binary function: ``f.reduce``-style call
    ``f(x, axis=None, keepdims=False, out=None, identity=0)``; ``identity`` must be neutral
    for the function (0 for +, 1 for *, -inf for max), as a ReductionKernel's identity."""

    def __init__(self, pyfunc, identity=0):
        self.pyfunc = pyfunc
        self.identity = identity
        self.__name__ = pyfunc.__name__
        self.__doc__ = pyfunc.__doc__
        self._kernels = {}

    def _kernel(self, t, identity):
        key = (t, identity)
        k = self._kernels.get(key)
        if k is None:
            preamble, cname, ret = _device_source(self.pyfunc, (t, t))
            ident = T.c_literal(identity, t)
            k = ReductionKernel(f"{t.dtype} x", f"{t.dtype} y", "x",
                                f"(({t.ctype}){cname}(a, b))", "y = a", ident, self.__name__,
                                reduce_type=t.dtype, preamble=preamble)
            self._kernels[key] = k
        return k

    def __call__(self, x, axis=None, keepdims=False, out=None, identity=None):
        t = _operand_type(x)
        if not isinstance(x, _core.ndarray):
            raise _core.KernelTypeError(f"[jit {self.__name__}] reduces an accel array")
        if t.kind == "c":
            raise _core.KernelTypeError(f"[jit {self.__name__}] @reduce of complex arrays is "
                                        "not supported yet (use @vectorize or a kernel)")
        ident = self.identity if identity is None else identity
        return self._kernel(t, ident)(x, axis=axis, keepdims=keepdims, out=out)

    def __repr__(self):
        return f"<accel.jit.reduce {self.__name__}>"


def vectorize(fn=None):
    """``@vectorize``: ``fn(a, b, ...)`` of scalars becomes an elementwise op of arrays."""
    if fn is None:
        return vectorize
    return Vectorized(fn)


def reduce(fn=None, *, identity=0):
    """``@reduce`` (or ``@reduce(identity=...)``): ``fn(a, b)`` becomes a reduction."""
    if fn is None:
        return lambda f: Reduction(f, identity)
    return Reduction(fn, identity)
