"""A progress bar for long waits (issue 14): drawn on stderr when it is a terminal, silent
otherwise (logs, CI, pipes), so output that is read by programs stays clean. (Compiles draw
their own status line from the C++ core: accel/runtime/compile_status.h.)"""

from __future__ import annotations

import sys
import time


class Progress:
    """`with Progress(total, "bench") as p: ... p.step("matmul")`: a one-line bar redrawn in
    place, cleared at the end. `stream` and `enabled` exist for tests."""

    def __init__(self, total, label, stream=None, enabled=None):
        self.total = max(int(total), 1)
        self.label = label
        self.done = 0
        self.stream = stream if stream is not None else sys.stderr
        isatty = getattr(self.stream, "isatty", None)
        self.enabled = enabled if enabled is not None else bool(isatty and isatty())
        self._t0 = time.perf_counter()
        self._width = 0

    def __enter__(self):
        self._draw("")
        return self

    def __exit__(self, *exc):
        if self.enabled:
            self.stream.write("\r" + " " * self._width + "\r")
            self.stream.flush()
        return False

    def step(self, what=""):
        """One unit done; `what` names the next one (shown after the bar)."""
        self.done = min(self.done + 1, self.total)
        self._draw(what)

    def _draw(self, what):
        if not self.enabled:
            return
        cells = 24
        full = cells * self.done // self.total
        line = (f"{self.label} [{'#' * full}{'.' * (cells - full)}] {self.done}/{self.total} "
                f"{time.perf_counter() - self._t0:5.1f}s {what}")
        pad = max(self._width - len(line), 0)
        self._width = max(self._width, len(line))
        self.stream.write("\r" + line + " " * pad)
        self.stream.flush()

