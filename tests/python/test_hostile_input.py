"""Hostile arguments to the Python API: each gives a typed error or NumPy's answer, never a crash
or a changed input. The cases run in child processes (all of them in one, restarted after a
crash from the case after the one that crashed), so a crash fails its own case with the signal
instead of ending the test run."""

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import accel as ac

CASES = {}


def case(fn):
    CASES[fn.__name__] = fn
    return fn


def raises(kinds, fn, *args, **kwargs):
    """Calls fn and asserts it raises one of `kinds` (a type or a tuple of them)."""
    call = f"{getattr(fn, '__name__', fn)}{args!r:.200} {kwargs or ''}"
    try:
        fn(*args, **kwargs)
    except kinds:
        return
    except Exception as e:  # a wrong type of error is a failure too
        raise AssertionError(f"{call} raised {type(e).__name__}: {e}; expected {kinds}") from e
    raise AssertionError(f"{call} returned instead of raising {kinds}")


def same(got, expected):
    got = ac.asnumpy(got)
    assert got.dtype == expected.dtype and got.shape == expected.shape, (got, expected)
    np.testing.assert_array_equal(got, expected)


def sample():
    return np.arange(12.0).reshape(3, 4)


# -- shapes ------------------------------------------------------------------------------

@case
def negative_shapes_raise_value_error():
    for shape in (-1, (2, -3), (-(2**62),)):
        for make in (ac.zeros, ac.ones, ac.empty):
            raises(ValueError, make, shape)
    raises(ValueError, ac.full, (2, -1), 3.0)
    raises(ValueError, ac.reshape, ac.asarray(sample()), (-2, 6))
    raises(ValueError, ac.broadcast_to, ac.asarray(np.arange(3.0)), (-1, 3))


@case
def shapes_whose_product_overflows_int64_raise():
    for shape in ((2**40, 2**40), (2**31, 2**31, 2**31), (2**62, 4), (2**63 - 1, 2)):
        raises((ValueError, MemoryError, OverflowError), ac.zeros, shape)
        raises((ValueError, MemoryError, OverflowError), ac.empty, shape, dtype=ac.float64)
    raises((ValueError, MemoryError), ac.reshape, ac.asarray(sample()), (2**62, 4))
    raises((ValueError, MemoryError), ac.broadcast_to, ac.asarray(np.arange(3.0)), (2**62, 2**62, 3))
    # Lengths computed from counts: a wrapped product or sum made a small (or empty) array.
    x = ac.asarray(np.arange(4.0))
    raises(ac.ShapeError, ac.repeat, x, 2**62)
    raises(ac.ShapeError, ac.repeat, x, ac.asarray([2**62, 2**62, 2**62, 1]))
    raises(ac.ShapeError, ac.tile, x, 2**62)
    raises(ac.ShapeError, ac.resize, x, (2**40, 2**40))
    raises(ac.ShapeError, x.resize, 2**40, 2**40)
    assert x.shape == (4,)
    raises((ValueError, MemoryError), ac.array_split, x, 2**62)  # 2^62 parts: not tried


@case
def shape_entries_of_the_wrong_type_raise_type_error():
    for shape in ((2.5,), "abc", (None,), ([2],), 2.0, object()):
        raises(TypeError, ac.zeros, shape)
    raises((OverflowError, ValueError), ac.zeros, 2**70)
    raises((OverflowError, ValueError), ac.zeros, (-(2**70),))


@case
def huge_allocations_raise_memory_error():
    for n in (1 << 50, 1 << 56):
        raises(MemoryError, ac.empty, n, dtype=ac.float64)
    raises(ValueError, ac.empty, 1 << 60, dtype=ac.float64)  # more bytes than 2^63, as NumPy
    raises((MemoryError, ValueError), ac.ones, (1 << 31, 1 << 31))
    raises((MemoryError, ValueError), ac.arange, 0, 1e19)
    x = ac.asarray(np.arange(3.0))
    raises((MemoryError, ValueError), ac.repeat, x, 1 << 60)
    raises((MemoryError, ValueError), ac.tile, x, (1 << 40, 1 << 30))
    same(x + 1, np.arange(3.0) + 1)  # the process is fine afterwards


@case
def too_many_dimensions_give_an_array_or_value_error():
    try:
        a = ac.zeros((1,) * 70)
    except ValueError:
        return
    assert a.shape == (1,) * 70 and float(ac.sum(a)) == 0.0


