"""Fixtures shared by the Python tests. `device` runs a test once per device: "cpu" always and
"cuda" where a GPU is usable; without one the cuda case is reported as skipped, with the reason,
and carries the `cuda` marker so `pytest -m cuda` (scripts/gpu-check) selects it."""

import pytest

import accel as ac

CUDA_USABLE = ac.cuda.is_available()
NO_CUDA_REASON = "no CUDA driver/GPU: " + ac.cuda.unavailable_reason().split("\n")[0]

DEVICES = [
    "cpu",
    pytest.param("cuda", marks=[pytest.mark.cuda,
                                pytest.mark.skipif(not CUDA_USABLE, reason=NO_CUDA_REASON)]),
]


@pytest.fixture(params=DEVICES)
def device(request):
    """The name of each device present: pass it as `device=` when making arrays."""
    return request.param
