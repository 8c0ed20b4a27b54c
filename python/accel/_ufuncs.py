"""accel's elementwise functions as ufuncs: `accel.add` and every other function NumPy has as a
ufunc of one output is an `accel.ufunc` (python/src/ufunc_type.cpp), whose call is the function
itself and which has NumPy's methods (reduce, accumulate, outer, at, reduceat) and attributes
(nin, nout, nargs, identity, ntypes, signature).

The methods are built on accel's own operations: reductions NumPy computes by a kernel of its
own (add, multiply, maximum, minimum, logical_and, logical_or) are accel's sum, prod, max, min,
all and any; other associative ops (the bitwise and logical ones, fmax/fmin, gcd) reduce
pairwise in log2(n) steps of the op, and accumulate by a doubling scan; subtract is a cumsum of
the negated terms (exact: a - b is a + (-b)); the rest (divide, power, lcm, ...) go element by
element along the axis as NumPy's loops do, one op call per step. ufunc.at folds in C++
(ops/ufunc_at.h)."""

import numpy as _np

from . import _common, _core

_NO_VALUE = _np._NoValue

# The binary ops of the C++ registry (core/ops.def): the ones ufunc.at folds in one C++ pass.
_REGISTRY_BINARY = frozenset(_core._binary_op_names())

# Reductions accel has as a function of its own, the dtype= of the reduction passed on.
_REDUCE_FUNCTIONS = {"add": "sum", "multiply": "prod"}
_ACCUMULATE_FUNCTIONS = {"add": "cumsum", "multiply": "cumprod"}
# Ops whose result does not depend on how the operands are grouped or ordered, computed
# exactly: reduced pairwise and scanned by doubling (a few calls instead of one per element).
# (Not lcm: its products wrap on overflow, in an order NumPy's loop sets.)
_EXACT_ASSOCIATIVE = {"maximum", "minimum", "fmax", "fmin", "logical_and", "logical_or",
                      "logical_xor", "bitwise_and", "bitwise_or", "bitwise_xor", "gcd"}
# NumPy's ops without an identity that may still reduce several axes at once.
_REORDERABLE_NONE = {"maximum", "minimum", "fmax", "fmin"}
# maximum and minimum propagate NaN as the reduction functions do; fmax/fmin skip it.
_IDEMPOTENT_REDUCE = {"maximum": "max", "minimum": "min", "logical_and": "all",
                      "logical_or": "any"}


def _name(self):
    return self.__name__


def _op(self):
    return getattr(_core, _name(self), None) or self


def _as_array(x):
    return x if isinstance(x, _core.ndarray) else _core.asarray(x)


def _empty_of(x):
    """A 1-d empty view of x (its dtype, no copy), for asking what an op would give."""
    return x[(slice(0, 0),) + (0,) * (x.ndim - 1)] if x.ndim else _core.reshape(x, (1,))[:0]


def _loop_dtype(self, x):
    """The dtype the op gives for operands of x's dtype (its loop's), from an empty call."""
    args = (_empty_of(x),) * self.nin
    return self(*args).dtype


def _reduction_input(self, x, what):
    """x in the dtype the reduction runs in, found as NumPy finds it: a loop whose result type
    is its operands' (the running value is fed back in). x's own dtype where the op keeps it;
    else the op's result dtype where x casts to it safely and it keeps itself (add of bools
    sums int64, arctan2 of ints runs in float64); the logical ops take any input as bools;
    otherwise NumPy has no loop (greater of floats gives bools it cannot compare as floats)."""
    dt = _loop_dtype(self, x)
    if dt == x.dtype:
        return x
    name = _name(self)
    if name.startswith("logical_") or (
            _core.can_cast(x.dtype, dt) and _loop_dtype(self, _core.astype(x[:0], dt)) == dt):
        return _core.astype(x, dt)
    raise TypeError(f"[{name}.{what}] no loop of {name} takes and returns {x.dtype} (NumPy's "
                    f"{what} feeds the running value back in, so it needs one)")


def _along(x, axis):
    """x with `axis` moved first."""
    return _core.moveaxis(x, axis, 0) if axis != 0 else x


def _binary_operand(self, array, what):
    """The array reduce/accumulate run along: only binary ufuncs of one output have them, and
    only over an array with an axis."""
    name = _name(self)
    if self.nin != 2 or self.nout != 1:
        raise ValueError(f"[{name}.{what}] only binary ufuncs of one output {what}")
    x = _as_array(array)
    if x.ndim == 0:
        raise ValueError(f"[{name}.{what}] a 0-d array has no axis to {what}")
    return x


