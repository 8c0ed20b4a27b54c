// Sorting and searching: sort, argsort (the Array API's signatures; NumPy's order: NaNs last,
// complex numbers lexicographic) and searchsorted. They evaluate their inputs and run the
// backend's sort directly. Every sort is stable; `stable=false` is accepted and gives the same
// (stable) result, which the standard allows.
#pragma once
#include <cstdint>
#include <optional>

#include "accel/core/array.h"

namespace accel {

// x sorted along `axis`; descending is the reverse of an ascending sort of the reversed axis
// (NaNs first, equal elements in their original order), as NumPy-based Array API libraries do.
Array sort(const Array& x, int64_t axis = -1, bool descending = false, bool stable = true);
// The int64 positions along `axis` that sort x (same order as sort).
Array argsort(const Array& x, int64_t axis = -1, bool descending = false, bool stable = true);
// Where each element of `values` would be inserted into the 1-d `sorted` (ascending, NaNs last)
// to keep it sorted: before equal elements (right=false, NumPy's side='left') or after them.
// `sorter` (integer, sorted's length) gives the order of an unsorted `sorted`. Both operands are
// compared in their promoted dtype. int64 of values' shape.
Array searchsorted(const Array& sorted, const Array& values, bool right = false,
                   const std::optional<Array>& sorter = std::nullopt);

}  // namespace accel
