"""accel.cuda: NVRTC compilation (no GPU needed), behaviour without a driver, and, marked
`cuda`, memory, transfers, launches, streams and events on a GPU."""

import atexit
import json
import os
import shutil
import subprocess
import sys
import tempfile

# Compiled test kernels go to a private cache, not the user's (read once, at the first compile).
if "ACCEL_CACHE_DIR" not in os.environ:
    os.environ["ACCEL_CACHE_DIR"] = tempfile.mkdtemp(prefix="accel-test-cache-")
    atexit.register(shutil.rmtree, os.environ["ACCEL_CACHE_DIR"], True)

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import accel
from device_arrays import WITHOUT_FLOAT16

HAVE_GPU = accel.cuda.is_available()
NO_GPU_REASON = "no CUDA driver/GPU: " + accel.cuda.unavailable_reason().split("\n")[0]
HAVE_NVRTC = accel.cuda.nvrtc_unavailable_reason() == ""
needs_nvrtc = pytest.mark.skipif(
    not HAVE_NVRTC, reason="no NVRTC: " + accel.cuda.nvrtc_unavailable_reason().split("\n")[0])

ALL_DTYPES = WITHOUT_FLOAT16  # float16 on a GPU: test_float16.py

VECTOR_ADD = r"""
extern "C" __global__ void vector_add(const float* a, const float* b, float* c, long long n) {
  long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}
"""

BLOCK_SUM = r"""
extern "C" __global__ void block_sum(const float* in, float* out, int n) {
  __shared__ float partial[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  partial[threadIdx.x] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s /= 2) {
    if (threadIdx.x < s) partial[threadIdx.x] += partial[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0) out[blockIdx.x] = partial[0];
}
"""

HALF = r"""
#include <cuda_fp16.h>
extern "C" __global__ void half_roundtrip(const float* in, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = __half2float(__float2half(in[i]) * __float2half(2.0f));
}
"""

AXPY = r"""
template <class T>
__global__ void axpy(T a, const T* x, T* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}
"""


# ---------------------------------------------------------------- compilation (no GPU needed)

@needs_nvrtc
def test_vector_add_compiles_to_sm_90_cubin():
    m = accel.cuda.compile(VECTOR_ADD, arch="sm_90")
    assert m.is_cubin and m.arch == "sm_90"
    assert m.image[:4] == b"\x7fELF"


@needs_nvrtc
def test_compute_arch_gives_ptx():
    m = accel.cuda.compile(VECTOR_ADD, arch="compute_90")
    assert not m.is_cubin
    text = m.image.rstrip(b"\0").decode()
    assert ".version" in text and ".target sm_90" in text and ".entry vector_add" in text


@needs_nvrtc
def test_shared_memory_and_barrier_kernel_compiles():
    text = accel.cuda.compile(BLOCK_SUM, arch="compute_90").image.decode(errors="replace")
    assert ".shared" in text and "bar.sync" in text


@needs_nvrtc
def test_half_precision_kernel_compiles():
    assert accel.cuda.compile(HALF, arch="sm_90").image[:4] == b"\x7fELF"


@needs_nvrtc
def test_template_kernel_through_name_expressions():
    m = accel.cuda.compile(AXPY, arch="compute_90", name_expressions=["axpy<float>", "axpy<double>"])
    assert set(m.lowered_names) == {"axpy<float>", "axpy<double>"}
    for lowered in m.lowered_names.values():
        assert lowered.startswith("_Z") and (".entry " + lowered).encode() in m.image


@needs_nvrtc
def test_compile_error_names_the_line():
    src = "extern \"C\" __global__ void k(float* x) {\n  x[0] = 1;\n  x[1] = oops;\n}\n"
    with pytest.raises(accel.CompileError, match=r"mine\.cu:3 \|   x\[1\] = oops;") as e:
        accel.cuda.compile(src, arch="sm_90", program_name="mine.cu")
    assert isinstance(e.value, RuntimeError)
    assert 'identifier "oops" is undefined' in str(e.value)


@needs_nvrtc
def test_bad_architecture_is_a_value_error():
    with pytest.raises(ValueError, match="unknown architecture 'sm90'"):
        accel.cuda.compile(VECTOR_ADD, arch="sm90")


