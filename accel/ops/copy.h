// Conversions and copies: astype, copy, to_device, and the in-place write every __setitem__
// and augmented assignment goes through.
#pragma once
#include <string>

#include "accel/core/array.h"
#include "accel/ops/result_layout.h"
#include "accel/runtime/errors.h"

namespace accel {

// `x` as `dtype`; with copy=false the same array is returned when nothing changes.
Array astype(const Array& x, Dtype dtype, bool copy = true);
// `x` as `dtype` for an elementwise op to read (x itself when it has that dtype): laid out as
// the op lays out its result from x (kept_layout), not as a copy (like_layout), so that a cast
// made before the op does not change its result's layout, as NumPy's ufuncs cast inside their
// loops (np.fabs of a broadcast int array is C-ordered, its astype is not).
Array cast_operand(const Array& x, Dtype dtype);
// A new C-contiguous array with the same values.
Array copy(const Array& x);
// `x` as `dtype` in a new array laid out in `order` (NumPy's astype(order=), copy(order=)):
// K as x (astype's and np.copy's default), C, F, or A (F where x is Fortran- and not
// C-contiguous). With copy=false, x itself where the dtype is x's and x's layout fits the order.
Array astype(const Array& x, Dtype dtype, bool copy, Order order);
Array copy(const Array& x, Order order);
// `x` itself if C-contiguous (and computed), else a contiguous copy.
Array ascontiguousarray(const Array& x);
// Explicit transfer between devices (the only way data moves between them).
Array to_device(const Array& x, Device device);
// dst[...] = src: src is broadcast to dst's shape and cast to its dtype (unsafe casting, as
// NumPy's setitem). Pending readers of dst's memory are computed first; overlap is handled.
void assign(const Array& dst, const Array& src, const char* op = "setitem");
// dst = op(dst, other) in place: NumPy's augmented assignment, with its same_kind casting rule.
void assign_inplace(const Array& dst, const Array& result, const char* op);

// Read-only memory (imported from a read-only NumPy array) or a read-only view (broadcast_to):
// many elements may share one address, so writes are refused, as NumPy refuses them.
inline bool is_read_only(const Array& a) {
  return a.impl()->read_only || (!a.is_pending() && a.buffer()->read_only());
}
// ValueError, NumPy's message, when `dst` is read-only.
inline void check_writable(const Array& dst, const char* op) {
  if (is_read_only(dst))
    throw ValueError(std::string("[") + op + "] assignment destination is read-only");
}
// NumPy's x.flags.writeable = writeable: the array x's Python object holds from now on. False
// freezes x (a new handle over the same memory, so other handles of x's impl, and views made
// before, stay writable, as NumPy's); True thaws only an array frozen that way and raises
// ValueError for other read-only arrays (broadcast views, read-only imports, views of a frozen
// array); an array already as asked is returned itself.
Array set_writeable(const Array& x, bool writeable);
// NumPy's x.resize(shape) in place: the array x's Python object holds from now on. The same
// size is x's memory read in memory order as a C-ordered `shape`; another size is new memory,
// x's elements in memory order first and zeros after (NumPy's realloc). ValueError, as NumPy's,
// for a strided view, for a view that starts inside a larger array, and, with refcheck, when
// other arrays view x's memory (with refcheck=false they keep the old memory: nothing dangles).
Array resize_in_place(const Array& x, const Shape& shape, bool refcheck);

}  // namespace accel
