// A Backend that records every call of the backend it wraps (runtime/profiler.h): kernels with
// their operands, wall time and, on CUDA, device time from events; transfers; allocations.
// backend_for() hands it out instead of the device's own backend while a session is active, so
// the backends themselves carry no profiling code and pay nothing when it is off.
#pragma once
#include <string>

#include "accel/backend/backend.h"

namespace accel {

// Appends "(2, 3) float32" (or "scalar float32" for a broadcast scalar) to out: how events
// name operands, formatted in place (one is recorded per op).
void append_operand(std::string& out, const Array& a);

// The recording wrapper of `inner` (one per device, created on first use, never destroyed).
Backend& profiled_backend(Backend& inner);

}  // namespace accel
