// Kernel templates on the CPU (Backend::run_template): the kernel is emitted in the host dialect,
// built by the system compiler (host_compiler.h, kernel cache) and run over the thread pool.
#include <algorithm>
#include <cstring>
#include <memory>
#include <mutex>
#include <unordered_map>

#include "accel/backend/cpu/cpu_backend.h"
#include "accel/backend/cpu/host_compiler.h"
#include "accel/backend/cpu/thread_pool.h"
#include "accel/codegen/dialect.h"
#include "accel/codegen/template_kernel.h"

namespace accel::cpu {
namespace {

using ElementwiseFn = void (*)(const void* args, int64_t begin, int64_t end);
using ReduceFn = void (*)(const void* args, int64_t obegin, int64_t oend, int64_t rbegin,
                          int64_t rend, void* partial);
using FinishFn = void (*)(const void* args, const void* parts, int64_t nparts);

// Elements (or reduced positions) per thread below which a hand-off does not pay.
constexpr int64_t kGrain = int64_t(1) << 14;

struct HostTemplate {
  void* run = nullptr;
  void* finish = nullptr;  // reductions: folds the partial states of chunks
};

// The options the host compiler shares with NVRTC: macros and include directories. The others
// (--use_fast_math, -arch, ...) are for NVRTC only.
std::vector<std::string> host_flags(const std::vector<std::string>& options) {
  std::vector<std::string> flags;
  for (const std::string& o : options)
    if (o.rfind("-D", 0) == 0 || o.rfind("-U", 0) == 0 || o.rfind("-I", 0) == 0) flags.push_back(o);
  return flags;
}

// This process's compiled kernels by source (the kernel cache keeps them across processes).
HostTemplate host_template(const codegen::TemplateKernel& k) {
  static std::mutex mutex;
  static auto* table = new std::unordered_map<std::string, HostTemplate>();  // kernels never unload
  const std::vector<std::string> flags = host_flags(k.options);
  std::string source = std::string(host_vector_math_declarations()) +
                       codegen::emit_template_kernel(k, codegen::host_dialect());
  std::string key = source;
  for (const std::string& f : flags) key += "\n//" + f;
  {
    std::lock_guard<std::mutex> lock(mutex);
    if (auto it = table->find(key); it != table->end()) return it->second;
  }
  // Built outside the lock: other kernels may be wanted meanwhile.
  const HostLibrary lib = build_host_library(source, flags, k.name);
  HostTemplate t;
  t.run = host_symbol(lib, k.name, k.name);
  if (k.is_reduction()) t.finish = host_symbol(lib, k.name + "_finish", k.name);
  std::lock_guard<std::mutex> lock(mutex);
  return table->emplace(std::move(key), t).first->second;
}

void run_reduction(const HostTemplate& t, const codegen::TemplateLaunch& launch) {
  const auto run = reinterpret_cast<ReduceFn>(t.run);
  const void* args = launch.args.data();
  const int64_t n = launch.n, rn = launch.rn;
  const int64_t chunks = std::min<int64_t>(num_threads(), rn / kGrain);
  if (n >= num_threads() || chunks < 2) {
    const int64_t grain = std::max<int64_t>(1, kGrain / std::max<int64_t>(rn, 1));
    parallel_for(n, grain, [&](int64_t b, int64_t e) { run(args, b, e, 0, rn, nullptr); });
    return;
  }
  // Few outputs over long ranges: each chunk of the reduced range gives partial states, folded
  // in chunk order (the user's reduce_expr is assumed associative, as on the GPU).
  const size_t state = itemsize(launch.kernel.reduce_type);
  auto parts = std::make_unique<std::max_align_t[]>(
      (static_cast<size_t>(chunks * n) * state + sizeof(std::max_align_t) - 1) /
      sizeof(std::max_align_t));
  char* base = reinterpret_cast<char*>(parts.get());
  parallel_for(chunks, 1, [&](int64_t cb, int64_t ce) {
    for (int64_t c = cb; c < ce; ++c)
      run(args, 0, n, rn * c / chunks, rn * (c + 1) / chunks, base + c * n * state);
  });
  reinterpret_cast<FinishFn>(t.finish)(args, base, chunks);
}

}  // namespace

void CpuBackend::run_template(const codegen::TemplateLaunch& launch) {
  if (launch.n == 0) return;
  const HostTemplate t = host_template(launch.kernel);
  if (launch.kernel.is_reduction()) return run_reduction(t, launch);
  const auto run = reinterpret_cast<ElementwiseFn>(t.run);
  const void* args = launch.args.data();
  parallel_for(launch.n, kGrain, [&](int64_t b, int64_t e) { run(args, b, e); });
}

}  // namespace accel::cpu
