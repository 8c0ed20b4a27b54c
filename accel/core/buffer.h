// A block of device memory shared by an array and all of its views.
#pragma once
#include <cstddef>
#include <memory>
#include <span>
#include <vector>

#include "accel/core/device.h"

namespace accel {

struct ArrayImpl;

// Arrays not yet computed that read some memory (a buffer, or a pending array's future value).
// Before that memory is written in place they are computed, so `y = x * 2; x += 1` leaves y
// with the old values.
class PendingReaders {
 public:
  void add(const std::shared_ptr<ArrayImpl>& reader);
  // Computes every reader still pending; those in `except` (about to be computed by the
  // caller) stay registered.
  void evaluate(std::span<const ArrayImpl* const> except = {});
  // Moves every reader still pending to `to` (a pending array got its buffer).
  void move_to(PendingReaders& to);

 private:
  std::vector<std::weak_ptr<ArrayImpl>> readers_;
};

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

  // Lazy evaluation: arrays not yet computed that read this buffer (see PendingReaders).
  void add_pending_reader(const std::shared_ptr<ArrayImpl>& reader) { readers_.add(reader); }
  void evaluate_pending_readers(const ArrayImpl* except = nullptr);
  void evaluate_pending_readers(std::span<const ArrayImpl* const> except) {
    readers_.evaluate(except);
  }
  PendingReaders& pending_readers() { return readers_; }

  // Memory that code outside accel may write without telling it: imported from NumPy, DLPack
  // or the buffer protocol, or exported writable to them. A lazy value reading it could see a
  // later write, so operations reading it are computed at once (core/array.cpp).
  bool foreign_writers() const { return foreign_writers_; }
  // Computes the pending readers (they keep the values they would have had now), then marks it.
  void share_with_foreign_writers();

 private:
  void* ptr_;
  size_t nbytes_;
  Device device_;
  Deallocator* owner_ = nullptr;
  std::shared_ptr<void> keepalive_;
  bool read_only_ = false;
  bool foreign_writers_ = false;
  PendingReaders readers_;
};

}  // namespace accel
