// NumPy arrays made through NumPy's C API table (the `_ARRAY_API` capsule), without its headers:
// the short path from an accel array to a NumPy view (asnumpy, __array__), which otherwise
// costs a buffer-protocol round trip through numpy.asarray.
#pragma once
#include "bindings.h"

namespace accel::py {

// A NumPy array over `data` (shape, strides in bytes, accel's dtype as NumPy's own type: int64
// is NumPy's `long`, so dtype.char is 'l' as for NumPy's int64), writable or not, keeping `base`
// alive as its .base.
nb::object numpy_view(void* data, Dtype dtype, const Shape& shape, const Strides& byte_strides,
                      bool writable, nb::object base);

}  // namespace accel::py
