"""`python -m accel doctor`: each check fed a broken environment as data (the facts gather()
collects), and the command run in child processes with broken variables and directories."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import accel
from accel import _doctor

PYTHON_DIR = str(Path(accel.__file__).resolve().parents[1])


def healthy():
    """A sound machine with one H100, as gather() would describe it."""
    return {
        "env": {},
        "config": [{"name": "ACCEL_FUSION", "kind": "flag", "meaning": "fuse", "value": None,
                    "problem": None},
                   {"name": "ACCEL_NUM_THREADS", "kind": "number", "meaning": "threads",
                    "value": None, "problem": None}],
        "cuda": {"driver": {"found": True, "path": "/usr/lib/x86_64-linux-gnu/libcuda.so.1",
                            "version": "13.0", "device_count": 1},
                 "nvrtc": {"found": True, "path": "/usr/local/cuda/lib64/libnvrtc.so.13",
                           "version": "13.0", "archs": ["sm_75", "sm_80", "sm_90", "sm_100"],
                           "include_dir": "/usr/local/cuda/include"},
                 "cublas": {"found": True, "path": "/usr/local/cuda/lib64/libcublas.so.13",
                            "version": "13.1.0"},
                 "devices": [{"index": 0, "name": "NVIDIA H100", "compute_capability": "9.0"}]},
        "gpu_device_nodes": ["/dev/nvidia0"],
        "cuda_libraries": {"wheels": [], "toolkits": ["/usr/local/cuda-13.0/lib64/libnvrtc.so.13"]},
        "jit": {"compiler": "c++: c++ (Debian 12.2.0) 12.2.0", "enabled": True},
        "blas": {"loaded": True, "path": "/x/libopenblas.so.0", "config": "OpenBLAS 0.3.21",
                 "core": "Haswell", "threads": 2, "problem": "", "attempts": []},
        "lapack_symbol": "dgesv_",
        "cpu_flags": ["avx", "avx2", "fma", "sse4_2"],
        "cores_usable": 2,
        "threads": 2,
        "cache": {"dir": "/home/u/.cache/accel", "entries": 3, "bytes": 4096,
                  "max_bytes": 1 << 30, "exists": True, "uid": 1000, "owner_uid": 1000,
                  "mode": 0o700, "writable": True, "damaged": [], "checked": 3},
    }


def only(facts, check):
    found = check(facts)
    assert len(found) == 1, found
    return found[0]


def test_a_healthy_machine_has_no_warnings_or_errors():
    findings = _doctor.diagnose(healthy())
    assert {x.verdict for x in findings} == {"ok"}, _doctor.format_text(findings)
    checks = {x.check for x in findings}
    assert {"environment", "driver", "gpu targets", "host compiler", "blas", "threads",
            "kernel cache"} <= checks


def test_misspelled_and_malformed_variables():
    f = healthy()
    f["env"] = {"ACCEL_FUSOIN": "0"}
    x = only(f, _doctor.check_environment)
    assert x.verdict == "warning" and "ACCEL_FUSOIN" in x.summary and "ACCEL_FUSION" in x.fix
    f["config"][1]["value"], f["config"][1]["problem"] = "four", "[config] ACCEL_NUM_THREADS='four' is not a non-negative integer"
    f["env"] = {"ACCEL_NUM_THREADS": "four"}
    x = only(f, _doctor.check_environment)
    assert x.verdict == "error" and "'four'" in x.evidence and "ACCEL_NUM_THREADS" in x.fix


def test_driver_older_than_nvrtc_names_the_driver_and_the_nvrtc_to_use():
    f = healthy()
    f["cuda"]["driver"]["version"] = "12.4"
    found = _doctor.check_driver(f)
    errors = [x for x in found if x.verdict == "error"]
    assert len(errors) == 1
    x = errors[0]
    assert "NVRTC 13.0" in x.summary and "12.4" in x.summary
    assert "580" in x.fix and "nvidia-cuda-nvrtc-cu12" in x.fix and "ACCEL_NVRTC_PATH" in x.fix
    warnings = [x for x in found if x.verdict == "warning"]
    assert warnings and "cuBLAS 13.1.0" in warnings[0].summary and "cu12" in warnings[0].fix


def test_gpu_without_a_loadable_driver_is_an_error_and_no_gpu_is_fine():
    f = healthy()
    f["cuda"]["driver"] = {"found": False, "error": "[cuda] libcuda.so.1 was not found\nmore"}
    x = only(f, _doctor.check_driver)
    assert x.verdict == "error" and "/dev/nvidia0" in x.evidence and "driver" in x.fix
    f["gpu_device_nodes"] = []
    assert only(f, _doctor.check_driver).verdict == "ok"


def test_stub_libcuda_on_the_loader_path(tmp_path):
    stubs = tmp_path / "cuda" / "lib64" / "stubs"
    stubs.mkdir(parents=True)
    (stubs / "libcuda.so").write_bytes(b"")
    f = healthy()
    f["env"]["LD_LIBRARY_PATH"] = f"/opt/x:{stubs}"
    x = [x for x in _doctor.check_driver(f) if "stub" in x.summary][0]
    assert x.verdict == "warning" and str(stubs) in x.fix
    (stubs / "libcuda.so.1").write_bytes(b"")  # now the loader would pick it for libcuda.so.1
    x = [x for x in _doctor.check_driver(f) if "stub" in x.summary][0]
    assert x.verdict == "error"
    f["env"] = {"LIBRARY_PATH": str(stubs)}  # the linker's path only: not accel's problem
    assert {x.verdict for x in _doctor.check_driver(f)} == {"ok"}
    f["cuda"]["driver"]["path"] = str(stubs / "libcuda.so.1")
    assert "stub" in [x for x in _doctor.check_driver(f) if x.verdict == "error"][0].summary


def test_gpu_targets_cubin_ptx_jit_and_too_old():
    f = healthy()
    assert "CUBIN sm_90" in only(f, _doctor.check_gpu_targets).summary
    f["cuda"]["devices"][0]["compute_capability"] = "12.1"
    x = only(f, _doctor.check_gpu_targets)
    assert x.verdict == "warning" and "compute_100" in x.evidence
    f["cuda"]["devices"][0]["compute_capability"] = "6.1"
    x = only(f, _doctor.check_gpu_targets)
    assert x.verdict == "error" and "sm_61" in x.fix


def test_pip_wheels_beside_a_toolkit():
    f = healthy()
    f["cuda_libraries"]["wheels"] = ["/venv/site-packages/nvidia/cuda_nvrtc/lib/libnvrtc.so.12"]
    x = only(f, _doctor.check_cuda_libraries)
    assert x.verdict == "warning" and "libnvrtc.so.12" in x.evidence and "ACCEL_NVRTC_PATH" in x.fix
    assert "libnvrtc.so.13" in x.evidence


def test_no_host_compiler_and_jit_off():
    f = healthy()
    f["jit"]["compiler"] = "no C++ compiler found (set ACCEL_CXX)"
    x = only(f, _doctor.check_host_compiler)
    assert x.verdict == "error" and "ACCEL_CXX" in x.fix and "RawKernel" in x.evidence
    f = healthy()
    f["jit"]["enabled"] = False
    f["env"]["ACCEL_JIT"] = "0"
    x = only(f, _doctor.check_host_compiler)
    assert x.verdict == "warning" and "ACCEL_JIT=0" in x.evidence


def test_blas_missing_and_misdetected_core():
    f = healthy()
    f["blas"] = {"loaded": False, "problem": "disabled by ACCEL_BLAS_PATH=none", "attempts": []}
    x = only(f, _doctor.check_blas)
    assert x.verdict == "warning" and "ACCEL_BLAS_PATH=none" in x.evidence
    f = healthy()
    f["blas"]["core"] = "Prescott"
    x = only(f, _doctor.check_blas)
    assert x.verdict == "warning" and "OPENBLAS_CORETYPE=Haswell" in x.fix
    f["cpu_flags"].append("avx512f")
    assert "OPENBLAS_CORETYPE=SkylakeX" in only(f, _doctor.check_blas).fix
    f["cpu_flags"] = ["sse2"]  # an old CPU: Prescott is right for it
    assert only(f, _doctor.check_blas).verdict == "ok"


def test_oversubscribed_threads():
    f = healthy()
    f["threads"], f["blas"]["threads"], f["env"]["OMP_NUM_THREADS"] = 8, 16, "32"
    found = _doctor.check_threads(f)
    assert [x.verdict for x in found] == ["warning"] * 3
    assert "ACCEL_NUM_THREADS=2" in found[0].fix and "OPENBLAS_NUM_THREADS=2" in found[1].fix
    assert "OMP_NUM_THREADS" in found[2].summary


@pytest.mark.parametrize("mode,verdict,words", [
    (0o777, "error", "others can write"), (0o755, "warning", "readable by others")])
def test_kernel_cache_modes(mode, verdict, words):
    f = healthy()
    f["cache"]["mode"] = mode
    x = only(f, _doctor.check_kernel_cache)
    assert x.verdict == verdict and words in x.summary and "chmod 700" in x.fix


def test_kernel_cache_foreign_full_unwritable_damaged():
    f = healthy()
    c = f["cache"]
    c.update(owner_uid=0, writable=False, bytes=(1 << 30) - 1,
             damaged=["/home/u/.cache/accel/ab/abcd"], checked=3)
    found = {x.summary: x for x in _doctor.check_kernel_cache(f)}
    assert any("another user" in s for s in found)
    assert any("not writable" in s for s in found)
    assert any("size cap" in s for s in found)
    damaged = [x for s, x in found.items() if "damaged" in s][0]
    assert "cache clear" in damaged.fix and "abcd" in damaged.evidence


def test_a_fact_that_cannot_be_gathered_is_reported_not_raised():
    f = healthy()
    f["blas"] = {"failed": "OSError: boom"}
    x = only(f, _doctor.check_blas)
    assert x.verdict == "error" and "boom" in x.evidence


# ---- the command, in child processes ----------------------------------------------------------

def doctor_json(tmp_path, **env):
    full = {**os.environ, "PYTHONPATH": PYTHON_DIR, "ACCEL_CACHE_DIR": str(tmp_path / "cache"),
            **env}
    r = subprocess.run([sys.executable, "-m", "accel", "doctor", "--json"], env=full,
                       capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert r.stderr == "", r.stderr
    return r.returncode, json.loads(r.stdout)


def findings_of(report, check):
    return [x for x in report["findings"] if x["check"] == check]


def test_this_machine_as_it_is(tmp_path):
    code, report = doctor_json(tmp_path)
    assert code == (1 if report["errors"] else 0)
    assert {x["check"] for x in report["findings"]} >= {"environment", "host compiler", "blas",
                                                        "threads", "kernel cache"}
    # A fresh cache directory: accel creates it private (the doctor's own look at the host
    # compiler may already have), so it is sound.
    assert [x["verdict"] for x in findings_of(report, "kernel cache")] == ["ok"]
    cache = tmp_path / "cache"
    assert not cache.exists() or (cache.stat().st_mode & 0o777) == 0o700


def test_command_reports_a_malformed_variable_and_exits_1(tmp_path):
    code, report = doctor_json(tmp_path, ACCEL_NUM_THREADS="four", ACCEL_FUSOIN="1")
    assert code == 1
    env = findings_of(report, "environment")
    assert [x["verdict"] for x in env] == ["error", "warning"]
    assert "ACCEL_FUSION" in env[1]["fix"]


def test_command_reports_a_world_writable_cache_with_a_damaged_entry(tmp_path):
    cache = tmp_path / "cache"
    entry = cache / "ab" / ("ab" + "0" * 62)
    entry.mkdir(parents=True)
    (entry / "payload").write_bytes(b"not what was stored")
    (entry / "meta").write_text("accel-kernel-cache 1\nsha256 " + "0" * 64 + "\nsize 19\n")
    os.chmod(cache, 0o777)
    code, report = doctor_json(tmp_path)
    assert code == 1
    cache_findings = {x["summary"]: x for x in findings_of(report, "kernel cache")}
    assert any("others can write" in s for s in cache_findings)
    assert any("1 damaged" in s for s in cache_findings)


def test_command_reports_a_missing_compiler(tmp_path):
    code, report = doctor_json(tmp_path, ACCEL_CXX=str(tmp_path / "no-such-compiler"))
    x = findings_of(report, "host compiler")[0]
    assert code == 1 and x["verdict"] == "error" and "ACCEL_CXX" in x["fix"]


def test_text_report_and_python_api(capsys):
    findings = accel.doctor()
    out = capsys.readouterr().out
    assert out.startswith("accel doctor: ") and all(x.check in out for x in findings)
