#include "accel/backend/cpu/host_compiler.h"

#include <dlfcn.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <utility>

#include "accel/backend/cpu/compiler_process.h"
#include "accel/runtime/compile_status.h"
#include "accel/runtime/config.h"
#include "accel/runtime/errors.h"
#include "accel/runtime/kernel_cache.h"
#include "accel/runtime/profiler.h"
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
constexpr const char* kLibs = "-lmvec -lm";

// The executable `name` runs (searched on PATH when it has no slash), links resolved; "" if none.
std::string resolve_executable(const std::string& name) {
  std::vector<std::string> candidates;
  if (name.find('/') != std::string::npos) {
    candidates.push_back(name);
  } else if (const char* path = std::getenv("PATH")) {
    std::string dirs = path;
    for (size_t b = 0, e; b <= dirs.size(); b = e + 1) {
      e = dirs.find(':', b);
      if (e == std::string::npos) e = dirs.size();
      candidates.push_back((e > b ? dirs.substr(b, e - b) : std::string(".")) + "/" + name);
    }
  }
  for (const std::string& c : candidates) {
    if (access(c.c_str(), X_OK) != 0) continue;
    std::error_code ec;
    const fs::path real = fs::canonical(c, ec);
    if (!ec && fs::is_regular_file(real, ec)) return real.string();
  }
  return "";
}

// `name --version`'s first line, or "" when it does not run.
std::string run_version(const std::string& name) {
  std::string cmd = "'" + name + "' --version 2>/dev/null";
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return "";
  char line[512] = {0};
  const bool ok = std::fgets(line, sizeof line, p) != nullptr;
  const int rc = pclose(p);
  if (!ok || rc != 0) return "";
  std::string id = line;
  while (!id.empty() && (id.back() == '\n' || id.back() == '\r')) id.pop_back();
  return id.empty() ? std::string("(no version)") : id;
}

// The --version line of compiler `name`. Running it costs a process start (milliseconds of every
// first kernel load in a process), so the line is kept in <cache dir>/compilers/ under the
// binary's resolved path, size and modification time: a changed compiler is asked again
// (ccache's default compiler check is the same). Not a cache entry: a damaged line only
// changes keys (a recompile), never what is loaded.
std::string compiler_version(const std::string& name) {
  const std::string real = resolve_executable(name);
  struct stat st;
  if (real.empty() || stat(real.c_str(), &st) != 0) return run_version(name);
  const fs::path file = KernelCache::instance().dir() / "compilers" /
                        Sha256()
                            .update(real)
                            .update("\n" + std::to_string(st.st_size) + "\n" +
                                    std::to_string(st.st_mtim.tv_sec) + "." +
                                    std::to_string(st.st_mtim.tv_nsec))
                            .hex_digest();
  std::string line;
  if (std::ifstream in(file); in && std::getline(in, line) && !line.empty()) return line;
  line = run_version(name);
  if (!line.empty()) {
    // Written aside and renamed into place, so a reader sees the whole line or none.
    std::error_code ec;
    KernelCache::instance().create_dir();
    fs::create_directories(file.parent_path(), ec);
    const fs::path temp = file.string() + ".tmp" + std::to_string(getpid());
    if (!ec && (std::ofstream(temp) << line << "\n")) fs::rename(temp, file, ec);
    if (ec) fs::remove(temp, ec);
  }
  return line;
}

// The compiler to run and its --version line ("" when none is found).
const std::pair<std::string, std::string>& compiler() {
  static const std::pair<std::string, std::string> c = [] {
    std::vector<std::string> names;
    if (auto env = config::text(config::Var::ACCEL_CXX))
      names.push_back(*env);
    else
      names = {"c++", "g++", "clang++"};
    for (const std::string& name : names)
      if (std::string id = compiler_version(name); !id.empty())
        return std::pair<std::string, std::string>(name, id);
    return std::pair<std::string, std::string>("", "");
  }();
  return c;
}

std::string cpu_model() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("model name", 0) == 0) return line;
  return "unknown cpu";
}

