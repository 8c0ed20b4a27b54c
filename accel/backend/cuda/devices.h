// CUDA devices: enumeration, their properties, and the primary context of each (the one context
// per device that the CUDA runtime, CuPy and PyTorch also use, so memory and modules are shared).
#pragma once
#include <string>

#include "accel/backend/cuda/cuda_types.h"

namespace accel::cuda {

struct DeviceProperties {
  int index = 0;
  std::string name;
  int major = 0, minor = 0;  // compute capability
  size_t total_memory = 0;   // bytes
  int multiprocessor_count = 0;
  int max_threads_per_block = 0;
  int max_block_dim[3] = {0, 0, 0};
  int max_grid_dim[3] = {0, 0, 0};
  int max_shared_memory_per_block = 0;        // without opting in
  int max_shared_memory_per_block_optin = 0;  // with cuFuncSetAttribute
  int warp_size = 0;
  int clock_rate_khz = 0;
  int memory_clock_rate_khz = 0;
  int memory_bus_width_bits = 0;
  int l2_cache_bytes = 0;
  std::string pci_bus_id;  // "0000:3b:00.0"

  int compute_capability() const { return major * 10 + minor; }  // 90 for sm_90
};

// Number of usable devices; 0 when the driver is unavailable (never throws).
int device_count();
// Properties of a device (read once); throws BackendUnavailable / DeviceError.
const DeviceProperties& device_properties(int index);
// Makes the device's primary context current on the calling thread (retaining it on first use).
void make_current(int index);
// For destructors, which must not throw: makes the context current when the driver is usable
// and the call succeeds; false otherwise (the caller then skips its driver call).
bool try_make_current(int index) noexcept;
// Free and total device memory in bytes (cuMemGetInfo).
std::pair<size_t, size_t> memory_info(int index);
// Waits for all work on the device.
void synchronize_device(int index);

}  // namespace accel::cuda
