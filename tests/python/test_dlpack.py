"""DLPack (1.x versioned and legacy capsules) and __cuda_array_interface__, both directions.

NumPy is the oracle and the other side of most exchanges; capsules are inspected through ctypes
views of the DLPack structs, and fake producers build capsules by hand to check what accel does
with a capsule it takes or refuses (the deleter is called exactly once, by whoever owns it)."""

import ctypes
import gc
import sys

import numpy as np
import pytest

import accel as ac
from conftest import CUDA_USABLE
from device_arrays import DTYPES

# ---- ctypes views of the DLPack ABI ----------------------------------------------------------


class DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32)]


class DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]


class DLTensor(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("device", DLDevice), ("ndim", ctypes.c_int32),
                ("dtype", DLDataType), ("shape", ctypes.POINTER(ctypes.c_int64)),
                ("strides", ctypes.POINTER(ctypes.c_int64)), ("byte_offset", ctypes.c_uint64)]


class DLManagedTensor(ctypes.Structure):
    pass


LEGACY_DELETER = ctypes.CFUNCTYPE(None, ctypes.POINTER(DLManagedTensor))
DLManagedTensor._fields_ = [("dl_tensor", DLTensor), ("manager_ctx", ctypes.c_void_p),
                            ("deleter", LEGACY_DELETER)]


class DLPackVersion(ctypes.Structure):
    _fields_ = [("major", ctypes.c_uint32), ("minor", ctypes.c_uint32)]


class DLManagedTensorVersioned(ctypes.Structure):
    pass


VERSIONED_DELETER = ctypes.CFUNCTYPE(None, ctypes.POINTER(DLManagedTensorVersioned))
DLManagedTensorVersioned._fields_ = [("version", DLPackVersion), ("manager_ctx", ctypes.c_void_p),
                                     ("deleter", VERSIONED_DELETER), ("flags", ctypes.c_uint64),
                                     ("dl_tensor", DLTensor)]

READ_ONLY, IS_COPIED = 1, 2
KDL_CPU, KDL_CUDA, KDL_OPENCL = 1, 2, 4

_api = ctypes.pythonapi
_api.PyCapsule_GetName.restype = ctypes.c_char_p
_api.PyCapsule_GetName.argtypes = [ctypes.py_object]
_api.PyCapsule_GetPointer.restype = ctypes.c_void_p
_api.PyCapsule_GetPointer.argtypes = [ctypes.py_object, ctypes.c_char_p]
_api.PyCapsule_SetName.restype = ctypes.c_int
_api.PyCapsule_SetName.argtypes = [ctypes.py_object, ctypes.c_char_p]
_api.PyCapsule_New.restype = ctypes.py_object
_api.PyCapsule_New.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]


def capsule_name(cap):
    return _api.PyCapsule_GetName(cap).decode()


def managed(cap):
    """The struct inside an unused capsule (a ctypes view: valid while the capsule owns it)."""
    name = capsule_name(cap)
    kind = DLManagedTensorVersioned if name == "dltensor_versioned" else DLManagedTensor
    return kind.from_address(_api.PyCapsule_GetPointer(cap, name.encode()))


def tensor_shape(t):
    return tuple(t.shape[i] for i in range(t.ndim))


def tensor_strides(t):
    return tuple(t.strides[i] for i in range(t.ndim))


# ---- data ------------------------------------------------------------------------------------

SHAPES = [(), (0,), (3, 0, 2), (7,), (4, 5), (2, 3, 4)]


def random_values(rng, shape, dtype):
    return np.asarray(_random_values(rng, shape, dtype))  # an array also for shape ()


