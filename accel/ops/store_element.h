// x[i, j] = number and x[a:b] = number on the CPU, the commonest stores of a loop body, written
// straight into memory. Through the general path (index plan, a 0-d view, a weak array for the
// number, a cast loop for one element) x[i] = 1.0 cost four times NumPy's store.
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

// x[...] = number (x[:] = 0, m[1] = 0, x[2:5] = 1.5, x.fill(v) with x a view of these): every
// element of x (an array or a view) set to the number, converted and refused as above.
bool fill_number(const Array& x, PlainNumber number);

// x[index] = number for a 1-d x and a computed, contiguous int64 CPU index array of any shape
// (NumPy's a[idx] = v): each element at an index set, converted and refused as above; an index
// out of range is refused before anything is written (the general path raises IndexError).
bool store_number_at(const Array& x, const Array& index, PlainNumber number);

// x[index] = values, x and index as above, values a computed, contiguous CPU array of x's dtype
// outside x's memory, of index's shape or a single element: values[k] stored at index[k] (the
// last of repeated indices stays). False for every other case (casts, broadcasts, overlaps).
bool store_values_at(const Array& x, const Array& index, const Array& values);

// x[mask] = number and x[mask] = values (NumPy's boolean store) for a contiguous x and a
// computed, contiguous bool CPU mask of x's shape: the true elements set, in C order, to the
// number (converted and refused as above) or to the values (of x's dtype, outside x, one per
// true element or a single one; else the general path raises NumPy's error).
bool store_number_where(const Array& x, const Array& mask, PlainNumber number);
bool store_values_where(const Array& x, const Array& mask, const Array& values);

}  // namespace accel
