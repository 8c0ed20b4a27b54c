"""The C++ library's layers (docs/ARCHITECTURE.md, "Layers"): every #include in accel/ names a
header of its own layer or of a layer below it, so data flows down and nothing includes up.
The CPU and CUDA backends share code only through backend/common/."""

import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parents[2] / "accel"

# Bottom to top. accel.h (the umbrella) sits above everything.
LAYERS = ["runtime", "core", "device_src", "ir", "codegen", "backend", "eval", "ops", "kernels"]
INCLUDE = re.compile(r'^\s*#\s*include\s+"accel/([^"]+)"', re.M)


def layer_of(path):
    """The layer of a path relative to accel/, and for backend/ its part (common, cpu, cuda)."""
    parts = pathlib.PurePosixPath(path).parts
    if len(parts) == 1:
        return len(LAYERS), None  # accel.h
    part = parts[1] if parts[0] == "backend" and len(parts) > 2 else None
    return LAYERS.index(parts[0]), part


def sources():
    return sorted(p for p in ROOT.rglob("*") if p.suffix in {".h", ".cpp", ".def", ".cuh"})


def test_every_directory_is_a_known_layer():
    for p in sources():
        rel = p.relative_to(ROOT).as_posix()
        assert "/" not in rel or rel.split("/")[0] in LAYERS, f"{rel}: not in a known layer"


def test_no_include_runs_up_a_layer():
    upward = []
    for p in sources():
        rel = p.relative_to(ROOT).as_posix()
        rank, part = layer_of(rel)
        for target in INCLUDE.findall(p.read_text()):
            if not (ROOT / target).exists():
                continue  # generated at build time (device_src/embedded_sources.h)
            t_rank, t_part = layer_of(target)
            if t_rank > rank:
                upward.append(f"{rel} -> {target}")
            elif rank == t_rank and part and t_part and part != t_part and t_part != "common":
                upward.append(f"{rel} -> {target} (backends share code through backend/common/)")
    assert upward == []


def test_the_checker_sees_an_upward_include():
    # The rule itself: core including backend is upward, backend including core is not.
    assert layer_of("core/array.cpp")[0] < layer_of("backend/backend.h")[0]
    assert layer_of("backend/cpu/x.cpp") == (LAYERS.index("backend"), "cpu")
    assert INCLUDE.findall('#include "accel/eval/eval.h"\n') == ["eval/eval.h"]
