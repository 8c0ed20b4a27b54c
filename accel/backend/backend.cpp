#include "accel/backend/backend.h"

#include "accel/backend/cpu/cpu_backend.h"
#include "accel/backend/cuda/cuda_backend.h"
#include "accel/runtime/errors.h"

namespace accel {

Backend& backend_for(Device device) {
  if (device.is_cpu()) return cpu::cpu_backend();
  return cuda::cuda_backend(device.index);
}

bool backend_available(Device device) {
  try {
    backend_for(device);
    return true;
  } catch (const BackendUnavailable&) {
    return false;
  } catch (const DeviceError&) {  // e.g. cuda:3 on a machine with one GPU
    return false;
  }
}

}  // namespace accel
