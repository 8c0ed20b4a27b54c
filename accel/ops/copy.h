// Conversions and copies: astype, copy, to_device, and the in-place write every __setitem__
// and augmented assignment goes through.
#pragma once
#include "accel/core/array.h"

namespace accel {

// `x` as `dtype`; with copy=false the same array is returned when nothing changes.
Array astype(const Array& x, Dtype dtype, bool copy = true);
// A new C-contiguous array with the same values.
Array copy(const Array& x);
// `x` itself if C-contiguous (and computed), else a contiguous copy.
Array ascontiguousarray(const Array& x);
// Explicit transfer between devices (the only way data moves between them).
Array to_device(const Array& x, Device device);
// dst[...] = src: src is broadcast to dst's shape and cast to its dtype (unsafe casting, as
// NumPy's setitem). Pending readers of dst's memory are computed first; overlap is handled.
void assign(const Array& dst, const Array& src, const char* op = "setitem");
// dst = op(dst, other) in place: NumPy's augmented assignment, with its same_kind casting rule.
void assign_inplace(const Array& dst, const Array& result, const char* op);

}  // namespace accel
