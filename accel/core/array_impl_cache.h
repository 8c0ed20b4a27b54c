// New ArrayImpls from a small per-thread cache of freed blocks (cached_allocator.h). Every
// array, view and op result is one ArrayImpl (with its shared_ptr counts, ~280 bytes); a small
// call makes and drops one or two, and malloc + free of the block was a tenth of a small x[i].
#pragma once
#include <memory>

#include "accel/core/array.h"

namespace accel {

std::shared_ptr<ArrayImpl> new_array_impl();
// With `shape` and `strides` copied in (a view of another array's layout).
std::shared_ptr<ArrayImpl> new_array_impl(const Shape& shape, const Strides& strides);

}  // namespace accel