def _negated_sum_order(self, x, inner=False):
    """Whether the op over x's first axis is a running sum of x0, -x1, -x2, ...: subtract, whose
    a - b is a + (-b) exactly (IEEE's definition; integers wrap alike), so accel's cumsum, which
    adds in order as NumPy's loop does, gives NumPy's answer in one pass. float16 only where
    `inner` (NumPy's half loop along its inner axis keeps a float32 running value, which
    _reduce_axis0 does too); along the other axes NumPy rounds each step to float16."""
    return _name(self) == "subtract" and x.dtype.kind in "iufc" and (
        x.dtype != _core.float16 or inner)


def _innermost(x, axis):
    """Whether `axis` is the one NumPy's iterator makes its inner loop when reducing over it
    alone: the smallest step in memory among x's axes of more than one element."""
    steps = [abs(s) for s, n in zip(x.strides, x.shape) if n > 1]
    return x.shape[axis] > 1 and abs(x.strides[axis]) == min(steps)


def _running_difference(x, start=None):
    """start - x0 - x1 - ... (x0 - x1 - ... without start) at each step along x's first axis, in
    x's dtype, as a cumsum of the negated terms."""
    head = x[:1] if start is None else _core.reshape(start, (1,) + x.shape[1:]) \
        if start.ndim else _core.broadcast_to(start, (1,) + x.shape[1:])
    rest = x[1:] if start is None else x
    terms = _core.concat([_core.astype(head, x.dtype), _core.negative(rest)])
    return _core.cumsum(terms, axis=0, dtype=x.dtype)


def _reduce_axis0(self, x, start=_NO_VALUE, inner=False):
    """The op reduced over x's first axis (length >= 1), NumPy's grouping where it matters,
    from `start` (initial=) where given: ((start - x0) - x1) ... for subtract. inner: the axis
    is NumPy's inner loop, where its float16 loops run in float32 and round once."""
    n = x.shape[0]
    if _name(self) == "subtract" and start is _NO_VALUE and x.dtype.kind in "iufc" and \
            not (x.dtype == _core.float16 and inner):
        # x0 - x1 - x2 - ... in order, one pass on x's device: reduceat's segmented fold over
        # one segment (ops/ufunc_at.h); float16 rounds each step, as NumPy's loop off its inner
        # axis does.
        return _core._ufunc_reduceat("subtract", x, _core.asarray([0], device=x.device), 0)[0]
    if _negated_sum_order(self, x, inner):
        first = None if start is _NO_VALUE else _core.asarray(start, device=x.device)
        if x.dtype == _core.float16:
            if first is not None:
                first = _core.astype(_core.astype(first, _core.float16), _core.float32)
            return _core.astype(_running_difference(_core.astype(x, _core.float32), first)[-1],
                                _core.float16)
        return _running_difference(x, first)[-1]
    if start is not _NO_VALUE and _name(self) not in _EXACT_ASSOCIATIVE:
        r = _core.astype(_core.asarray(start, device=x.device), _loop_dtype(self, x))
        for i in range(n):
            r = self(r, x[i])
        return r
    if n == 1:
        return _core.astype(x[0], _loop_dtype(self, x))
    if _name(self) in _EXACT_ASSOCIATIVE:
        while x.shape[0] > 1:
            half = x.shape[0] // 2
            y = self(x[:half], x[half:2 * half])
            x = _core.concat([y, _core.astype(x[2 * half:], y.dtype)]) if x.shape[0] % 2 else y
        return x[0]
    r = x[0]
    for i in range(1, n):  # in order, as NumPy's loop: (x0 - x1) - x2 ...
        r = self(r, x[i])
    return r


