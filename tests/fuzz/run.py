"""Differential fuzzer of accel against NumPy: the command line and the child processes.

    python3 tests/fuzz/run.py --programs 1000 --seed 0 --device cpu --fusion both --jobs 2

Programs run in child processes (worker.py), so a crash is reported with its seed and program.
Each failure is replayed, classified (fusion on/off only? gone when every value is computed at
once, i.e. a lazy-evaluation bug?), shrunk, and printed as a standalone Python reproducer. Exit
status 1 when anything failed.
"""

import argparse
import collections
import json
import os
import queue
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from generate import generate  # noqa: E402
from program import Program, to_python  # noqa: E402
from shrink import shrink  # noqa: E402

WORKER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "worker.py")


class Child:
    """A worker process; restarted after a crash or a hang."""

    def __init__(self, timeout, env=None):
        self.timeout = timeout
        self.env = env
        self.proc = None

    def start(self):
        self.stderr = tempfile.TemporaryFile()
        self.proc = subprocess.Popen([sys.executable, "-X", "faulthandler", WORKER],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=self.stderr, text=True, bufsize=1, env=self.env)
        self.lines = queue.Queue()
        threading.Thread(target=self._read, args=(self.proc, self.lines), daemon=True).start()

    @staticmethod
    def _read(proc, lines):
        for line in proc.stdout:
            lines.put(line)
        lines.put(None)

    def stop(self):
        if self.proc:
            self.proc.kill()
            self.proc.wait()
            self.proc = None

    def ask(self, req):
        """The child's reply, or {"crash": ...} / {"hang": ...} naming the run it died in."""
        if self.proc is None:
            self.start()
        self.proc.stdin.write(json.dumps(req) + "\n")
        self.proc.stdin.flush()
        running = None
        deadline = time.monotonic() + self.timeout
        while True:
            try:
                line = self.lines.get(timeout=max(deadline - time.monotonic(), 0.01))
            except queue.Empty:
                self.stop()
                return {"hang": f"no answer in {self.timeout} s", "running": running}
            if line is None:
                code = self.proc.wait()
                self.stderr.seek(0)
                tail = self.stderr.read().decode(errors="replace")[-3000:]
                self.proc = None
                return {"crash": f"exit status {code}", "running": running, "stderr": tail}
            msg = json.loads(line)
            if "running" in msg and "id" not in msg:
                running = msg["running"]
                continue
            return msg


def outcome(reply, mode):
    """'ok', 'invalid', 'unstable', 'mismatch', 'error', 'crash' or 'hang' for one run."""
    for k in ("invalid", "unstable", "internal"):
        if k in reply:
            return k, reply[k]
    for k in ("crash", "hang"):
        if k in reply:
            if reply["running"] is None or reply["running"] == (mode == "on"):
                return k, f"{reply[k]}\n{reply.get('stderr', '')}".strip()
            return "ok", ""  # died in the other mode's run, after this one passed
    v = reply["verdicts"].get(mode, {"verdict": "ok"})
    return v["verdict"], v.get("detail", "")


