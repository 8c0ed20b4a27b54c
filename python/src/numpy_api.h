// NumPy arrays made through NumPy's C API table (the `_ARRAY_API` capsule), without its headers:
// the short path from an accel array to a NumPy view (asnumpy, __array__), which otherwise
// costs a buffer-protocol round trip through numpy.asarray. And the way back: a NumPy array's
// memory, shape and dtype read from its struct, as NumPy's own macros (PyArray_DATA, ...) do.
#pragma once
#include "bindings.h"

namespace accel::py {

// A NumPy array over `data` (shape, strides in bytes, accel's dtype as NumPy's own type: int64
// is NumPy's `long`, so dtype.char is 'l' as for NumPy's int64), writable or not, keeping `base`
// alive as its .base.
nb::object numpy_view(void* data, Dtype dtype, const Shape& shape, const Strides& byte_strides,
                      bool writable, nb::object base);

// What an import needs of a NumPy ndarray (the exact type): its memory, shape, strides in bytes,
// accel's dtype for its element type and writability.
struct NumpyArrayFields {
  void* data;
  int ndim;
  const Py_ssize_t* shape;
  const Py_ssize_t* byte_strides;
  Dtype dtype;
  bool writable;
};
// nullopt for other objects and for element types accel has no native-order dtype for (byte-
// swapped, datetime64, structured, user dtypes such as ml_dtypes' bfloat16): those take the
// buffer protocol, whose format names them.
std::optional<NumpyArrayFields> numpy_array_fields(nb::handle obj);
// obj is a numpy.ndarray (the exact type; imports NumPy on first use).
bool is_numpy_ndarray(nb::handle obj);

}  // namespace accel::py
