// A bounded cache of library plans (cuFFT's, accel/backend/cuda/fft.cpp): one per key, the least
// recently used dropped past the capacity, and every plan of a device dropped on request (under
// memory pressure: the caching allocator's hook, and accel.cuda.free_cached()). Plans are handed
// out as shared_ptr, so a plan dropped while a call is using it lives until that call is done.
// Pure host code: tests/cpp/cuda_fft_solver_test.cpp checks it without a GPU.
#pragma once
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

namespace accel::cuda {

// Key: ordered (operator<), with a public `int device`.
template <class Key, class Plan>
class PlanCache {
 public:
  explicit PlanCache(size_t capacity) : capacity_(capacity) {}

  // The cached plan for `key`, or make()'s, cached. make() runs outside the lock: it may allocate
  // device memory, and an allocation that fails runs the memory-pressure hook, which takes the
  // lock to drop plans. Two threads missing the same key both make one; the first is kept.
  template <class Make>
  std::shared_ptr<Plan> get(const Key& key, Make&& make) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (auto it = entries_.find(key); it != entries_.end()) {
        ++hits_;
        it->second.last_use = ++clock_;
        return it->second.plan;
      }
      ++misses_;
    }
    std::shared_ptr<Plan> plan = make();
    std::vector<std::shared_ptr<Plan>> evicted;  // destroyed after the lock is released
    std::lock_guard<std::mutex> lock(mutex_);
    auto [it, inserted] = entries_.try_emplace(key, Entry{plan, ++clock_});
    if (!inserted) return it->second.plan;
    while (entries_.size() > capacity_) {
      auto oldest = entries_.begin();
      for (auto e = entries_.begin(); e != entries_.end(); ++e)
        if (e->second.last_use < oldest->second.last_use) oldest = e;
      evicted.push_back(std::move(oldest->second.plan));
      entries_.erase(oldest);
    }
    return plan;
  }

  // Drops every plan of `device`; returns how many. Plans still in use live until released.
  size_t release(int device) {
    std::vector<std::shared_ptr<Plan>> dropped;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      for (auto it = entries_.begin(); it != entries_.end();) {
        if (it->first.device == device) {
          dropped.push_back(std::move(it->second.plan));
          it = entries_.erase(it);
        } else {
          ++it;
        }
      }
    }
    return dropped.size();
  }

  size_t size() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return entries_.size();
  }
  int64_t hits() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return hits_;
  }
  int64_t misses() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return misses_;
  }

 private:
  struct Entry {
    std::shared_ptr<Plan> plan;
    uint64_t last_use;
  };
  const size_t capacity_;
  mutable std::mutex mutex_;
  std::map<Key, Entry> entries_;
  uint64_t clock_ = 0;
  int64_t hits_ = 0, misses_ = 0;
};

}  // namespace accel::cuda
