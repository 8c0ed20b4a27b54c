"""python -m accel profile [-s op|line] [-o trace.json] script.py [args]: runs a script under
the profiler, as `python -m cProfile` does, then prints the summary and the advice."""

from __future__ import annotations

import argparse
import os
import runpy
import sys

from ._profile import Profile


def main(argv):
    parser = argparse.ArgumentParser(prog="python -m accel profile")
    parser.add_argument("-s", "--sort", choices=["op", "line"], default="op",
                        help="group the summary by op (default) or by Python line")
    parser.add_argument("-o", "--trace", help="also write a Chrome trace (JSON) here")
    parser.add_argument("script")
    parser.add_argument("args", nargs=argparse.REMAINDER)
    args = parser.parse_args(argv)
    sys.argv = [args.script, *args.args]
    sys.path.insert(0, os.path.dirname(os.path.abspath(args.script)))
    status = 0
    p = Profile()
    with p:
        try:
            runpy.run_path(args.script, run_name="__main__")
        except SystemExit as e:
            status = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
    print(p.summary(by=args.sort))
    findings = p.advice()
    print("\nadvice:" if findings else "\nadvice: nothing to report")
    for f in findings:
        print(f"- {f}")
    if args.trace:
        p.export_chrome_trace(args.trace)
        print(f"\ntrace written to {args.trace} (open in https://ui.perfetto.dev)")
    return status