@needs_nvrtc
def test_recompiling_the_same_source_hits_the_cache():
    src = VECTOR_ADD + f"// test {os.getpid()}\n"
    before = accel.cuda.compile_stats()
    a = accel.cuda.compile(src, arch="sm_90")
    b = accel.cuda.compile(src, arch="sm_90")
    after = accel.cuda.compile_stats()
    assert a.image == b.image and a.key == b.key
    assert after["compiles"] - before["compiles"] == 1
    assert after["memory_hits"] - before["memory_hits"] == 1


@needs_nvrtc
@settings(max_examples=10, deadline=None)
@given(st.integers(1, 1 << 20))
def test_options_change_the_binary_and_the_key(value):
    src = 'extern "C" __global__ void k(long long* x) { x[0] = VALUE; }\n'
    m = accel.cuda.compile(src, arch="compute_90", options=[f"-DVALUE={value}"])
    other = accel.cuda.compile(src, arch="compute_90", options=[f"-DVALUE={value + 1}"])
    assert str(value).encode() in m.image
    assert m.key != other.key


@needs_nvrtc
def test_nvrtc_info_names_library_version_and_headers():
    info = accel.cuda.nvrtc_info()
    assert os.path.exists(info["path"])
    assert int(info["version"].split(".")[0]) >= 12
    assert "sm_90" in info["archs"]
    assert os.path.exists(os.path.join(info["include_dir"], "cuda_fp16.h"))


# ---------------------------------------------------------------- python -m accel

def _accel_cli(*args, env=None):
    e = dict(os.environ, **(env or {}))
    e["PYTHONPATH"] = os.pathsep.join(p for p in sys.path if p)
    out = subprocess.run([sys.executable, "-m", "accel", *args], capture_output=True, text=True,
                         env=e, timeout=120)
    assert out.returncode == 0, out.stderr
    return out.stdout


def test_info_json_reports_driver_nvrtc_verdict_and_cache():
    d = json.loads(_accel_cli("info", "--json"))["cuda"]
    assert d["verdict"]["usable"] == (HAVE_GPU and HAVE_NVRTC)
    assert d["driver"]["found"] == HAVE_GPU
    assert d["nvrtc"]["found"] == HAVE_NVRTC
    assert len(d["devices"]) == accel.cuda.device_count()
    assert d["kernel_cache"]["dir"] == os.environ["ACCEL_CACHE_DIR"]


def test_info_reports_cublas_or_why_not():
    d = json.loads(_accel_cli("info", "--json"))["cuda"]["cublas"]
    why = accel.cuda.cublas_unavailable_reason()
    assert d["found"] == (why == "")
    if d["found"]:
        info = accel.cuda.cublas_info()
        assert d["path"] == info["path"] and "libcublas.so" in d["path"]
        assert d["version"] == info["version"] and int(d["version"].split(".")[0]) >= 12
        assert f"cuBLAS:  {info['path']} (cuBLAS {info['version']})" in _accel_cli("info")
    else:
        assert why.startswith("[cublas]") and "ACCEL_CUBLAS_PATH" in why


def _cublas_reason(env):
    code = "import accel; print(accel.cuda.cublas_unavailable_reason() or accel.cuda.cublas_info()['path'])"
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                          timeout=120, env=dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p),
                                                **env)).stdout.strip()


@pytest.mark.skipif(accel.cuda.cublas_unavailable_reason() != "", reason="no cuBLAS here")
def test_accel_cublas_path_picks_the_library_or_says_what_it_lacks():
    lib_dir = os.path.dirname(accel.cuda.cublas_info()["path"])
    assert _cublas_reason({"ACCEL_CUBLAS_PATH": lib_dir}).startswith(lib_dir + "/libcublas.so")
    nvrtc = accel.cuda.nvrtc_info()["path"] if HAVE_NVRTC else None
    if nvrtc:  # a library that is not cuBLAS: loaded, then refused, naming what it lacks
        why = _cublas_reason({"ACCEL_CUBLAS_PATH": nvrtc})
        assert why.startswith("[cublas] found " + nvrtc) and "lacks cublasGetVersion" in why


