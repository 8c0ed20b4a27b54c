// x[i, j] = number on the CPU: the commonest store of a loop body, written straight into the
// element. Through the general path (index plan, a 0-d view, a weak array for the number, a
// cast loop for one element) it cost four times NumPy's store.
#pragma once
#include <cstdint>
#include <span>

#include "accel/core/array.h"
#include "accel/eval/eager.h"

namespace accel {

// Stores `number` at `index` (one entry per axis, negative ones from the end) of a computed,
// writable CPU array, converted as NumPy stores a Python number: into an integer dtype only an
// int it holds, into a float or complex dtype a float or an int of at most 2**53 (exact as a
// double) rounded once, into bool its truth; first computing the pending arrays that read x's
// memory, as every store does. False, with nothing written, for every other case (an index out
// of range, a pending, read-only or GPU array, a float into integers, an int out of range,
// profiling on): the general path stores it or raises NumPy's error. (A refused store may have
// computed x's pending readers, which changes no value.)
bool store_number(const Array& x, std::span<const int64_t> index, PlainNumber number);

}  // namespace accel