class Fuzzer:
    def __init__(self, args):
        self.args = args
        self.modes = {"both": [True, False], "on": [True], "off": [False]}[args.fusion]
        self.counts = collections.Counter()
        self.failures = []  # (seed, mode, kind, detail)
        self.internal = set()  # seeds whose program the fuzzer itself failed to make or run
        self.lock = threading.Lock()
        # --jit: the workers compile every fused kernel before it runs (worker.py counts failed
        # builds as errors), so the values come from the host-compiled code, not the interpreter.
        self.env = {**os.environ, "ACCEL_JIT_ALWAYS": "1"} if args.jit else None

    def request(self, **req):
        return {"fusion": self.modes, "device": self.args.device,
                "namespace": self.args.namespace, **req}

    def run_seeds(self, seeds):
        pending = queue.Queue()
        for s in seeds:
            pending.put(s)
        done = [0]
        start = time.monotonic()

        def work():
            child = Child(self.args.timeout, self.env)
            while True:
                try:
                    seed = pending.get_nowait()
                except queue.Empty:
                    break
                reply = child.ask(self.request(seed=seed, id=seed))
                if ("crash" in reply or "hang" in reply) and reply["running"] is True \
                        and False in self.modes:
                    # the fusion-off run never happened: run it alone
                    other = child.ask({**self.request(seed=seed, id=seed), "fusion": [False]})
                    reply = {**reply, "off": other}
                self.record(seed, reply)
                with self.lock:
                    done[0] += 1
                    if self.args.progress and done[0] % self.args.progress == 0:
                        print(f"  {done[0]} programs, {len(self.failures)} failures, "
                              f"{time.monotonic() - start:.0f} s: {dict(self.counts)}", flush=True)
            child.stop()

        threads = [threading.Thread(target=work) for _ in range(self.args.jobs)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()

    def record(self, seed, reply):
        with self.lock:
            self.counts["programs"] += 1
            if self.args.jit:
                self.counts["runs of compiled kernels"] += reply.get("compiled_runs", 0)
            for fusion in self.modes:
                mode = "on" if fusion else "off"
                r = reply["off"] if mode == "off" and "off" in reply else reply
                kind, detail = outcome(r, mode)
                if kind == "internal":
                    print(f"fuzzer error on seed {seed}:\n{detail}", file=sys.stderr)
                    self.internal.add(seed)
                self.counts[f"fusion {mode}: {kind}"] += 1
                if kind not in ("ok", "invalid", "unstable", "internal"):
                    self.failures.append((seed, mode, kind, detail))
                    if self.args.log:  # as they come: a long run can be read while it runs
                        with open(self.args.log, "a") as f:
                            f.write(json.dumps({"seed": seed, "fusion": mode, "kind": kind,
                                                "detail": detail}) + "\n")

    def self_inconsistent(self):
        """(seed, why) for each failure that is accel's own inconsistency: a crash or hang, a
        failure in one fusion mode only, or a mismatch that computing every value at once
        removes (a lazy-evaluation bug)."""
        by_seed = collections.defaultdict(dict)
        for seed, mode, kind, _ in self.failures:
            by_seed[seed][mode] = kind
        found = []
        child = Child(self.args.timeout, self.env)
        for seed, kinds in sorted(by_seed.items()):
            modes = ["on" if f else "off" for f in self.modes]
            if any(k in ("crash", "hang") for k in kinds.values()):
                found.append((seed, f"{kinds}"))
            elif len(set(kinds.get(m, "ok") for m in modes)) > 1:
                found.append((seed, f"fusion modes disagree: {kinds}"))
            else:
                mode, kind = next(iter(kinds.items()))
                if not self.same_failure(child, mode, kind, generate(seed), eager=True):
                    found.append((seed, f"{kind} with fusion {mode} is gone when each value is "
                                        f"computed at once: lazy evaluation"))
        child.stop()
        return found

    def same_failure(self, child, mode, kind, program, eager=False):
        reply = child.ask({"program": program.to_json(), "fusion": [mode == "on"],
                           "device": self.args.device, "eager": eager,
                           "namespace": self.args.namespace, "id": 0})
        return outcome(reply, mode)[0] == kind

    def explain(self, seed, mode, kind, detail):
        """Classifies and shrinks one failure; returns its report."""
        child = Child(self.args.timeout, self.env)
        program = generate(seed)
        tags = []
        other = "off" if mode == "on" else "on"
        if not self.same_failure(child, other, kind, program):
            tags.append(f"fusion {mode} only")
        if kind in ("mismatch", "error") and not self.same_failure(child, mode, kind, program,
                                                                    eager=True):
            tags.append("gone when each value is computed at once: lazy evaluation")
        small = shrink(program, lambda p: self.same_failure(child, mode, kind, p),
                       budget=self.args.shrink_budget)
        reply = child.ask({"program": small.to_json(), "fusion": [mode == "on"],
                           "device": self.args.device, "namespace": self.args.namespace,
                           "id": 0})
        child.stop()
        now_kind, now_detail = outcome(reply, mode)
        if self.args.jit:
            tags.append("compiled kernels: reproduce with ACCEL_JIT_ALWAYS=1")
        head = f"seed {seed}, fusion {mode}: {kind}" + (f" ({', '.join(tags)})" if tags else "")
        return (f"{head}\n  {detail.splitlines()[0] if detail else ''}\n"
                f"  shrunk from {len(program.stmts)} to {len(small.stmts)} statements: "
                f"{now_detail.splitlines()[0] if now_detail else now_kind}\n"
                + to_python(small, fusion=mode == "on", device=self.args.device,
                            namespace=self.args.namespace,
                            note=f"{kind}, replay: run.py --replay {seed} --fusion {mode}"))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--programs", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=0, help="first seed (seeds are consecutive)")
    ap.add_argument("--device", choices=["cpu", "cuda"], default="cpu")
    ap.add_argument("--fusion", choices=["both", "on", "off"], default="both")
    ap.add_argument("--namespace", choices=["accel", "numpy"], default="accel",
                    help="numpy: call NumPy's functions on accel arrays (its dispatch protocols)")
    ap.add_argument("--jit", action="store_true",
                    help="compile every fused CPU kernel with the host compiler before it runs "
                         "(ACCEL_JIT_ALWAYS=1): the compiled code is checked, not the interpreter")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=float, default=120, help="seconds per program")
    ap.add_argument("--shrink", type=int, default=5, help="failures to shrink and print")
    ap.add_argument("--shrink-budget", type=int, default=300, help="candidates per shrink")
    ap.add_argument("--progress", type=int, default=0, help="print progress every N programs")
    ap.add_argument("--replay", type=int, help="print the program of this seed and run it")
    ap.add_argument("--log", help="append each failure as a JSON line to this file")
    ap.add_argument("--fail-on", choices=["any", "self"], default="any",
                    help="any: every failure fails the run; self: only crashes, hangs and "
                         "failures where accel disagrees with itself (fusion on vs off, lazy vs "
                         "computed at once), which no rounding difference from NumPy explains")
    args = ap.parse_args(argv)

    if args.replay is not None:
        print(to_python(generate(args.replay), fusion=args.fusion != "off", device=args.device,
                        namespace=args.namespace))
        args.seed, args.programs = args.replay, 1

    fuzzer = Fuzzer(args)
    start = time.monotonic()
    fuzzer.run_seeds(range(args.seed, args.seed + args.programs))
    elapsed = time.monotonic() - start

    print(f"fuzz: {fuzzer.counts['programs']} programs (seeds {args.seed}.."
          f"{args.seed + args.programs - 1}), device {args.device}, fusion {args.fusion}, "
          f"{args.jobs} jobs{', compiled kernels' if args.jit else ''}, {elapsed:.1f} s")
    for key in sorted(k for k in fuzzer.counts if k != "programs"):
        print(f"  {key}: {fuzzer.counts[key]}")
    seen = set()
    for seed, mode, kind, detail in fuzzer.failures:
        print(f"FAIL seed {seed} fusion {mode}: {kind}: {detail.splitlines()[0] if detail else ''}")
    for seed, mode, kind, detail in fuzzer.failures:
        if len(seen) >= args.shrink or seed in seen:
            continue
        seen.add(seed)
        print("\n" + fuzzer.explain(seed, mode, kind, detail), flush=True)
    # A fuzzer error leaves its program untested: the run fails whatever --fail-on says.
    if fuzzer.internal:
        print(f"FUZZER ERROR (program not run; traceback on stderr): seeds {sorted(fuzzer.internal)}")
    if args.fail_on == "any":
        return 1 if fuzzer.failures or fuzzer.internal else 0
    own = fuzzer.self_inconsistent()
    for seed, why in own:
        print(f"SELF-INCONSISTENT seed {seed}: {why}")
    others = sorted({seed for seed, *_ in fuzzer.failures} - {seed for seed, _ in own})
    if others:
        print(f"differ from NumPy alike with fusion on, off and computed at once (for triage: "
              f"rounding boundaries or real differences): seeds {others}")
    return 1 if own or fuzzer.internal else 0


if __name__ == "__main__":
    sys.exit(main())
