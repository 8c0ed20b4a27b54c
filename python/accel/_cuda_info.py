"""The CUDA section of `python -m accel info`: driver, NVRTC, GPUs, the verdict, and the kernel
cache, as a dict (small functions, each one part) and as text."""

from . import _core
from . import cuda as _cuda


def _first_line(text):
    return text.split("\n")[0]


def driver_section():
    why = _cuda.unavailable_reason()
    if why:
        return {"found": False, "error": why}
    d = _cuda.driver_info()
    return {"found": True, "path": d["path"], "version": d["version"], "device_count": d["device_count"]}


def nvrtc_section():
    why = _cuda.nvrtc_unavailable_reason()
    if why:
        return {"found": False, "error": why}
    n = _cuda.nvrtc_info()
    return {"found": True, "path": n["path"], "version": n["version"], "archs": n["archs"],
            "include_dir": n["include_dir"] or None}


def cublas_section():
    # Optional: without cuBLAS, float matmul runs on accel's own (slower) kernel.
    why = _cuda.cublas_unavailable_reason()
    if why:
        return {"found": False, "error": why}
    c = _cuda.cublas_info()
    return {"found": True, "path": c["path"], "version": c["version"]}


def library_section(name):
    # Optional like cuBLAS: without cuFFT / cuSOLVER, accel.fft / accel.linalg's factorisations
    # refuse CUDA arrays (BackendUnavailable) and still work on CPU arrays.
    why = getattr(_cuda, name + "_unavailable_reason")()
    if why:
        return {"found": False, "error": why}
    c = getattr(_cuda, name + "_info")()
    return {"found": True, "path": c["path"], "version": c["version"]}


def devices_section(nvrtc_found):
    out = []
    for i in range(_cuda.device_count()):
        p = _cuda.get_device_properties(i)
        free, total = _cuda.memory_info(i)
        dev = {"index": i, "name": p["name"], "compute_capability": "%d.%d" % p["compute_capability"],
               "total_memory": p["total_memory"], "free_memory": free,
               "multiprocessor_count": p["multiprocessor_count"], "pci_bus_id": p["pci_bus_id"]}
        if nvrtc_found:
            try:
                dev["compile_target"] = _cuda.compile_target(i)
            except RuntimeError as e:
                dev["compile_error"] = str(e)
        out.append(dev)
    return out


def kernel_cache_section():
    s = _core.kernel_cache_stats()
    return {"dir": s["dir"], "entries": s["entries"], "bytes": s["bytes"], "max_bytes": s["max_bytes"]}


def verdict(driver, nvrtc, devices):
    if not driver["found"]:
        return {"usable": False, "why": _first_line(driver["error"])}
    if not nvrtc["found"]:
        return {"usable": False,
                "why": "arrays can live on the GPU, but no kernel can be compiled: " + _first_line(nvrtc["error"])}
    bad = [d for d in devices if "compile_error" in d]
    if bad:
        return {"usable": False, "why": bad[0]["compile_error"]}
    names = ", ".join(f"cuda:{d['index']} {d['name']} ({d['compile_target']})" for d in devices)
    return {"usable": True, "why": f"driver CUDA {driver['version']}, NVRTC {nvrtc['version']}; {names}"}


def cuda_section():
    driver = driver_section()
    nvrtc = nvrtc_section()
    devices = devices_section(nvrtc["found"]) if driver["found"] else []
    return {"driver": driver, "nvrtc": nvrtc, "cublas": cublas_section(),
            "cufft": library_section("cufft"), "cusolver": library_section("cusolver"), "devices": devices,
            "verdict": verdict(driver, nvrtc, devices), "kernel_cache": kernel_cache_section()}


def _gib(n):
    return f"{n / (1 << 30):.1f} GiB"


def format_cuda_section(s):
    """Lines of text for the CUDA section."""
    lines = ["CUDA"]
    d = s["driver"]
    lines.append(f"  driver:  {d['path']} (CUDA {d['version']})" if d["found"] else "  driver:  not found")
    n = s["nvrtc"]
    if n["found"]:
        lines.append(f"  NVRTC:   {n['path']} (NVRTC {n['version']}; {n['archs'][0]}..{n['archs'][-1]})")
        lines.append(f"  headers: {n['include_dir'] or 'not found (kernels including <cuda_fp16.h> will not compile)'}")
    else:
        lines.append("  NVRTC:   not found")
    b = s["cublas"]
    lines.append(f"  cuBLAS:  {b['path']} (cuBLAS {b['version']})" if b["found"]
                 else "  cuBLAS:  not found (matmul runs on accel's own kernel): "
                 + _first_line(b["error"]))
    for key, label, what in (("cufft", "cuFFT", "accel.fft"),
                             ("cusolver", "cuSOLVER", "accel.linalg's factorisations")):
        f = s[key]
        lines.append(f"  {label + ':':<9}{f['path']} ({label} {f['version']})" if f["found"]
                     else f"  {label + ':':<9}not found ({what} on CPU arrays only): "
                     + _first_line(f["error"]))
    for g in s["devices"]:
        lines.append(f"  cuda:{g['index']}:  {g['name']}, compute capability {g['compute_capability']}, "
                     f"{g['multiprocessor_count']} SMs, {_gib(g['total_memory'])} ({_gib(g['free_memory'])} free)")
    v = s["verdict"]
    lines.append(f"  verdict: {'usable' if v['usable'] else 'NOT usable'}: {v['why']}")
    for key in ("driver", "nvrtc"):
        if not s[key]["found"]:  # the rest of the explanation: where it looked, what to install
            lines += ["  " + line for line in s[key]["error"].split("\n")[1:]]
    c = s["kernel_cache"]
    lines.append(f"  kernel cache: {c['dir']} ({c['entries']} entries, {c['bytes'] / (1 << 20):.1f} MiB "
                 f"of {c['max_bytes'] / (1 << 30):.1f} GiB)")
    return lines
