// Device memory (one caching allocator per device), pinned host memory, and copies between
// host and device or device and device, synchronous or queued on a stream.
#pragma once
#include <cstddef>
#include <memory>

#include "accel/backend/cuda/caching_allocator.h"
#include "accel/backend/cuda/stream.h"

namespace accel::cuda {

// The device's allocator (created on first use).
CachingAllocator& device_allocator(int device);
// Device memory for work on `stream` (default: the current stream).
std::shared_ptr<Buffer> allocate(int device, size_t nbytes);

// Page-locked host memory: transfers from and to it run at full bus speed and can overlap
// with kernels. Freed with cuMemFreeHost when the last reference goes.
std::shared_ptr<void> allocate_pinned(size_t nbytes);

// True for host memory the driver does not know (plain malloc'd or stack memory): copies from
// and to it are staged through a pinned buffer by the driver, at about half the bus speed.
bool is_pageable_host_memory(const void* p);

enum class CopyKind { host_to_device, device_to_host, device_to_device };

// Queues a copy on `stream`. With pageable host memory the driver stages it, and the call
// returns only when the host side is done.
void copy_async(void* dst, const void* src, size_t nbytes, CopyKind kind, const Stream& stream);
// Copies on `stream`; when it returns, the host side may be reused (a host -> device source)
// or read (a device -> host destination). Device -> host and copies from pinned or managed
// memory wait for the stream. A host -> device copy from pageable memory does not: the driver
// has staged the bytes when cuMemcpyHtoDAsync returns, and stream order puts it after earlier
// kernels, so waiting would only stall the host (e.g. for every Python scalar in `a * 2`).
void copy(void* dst, const void* src, size_t nbytes, CopyKind kind, const Stream& stream);
// Sets nbytes of device memory to `value`, on `stream`.
void memset_async(void* dst, unsigned char value, size_t nbytes, const Stream& stream);

}  // namespace accel::cuda
