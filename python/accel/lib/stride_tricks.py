"""numpy.lib.stride_tricks as accel has it: sliding_window_view, a read-only view of every
window (accel/ops/views.cpp). as_strided is not provided: a view of arbitrary strides can
reach outside the array's memory, which accel's kernels would then read or write."""

from .._core import sliding_window_view  # noqa: F401

__all__ = ["sliding_window_view"]