def _reduce(self, array, axis=0, dtype=None, out=None, keepdims=False, initial=_NO_VALUE,
            where=True):
    """NumPy's ufunc.reduce: the op applied along `axis` (an int, a tuple for reorderable ops, or
    None for all), starting from `initial` where given; where= leaves elements out (they count
    as the identity, or as initial for an op without one)."""
    name = _name(self)
    x = _binary_operand(self, array, "reduce")
    if dtype is not None and name not in _REDUCE_FUNCTIONS:
        x = _core.astype(x, dtype, copy=False)  # the op's loop in dtype: the input cast first
    if name not in _REDUCE_FUNCTIONS:
        x = _reduction_input(self, x, "reduce")
    axes = tuple(range(x.ndim)) if axis is None else (axis,) if _np.ndim(axis) == 0 else tuple(axis)
    axes = tuple(sorted(a % x.ndim for a in axes))
    # NumPy's rule: an op with an identity (hypot, logaddexp too) or one of the extrema may
    # reduce several axes at once, merged into one in C order.
    reorderable = self.identity is not None or name in _REORDERABLE_NONE
    if len(axes) > 1 and not reorderable:
        raise ValueError(f"[{name}.reduce] {name} is not reorderable, so at most one axis may be "
                         f"given; got axis={axis!r}")
    masked = not (where is True)
    if masked:
        fill = self.identity if self.identity is not None else initial
        if fill is _NO_VALUE:
            raise ValueError(f"[{name}.reduce] where= needs initial= for {name}, which has no "
                             "identity")
        x = _core.where(_as_array(where), x, _core.astype(_core.asarray(fill, device=x.device),
                                                          x.dtype))
    if name in _REDUCE_FUNCTIONS:
        r = getattr(_core, _REDUCE_FUNCTIONS[name])(x, axis=axes, dtype=dtype, keepdims=False)
    else:
        moved = _core.moveaxis(x, axes, tuple(range(len(axes))))
        size = 1
        for a in axes:
            size *= x.shape[a]
        moved = _core.reshape(moved, (size,) + moved.shape[len(axes):])
        if size == 0:
            if initial is _NO_VALUE and self.identity is None:
                raise ValueError(f"[{name}.reduce] zero-size array to reduction operation {name} "
                                 "which has no identity")
            start = self.identity if initial is _NO_VALUE else initial
            r = _core.full(moved.shape[1:], start, dtype=_loop_dtype(self, x), device=x.device)
            initial = _NO_VALUE
        else:
            if initial is _NO_VALUE and self.identity is not None and \
                    name not in _IDEMPOTENT_REDUCE:
                # NumPy starts from the identity where the op has one: gcd.reduce([-17]) is
                # 17, hypot.reduce([-3.0]) 3.0.
                initial = self.identity
            if name in _IDEMPOTENT_REDUCE and x.dtype.kind in "biuf":
                r = getattr(_core, _IDEMPOTENT_REDUCE[name])(moved, axis=0)
                r = _core.astype(r, _loop_dtype(self, x), copy=False)
            elif name in _EXACT_ASSOCIATIVE:
                r = _reduce_axis0(self, moved)
            else:
                inner = len(axes) == 1 and _innermost(x, axes[0])
                r, initial = _reduce_axis0(self, moved, initial, inner), _NO_VALUE
    if initial is not _NO_VALUE:
        r = self(_core.astype(_core.asarray(initial, device=r.device), r.dtype), r)
    if keepdims:
        r = _core.expand_dims(r, axes) if r.ndim < x.ndim else r
    return _deliver(r, out)


def _deliver(r, out):
    if out is None:
        return r
    target = out[0] if isinstance(out, tuple) else out
    target[...] = r
    return target


def _scan_axis0(self, x):
    """The running op over x's first axis, x cast to the op's dtype first."""
    dt = _loop_dtype(self, x)
    x = _core.astype(x, dt, copy=True)
    n = x.shape[0]
    if _negated_sum_order(self, x):
        # Laid out as x, whose copy keeps the input's layout, as NumPy lays accumulate's result
        # out (the running sum is C-ordered along the moved axis; fuzz seed 2111893).
        r = _running_difference(x)
        if r.strides != x.strides:
            x[...] = r
            return x
        return r
    if _name(self) in _EXACT_ASSOCIATIVE:
        step = 1
        while step < n:  # Hillis-Steele: element i takes op(element i - step, element i)
            x[step:] = self(x[:-step], x[step:])
            step *= 2
        return x
    for i in range(1, n):
        x[i] = self(x[i - 1], x[i])
    return x


def _accumulate(self, array, axis=0, dtype=None, out=None):
    """NumPy's ufunc.accumulate: the running op along `axis` (element i is the op over
    elements 0..i, in order)."""
    name = _name(self)
    x = _binary_operand(self, array, "accumulate")
    if axis is None or _np.ndim(axis) != 0:
        raise TypeError(f"[{name}.accumulate] axis must be an integer; got {axis!r}")
    axis = axis % x.ndim
    if name in _ACCUMULATE_FUNCTIONS:
        return _deliver(getattr(_core, _ACCUMULATE_FUNCTIONS[name])(x, axis=axis, dtype=dtype), out)
    if dtype is not None:
        x = _core.astype(x, dtype, copy=False)  # the op's loop in dtype: the input cast first
    x = _reduction_input(self, x, "accumulate")
    if x.shape[axis] == 0:
        r = _core.astype(x, _loop_dtype(self, x), copy=True)
    else:
        r = _core.moveaxis(_scan_axis0(self, _along(x, axis)), 0, axis)
    return _deliver(r, out)


