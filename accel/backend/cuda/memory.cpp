#include "accel/backend/cuda/memory.h"

#include <cstdio>
#include <mutex>
#include <vector>

#include "accel/backend/cuda/devices.h"
#include "accel/backend/cuda/driver.h"
#include "accel/backend/cuda/stream_order.h"
#include "accel/runtime/errors.h"

namespace accel::cuda {
namespace {

class DeviceSegments final : public SegmentSource {
 public:
  explicit DeviceSegments(int device) : device_(device) {}
  void* allocate(size_t bytes) override {
    make_current(device_);
    CUdeviceptr p = 0;
    CUresult r = driver().cuMemAlloc(&p, bytes);
    if (r == CUDA_ERROR_OUT_OF_MEMORY) return nullptr;
    driver().check(r, "cuMemAlloc", "cuda:" + std::to_string(device_));
    return reinterpret_cast<void*>(p);
  }
  // Called when the cache is released, also from the allocator's destructor: never throws.
  void free(void* ptr) override {
    if (try_make_current(device_)) driver().cuMemFree(reinterpret_cast<CUdeviceptr>(ptr));
  }
  std::pair<size_t, size_t> memory_info() override { return cuda::memory_info(device_); }
  void synchronize() override { synchronize_device(device_); }
  void order_reuse(StreamId pool_stream, StreamId last_user) noexcept override {
    try {
      std::optional<Stream> pool = Stream::from_id(device_, pool_stream);
      if (!pool) return;  // a destroyed stream's pool is reused by nobody (only released)
      std::optional<Stream> user;
      if (last_user != kExternalStream) user = Stream::from_id(device_, last_user);
      if (user)
        wait_for(*pool, *user);
      else
        synchronize_device(device_);  // no handle left to wait for just that stream's work
    } catch (...) {
      // A destructor cannot report it; the next call on the context fails with the cause.
      std::fprintf(stderr, "[accel] cuda:%d: ordering a freed block after its last stream failed\n",
                   device_);
    }
  }

 private:
  int device_;
};

CUdeviceptr dptr(const void* p) { return reinterpret_cast<CUdeviceptr>(p); }

}  // namespace

CachingAllocator& device_allocator(int device) {
  static std::mutex mutex;
  // Never destroyed: buffers may be released by Python during interpreter shutdown.
  static auto* allocators = new std::vector<std::unique_ptr<CachingAllocator>>();
  device_properties(device);  // validates the index
  std::lock_guard<std::mutex> lock(mutex);
  if (allocators->size() <= static_cast<size_t>(device)) allocators->resize(device + 1);
  auto& a = (*allocators)[device];
  if (!a)
    a = std::make_unique<CachingAllocator>(Device::cuda(device),
                                           std::make_unique<DeviceSegments>(device));
  return *a;
}

std::shared_ptr<Buffer> allocate(int device, size_t nbytes) {
  return device_allocator(device).allocate(nbytes, current_stream(device).id());
}

std::shared_ptr<void> allocate_pinned(size_t nbytes) {
  const DriverApi& api = driver();
  make_current(0);  // pinned memory needs a context; PORTABLE makes it valid in all of them
  void* p = nullptr;
  CUresult r = api.cuMemHostAlloc(&p, std::max<size_t>(nbytes, 1), kMemHostAllocPortable);
  if (r == CUDA_ERROR_OUT_OF_MEMORY)
    throw OutOfMemoryError("allocate pinned host memory", nbytes, 0, 0, 0, 0);
  api.check(r, "cuMemHostAlloc", "pinned");
  // The deleter may run on a thread with no context (cuMemFreeHost needs one) and must not
  // throw.
  return std::shared_ptr<void>(p, [](void* q) noexcept {
    if (try_make_current(0)) driver().cuMemFreeHost(q);
  });
}

void copy_async(void* dst, const void* src, size_t nbytes, CopyKind kind, const Stream& stream) {
  if (nbytes == 0) return;
  const int device = stream.device();
  if (kind != CopyKind::host_to_device) order_use(device, src, stream);
  if (kind != CopyKind::device_to_host) order_use(device, dst, stream);
  make_current(device);
  const DriverApi& api = driver();
  std::string where = "copy cuda:" + std::to_string(stream.device());
  switch (kind) {
    case CopyKind::host_to_device:
      api.check(api.cuMemcpyHtoDAsync(dptr(dst), src, nbytes, stream.handle()), "cuMemcpyHtoDAsync", where);
      break;
    case CopyKind::device_to_host:
      api.check(api.cuMemcpyDtoHAsync(dst, dptr(src), nbytes, stream.handle()), "cuMemcpyDtoHAsync", where);
      break;
    case CopyKind::device_to_device:
      api.check(api.cuMemcpyDtoDAsync(dptr(dst), dptr(src), nbytes, stream.handle()), "cuMemcpyDtoDAsync", where);
      break;
  }
}

// Pageable (plain malloc'd or stack) memory is unknown to the driver: cuPointerGetAttribute
// answers CUDA_ERROR_INVALID_VALUE. Pinned, registered and managed memory are known.
bool is_pageable_host_memory(const void* p) {
  int memory_type = 0;
  return driver().cuPointerGetAttribute(&memory_type, kPointerAttributeMemoryType, dptr(p)) ==
         CUDA_ERROR_INVALID_VALUE;
}

void copy(void* dst, const void* src, size_t nbytes, CopyKind kind, const Stream& stream) {
  copy_async(dst, src, nbytes, kind, stream);
  if (kind == CopyKind::host_to_device && nbytes > 0 && is_pageable_host_memory(src)) return;
  stream.synchronize();
}

void memset_async(void* dst, unsigned char value, size_t nbytes, const Stream& stream) {
  if (nbytes == 0) return;
  order_use(stream.device(), dst, stream);
  make_current(stream.device());
  driver().check(driver().cuMemsetD8Async(dptr(dst), value, nbytes, stream.handle()),
                 "cuMemsetD8Async", "memset cuda:" + std::to_string(stream.device()));
}

}  // namespace accel::cuda
