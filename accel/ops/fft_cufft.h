// accel.fft's line transform (backend/fft.h's FftLines) on CUDA arrays: the lines laid out for
// cuFFT with accel's ops (axis moved last, cropped or zero-padded, contiguous), one batched cuFFT
// call (backend/cuda/fft.h), then the norm as an elementwise scale written through out's strides.
// In the ops layer because it composes ops around the library call.
#pragma once
#include "accel/backend/fft.h"

namespace accel::fft {

// As fft_on_device (backend/fft.h), for in and out on one CUDA device.
void cufft_transform(const Array& in, const Array& out, const FftLines& lines);

}  // namespace accel::fft
