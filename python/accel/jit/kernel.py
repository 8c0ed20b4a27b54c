"""Kernel objects: ``@accel.jit.kernel`` (launched Numba-style), ``@accel.jit.func`` device
functions, and the ``Program`` that assembles one signature's CUDA C++ source.

A launch finds the signature of its arguments (dtypes, ndims, layouts), translates the function
once per signature and hands the source to ``RawKernel``: the same source runs on the CPU
(SIMT runtime) and on CUDA (NVRTC), from the in-memory and disk kernel caches.
"""

import re
import sys

import numpy as np

from .. import _core
from .._raw_kernel import RawKernel
from . import types as T
from .prelude import ASSERT, ATOMICS, CHECKED, PRELUDE
from .translate import FunctionTranslator, parse_function


_check_default = _core._cpu_kernels.check_default


class Program:
    """The pieces of one generated source: tuple structs, device functions, the kernel."""

    def __init__(self, checked, atomics=True):
        self.checked = checked
        self.atomics = atomics
        self.structs = {}      # Tuple -> struct name
        self.struct_text = []
        self.functions = {}    # (DeviceFunction, types) -> (cname, ret, written)
        self.function_text = []
        self.in_progress = set()

    def tuple_struct(self, t):
        name = self.structs.get(t)
        if name is None:
            name = f"accel_jit_tuple{len(self.structs)}"
            self.structs[t] = name
            fields = " ".join(f"{x.ctype} f{k};" for k, x in enumerate(t.items))
            self.struct_text.append(f"struct {name} {{ {fields} }};")
        return name

    def parse(self, f):
        return parse_function(f.pyfunc)

    def device_function(self, f, types, checked, node, loc):
        key = (f, types)
        hit = self.functions.get(key)
        if hit is not None:
            return hit
        if key in self.in_progress:
            raise loc.syntax_error(node, f"{f.__name__} calls itself; recursion is not supported "
                                   "in a kernel", "write it as a loop")
        self.in_progress.add(key)
        cname = f"accel_fn_{f.__name__}_{len(self.functions)}"
        tr = FunctionTranslator(self, f.pyfunc, types, "device", cname, checked)
        text, ret, written = tr.translate()
        self.in_progress.discard(key)
        self.function_text.append(text)
        self.functions[key] = (cname, ret, written)
        return self.functions[key]

    def source(self, kernel_text, uses_assert):
        checks = CHECKED if self.checked else ASSERT if uses_assert else ""
        head = PRELUDE + (ATOMICS if self.atomics else "") + checks
        return "\n".join([head] + self.struct_text + self.function_text + [kernel_text])


def arg_type(a, where="argument"):
    """The jit type of a launch argument."""
    if isinstance(a, _core.ndarray):
        name = T.from_dtype(a.dtype)
        if name is None:
            raise _core.KernelTypeError(f"[jit] {where}: arrays of {a.dtype} are not supported "
                                        "in jit kernels")
        return T.Array(name, a.ndim, "C" if _c_contiguous(a.shape, a.strides, a.itemsize) else "A")
    if isinstance(a, np.ndarray):
        raise _core.KernelTypeError(f"[jit] {where} is a NumPy array; pass an accel array "
                                    "(accel.asarray(x, device=...)): copies are never implicit")
    if isinstance(a, (bool, np.bool_)):
        return T.BOOL
    if isinstance(a, np.generic):
        name = T.from_dtype(a.dtype)
        if name is not None:
            return T.Scalar(name)
    elif isinstance(a, int):
        return T.INT64
    elif isinstance(a, float):
        return T.FLOAT64
    elif isinstance(a, complex):
        return T.Scalar("complex128")
    raise _core.KernelTypeError(f"[jit] {where} of type {type(a).__name__} is not supported",)


def _c_contiguous(shape, strides, itemsize):
    if len(shape) == 1:
        return strides[0] == itemsize or shape[0] <= 1
    expect = itemsize
    for n, st in zip(reversed(shape), reversed(strides)):
        if n != 1 and st != expect:
            return False
        expect *= n
    return True


