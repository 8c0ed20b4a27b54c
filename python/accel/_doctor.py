"""`python -m accel doctor` and `accel.doctor()`: is this environment sound for accel, and if not,
what exactly to change.

Facts are gathered once (`gather()`: the loaded libraries, the environment, the kernel cache's
directory); each check is a function of those facts alone and returns findings with a verdict
(ok, warning, error), the evidence, and the fix. Tests feed the checks broken environments as
data, and run the command in child processes with broken variables and directories."""

import dataclasses
import difflib
import glob
import hashlib
import json
import os
import re
import sys

OK, WARNING, ERROR = "ok", "warning", "error"

# Oldest Linux driver for each CUDA major (NVIDIA's CUDA compatibility table; minor-version
# compatibility lets any driver of the major's first release run later minors).
MIN_DRIVER_FOR_CUDA = {11: "450.80.02", 12: "525.60.13", 13: "580.65.06"}
# OpenBLAS kernel families that mean "did not recognise this CPU" on a machine with AVX2.
GENERIC_OPENBLAS_CORES = {"prescott", "core2", "penryn", "dunnington", "nehalem", "katmai",
                          "coppermine", "northwood", "banias", "atom", "opteron", "barcelona",
                          "generic", "x86_64"}
# Environment variables outside ACCEL_* that change how many threads the libraries start.
THREAD_VARIABLES = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")
# Kernel cache entries checked for damage, at most (each is read and hashed).
CACHE_ENTRIES_CHECKED = 2000


@dataclasses.dataclass
class Finding:
    check: str
    verdict: str
    summary: str
    evidence: str = ""
    fix: str = ""


# ---- facts ------------------------------------------------------------------------------------

def _safely(fn):
    """A fact that cannot be gathered becomes {"failed": why}: the doctor reports, never raises."""
    try:
        return fn()
    except Exception as e:  # noqa: BLE001 - any failure here is itself a finding
        return {"failed": f"{type(e).__name__}: {e}"}


def _cuda_facts():
    from . import cuda
    driver = {"found": False, "error": cuda.unavailable_reason()}
    if not driver["error"]:
        driver = {"found": True, **cuda.driver_info()}
    why = cuda.nvrtc_unavailable_reason()
    nvrtc = {"found": False, "error": why} if why else {"found": True, **cuda.nvrtc_info()}
    why = cuda.cublas_unavailable_reason()
    cublas = {"found": False, "error": why} if why else {"found": True, **cuda.cublas_info()}
    libraries = {}
    for name in ("cufft", "cusolver"):  # accel.fft and accel.linalg on CUDA arrays
        why = getattr(cuda, name + "_unavailable_reason")()
        libraries[name] = ({"found": False, "error": why} if why
                           else {"found": True, **getattr(cuda, name + "_info")()})
    devices = []
    if driver["found"]:
        for i in range(cuda.device_count()):
            p = cuda.get_device_properties(i)
            devices.append({"index": i, "name": p["name"],
                            "compute_capability": "%d.%d" % p["compute_capability"]})
    return {"driver": driver, "nvrtc": nvrtc, "cublas": cublas, **libraries, "devices": devices}


def _library_files(pattern_dirs, name):
    out = []
    for d in pattern_dirs:
        out += sorted(glob.glob(os.path.join(d, name)))
    return out


def _cuda_wheel_and_toolkit_libraries():
    """NVRTC libraries from pip's nvidia-* wheels and from CUDA toolkits, by file."""
    wheel_dirs = []
    for p in sys.path:
        wheel_dirs += glob.glob(os.path.join(p, "nvidia", "*", "lib"))
    toolkit_dirs = [os.path.join(d, "lib64") for d in sorted(glob.glob("/usr/local/cuda*"))
                    if not os.path.islink(d)]
    return {"wheels": _library_files(wheel_dirs, "libnvrtc.so.*"),
            "toolkits": _library_files(toolkit_dirs, "libnvrtc.so.*")}


