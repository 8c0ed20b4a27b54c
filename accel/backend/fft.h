// FFTs: the request (FftLines) and the CPU's entry point, reached by device kind rather than
// through the Backend interface. CUDA arrays go to ops/fft_cufft.h (cuFFT, with accel's ops
// laying out the lines; the dispatch is in ops/fft.cpp); without cuFFT they raise
// BackendUnavailable instead of moving data to the CPU behind the caller's back.
#pragma once
#include <cstdint>

#include "accel/core/array.h"

namespace accel {

enum class FftKind {
  complex,        // complex -> complex of length n
  real_forward,   // real of length n -> the first n/2 + 1 complex terms
  real_backward,  // the first n/2 + 1 complex terms of a Hermitian spectrum -> real of length n
};

// One transform along `axis` of every line of `in` (the other axes), written to `out`.
// Each line of in is cropped or zero-padded to the transform's input length (n, or n/2 + 1 for
// real_backward); out has that axis's output length (n, or n/2 + 1 for real_forward). The
// result is multiplied by `scale` (the norm).
struct FftLines {
  int axis;
  int64_t n;
  FftKind kind;
  bool forward;  // the sign of the exponent for complex: exp(-2 pi i jk/n) when true
  double scale;
};

// Throws BackendUnavailable naming `op` unless FFTs run on `device` (the CPU; CUDA with cuFFT).
void require_fft_device(const Device& device, const char* op);
// in: complex64/complex128 (complex, real_backward) or float32/float64 (real_forward), any
// strides; out: contiguous, the matching dtype of the same precision; both computed, on the CPU.
void fft_on_device(const Array& in, const Array& out, const FftLines& lines);

}  // namespace accel
