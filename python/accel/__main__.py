"""python -m accel <command>: info [--json], doctor [--json], cache stats|clear [--json], demo,
profile script.py [args], bench [--quick] [--json]."""

import argparse
import json
import sys


def _cmd_info(args):
    from . import _info
    d = _info.info()
    print(json.dumps(d, indent=2) if args.json else _info.format_info(d))
    return 0


def _cmd_doctor(args):
    from . import _doctor
    findings = _doctor.diagnose(_doctor.gather())
    print(_doctor.format_json(findings) if args.json else _doctor.format_text(findings))
    errors, _ = _doctor.counts(findings)
    return 1 if errors else 0


def _cmd_cache(args):
    from . import _core
    if args.action == "clear":
        before = _core.kernel_cache_stats()
        _core.kernel_cache_clear()
        print(f"removed {before['entries']} compiled kernels ({before['bytes'] / (1 << 20):.1f} MiB) "
              f"from {before['dir']}")
        return 0
    s = _core.kernel_cache_stats()
    if args.json:
        print(json.dumps({k: s[k] for k in ("dir", "entries", "bytes", "max_bytes")}, indent=2))
    else:
        print(f"kernel cache: {s['dir']}\n  entries: {s['entries']}\n"
              f"  size:    {s['bytes'] / (1 << 20):.1f} MiB of {s['max_bytes'] / (1 << 30):.1f} GiB "
              "(ACCEL_CACHE_MAX_BYTES)")
    return 0


def _cmd_demo(args):
    from . import _demo
    return _demo.main(args.demo_args)


def _cmd_profile(args):
    from . import _profile_cli
    return _profile_cli.main(args.demo_args)


def _cmd_bench(args):
    from . import _bench
    return _bench.main(args.demo_args)


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m accel")
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("info", help="the environment: devices, drivers, compilers, caches")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(run=_cmd_info)
    p = sub.add_parser("doctor", help="check the environment: each finding with its evidence and "
                                      "the fix; exits 1 when something is broken")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(run=_cmd_doctor)
    p = sub.add_parser("cache", help="the compiled-kernel cache (ACCEL_CACHE_DIR)")
    p.add_argument("action", choices=["stats", "clear"])
    p.add_argument("--json", action="store_true", help="machine-readable output (stats)")
    p.set_defaults(run=_cmd_cache)
    # The demo parses its own options (python -m accel demo --help).
    p = sub.add_parser("demo", help="a statistics pipeline on every device, checked and timed "
                                    "beside NumPy", add_help=False)
    p.set_defaults(run=_cmd_demo)
    p = sub.add_parser("profile", help="run a script under the profiler (like cProfile): "
                                       "summary, advice, optional Chrome trace", add_help=False)
    p.set_defaults(run=_cmd_profile)
    p = sub.add_parser("bench", help="a short benchmark of this machine beside NumPy (and "
                                     "PyTorch/CuPy): bandwidth, overhead, matmul, GPU link",
                       add_help=False)
    p.set_defaults(run=_cmd_bench)
    args, rest = parser.parse_known_args(argv)
    if args.command not in ("demo", "profile", "bench") and rest:
        parser.error(f"unrecognized arguments: {' '.join(rest)}")
    args.demo_args = rest
    return args.run(args)


if __name__ == "__main__":
    sys.exit(main())