def _cpu_flags():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("flags"):
                    return sorted(set(line.split(":", 1)[1].split()))
    except OSError:
        pass
    return []


def _lapack_symbol(blas_path):
    """A LAPACK routine the BLAS library exports (OpenBLAS carries LAPACK), or None."""
    import ctypes
    if not blas_path:
        return None
    lib = ctypes.CDLL(blas_path)
    for name in ("dgesv_", "dgesv_64_", "scipy_dgesv_64_", "LAPACKE_dgesv", "scipy_LAPACKE_dgesv64_"):
        if hasattr(lib, name):
            return name
    return None


def _cache_facts():
    from . import _core
    s = _core.kernel_cache_stats()
    d = s["dir"]
    facts = {"dir": d, "entries": s["entries"], "bytes": s["bytes"], "max_bytes": s["max_bytes"],
             "exists": os.path.isdir(d), "uid": os.getuid()}
    if facts["exists"]:
        st = os.stat(d)
        facts.update(mode=st.st_mode & 0o777, owner_uid=st.st_uid,
                     writable=os.access(d, os.W_OK | os.X_OK))
        facts["damaged"], facts["checked"] = _damaged_cache_entries(d)
    return facts


def _damaged_cache_entries(d):
    """Entries whose payload does not match the SHA-256 in their meta file (the C++ cache
    deletes such an entry when it meets it; this finds them without loading anything)."""
    damaged, checked = [], 0
    for meta in glob.iglob(os.path.join(d, "??", "*", "meta")):
        if checked >= CACHE_ENTRIES_CHECKED:
            break
        checked += 1
        try:
            with open(meta) as f:
                want = re.search(r"^sha256 ([0-9a-f]{64})$", f.read(), re.M)
            with open(os.path.join(os.path.dirname(meta), "payload"), "rb") as f:
                got = hashlib.sha256(f.read()).hexdigest()
        except OSError:
            continue  # removed meanwhile by another process
        if not want or want.group(1) != got:
            damaged.append(os.path.dirname(meta))
    return damaged, checked


def gather():
    """Everything the checks look at, as plain data."""
    from . import _core, _info
    env_names = [n for n in os.environ if n.startswith("ACCEL_")] + [
        "LD_LIBRARY_PATH", "LIBRARY_PATH", "OPENBLAS_CORETYPE", *THREAD_VARIABLES]
    blas = _safely(_core._blas_info)
    return {
        "env": {n: os.environ[n] for n in env_names if n in os.environ},
        "config": _safely(_info.config_section),
        "cuda": _safely(_cuda_facts),
        "gpu_device_nodes": sorted(glob.glob("/dev/nvidia[0-9]*")),
        "cuda_libraries": _safely(_cuda_wheel_and_toolkit_libraries),
        "jit": _safely(_core.jit_stats),
        "blas": blas,
        "lapack_symbol": _safely(lambda: _lapack_symbol(blas.get("path"))),
        "cpu_flags": _cpu_flags(),
        "cores_usable": len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity")
        else os.cpu_count(),
        "threads": _safely(_core.num_threads),
        "cache": _safely(_cache_facts),
    }


# ---- checks -----------------------------------------------------------------------------------

def _failed(check, fact):
    if isinstance(fact, dict) and "failed" in fact:
        return [Finding(check, ERROR, "could not be examined", fact["failed"],
                        "report this with the output of `python -m accel info`")]
    return None


def check_environment(f):
    if (bad := _failed("environment", f["config"])):
        return bad
    known = {e["name"] for e in f["config"]}
    out = []
    for e in f["config"]:
        if e["problem"]:
            out.append(Finding("environment", ERROR, f"{e['name']} is malformed", e["problem"],
                               f"set {e['name']} to a valid value ({e['meaning']}), or unset it"))
    for name in sorted(n for n in f["env"] if n.startswith("ACCEL_") and n not in known):
        close = difflib.get_close_matches(name, sorted(known), n=1, cutoff=0.6)
        out.append(Finding(
            "environment", WARNING, f"{name} is not a variable accel reads",
            f"{name}={f['env'][name]!r}; accel reads {len(known)} ACCEL_* variables "
            "(python -m accel info lists them)",
            f"did you mean {close[0]}? rename it" if close else f"unset {name}"))
    return out or [Finding("environment", OK, "every ACCEL_* variable set is known and well-formed",
                           ", ".join(f"{n}={v}" for n, v in f["env"].items() if n.startswith("ACCEL_"))
                           or "none set")]


