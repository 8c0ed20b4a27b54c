"""A lazy value never sees a write made after it was created: for every way memory is written
(slice, advanced and mask assignment, every in-place operator, out=, put, copyto, writes through
NumPy views, DLPack and the buffer protocol, NumPy arrays imported without a copy) and every
way a value can be pending (elementwise nodes, chains, casts, views of pending arrays, reductions),
with fusion on and off (small ops kept lazy, so the lazy machinery is what runs), and with the
default of small ops computed at once. The same program runs on NumPy, eagerly, as the oracle."""

import ctypes

import numpy as np
import pytest

import accel as ac


@pytest.fixture(params=[(True, False), (False, False), (True, True)],
                ids=["fusion", "no-fusion", "eager-small"])
def fusion(request):
    on, eager = request.param
    ac.set_fusion(on)
    ac.set_eager_small(eager)
    yield on
    ac.set_fusion(True)
    ac.set_eager_small(True)


def asnp(v):
    return ac.asnumpy(v) if isinstance(v, ac.ndarray) else np.asarray(v)


# How the array written to is made: (name, xp -> x). "pending" arrays are still lazy.
SOURCES = {
    "computed": lambda xp, base: xp.asarray(base.copy()) if xp is np else ac.asarray(base, copy=True),
    "pending": lambda xp, base: (xp.asarray(base) if xp is np else ac.asarray(base, copy=True)) * 2,
    "pending-chain": lambda xp, base: xp.sqrt(xp.abs(xp.asarray(base) - 1)) + 1,
}

# Values read from x before the write: each must keep the values x had then.
READERS = {
    "elementwise": lambda xp, x: x + 1,
    "chain": lambda xp, x: (x * 2 + 1) * x,
    "cast": lambda xp, x: x.astype(xp.int32),
    "where": lambda xp, x: xp.where(x > 3, x, -x),
    "strided-read": lambda xp, x: x[::-2] * 3,
    "view-of-pending": lambda xp, x: (x * 2)[1:4],
    "reduction": lambda xp, x: xp.sum(x * 2),
    "pending-of-pending": lambda xp, x: xp.exp((x + 1) * 0.5) - x,
}


def _mask(xp, x):
    return xp.asarray(np.array([True, False, True, True, False, False]))


def _store(key, value):
    """x[key] = value as Python runs the statement (the type's C slot, not __setitem__)."""
    def write(xp, x):
        x[key] = value
    return write


# Writes into x (x has shape (6,), float64).
WRITERS = {
    "slice": lambda xp, x: x.__setitem__(slice(None, 3), 0),
    "step-slice": lambda xp, x: x.__setitem__(slice(None, None, -2), -1.5),
    "advanced": lambda xp, x: x.__setitem__(xp.asarray([0, 4, 2]), 7),
    "mask": lambda xp, x: x.__setitem__(_mask(xp, x), 9),
    "ellipsis-array": lambda xp, x: x.__setitem__(Ellipsis, xp.arange(6.0)[::-1]),
    "element-statement": _store(2, 7.5),  # one element: written directly (ops/store_element.h)
    "negative-element-statement": _store(-1, 3),
    "slice-statement": _store(slice(1, 4), -2.0),
    "ellipsis-statement": _store(Ellipsis, 4),
    "advanced-statement": lambda xp, x: _store(xp.asarray(np.array([0, -2, 2, 0])), 7)(xp, x),
    "fill": lambda xp, x: x.fill(2.5),
    "iadd": lambda xp, x: x.__iadd__(1),
    "isub-self": lambda xp, x: x.__isub__(x[::-1]),
    "imul": lambda xp, x: x.__imul__(3),
    "itruediv": lambda xp, x: x.__itruediv__(4),
    "ifloordiv": lambda xp, x: x.__ifloordiv__(2),
    "imod": lambda xp, x: x.__imod__(2.5),
    "ipow": lambda xp, x: x.__ipow__(2),
    "out=": lambda xp, x: xp.add(x, 10, out=x),
    "out=other": lambda xp, x: xp.negative(xp.arange(6.0), out=x),
    "put": lambda xp, x: xp.put(x, xp.asarray([1, 5]), xp.asarray([-3.0, -4.0])),
    "copyto": lambda xp, x: xp.copyto(x, xp.arange(6.0) * 5),
}


def run(xp, source, reader, writer):
    base = np.array([0.5, 1.0, 2.0, 3.0, 4.0, 5.0])
    x = SOURCES[source](xp, base)
    y = READERS[reader](xp, x)
    WRITERS[writer](xp, x)
    return y, x


@pytest.mark.parametrize("writer", WRITERS)
@pytest.mark.parametrize("reader", READERS)
@pytest.mark.parametrize("source", SOURCES)
def test_pending_value_keeps_values_from_before_the_write(source, reader, writer, fusion):
    y_np, x_np = run(np, source, reader, writer)
    y, x = run(ac, source, reader, writer)
    # exp and sums may round differently from NumPy's by an ulp; a stale value is far off.
    np.testing.assert_allclose(asnp(y), y_np, rtol=1e-14, atol=0)
    assert asnp(y).dtype == y_np.dtype
    np.testing.assert_allclose(asnp(x), x_np, rtol=1e-14, atol=0)


