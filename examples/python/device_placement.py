"""Where accel arrays live, and how data moves: every transfer is one you write.

    python examples/python/device_placement.py

Runs on any machine: with a usable CUDA GPU the work goes there, otherwise it stays on the CPU.
"""

import numpy as np

import accel as ac

device = "cuda" if ac.cuda.is_available() else "cpu"
print(f"computing on {device} (devices here: {ac.__array_namespace_info__().devices()})")

# 1. Copy in: NumPy data goes to the device only when asked (asarray(..., device=)).
host = np.linspace(0.0, 1.0, 1_000_000, dtype=np.float32)
x = ac.asarray(host, device=device)
print("x:", x.shape, x.dtype, "on", x.device)

# 2. Compute: results stay where their inputs are; nothing is copied back behind your back.
y = ac.sin(x) * 2.0 + x**2
print("y lives on", y.device)

# Mixing devices is an error, not a silent copy.
if device != "cpu":
    try:
        y + ac.asarray(host)  # a CPU array
    except ac.DeviceError as e:
        print("refused:", e)
    # Implicit conversion to NumPy is refused too: np.asarray(y) raises TypeError.
    try:
        np.asarray(y)
    except TypeError as e:
        print("refused:", e)

# 3. Copy out: explicitly, with asnumpy (or to_device("cpu")).
result = ac.asnumpy(y)
expected = np.sin(host) * 2.0 + host**2
print("max abs difference from NumPy:", float(np.max(np.abs(result - expected))))

# Moving between devices is also explicit; the copy is a new array.
z = y.to_device("cpu")
print("z on", z.device, "- first values:", ac.asnumpy(z)[:3])