# -- indices -----------------------------------------------------------------------------

@case
def nan_and_float_indices_raise_index_error():
    x = ac.asarray(sample())
    for key in (np.nan, 1.0, np.float64(1), -0.0, (0, 1.5), float("inf")):
        raises(IndexError, x.__getitem__, key)
        raises(IndexError, x.__setitem__, key, 1)
    raises(IndexError, x.__getitem__, ac.asarray([1.5, 0.0]))
    raises(IndexError, x.__getitem__, np.array([np.nan]))
    raises(TypeError, x.__getitem__, slice(1.5, None))
    raises(TypeError, x.__getitem__, slice(None, None, np.nan))
    same(x, sample())


@case
def out_of_range_and_extreme_integer_indices_raise_index_error():
    x = ac.asarray(sample())
    for key in (3, -4, 2**63 - 1, -(2**63), (0, 4), (0, 0, 0), ac.asarray([0, 3]),
                ac.asarray([-(2**63)]), np.uint64(2**64 - 1)):
        raises(IndexError, x.__getitem__, key)
        raises(IndexError, x.__setitem__, key, 1)
    raises((IndexError, OverflowError), x.__getitem__, 2**64)
    raises(ValueError, x.__getitem__, slice(None, None, 0))
    same(x[:: 2**62], sample()[:: 2**62])
    same(x[-(2**63) : 2**63 - 1 : 2**62], sample()[-(2**63) : 2**63 - 1 : 2**62])
    same(x, sample())


@case
def masks_of_the_wrong_shape_raise_index_error():
    x = ac.asarray(sample())
    raises(IndexError, x.__getitem__, ac.asarray([True, False]))
    raises(IndexError, x.__setitem__, ac.asarray(np.ones((4, 3), bool)), 0)
    same(x, sample())


class RaisingIndex:
    def __index__(self):
        raise RuntimeError("__index__ failed")


@case
def objects_whose_index_raises_propagate_their_error():
    x = ac.asarray(sample())
    for call in (lambda: x[RaisingIndex()], lambda: x.__setitem__(RaisingIndex(), 0),
                 lambda: x[1:RaisingIndex()], lambda: ac.zeros(RaisingIndex()),
                 lambda: ac.zeros((2, RaisingIndex())), lambda: ac.sum(x, axis=RaisingIndex())):
        raises((RuntimeError, TypeError), call)
    same(x, sample())


# -- conversions -------------------------------------------------------------------------

@case
def recursive_lists_raise_instead_of_recursing_forever():
    loop = [1.0]
    loop.append(loop)
    raises((ValueError, TypeError, RecursionError), ac.asarray, loop)
    deep = [loop, [2.0, 3.0]]
    raises((ValueError, TypeError, RecursionError), ac.asarray, deep)
    x = ac.asarray(sample())
    raises((ValueError, TypeError, RecursionError), x.__setitem__, 0, loop)
    same(x, sample())


class RaisingArray:
    def __array__(self, dtype=None, copy=None):
        raise RuntimeError("__array__ failed")


class RaisingSequence:
    def __len__(self):
        return 3

    def __getitem__(self, i):
        raise RuntimeError("__getitem__ failed")


class RaisingLength:
    def __len__(self):
        raise RuntimeError("__len__ failed")

    def __getitem__(self, i):
        return 1.0


@case
def objects_whose_array_len_or_getitem_raise_propagate_their_error():
    for obj in (RaisingArray(), RaisingSequence(), RaisingLength(), [1.0, RaisingArray()]):
        raises((RuntimeError, TypeError, ValueError), ac.asarray, obj)
        raises((RuntimeError, TypeError, ValueError), lambda o=obj: ac.asarray(sample()) + o)


class Interface:
    """An object exposing NumPy's __array_interface__ over a buffer it names."""

    def __init__(self, data, shape, strides=None, typestr="<f8"):
        self.__array_interface__ = {"data": data, "shape": shape, "strides": strides,
                                    "typestr": typestr, "version": 3}


@case
def array_interface_reaching_outside_its_buffer_raises():
    small = bytearray(16)  # two float64
    for shape, strides in (((100,), None), ((2,), (800,)), ((2,), (-8,)), ((3, 2), (8, 0))):
        raises((ValueError, BufferError, TypeError), ac.asarray, Interface(small, shape, strides))
    same(ac.asarray(Interface(bytearray(16), (2,))), np.zeros(2))


