"""The types of the jit language: accel's scalar dtypes, arrays, tuples, and NumPy's promotion.

A value's type is a ``Scalar`` (one of accel's dtypes, or a *weak* Python literal whose dtype
adapts to the other operand, as NumPy 2's NEP 50), an ``Array`` (dtype, ndim, layout, where it
lives in memory) or a ``Tuple``. Promotion is NumPy's ``result_type`` on the strong dtypes.
"""

from dataclasses import dataclass

import numpy as np

# dtype name -> the C++ spelling valid both for the host compiler and NVRTC (CUDA's atomics
# take `long long`, not int64_t's `long`).
C_TYPES = {
    "bool": "bool", "int8": "signed char", "int16": "short", "int32": "int",
    "int64": "long long", "uint8": "unsigned char", "uint16": "unsigned short",
    "uint32": "unsigned int", "uint64": "unsigned long long", "float32": "float",
    "float64": "double", "complex64": "accel_jit_complex<float>",
    "complex128": "accel_jit_complex<double>",
}
REAL_OF = {"complex64": "float32", "complex128": "float64"}
DTYPES = tuple(C_TYPES)


@dataclass(frozen=True)
class Scalar:
    dtype: str          # a name of DTYPES
    weak: bool = False  # a Python literal: int/float adapt to the other operand (NEP 50)

    @property
    def kind(self):
        return np.dtype(self.dtype).kind  # b, i, u, f, c

    @property
    def ctype(self):
        return C_TYPES[self.dtype]

    def strong(self):
        return Scalar(self.dtype)

    def __str__(self):
        name = {"i": "int", "u": "int", "f": "float", "c": "complex"}[self.kind]
        return f"python {name} literal" if self.weak else self.dtype


@dataclass(frozen=True)
class Array:
    dtype: str
    ndim: int
    layout: str = "A"        # "C": C-contiguous (strides derived from the shape), "A": any
    space: str = "global"    # global (a kernel argument), shared, local
    shape: tuple = ()        # shared/local arrays: the constant shape
    writable: bool = True

    @property
    def ctype(self):
        return C_TYPES[self.dtype]

    def __str__(self):
        where = "" if self.space == "global" else f"{self.space} "
        return f"{where}array({self.dtype}, {self.ndim}-d)"


@dataclass(frozen=True)
class Tuple:
    items: tuple

    def __str__(self):
        return "tuple(" + ", ".join(map(str, self.items)) + ")"


BOOL = Scalar("bool")
INT32 = Scalar("int32")
INT64 = Scalar("int64")
UINT32 = Scalar("uint32")
FLOAT64 = Scalar("float64")
WEAK_INT = Scalar("int64", weak=True)
WEAK_FLOAT = Scalar("float64", weak=True)
WEAK_COMPLEX = Scalar("complex128", weak=True)
_KINDS = "biufc"


def promote(a, b):
    """NumPy's result type of a binary operation on scalars ``a`` and ``b`` (weak literals
    adapt: int32 + 1 -> int32, float32 * 2.0 -> float32, int32 * 2.0 -> float64)."""
    if a.weak and b.weak:
        return max(a, b, key=lambda t: _KINDS.index(t.kind))
    if a.weak or b.weak:
        weak, strong = (a, b) if a.weak else (b, a)
        if weak.kind == "c" and strong.kind != "c":  # complex64 from float32, else complex128
            return Scalar("complex64") if strong.dtype == "float32" else Scalar("complex128")
        if weak.kind == "f" and strong.kind in "biu":
            return FLOAT64
        if weak.kind in "iu" and strong.kind == "b":
            return INT64
        return strong
    return Scalar(np.result_type(a.dtype, b.dtype).name)


def concrete(t):
    """A weak literal's type once it is stored: Python int -> int64, float -> float64."""
    return t.strong() if isinstance(t, Scalar) else t


def can_assign(target, value):
    """Whether ``value`` may be stored into a ``target``-typed variable: NumPy's same_kind
    casting (float64 into float32 yes, float into int no); weak literals fit any numeric type
    of a kind at least as wide (an int literal into a float, a float literal into a float)."""
    if value.weak:
        return (value.kind in "iu" and target.kind in "iu") or \
            _KINDS.index(target.kind) >= _KINDS.index(value.kind)
    return bool(np.can_cast(value.dtype, target.dtype, "same_kind"))


def from_dtype(dtype):
    """The jit dtype name of an accel/NumPy dtype, or None for one the language lacks."""
    name = str(dtype).replace("accel.", "").replace("dtype.", "")
    if name == "bool_":
        name = "bool"
    return name if name in C_TYPES else None


def literal_type(value):
    """The type of a Python constant in kernel source."""
    if isinstance(value, (bool, np.bool_)):
        return BOOL
    if isinstance(value, np.generic):
        return Scalar(from_dtype(value.dtype))
    if isinstance(value, int):
        return WEAK_INT
    if isinstance(value, float):
        return WEAK_FLOAT
    if isinstance(value, complex):
        return WEAK_COMPLEX
    return None


def c_literal(value, t):
    """C++ text of a constant of type ``t``."""
    if t.kind == "b":
        return "true" if value else "false"
    if t.kind == "c":
        value = complex(value)
        part = Scalar(REAL_OF[t.dtype])
        return f"{t.ctype}({c_literal(value.real, part)}, {c_literal(value.imag, part)})"
    if t.kind == "f":
        v = float(value)
        if v != v:
            text = "ACCEL_JIT_NAN"
        elif v in (float("inf"), float("-inf")):
            text = ("-" if v < 0 else "") + "ACCEL_JIT_INF"
        else:
            text = repr(v) if ("e" in repr(v) or "." in repr(v)) else repr(v) + ".0"
            if t.dtype == "float32":
                text += "f"
        return f"((float){text})" if t.dtype == "float32" and "JIT" in text else f"({text})"
    v = int(value)
    if t.kind == "u":
        return f"({v}ull)" if t.dtype == "uint64" else f"(({t.ctype}){v}u)"
    if v == -(1 << 63):
        return "(-9223372036854775807ll - 1)"
    return f"({v}ll)" if t.dtype == "int64" else f"(({t.ctype}){v})"
