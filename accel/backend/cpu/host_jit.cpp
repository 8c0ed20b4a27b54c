#include "accel/backend/cpu/host_jit.h"

#include <atomic>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <mutex>
#include <thread>

#include "accel/backend/common/kernel_table.h"
#include "accel/backend/cpu/host_compiler.h"
#include "accel/codegen/emit.h"
#include "accel/runtime/config.h"
#include "accel/runtime/errors.h"

namespace accel::cpu {
namespace {

// A kernel pays for its compile (about a second) when it is big or keeps coming back.
constexpr int64_t kJitAtOnceElements = int64_t(1) << 20;
constexpr int64_t kJitRepeatedElements = int64_t(1) << 15;
constexpr int kJitRepeatedRuns = 3;

enum class State { seen, queued, ready, failed };

struct Entry {
  State state = State::seen;
  int runs = 0;
  HostKernel fn = nullptr;
};

struct Job {
  ir::KernelIR ir;
};

class Jit {
 public:
  HostKernel lookup(const ir::KernelIR& ir, int64_t elements) {
    if (!enabled_.load(std::memory_order_relaxed)) return nullptr;
    std::unique_lock<std::mutex> lock(mutex_);
    Entry& e = entry(ir);
    if (e.state == State::ready) return e.fn;
    if (e.state != State::seen) return nullptr;
    if (always_) {
      if (!compilable(ir)) return nullptr;
      lock.unlock();
      return compile_waiting(ir);
    }
    ++e.runs;
    const bool pays = elements >= kJitAtOnceElements ||
                      (elements >= kJitRepeatedElements && e.runs >= kJitRepeatedRuns);
    if (!pays || !worth_compiling(ir)) return nullptr;
    e.state = State::queued;
    queue_.push_back({ir});
    ++busy_;
    if (!worker_started_) {
      worker_started_ = true;
      std::thread([this] { work(); }).detach();  // lives with the process, as the pools do
    }
    cv_.notify_all();
    return nullptr;
  }

  HostKernel compile_now(const ir::KernelIR& ir) {
    HostKernel fn = build(ir);
    std::lock_guard<std::mutex> lock(mutex_);
    Entry& e = entry(ir);
    e.state = State::ready;
    e.fn = fn;
    return fn;
  }

  void wait() {
    std::unique_lock<std::mutex> lock(mutex_);
    idle_cv_.wait(lock, [&] { return busy_ == 0; });
  }

  void forget() {
    wait();
    std::lock_guard<std::mutex> lock(mutex_);
    entries_.clear();
  }

  HostJitStats stats() {
    std::lock_guard<std::mutex> lock(mutex_);
    HostJitStats s = stats_;
    s.jit_runs = jit_runs_.load();
    s.compiler = host_compiler_identity();
    return s;
  }

  std::atomic<bool> enabled_{config::flag(config::Var::ACCEL_JIT, true)};
  const bool always_ = config::flag(config::Var::ACCEL_JIT_ALWAYS, false);
  std::atomic<uint64_t> jit_runs_{0};

 private:
  // Under mutex_. Keyed by the full IR (plan::KernelTable), not by its hash alone.
  Entry& entry(const ir::KernelIR& ir) { return entries_.insert(plan::kHostDevice, ir, Entry{}); }

  // The host dialect takes every layout but by-value parameters (a CUDA launch's).
  static bool compilable(const ir::KernelIR& ir) { return !ir.has_layout(ir::Layout::by_value); }

  // One op gains nothing over its typed loop; two or more save the passes between them.
  static bool worth_compiling(const ir::KernelIR& ir) {
    int ops = 0;
    for (const ir::Instr& in : ir.instrs) ops += in.kind == ir::InstrKind::op;
    return ops >= 2 && compilable(ir);
  }

  // ACCEL_JIT_ALWAYS: compiled in the caller's thread before the first run. A kernel that does
  // not build stays interpreted and counts as a failure (the fuzzer's JIT mode checks the count).
  HostKernel compile_waiting(const ir::KernelIR& ir) {
    HostKernel fn = nullptr;
    try {
      fn = build(ir);
    } catch (const std::exception& ex) {
      report_failure(ir, ex);
    }
    std::lock_guard<std::mutex> lock(mutex_);
    Entry& e = entry(ir);
    if (e.state == State::ready) return e.fn;  // another thread finished it first
    e.state = fn ? State::ready : State::failed;
    e.fn = fn;
    if (!fn) ++stats_.failures;
    return fn;
  }

  static void report_failure(const ir::KernelIR& ir, const std::exception& ex) {
    if (config::number(config::Var::ACCEL_DEBUG).value_or(0) >= 1)
      std::fprintf(stderr, "[accel jit] %s stays interpreted: %s\n", ir.name().c_str(), ex.what());
  }

  void work() {
    for (;;) {
      Job job;
      {
        std::unique_lock<std::mutex> lock(mutex_);
        cv_.wait(lock, [&] { return !queue_.empty(); });
        job = std::move(queue_.front());
        queue_.pop_front();
      }
      HostKernel fn = nullptr;
      try {
        fn = build(job.ir);
      } catch (const std::exception& e) {
        report_failure(job.ir, e);
      }
      std::lock_guard<std::mutex> lock(mutex_);
      Entry& e = entry(job.ir);
      e.state = fn ? State::ready : State::failed;
      e.fn = fn;
      if (!fn) ++stats_.failures;
      if (--busy_ == 0) idle_cv_.notify_all();
    }
  }

  HostKernel build(const ir::KernelIR& ir) {
    const std::string source =
        host_vector_math_declarations() + codegen::emit_kernel(ir, codegen::host_dialect());
    const HostLibrary lib = build_host_library(source, {}, ir.name(), /*waited_for=*/false);
    auto fn = reinterpret_cast<HostKernel>(host_symbol(lib, ir.name(), ir.name()));
    std::lock_guard<std::mutex> lock(mutex_);
    if (lib.from_disk) {
      ++stats_.disk_hits;
    } else {
      ++stats_.compiles;
      stats_.compile_seconds += lib.compile_seconds;
    }
    return fn;
  }

  std::mutex mutex_;
  std::condition_variable cv_, idle_cv_;
  plan::KernelTable<Entry> entries_;
  std::deque<Job> queue_;
  int busy_ = 0;
  bool worker_started_ = false;
  HostJitStats stats_;
};

Jit& jit() {
  static Jit* j = new Jit();  // never destroyed: its worker thread runs until the process exits
  return *j;
}

}  // namespace

HostKernel host_kernel_for(const ir::KernelIR& ir, int64_t elements) {
  return jit().lookup(ir, elements);
}
HostKernel compile_host_kernel(const ir::KernelIR& ir) { return jit().compile_now(ir); }
void host_jit_wait() { jit().wait(); }
void host_jit_forget() { jit().forget(); }
HostJitStats host_jit_stats() { return jit().stats(); }
bool host_jit_enabled() { return jit().enabled_.load(); }
void set_host_jit_enabled(bool on) { jit().enabled_.store(on); }
void note_jit_run() { jit().jit_runs_.fetch_add(1, std::memory_order_relaxed); }

}  // namespace accel::cpu