def parse_signature(text):
    """Numba-style signature text: ``"float32, float32[:], int64[:, ::1]"`` (``[:]`` an array
    of any layout, ``::1`` last: C-contiguous)."""
    items, depth, cur = [], 0, ""
    for ch in text.replace(" ", ""):
        depth += (ch == "[") - (ch == "]")
        if ch == "," and depth == 0:
            items.append(cur)
            cur = ""
        else:
            cur += ch
    items.append(cur)
    out = []
    for item in items:
        name, _, dims = item.partition("[")
        name = "bool" if name in ("bool_", "b1") else name
        if name not in T.C_TYPES:
            raise _core.KernelTypeError(f"[jit] {item!r} in the signature {text!r} is not a "
                                        f"dtype or an array of one (float32, int64[:, :], "
                                        f"float64[:, ::1])")
        if not dims:
            out.append(T.Scalar(name))
            continue
        axes = dims.rstrip("]").split(",")
        if not all(a in (":", "::1") for a in axes):
            raise _core.KernelTypeError(f"[jit] {item!r}: write each axis as ':' ('::1' last "
                                        "for C-contiguous)")
        out.append(T.Array(name, len(axes), "C" if axes[-1] == "::1" else "A"))
    return tuple(out)


def _spec_type(s):
    """A signature entry of ``source()``: a jit type, an example value, or a dtype."""
    if isinstance(s, (T.Scalar, T.Array)):
        return s
    from .calls import dtype_name
    if not isinstance(s, (_core.ndarray, np.ndarray, np.generic, bool, int, float)):
        name = dtype_name(s)
        if name is not None:
            return T.Scalar(name)
    return arg_type(s)


def _debug_level():
    for name, _kind, _meaning, value, _problem in _core._config():
        if name == "ACCEL_DEBUG" and value:
            try:
                return int(value)
            except ValueError:
                return 0
    return 0


class Compiled:
    """One signature's source and RawKernel, and how it packs the launch arguments."""

    def __init__(self, name, source, types):
        self.source = source
        self.types = types
        self.raw = RawKernel(source, name)


