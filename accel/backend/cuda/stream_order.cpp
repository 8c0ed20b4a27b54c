#include "accel/backend/cuda/stream_order.h"

#include "accel/backend/cuda/devices.h"
#include "accel/backend/cuda/driver.h"
#include "accel/backend/cuda/memory.h"
#include "accel/runtime/errors.h"

namespace accel::cuda {
namespace {

std::string where(int device) { return "stream order cuda:" + std::to_string(device); }

// An event recorded now on `after` (a stream gone by now: the whole device instead), waited for
// by the raw stream `waiter`.
void wait_for_id(int device, CUstream waiter, StreamId after) {
  std::optional<Stream> s = after == kExternalStream ? std::nullopt : Stream::from_id(device, after);
  if (!s) {
    // Its handle is gone, and with it any way to wait for just its work.
    synchronize_device(device);
    return;
  }
  if (s->handle() == waiter) return;
  Event e = Event::create(device, /*timing=*/false);
  e.record(*s);
  make_current(device);
  driver().check(driver().cuStreamWaitEvent(waiter, e.handle(), 0), "cuStreamWaitEvent",
                 where(device));
}

}  // namespace

void order_use(int device, const void* ptr, const Stream& stream) {
  if (std::optional<StreamId> last = device_allocator(device).note_use(ptr, stream.id()))
    wait_for_id(device, stream.handle(), *last);
}

void order_use(const Array& array, const Stream& stream) {
  if (!array.device().is_cuda() || array.device().index != stream.device()) return;
  const auto& buffer = array.impl()->buffer;  // null while pending: nothing has used it yet
  if (buffer && buffer->nbytes() > 0) order_use(stream.device(), buffer->data(), stream);
}

void order_use(std::span<const Array> arrays, const Stream& stream) {
  for (const Array& a : arrays) order_use(a, stream);
}

void wait_for(const Stream& waiter, const Stream& after) {
  if (waiter == after) return;
  wait_for_id(waiter.device(), waiter.handle(), after.id());
}

void order_external_use(const Array& array, CUstream consumer) {
  const int device = array.device().index;
  const auto& buffer = array.buffer();
  if (!buffer || buffer->nbytes() == 0) return;
  if (std::optional<StreamId> last = device_allocator(device).note_use(buffer->data(), kExternalStream))
    wait_for_id(device, consumer, *last);
}

void order_dlpack_export(const Array& array, std::optional<int64_t> stream) {
  const int64_t s = stream.value_or(1);
  if (s == 0)
    throw ValueError("[__dlpack__] stream=0 is ambiguous for CUDA and not allowed: pass 1 for the "
                     "legacy default stream, 2 for the per-thread default stream, or a stream "
                     "handle");
  if (s < -1)
    throw ValueError("[__dlpack__] stream=" + std::to_string(s) + " is not a CUDA stream");
  const auto& buffer = array.buffer();
  if (!buffer || buffer->nbytes() == 0) return;
  const int device = array.device().index;
  if (s == -1) {
    // The consumer orders itself, but the block must still outlive its work.
    device_allocator(device).note_use(buffer->data(), kExternalStream);
    return;
  }
  order_external_use(array, s == 1   ? kStreamLegacy
                            : s == 2 ? kStreamPerThread
                                     : reinterpret_cast<CUstream>(static_cast<uintptr_t>(s)));
}

int64_t order_interface_export(const Array& array) {
  const int device = array.device().index;
  const Stream stream = current_stream(device);
  order_use(array, stream);
  const auto& buffer = array.buffer();
  if (buffer && buffer->nbytes() > 0)
    device_allocator(device).note_use(buffer->data(), kExternalStream);
  return stream.is_default() ? 1 : static_cast<int64_t>(reinterpret_cast<uintptr_t>(stream.handle()));
}

void wait_for_external(const Stream& waiter, CUstream producer) {
  const int device = waiter.device();
  // The same stream: already in order (accel's default stream is the legacy one).
  if (producer == waiter.handle() || (waiter.is_default() && producer == kStreamLegacy)) return;
  Event e = Event::create(device, /*timing=*/false);
  make_current(device);
  driver().check(driver().cuEventRecord(e.handle(), producer), "cuEventRecord", where(device));
  waiter.wait(e);
}

}  // namespace accel::cuda
