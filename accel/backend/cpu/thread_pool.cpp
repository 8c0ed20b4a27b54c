#include "accel/backend/cpu/thread_pool.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

#include "accel/runtime/config.h"

namespace accel::cpu {
namespace {

class ThreadPool {
 public:
  explicit ThreadPool(int n) { resize(n); }
  ~ThreadPool() { stop(); }

  int size() const { return static_cast<int>(workers_.size()) + 1; }

  void resize(int n) {
    stop();
    stopping_ = false;
    for (int i = 1; i < std::max(n, 1); ++i) workers_.emplace_back([this, i] { worker(i); });
  }

  // Runs fn(chunk) for chunk in [0, chunks) with the caller taking chunk 0.
  void run(int chunks, const std::function<void(int)>& fn) {
    std::unique_lock<std::mutex> caller(run_mutex_);  // one parallel region at a time
    {
      std::lock_guard<std::mutex> lock(mutex_);
      task_ = &fn;
      chunks_ = chunks;
      next_.store(1);
      pending_ = chunks - 1;
      error_ = nullptr;
      ++generation_;
    }
    cv_.notify_all();
    run_chunk(fn, 0);
    int c;
    while ((c = next_.fetch_add(1)) < chunks) {
      run_chunk(fn, c);
      finish_one();
    }
    std::unique_lock<std::mutex> lock(mutex_);
    // Also wait for workers still inside this task, so none can pick up a chunk of the next.
    done_cv_.wait(lock, [&] { return pending_ == 0 && active_ == 0; });
    task_ = nullptr;
    if (error_) std::rethrow_exception(error_);
  }

 private:
  void run_chunk(const std::function<void(int)>& fn, int c) {
    try {
      fn(c);
    } catch (...) {
      std::lock_guard<std::mutex> lock(mutex_);
      if (!error_) error_ = std::current_exception();
    }
  }

  void finish_one() {
    std::lock_guard<std::mutex> lock(mutex_);
    if (--pending_ == 0) done_cv_.notify_all();
  }

  void worker(int) {
    uint64_t seen = 0;
    for (;;) {
      const std::function<void(int)>* task;
      int chunks;
      {
        std::unique_lock<std::mutex> lock(mutex_);
        cv_.wait(lock, [&] { return stopping_ || generation_ != seen; });
        if (stopping_) return;
        seen = generation_;
        task = task_;
        chunks = chunks_;
        if (!task) continue;
        ++active_;
      }
      int c;
      while ((c = next_.fetch_add(1)) < chunks) {
        run_chunk(*task, c);
        finish_one();
      }
      std::lock_guard<std::mutex> lock(mutex_);
      if (--active_ == 0) done_cv_.notify_all();
    }
  }

  void stop() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stopping_ = true;
    }
    cv_.notify_all();
    for (auto& t : workers_) t.join();
    workers_.clear();
  }

  std::vector<std::thread> workers_;
  std::mutex run_mutex_;
  std::mutex mutex_;
  std::condition_variable cv_, done_cv_;
  const std::function<void(int)>* task_ = nullptr;
  int chunks_ = 0;
  std::atomic<int> next_{0};
  int pending_ = 0;
  int active_ = 0;
  uint64_t generation_ = 0;
  bool stopping_ = false;
  std::exception_ptr error_;
};

int default_threads() {
  if (auto n = config::number(config::Var::ACCEL_NUM_THREADS); n && *n > 0)
    return static_cast<int>(std::min<uint64_t>(*n, 1024));
  return std::max(1u, std::thread::hardware_concurrency());
}

ThreadPool& pool() {
  static ThreadPool p(default_threads());
  return p;
}

// Nested parallel_for calls (a kernel calling a parallel op) run inline instead of deadlocking.
thread_local bool in_parallel_region = false;

}  // namespace

int num_threads() { return pool().size(); }
void set_num_threads(int n) { pool().resize(n); }

void detail::parallel_for_chunks(int64_t n, int64_t grain,
                                 const std::function<void(int64_t, int64_t)>& fn) {
  if (n <= 0) return;
  grain = std::max<int64_t>(grain, 1);
  int64_t chunks = std::min<int64_t>(num_threads(), (n + grain - 1) / grain);
  if (chunks <= 1 || in_parallel_region) {
    fn(0, n);
    return;
  }
  int64_t per = (n + chunks - 1) / chunks;
  pool().run(static_cast<int>(chunks), [&](int c) {
    in_parallel_region = true;
    int64_t b = c * per, e = std::min(n, b + per);
    try {
      if (b < e) fn(b, e);
    } catch (...) {
      in_parallel_region = false;
      throw;
    }
    in_parallel_region = false;
  });
}

}  // namespace accel::cpu