@case
def unsupported_element_types_raise_type_error():
    for arr in (np.array(["a", "b"]), np.array([object()]), np.zeros(2, dtype=[("a", "f8")]),
                np.array([b"x"]), np.zeros(2, dtype=np.longdouble)):
        raises(TypeError, ac.asarray, arr)
    # NumPy's own buffer export refuses datetimes with a ValueError, which reaches the caller.
    raises((TypeError, ValueError), ac.asarray, np.zeros(2, dtype="M8[s]"))


@case
def byte_swapped_and_misaligned_numpy_inputs_keep_their_values():
    big = np.arange(6.0).astype(">f8")
    same(ac.asarray(big), np.arange(6.0))
    same(ac.asarray(big) * 2, np.arange(6.0) * 2)
    raw = np.frombuffer(b"\0" + np.arange(4.0).tobytes(), dtype=np.float64, offset=1)
    same(ac.asarray(raw) + 0, np.arange(4.0))


@case
def non_contiguous_and_read_only_numpy_inputs_give_numpy_answers_and_stay_unchanged():
    base = np.arange(60.0).reshape(3, 4, 5)
    views = [base[:, ::-2, 1::2], base.transpose(2, 0, 1), np.broadcast_to(base[0, 0], (3, 5)),
             base[..., 3]]
    ro = base.copy()
    ro.flags.writeable = False
    views.append(ro[::2])
    for v in views:
        before = v.copy()
        same(ac.asarray(v) * 2 + 1, v * 2 + 1)
        same(ac.sum(ac.asarray(v), axis=0), np.sum(v, axis=0))
        same(ac.asarray(v)[..., ::-1], v[..., ::-1])
        np.testing.assert_array_equal(v, before)
    target = ac.asarray(ro)
    raises(ValueError, target.__setitem__, 0, 5.0)
    raises(ValueError, target.__iadd__, 1)
    np.testing.assert_array_equal(ro, np.arange(60.0).reshape(3, 4, 5))


@case
def out_aliasing_the_inputs_gives_numpy_answers():
    checks = [
        (lambda xp, x: xp.add(x, x, out=x)),
        (lambda xp, x: xp.multiply(x[::-1], x, out=x)),
        (lambda xp, x: xp.subtract(x[:, ::-1], 1, out=x)),
        (lambda xp, x: xp.add(x.T, x, out=x)),
        (lambda xp, x: xp.negative(x[::-1], out=x)),
    ]
    for f in checks:
        e = np.arange(16.0).reshape(4, 4)
        a = ac.asarray(e.copy())
        f(np, e)
        f(ac, a)
        same(a, e)
    e = np.arange(16.0).reshape(4, 4)
    a = ac.asarray(e.copy())
    a[1:] += a[:-1]
    e[1:] += e[:-1]
    same(a, e)
    a[:, ::-1] = a
    e[:, ::-1] = e
    same(a, e)


# -- dtypes, axes, devices ---------------------------------------------------------------

@case
def bad_dtypes_raise_type_error():
    x = ac.asarray(sample())
    for dt in ("float128", "not-a-dtype", object, str, np.str_, "U3", 3, [ac.float32]):
        raises(TypeError, ac.zeros, 3, dtype=dt)
        raises(TypeError, x.astype, dt)
    raises(TypeError, ac.asarray, [1, 2], dtype="complex256")


@case
def axes_out_of_range_or_malformed_raise():
    x = ac.asarray(sample())
    for axis in (2, -3, 2**63 - 1, -(2**63)):
        for f in (ac.sum, ac.max, ac.argmax, ac.mean):
            raises(IndexError, f, x, axis=axis)  # accel.AxisError is an IndexError and ValueError
        raises((IndexError, OverflowError), ac.expand_dims, x, axis=axis + (1 if axis > 0 else -1))
        raises(IndexError, ac.concat, [x, x], axis=axis)
        raises((IndexError, ValueError), ac.squeeze, x, axis=axis)
    raises(ValueError, ac.sum, x, axis=(0, 0))
    raises(ValueError, ac.sum, x, axis=(0, -2))
    raises(TypeError, ac.sum, x, axis=1.5)
    raises(TypeError, ac.sum, x, axis="0")
    raises(IndexError, ac.sum, ac.asarray(3.0), axis=0)
    raises(ValueError, ac.squeeze, x, axis=0)
    raises(ValueError, ac.max, ac.zeros((0, 3)), axis=0)
    same(x, sample())


