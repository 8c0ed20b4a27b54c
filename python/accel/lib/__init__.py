"""accel.lib: the parts of numpy.lib accel has (stride_tricks.sliding_window_view)."""

from . import stride_tricks  # noqa: F401
