"""Checked mode of RawKernel (`check=True`, ACCEL_KERNEL_CHECK=1) on the CPU, beside the bounds
tests of test_raw_kernel_cpu.py: barriers that not every thread of a block reaches, and the
threads each side of the mistake named; how the kernel tests skip without a compiler.
"""
import os
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
