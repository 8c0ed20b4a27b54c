"""accel arrays as Dask chunks: registration with Dask's chunk-type registry and dispatch tables,
and Dask/distributed serializers that ship an array's bytes as a frame (no pickle).

Dask calls NumPy's functions on its chunks, which accel's `__array_function__` and
`__array_ufunc__` answer (python/accel/_numpy_protocols.py); what is registered here are the
places Dask looks up by chunk type instead. Registration happens when both accel and the Dask
module are imported, in either order (`_after_import` waits for a module's first import without
importing it, so `import accel` stays as fast without Dask)."""

import importlib.abc
import importlib.util
import sys

import numpy as _np

from . import _core


def _register_array():
    import dask.array as da
    from dask.array import dispatch

    import accel as ac

    da.register_chunk_type(_core.ndarray)
    dispatch.concatenate_lookup.register(_core.ndarray, ac.concatenate)
    dispatch.tensordot_lookup.register(_core.ndarray, ac.tensordot)
    dispatch.take_lookup.register(_core.ndarray, ac.take)
    dispatch.empty_lookup.register(_core.ndarray, ac.empty)
    dispatch.divide_lookup.register(_core.ndarray, ac.divide)
    dispatch.to_numpy_dispatch.register(_core.ndarray, lambda data, **kwargs: ac.asnumpy(data))
    from dask.array.backends import _nannumel, _numel_arraylike
    dispatch.numel_lookup.register(_core.ndarray, _numel_arraylike)
    dispatch.nannumel_lookup.register(_core.ndarray, _nannumel)
    dispatch.einsum_lookup.register(_core.ndarray, ac.einsum)
    # Dask's per-chunk percentile calls np.percentile, which dispatches to accel.percentile;
    # its merge step calls np.interp (accel.interp).
    import numpy as np
    dispatch.percentile_lookup.register(_core.ndarray, dispatch.percentile_lookup.dispatch(np.ndarray))


def _to_pinned(x):
    """A CUDA array's bytes in page-locked host memory (one D2H copy at full bus speed, no
    driver staging buffer), as a NumPy array that keeps the pinned block alive."""
    from . import cuda
    from ._numpy_functions import c_contiguous
    x = x if c_contiguous(x) else _core.asarray(x, copy=True, order="C")
    host = cuda.pinned_empty(tuple(x.shape), _np.dtype(x.dtype.name))
    cuda.copy_to_host(x, host.reshape(-1).view(_np.uint8) if host.ndim == 0 else host)
    return host


def serialize(x):
    """An accel array as (header, frames): its C-ordered bytes as one frame. On the CPU the
    frame is the array's own memory (no copy for a contiguous array); a GPU array is copied
    into pinned host memory first."""
    host = _np.asarray(x) if x.device == _core.Device("cpu") else _to_pinned(x)
    host = _np.asarray(host, order="C")  # (ascontiguousarray would make a 0-d array 1-d)
    header = {"dtype": host.dtype.str, "shape": host.shape, "strides": tuple(x.strides),
              "device": str(x.device)}
    return header, [memoryview(host.reshape(-1).view(_np.uint8))]


def deserialize(header, frames):
    """The array back on its device (the worker's default device when that one is not present
    here: a chunk sent from cuda:1 lands on the receiving worker's GPU)."""
    import accel as ac
    frame = frames[0] if len(frames) == 1 else b"".join(frames)
    host = _np.frombuffer(frame, dtype=_np.dtype(header["dtype"])).reshape(header["shape"])
    device = header["device"]
    if device not in {str(d) for d in ac.__array_namespace_info__().devices()}:
        device = None
    if device is not None and device.startswith("cuda"):
        # Upload from pinned memory: the frame is copied there once, then sent at bus speed.
        pinned = ac.cuda.pinned_empty(host.shape, host.dtype)
        pinned[...] = host
        out = ac.empty(host.shape, dtype=getattr(ac, host.dtype.name), device=device)
        ac.cuda.copy_from_host(pinned.reshape(-1).view(_np.uint8) if pinned.ndim == 0 else pinned,
                               out)
        return out
    # A read-only frame (bytes) cannot back a writable accel array: copy it once.
    return ac.asarray(host, device=device, copy=None if host.flags.writeable else True)


def _register_serializers():
    from distributed.protocol import dask_deserialize, dask_serialize
    dask_serialize.register(_core.ndarray)(serialize)
    dask_deserialize.register(_core.ndarray)(deserialize)


class _AfterImport(importlib.abc.MetaPathFinder):
    """Runs a callback once a module has been imported for the first time."""

    def __init__(self, name, callback):
        self.name, self.callback = name, callback

    def find_spec(self, fullname, path, target=None):
        if fullname != self.name:
            return None
        sys.meta_path.remove(self)  # find the module with the other finders, once
        spec = importlib.util.find_spec(fullname)
        if spec is None or spec.loader is None:
            return spec
        exec_module, callback = spec.loader.exec_module, self.callback

        def exec_then_register(module):
            exec_module(module)
            callback()

        spec.loader.exec_module = exec_then_register
        return spec


def _when_imported(name, callback):
    if name in sys.modules:
        callback()
    else:
        sys.meta_path.insert(0, _AfterImport(name, callback))


def install():
    _when_imported("dask.array", _register_array)
    _when_imported("distributed.protocol", _register_serializers)