@case
def mismatched_or_unknown_devices_raise_typed_errors():
    x = ac.asarray(sample())
    for dev in ("cuda:7", "tpu", "cuda:-1", "cpu:0:1", ""):
        raises((ac.DeviceError, ValueError, RuntimeError), ac.asarray, [1.0], device=dev)
        raises((ac.DeviceError, ValueError, RuntimeError), x.to_device, dev)
    raises((TypeError, ac.DeviceError), ac.zeros, 3, device=3.5)


@case
def python_integers_beyond_the_dtype_raise_overflow_error():
    x = ac.asarray(np.arange(4, dtype=np.int8))
    raises((OverflowError, TypeError), ac.asarray, [2**70])  # NumPy: an object array; accel has none
    raises(OverflowError, lambda: x + 2**70)
    raises(OverflowError, x.__setitem__, 0, 2**70)
    raises(OverflowError, ac.full, 3, 2**64, dtype=ac.int64)
    same(x, np.arange(4, dtype=np.int8))


@case
def wrong_value_shapes_and_types_in_assignment_raise():
    x = ac.asarray(sample())
    raises(ValueError, x.__setitem__, 0, ac.ones(5))
    raises(ValueError, x.__setitem__, ac.asarray([0, 1]), ac.ones((3, 4)))
    raises((TypeError, ValueError), x.__setitem__, 0, "text")
    raises((TypeError, ValueError), x.__setitem__, 0, object())
    same(x, sample())


@case
def bad_arguments_to_creation_and_manipulation_raise():
    x = ac.asarray(sample())
    raises(ValueError, ac.linspace, 0, 1, -1)
    raises(ValueError, ac.eye, -1)
    raises(ValueError, ac.repeat, x, -1)
    raises(ValueError, ac.repeat, x, ac.asarray([1, -1, 1]), axis=0)
    raises((ValueError, ZeroDivisionError), ac.arange, 0, 1, 0)
    raises((ValueError, TypeError), ac.arange, 0, float("nan"))
    raises((ValueError, OverflowError), ac.arange, 0, float("inf"))
    raises(ValueError, ac.matmul, x, x)
    raises(ValueError, ac.concat, [x, ac.ones((2, 3))])
    raises((ValueError, TypeError), ac.concat, [])
    raises(ValueError, ac.stack, [x, ac.ones((4, 3))])
    raises((ValueError, IndexError), ac.take, x, ac.asarray([100]))
    raises(TypeError, ac.take, x, ac.asarray([0.5]))
    raises(ValueError, ac.reshape, x, (5, 5))
    raises(ValueError, ac.split, x, 5, axis=1)
    same(x, sample())


# -- the runner --------------------------------------------------------------------------

def run_child(names):
    """Runs `names` in one child, in order; returns {name: outcome} for those that finished,
    and the name it was running when it died, if it did."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    code = (f"import sys; sys.path.insert(0, {str(Path(__file__).parent)!r}); "
            f"import test_hostile_input as t; t.child_main({names!r})")
    r = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                       timeout=600)
    done, running = {}, None
    for line in r.stdout.splitlines():
        if line.startswith("START "):
            running = line[6:]
        elif line.startswith("DONE "):
            name, outcome = json.loads(line[5:])
            done[name] = outcome
            running = None
    if running is not None:
        done[running] = f"crashed (exit status {r.returncode}): {r.stderr[-2000:]}"
    elif r.returncode != 0:
        raise RuntimeError(f"child failed outside the cases: {r.stderr[-2000:]}")
    return done


def child_main(names):
    for name in names:
        print("START " + name, flush=True)
        try:
            CASES[name]()
            outcome = "ok"
        except Exception as e:
            outcome = f"{type(e).__name__}: {e}"
        print("DONE " + json.dumps([name, outcome]), flush=True)


@pytest.fixture(scope="module")
def outcomes():
    pending, results = list(CASES), {}
    while pending:
        results.update(run_child(pending))
        pending = [n for n in pending if n not in results]
    return results


@pytest.mark.parametrize("name", list(CASES))
def test_hostile_input(name, outcomes):
    assert outcomes[name] == "ok", outcomes[name]