def _outer(self, A, B, /, **kwargs):
    """NumPy's ufunc.outer: the op of every element of A with every element of B (the result's
    shape is A.shape + B.shape)."""
    if self.nin != 2:
        raise ValueError(f"[{_name(self)}.outer] only binary ufuncs have an outer product")
    a, b = _as_array(A), _as_array(B)
    return self(_core.reshape(a, a.shape + (1,) * b.ndim), b, **kwargs)


def _at(self, a, indices, b=None, /):
    """NumPy's ufunc.at: a[indices] = op(a[indices], b) in place, unbuffered: an index that
    repeats takes the op once per occurrence, in order (np.add.at(x, [0, 0], 1) adds 2).
    NumPy's index forms are turned into flat positions on the host (an integer array into a
    1-d array is one already); the binary ops of the registry that keep a's dtype then fold
    them in one C++ pass on a's device (ops/ufunc_at.h). The others go in rounds, the k-th
    occurrence of every index in round k, so each round writes distinct elements."""
    name = _name(self)
    if not isinstance(a, _core.ndarray):
        raise TypeError(f"[{name}.at] the first argument must be an accel array; got "
                        f"{type(a).__name__}")
    if (b is None) != (self.nin == 1):
        raise TypeError(f"[{name}.at] {'takes no' if self.nin == 1 else 'needs a'} second operand")
    folds = b is not None and _folds_in_place(self, a, b)
    if folds and a.ndim == 1 and isinstance(indices, (_core.ndarray, _np.ndarray)) and \
            indices.dtype.kind in "iu":
        # An integer array into a 1-d array is its own list of flat positions (checked and
        # counted from the end in C++), on the device, with no host bookkeeping. (The values
        # broadcast to the positions' shape there.)
        _core._ufunc_at(name, a, indices, b)
        return
    flat = _np.arange(a.size).reshape(a.shape)[_host_index(indices)]
    positions = _np.ravel(flat)
    if folds:
        _core._ufunc_at(name, a, _core.asarray(flat, device=a.device), b)
        return
    if b is not None:
        values = _core.reshape(_core.broadcast_to(_core.asarray(b, device=a.device), _np.shape(flat)),
                               (-1,))
    order = _np.argsort(positions, kind="stable")
    ranked = positions[order]
    starts = _np.r_[True, ranked[1:] != ranked[:-1]] if ranked.size else _np.zeros(0, bool)
    first = _np.maximum.accumulate(_np.where(starts, _np.arange(ranked.size), 0))
    rank = _np.empty(ranked.size, _np.int64)
    rank[order] = _np.arange(ranked.size) - first
    for k in range(int(rank.max()) + 1 if rank.size else 0):
        sel = _np.nonzero(rank == k)[0]
        where = tuple(_core.asarray(i, device=a.device) for i in _np.unravel_index(positions[sel], a.shape))
        current = a[where]
        if b is None:
            new = self(current)
        else:
            new = self(current, values[_core.asarray(sel, device=a.device)])
        a[where] = new


def _folds_in_place(self, a, b):
    """Whether `self.at(a, ..., b)` is the C++ fold (ops/ufunc_at.h: every listed position in
    order, one pass): a binary op of the registry whose loop for a and b is a's own dtype (NumPy
    casts b to it). Others (mixed loops, the ops written in Python) take the rounds below.
    Decided once per (op, a's dtype, b's dtype or Python type)."""
    name = self.__name__
    if name not in _REGISTRY_BINARY:
        return False
    # Keyed by the dtypes' ids (accel's dtypes are singletons that live as long as the module):
    # an enum's hash and an isinstance check of a tuple of types cost more than the small
    # fold itself (add.at of 1000 into 10 bins).
    array = type(b) not in _PY_SCALARS and isinstance(b, (_core.ndarray, _np.ndarray, list, tuple))
    if array:
        b = _as_array(b)
    key = (name, id(a.dtype), id(b.dtype) if array else type(b))
    known = _FOLDS.get(key)
    if known is None:
        # A Python number stays one (weak, as NumPy's), an array speaks by its dtype. A Python
        # int is asked about as 0: one that does not fit a's dtype wraps in NumPy's at too.
        sample = _empty_of(b) if array else (0 if type(b) is int else b)
        try:
            known = self(_empty_of(a), sample).dtype == a.dtype
        except (TypeError, ValueError, OverflowError):
            known = False  # the rounds raise NumPy's error
        _FOLDS[key] = known
    return known


_FOLDS = {}
_PY_SCALARS = frozenset((bool, int, float, complex))


