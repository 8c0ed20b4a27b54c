"""RawKernel and RawModule: CUDA C++ kernels, launched CuPy-style on every device.

The same source and the same call run on a GPU (NVRTC, accel.cuda) and on the CPU (the host
C++ compiler, accel/backend/cpu/raw_kernel.h): the kernel runs where its array arguments live.

    import accel, numpy as np
    k = accel.RawKernel(r'''
    extern "C" __global__ void scale(float* x, float a, int n) {
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        if (i < n) x[i] *= a;
    }''', "scale")
    x = accel.asarray(np.arange(1000, dtype=np.float32))          # cpu, or device="cuda"
    k((4,), (256,), (x, np.float32(2), np.int32(1000)))

Checked mode (``check=True`` on the kernel or the call, or ``ACCEL_KERNEL_CHECK=1``): on both
devices every access through an array argument is bounds-checked (IndexError naming kernel,
argument, index, size, block and thread; a separate build of the module, the same source
transformation for the host compiler and NVRTC); on a GPU every launch is followed by a
synchronisation, so an error names the kernel that caused it. On the CPU, a barrier that not
every thread of a block reaches is a LaunchError naming kernel, block and the threads on each
side.
"""

from . import _core

_cpu = _core._cpu_kernels

__all__ = ["RawKernel", "RawModule"]


def _launch_device(args, stream):
    """'cpu' or a CUDA device index: where the array arguments live (they must agree)."""
    if not isinstance(args, (tuple, list)):
        raise TypeError("[launch] args must be a tuple or list")
    found = _cpu.arrays_device(args)  # one C++ pass: a warm launch costs microseconds
    if found != -2:
        if stream is not None and found == -1:
            raise _core.DeviceError("[launch] a CUDA stream was given, but the arrays are on the cpu")
        return "cpu" if found == -1 else found
    if stream is not None:
        return stream.device
    d = _core.default_device()
    return "cpu" if d.type == "cpu" else d.index


# ACCEL_KERNEL_CHECK is read once per process (as the C++ side does).
_CHECK_DEFAULT = _cpu.check_default()


def _check_default():
    return _CHECK_DEFAULT


class RawModule:
    """CUDA C++ source, compiled on first use for each device it runs on (cached on disk).

    ``options``: NVRTC options, e.g. ``("-DN=4", "--use_fast_math")``; on the CPU -D, -U, -I
    and -std= reach the host compiler and NVRTC-only ones are ignored. ``name_expressions``:
    template instantiations to compile, e.g. ``("axpy<float>",)``, then fetched by that name.
    """

    def __init__(self, code, options=(), name_expressions=(), name="kernel.cu"):
        self.code = code
        self.options = tuple(options)
        self.name_expressions = tuple(name_expressions)
        self._program_name = name
        self._cuda_modules = {}
        self._cpu_module = None

    @property
    def _module(self):
        """The CUDA module (NVRTC)."""
        return self._cuda_module(False)

    def _cuda_module(self, checked):
        """The CUDA module, or its checked-mode build (compiled by NVRTC on first use)."""
        m = self._cuda_modules.get(checked)
        if m is None:
            from ._core import _cuda
            m = _cuda.Module(self.code, list(self.options), list(self.name_expressions),
                             self._program_name, checked)
            self._cuda_modules[checked] = m
        return m

    @property
    def _cpu(self):
        if self._cpu_module is None:
            self._cpu_module = _cpu.Module(self.code, list(self.options),
                                           list(self.name_expressions), self._program_name)
        return self._cpu_module

    def get_function(self, name, device=None):
        """The kernel ``name`` (an extern "C" name or one of the name expressions)."""
        return RawKernel._from_module(self, name, device)

    def compile(self, device=None):
        """Compiles now for a CUDA ``device`` and returns the CompiledModule (arch, image, log)."""
        return self._module.compiled(device)


class RawKernel:
    """One kernel of CUDA C++ source, called CuPy-style:
    ``kernel(grid, block, args, shared_mem=0, stream=None)``.

    ``args``: accel arrays (passed as pointers; all on one device, where the kernel runs),
    NumPy scalars (``numpy.int32(n)``: the type must match the parameter's), Python scalars
    (bool, int -> int64, float -> float64, complex -> complex128) and ``bytes`` for a struct
    passed by value. ``check=True``: checked mode (see the module's documentation).
    """

    def __init__(self, code, name, options=(), name_expressions=(), *, check=False):
        self.module = RawModule(code, options, name_expressions)
        self.name = name
        self.check = check
        self._kernels = {}
        self._device = None

    @classmethod
    def _from_module(cls, module, name, device):
        k = cls.__new__(cls)
        k.module = module
        k.name = name
        k.check = False
        k._kernels = {}
        k._device = device
        return k

    @property
    def code(self):
        return self.module.code

    def kernel(self, device=None, *, checked=False):
        """The compiled kernel on ``device`` ("cpu", or a CUDA device: compiled and loaded);
        ``checked``: the checked-mode build (array accesses bounds-checked)."""
        key = ("cpu" if str(device) == "cpu" else device, bool(checked))
        k = self._kernels.get(key)
        if k is None:
            # A first use compiles the module unless a cache has it (the C++ core draws a
            # status line on a terminal when that takes a while: runtime/compile_status.h).
            if str(device) == "cpu":
                k = self.module._cpu.function(self.name, bool(checked))
            else:
                k = self.module._cuda_module(bool(checked)).function(self.name, device)
            self._kernels[key] = k
        return k

    def __call__(self, grid, block, args, *, shared_mem=0, stream=None, check=None):
        device = self._device if self._device is not None else _launch_device(args, stream)
        checked = (self.check or _CHECK_DEFAULT) if check is None else bool(check)
        if device == "cpu" or str(device) == "cpu":
            key = ("cpu", checked)
            k = self._kernels.get(key)
            if k is None:
                k = self.kernel("cpu", checked=checked)
            k(grid, block, args, shared_mem=shared_mem, check=checked)
            return
        k = self._kernels.get((device, checked))
        if k is None:
            k = self.kernel(device, checked=checked)
        k(grid, block, args, shared_mem=shared_mem, stream=stream)  # checked: IndexError here
        if checked:  # an asynchronous fault surfaces here, naming this kernel
            try:
                (stream.synchronize() if stream is not None
                 else _core._cuda.synchronize(k.device))
            except Exception as e:
                raise _core.LaunchError(f"[launch {self.name}] checked mode: the kernel "
                                        f"failed: {e}") from e

    @property
    def parameters(self):
        """The kernel's parameters as the CPU compiler sees them ("pointer", "4-byte ...")."""
        return self.kernel("cpu").parameters

    def compile(self, device=None):
        """Compiles now for a CUDA device and returns the CompiledModule (arch, image, log)."""
        return self.module.compile(device)

    def __repr__(self):
        return f"<accel.RawKernel {self.name!r}>"
