// The CPU's FFT over the lines of an N-d array (fft_lines.cpp); accel/backend/fft.h says what it
// computes.
#pragma once
#include "accel/backend/fft.h"

namespace accel::cpu {

void fft_lines(const Array& in, const Array& out, const FftLines& lines);

}  // namespace accel::cpu
