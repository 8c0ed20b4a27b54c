// How work on different streams is ordered around device memory (docs/ARCHITECTURE.md,
// "Streams and memory lifetime"). Every block from the caching allocator remembers the stream
// that last used it. Work about to use memory on stream s calls order_use first: when another
// stream used the memory last, s waits for an event recorded on that stream (so an upload on
// the default stream is finished before a kernel on s reads it, and a kernel on s before the
// default stream reads its result), and s becomes the last user. A block freed after use on
// another stream is reused only after that stream's work (CachingAllocator::deallocate).
#pragma once
#include <cstdint>
#include <optional>
#include <span>

#include "accel/backend/cuda/stream.h"
#include "accel/core/array.h"

namespace accel::cuda {

// Stands for a stream outside accel (a DLPack consumer's) as a block's last user: accel cannot
// record on it later, so freeing such a block waits for the whole device.
inline constexpr StreamId kExternalStream = ~StreamId(0);

// Orders `stream` after earlier work on other streams that used the allocator block holding
// `ptr` (any address inside it), and records `stream` as its last user. Memory accel did not
// allocate (imported through DLPack or the buffer protocol) is left to its producer.
void order_use(int device, const void* ptr, const Stream& stream);
// The same for an array's memory (nothing for arrays of another device or without memory).
void order_use(const Array& array, const Stream& stream);
void order_use(std::span<const Array> arrays, const Stream& stream);

// Later work on `waiter` waits for the work queued so far on `after` (an event recorded on one
// and waited for by the other). Nothing when they are the same stream.
void wait_for(const Stream& waiter, const Stream& after);
// Later work on the raw stream `consumer` (not accel's: a DLPack consumer's) waits for accel's
// queued work on the array's memory, which the consumer may read until it lets it go: the
// block is marked as last used by kExternalStream.
void order_external_use(const Array& array, CUstream consumer);
// __dlpack__(stream=...) for a CUDA array, as the Array API defines the number: None or 1 the
// legacy default stream, 2 the per-thread default stream, -1 no ordering (the consumer orders
// itself), any other value a CUstream handle; 0 is refused (ambiguous). The memory counts as
// used by the consumer in every case.
void order_dlpack_export(const Array& array, std::optional<int64_t> stream);
// __cuda_array_interface__ of a CUDA array: the device's current stream waits for the last use
// of the memory, and its number is returned as the protocol's `stream` (1 for the legacy default
// stream, else the CUstream handle): the consumer orders its reads after it. The block then
// counts as used outside accel, as for a DLPack export.
int64_t order_interface_export(const Array& array);
// Later work on `waiter` waits for the work queued so far on the raw stream `producer` (another
// library's, named by its __cuda_array_interface__).
void wait_for_external(const Stream& waiter, CUstream producer);

}  // namespace accel::cuda
