// Views along one axis, shared by the manipulation ops (split, unstack, concat, roll, repeat,
// tile). They re-describe memory only; the ops then copy whole views with Backend::cast.
#pragma once
#include "accel/core/array.h"

namespace accel {

// x[..., start:stop, ...] on `axis` (already normalized; 0 <= start <= stop <= x.shape(axis)).
inline Array axis_slice(const Array& x, int axis, int64_t start, int64_t stop) {
  Array v = Array::view_copy(x);
  ArrayImpl& view = *v.impl();
  view.shape[axis] = stop - start;
  view.offset += start * view.strides[axis];
  return v;
}

// x[..., k, ...] on `axis`: the axis removed (0 <= k < x.shape(axis)).
inline Array axis_index(const Array& x, int axis, int64_t k) {
  Array v = Array::view_copy(x);
  ArrayImpl& view = *v.impl();
  view.offset += k * view.strides[axis];
  view.shape.erase(view.shape.begin() + axis);
  view.strides.erase(view.strides.begin() + axis);
  return v;
}

// x with a new axis of `size` and `stride` (in elements; 0 repeats the data) before `pos`.
inline Array insert_axis(const Array& x, int pos, int64_t size, int64_t stride) {
  Array v = Array::view_copy(x);
  ArrayImpl& view = *v.impl();
  view.shape.insert(view.shape.begin() + pos, size);
  view.strides.insert(view.strides.begin() + pos, stride);
  return v;
}

// x with `axis` (of length outer * inner) seen as two axes (outer, inner), in C order.
inline Array split_axis(const Array& x, int axis, int64_t outer, int64_t inner) {
  Shape shape = x.shape();
  Strides strides = x.strides();
  const int64_t s = strides[axis];
  shape[axis] = inner;
  shape.insert(shape.begin() + axis, outer);
  strides.insert(strides.begin() + axis, inner * s);
  return Array::view_of(x, std::move(shape), std::move(strides), x.offset());
}

}  // namespace accel
