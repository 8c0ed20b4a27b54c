// The CPU's np.interp (interp.cpp): accel/backend/sorting.h says what it computes.
#pragma once
#include "accel/device_src/interp.h"

namespace accel::cpu {

void interp(const kernels::InterpParams& p);

}  // namespace accel::cpu
