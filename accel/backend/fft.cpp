#include "accel/backend/fft.h"

#include <string>

#include "accel/backend/cpu/fft_lines.h"
#include "accel/backend/cuda/cufft.h"
#include "accel/runtime/errors.h"

namespace accel {

void require_fft_device(const Device& device, const char* op) {
  if (device.is_cpu()) return;
  // cuFFT is loaded at run time; without it the transform is refused rather than run on a copy
  // on the host behind the caller's back.
  const std::string why = cuda::cufft_unavailable_reason();
  if (!why.empty())
    throw BackendUnavailable(std::string("[") + op + "] accel.fft on " + device.str() +
                             " needs cuFFT: " + why +
                             "\n  Or copy the array to the CPU (to_device(\"cpu\")) to transform "
                             "it there");
}

void fft_on_device(const Array& in, const Array& out, const FftLines& lines) {
  if (!in.device().is_cpu())
    throw BackendUnavailable("[fft] CUDA arrays are transformed by accel::fft::cufft_transform "
                             "(ops/fft_cufft.h), not here");
  cpu::fft_lines(in, out, lines);
}

}  // namespace accel