def _random_values(rng, shape, dtype):
    if dtype == "bool":
        return rng.random(shape) < 0.5
    if dtype.startswith(("int", "uint")):
        info = np.iinfo(dtype)
        return rng.integers(info.min, info.max, size=shape, dtype=dtype, endpoint=True)
    if dtype.startswith("complex"):
        return (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(dtype)
    return (rng.standard_normal(shape) * 100).astype(dtype)


def other_value(dtype):
    """A value different from what random_values makes (barring chance), for write checks."""
    return np.array(True if dtype == "bool" else 42, dtype=dtype)


def views(x):
    """x itself and non-contiguous views (steps, a reversed axis, a transpose), the same for
    NumPy and accel arrays."""
    out = [x]
    if x.ndim >= 1 and x.shape[0] > 1:
        out += [x[::2], x[::-1]]
    if x.ndim >= 2:
        out += [x.T, x[:, ::-2]]
    return out


# ---- export: accel arrays read by NumPy ------------------------------------------------------


def test_dlpack_device_is_the_arrays_device(device):
    x = ac.zeros(3, device=device)
    expected = (KDL_CPU, 0) if x.device.type == "cpu" else (KDL_CUDA, x.device.index)
    assert x.__dlpack_device__() == expected


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", SHAPES)
def test_numpy_reads_accel_arrays_of_every_dtype_shape_and_stride(dtype, shape):
    rng = np.random.default_rng(sum(map(ord, dtype)) + len(shape))
    n = random_values(rng, shape, dtype)
    for n_view, x_view in zip(views(n), views(ac.asarray(n))):
        got = np.from_dlpack(x_view)
        assert got.dtype == n_view.dtype and got.shape == n_view.shape
        np.testing.assert_array_equal(got, n_view)


@pytest.mark.parametrize("dtype", DTYPES)
def test_numpy_view_of_an_export_sees_accel_writes(dtype):
    rng = np.random.default_rng(1)
    a = ac.asarray(random_values(rng, (4, 6), dtype), copy=True)
    view = a[1:, ::2]
    n = np.from_dlpack(view)
    view[0, 0] = ac.asarray(other_value(dtype))
    assert n[0, 0] == other_value(dtype)
    np.testing.assert_array_equal(n, ac.asnumpy(view))


def test_writes_by_the_consumer_are_seen_by_accel():
    a = ac.arange(12, dtype="float64").reshape(3, 4)
    cap = a[:, 1:].__dlpack__(max_version=(1, 0))
    t = managed(cap).dl_tensor
    # A consumer writing element [2, 0] of the (3, 3) view: row stride 4 elements.
    ctypes.c_double.from_address(t.data + 8 * tensor_strides(t)[0] * 2).value = -1.0
    assert float(a[2, 1]) == -1.0


def test_legacy_capsule_when_no_max_version_is_given():
    a = ac.arange(6, dtype="int32").reshape(2, 3)
    cap = a.__dlpack__()
    assert capsule_name(cap) == "dltensor"
    t = managed(cap).dl_tensor
    assert (t.device.device_type, t.device.device_id) == (KDL_CPU, 0)
    assert (t.dtype.code, t.dtype.bits, t.dtype.lanes) == (0, 32, 1)
    assert tensor_shape(t) == (2, 3) and tensor_strides(t) == (3, 1)


@pytest.mark.parametrize("max_version, name", [((0, 8), "dltensor"), ((1, 0), "dltensor_versioned"),
                                               ((1, 3), "dltensor_versioned"),
                                               ((2, 0), "dltensor_versioned")])
def test_max_version_chooses_the_capsule(max_version, name):
    a = ac.arange(5, dtype="float32")
    cap = a.__dlpack__(max_version=max_version)
    assert capsule_name(cap) == name
    if name == "dltensor_versioned":
        m = managed(cap)
        assert (m.version.major, m.version.minor, m.flags) == (1, 0, 0)


@pytest.mark.parametrize("dtype, code", [("bool", 6), ("int8", 0), ("uint64", 1), ("float16", 2),
                                         ("float64", 2), ("complex64", 5), ("complex128", 5)])
def test_dtype_codes_follow_dlpack(dtype, code):
    cap = ac.zeros(2, dtype=dtype).__dlpack__(max_version=(1, 0))
    dt = managed(cap).dl_tensor.dtype
    assert (dt.code, dt.bits, dt.lanes) == (code, np.dtype(dtype).itemsize * 8, 1)


def test_read_only_arrays_export_flagged_read_only():
    b = ac.broadcast_to(ac.arange(3.0), (4, 3))
    cap = b.__dlpack__(max_version=(1, 0))
    assert managed(cap).flags == READ_ONLY
    n = np.from_dlpack(b)
    assert not n.flags.writeable
    np.testing.assert_array_equal(n, np.broadcast_to(np.arange(3.0), (4, 3)))


def test_read_only_arrays_are_refused_in_legacy_capsules_unless_copied():
    b = ac.broadcast_to(ac.arange(3.0), (4, 3))
    with pytest.raises(BufferError, match=r"read-only .* legacy capsule.*max_version=\(1, 0\)"):
        b.__dlpack__()
    cap = b.__dlpack__(copy=True)
    t = managed(cap).dl_tensor
    assert tensor_strides(t) == (3, 1)  # a fresh C-contiguous copy, not the broadcast view


def test_copy_true_exports_a_copy_flagged_copied():
    a = ac.arange(6, dtype="int64")
    cap = a.__dlpack__(max_version=(1, 0), copy=True)
    m = managed(cap)
    assert m.flags == IS_COPIED
    ctypes.c_int64.from_address(m.dl_tensor.data).value = 100
    assert int(a[0]) == 0
    n = np.from_dlpack(a, copy=True)
    n[1] = 7
    assert int(a[1]) == 1


def test_copy_false_and_none_share_memory():
    a = ac.arange(6, dtype="int64")
    for copy in (False, None):
        cap = a.__dlpack__(max_version=(1, 0), copy=copy, dl_device=(KDL_CPU, 0))
        m = managed(cap)
        assert m.flags == 0
        ctypes.c_int64.from_address(m.dl_tensor.data).value = 50
        assert int(a[0]) == 50


def test_dl_device_errors():
    a = ac.arange(3.0)
    with pytest.raises(BufferError, match=r"cannot export to DLPack device \(4, 0\)"):
        a.__dlpack__(dl_device=(KDL_OPENCL, 0))
    with pytest.raises(BufferError, match=r"copy=False.*cpu.*cuda:0"):
        a.__dlpack__(dl_device=(KDL_CUDA, 0), copy=False)
    with pytest.raises(TypeError, match="dl_device must be None or a"):
        a.__dlpack__(dl_device="cpu")
    with pytest.raises(TypeError, match="max_version must be None or a"):
        a.__dlpack__(max_version=1)


@pytest.mark.skipif(CUDA_USABLE, reason="with a GPU the export to cuda:0 succeeds")
def test_dl_device_cuda_without_a_gpu_raises_backend_unavailable():
    with pytest.raises(ac.BackendUnavailable):
        ac.arange(3.0).__dlpack__(dl_device=(KDL_CUDA, 0))


def test_stream_must_be_none_on_the_cpu():
    with pytest.raises(ValueError, match="stream must be None"):
        ac.arange(3.0).__dlpack__(stream=1)


def test_an_unconsumed_capsule_releases_the_array_when_it_dies():
    n = np.arange(10.0)
    a = ac.asarray(n)  # zero copy: accel's buffer holds a reference to n
    before = sys.getrefcount(n)
    cap = a.__dlpack__(max_version=(1, 0))
    del a
    gc.collect()
    assert sys.getrefcount(n) == before  # the capsule's array shares the same buffer
    legacy = ac.asarray(n).__dlpack__()
    assert sys.getrefcount(n) == before + 1
    del cap, legacy
    gc.collect()
    assert sys.getrefcount(n) == before - 1


def test_a_consumed_capsule_is_released_once_by_the_consumer():
    n = np.arange(10.0)
    refs = sys.getrefcount(n)
    out = np.from_dlpack(ac.asarray(n))
    assert sys.getrefcount(n) == refs + 1
    out[0] = 5.0  # same memory all the way through
    assert n[0] == 5.0
    del out
    gc.collect()
    assert sys.getrefcount(n) == refs


def test_a_capsule_renamed_by_a_consumer_is_left_to_it():
    n = np.arange(4.0)
    refs = sys.getrefcount(n)
    cap = ac.asarray(n).__dlpack__(max_version=(1, 0))
    m = managed(cap)
    _api.PyCapsule_SetName(cap, b"used_dltensor_versioned")
    del cap
    gc.collect()
    assert sys.getrefcount(n) == refs + 1  # the capsule left the tensor to its consumer
    m.deleter(ctypes.pointer(m))
    assert sys.getrefcount(n) == refs


# ---- import: NumPy (and others) read by accel ------------------------------------------------


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", SHAPES)
def test_accel_reads_numpy_arrays_of_every_dtype_shape_and_stride(dtype, shape):
    rng = np.random.default_rng(7 + len(shape))
    for n in views(random_values(rng, shape, dtype)):
        x = ac.from_dlpack(n)
        assert x.dtype == ac.asarray(n).dtype and x.shape == n.shape
        np.testing.assert_array_equal(ac.asnumpy(x), n)


@pytest.mark.parametrize("dtype", DTYPES)
def test_from_dlpack_is_zero_copy_both_ways(dtype):
    rng = np.random.default_rng(3)
    n = random_values(rng, (5, 4), dtype)
    x = ac.from_dlpack(n[::2, ::-1])
    n[0, -1] = other_value(dtype)  # x[0, 0]
    assert ac.asnumpy(x)[0, 0] == other_value(dtype)
    x[1, 0] = ac.asarray(other_value(dtype))
    assert n[2, -1] == other_value(dtype)


def test_from_dlpack_of_a_read_only_numpy_array_is_read_only():
    n = np.arange(6.0)
    n.flags.writeable = False
    x = ac.from_dlpack(n)
    np.testing.assert_array_equal(ac.asnumpy(x), n)
    with pytest.raises(ValueError, match="read-only"):
        x[0] = 1.0


def test_from_dlpack_copy():
    n = np.arange(6.0)
    copied = ac.from_dlpack(n, copy=True)
    shared = ac.from_dlpack(n, copy=False)
    n[0] = -3.0
    assert float(copied[0]) == 0.0 and float(shared[0]) == -3.0


def test_from_dlpack_device():
    n = np.arange(6.0)
    x = ac.from_dlpack(n, device="cpu", copy=False)
    assert x.device == "cpu"
    with pytest.raises(BufferError, match=r"copy=False.*cpu and device=cuda:0"):
        ac.from_dlpack(n, device="cuda:0", copy=False)


def test_from_dlpack_of_accel_arrays(device):
    a = ac.arange(10, dtype="float32", device=device)
    b = ac.from_dlpack(a[::3])
    assert b.device == a.device
    np.testing.assert_array_equal(ac.asnumpy(b), np.arange(10, dtype="float32")[::3])
    a[3] = 100.0  # b[1]: the same memory
    assert float(b[1]) == 100.0


def test_from_dlpack_needs_a_producer():
    with pytest.raises(AttributeError, match=r"\[from_dlpack\] list does not implement __dlpack__"):
        ac.from_dlpack([1, 2])


class LegacyProducer:
    """A producer older than DLPack 1.0: __dlpack__ knows only `stream`."""

    def __init__(self, n):
        self.n = n
        self.calls = []

    def __dlpack__(self, stream=None):
        self.calls.append(stream)
        return self.n.__dlpack__(stream=stream)

    def __dlpack_device__(self):
        return self.n.__dlpack_device__()


def test_from_dlpack_falls_back_to_legacy_producers():
    n = np.arange(8, dtype="int16")
    p = LegacyProducer(n)
    x = ac.from_dlpack(p)
    assert p.calls == [None]  # once, after the versioned call's TypeError
    n[3] = 99
    assert int(x[3]) == 99
    y = ac.from_dlpack(LegacyProducer(n), copy=True)
    n[3] = 0
    assert int(y[3]) == 99


class Hand:
    """A producer that builds its capsule by hand and counts deleter calls."""

    def __init__(self, values, *, versioned=True, code=None, device=(KDL_CPU, 0), major=1,
                 flags=0, strides=True, byte_offset=0):
        self.values = np.ascontiguousarray(values)
        self.deleted = 0
        kind, deleter_type = ((DLManagedTensorVersioned, VERSIONED_DELETER) if versioned
                              else (DLManagedTensor, LEGACY_DELETER))
        self.m = kind()
        nd = self.values.ndim
        self.shape = (ctypes.c_int64 * max(nd, 1))(*self.values.shape)
        self.strides = (ctypes.c_int64 * max(nd, 1))(
            *(s // self.values.itemsize for s in self.values.strides))
        t = self.m.dl_tensor
        t.data = self.values.ctypes.data - byte_offset
        t.byte_offset = byte_offset
        t.device = DLDevice(*device)
        t.ndim = nd
        kind_code = {"b": 6, "i": 0, "u": 1, "f": 2, "c": 5}[self.values.dtype.kind]
        t.dtype = DLDataType(kind_code if code is None else code, self.values.itemsize * 8, 1)
        t.shape = self.shape
        t.strides = self.strides if strides else None

        def deleter(_):
            self.deleted += 1

        self.deleter = deleter_type(deleter)
        self.m.deleter = self.deleter
        if versioned:
            self.m.version = DLPackVersion(major, 0)
            self.m.flags = flags
        name = b"dltensor_versioned" if versioned else b"dltensor"
        self.capsule = _api.PyCapsule_New(ctypes.addressof(self.m), name, None)

    def __dlpack__(self, *, stream=None, max_version=None, dl_device=None, copy=None):
        return self.capsule

    def __dlpack_device__(self):
        return (self.m.dl_tensor.device.device_type, self.m.dl_tensor.device.device_id)


@pytest.mark.parametrize("versioned", [True, False])
def test_a_taken_capsule_is_renamed_and_its_deleter_called_once(versioned):
    h = Hand(np.arange(6.0).reshape(2, 3), versioned=versioned)
    x = ac.from_dlpack(h)
    assert capsule_name(h.capsule) == ("used_dltensor_versioned" if versioned else "used_dltensor")
    np.testing.assert_array_equal(ac.asnumpy(x), h.values)
    y = x[1:] * 1  # computed from the memory, then independent of it
    assert h.deleted == 0
    del x
    gc.collect()
    assert h.deleted == 1
    np.testing.assert_array_equal(ac.asnumpy(y), h.values[1:])
    assert h.deleted == 1


def test_capsules_without_strides_and_with_a_byte_offset():
    h = Hand(np.arange(12, dtype="int32").reshape(3, 4), strides=False, byte_offset=16)
    np.testing.assert_array_equal(ac.asnumpy(ac.from_dlpack(h)), h.values)


def test_read_only_flag_is_honoured_on_import():
    h = Hand(np.arange(3.0), flags=READ_ONLY)
    x = ac.from_dlpack(h)
    with pytest.raises(ValueError, match="read-only"):
        x[0] = 2.0


def test_copied_flag_spares_a_second_copy():
    h = Hand(np.arange(3.0), flags=IS_COPIED)
    x = ac.from_dlpack(h, copy=True)
    h.values[0] = 9.0  # the producer's copy is the array's memory: no copy of the copy
    assert float(x[0]) == 9.0


@pytest.mark.parametrize("kwargs, error, message", [
    (dict(code=4), ac.DTypeError, r"DLPack element type \(code 4, 64 bits, 1 lanes\) has no accel"),
    (dict(device=(KDL_OPENCL, 0)), BufferError, r"DLPack device \(4, 0\) cannot be used"),
    (dict(major=2), BufferError, r"DLPack version 2.0 is newer than accel's 1.x"),
])
def test_refused_capsules_stay_with_their_producer(kwargs, error, message):
    h = Hand(np.arange(3.0), **kwargs)
    with pytest.raises(error, match=message):
        ac.from_dlpack(h)
    assert capsule_name(h.capsule) == "dltensor_versioned"  # not taken
    gc.collect()
    assert h.deleted == 0  # its destructor (none here) owns the tensor


def test_malformed_tensors_are_refused():
    h = Hand(np.arange(3.0))
    h.m.dl_tensor.shape = None
    with pytest.raises(BufferError, match="malformed DLPack tensor: ndim 1 without a shape"):
        ac.from_dlpack(h)
    assert capsule_name(h.capsule) == "dltensor_versioned" and h.deleted == 0


class Returns:
    def __init__(self, value):
        self.value = value

    def __dlpack__(self, **kwargs):
        return self.value


def test_producers_returning_no_unused_capsule_are_named():
    with pytest.raises(TypeError, match=r"__dlpack__ returned 5, not an unused 'dltensor_versioned'"):
        ac.from_dlpack(Returns(5))
    h = Hand(np.arange(3.0))
    ac.from_dlpack(h)  # takes (renames) the capsule
    with pytest.raises(TypeError, match="not an unused"):
        ac.from_dlpack(Returns(h.capsule))


@pytest.mark.skipif(CUDA_USABLE, reason="with a GPU the fake pointer would be used")
def test_cuda_capsules_without_a_gpu_raise_backend_unavailable():
    h = Hand(np.arange(3.0), device=(KDL_CUDA, 0))
    with pytest.raises(ac.BackendUnavailable, match=r"\[from_dlpack\] .* cuda:0, but CUDA is unavailable"):
        ac.from_dlpack(h)
    assert capsule_name(h.capsule) == "dltensor_versioned"


def test_asarray_takes_dlpack_producers_zero_copy():
    h = Hand(np.arange(4, dtype="uint8"))
    x = ac.asarray(h)
    h.values[2] = 200
    assert int(x[2]) == 200


# ---- torch (where installed) -----------------------------------------------------------------


@pytest.mark.parametrize("dtype", ["bool", "int8", "int64", "uint8", "float16", "float32",
                                   "float64", "complex64", "complex128"])
def test_torch_cpu_tensors_both_ways(dtype):
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(5)
    n = random_values(rng, (4, 6), dtype)
    t = torch.from_numpy(n.copy())[:, ::2]
    x = ac.from_dlpack(t)
    np.testing.assert_array_equal(ac.asnumpy(x), t.numpy())
    t[0, 0] = torch.from_numpy(other_value(dtype))
    assert ac.asnumpy(x)[0, 0] == other_value(dtype)
    a = ac.asarray(n, copy=True)
    back = torch.from_dlpack(a)
    np.testing.assert_array_equal(back.numpy(), n)
    a[1, 1] = ac.asarray(other_value(dtype))
    assert back[1, 1].item() == other_value(dtype).item()


# ---- __cuda_array_interface__ ----------------------------------------------------------------


def test_cpu_arrays_have_no_cuda_array_interface():
    x = ac.arange(3.0, device="cpu")
    assert not hasattr(x, "__cuda_array_interface__")
    with pytest.raises(AttributeError, match="only CUDA arrays have it; this array is on cpu"):
        x.__cuda_array_interface__  # noqa: B018


class FakeCudaProducer:
    def __init__(self, iface):
        self.__cuda_array_interface__ = iface


GOOD = {"shape": (2, 3), "typestr": "<f4", "data": (0x7F0000000000, False), "version": 3,
        "strides": None, "descr": [("", "<f4")], "stream": 1}


@pytest.mark.parametrize("change, error, message", [
    (dict(data=None), ValueError, r"has data that is not a \(pointer, read_only\) tuple"),
    (dict(data=(0x1000,)), ValueError, r"not a \(pointer, read_only\) tuple"),
    (dict(data=(0, False)), ValueError, "null pointer for a non-empty array"),
    (dict(shape=[2, 3]), ValueError, "has a shape that is not a tuple"),
    (dict(shape=(2, -3)), ValueError, "negative dimension"),
    (dict(strides=(12,)), ValueError, "strides and shape of different lengths"),
    (dict(strides=(12, 3)), ValueError, "not multiples of the item size"),
    (dict(version=4), ValueError, "has version 4; accel reads versions 0 to 3"),
    (dict(stream=0), ValueError, "stream 0, which the protocol disallows"),
    (dict(stream=-5), ValueError, "negative stream"),
    (dict(mask=(1, 2)), ValueError, "has a mask"),
    (dict(typestr=">f4"), ac.DTypeError, "typestr >f4 is not in the machine's byte order"),
    (dict(typestr="<M8[s]"), ac.DTypeError, r"typestr <M8\[s\] has no accel dtype"),
    (dict(typestr="zz"), ValueError, "has a typestr NumPy does not read"),
])
def test_malformed_cuda_array_interfaces_are_named(change, error, message):
    iface = {**GOOD, **change}
    with pytest.raises(error, match=message):
        ac.asarray(FakeCudaProducer(iface))


@pytest.mark.parametrize("key", ["shape", "typestr", "data", "version"])
def test_cuda_array_interface_without_a_required_key(key):
    iface = {k: v for k, v in GOOD.items() if k != key}
    with pytest.raises(ValueError, match=f"has no '{key}'"):
        ac.asarray(FakeCudaProducer(iface))


def test_cuda_array_interface_must_be_a_dict():
    with pytest.raises(ValueError, match="must be a dict"):
        ac.asarray(FakeCudaProducer([1, 2]))


@pytest.mark.skipif(CUDA_USABLE, reason="with a GPU the fake pointer would be used")
def test_well_formed_cuda_array_interface_without_a_gpu_raises_backend_unavailable():
    with pytest.raises(ac.BackendUnavailable,
                       match=r"FakeCudaProducer exposes CUDA memory.*CUDA is unavailable"):
        ac.asarray(FakeCudaProducer(GOOD))


# ---- on a GPU --------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", ["bool", "int8", "uint16", "float16", "float64", "complex64"])
@pytest.mark.cuda
@pytest.mark.skipif(not CUDA_USABLE, reason="needs a CUDA GPU")
def test_cuda_array_interface_of_cuda_arrays(dtype):
    a = ac.asarray(np.zeros((4, 6), dtype=dtype), device="cuda")
    iface = a.__cuda_array_interface__
    assert iface["version"] == 3 and iface["shape"] == (4, 6)
    assert iface["typestr"] == np.dtype(dtype).str and iface["descr"] == [("", np.dtype(dtype).str)]
    assert iface["strides"] is None and iface["data"][1] is False
    assert isinstance(iface["stream"], int) and iface["stream"] != 0
    view = a[:, ::2].__cuda_array_interface__
    assert view["strides"] == (6 * np.dtype(dtype).itemsize, 2 * np.dtype(dtype).itemsize)
    assert ac.broadcast_to(a[0], (3, 6)).__cuda_array_interface__["data"][1] is True


@pytest.mark.cuda
@pytest.mark.skipif(not CUDA_USABLE, reason="needs a CUDA GPU")
def test_accel_reads_its_own_cuda_array_interface_zero_copy():
    a = ac.arange(12.0, device="cuda").reshape(3, 4)
    b = ac.asarray(FakeCudaProducer(a[:, 1:].__cuda_array_interface__))
    assert b.device == a.device
    a[2, 3] = -1.0
    np.testing.assert_array_equal(ac.asnumpy(b), ac.asnumpy(a)[:, 1:])


@pytest.mark.cuda
@pytest.mark.skipif(not CUDA_USABLE, reason="needs a CUDA GPU")
def test_cuda_dlpack_round_trip_through_numpy_host_copy():
    a = ac.arange(6.0, device="cuda")
    cap = a.__dlpack__(max_version=(1, 0), dl_device=(KDL_CPU, 0))
    assert managed(cap).flags == IS_COPIED
    with pytest.raises(BufferError, match="copy=False"):
        a.__dlpack__(max_version=(1, 0), dl_device=(KDL_CPU, 0), copy=False)
    np.testing.assert_array_equal(np.from_dlpack(a, device="cpu"), np.arange(6.0))


@pytest.mark.cuda
@pytest.mark.skipif(not CUDA_USABLE, reason="needs a CUDA GPU")
def test_cupy_round_trips():
    cp = pytest.importorskip("cupy")
    c = cp.arange(12, dtype=cp.float32).reshape(3, 4)
    for x in (ac.from_dlpack(c), ac.asarray(FakeCudaProducer(c.__cuda_array_interface__))):
        c[0, 0] = 5
        assert float(x[0, 0]) == 5.0
    a = ac.arange(8.0, device="cuda")
    for back in (cp.from_dlpack(a), cp.asarray(a)):
        a[1] = -2.0
        assert float(back[1]) == -2.0
        back[2] = 7.0
        assert float(a[2]) == 7.0


@pytest.mark.cuda
@pytest.mark.skipif(not CUDA_USABLE, reason="needs a CUDA GPU")
def test_torch_cuda_round_trips():
    torch = pytest.importorskip("torch")
    if not torch.cuda.is_available():
        pytest.skip("torch has no CUDA here")
    t = torch.arange(10, dtype=torch.float32, device="cuda")
    x = ac.from_dlpack(t)
    t[3] = -1
    assert float(x[3]) == -1.0
    a = ac.arange(5.0, device="cuda")
    back = torch.from_dlpack(a)
    back[0] = 9.0
    assert float(a[0]) == 9.0
    y = ac.asarray(t)  # __cuda_array_interface__ or DLPack, whichever asarray takes
    t[4] = 4.5
    assert float(y[4]) == 4.5


class CudaProducer:
    """A producer whose memory is on cuda:0 (its __dlpack_device__ says so) that can also hand
    over a host copy, as DLPack 1.0 asks of it for dl_device=(kDLCPU, 0), copy=True: the copy is
    NumPy's, flagged copied. legacy: a producer older than DLPack 1.0 (no dl_device keyword)."""

    def __init__(self, values, legacy=False):
        self.values = values
        self.legacy = legacy
        self.calls = []

    def __dlpack__(self, *, stream=None, max_version=None, dl_device=None, copy=None):
        self.calls.append(dict(stream=stream, max_version=max_version, dl_device=dl_device,
                               copy=copy))
        if self.legacy:
            raise TypeError("__dlpack__() got an unexpected keyword argument 'dl_device'")
        if dl_device != (KDL_CPU, 0):
            raise BufferError("this fake producer has no device memory to give")
        return self.values.__dlpack__(max_version=max_version, dl_device=dl_device, copy=copy)

    def __dlpack_device__(self):
        return (KDL_CUDA, 0)


def test_from_dlpack_to_the_cpu_asks_a_cuda_producer_for_a_host_copy():
    n = np.arange(12, dtype="float32").reshape(3, 4)[:, ::2]
    p = CudaProducer(n)
    x = ac.from_dlpack(p, device="cpu")
    assert p.calls == [dict(stream=None, max_version=(1, 0), dl_device=(KDL_CPU, 0), copy=True)]
    assert x.device == "cpu"
    np.testing.assert_array_equal(ac.asnumpy(x), n)
    n[0, 0] = 99  # a copy: the producer's later writes are not seen
    assert float(x[0, 0]) == 0
    y = ac.from_dlpack(CudaProducer(n), device="cpu", copy=True)
    np.testing.assert_array_equal(ac.asnumpy(y), n)


def test_from_dlpack_to_the_cpu_with_copy_false_cannot_use_a_cuda_producer():
    p = CudaProducer(np.arange(3.0))
    with pytest.raises((BufferError, ac.BackendUnavailable)):
        ac.from_dlpack(p, device="cpu", copy=False)
    assert all(c["dl_device"] is None for c in p.calls)  # no host copy asked for


@pytest.mark.skipif(CUDA_USABLE, reason="with a GPU the producer's device memory is read")
def test_from_dlpack_of_a_cuda_producer_without_a_host_copy_needs_cuda():
    # Without device="cpu" nothing asks for a host copy; a producer older than DLPack 1.0 cannot
    # make one: both need CUDA, which is missing here.
    with pytest.raises(ac.BackendUnavailable,
                       match=r"\[from_dlpack\] the producer's array is on cuda:0"):
        ac.from_dlpack(CudaProducer(np.arange(3.0)))
    legacy = CudaProducer(np.arange(3.0), legacy=True)
    with pytest.raises(ac.BackendUnavailable, match="CUDA is unavailable"):
        ac.from_dlpack(legacy, device="cpu")
    assert legacy.calls[0]["dl_device"] == (KDL_CPU, 0)
