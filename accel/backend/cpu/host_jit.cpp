#include "accel/backend/cpu/host_jit.h"

#include <dlfcn.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <sstream>
#include <thread>
#include <unordered_map>

#include "accel/codegen/emit.h"
#include "accel/runtime/errors.h"
#include "accel/runtime/kernel_cache.h"
#include "accel/runtime/sha256.h"

namespace accel::cpu {
namespace fs = std::filesystem;
namespace {

// -fno-math-errno lets calls to sin, exp, ... vectorise (through libmvec); it changes no
// result. -ffp-contract=off: no fused multiply-adds, which round differently from NumPy and
// from the interpreter (the library is compiled so too). -w: warnings in generated code help
// no one at run time.
constexpr const char* kFlags =
    "-std=c++17 -O3 -march=native -fno-math-errno -ffp-contract=off -fPIC -shared -w";

// Declares glibc's vector math (libmvec) to the compiler so that loops calling std::sin, std::exp,
// ... vectorise, as the library's own contiguous loops do (backend/cpu/vector_math.h).
constexpr const char* kVectorMathDecls = R"(
#include <cmath>
#if defined(__x86_64__) && defined(__GLIBC__) && defined(__AVX2__) && \
    (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 35))
#define ACCEL_MVEC(fn) __attribute__((__simd__("notinbranch"))) float fn##f(float) noexcept; \
                       __attribute__((__simd__("notinbranch"))) double fn(double) noexcept;
extern "C" {
ACCEL_MVEC(sin) ACCEL_MVEC(cos) ACCEL_MVEC(tan) ACCEL_MVEC(exp) ACCEL_MVEC(exp2)
ACCEL_MVEC(expm1) ACCEL_MVEC(log) ACCEL_MVEC(log2) ACCEL_MVEC(log10) ACCEL_MVEC(log1p)
ACCEL_MVEC(asin) ACCEL_MVEC(acos) ACCEL_MVEC(atan) ACCEL_MVEC(sinh) ACCEL_MVEC(cosh)
ACCEL_MVEC(tanh) ACCEL_MVEC(asinh) ACCEL_MVEC(acosh) ACCEL_MVEC(atanh) ACCEL_MVEC(cbrt)
}
#undef ACCEL_MVEC
#endif
)";

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
  uint64_t hash;
  ir::KernelIR ir;
};

class Jit {
 public:
  HostKernel lookup(const ir::KernelIR& ir, int64_t elements) {
    if (!enabled_.load(std::memory_order_relaxed)) return nullptr;
    const uint64_t h = ir.hash();
    std::unique_lock<std::mutex> lock(mutex_);
    Entry& e = entries_[h];
    if (e.state == State::ready) return e.fn;
    if (e.state != State::seen) return nullptr;
    ++e.runs;
    const bool pays = elements >= kJitAtOnceElements ||
                      (elements >= kJitRepeatedElements && e.runs >= kJitRepeatedRuns);
    if (!pays || !worth_compiling(ir)) return nullptr;
    e.state = State::queued;
    queue_.push_back({h, ir});
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
    Entry& e = entries_[ir.hash()];
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
    s.compiler = compiler_identity();
    return s;
  }

  std::atomic<bool> enabled_{[] {
    const char* env = std::getenv("ACCEL_JIT");
    return !(env && std::strcmp(env, "0") == 0);
  }()};
  std::atomic<uint64_t> jit_runs_{0};