def _host_index(indices):
    """An index of ufunc.at as NumPy reads it, with accel arrays in it brought to the host."""
    def host(i):
        return _core.asnumpy(i.to_device("cpu")) if isinstance(i, _core.ndarray) else i
    if isinstance(indices, tuple):
        return tuple(host(i) for i in indices)
    return host(indices)


def _reduceat(self, array, indices, axis=0, dtype=None, out=None):
    """NumPy's ufunc.reduceat: for each i, the op reduced over array[indices[i]:indices[i+1]]
    along `axis` (to the end for the last), or array[indices[i]] where indices[i+1] is not
    past indices[i]."""
    name = _name(self)
    x = _binary_operand(self, array, "reduceat")
    if dtype is not None:
        x = _core.astype(x, dtype, copy=False)
    elif name in _REDUCE_FUNCTIONS and x.dtype.kind in "biu" and x.dtype.itemsize < 8:
        # As sum and prod: small integers and bools add up in 64 bits.
        x = _core.astype(x, _core.uint64 if x.dtype.kind == "u" else _core.int64)
    x = _reduction_input(self, x, "reduceat")
    axis = axis % x.ndim
    host = _np.asarray(_host_index(indices)).reshape(-1)
    n = x.shape[axis]
    bad = _np.flatnonzero((host < 0) | (host >= n))
    if bad.size:
        raise IndexError(f"[{name}.reduceat] index {int(host[bad[0]])} out of bounds for axis "
                         f"{axis} of size {n}")
    if host.size and name in _REGISTRY_BINARY and x.dtype != _core.float16 and \
            _loop_dtype(self, x) == x.dtype:
        # One segmented fold on x's device (ops/ufunc_at.h).
        dt = x.dtype
        r = _core._ufunc_reduceat(name, x, _core.asarray(host.astype(_np.int64), device=x.device),
                                  axis)
    else:
        idx = host.astype(_np.int64).tolist()
        moved = _along(x, axis)
        parts = []
        for j, start in enumerate(idx):
            stop = idx[j + 1] if j + 1 < len(idx) else n
            # From the segment's first element, in order (NumPy's reduceat starts no segment
            # from the identity: gcd.reduceat of one -3 is -3).
            # (each segment is NumPy's inner loop: float16 runs in float32 there)
            parts.append(_reduce_axis0(self, moved[start:stop], inner=True) if stop > start
                         else moved[start])
        dt = _core.result_type(*parts) if parts else _loop_dtype(self, x)
        r = _core.stack([_core.astype(p, dt, copy=False) for p in parts]) if parts else \
            _core.empty((0,) + moved.shape[1:], dtype=dt, device=x.device)
        r = _core.moveaxis(r, 0, axis)
    # Laid out as NumPy's iterator lays reduceat's output out: by x's steps, the segment axis
    # (which x does not step along per segment) telling nothing, so it stays where C puts it
    # unless the others move around it (fuzz seed 2232004).
    shape = tuple(r.shape)
    if all(shape):
        proto = _core.broadcast_to(_along(x, axis)[:1] if axis == 0 else
                                   _core.moveaxis(_along(x, axis)[:1], 0, axis), shape)
        order = _common.iteration_order(shape, [proto])
        if order != list(range(len(shape))) or not r.flags.c_contiguous:
            laid = _common.empty_in_order(shape, order, dt, x.device)
            laid[...] = r
            r = laid
    return _deliver(r, out)


def _nargs(self):
    return self.nin + self.nout


def _reduce_ex(self, protocol):
    return f"{_name(self)}"  # pickled by name: accel.<name> (Dask ships functions so)


for _method in (_reduce, _accumulate, _outer, _at, _reduceat):
    setattr(_core.ufunc, _method.__name__[1:], _method)
_core.ufunc.nargs = property(_nargs)
_core.ufunc.__reduce__ = _reduce_ex
_core.ufunc.__reduce_ex__ = _reduce_ex


def as_ufuncs(namespace):
    """Replaces every function of `namespace` (accel's) that NumPy has as a ufunc of one output
    (gufuncs such as matmul stay functions) by an accel.ufunc calling it."""
    for name, fn in list(namespace.items()):
        ref = getattr(_np, name, None)
        if not isinstance(ref, _np.ufunc) or ref.nout != 1 or ref.signature is not None:
            continue
        if not callable(fn) or isinstance(fn, _core.ufunc):
            continue
        namespace[name] = _core._make_ufunc(fn, {
            "__name__": name, "__qualname__": name, "__module__": "accel",
            "__doc__": fn.__doc__, "nin": ref.nin, "nout": ref.nout, "identity": ref.identity,
            "ntypes": ref.ntypes, "signature": None, "__wrapped__": fn})
