"""The child process: runs programs on accel and NumPy, answering one JSON line per request.

A request is {"seed": S} (the generated program of seed S) or {"program": <json>}, with
"fusion": [true, false], "device": "cpu"|"cuda" and optionally "eager" and "namespace" ("accel", or "numpy": NumPy's
functions called on accel arrays). Before each accel run
the child prints {"running": fusion}, so that when it dies the parent knows the crashing run.
"""

import json
import os
import sys
import traceback

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import accel as ac  # noqa: E402
import numpy as np  # noqa: E402

from generate import generate  # noqa: E402
from oracle import Reference, Unstable, check  # noqa: E402
from program import Invalid, Program, run_accel, small_ops_at_once  # noqa: E402

# run.py --jit: every fused kernel is compiled before it runs; a kernel that fails to build is
# reported as an error of the program (it would have been interpreted silently).
JIT_ALWAYS = os.environ.get("ACCEL_JIT_ALWAYS", "") not in ("", "0")


def to_numpy(value):
    # Through NumPy's namespace, an expression of NumPy scalars alone stays a NumPy value.
    return value if isinstance(value, np.ndarray) else ac.asnumpy(value)


def handle(req):
    program = generate(req["seed"]) if "seed" in req else Program.from_json(req["program"])
    try:
        reference = Reference(program)
    except Invalid as e:
        return {"invalid": str(e)}
    except Unstable:
        return {"unstable": True}
    verdicts = {}
    compiled_runs = ac.jit_stats()["jit_runs"]
    for fusion in req["fusion"]:
        print(json.dumps({"running": fusion}), flush=True)
        ac.set_fusion(fusion)
        ac.set_eager_small(small_ops_at_once(fusion, program.seed))
        failed_builds = ac.jit_stats()["failures"]
        verdict = check(
            program, reference,
            lambda p: run_accel(p, ac, req.get("device", "cpu"), req.get("eager", False),
                                req.get("namespace", "accel")),
            to_numpy)
        if JIT_ALWAYS and ac.jit_stats()["failures"] > failed_builds:
            verdict = {"verdict": "error", "detail": "a fused kernel did not build with the host "
                       "compiler (ACCEL_DEBUG=1 prints the compiler's message)"}
        verdicts["on" if fusion else "off"] = verdict
    return {"verdicts": verdicts, "compiled_runs": ac.jit_stats()["jit_runs"] - compiled_runs}


def main():
    for line in sys.stdin:
        req = json.loads(line)
        try:
            reply = handle(req)
        except Exception:  # the fuzzer's own bug: reported as such, not as accel's crash
            reply = {"internal": traceback.format_exc()}
        reply["id"] = req.get("id")
        print(json.dumps(reply), flush=True)


if __name__ == "__main__":
    main()
