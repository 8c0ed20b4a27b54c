"""Checked mode of RawKernel (`check=True`, ACCEL_KERNEL_CHECK=1) on the CPU, beside the bounds
tests of test_raw_kernel_cpu.py: barriers that not every thread of a block reaches, and the
threads each side of the mistake named; racy shared-memory accesses (the correct corpus runs
checked in test_raw_kernel_cpu.py, barrier_module); the same checked transformation compiled by NVRTC, and
the GPU's error record decoded into the CPU's words; how the kernel tests skip without a compiler.
"""
import os
import struct
import subprocess
import sys

import numpy as np
import pytest

import accel

pytestmark = pytest.mark.cxx


def cpu(a):
    return accel.asarray(np.ascontiguousarray(a), copy=True)


BARRIERS = r"""
// Threads past n leave before the barrier the others wait at.
extern "C" __global__ void early_exit(float* x, int n) {
  __shared__ float s[64];
  int t = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  int i = blockIdx.x * (blockDim.x * blockDim.y * blockDim.z) + t;
  if (i >= n) return;
  s[t] = x[i];
  __syncthreads();
  x[i] = s[t] + 1;
}
// Two __syncthreads in the two arms of a branch on threadIdx.
extern "C" __global__ void two_barriers(int* x) {
  __shared__ int s[64];
  if (threadIdx.x < 16) {
    s[threadIdx.x] = 1;
    __syncthreads();
  } else {
    s[threadIdx.x] = 2;
    __syncthreads();
  }
  x[threadIdx.x] = s[threadIdx.x];
}
// Half a warp at a warp function, the other half at a block barrier: they can never meet.
extern "C" __global__ void never_meet(int* x) {
  if (threadIdx.x < 16) x[threadIdx.x] = __shfl_sync(0xffffffffu, (int)threadIdx.x, 0);
  else __syncthreads();
}
"""


@pytest.fixture(scope="module")
def barriers():
    return accel.RawModule(BARRIERS)


def test_checked_mode_names_the_threads_that_left_and_those_that_wait(barriers):
    k = barriers.get_function("early_exit")
    x = np.arange(100, dtype=np.float32)
    y = cpu(x)
    k((2,), (64,), (y, np.int32(100)))  # unchecked: exited threads do not hold the barrier
    np.testing.assert_array_equal(accel.asnumpy(y), x + 1)
    with pytest.raises(accel.LaunchError,
                       match=r"\[launch early_exit on cpu\] kernel early_exit, block \(1, 0, 0\): "
                             r"divergent __syncthreads: 28 of 64 threads exited while 36 wait at a "
                             r"barrier \(exited: \(36, 0, 0\)\.\.\(63, 0, 0\); waiting: "
                             r"\(0, 0, 0\)\.\.\(35, 0, 0\)\)"):
        k((2,), (64,), (cpu(x), np.int32(100)), check=True)


def test_checked_mode_names_the_threads_at_each_of_two_barriers(barriers):
    k = barriers.get_function("two_barriers")
    x = accel.zeros(64, dtype=accel.int32)
    with pytest.raises(accel.LaunchError,
                       match=r"kernel two_barriers, block \(0, 0, 0\): divergent __syncthreads: the "
                             r"threads wait at different __syncthreads calls \(threads "
                             r"\(0, 0, 0\)\.\.\(15, 0, 0\) at one, threads \(16, 0, 0\)\.\.\(63, 0, 0\) "
                             r"at another\)"):
        k((1,), (64,), (x,), check=True)


def test_checked_mode_lists_threads_of_a_3d_block_by_position(barriers):
    k = barriers.get_function("early_exit")
    # A (4, 4, 2) block: the threads past n = 20 of the first block leave.
    with pytest.raises(accel.LaunchError,
                       match=r"block \(0, 0, 0\): divergent __syncthreads: 12 of 32 threads exited "
                             r"while 20 wait at a barrier \(exited: \(0, 1, 1\)\.\.\(3, 3, 1\); "
                             r"waiting: \(0, 0, 0\)\.\.\(3, 0, 1\)\)"):
        k((1,), (4, 4, 2), (cpu(np.zeros(32, np.float32)), np.int32(20)), check=True)


def test_threads_that_can_never_meet_are_named_without_checked_mode(barriers):
    with pytest.raises(accel.LaunchError,
                       match=r"kernel never_meet, block \(0, 0, 0\): the threads can never all meet: "
                             r"16 wait at __syncthreads, 16 at a warp function, 0 exited .*: at "
                             r"__syncthreads: \(16, 0, 0\)\.\.\(31, 0, 0\); at a warp function: "
                             r"\(0, 0, 0\)\.\.\(15, 0, 0\)"):
        barriers.get_function("never_meet")((1,), (32,), (accel.zeros(32, dtype=accel.int32),))


