// The kernels a process has built for fused regions, keyed by everything that decides their
// code: the device and the full KernelIR. The IR's 64-bit structural hash picks a bucket and
// equality decides, so a hash collision can never run another program's kernel. Used by the
// host JIT and the CUDA elementwise family; the caller holds its own lock.
#pragma once
#include <cstdint>
#include <memory>
#include <unordered_map>
#include <vector>

#include "accel/ir/kernel_ir.h"

namespace accel::plan {

inline constexpr int kHostDevice = -1;  // the device number of kernels compiled for the CPU

template <class Value>
class KernelTable {
 public:
  // The value stored for (device, ir), or nullptr.
  Value* find(int device, const ir::KernelIR& ir) { return find(device, ir, ir.hash()); }

  // The value stored for (device, ir), inserting `value` when there is none. References stay
  // valid until clear().
  Value& insert(int device, const ir::KernelIR& ir, Value value) {
    const uint64_t h = ir.hash();
    if (Value* v = find(device, ir, h)) return *v;
    auto& bucket = buckets_[h];
    bucket.push_back(std::make_unique<Slot>(Slot{device, ir, std::move(value)}));
    return bucket.back()->value;
  }

  void clear() { buckets_.clear(); }

 private:
  struct Slot {
    int device;
    ir::KernelIR ir;
    Value value;
  };

  Value* find(int device, const ir::KernelIR& ir, uint64_t h) {
    auto it = buckets_.find(h);
    if (it == buckets_.end()) return nullptr;
    for (const auto& slot : it->second)
      if (slot->device == device && slot->ir == ir) return &slot->value;
    return nullptr;
  }

  std::unordered_map<uint64_t, std::vector<std::unique_ptr<Slot>>> buckets_;
};

}  // namespace accel::plan
