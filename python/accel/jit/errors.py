"""Errors at the user's Python source: file, line and column of the offending node."""

from .. import _core


class Location:
    """Maps a node of the dedented, parsed function back to its file, line and column."""

    def __init__(self, filename, first_line, indent, lines, kernel):
        self.filename = filename
        self.first_line = first_line  # the file's line of the parsed text's line 1
        self.indent = indent          # columns removed by dedenting
        self.lines = lines            # the function's source lines as in the file
        self.kernel = kernel

    def line(self, node):
        return self.first_line + getattr(node, "lineno", 1) - 1

    def column(self, node):
        return getattr(node, "col_offset", 0) + self.indent + 1

    def text(self, node):
        i = getattr(node, "lineno", 1) - 1
        return self.lines[i].rstrip("\n") if 0 <= i < len(self.lines) else ""

    def where(self, node):
        return f"{self.filename}:{self.line(node)}:{self.column(node)}"

    def syntax_error(self, node, what, allowed=None):
        msg = f"[jit {self.kernel}] {what}" + (f"; {allowed}" if allowed else "")
        return _core.KernelSyntaxError(f"{msg} (at {self.where(node)})",
                                       (self.filename, self.line(node), self.column(node),
                                        self.text(node)))

    def type_error(self, node, what, allowed=None):
        msg = f"{self.where(node)}: [jit {self.kernel}] {what}" + \
            (f"; {allowed}" if allowed else "")
        e = _core.KernelTypeError(msg + "\n    " + self.text(node).strip())
        e.filename, e.lineno, e.offset = self.filename, self.line(node), self.column(node)
        return e
