#include "accel/backend/cuda/devices.h"

#include <array>
#include <cstdio>
#include <memory>
#include <mutex>
#include <vector>

#include "accel/backend/cuda/driver.h"
#include "accel/runtime/errors.h"

namespace accel::cuda {
namespace {

struct DeviceState {
  std::once_flag once;
  DeviceProperties props;
  CUcontext context = nullptr;
};

std::vector<std::unique_ptr<DeviceState>>& states() {
  static auto* s = [] {
    auto* v = new std::vector<std::unique_ptr<DeviceState>>();
    for (int i = 0; i < driver().device_count; ++i) v->push_back(std::make_unique<DeviceState>());
    return v;
  }();
  return *s;
}

DeviceState& state(int index) {
  const DriverApi& api = driver();
  if (index < 0 || index >= api.device_count)
    throw DeviceError("[cuda:" + std::to_string(index) + "] no such device: " +
                      std::to_string(api.device_count) + " CUDA device(s) present");
  DeviceState& s = *states()[index];
  std::call_once(s.once, [&] {
    const std::string where = "cuda:" + std::to_string(index);
    CUdevice dev = 0;
    api.check(api.cuDeviceGet(&dev, index), "cuDeviceGet", where);
    DeviceProperties& p = s.props;
    p.index = index;
    char name[256] = {};
    api.check(api.cuDeviceGetName(name, sizeof name, dev), "cuDeviceGetName", where);
    p.name = name;
    api.check(api.cuDeviceTotalMem(&p.total_memory, dev), "cuDeviceTotalMem", where);
    auto attr = [&](DeviceAttribute a) {
      int v = 0;
      api.check(api.cuDeviceGetAttribute(&v, a, dev), "cuDeviceGetAttribute", where);
      return v;
    };
    p.major = attr(kComputeCapabilityMajor);
    p.minor = attr(kComputeCapabilityMinor);
    p.multiprocessor_count = attr(kMultiprocessorCount);
    p.max_threads_per_block = attr(kMaxThreadsPerBlock);
    p.max_block_dim[0] = attr(kMaxBlockDimX);
    p.max_block_dim[1] = attr(kMaxBlockDimY);
    p.max_block_dim[2] = attr(kMaxBlockDimZ);
    p.max_grid_dim[0] = attr(kMaxGridDimX);
    p.max_grid_dim[1] = attr(kMaxGridDimY);
    p.max_grid_dim[2] = attr(kMaxGridDimZ);
    p.max_shared_memory_per_block = attr(kMaxSharedMemoryPerBlock);
    p.max_shared_memory_per_block_optin = attr(kMaxSharedMemoryPerBlockOptin);
    p.warp_size = attr(kWarpSize);
    p.clock_rate_khz = attr(kClockRate);
    p.memory_clock_rate_khz = attr(kMemoryClockRate);
    p.memory_bus_width_bits = attr(kGlobalMemoryBusWidth);
    p.l2_cache_bytes = attr(kL2CacheSize);
    char bus[32];
    std::snprintf(bus, sizeof bus, "%04x:%02x:%02x.0", attr(kPciDomainId), attr(kPciBusId),
                  attr(kPciDeviceId));
    p.pci_bus_id = bus;
    api.check(api.cuDevicePrimaryCtxRetain(&s.context, dev), "cuDevicePrimaryCtxRetain", where);
  });
  return s;
}

}  // namespace

int device_count() {
  if (!driver_unavailable_reason().empty()) return 0;
  return driver().device_count;
}

const DeviceProperties& device_properties(int index) { return state(index).props; }

void make_current(int index) {
  // Asked each time, not remembered: another library (CuPy, PyTorch) may switch contexts.
  DeviceState& s = state(index);
  const DriverApi& api = driver();
  CUcontext actual = nullptr;
  api.cuCtxGetCurrent(&actual);
  if (actual != s.context)
    api.check(api.cuCtxSetCurrent(s.context), "cuCtxSetCurrent", "cuda:" + std::to_string(index));
}

bool try_make_current(int index) noexcept {
  try {
    if (!driver_unavailable_reason().empty()) return false;
    make_current(index);
    return true;
  } catch (...) {
    return false;
  }
}

std::pair<size_t, size_t> memory_info(int index) {
  make_current(index);
  size_t free = 0, total = 0;
  driver().check(driver().cuMemGetInfo(&free, &total), "cuMemGetInfo",
                 "cuda:" + std::to_string(index));
  return {free, total};
}

void synchronize_device(int index) {
  make_current(index);
  driver().check(driver().cuCtxSynchronize(), "cuCtxSynchronize", "cuda:" + std::to_string(index));
}

}  // namespace accel::cuda