// A flag as one shell word (flags come from users: -DNAME="a b" must stay one argument).
std::string quoted(const std::string& flag) {
  std::string q = "'";
  for (char c : flag) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

// Each compile works in its own temporary directory, so processes compiling the same kernel
// at once do not meet until the cache's atomic store, which keeps whichever entry came first.
fs::path compile_to_cache(const std::string& cxx, const std::string& source,
                          const std::string& flags, const std::string& key, const std::string& what,
                          bool waited_for, double* seconds) {
  std::string tmpl = (fs::temp_directory_path() / "accel-jit-XXXXXX").string();
  if (!mkdtemp(tmpl.data()))
    throw CompileError("[jit] cannot create a temporary directory in " +
                       fs::temp_directory_path().string());
  const fs::path dir = tmpl;
  const fs::path src = dir / "kernel.cpp", so = dir / "kernel.so", log = dir / "log.txt";
  std::ofstream(src) << source;
  const std::string cmd = "'" + cxx + "' " + kFlags + flags + " -o '" + so.string() + "' '" +
                          src.string() + "' " + kLibs + " > '" + log.string() + "' 2>&1";
  const auto t0 = std::chrono::steady_clock::now();
  int rc;
  {
    std::optional<compile_status::Scope> status;
    if (waited_for) status.emplace(what, "the host compiler");
    rc = run_compile_command(cmd, dir);
  }
  *seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::string bytes;
  if (rc == 0) {
    std::ifstream in(so, std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  if (rc != 0 || bytes.empty()) {
    std::ifstream in(log);
    std::string msg((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    fs::remove_all(dir);
    throw CompileError("[jit] " + cxx + " failed on kernel " + what + " (exit " +
                       std::to_string(rc) + "):\n" + msg.substr(0, 4000));
  }
  fs::remove_all(dir);
  return KernelCache::instance().store(key, bytes);
}

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
__attribute__((__simd__("notinbranch"))) float atan2f(float, float) noexcept;
__attribute__((__simd__("notinbranch"))) double atan2(double, double) noexcept;
__attribute__((__simd__("notinbranch"))) float powf(float, float) noexcept;
__attribute__((__simd__("notinbranch"))) double pow(double, double) noexcept;
}
#undef ACCEL_MVEC
#endif
)";

}  // namespace

const char* host_vector_math_declarations() { return kVectorMathDecls; }

std::string host_compiler_identity() {
  const auto& [name, id] = compiler();
  return name.empty() ? "no C++ compiler found (set ACCEL_CXX)" : name + ": " + id;
}

HostLibrary build_host_library(const std::string& source,
                               const std::vector<std::string>& extra_flags,
                               const std::string& what, bool waited_for) {
  const auto& [cxx, id] = compiler();
  if (cxx.empty())
    throw BackendUnavailable(
        "[jit] no C++ compiler found for kernel " + what + ": looked for " +
        std::string(config::text(config::Var::ACCEL_CXX) ? "ACCEL_CXX" : "c++, g++, clang++") +
        " on PATH; install g++ or clang++, or name one with ACCEL_CXX");
  std::string flags;
  for (const std::string& f : extra_flags) flags += " " + quoted(f);
  static const std::string cpu = cpu_model();
  const std::string key = Sha256()
                              .update(source)
                              .update("\n")
                              .update(id)
                              .update("\n")
                              .update(kFlags)
                              .update(flags)
                              .update(kLibs)
                              .update("\n")
                              .update(cpu)
                              .hex_digest();
  std::optional<profile::Scope> rec;
  if (profile::active()) {
    rec.emplace(profile::EventKind::compile, what);
    rec->event().detail = "host C++";
  }
  HostLibrary lib;
  std::optional<fs::path> path = KernelCache::instance().load_path(key);
  lib.from_disk = path.has_value();
  if (rec && lib.from_disk) rec->event().flags |= profile::kCacheHit | profile::kDiskCache;
  if (!path) path = compile_to_cache(cxx, source, flags, key, what, waited_for, &lib.compile_seconds);
  lib.handle = dlopen(path->c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!lib.handle)
    throw CompileError("[jit] cannot load " + path->string() + " (kernel " + what +
                       "): " + dlerror());
  return lib;
}

void* host_symbol(const HostLibrary& lib, const std::string& name, const std::string& what) {
  void* fn = dlsym(lib.handle, name.c_str());
  if (!fn) throw CompileError("[jit] the library of kernel " + what + " has no symbol " + name);
  return fn;
}

}  // namespace accel::cpu
