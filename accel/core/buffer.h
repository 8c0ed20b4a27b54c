// A block of device memory shared by an array and all of its views.
#pragma once
#include <cstddef>
#include <memory>
#include <span>
#include <vector>

#include "accel/core/device.h"

namespace accel {

struct ArrayImpl;

// Gives memory back to whoever handed it out (a caching allocator, usually).
class Deallocator {
 public:
  virtual ~Deallocator() = default;
  virtual void deallocate(void* ptr, size_t nbytes) = 0;
};

class Buffer {
 public:
  // Memory from an allocator, returned to it when the last view goes away.
  Buffer(void* ptr, size_t nbytes, Device device, Deallocator* owner)
      : ptr_(ptr), nbytes_(nbytes), device_(device), owner_(owner) {}
  // Memory owned by someone else (a NumPy array, a DLPack producer) kept alive by `keepalive`.
  Buffer(void* ptr, size_t nbytes, Device device, std::shared_ptr<void> keepalive)
      : ptr_(ptr), nbytes_(nbytes), device_(device), keepalive_(std::move(keepalive)) {}
  ~Buffer();
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;

  void* data() const { return ptr_; }
  size_t nbytes() const { return nbytes_; }
  Device device() const { return device_; }
  bool read_only() const { return read_only_; }
  void set_read_only(bool v) { read_only_ = v; }

  // Lazy evaluation: arrays not yet computed that read this buffer. Before the buffer is
  // written in place they are computed, so `y = x * 2; x += 1` leaves y with the old values.
  void add_pending_reader(const std::shared_ptr<ArrayImpl>& reader);
  // Readers in `except` (those about to be computed by the caller) stay registered.
  void evaluate_pending_readers(const ArrayImpl* except = nullptr);
  void evaluate_pending_readers(std::span<const ArrayImpl* const> except);

 private:
  void* ptr_;
  size_t nbytes_;
  Device device_;
  Deallocator* owner_ = nullptr;
  std::shared_ptr<void> keepalive_;
  bool read_only_ = false;
  std::vector<std::weak_ptr<ArrayImpl>> pending_readers_;
};

}  // namespace accel