def _stub_dirs(path_list):
    return [d for d in path_list.split(":") if d and "stub" in d
            and glob.glob(os.path.join(d, "libcuda.so*"))]


def _major(version):
    m = re.match(r"(\d+)", str(version or ""))
    return int(m.group(1)) if m else None


def check_driver(f):
    if (bad := _failed("driver", f["cuda"])):
        return bad
    out = []
    for d in _stub_dirs(f["env"].get("LD_LIBRARY_PATH", "")):
        loads = bool(glob.glob(os.path.join(d, "libcuda.so.1")))
        out.append(Finding(
            "driver", ERROR if loads else WARNING,
            "the CUDA toolkit's stub libcuda is on LD_LIBRARY_PATH",
            f"{d} holds {', '.join(os.path.basename(p) for p in glob.glob(os.path.join(d, 'libcuda.so*')))}"
            + ("; the loader finds it before the driver's, and every CUDA call then fails" if loads
               else "; a program that loads libcuda.so (not .so.1) gets the stub"),
            f"remove {d} from LD_LIBRARY_PATH (stubs are for linking only)"))
    for d in _stub_dirs(f["env"].get("LIBRARY_PATH", "")):
        # The linker's path, not the loader's: a hazard for the user's own -lcuda programs only.
        out.append(Finding(
            "driver", OK, "LIBRARY_PATH has the CUDA toolkit's stub libcuda (for linking only)",
            f"{d}: programs linked with -lcuda here fail when they start without a driver; accel "
            "loads the driver at run time and is not affected"))
    c = f["cuda"]
    driver, nvrtc, cublas = c["driver"], c["nvrtc"], c["cublas"]
    if not driver["found"]:
        if f["gpu_device_nodes"]:
            out.append(Finding(
                "driver", ERROR, "an NVIDIA GPU is present but its driver library cannot be loaded",
                f"{', '.join(f['gpu_device_nodes'])} exist; {driver['error'].splitlines()[0]}",
                "install the NVIDIA driver's user-space libraries (libcuda.so.1) matching the kernel "
                "module, or start the container with the NVIDIA Container Toolkit (--gpus all)"))
        else:
            out.append(Finding("driver", OK, "no NVIDIA GPU or driver here: accel runs on the CPU",
                               driver["error"].splitlines()[0]))
        return out
    if "stub" in driver["path"]:
        out.append(Finding("driver", ERROR, "the driver library loaded is the toolkit's stub",
                           f"libcuda from {driver['path']}",
                           "remove the toolkit's stubs directory from LD_LIBRARY_PATH"))
    dmaj = _major(driver["version"])
    evidence = f"driver {driver['path']} supports CUDA {driver['version']}"
    if nvrtc["found"]:
        nmaj = _major(nvrtc["version"])
        evidence += f"; NVRTC {nvrtc['version']} from {nvrtc['path']}"
        if dmaj is not None and nmaj is not None and nmaj > dmaj:
            out.append(Finding(
                "driver", ERROR, f"NVRTC {nvrtc['version']} is newer than the driver (CUDA {driver['version']})",
                evidence + ": the driver cannot load the code this NVRTC produces",
                f"install a driver for CUDA {nmaj} (>= {MIN_DRIVER_FOR_CUDA.get(nmaj, 'the newest')}), "
                f"or use an NVRTC {dmaj}.x: pip install nvidia-cuda-nvrtc-cu{dmaj} and set "
                "ACCEL_NVRTC_PATH to its lib directory"))
    else:
        out.append(Finding("driver", ERROR, "no NVRTC: arrays can live on the GPU but no kernel compiles",
                           nvrtc["error"].splitlines()[0],
                           "pip install nvidia-cuda-nvrtc (matching the driver's CUDA major), "
                           "or install the CUDA toolkit, or set ACCEL_NVRTC_PATH"))
    if cublas["found"] and dmaj is not None and (_major(cublas["version"]) or 0) > dmaj:
        out.append(Finding(
            "driver", WARNING, f"cuBLAS {cublas['version']} is newer than the driver",
            f"{cublas['path']}; driver CUDA {driver['version']}: float matmul uses accel's own kernel",
            f"pip install nvidia-cublas-cu{dmaj} and set ACCEL_CUBLAS_PATH, or update the driver"))
    for name, label, what, package in (
            ("cufft", "cuFFT", "accel.fft", "nvidia-cufft"),
            ("cusolver", "cuSOLVER", "accel.linalg's factorisations", "nvidia-cusolver")):
        lib = c.get(name)
        if lib is not None and not lib["found"]:
            out.append(Finding(
                "driver", WARNING, f"no {label}: {what} refuse CUDA arrays (BackendUnavailable)",
                lib["error"].splitlines()[0],
                f"pip install {package} (matching the driver's CUDA major), or install the CUDA "
                f"toolkit, or set ACCEL_{name.upper()}_PATH"))
    if not [x for x in out if x.verdict != OK]:
        out.append(Finding("driver", OK, f"driver CUDA {driver['version']} can run what NVRTC builds",
                           evidence))
    return out


