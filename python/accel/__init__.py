"""accel: NumPy-compatible arrays and your own kernels on NVIDIA GPUs and the CPU."""

from . import _core
from . import _blas
_blas.register_numpy_blas(_core)
from ._core import *  # noqa: E402,F401,F403
from ._core import ndarray, Device  # noqa: E402,F401
from . import cuda  # noqa: E402,F401
from . import random  # noqa: E402,F401
from . import linalg  # noqa: E402,F401
from . import fft  # noqa: E402,F401
from . import lib  # noqa: E402,F401
from ._raw_kernel import RawKernel, RawModule  # noqa: E402,F401
from ._kernel_templates import ElementwiseKernel, ReductionKernel  # noqa: E402,F401
from ._doctor import doctor  # noqa: E402,F401
from ._profile import profile  # noqa: E402,F401
from ._estimate import estimate  # noqa: E402,F401
from . import jit  # noqa: E402,F401
from ._manipulation import *  # noqa: E402,F401,F403
from ._array_api import *  # noqa: E402,F401,F403
from ._numpy_names import *  # noqa: E402,F401,F403

__version__ = "0.1.0"
from ._indexing import copyto, put, where  # noqa: E402,F401
from ._nanreductions import *  # noqa: E402,F401,F403
from ._sets import *  # noqa: E402,F401,F403
from ._numpy_functions import *  # noqa: E402,F401,F403
from ._quantiles import *  # noqa: E402,F401,F403
from ._histograms import *  # noqa: E402,F401,F403
from ._covariance import *  # noqa: E402,F401,F403
from ._einsum import einsum  # noqa: E402,F401
from ._ordering import *  # noqa: E402,F401,F403
from ._core import interp  # noqa: E402,F401  (np.interp, one kernel per device: ops/interp.h)
from ._np_creation import *  # noqa: E402,F401,F403
from ._np_indices import *  # noqa: E402,F401,F403
from ._np_math import *  # noqa: E402,F401,F403
from ._np_sets_poly import *  # noqa: E402,F401,F403
from ._np_misc import *  # noqa: E402,F401,F403
from ._np_bits import *  # noqa: E402,F401,F403
from ._np_io import *  # noqa: E402,F401,F403
from ._np_errstate import *  # noqa: E402,F401,F403
from . import _ndarray_methods  # noqa: E402,F401
from ._ufuncs import as_ufuncs as _as_ufuncs  # noqa: E402
_as_ufuncs(globals())  # accel.add.reduce, accel.add.outer, ...: NumPy's ufunc methods
from . import _numpy_protocols  # noqa: E402
_numpy_protocols.install()
from . import _dask  # noqa: E402
_dask.install()
import atexit as _atexit  # noqa: E402
# Python ends an uncaught KeyboardInterrupt by raising SIGINT again, which skips exit()'s
# handlers: host compiles still in flight are stopped here too (backend/cpu/cpu.h).
_atexit.register(_core._stop_host_compiles)
