// The layout of a new elementwise result: NumPy's order='K', which lays the result out in the
// axis order its operands share, so that sin(m.T) is stored as m.T is (its transpose C-ordered)
// and reading or writing it walks memory in order, where a C-ordered result of a transposed
// input costs a transposition.
#pragma once
#include <span>
#include <string_view>
#include <vector>

#include "accel/core/array.h"

namespace accel {

// The strides (in elements, dense) of a result of `shape` computed from `inputs` (broadcast to
// it), or an empty Strides for C order, the common case, decided without a sort when every
// input of two or more axes is C-contiguous. NumPy's rule: axes are ordered as every input that
// tells two of them apart orders them (length-1 and broadcast axes tell nothing); where the
// inputs disagree, C order stays (m.T + m is C-ordered, m.T + 1 and m.T + m.T are not).
Strides kept_layout(const Shape& shape, std::span<const Array> inputs);

// The strides of the result of reducing x over `axes` (sorted, distinct), the reduced axes
// dropped or, with keepdims, kept as length 1: NumPy allocates a reduction's result through its
// iterator, so the kept axes keep x's axis order (kept_layout's) and sum(f, axis=0) of a
// Fortran-ordered f is Fortran-ordered. Empty Strides for C order.
Strides reduced_layout(const Array& x, const std::vector<int>& axes, bool keepdims);

// The strides of the result of joining `inputs` (each of `shape`'s rank) into `shape`: NumPy's
// rule for concatenate (its PyArray_CreateMultiSortedStridePerm), an insertion sort of the axes
// from C order that puts an axis outside another when some input steps further along it and
// none the other way round; axes of length 1 in an input tell nothing, broadcast (step 0) axes
// sort innermost. It differs from kept_layout where axes tell nothing: those stay in place as
// the sort runs from the outermost axis (kept_layout's from the innermost), so np.stack([f, f],
// axis=1) of Fortran-ordered f puts the new axis innermost. Empty Strides for C order.
Strides join_layout(const Shape& shape, std::span<const Array> inputs);

// The strides of a copy laid out as `prototype` is: NumPy's rule for astype and the other
// order='K' copies of one array (its PyArray_NewLikeArray), which sorts the axes by the size of
// their steps, largest outermost, equal ones in order, broadcast (step 0) axes innermost. It
// differs from kept_layout's where axes broadcast: a row broadcast to (3, 4) is copied
// Fortran-ordered, while the sum of it and 1 is C-ordered. Empty Strides for C order.
Strides like_layout(const Array& prototype);
// The prototype's axis order over another `shape` of its rank (C order for another rank): NumPy's
// layout of empty_like(x, shape=...) and the other *_like functions given a shape. A length-1
// axis of the prototype sorts innermost (NumPy's sorts by the stride it happens to have, which
// accel does not keep), so only there can the two orders differ.
Strides like_layout(const Array& prototype, const Shape& shape);

// NumPy's order= of a new array or a copy: C (row-major), F (column-major), A (F where the
// prototype is Fortran- and not C-contiguous, else C), K (the prototype's axis order,
// like_layout). Without a prototype A and K are C.
enum class Order : unsigned char { C, F, A, K };
// "C", "F", "A", "K" (either case, as NumPy); ValueError naming `op` otherwise.
Order order_from_name(std::string_view name, const char* op);
// A resolved against `prototype` to C or F; the others as they are.
Order resolve_order(Order order, const Array* prototype);
// The dense strides (in elements) of a new array of `shape` in `order` after `prototype`
// (A and K read it; K keeps the prototype's axis order where `shape` has its rank): empty
// Strides for C order.
Strides order_layout(const Shape& shape, Order order, const Array* prototype = nullptr);

}  // namespace accel
