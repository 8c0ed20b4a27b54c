// CUDA streams and events. Each thread has a current stream per device (the device's default
// stream until a StreamGuard or Python's `with stream:` changes it); allocations, copies and
// launches go to it. How work on different streams is ordered: stream_order.h and
// docs/ARCHITECTURE.md, "Streams and memory lifetime".
#pragma once
#include <cstdint>
#include <memory>
#include <optional>

#include "accel/backend/cuda/cuda_types.h"

namespace accel::cuda {

class Event;

// A stream's identity for the lifetime of the process: 0 is every device's default stream, each
// created stream gets the next number. Never reused, unlike a CUstream handle, which the driver
// may hand to a new stream once the old one is destroyed (allocator pools are keyed by it).
using StreamId = uint64_t;

class Stream {
 public:
  // The device's default (legacy NULL) stream.
  static Stream default_stream(int device);
  // A new stream. As CuPy's and PyTorch's, it is ordered with the legacy default stream (each
  // waits for the other's earlier work) unless `non_blocking`.
  static Stream create(int device, bool non_blocking = false);
  // The stream with this id if it still exists (the default stream always does).
  static std::optional<Stream> from_id(int device, StreamId id);

  CUstream handle() const { return impl_ ? impl_->handle : nullptr; }
  StreamId id() const { return impl_ ? impl_->id : 0; }
  int device() const { return device_; }
  bool is_default() const { return handle() == nullptr; }
  bool non_blocking() const { return impl_ && impl_->non_blocking; }
  void synchronize() const;
  bool query() const;  // true when all work queued so far has finished
  void wait(const Event& event) const;  // later work on this stream waits for the event
  bool operator==(const Stream& o) const { return id() == o.id() && device_ == o.device_; }

 private:
  struct Impl {
    CUstream handle = nullptr;
    int device = 0;
    StreamId id = 0;
    bool non_blocking = false;
    ~Impl();  // never throws
  };
  Stream(int device, std::shared_ptr<Impl> impl) : device_(device), impl_(std::move(impl)) {}
  int device_ = 0;
  std::shared_ptr<Impl> impl_;  // null for the default stream
};

class Event {
 public:
  static Event create(int device, bool timing = true);

  void record(const Stream& stream) const;
  void synchronize() const;
  bool query() const;  // true when the work before the recording has finished
  // Milliseconds from this event to `end`; both recorded and finished (waits for end).
  float elapsed_ms(const Event& end) const;
  CUevent handle() const { return impl_->handle; }
  int device() const { return impl_->device; }

 private:
  struct Impl {
    CUevent handle = nullptr;
    int device = 0;
    bool timing = true;
    ~Impl();  // never throws
  };
  explicit Event(std::shared_ptr<Impl> impl) : impl_(std::move(impl)) {}
  std::shared_ptr<Impl> impl_;
};

// The calling thread's current stream on a device.
Stream current_stream(int device);
// Makes `stream` current for its device on this thread; returns the previous one.
Stream set_current_stream(const Stream& stream);

// Restores the previous current stream when it goes out of scope.
class StreamGuard {
 public:
  explicit StreamGuard(const Stream& stream) : previous_(set_current_stream(stream)) {}
  ~StreamGuard() { set_current_stream(previous_); }
  StreamGuard(const StreamGuard&) = delete;
  StreamGuard& operator=(const StreamGuard&) = delete;

 private:
  Stream previous_;
};

}  // namespace accel::cuda
