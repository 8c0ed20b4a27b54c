#include "accel/backend/fft.h"

#include <string>

#include "accel/backend/cpu/fft_lines.h"
#include "accel/runtime/errors.h"

namespace accel {

void require_fft_device(const Device& device, const char* op) {
  if (!device.is_cpu())
    throw BackendUnavailable(std::string("[") + op + "] accel.fft has no implementation on " +
                             device.str() +
                             " yet (cuFFT is not wired yet); copy the array to the "
                             "CPU (to_device(\"cpu\")) to transform it");
}

void fft_on_device(const Array& in, const Array& out, const FftLines& lines) {
  require_fft_device(in.device(), "fft");
  cpu::fft_lines(in, out, lines);
}

}  // namespace accel
