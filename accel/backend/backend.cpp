#include "accel/backend/backend.h"

#include "accel/backend/cpu/cpu_backend.h"
#include "accel/runtime/errors.h"

namespace accel {

Backend& backend_for(Device device) {
  if (device.is_cpu()) return cpu::cpu_backend();
  throw BackendUnavailable("[" + device.str() +
                           "] the CUDA backend is not part of this build of accel; use "
                           "device='cpu'");
}

bool backend_available(Device device) {
  try {
    backend_for(device);
    return true;
  } catch (const BackendUnavailable&) {
    return false;
  }
}

}  // namespace accel
