// accel.fft on CUDA arrays, over cuFFT (cufft.h): one batched 1-d transform of contiguous lines
// per call (ops/fft_cufft.h lays the lines out and scales the result). The plan of each (device, n,
// transform type, batch) is cached (plan_cache.h) and dropped under memory pressure; its work area
// comes from accel's allocator on each call's stream, so a plan holds only cuFFT's own small
// tables.
#pragma once
#include <compare>
#include <cstdint>

#include "accel/backend/cuda/cufft.h"
#include "accel/backend/fft.h"

namespace accel::cuda {

// Everything that changes a cuFFT plan: rank 1, contiguous lines, so the layout is n's.
struct FftPlanKey {
  int device = 0;
  int64_t n = 0;
  cufftType type = kCufftC2C;
  int64_t batch = 0;
  auto operator<=>(const FftPlanKey&) const = default;
};

// The cuFFT transform type for a kind and precision (R2C, C2R, C2C; D2Z, Z2D, Z2Z in double).
cufftType cufft_type(FftKind kind, bool double_precision);
// Elements per line going into and out of cuFFT: n complex (C2C), n real -> n/2+1 complex (R2C),
// n/2+1 complex -> n real (C2R).
int64_t fft_input_length(FftKind kind, int64_t n);
int64_t fft_output_length(FftKind kind, int64_t n);

// The transform of `batch` contiguous lines on `device`'s current stream: `in` holds
// fft_input_length(kind, n) elements per line (complex, or real for real_forward), `out`
// fft_output_length; unscaled. A C2R transform (real_backward) overwrites `in`.
void cufft_lines(int device, FftKind kind, bool double_precision, int64_t n, int64_t batch,
                 bool forward, void* in, void* out);
// Drops the cached plans of `device`; returns how many. Never throws.
size_t release_fft_plans(int device) noexcept;
size_t cached_fft_plans();

}  // namespace accel::cuda