@pytest.mark.parametrize("name,label", [("cufft", "cuFFT"), ("cusolver", "cuSOLVER")])
def test_info_reports_cufft_and_cusolver_or_why_not(name, label):
    d = json.loads(_accel_cli("info", "--json"))["cuda"][name]
    why = getattr(accel.cuda, name + "_unavailable_reason")()
    assert d["found"] == (why == "")
    if d["found"]:
        info = getattr(accel.cuda, name + "_info")()
        assert d["path"] == info["path"] and f"lib{name}.so" in d["path"]
        assert d["version"] == info["version"] and int(d["version"].split(".")[0]) >= 11
        assert f"{label + ':':<9}{info['path']} ({label} {info['version']})" in _accel_cli("info")
    else:
        assert why.startswith(f"[{name}]") and f"ACCEL_{name.upper()}_PATH" in why


def _library_reason(name, env):
    code = (f"import accel; print(accel.cuda.{name}_unavailable_reason() or "
            f"accel.cuda.{name}_info()['path'])")
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                          timeout=120, env=dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p),
                                                **env)).stdout.strip()


@pytest.mark.parametrize("name,first_symbol", [("cufft", "cufftGetVersion"),
                                               ("cusolver", "cusolverGetVersion")])
def test_accel_cufft_and_cusolver_paths_pick_the_library_or_say_what_it_lacks(name, first_symbol):
    if getattr(accel.cuda, name + "_unavailable_reason")():
        pytest.skip(f"no {name} here (the CUDA toolkit is not installed)")
    lib_dir = os.path.dirname(getattr(accel.cuda, name + "_info")()["path"])
    var = f"ACCEL_{name.upper()}_PATH"
    assert _library_reason(name, {var: lib_dir}).startswith(f"{lib_dir}/lib{name}.so")
    if HAVE_NVRTC:  # a library that is not this one: loaded, then refused, naming what it lacks
        nvrtc = accel.cuda.nvrtc_info()["path"]
        why = _library_reason(name, {var: nvrtc})
        assert why.startswith(f"[{name}] found {nvrtc}") and f"lacks {first_symbol}" in why


@pytest.mark.skipif(HAVE_GPU, reason="this machine has a usable CUDA driver and GPU")
def test_info_explains_why_cuda_is_not_usable():
    text = _accel_cli("info")
    assert "verdict: NOT usable" in text
    assert "libcuda.so.1" in text and "install the driver" in text


@needs_nvrtc
def test_cache_stats_and_clear(tmp_path):
    env = {"ACCEL_CACHE_DIR": str(tmp_path)}
    code = "import accel; accel.cuda.compile('extern \"C\" __global__ void k() {}', arch='sm_90')"
    subprocess.run([sys.executable, "-c", code], check=True, timeout=120,
                   env=dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p), **env))
    stats = json.loads(_accel_cli("cache", "stats", "--json", env=env))
    assert stats["dir"] == str(tmp_path) and stats["entries"] == 1 and stats["bytes"] > 0
    assert "removed 1 compiled kernels" in _accel_cli("cache", "clear", env=env)
    assert json.loads(_accel_cli("cache", "stats", "--json", env=env))["entries"] == 0


def test_python_vector_add_example_runs_or_explains():
    example = os.path.join(os.path.dirname(__file__), "..", "..", "examples", "python", "vector_add.py")
    out = subprocess.run([sys.executable, example], capture_output=True, text=True, timeout=300,
                         env=dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p)))
    assert out.returncode == 0, out.stdout + out.stderr
    assert out.stdout.count("check:    0 of 16777216 elements wrong") == (2 if HAVE_GPU else 1)
    if not HAVE_GPU:
        assert "CUDA is not usable here" in out.stdout
        if HAVE_NVRTC:
            assert "bytes of CUBIN" in out.stdout


# ---------------------------------------------------------------- without a driver

