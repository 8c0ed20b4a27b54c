// The passes of accel's mixed-radix FFT (fft_kernels.cpp): one Stockham pass of radix 2, 3, 4,
// 5 (specialised butterflies) or any other small odd prime (generic butterfly).
#pragma once
#include <complex>

#include "accel/backend/cpu/fft_plan.h"

namespace accel::cpu::fft {

// Largest prime the generic butterfly takes; plans send longer prime factors to Bluestein.
inline constexpr int kMaxGenericRadix = 127;

// One Stockham pass (decimation in frequency, self-sorting): with p = stage.radix,
// m = stage.m, s = stage.stride, for j < m and q < s the p inputs x[q + s (j + k m)] go through
// a DFT of length p and output r, times twiddle w_{pm}^{jr}, lands at y[q + s (p j + r)].
// `twiddles` are the stage's m (p - 1) twiddles (j-major), `generic` its cos/sin table.
template <class T>
void run_pass(const Stage& stage, const std::complex<T>* twiddles, const T* generic,
              const std::complex<T>* x, std::complex<T>* y, bool forward);

}  // namespace accel::cpu::fft
