// NumPy's ufunc.at and ufunc.reduceat for the binary ops of the registry (np.add.at,
// np.maximum.reduceat, ...): the scatter that accumulates, where x[idx] += v does not, and the
// reduction over segments of an axis; bincount, the counting scatter.
#pragma once
#include <optional>

#include "accel/core/array.h"
#include "accel/core/op_id.h"

namespace accel {

// x.flat[indices[k]] = op(x.flat[indices[k]], values[k]) for every k in order, in place and
// unbuffered: an index listed several times takes the op once per listing, in the listing's
// order (np.add.at(x, [0, 0], 1) adds 2, where x[[0, 0]] += 1 adds 1), so the result is
// NumPy's to the bit. indices: integers, flat C-order positions of x, negative ones counting
// from the end. values broadcast to indices' shape and are cast to x's dtype. The op must be
// binary and compute in and return x's dtype (add on float32, maximum on int8, ...; NumPy's
// ufunc.at of mixed dtypes runs its loop in another dtype and is the caller's business).
// Throws IndexError naming the first bad index, DTypeError, DeviceError or ReadOnlyError
// before anything is written.
void ufunc_at(OpId op, const Array& x, const Array& indices, const Array& values);

// NumPy's op.reduceat(x, indices, axis): along `axis`, result[..., k, ...] is x[..., start, ...]
// folded with the rows start + 1 .. stop - 1 in order, where start = indices[k] and stop =
// indices[k + 1] (the axis' length for the last) if that is past start, else start + 1 (the
// segment is its first row alone: no identity, so gcd.reduceat of one -3 is -3). indices: 1-d,
// integers in [0, len(axis)) (IndexError otherwise; NumPy takes no negative ones here). The op
// must keep x's dtype as for ufunc_at; the result is a new C-contiguous array of x's dtype on x's
// device. Sums of float32, float64 and complex numbers are NumPy's to the bit on the CPU (the
// first row plus the rest summed pairwise, grouped as NumPy groups them); CUDA adds the rest in
// order. float16 / bfloat16 round every step.
Array ufunc_reduceat(OpId op, const Array& x, const Array& indices, int64_t axis);

// NumPy's bincount: how often each value 0, 1, ..., max(x) of the 1-d non-negative integer or
// bool array x occurs, as int64, in at least `minlength` bins; with weights (x's shape, real),
// each value's weights added in input order in float64, which is NumPy's sum to the bit. One
// add.at fold on x's device after one look at x's lowest and highest values. Throws ValueError
// for an x that is not 1-d, a negative value or minlength, or weights of another shape,
// DTypeError for a float or complex x or complex weights, DeviceError for weights elsewhere.
Array bincount(const Array& x, const std::optional<Array>& weights = std::nullopt,
               int64_t minlength = 0);

}  // namespace accel
