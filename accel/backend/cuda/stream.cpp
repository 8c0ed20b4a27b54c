#include "accel/backend/cuda/stream.h"

#include <atomic>
#include <mutex>
#include <unordered_map>

#include "accel/backend/cuda/devices.h"
#include "accel/backend/cuda/driver.h"
#include "accel/runtime/errors.h"

namespace accel::cuda {
namespace {

std::string where(int device) { return "cuda:" + std::to_string(device); }

std::unordered_map<int, Stream>& current_streams() {
  thread_local std::unordered_map<int, Stream> streams;
  return streams;
}

// The streams alive, by id, so that memory can be ordered after the stream that last used it
// (stream_order.cpp) without keeping that stream alive.
struct StreamRegistry {
  std::mutex mutex;
  std::unordered_map<StreamId, std::weak_ptr<void>> streams;
};

StreamRegistry& registry() {
  static auto* r = new StreamRegistry();  // never destroyed: streams may die at exit
  return *r;
}

}  // namespace

Stream::Impl::~Impl() {
  {
    std::lock_guard<std::mutex> lock(registry().mutex);
    registry().streams.erase(id);
  }
  // Queued work still completes; a destructor must not throw, so a failure is ignored.
  if (handle && try_make_current(device)) driver().cuStreamDestroy(handle);
}

Stream Stream::default_stream(int device) {
  device_properties(device);  // validates the index
  return Stream(device, nullptr);
}

Stream Stream::create(int device, bool non_blocking) {
  static std::atomic<StreamId> next_id{1};
  make_current(device);
  auto impl = std::make_shared<Impl>();
  impl->device = device;
  impl->non_blocking = non_blocking;
  driver().check(driver().cuStreamCreate(&impl->handle, non_blocking ? CU_STREAM_NON_BLOCKING : 0),
                 "cuStreamCreate", where(device));
  impl->id = next_id++;  // only now: a failed creation leaves nothing for ~Impl to unregister
  std::lock_guard<std::mutex> lock(registry().mutex);
  registry().streams[impl->id] = impl;
  return Stream(device, std::move(impl));
}

std::optional<Stream> Stream::from_id(int device, StreamId id) {
  if (id == 0) return default_stream(device);
  std::shared_ptr<void> alive;  // released after the lock: it may be the last reference
  {
    std::lock_guard<std::mutex> lock(registry().mutex);
    auto it = registry().streams.find(id);
    if (it != registry().streams.end()) alive = it->second.lock();
  }
  auto impl = std::static_pointer_cast<Impl>(std::move(alive));
  if (!impl || impl->device != device) return std::nullopt;
  return Stream(device, std::move(impl));
}

void Stream::synchronize() const {
  make_current(device_);
  driver().check(driver().cuStreamSynchronize(handle()), "cuStreamSynchronize", where(device_));
}

bool Stream::query() const {
  make_current(device_);
  CUresult r = driver().cuStreamQuery(handle());
  if (r == CUDA_ERROR_NOT_READY) return false;
  driver().check(r, "cuStreamQuery", where(device_));
  return true;
}

void Stream::wait(const Event& event) const {
  make_current(device_);
  driver().check(driver().cuStreamWaitEvent(handle(), event.handle(), 0), "cuStreamWaitEvent",
                 where(device_));
}

Event::Impl::~Impl() {
  if (handle && try_make_current(device)) driver().cuEventDestroy(handle);
}

Event Event::create(int device, bool timing) {
  make_current(device);
  auto impl = std::make_shared<Impl>();
  impl->device = device;
  impl->timing = timing;
  driver().check(driver().cuEventCreate(&impl->handle, timing ? CU_EVENT_DEFAULT : CU_EVENT_DISABLE_TIMING),
                 "cuEventCreate", where(device));
  return Event(std::move(impl));
}

void Event::record(const Stream& stream) const {
  if (stream.device() != impl_->device)
    throw DeviceError("[event] an event of " + where(impl_->device) +
                      " cannot record a stream of " + where(stream.device()));
  make_current(impl_->device);
  driver().check(driver().cuEventRecord(impl_->handle, stream.handle()), "cuEventRecord",
                 where(impl_->device));
}

void Event::synchronize() const {
  make_current(impl_->device);
  driver().check(driver().cuEventSynchronize(impl_->handle), "cuEventSynchronize",
                 where(impl_->device));
}

bool Event::query() const {
  make_current(impl_->device);
  CUresult r = driver().cuEventQuery(impl_->handle);
  if (r == CUDA_ERROR_NOT_READY) return false;
  driver().check(r, "cuEventQuery", where(impl_->device));
  return true;
}

float Event::elapsed_ms(const Event& end) const {
  if (!impl_->timing || !end.impl_->timing)
    throw ValueError("[event] elapsed time needs two events created with timing enabled");
  end.synchronize();
  float ms = 0;
  driver().check(driver().cuEventElapsedTime(&ms, impl_->handle, end.impl_->handle),
                 "cuEventElapsedTime", where(impl_->device));
  return ms;
}

Stream current_stream(int device) {
  auto& streams = current_streams();
  if (auto it = streams.find(device); it != streams.end()) return it->second;
  return Stream::default_stream(device);
}

Stream set_current_stream(const Stream& stream) {
  Stream previous = current_stream(stream.device());
  current_streams().insert_or_assign(stream.device(), stream);
  return previous;
}

}  // namespace accel::cuda
