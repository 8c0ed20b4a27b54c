// Whether two arrays' elements share a byte, answered exactly (NumPy's shares_memory) rather
// than by address ranges (Array::shares_memory_with, which the evaluator uses: a conservative
// "maybe" is safe there, and free). x[::2] and x[1::2] interleave within one range but share
// nothing.
#pragma once
#include <cstdint>
#include <optional>

#include "accel/core/array.h"

namespace accel {

// true or false; nullopt when the search would take more than `max_work` steps (max_work < 0:
// no limit). Pending arrays have no memory yet and share none.
std::optional<bool> shares_memory_exactly(const Array& a, const Array& b, int64_t max_work = -1);

}  // namespace accel
