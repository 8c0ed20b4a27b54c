// Advanced indexing through the backend's gather and scatter, shared by getitem / setitem
// (indexing.cpp) and take / put / take_along_axis (take.cpp). Not part of the public API.
#pragma once
#include <vector>

#include "accel/core/array.h"

namespace accel::detail {

// An integer index array bound to one axis of the array being indexed.
struct AxisIndex {
  Array index;      // int64, of the shared index shape B (broadcast views allowed)
  int axis;         // axis of the indexed array
  int source_axis;  // the axis named in error messages (the user's array may differ)
};

// `index` as int64 for indexing on `device`; IndexError for non-integer arrays.
Array int64_index(const Array& index, Device device, const char* op);
// Broadcasts every AxisIndex::index to one shape B (IndexError if they do not fit); returns B.
// When B is empty the indices are still checked against `indexed`, as NumPy does.
Shape broadcast_indices(std::vector<AxisIndex>& indices, const Array& indexed, const char* op);
// The shape of a gather result: src's non-indexed axes with B inserted at position `at`.
Shape gathered_shape(const Array& src, const std::vector<AxisIndex>& indices, int at);
// NumPy's layout of src[...] gathered along `axes` by `index_arrays` (broadcast to one shape B)
// placed at `at` (its mapiter's result): B outermost and C-ordered (in the axis order the index
// arrays share, kept_layout, when the other axes hold one element), then src's other axes in
// their memory order (like_layout), B then moved to `at` (a[:, idx] of a C-ordered a is not
// C-ordered). Empty Strides for C order.
Strides getitem_layout(const Array& src, std::span<const int> axes,
                       std::span<const Array> index_arrays, int at);
// A new array of gathered_shape, C-contiguous (take, take_along_axis: NumPy's are) or, with
// numpy_layout, laid out as NumPy's getitem (getitem_layout). Raises IndexError naming a bad
// index.
Array gather_new(const Array& src, const std::vector<AxisIndex>& indices, int at, const char* op,
                 bool numpy_layout = false);
// x[index] for one integer index array: index.shape + x.shape[1:], gathered along axis 0.
// The commonest advanced index, planned without the general path's vectors (issue 15).
Array take_rows(const Array& x, const Array& index, const char* op);
// The reverse: writes `value` (broadcast to gathered_shape, cast to dst's dtype) into dst.
// Nothing is written when an index is bad.
void scatter_into(const Array& dst, const std::vector<AxisIndex>& indices, int at,
                  const Array& value, const char* op);
// x as a 1-d array: a view when x is C-contiguous, else a contiguous copy.
Array flatten(const Array& x);

}  // namespace accel::detail