def check_gpu_targets(f):
    if (bad := _failed("gpu targets", f["cuda"])):
        return bad
    c = f["cuda"]
    if not c["devices"] or not c["nvrtc"]["found"]:
        return []
    archs = [int(a[3:]) for a in c["nvrtc"]["archs"] if a.startswith("sm_")]
    out = []
    for d in c["devices"]:
        major, minor = map(int, d["compute_capability"].split("."))
        sm = major * 10 + minor
        where = f"cuda:{d['index']} {d['name']}, compute capability {d['compute_capability']}; " \
                f"NVRTC {c['nvrtc']['version']} targets sm_{min(archs)}..sm_{max(archs)}"
        if sm in archs:
            out.append(Finding("gpu targets", OK, f"cuda:{d['index']} gets native code (CUBIN sm_{sm})",
                               where))
        elif sm > max(archs):
            out.append(Finding(
                "gpu targets", WARNING, f"cuda:{d['index']} is newer than this NVRTC knows",
                where + f": kernels are built as PTX for compute_{max(archs)} and JIT-compiled by "
                "the driver at first launch (slower first runs, older code generation)",
                "use a newer NVRTC (pip install nvidia-cuda-nvrtc, or a newer toolkit)"))
        else:
            out.append(Finding(
                "gpu targets", ERROR, f"this NVRTC cannot build code for cuda:{d['index']}",
                where, f"use an NVRTC old enough to target sm_{sm} (CUDA 12.x targets sm_50 and "
                "newer): pip install nvidia-cuda-nvrtc-cu12 and set ACCEL_NVRTC_PATH"))
    return out


def check_cuda_libraries(f):
    libs = f["cuda_libraries"]
    if (bad := _failed("cuda libraries", libs)):
        return bad
    if not (libs["wheels"] and libs["toolkits"]):
        return []
    loaded = f["cuda"].get("nvrtc", {}).get("path") if "failed" not in f["cuda"] else None
    versions = {os.path.realpath(p) for p in libs["wheels"] + libs["toolkits"]}
    return [Finding(
        "cuda libraries", WARNING, "NVRTC comes from both pip wheels and a CUDA toolkit",
        f"wheels: {', '.join(libs['wheels'])}; toolkits: {', '.join(libs['toolkits'])}; "
        f"accel loaded {loaded or 'none'} ({len(versions)} distinct files)",
        "choose one explicitly with ACCEL_NVRTC_PATH (a file or directory), or uninstall the "
        "wheels you do not use (pip uninstall nvidia-cuda-nvrtc-cu12 ...)")]