class JitKernel:
    """A Python function compiled as a kernel; ``kernel[blocks, threads](*args)`` or
    ``kernel(grid, block, args, shared_mem=0, stream=None)`` (see accel.jit)."""

    def __init__(self, pyfunc, check=False):
        self.pyfunc = pyfunc
        self.__name__ = pyfunc.__name__
        self.__doc__ = pyfunc.__doc__
        self.check = check
        self._compiled = {}  # (types, checked) -> Compiled
        self._by_key = {}    # (checked, cheap key of each argument) -> Compiled: warm calls
        self._launchers = {}  # kernel[config] -> its launch function

    def compile(self, types, checked=False):
        key = (types, checked)
        c = self._compiled.get(key)
        if c is None:
            parse_function(self.pyfunc)
            program = Program(checked)
            cname = "accel_jit_" + self.__name__
            tr = FunctionTranslator(program, self.pyfunc, types, "kernel", cname, checked)
            text, _, _ = tr.translate()
            source = program.source(text, "assert(" in text)
            if _debug_level() >= 1:
                print(f"[accel.jit] {self.__name__}{tuple(str(t) for t in types)}:\n{source}",
                      file=sys.stderr)
            c = Compiled(cname, source, types)
            self._compiled[key] = c
        return c

    def source(self, *signature, checked=False):
        """The CUDA C++ generated for ``signature``: example arguments (arrays, scalars),
        dtypes (a scalar of that dtype), accel.jit.types values, or Numba-style text
        (``"float32, float32[::1], float32[:]"``)."""
        if len(signature) == 1 and isinstance(signature[0], (tuple, list)):
            signature = tuple(signature[0])
        if len(signature) == 1 and isinstance(signature[0], str) and \
                signature[0] not in T.C_TYPES:
            types = parse_signature(signature[0])
        else:
            types = tuple(_spec_type(s) for s in signature)
        return self.compile(types, checked).source

    @property
    def signatures(self):
        """The signatures compiled so far (tuples of accel.jit.types)."""
        return [k[0] for k in self._compiled]

    def __getitem__(self, config):
        try:
            launch = self._launchers.get(config)
        except TypeError:  # a list in the configuration: not hashable
            launch = None
        if launch is None:
            if not isinstance(config, tuple) or not 2 <= len(config) <= 4:
                raise TypeError(f"[jit {self.__name__}] launch as kernel[blocks, threads] (or "
                                "[blocks, threads, stream, shared_mem_bytes])")
            grid, block = config[0], config[1]
            grid = tuple(grid) if isinstance(grid, (tuple, list)) else (grid,)
            block = tuple(block) if isinstance(block, (tuple, list)) else (block,)
            stream = config[2] if len(config) > 2 and config[2] not in (0, None) else None
            shared_mem = config[3] if len(config) > 3 else 0

            def launch(*args):
                self._launch(grid, block, args, shared_mem, stream, None)
            try:
                if len(self._launchers) < 64:
                    self._launchers[config] = launch
            except TypeError:
                pass
        return launch

    def __call__(self, grid, block, args, *, shared_mem=0, stream=None, check=None):
        if type(grid) is not tuple:
            grid = tuple(grid) if isinstance(grid, list) else (grid,)
        if type(block) is not tuple:
            block = tuple(block) if isinstance(block, list) else (block,)
        self._launch(grid, block, tuple(args), shared_mem, stream, check)

    def _launch(self, grid, block, args, shared_mem, stream, check):
        checked = bool(self.check or _check_default()) if check is None else bool(check)
        # One pass: the cache key (what decides each argument's jit type) and the launch
        # arguments (arrays expand to pointer, shape and, unless C-contiguous, strides).
        key = [checked]
        packed = []
        for a in args:
            if type(a) is _core.ndarray:
                shape, strides, item = a.shape, a.strides, a.itemsize
                contiguous = _c_contiguous(shape, strides, item)
                key.append((id(a.dtype), len(shape), contiguous))
                packed.append(a)
                packed.extend(shape)
                if not contiguous:
                    packed.extend([st // item for st in strides])
            else:
                key.append(type(a))
                packed.append(a)
        key = tuple(key)
        c = self._by_key.get(key)
        if c is None:
            types = tuple(arg_type(a, f"argument {k} of {self.__name__}")
                          for k, a in enumerate(args))
            c = self._compiled.get((types, checked)) or self.compile(types, checked)
            self._by_key[key] = c
        try:
            c.raw(grid, block, packed, shared_mem=shared_mem, stream=stream,
                  check=checked)
        except _core.KernelAssertionError as e:
            # checked mode: an index assert (prelude.CHECKED) becomes an IndexError at its line
            msg = str(e)
            what = re.search(r'"accel\.jit: index out of bounds for ([^"]*)"', msg)
            if what is None:
                raise
            where = re.search(r"failed \(([^()]*)\)\s*$", msg)
            who = re.search(r"block \([^)]*\), thread \([^)]*\)", msg)
            raise _core.IndexError(
                f"[jit {self.__name__}] index out of bounds for {what.group(1)} at "
                f"{where.group(1) if where else '?'} ({who.group(0) if who else ''})") from None

    def __repr__(self):
        return f"<accel.jit.kernel {self.__name__}>"


class DeviceFunction:
    """A Python function callable from kernels (``@accel.jit.func``), compiled per signature
    into each kernel that calls it."""

    def __init__(self, pyfunc):
        self.pyfunc = pyfunc
        self.__name__ = pyfunc.__name__
        self.__doc__ = pyfunc.__doc__

    def __call__(self, *args):
        raise RuntimeError(f"{self.__name__} is an accel.jit device function: call it from a "
                           "kernel (or use accel.jit.vectorize for an elementwise op)")

    def __repr__(self):
        return f"<accel.jit.func {self.__name__}>"
