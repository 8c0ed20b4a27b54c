"""NumPy's file and text I/O for accel arrays (save, savez, load, savetxt, loadtxt, genfromtxt,
fromfile, tofile): NumPy's own readers and writers on the host, so the files are NumPy's,
byte for byte, and read back by either library. Arrays off the CPU are copied to the host to be
written; what is read becomes an accel array on the default device (or `device=`)."""

import numpy as _np

from . import _core
from ._array_api import _host as _readonly_host

__all__ = ["save", "savez", "savez_compressed", "load", "savetxt", "loadtxt", "genfromtxt",
           "fromfile"]


def _host(x):
    """x as NumPy reads it: an accel array's values on the host (a read-only view on the CPU,
    a copy off it); anything else as it is."""
    return _readonly_host(x) if isinstance(x, _core.ndarray) else x


def _device_array(x, device):
    return _core.asarray(x, device=device) if device is not None else _core.asarray(x)


def save(file, arr, allow_pickle=True):
    """numpy.save of arr's values (.npy)."""
    _np.save(file, _host(arr), allow_pickle=allow_pickle)


def savez(file, *args, allow_pickle=True, **kwds):
    """numpy.savez of the arrays' values (.npz, uncompressed)."""
    _np.savez(file, *map(_host, args), allow_pickle=allow_pickle,
              **{k: _host(v) for k, v in kwds.items()})


def savez_compressed(file, *args, allow_pickle=True, **kwds):
    """numpy.savez_compressed of the arrays' values (.npz, deflated)."""
    _np.savez_compressed(file, *map(_host, args), allow_pickle=allow_pickle,
                         **{k: _host(v) for k, v in kwds.items()})


class NpzFile:
    """An .npz archive opened by accel.load: NumPy's NpzFile whose items are read as accel
    arrays when asked for (by name, as a dict), on load's device."""

    def __init__(self, npz, device):
        self._npz, self._device = npz, device

    files = property(lambda self: self._npz.files)

    def __getitem__(self, key):
        return _device_array(self._npz[key], self._device)

    def __contains__(self, key):
        return key in self._npz

    def __iter__(self):
        return iter(self._npz)

    def __len__(self):
        return len(self._npz)

    def keys(self):
        return self._npz.keys()

    def values(self):
        return [self[k] for k in self._npz.files]

    def items(self):
        return [(k, self[k]) for k in self._npz.files]

    def get(self, key, default=None):
        return self[key] if key in self._npz else default

    def close(self):
        self._npz.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __repr__(self):
        return f"accel.NpzFile({self._npz.files})"


def load(file, mmap_mode=None, allow_pickle=False, fix_imports=True, encoding="ASCII", *,
         max_header_size=10000, device=None):
    """numpy.load: an .npy file as an accel array, an .npz archive as an NpzFile of them.
    Pickled objects (allow_pickle=True) come back as NumPy loads them."""
    r = _np.load(file, mmap_mode=mmap_mode, allow_pickle=allow_pickle, fix_imports=fix_imports,
                 encoding=encoding, max_header_size=max_header_size)
    if isinstance(r, _np.lib.npyio.NpzFile):
        return NpzFile(r, device)
    if isinstance(r, _np.ndarray) and r.dtype != object:
        return _device_array(r, device)
    return r


def savetxt(fname, X, *args, **kwargs):
    """numpy.savetxt of X's values (every keyword of NumPy's)."""
    _np.savetxt(fname, _host(X), *args, **kwargs)


def loadtxt(*args, device=None, **kwargs):
    """numpy.loadtxt (every argument of NumPy's), the result as an accel array."""
    return _device_array(_np.loadtxt(*args, **kwargs), device)


def genfromtxt(*args, device=None, **kwargs):
    """numpy.genfromtxt (every argument of NumPy's; missing values as NaN or filling_values),
    the result as an accel array. Structured results (names=, a structured dtype) have no accel
    dtype: TypeError, as accel.asarray of one."""
    return _device_array(_np.genfromtxt(*args, **kwargs), device)


def fromfile(file, dtype=float, count=-1, sep="", offset=0, *, device=None, like=None):
    """numpy.fromfile: raw binary (or text with sep=) values as a 1-d accel array (like=: as
    asarray's)."""
    if like is not None:
        return _core.asarray(_np.fromfile(file, dtype=dtype, count=count, sep=sep, offset=offset),
                             device=device, like=like)
    return _device_array(_np.fromfile(file, dtype=dtype, count=count, sep=sep, offset=offset),
                         device)


def _tofile(self, fid, sep="", format="%s"):
    """NumPy's x.tofile: the values in C order, raw binary (or text with sep=)."""
    _core.asnumpy(self).tofile(fid, sep=sep, format=format)


_core.ndarray.tofile = _tofile