@pytest.mark.skipif(HAVE_GPU, reason="this machine has a usable CUDA driver and GPU")
class TestWithoutDriver:
    def test_is_available_is_false_and_says_why(self):
        assert accel.cuda.is_available() is False
        assert accel.cuda.device_count() == 0
        why = accel.cuda.unavailable_reason()
        assert why.startswith("[cuda]") and "libcuda.so.1" in why

    def test_arrays_on_cuda_raise_backend_unavailable(self):
        with pytest.raises(accel.BackendUnavailable, match="libcuda.so.1"):
            accel.asarray(np.ones(3), device="cuda")
        with pytest.raises(RuntimeError):
            accel.asarray(np.ones(3)).to_device("cuda")

    def test_kernel_launch_raises_backend_unavailable(self):
        # Without array arguments a kernel runs on the default device (the cpu here), so the
        # CUDA device is named.
        k = accel.RawModule(VECTOR_ADD).get_function("vector_add", device=0)
        with pytest.raises(accel.BackendUnavailable, match="NVIDIA driver"):
            k((1,), (1,), ())

    def test_streams_events_and_memory_raise_backend_unavailable(self):
        for call in (accel.cuda.Stream, accel.cuda.Event, accel.cuda.memory_stats,
                     accel.cuda.synchronize, lambda: accel.cuda.pinned_empty(4)):
            with pytest.raises(accel.BackendUnavailable):
                call()

    def test_toolkit_stub_library_is_recognised(self, tmp_path):
        stubs = [os.path.join(d, "stubs", "libcuda.so") for d in
                 (os.environ.get("CUDA_HOME", ""), "/usr/local/cuda/lib64", "/usr/local/cuda/lib")]
        stub = next((s for s in stubs if os.path.exists(s)), None)
        if stub is None:
            pytest.skip("no CUDA toolkit stub libcuda.so here to impersonate a driver with")
        os.symlink(stub, tmp_path / "libcuda.so.1")
        code = "import accel; print(accel.cuda.is_available()); print(accel.cuda.unavailable_reason())"
        env = dict(os.environ, LD_LIBRARY_PATH=str(tmp_path),
                   PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                             timeout=120)
        assert out.stdout.startswith("False\n"), out.stdout + out.stderr
        assert "stub library" in out.stdout and "LD_LIBRARY_PATH" in out.stdout

    def test_default_device_stays_cpu(self):
        assert str(accel.default_device()) == "cpu"
        assert accel.asnumpy(accel.asarray([1.0, 2.0]) * 2).tolist() == [2.0, 4.0]


# ---------------------------------------------------------------- on a GPU

def test_dlpack_of_a_cpu_array_takes_no_stream():
    x = accel.asarray(np.arange(3.0), device="cpu")
    assert type(x.__dlpack__(stream=None)).__name__ == "PyCapsule"
    with pytest.raises(ValueError, match="stream must be None"):
        x.__dlpack__(stream=1)


def _on_gpu(x):
    return accel.asarray(x, device="cuda")