RACES = r"""
// Broken: two threads write each element between barriers (the corpus's racy shared write).
extern "C" __global__ void racy_shared_write(const float* x, float* out) {
  __shared__ float s[64];
  s[threadIdx.x / 2] = x[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x / 2];
}
// Broken: a tree reduction missing the barrier after the first store.
extern "C" __global__ void tree_sum_missing_barrier(const float* x, float* out) {
  __shared__ float s[256];
  unsigned t = threadIdx.x;
  s[t] = x[blockIdx.x * blockDim.x + t];
  for (unsigned stride = blockDim.x / 2; stride > 0; stride >>= 1) {
    if (t < stride) s[t] += s[t + stride];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = s[0];
}
// Broken, 2-d: a thread reads the transposed cell of a tile with no barrier after the stores.
extern "C" __global__ void racy_tile(const float* x, float* out) {
  __shared__ float tile[8][9];
  tile[threadIdx.y][threadIdx.x] = x[threadIdx.y * 8 + threadIdx.x];
  out[threadIdx.y * 8 + threadIdx.x] = tile[threadIdx.x][threadIdx.y];
}
// Correct: one warp's lanes ordered by __syncwarp between their shared accesses.
extern "C" __global__ void warp_reduce_shared(const int* x, int* out) {
  __shared__ int s[32];
  unsigned t = threadIdx.x;
  s[t] = x[t];
  __syncwarp();
  for (unsigned stride = 16; stride > 0; stride >>= 1) {
    int v = t < stride ? s[t + stride] : 0;
    __syncwarp();
    if (t < stride) s[t] += v;
    __syncwarp();
  }
  if (t == 0) *out = s[0];
}
"""
# Broken, with no barrier at all (a module of its own: its threads run as a loop).
RACY_LOOP = r"""
extern "C" __global__ void racy_dynamic(int* out) {
  extern __shared__ int d[];
  d[0] = threadIdx.x + 1;
  out[threadIdx.x] = d[0];
}
"""

RACE = r"racy shared memory access: "


@pytest.fixture(scope="module")
def races():
    return accel.RawModule(RACES)


def test_checked_mode_reports_two_threads_writing_one_shared_element(races):
    x = np.random.default_rng(3).standard_normal(64).astype(np.float32)
    k = races.get_function("racy_shared_write")
    k((1,), (64,), (cpu(x), accel.zeros(64, dtype=accel.float32)))  # unchecked: runs
    with pytest.raises(accel.LaunchError,
                       match=r"\[launch racy_shared_write on cpu\] kernel racy_shared_write, block "
                             r"\(0, 0, 0\): " + RACE + r"thread \(0, 0, 0\) wrote s\[0\] \(byte "
                             r"offset 0\) and thread \(1, 0, 0\) accessed it, with no __syncthreads "
                             r"between"):
        k((1,), (64,), (cpu(x), accel.zeros(64, dtype=accel.float32)), check=True)


def test_checked_mode_reports_a_tree_reduction_missing_a_barrier(races):
    x = np.random.default_rng(4).standard_normal(512).astype(np.float32)
    with pytest.raises(accel.LaunchError,
                       match=r"kernel tree_sum_missing_barrier, block \(0, 0, 0\): " + RACE +
                             r"thread \(0, 0, 0\) read s\[128\] \(byte offset 512\) and thread "
                             r"\(128, 0, 0\) wrote it"):
        races.get_function("tree_sum_missing_barrier")((2,), (256,), (cpu(x), accel.zeros(2, dtype=accel.float32)),
                                                       check=True)


def test_checked_mode_reports_a_race_on_a_2d_tile(races):
    x = np.random.default_rng(5).standard_normal(64).astype(np.float32)
    with pytest.raises(accel.LaunchError,
                       match=r"kernel racy_tile, block \(0, 0, 0\): " + RACE + r"thread \(1, 0, 0\) "
                             r"wrote tile\[1\] \(byte offset 4\) and thread \(0, 1, 0\) accessed it"):
        races.get_function("racy_tile")((1,), (8, 8), (cpu(x), accel.zeros(64, dtype=accel.float32)),
                                        check=True)


def test_checked_mode_reports_a_race_in_a_kernel_without_barriers():
    k = accel.RawKernel(RACY_LOOP, "racy_dynamic")
    assert k.kernel("cpu", checked=True).mode == "loop"
    # Which of the pair's two accesses is seen first (thread 0's write or its read of d[0]) may
    # vary on a loaded machine (a full test run on 2 cores saw "read ... and ... wrote it").
    with pytest.raises(accel.LaunchError,
                       match=r"kernel racy_dynamic, block \(0, 0, 0\): " + RACE + r"thread \(0, 0, 0\) "
                             r"(wrote|read) d\[0\] \(byte offset 0\) and thread \(1, 0, 0\) "
                             r"(accessed|wrote) it"):
        k((1,), (8,), (accel.zeros(8, dtype=accel.int32),), shared_mem=4, check=True)