 private:
  static bool worth_compiling(const ir::KernelIR& ir) {
    int ops = 0;
    for (const ir::Instr& in : ir.instrs) ops += in.kind == ir::InstrKind::op;
    return ops >= 2 && ir.all_layouts(ir::Layout::contiguous, ir::Layout::scalar);
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
        if (std::getenv("ACCEL_DEBUG"))
          std::fprintf(stderr, "[accel jit] %s stays interpreted: %s\n", job.ir.name().c_str(),
                       e.what());
      }
      std::lock_guard<std::mutex> lock(mutex_);
      Entry& e = entries_[job.hash];
      e.state = fn ? State::ready : State::failed;
      e.fn = fn;
      if (!fn) ++stats_.failures;
      if (--busy_ == 0) idle_cv_.notify_all();
    }
  }

  // The compiler to run and its --version line ("" when none is found).
  const std::pair<std::string, std::string>& compiler() {
    static const std::pair<std::string, std::string> c = [] {
      std::vector<std::string> names;
      if (const char* env = std::getenv("ACCEL_CXX"); env && *env)
        names.push_back(env);
      else
        names = {"c++", "g++", "clang++"};
      for (const std::string& name : names) {
        std::string cmd = "'" + name + "' --version 2>/dev/null";
        FILE* p = popen(cmd.c_str(), "r");
        if (!p) continue;
        char line[512] = {0};
        const bool ok = std::fgets(line, sizeof line, p) != nullptr;
        const int rc = pclose(p);
        if (ok && rc == 0) {
          std::string id = line;
          while (!id.empty() && (id.back() == '\n' || id.back() == '\r')) id.pop_back();
          return std::pair<std::string, std::string>(name, id);
        }
      }
      return std::pair<std::string, std::string>("", "");
    }();
    return c;
  }

  std::string compiler_identity() {
    const auto& [name, id] = compiler();
    return name.empty() ? "no C++ compiler found (set ACCEL_CXX)" : name + ": " + id;
  }

  static std::string cpu_model() {
    std::ifstream in("/proc/cpuinfo");
    std::string line;
    while (std::getline(in, line))
      if (line.rfind("model name", 0) == 0) return line;
    return "unknown cpu";
  }

  HostKernel build(const ir::KernelIR& ir) {
    const auto& [cxx, id] = compiler();
    if (cxx.empty())
      throw BackendUnavailable(
          "[jit] no C++ compiler found: looked for " +
          std::string(std::getenv("ACCEL_CXX") ? "ACCEL_CXX" : "c++, g++, clang++") +
          " on PATH; fused kernels run in the interpreter");
    const std::string source =
        std::string(kVectorMathDecls) + codegen::emit_kernel(ir, codegen::host_dialect());
    const std::string libs = "-lmvec -lm";
    static const std::string cpu = cpu_model();
    const std::string key = Sha256()
                                .update(source)
                                .update("\n")
                                .update(id)
                                .update("\n")
                                .update(kFlags)
                                .update(libs)
                                .update("\n")
                                .update(cpu)
                                .hex_digest();
    KernelCache& cache = KernelCache::instance();
    std::optional<fs::path> path = cache.load_path(key);
    if (path) {
      std::lock_guard<std::mutex> lock(mutex_);
      ++stats_.disk_hits;
    } else {
      path = compile_to_cache(cxx, source, libs, key, ir.name());
    }
    void* handle = dlopen(path->c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle)
      throw CompileError(std::string("[jit] cannot load ") + path->string() + ": " + dlerror());
    auto fn = reinterpret_cast<HostKernel>(dlsym(handle, ir.name().c_str()));
    if (!fn) throw CompileError("[jit] " + path->string() + " has no symbol " + ir.name());
    return fn;
  }

  // Each compile works in its own temporary directory, so processes compiling the same kernel
  // at once do not meet until the cache's atomic store, which keeps whichever entry came first.
  fs::path compile_to_cache(const std::string& cxx, const std::string& source,
                            const std::string& libs, const std::string& key,
                            const std::string& name) {
    std::string tmpl = (fs::temp_directory_path() / "accel-jit-XXXXXX").string();
    if (!mkdtemp(tmpl.data()))
      throw CompileError("[jit] cannot create a temporary directory in " +
                         fs::temp_directory_path().string());
    const fs::path dir = tmpl;
    const fs::path src = dir / (name + ".cpp"), so = dir / (name + ".so"), log = dir / "log.txt";
    std::ofstream(src) << source;
    const std::string cmd = "'" + cxx + "' " + kFlags + " -o '" + so.string() + "' '" +
                            src.string() + "' " + libs + " > '" + log.string() + "' 2>&1";
    const auto t0 = std::chrono::steady_clock::now();
    const int rc = std::system(cmd.c_str());
    const double secs =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::string bytes;
    if (rc == 0) {
      std::ifstream in(so, std::ios::binary);
      bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    }
    if (rc != 0 || bytes.empty()) {
      std::ifstream in(log);
      std::string msg((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
      fs::remove_all(dir);
      throw CompileError("[jit] " + cxx + " failed on kernel " + name + " (exit " +
                         std::to_string(rc) + "):\n" + msg.substr(0, 4000));
    }
    fs::remove_all(dir);
    fs::path stored = KernelCache::instance().store(key, bytes);
    std::lock_guard<std::mutex> lock(mutex_);
    ++stats_.compiles;
    stats_.compile_seconds += secs;
    return stored;
  }

  std::mutex mutex_;
  std::condition_variable cv_, idle_cv_;
  std::unordered_map<uint64_t, Entry> entries_;
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
