"""NumPy's file I/O on accel arrays (save/savez/load, savetxt/loadtxt/genfromtxt, tofile/fromfile):
files NumPy writes and reads alike, values, dtypes and shapes round-tripped on every device."""

import numpy as np
import pytest

import accel as ac

DTYPES = ["float32", "float64", "int8", "uint16", "int64", "complex64", "bool"]


def sample(dtype, shape=(3, 4)):
    rng = np.random.default_rng(0)
    x = rng.integers(-5, 6, shape)
    if dtype.startswith("complex"):
        return (x + 1j * rng.integers(-3, 4, shape)).astype(dtype)
    return (x > 0 if dtype == "bool" else x).astype(dtype)


def same(got, want):
    assert isinstance(got, ac.ndarray)
    assert got.dtype == ac.asarray(want).dtype and got.shape == want.shape
    np.testing.assert_array_equal(ac.asnumpy(got), want)


@pytest.mark.parametrize("dtype", DTYPES)
def test_save_and_load_npy_as_numpys(dtype, tmp_path, device):
    n = sample(dtype)
    a = ac.asarray(n, device=device).T  # a strided view: its values go, in NumPy's layout
    ac.save(tmp_path / "a.npy", a)
    assert (tmp_path / "a.npy").read_bytes() == _npy_bytes(tmp_path, n.T)
    same(ac.load(tmp_path / "a.npy"), n.T)
    got = ac.load(tmp_path / "a.npy", device=device)
    assert got.device == a.device
    same(got, n.T)


def _npy_bytes(tmp_path, n):
    np.save(tmp_path / "numpy.npy", n)
    return (tmp_path / "numpy.npy").read_bytes()


@pytest.mark.parametrize("compressed", [False, True])
def test_savez_and_load_npz(compressed, tmp_path, device):
    x, y = sample("float32"), sample("int64", (5,))
    save = ac.savez_compressed if compressed else ac.savez
    save(tmp_path / "b.npz", ac.asarray(x, device=device), y=ac.asarray(y, device=device))
    with np.load(tmp_path / "b.npz") as numpy_view:  # NumPy reads accel's archive
        np.testing.assert_array_equal(numpy_view["arr_0"], x)
    with ac.load(tmp_path / "b.npz", device=device) as z:
        assert sorted(z.files) == ["arr_0", "y"] and "y" in z and len(z) == 2
        same(z["arr_0"], x)
        same(z["y"], y)
        assert z["y"].device == ac.asarray(y, device=device).device
        same(dict(z.items())["y"], y)
        assert z.get("missing") is None
        with pytest.raises(KeyError):
            z["missing"]


def test_text_files_as_numpys(tmp_path, device):
    n = sample("float64") / 4
    a = ac.asarray(n, device=device)
    ac.savetxt(tmp_path / "a.txt", a, fmt="%.6f", delimiter=",")
    np.savetxt(tmp_path / "n.txt", n, fmt="%.6f", delimiter=",")
    assert (tmp_path / "a.txt").read_text() == (tmp_path / "n.txt").read_text()
    same(ac.loadtxt(tmp_path / "a.txt", delimiter=","), np.loadtxt(tmp_path / "n.txt",
                                                                   delimiter=","))
    (tmp_path / "gaps.txt").write_text("1,2,3\n4,,6\n")
    same(ac.genfromtxt(tmp_path / "gaps.txt", delimiter=","),
         np.genfromtxt(tmp_path / "gaps.txt", delimiter=","))
    same(ac.loadtxt(tmp_path / "a.txt", delimiter=",", usecols=1, dtype=np.float32),
         np.loadtxt(tmp_path / "n.txt", delimiter=",", usecols=1, dtype=np.float32))


@pytest.mark.parametrize("dtype", DTYPES)
def test_tofile_and_fromfile(dtype, tmp_path, device):
    n = sample(dtype)
    ac.asarray(n, device=device).T.tofile(tmp_path / "a.bin")
    n.T.tofile(tmp_path / "n.bin")
    assert (tmp_path / "a.bin").read_bytes() == (tmp_path / "n.bin").read_bytes()
    same(ac.fromfile(tmp_path / "a.bin", dtype=dtype), np.fromfile(tmp_path / "n.bin", dtype))
    same(ac.fromfile(tmp_path / "a.bin", dtype=dtype, count=3, offset=n.itemsize),
         np.fromfile(tmp_path / "n.bin", dtype, count=3, offset=n.itemsize))


def test_io_errors_name_what_is_wrong(tmp_path):
    with pytest.raises(FileNotFoundError):
        ac.load(tmp_path / "missing.npy")
    np.save(tmp_path / "objects.npy", np.array([{"a": 1}], dtype=object))
    with pytest.raises(ValueError, match="allow_pickle"):
        ac.load(tmp_path / "objects.npy")


def test_numpys_io_functions_dispatch_to_accels(tmp_path, device):
    """np.save / np.savetxt of an accel array reach accel's (through __array_function__)."""
    n = sample("float32")
    a = ac.asarray(n, device=device)
    np.save(tmp_path / "a.npy", a)
    np.savetxt(tmp_path / "a.txt", a)
    np.testing.assert_array_equal(np.load(tmp_path / "a.npy"), n)
    np.testing.assert_array_equal(np.loadtxt(tmp_path / "a.txt"), n)