def test_accesses_ordered_by_syncwarp_are_not_races(races):
    x = np.random.default_rng(6).integers(-100, 100, 32).astype(np.int32)
    out = accel.zeros(1, dtype=accel.int32)
    races.get_function("warp_reduce_shared")((1,), (32,), (cpu(x), out), check=True)
    assert int(accel.asnumpy(out)[0]) == int(x.sum())


def test_kernel_tests_skip_with_their_reason_without_a_compiler(tmp_path):
    # PATH with no compiler on it: the `cxx` marker (conftest.py) skips, saying why.
    here = os.path.dirname(__file__)
    env = {k: v for k, v in os.environ.items() if k != "ACCEL_CXX"}
    env.update(PATH=str(tmp_path), PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    out = subprocess.run([sys.executable, "-m", "pytest", "-q", "-rs", "-p", "no:cacheprovider",
                          os.path.join(here, "test_raw_kernel_split.py"),
                          os.path.join(here, "test_raw_kernel_cpu.py") + "::test_vector_add_matches_numpy"],
                         capture_output=True, text=True, timeout=300, env=env, cwd=here)
    assert "no C++ compiler on PATH (kernels on the CPU need one)" in out.stdout, out.stdout
    assert ("no C++ compiler on PATH (kernels on the CPU need one; the BackendUnavailable case is "
            "tested in a child)") in out.stdout, out.stdout
    assert " passed" not in out.stdout and " failed" not in out.stdout, out.stdout


# ------------------------------------------------------------------ the same checks on a GPU

HAVE_NVRTC = accel.cuda.nvrtc_unavailable_reason() == ""
needs_nvrtc = pytest.mark.skipif(not HAVE_NVRTC,
                                 reason="no NVRTC: " + accel.cuda.nvrtc_unavailable_reason()[:200])


@needs_nvrtc
@pytest.mark.parametrize("which", ["loop", "fiber", "checked"])
def test_checked_sources_of_the_corpus_compile_for_cuda(which):
    import test_raw_kernel_cpu as corpus
    source, exprs = {"loop": (corpus.LOOP_SOURCE, ["axpy<float>", "axpy<double>", "axpy<int>"]),
                     "fiber": (corpus.FIBER_SOURCE, []),
                     "checked": (corpus.OFF_BY_ONE + BARRIERS, [])}[which]
    m = accel.cuda.compile(source, arch="sm_90", options=["-DSCALE=3.0f"], name_expressions=exprs,
                           checked=True)
    assert m.is_cubin and m.image[:4] == b"\x7fELF"
    assert b"accel_check_record" in m.image
    text, checked = accel._core._cuda.checked_source(source)
    assert "::accel_simt::Checked<" in text and "AccelCheckRecord" in text
    if which == "checked":
        assert checked["copy_off_by_one"] == [0, 1] and checked["strided_reader"] == [0, 1]


def record_bytes(arg, index, size, block, thread):
    """An AccelCheckRecord (device_src/check_record.h) as a GPU leaves it."""
    return struct.pack("<Iiqq3I3I", 1, arg, index, size, *block, *thread)


def test_the_gpu_error_record_decodes_to_the_cpus_message():
    import test_raw_kernel_cpu as corpus
    k = accel.RawKernel(corpus.OFF_BY_ONE, "copy_off_by_one")
    src, dst = cpu(np.arange(100, dtype=np.float32)), accel.zeros(100, dtype=accel.float32)
    with pytest.raises(accel.IndexError) as e:
        k((2,), (64,), (src, dst, np.int32(100)), check=True)
    on_cpu = str(e.value).split("] ", 1)[1]
    decoded = accel._core._cuda.describe_check_record(
        record_bytes(0, 100, 100, (1, 0, 0), (36, 0, 0)), "copy_off_by_one")
    assert decoded == on_cpu
    with pytest.raises(ValueError, match="a record is 48 bytes, not 47"):
        accel._core._cuda.describe_check_record(b"\0" * 47, "k")


@pytest.mark.cuda
@pytest.mark.skipif(not accel.cuda.is_available(), reason="no CUDA driver/GPU")
def test_checked_mode_reports_an_out_of_bounds_index_on_a_gpu():
    import test_raw_kernel_cpu as corpus
    k = accel.RawKernel(corpus.OFF_BY_ONE, "copy_off_by_one")
    src = accel.asarray(np.arange(100, dtype=np.float32), device="cuda")
    dst = accel.zeros(100, dtype=accel.float32, device="cuda")
    with pytest.raises(accel.IndexError, match=r"\[launch copy_off_by_one on cuda:0\] kernel "
                                               r"copy_off_by_one, block \(1, 0, 0\), thread "
                                               r"\(36, 0, 0\): index 100 is out of bounds for "
                                               r"argument 0 \(100 elements\)"):
        k((2,), (64,), (src, dst, np.int32(100)), check=True)
    k((2,), (64,), (src, dst, np.int32(99)), check=True)  # the record was cleared: runs
    np.testing.assert_array_equal(accel.asnumpy(dst), np.arange(100))
    assert k.kernel(0, checked=True).checked_parameters == [0, 1]