def check_host_compiler(f):
    if (bad := _failed("host compiler", f["jit"])):
        return bad
    j = f["jit"]
    if j["compiler"].startswith("no C++ compiler"):
        return [Finding(
            "host compiler", ERROR, "no C++ compiler for CPU kernels",
            j["compiler"] + ": fused expressions run on the interpreter (several times slower) "
            "and RawKernel, ElementwiseKernel and accel.jit cannot run on the CPU",
            "install one (apt-get install g++, or clang++), or name it with ACCEL_CXX")]
    if not j["enabled"]:
        return [Finding("host compiler", WARNING, "compiling fused CPU kernels is switched off",
                        f"ACCEL_JIT={f['env'].get('ACCEL_JIT', '(set by accel.set_jit_enabled)')}; "
                        f"compiler {j['compiler']}", "unset ACCEL_JIT")]
    return [Finding("host compiler", OK, "fused and user kernels compile for the CPU", j["compiler"])]


def check_blas(f):
    b = f["blas"]
    if (bad := _failed("blas", b)):
        return bad
    if not b["loaded"]:
        return [Finding(
            "blas", WARNING, "no BLAS: matmul runs accel's own loops (several times slower)",
            b["problem"] + "".join(f"; not used: {a}" for a in b["attempts"]),
            "pip install numpy (accel uses the OpenBLAS NumPy bundles), or apt-get install "
            "libopenblas0-pthread, or point ACCEL_BLAS_PATH at a BLAS")]
    evidence = f"{b['config'] or 'a BLAS'} from {b['path']}; core {b['core'] or 'unknown'}, " \
               f"{b['threads'] or 'unknown'} threads"
    lapack = f["lapack_symbol"]
    evidence += f"; LAPACK: {lapack}" if isinstance(lapack, str) else "; no LAPACK symbols in it"
    flags = set(f["cpu_flags"])
    want = "SkylakeX" if "avx512f" in flags else "Haswell" if "avx2" in flags else None
    if want and b["core"] and b["core"].lower() in GENERIC_OPENBLAS_CORES:
        return [Finding(
            "blas", WARNING, f"OpenBLAS did not recognise this CPU and runs its {b['core']} kernels",
            evidence + f"; the CPU has {'AVX-512' if want == 'SkylakeX' else 'AVX2'}: "
            "matmul runs several times below what the CPU can do",
            f"export OPENBLAS_CORETYPE={want} before starting Python (or use NumPy's bundled "
            "OpenBLAS, which is newer)")]
    return [Finding("blas", OK, "a BLAS is loaded", evidence)]


def check_threads(f):
    if (bad := _failed("threads", f["threads"])) or (bad := _failed("threads", f["blas"])):
        return bad
    cores = f["cores_usable"]
    out = []
    if f["threads"] > cores:
        out.append(Finding("threads", WARNING, "more accel threads than usable cores",
                           f"accel uses {f['threads']} threads on {cores} usable cores: threads "
                           "wait for each other", f"set ACCEL_NUM_THREADS={cores} or lower"))
    blas_threads = f["blas"].get("threads") or 0
    if blas_threads > cores:
        out.append(Finding("threads", WARNING, "more BLAS threads than usable cores",
                           f"the BLAS starts {blas_threads} threads on {cores} usable cores",
                           f"set OPENBLAS_NUM_THREADS={cores}"))
    for name in THREAD_VARIABLES:
        v = f["env"].get(name, "")
        if v.isdigit() and int(v) > cores:
            out.append(Finding("threads", WARNING, f"{name} asks for more threads than usable cores",
                               f"{name}={v} on {cores} usable cores", f"set {name}={cores} or lower"))
    return out or [Finding("threads", OK, "thread counts fit the cores",
                           f"{cores} usable cores; accel {f['threads']} threads; BLAS "
                           f"{blas_threads or 'unknown'} threads (the BLAS threads a large product "
                           "itself; accel's pool runs batches of small ones, one per thread)")]


