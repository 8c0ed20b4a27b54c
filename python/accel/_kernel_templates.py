"""CuPy's kernel templates on every device: ``ElementwiseKernel`` and ``ReductionKernel``.

The same kernel runs on the CPU (built by the host C++ compiler) and on CUDA (NVRTC), from one
generated source, wherever its array arguments live::

    import accel, numpy as np
    squared_diff = accel.ElementwiseKernel("T x, T y", "T z", "z = (x - y) * (x - y)",
                                           "squared_diff")
    x = accel.arange(10, dtype=accel.float32).reshape(2, 5)
    squared_diff(x, 5)                      # broadcast; 5 adapts to float32 (NEP 50)

    l2norm = accel.ReductionKernel("T x", "T y", "x * x", "a + b", "y = sqrt(a)", "0", "l2norm")
    l2norm(x, axis=1)

Parsing, type placeholders and dtype resolution live in the C++ core
(accel/kernels/kernel_params.h), shared with the C++ API; this module maps CuPy's call
conventions (``out=``, ``size=``, ``axis=``, ``return_tuple``) onto it.
"""

from . import _core

__all__ = ["ElementwiseKernel", "ReductionKernel"]


def _split_out(kernel, args, out):
    # CuPy takes outputs either after the inputs or as out= (one array, or a tuple).
    args = list(args)
    if out is None:
        return args
    nin = len(kernel.in_params)
    if len(args) != nin:
        raise TypeError(
            f"{kernel.name}: out= is given, so exactly {nin} input arguments are expected; "
            f"got {len(args)}")
    outs = out if isinstance(out, (tuple, list)) else (out,)
    return args + list(outs)


class ElementwiseKernel:
    """An elementwise kernel from CuPy-style parameter lists and a loop body.

    ``in_params``/``out_params``: ``"float32 x, T y, raw T z"`` (a one-letter type is a
    placeholder bound by the arguments; ``raw`` params are indexed by the body, ``x[j]``,
    ``x.size()``). ``operation``: C++ (CUDA C++) run for each element ``i`` of the broadcast
    arguments; ``_ind.size()`` is their count. ``preamble``: code put before the kernel.
    ``options``: NVRTC options (``-D``/``-U``/``-I`` apply on the CPU too).
    """

    def __init__(self, in_params, out_params, operation, name="kernel", reduce_dims=True,
                 preamble="", no_return=False, return_tuple=False, options=()):
        # reduce_dims is CuPy's switch for merging axes; accel always merges those it can.
        self._kernel = _core._ElementwiseKernel(in_params, out_params, operation, name, preamble,
                                                list(options))
        self.in_params = self._kernel.in_params
        self.out_params = self._kernel.out_params
        self.name = name
        self.operation = operation
        self.preamble = preamble
        self.options = tuple(options)
        self.no_return = no_return
        self.return_tuple = return_tuple

    def __call__(self, *args, out=None, size=None):
        outputs = self._kernel(_split_out(self, args, out), size)
        if self.no_return:
            return None
        if len(outputs) == 1 and not self.return_tuple:
            return outputs[0]
        return tuple(outputs)

    def source(self, *args, device="cpu", out=None, size=None):
        """The generated source a call with ``args`` compiles for ``device``'s kind (cpu:
        host C++, cuda: CUDA C++ for NVRTC), without running it."""
        return self._kernel.source(_split_out(self, args, out), device, size)

    def __repr__(self):
        return f"<accel.ElementwiseKernel {self.name!r}>"


class ReductionKernel:
    """A reduction from CuPy-style parameter lists and expressions.

    Each element of the inputs (broadcast together) becomes ``map_expr`` (of type
    ``reduce_type``; default: the first output's); values combine by ``reduce_expr`` (of ``a``
    and ``b``; assumed associative) from ``identity``; ``post_map_expr`` writes the outputs from
    the result ``a``.
    """

    def __init__(self, in_params, out_params, map_expr, reduce_expr, post_map_expr, identity,
                 name="reduce_kernel", reduce_type=None, reduce_dims=True, preamble="",
                 options=()):
        self._kernel = _core._ReductionKernel(in_params, out_params, map_expr, reduce_expr,
                                              post_map_expr, identity, name, reduce_type or "",
                                              preamble, list(options))
        self.in_params = self._kernel.in_params
        self.out_params = self._kernel.out_params
        self.name = name
        self.identity = identity
        self.reduce_type = reduce_type
        self.preamble = preamble
        self.options = tuple(options)

    def __call__(self, *args, out=None, axis=None, keepdims=False):
        outputs = self._kernel(_split_out(self, args, out), axis, bool(keepdims))
        return outputs[0] if len(outputs) == 1 else tuple(outputs)

    def source(self, *args, device="cpu", out=None, axis=None, keepdims=False):
        """The generated source a call with ``args`` compiles for ``device``'s kind."""
        return self._kernel.source(_split_out(self, args, out), device, axis, bool(keepdims))

    def __repr__(self):
        return f"<accel.ReductionKernel {self.name!r}>"