def _blocks(n, threads=256):
    return ((n + threads - 1) // threads,)


@pytest.mark.cuda
@pytest.mark.skipif(not HAVE_GPU, reason=NO_GPU_REASON)
class TestOnGpu:
    @pytest.mark.parametrize("dtype", ALL_DTYPES)
    def test_transfers_round_trip_every_dtype(self, dtype):
        rng = np.random.default_rng(0)
        if dtype == "bool":
            x = rng.random(1001) > 0.5
        else:
            x = (rng.standard_normal(1001) * 100).astype(dtype)
        if dtype.startswith("complex"):
            x = x + 1j * x[::-1]
        g = _on_gpu(x)
        assert str(g.device) == "cuda:0" and str(g.dtype) == dtype
        np.testing.assert_array_equal(accel.asnumpy(g), x)

    def test_device_properties(self):
        p = accel.cuda.get_device_properties(0)
        assert p["total_memory"] > 0 and p["multiprocessor_count"] > 0
        assert p["compute_capability"][0] >= 5 and p["name"]
        assert accel.cuda.device_count() >= 1

    @settings(max_examples=25, deadline=None)
    @given(shape=st.lists(st.integers(0, 7), min_size=0, max_size=4),
           dtype=st.sampled_from(ALL_DTYPES))
    def test_transfers_of_random_shapes_and_views(self, shape, dtype):
        x = np.arange(int(np.prod(shape)) if shape else 1).reshape(shape).astype(dtype)
        g = _on_gpu(x)
        np.testing.assert_array_equal(accel.asnumpy(g), x)
        if x.ndim >= 2:
            np.testing.assert_array_equal(accel.asnumpy(g.mT), x.swapaxes(-1, -2))
            np.testing.assert_array_equal(accel.asnumpy(g.T), x.T)
        np.testing.assert_array_equal(accel.asnumpy(_on_gpu(x.T)), x.T)  # strided host source

    def test_asarray_with_dtype_converts_on_the_host_before_moving(self):
        x = np.arange(10, dtype=np.int64)
        g = accel.asarray(x, dtype="float32", device="cuda")
        assert str(g.dtype) == "float32" and str(g.device) == "cuda:0"
        np.testing.assert_array_equal(accel.asnumpy(g), x.astype(np.float32))

    def test_pinned_transfers(self):
        h = accel.cuda.pinned_empty((1 << 20,), np.float32)
        h[:] = np.arange(h.size, dtype=np.float32)
        g = _on_gpu(h)
        np.testing.assert_array_equal(accel.asnumpy(g), h)

    def test_copies_into_existing_arrays_sync_and_async(self):
        x = np.random.default_rng(4).standard_normal((64, 33))
        g = _on_gpu(np.zeros_like(x))
        accel.cuda.copy_from_host(x, g)
        back = np.empty_like(x)
        accel.cuda.copy_to_host(g, back)
        np.testing.assert_array_equal(back, x)
        pinned = accel.cuda.pinned_empty(x.shape, x.dtype)
        s = accel.cuda.Stream()
        accel.cuda.copy_from_host(x * 2, g, stream=s, async_=True)
        accel.cuda.copy_to_host(g, pinned, stream=s, async_=True)
        s.synchronize()
        np.testing.assert_array_equal(pinned, x * 2)
        with pytest.raises(ValueError, match="bytes"):
            accel.cuda.copy_to_host(g, np.empty(3))

    def test_device_to_device_copy(self):
        x = np.random.default_rng(1).standard_normal(12345)
        g = _on_gpu(x)
        c = accel.asarray(g, copy=True).eval()
        assert str(c.device) == "cuda:0"
        assert accel.asnumpy(c).tolist() == x.tolist()

    def test_upload_leaves_the_source_free_to_change_at_once(self):
        # Uploads from pageable memory return without waiting for the stream (the driver has
        # staged the bytes); the device copy must still hold the values of the moment of upload,
        # also behind queued kernels and for pinned sources, which do wait.
        busy = _on_gpu(np.ones(1 << 24, np.float32))
        for n in (1, 1000, 1 << 22):
            want = np.arange(n, dtype=np.float32)
            src = want.copy()
            (busy * 2 + 1).eval()  # queued work ahead of the copy
            g = _on_gpu(src)
            src[:] = -1
            np.testing.assert_array_equal(accel.asnumpy(g), want)
            (g * 3).eval()  # a Python scalar per op: no wait on the stream, same answer
            np.testing.assert_array_equal(accel.asnumpy(g * 3 + 0.5), want * 3 + 0.5)
        pinned = accel.cuda.pinned_empty((1 << 22,), "float32")
        pinned[:] = np.arange(1 << 22, dtype=np.float32)
        (busy * 2 + 1).eval()
        g = _on_gpu(pinned)
        pinned[:] = -1
        np.testing.assert_array_equal(accel.asnumpy(g), np.arange(1 << 22, dtype=np.float32))

    def test_allocation_stats_and_free_cached(self):
        accel.cuda.free_cached()
        before = accel.cuda.memory_stats()
        g = _on_gpu(np.zeros(16 << 20, np.float32))  # 64 MiB: a segment of its own
        during = accel.cuda.memory_stats()
        assert during["in_use"] >= before["in_use"] + (64 << 20)
        del g
        after = accel.cuda.memory_stats()
        assert after["in_use"] == before["in_use"] and after["cached"] >= 64 << 20
        assert after["peak"] >= during["in_use"]
        accel.cuda.free_cached()
        assert accel.cuda.memory_stats()["cached"] < after["cached"]

    def test_out_of_memory_frees_the_cache_retries_then_raises_with_numbers(self):
        accel.cuda.free_cached()
        stats = accel.cuda.memory_stats()
        limit = stats["in_use"] + stats["cached"] + (256 << 20)  # what is held now, plus 256 MiB
        accel.cuda.set_memory_limit(limit)
        try:
            a = _on_gpu(np.zeros(150 << 20, np.uint8))
            del a  # cached now
            with accel.cuda.Stream():  # another stream cannot reuse the cached block...
                b = _on_gpu(np.zeros(150 << 20, np.uint8))  # ...so the cache is released
            del b
            with pytest.raises(MemoryError, match=r"out of memory allocating 400\.00 MiB") as e:
                _on_gpu(np.zeros(400 << 20, np.uint8))
            assert isinstance(e.value, accel.OutOfMemoryError)
            assert "in use by accel" in str(e.value) and "device total" in str(e.value)
        finally:
            accel.cuda.set_memory_limit(0)
            accel.cuda.free_cached()

    def test_vector_add(self):
        n = 100_003
        rng = np.random.default_rng(2)
        a, b = rng.standard_normal(n, np.float32), rng.standard_normal(n, np.float32)
        c = _on_gpu(np.full(n, np.nan, np.float32))  # poisoned: every element must be written
        k = accel.RawKernel(VECTOR_ADD, "vector_add")
        k(_blocks(n), (256,), (_on_gpu(a), _on_gpu(b), c, np.int64(n)))
        np.testing.assert_array_equal(accel.asnumpy(c), a + b)

    def test_shared_memory_reduction(self):
        x = np.random.default_rng(3).standard_normal(256 * 40).astype(np.float32)
        out = _on_gpu(np.zeros(40, np.float32))
        accel.RawKernel(BLOCK_SUM, "block_sum")((40,), (256,), (_on_gpu(x), out, np.int32(x.size)))
        np.testing.assert_allclose(accel.asnumpy(out), x.reshape(40, 256).sum(1), rtol=1e-5, atol=1e-4)

    def test_half_precision_kernel(self):
        x = np.linspace(-4, 4, 1000, dtype=np.float32)
        out = _on_gpu(np.zeros_like(x))
        accel.RawKernel(HALF, "half_roundtrip")(_blocks(1000), (256,), (_on_gpu(x), out, np.int32(1000)))
        np.testing.assert_allclose(accel.asnumpy(out), x.astype(np.float16).astype(np.float32) * 2, rtol=1e-3)

    @pytest.mark.parametrize("T,dtype", [("float", np.float32), ("double", np.float64)])
    def test_template_kernel(self, T, dtype):
        mod = accel.RawModule(AXPY, name_expressions=[f"axpy<{T}>"])
        x, y = np.arange(500, dtype=dtype), np.ones(500, dtype)
        gy = _on_gpu(y)
        mod.get_function(f"axpy<{T}>")(_blocks(500), (256,), (dtype(3), _on_gpu(x), gy, np.int32(500)))
        np.testing.assert_array_equal(accel.asnumpy(gy), 3 * x + 1)

    @pytest.mark.parametrize("dtype", ALL_DTYPES)
    def test_scalar_arguments_of_every_dtype(self, dtype):
        ctype = {"bool": "bool", "int8": "signed char", "int16": "short", "int32": "int",
                 "int64": "long long", "uint8": "unsigned char", "uint16": "unsigned short",
                 "uint32": "unsigned int", "uint64": "unsigned long long", "float32": "float",
                 "float64": "double", "complex64": "float2", "complex128": "double2"}[dtype]
        src = f'extern "C" __global__ void put({ctype} v, {ctype}* out) {{ *out = v; }}'
        value = np.array([7 - 3j if dtype.startswith("complex") else 1 if dtype == "bool" else 123],
                         dtype=dtype)[0]
        out = _on_gpu(np.zeros(1, dtype))
        accel.RawKernel(src, "put")((1,), (1,), (value, out))
        assert accel.asnumpy(out)[0] == value

    def test_python_scalars_and_struct_arguments(self):
        src = r"""
        struct Affine { float scale; int shift; };
        extern "C" __global__ void k(Affine f, long long i, double d, bool b, double* out) {
          out[0] = f.scale * f.shift + i + d + (b ? 1000 : 0);
        }"""
        out = _on_gpu(np.zeros(1, np.float64))
        struct = np.array([(2.5, 4)], dtype=[("scale", "<f4"), ("shift", "<i4")]).tobytes()
        accel.RawKernel(src, "k")((1,), (1,), (struct, 10, 0.25, True, out))
        assert accel.asnumpy(out)[0] == 2.5 * 4 + 10 + 0.25 + 1000

    def test_wrong_argument_count_or_size_is_a_launch_error(self):
        k = accel.RawKernel(VECTOR_ADD, "vector_add")
        a = _on_gpu(np.zeros(4, np.float32))
        if k.kernel().parameter_sizes() is None:
            pytest.skip("this driver cannot report kernel parameters (needs CUDA 12.4+)")
        with pytest.raises(accel.LaunchError, match="takes 4 parameters, but 3"):
            k((1,), (4,), (a, a, a))
        with pytest.raises(accel.LaunchError, match="parameter 3 is 8 bytes"):
            k((1,), (4,), (a, a, a, np.int32(4)))

    def test_cpu_array_argument_is_refused(self):
        k = accel.RawKernel(VECTOR_ADD, "vector_add")
        a = _on_gpu(np.zeros(4, np.float32))
        with pytest.raises(accel.LaunchError, match="on cpu"):
            k((1,), (4,), (a, a, accel.asarray(np.zeros(4, np.float32)), np.int64(4)))

    @pytest.mark.parametrize("grid,block,match", [
        ((1,), (64, 32), "has 2048 threads"),
        ((1,), (1, 1, 128), "exceeds the device's block dimension limit"),
        ((0,), (32,), "no zero dimension"),
        ((1, 1, 1 << 20), (1,), "exceeds the device's grid dimension limit"),
    ])
    def test_out_of_bounds_launch_configuration_raises(self, grid, block, match):
        k = accel.RawKernel(VECTOR_ADD, "vector_add")
        a = _on_gpu(np.zeros(4, np.float32))
        with pytest.raises(accel.LaunchError, match=match) as e:
            k(grid, block, (a, a, a, np.int64(4)))
        assert "launch vector_add" in str(e.value)

    def test_too_much_shared_memory_raises_and_large_dynamic_shared_memory_works(self):
        src = r"""
        extern "C" __global__ void fill(float* out, int n) {
          extern __shared__ float buf[];
          for (int i = threadIdx.x; i < n; i += blockDim.x) buf[i] = i;
          __syncthreads();
          for (int i = threadIdx.x; i < n; i += blockDim.x) out[i] = buf[n - 1 - i];
        }"""
        k = accel.RawKernel(src, "fill")
        optin = accel.cuda.get_device_properties()["max_shared_memory_per_block_optin"]
        n = 80_000 // 4  # 80 KB: above the default 48 KB, below the opt-in limit on sm_70+
        out = _on_gpu(np.zeros(n, np.float32))
        if optin >= n * 4:
            k((1,), (256,), (out, np.int32(n)), shared_mem=n * 4)
            np.testing.assert_array_equal(accel.asnumpy(out), np.arange(n, dtype=np.float32)[::-1])
        with pytest.raises(accel.LaunchError, match="dynamic shared memory"):
            k((1,), (256,), (out, np.int32(n)), shared_mem=optin + 1)

    def test_missing_kernel_name_says_extern_c(self):
        with pytest.raises(accel.LaunchError, match='extern "C"'):
            accel.RawKernel(VECTOR_ADD, "vectoradd")((1,), (1,), ())

    def test_streams_events_and_elapsed_time(self):
        n = 1 << 22
        x = _on_gpu(np.ones(n, np.float32))
        y = _on_gpu(np.zeros(n, np.float32))
        k = accel.RawKernel(VECTOR_ADD, "vector_add")
        s = accel.cuda.Stream()
        assert not s.is_default and s.device == 0
        start, end = accel.cuda.Event(), accel.cuda.Event()
        with s:
            assert accel.cuda.current_stream() == s
            start.record()
            for _ in range(10):
                k(_blocks(n), (256,), (x, y, y, np.int64(n)))
            end.record()
        assert accel.cuda.current_stream().is_default
        end.synchronize()
        assert end.query() and s.query()
        assert start.elapsed_time(end) > 0
        np.testing.assert_array_equal(accel.asnumpy(y)[:5], np.full(5, 10, np.float32))

    def test_stream_wait_event_orders_two_streams(self):
        n = 1 << 20
        x = _on_gpu(np.ones(n, np.float32))
        y = _on_gpu(np.zeros(n, np.float32))
        k = accel.RawKernel(VECTOR_ADD, "vector_add")
        s1, s2 = accel.cuda.Stream(), accel.cuda.Stream()
        k(_blocks(n), (256,), (x, x, y, np.int64(n)), stream=s1)     # y = 2
        done = s1.record()
        s2.wait_event(done)
        k(_blocks(n), (256,), (y, y, y, np.int64(n)), stream=s2)     # y = 4, after s1
        s2.synchronize()
        assert accel.asnumpy(y)[[0, n - 1]].tolist() == [4.0, 4.0]

    def test_streams_block_with_the_default_stream_unless_asked(self):
        assert not accel.cuda.Stream().non_blocking
        assert accel.cuda.Stream(non_blocking=True).non_blocking

    def test_work_on_a_non_blocking_stream_is_ordered_with_the_default_stream(self):
        # Upload on the default stream, add on a non-blocking stream, read on the default
        # stream: accel orders them with events (the recording-driver test proves the calls;
        # here the values). Large enough that an unordered read would see the old values.
        n = 1 << 24
        k = accel.RawKernel(VECTOR_ADD, "vector_add")
        for _ in range(3):
            x = _on_gpu(np.ones(n, np.float32))
            y = _on_gpu(np.zeros(n, np.float32))
            s = accel.cuda.Stream(non_blocking=True)
            for _ in range(4):
                k(_blocks(n), (256,), (x, y, y, np.int64(n)), stream=s)
            assert accel.asnumpy(y)[[0, n - 1]].tolist() == [4.0, 4.0]
            with s:
                z = (y * 2).eval()
            assert accel.asnumpy(z + x)[[0, n - 1]].tolist() == [9.0, 9.0]

    def test_dlpack_stream_argument(self):
        g = _on_gpu(np.arange(6, dtype=np.float32))
        with pytest.raises(ValueError, match="ambiguous"):
            g.__dlpack__(stream=0)
        for stream in (None, 1, 2, -1, accel.cuda.Stream().ptr):
            assert type(g.__dlpack__(stream=stream)).__name__ == "PyCapsule"
        assert accel.asnumpy(g).tolist() == list(range(6))

    def test_kernel_fault_is_reported_as_launch_error(self):
        # Run in a child process: a faulting kernel leaves the CUDA context unusable.
        code = (
            "import accel, numpy as np\n"
            "k = accel.RawKernel('extern \"C\" __global__ void k(int* p){ p[1ll<<40] = 1; }', 'k')\n"
            "x = accel.asarray(np.zeros(1, np.int32), device='cuda')\n"
            "k((1,), (1,), (x,))\n"
            "try:\n    accel.cuda.synchronize()\nexcept accel.LaunchError as e:\n"
            "    print('LaunchError', e)\n")
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
        assert "LaunchError" in out.stdout and "CUDA_ERROR_ILLEGAL_ADDRESS" in out.stdout, out.stderr

    def test_a_warm_elementwise_call_compiles_nothing(self):
        x = _on_gpu(np.arange(1000, dtype=np.float32))
        accel.asnumpy(accel.hypot(x, 3.0))
        before = accel.cuda.compile_stats()
        for _ in range(3):
            accel.asnumpy(accel.hypot(x, 3.0))
        after = accel.cuda.compile_stats()
        # Not even a lookup in the compiler's caches: the backend's own table has the kernel.
        assert (after["compiles"], after["memory_hits"], after["disk_hits"]) == \
            (before["compiles"], before["memory_hits"], before["disk_hits"])

    def test_reductions_scans_and_nonzero_run_on_the_current_stream(self):
        x = np.random.default_rng(7).random(5_000_000).astype(np.float32)
        s = accel.cuda.Stream()
        with s:
            g = _on_gpu(x)
            r = accel.sum(g)
            c = accel.cumsum(g)
            n = accel.nonzero(_on_gpu(x > 0.5))[0]
        s.synchronize()
        assert (str(r.dtype), r.shape) == ("float32", ())
        exact = np.sum(x.astype(np.float64))
        assert abs(float(accel.asnumpy(r)) - exact) <= 64 * np.finfo(np.float32).eps * exact
        assert abs(accel.asnumpy(c)[-1] - exact) <= 1e-4 * exact
        np.testing.assert_array_equal(accel.asnumpy(n), np.nonzero(x > 0.5)[0])


def test_every_accel_cuda_name_the_environment_report_uses_exists():
    """accel info's CUDA section calls accel.cuda functions only when a driver is present, so a
    missing name (compile_target was one, found on the first GPU run) shows nowhere else."""
    import ast
    import inspect

    import accel._cuda_info as info

    tree = ast.parse(inspect.getsource(info))
    used = {n.attr for n in ast.walk(tree)
            if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and n.value.id == "_cuda"}
    assert "compile_target" in used and "driver_info" in used
    missing = sorted(name for name in used if not hasattr(accel.cuda, name))
    assert not missing, f"accel.cuda lacks {missing}"