def check_kernel_cache(f):
    c = f["cache"]
    if (bad := _failed("kernel cache", c)):
        return bad
    where = f"{c['dir']}"
    if not c["exists"]:
        return [Finding("kernel cache", OK, "the kernel cache will be created on first compile",
                        where + " does not exist yet (accel creates it private, mode 0700)")]
    out = []
    mode = c["mode"]
    if c["owner_uid"] != c["uid"]:
        out.append(Finding("kernel cache", ERROR, "the kernel cache belongs to another user",
                           f"{where} is owned by uid {c['owner_uid']}, you are uid {c['uid']}: "
                           "accel loads compiled libraries from it",
                           "set ACCEL_CACHE_DIR to a directory of your own"))
    if mode & 0o022:
        out.append(Finding("kernel cache", ERROR, "others can write into the kernel cache",
                           f"{where} has mode {mode:04o}: anyone who can write there can plant a "
                           "library that accel loads and runs", f"chmod 700 {c['dir']}"))
    elif mode & 0o077:
        out.append(Finding("kernel cache", WARNING, "the kernel cache is readable by others",
                           f"{where} has mode {mode:04o}: your kernels' source-derived binaries "
                           "are visible to other users", f"chmod 700 {c['dir']}"))
    if not c["writable"]:
        out.append(Finding("kernel cache", ERROR, "the kernel cache is not writable",
                           f"{where}: every kernel compiles again in every process",
                           "set ACCEL_CACHE_DIR to a writable directory"))
    if c["bytes"] > 0.9 * c["max_bytes"]:
        out.append(Finding("kernel cache", WARNING, "the kernel cache is at its size cap",
                           f"{c['bytes'] / 2**20:.1f} MiB of {c['max_bytes'] / 2**20:.1f} MiB: "
                           "older kernels are evicted and compiled again",
                           "raise ACCEL_CACHE_MAX_BYTES"))
    if c["damaged"]:
        out.append(Finding("kernel cache", WARNING, f"{len(c['damaged'])} damaged kernel cache entries",
                           f"payloads that do not match their SHA-256 (of {c['checked']} checked), "
                           f"e.g. {c['damaged'][0]}; accel never loads them, and deletes them when met",
                           "python -m accel cache clear"))
    return out or [Finding("kernel cache", OK, "the kernel cache is private, writable and sound",
                           f"{where}: {c['entries']} entries, {c['bytes'] / 2**20:.1f} MiB of "
                           f"{c['max_bytes'] / 2**30:.1f} GiB, {c['checked']} checked")]


CHECKS = (check_environment, check_driver, check_gpu_targets, check_cuda_libraries,
          check_host_compiler, check_blas, check_threads, check_kernel_cache)


def diagnose(facts):
    return [finding for check in CHECKS for finding in check(facts)]


# ---- reports ----------------------------------------------------------------------------------

def counts(findings):
    return (sum(x.verdict == ERROR for x in findings), sum(x.verdict == WARNING for x in findings))


def format_text(findings):
    errors, warnings = counts(findings)
    lines = [f"accel doctor: {errors} error{'s' * (errors != 1)}, "
             f"{warnings} warning{'s' * (warnings != 1)}"]
    for x in findings:
        lines.append(f"  {x.verdict:8s} {x.check:15s} {x.summary}")
        if x.evidence:
            lines.append(f"  {'':8s} {'':15s}   evidence: {x.evidence}")
        if x.fix and x.verdict != OK:
            lines.append(f"  {'':8s} {'':15s}   fix: {x.fix}")
    return "\n".join(lines)


def format_json(findings):
    errors, warnings = counts(findings)
    return json.dumps({"errors": errors, "warnings": warnings,
                       "findings": [dataclasses.asdict(x) for x in findings]}, indent=2)


def doctor(*, quiet=False):
    """Checks this environment for accel and prints the findings (verdict, evidence, fix).
    Returns the list of findings; `python -m accel doctor` exits non-zero when one is an error."""
    findings = diagnose(gather())
    if not quiet:
        print(format_text(findings))
    return findings
