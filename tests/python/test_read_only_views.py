"""Read-only arrays, as NumPy makes them: broadcast_to results, broadcast views from
broadcast_arrays, and memory imported from read-only NumPy arrays. Every way of writing raises
NumPy's ValueError and leaves the memory as it was; exports to NumPy stay read-only."""

import numpy as np
import pytest

import accel as ac

READ_ONLY = "assignment destination is read-only"

# Each writer as (name, function(target)); NumPy and accel take the same call.
WRITERS = [
    ("setitem-all", lambda t, xp: t.__setitem__(Ellipsis, 7)),
    ("setitem-int", lambda t, xp: t.__setitem__(0, 7)),
    ("setitem-slice", lambda t, xp: t.__setitem__((slice(None), slice(1, 3)), 7)),
    ("setitem-advanced", lambda t, xp: t.__setitem__(xp.asarray([0, 1]), 7)),
    ("setitem-mask", lambda t, xp: t.__setitem__(t > 2, 7)),
    ("iadd", lambda t, xp: t.__iadd__(1)),
    ("imul", lambda t, xp: t.__imul__(2)),
    ("ipow", lambda t, xp: t.__ipow__(2)),
    ("out=", lambda t, xp: xp.add(t, 1, out=t)),
    ("put", lambda t, xp: xp.put(t, xp.asarray([0, 5]), xp.asarray([7.0, 8.0]))),
]


def sources():
    base = np.arange(4.0)
    ro = np.arange(12.0).reshape(3, 4)
    ro.flags.writeable = False
    return [
        ("broadcast_to", lambda xp, b=base: xp.broadcast_to(xp.asarray(b.copy()), (3, 4))),
        ("broadcast_to-same-shape",
         lambda xp: xp.broadcast_to(xp.asarray(np.arange(12.0).reshape(3, 4)), (3, 4))),
        ("broadcast_arrays",
         lambda xp, b=base: xp.broadcast_arrays(xp.asarray(b.copy()), xp.asarray(np.ones((3, 1))))[0]),
        ("read-only-numpy", lambda xp, r=ro: xp.asarray(r)),
    ]


@pytest.mark.parametrize("source", sources(), ids=lambda s: s[0])
@pytest.mark.parametrize("writer", WRITERS, ids=lambda w: w[0])
def test_writes_into_read_only_arrays_raise_like_numpy_and_change_nothing(source, writer):
    _, make = source
    _, write = writer
    expected = make(np)
    before = expected.copy()
    if source[0] == "broadcast_arrays":
        # NumPy still lets broadcast_arrays results be written (with a FutureWarning); accel
        # already refuses, as NumPy's broadcast_to does (a deliberate difference).
        expected = np.broadcast_to(expected, expected.shape)
    with pytest.raises(ValueError):
        write(expected, np)
    target = make(ac)
    with pytest.raises(ValueError, match=READ_ONLY):
        write(target, ac)
    np.testing.assert_array_equal(ac.asnumpy(target), before)


def test_broadcast_arrays_keeps_arrays_of_the_full_shape_writable_like_numpy():
    a = ac.asarray(np.zeros((3, 4)))
    b = ac.asarray(np.arange(4.0))
    full, spread = ac.broadcast_arrays(a, b)
    full[0, 0] = 5
    assert ac.asnumpy(a)[0, 0] == 5
    with pytest.raises(ValueError, match=READ_ONLY):
        spread[0, 0] = 5


def test_read_only_arrays_export_read_only_to_numpy_and_buffer_consumers():
    b = ac.broadcast_to(ac.asarray(np.arange(4.0)), (3, 4))
    view = np.asarray(b)
    assert not view.flags.writeable
    with pytest.raises(ValueError):
        view[0, 0] = 1
    assert memoryview(b).readonly
    # The legacy DLPack capsule cannot say "read-only": exporting one is refused, as NumPy does;
    # the versioned one carries the flag (tests/python/test_dlpack.py).
    with pytest.raises(BufferError):
        b.__dlpack__()
    assert not np.from_dlpack(b).flags.writeable


def test_copies_and_results_of_read_only_arrays_are_writable():
    b = ac.broadcast_to(ac.asarray(np.arange(4.0)), (3, 4))
    for fresh in (b.copy(), ac.asarray(b, copy=True), b + 0, ac.astype(b, ac.float32)):
        fresh[0, 0] = 9
        assert ac.asnumpy(fresh)[0, 0] == 9
    np.testing.assert_array_equal(ac.asnumpy(b), np.broadcast_to(np.arange(4.0), (3, 4)))


@pytest.mark.parametrize("view", [lambda b: b[1], lambda b: b.T, lambda b: b[:, ::2],
                                  lambda b: b[None]], ids=["row", "T", "step", "newaxis"])
def test_views_of_read_only_views_are_read_only(view):
    src = ac.asarray(np.arange(4.0))
    b = ac.broadcast_to(src, (3, 4))
    with pytest.raises(ValueError, match=READ_ONLY):
        view(b)[...] = 7
    np.testing.assert_array_equal(ac.asnumpy(src), np.arange(4.0))