def test_issue_reproducer_pending_array_written_after_a_reader(fusion):
    a = ac.asarray(np.arange(6.0))
    x = a * 2
    y = x + 1
    x[:3] = 0
    np.testing.assert_array_equal(ac.asnumpy(y), [1, 3, 5, 7, 9, 11])
    np.testing.assert_array_equal(ac.asnumpy(x), [0, 0, 0, 6, 8, 10])


def writable(a):
    """A writable NumPy view of the memory behind `a` (NumPy marks DLPack imports read-only;
    PyTorch and CuPy, the usual DLPack consumers, write them)."""
    ptr = ctypes.cast(a.ctypes.data, ctypes.POINTER(ctypes.c_double))
    return np.ctypeslib.as_array(ptr, shape=a.shape)


# Writes made outside accel, into memory accel shares: through the NumPy array it imported
# without a copy, and through views it exported. Each channel: (make x from n, view of x to write).
FOREIGN = {
    "import": (lambda n: ac.asarray(n), lambda x, n: n),
    "asnumpy": (lambda n: ac.asarray(n, copy=True), lambda x, n: ac.asnumpy(x)),
    "__array__": (lambda n: ac.asarray(n, copy=True), lambda x, n: np.asarray(x)),
    "dlpack": (lambda n: ac.asarray(n, copy=True), lambda x, n: writable(np.from_dlpack(x))),
    "memoryview": (lambda n: ac.asarray(n, copy=True), lambda x, n: np.asarray(memoryview(x))),
}


@pytest.mark.parametrize("channel", FOREIGN)
@pytest.mark.parametrize("reader_first", [True, False], ids=["reader-then-view", "view-then-reader"])
def test_write_through_numpy_is_not_seen_by_earlier_lazy_values(channel, reader_first, fusion):
    make_x, make_view = FOREIGN[channel]
    n = np.arange(6.0)
    x = make_x(n)
    if reader_first:
        y = x * 2 + 1
        view = make_view(x, n)
    else:
        view = make_view(x, n)
        y = x * 2 + 1
    z = ac.sin(x) + x  # a chain reading the shared memory, created before the write
    view[:3] = -100.0
    np.testing.assert_array_equal(ac.asnumpy(y), np.arange(6.0) * 2 + 1)
    np.testing.assert_allclose(ac.asnumpy(z), np.sin(np.arange(6.0)) + np.arange(6.0), rtol=1e-14)
    # The write itself is seen by accel, as by NumPy: the memory is shared.
    np.testing.assert_array_equal(ac.asnumpy(x), [-100.0] * 3 + [3.0, 4.0, 5.0])


def test_fusion_region_cutting_a_shared_pending_input_does_not_crash(fusion):
    # Issue 8, bug 1: evaluating f(u) - f(v) cut pending inputs the region already held.
    def f(xp, x):
        t = x
        for _ in range(6):
            t = t * 0.5 + x
        return xp.where(x > 0, t, -t)

    def program(xp):
        a = xp.asarray(np.linspace(-1, 1, 16))
        u = xp.sqrt(xp.abs(a)) + 1
        v = u * 3
        return f(xp, u) - f(xp, v)

    np.testing.assert_allclose(ac.asnumpy(program(ac)), program(np), rtol=1e-14)


@pytest.mark.parametrize("depth", [5, 20, 40, 70, 130])
@pytest.mark.parametrize("shared", [1, 3])
def test_long_chains_sharing_pending_subexpressions_past_every_cap(depth, shared, fusion):
    # Chains longer than the region caps (ir/fuse.h) that share pending nodes with each other
    # and with broadcast inputs of another shape: every cut input is computed exactly once.
    def program(xp):
        a = xp.asarray(np.linspace(-2, 2, 24).reshape(4, 6))
        row = xp.cos(xp.asarray(np.linspace(0, 1, 6)))  # pending, smaller shape
        bases = [xp.abs(a) + i for i in range(shared)]
        t = bases[0]
        outs = []
        for i in range(depth):
            t = t * 0.75 + bases[i % shared] - row
            if i % 7 == 3:
                outs.append(t)
        return [t - outs[0]] + outs

    got = program(ac)
    want = program(np)
    for g, w in zip(got, want):
        np.testing.assert_allclose(ac.asnumpy(g), w, rtol=1e-12, atol=1e-12)


@pytest.fixture
def small_ops_lazy():
    """Small ops recorded lazily (they are computed at once by default), for tests that check
    what stays pending."""
    ac.set_eager_small(False)
    yield
    ac.set_eager_small(True)


def test_printing_and_pickling_do_not_share_memory_with_numpy(small_ops_lazy):
    # repr/str/pickle read through a read-only NumPy view: NumPy cannot write it, so ops on the
    # array stay lazy (an exported writable view would make them run at once).
    import pickle

    x = ac.asarray(np.arange(6.0), copy=True)
    repr(x), str(x), pickle.dumps(x)
    y = x * 2 + 1
    assert "group 0" in ac.explain(y)  # still pending
    np.testing.assert_array_equal(ac.asnumpy(y), np.arange(6.0) * 2 + 1)
    view = ac.asnumpy(x)  # writable: later ops on x run at once
    assert "nothing pending" in ac.explain(x * 2)
    view[0] = 5
    assert float(x[0]) == 5.0
