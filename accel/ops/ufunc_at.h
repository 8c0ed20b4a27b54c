// NumPy's ufunc.at for the binary ops of the registry (np.add.at, np.maximum.at, ...): the
// scatter that accumulates, where x[idx] += v does not.
#pragma once
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

}  // namespace accel
