// The CPU's sort and searchsorted (sort.cpp); accel/backend/sorting.h says what they compute.
#pragma once
#include "accel/core/array.h"

namespace accel::cpu {

void sort(const Array& in, int axis, bool descending, const Array* values, const Array* indices);
void searchsorted(const Array& sorted, const Array& values, bool right, const Array& out);

}  // namespace accel::cpu
