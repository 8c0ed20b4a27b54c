#include "accel/backend/cuda/compiler.h"

#include <charconv>
#include <chrono>
#include <map>
#include <mutex>
#include <optional>
#include <regex>
#include <set>
#include <sstream>
#include <unordered_map>

#include "accel/backend/cuda/devices.h"
#include "accel/backend/cuda/nvrtc.h"
#include "accel/runtime/compile_status.h"
#include "accel/runtime/errors.h"
#include "accel/runtime/kernel_cache.h"
#include "accel/runtime/profiler.h"

namespace accel::cuda {
namespace {

// Length-prefixed fields ("<n>:<bytes>"), so binary images need no escaping.
void put(std::string& out, std::string_view field) {
  out += std::to_string(field.size());
  out += ':';
  out += field;
}

bool take(std::string_view& in, std::string& field) {
  size_t colon = in.find(':');
  if (colon == std::string_view::npos) return false;
  size_t n = 0;
  auto [end, ec] = std::from_chars(in.data(), in.data() + colon, n);
  if (ec != std::errc() || end != in.data() + colon || in.size() - colon - 1 < n) return false;
  field.assign(in.substr(colon + 1, n));
  in.remove_prefix(colon + 1 + n);
  return true;
}

constexpr std::string_view kFormat = "accel-cuda-module 1";

std::string serialize(const CompiledModule& m) {
  std::string out;
  put(out, kFormat);
  put(out, m.arch);
  put(out, m.cubin ? "cubin" : "ptx");
  put(out, std::to_string(m.lowered_names.size()));
  for (const auto& [expr, lowered] : m.lowered_names) {
    put(out, expr);
    put(out, lowered);
  }
  put(out, m.log);
  put(out, m.image);
  return out;
}

std::shared_ptr<CompiledModule> deserialize(std::string_view in) {
  auto m = std::make_shared<CompiledModule>();
  std::string format, kind, count;
  if (!take(in, format) || format != kFormat || !take(in, m->arch) || !take(in, kind) ||
      !take(in, count))
    return nullptr;
  m->cubin = kind == "cubin";
  size_t n = 0;
  std::from_chars(count.data(), count.data() + count.size(), n);
  for (size_t i = 0; i < n; ++i) {
    std::string expr, lowered;
    if (!take(in, expr) || !take(in, lowered)) return nullptr;
    m->lowered_names[expr] = lowered;
  }
  if (!take(in, m->log) || !take(in, m->image) || !in.empty()) return nullptr;
  return m;
}

struct Caches {
  std::mutex mutex;
  std::unordered_map<std::string, std::shared_ptr<const CompiledModule>> memory;
  CompileStats stats;
};
Caches& caches() {
  static Caches* c = new Caches();
  return *c;
}

// "  kernel.cu:7 | the source line" for each line the log reports an error on. The log numbers
// lines as the preprocessor does: `#line N "file"` directives (a checked build's prelude puts the
// user's source after `#line 1 "kernel.cu"`) renumber what follows them, so lines are looked up
// by (file, number) as the directives give them, not by position in the source.
std::string offending_lines(std::string_view source, const std::string& log,
                            const std::string& program) {
  std::map<std::pair<std::string, int>, std::string> lines;
  static const std::regex directive(R"re(^\s*#\s*line\s+(\d+)(?:\s+"([^"]*)")?\s*$)re");
  std::istringstream src{std::string(source)};
  std::string file = program;
  int number = 1;
  for (std::string line; std::getline(src, line);) {
    std::smatch m;
    if (std::regex_match(line, m, directive)) {
      number = std::stoi(m[1].str());
      if (m[2].matched) file = m[2].str();
      continue;
    }
    lines.emplace(std::make_pair(file, number++), line);
  }
  static const std::regex error_at(R"((?:^|\n)([^\n(]*)\((\d+)\): (catastrophic )?error)");
  std::set<std::pair<std::string, int>> seen;
  std::string out;
  for (auto it = std::sregex_iterator(log.begin(), log.end(), error_at); it != std::sregex_iterator();
       ++it) {
    const auto key = std::make_pair((*it)[1].str(), std::stoi((*it)[2].str()));
    const auto found = lines.find(key);
    if (found == lines.end() || !seen.insert(key).second || seen.size() > 10) continue;
    out += "\n  " + key.first + ":" + std::to_string(key.second) + " | " + found->second;
  }
  return out;
}

std::string check_arch(const std::string& arch) {
  static const std::regex valid(R"((sm|compute)_\d+[af]?)");
  if (!std::regex_match(arch, valid))
    throw ValueError("[nvrtc] unknown architecture '" + arch +
                     "'; expected 'sm_XY' (CUBIN) or 'compute_XY' (PTX), e.g. 'sm_90'");
  return arch;
}

std::shared_ptr<CompiledModule> run_nvrtc(const NvrtcApi& api, std::string_view source,
                                          const CompileOptions& opts, const std::string& arch,
                                          const std::vector<std::string>& options) {
  nvrtcProgram prog = nullptr;
  std::string src(source);
  nvrtcResult r = api.nvrtcCreateProgram(&prog, src.c_str(), opts.program_name.c_str(), 0, nullptr,
                                         nullptr);
  if (r != NVRTC_SUCCESS)
    throw CompileError(std::string("[nvrtc] nvrtcCreateProgram failed: ") + api.nvrtcGetErrorString(r));
  struct Destroy {
    const NvrtcApi& api;
    nvrtcProgram& p;
    ~Destroy() { api.nvrtcDestroyProgram(&p); }
  } destroy{api, prog};
  for (const auto& e : opts.name_expressions) api.nvrtcAddNameExpression(prog, e.c_str());
  std::vector<const char*> argv;
  for (const auto& o : options) argv.push_back(o.c_str());
  {
    compile_status::Scope status(opts.program_name, "NVRTC");
    r = api.nvrtcCompileProgram(prog, static_cast<int>(argv.size()), argv.data());
  }
  size_t log_size = 0;
  api.nvrtcGetProgramLogSize(prog, &log_size);
  std::string log(log_size, '\0');
  if (log_size) api.nvrtcGetProgramLog(prog, log.data());
  while (!log.empty() && (log.back() == '\0' || log.back() == '\n')) log.pop_back();
  if (r != NVRTC_SUCCESS) {
    std::string where = offending_lines(source, log, opts.program_name);
    throw CompileError("[nvrtc] " + opts.program_name + " failed to compile for " + arch + " (" +
                       api.nvrtcGetErrorString(r) + "):\n" + log +
                       (where.empty() ? "" : "\nat:" + where));
  }
  auto m = std::make_shared<CompiledModule>();
  m->arch = arch;
  m->cubin = arch.rfind("sm_", 0) == 0;
  m->log = log;
  size_t size = 0;
  if (m->cubin) {
    api.nvrtcGetCUBINSize(prog, &size);
    m->image.resize(size);
    api.nvrtcGetCUBIN(prog, m->image.data());
  } else {
    api.nvrtcGetPTXSize(prog, &size);  // includes the terminating NUL cuModuleLoadData needs
    m->image.resize(size);
    api.nvrtcGetPTX(prog, m->image.data());
  }
  for (const auto& e : opts.name_expressions) {
    const char* lowered = nullptr;
    if (api.nvrtcGetLoweredName(prog, e.c_str(), &lowered) != NVRTC_SUCCESS || !lowered)
      throw CompileError("[nvrtc] name expression '" + e + "' did not name a __global__ function in " +
                         opts.program_name);
    m->lowered_names[e] = lowered;
  }
  return m;
}

}  // namespace

std::string compile_target_for(int cc) {
  const NvrtcApi& api = nvrtc();
  if (api.archs.empty() || std::binary_search(api.archs.begin(), api.archs.end(), cc))
    return "sm_" + std::to_string(cc);
  if (cc > api.archs.back()) return "compute_" + std::to_string(api.archs.back());
  throw BackendUnavailable("[nvrtc] NVRTC " + api.version_string() + " (" + api.path +
                           ") cannot compile for compute capability " + std::to_string(cc / 10) +
                           "." + std::to_string(cc % 10) + " (it supports sm_" +
                           std::to_string(api.archs.front()) + " to sm_" +
                           std::to_string(api.archs.back()) +
                           "); install an NVRTC that supports this GPU");
}

std::string compile_target(int device) {
  return compile_target_for(device_properties(device).compute_capability());
}

std::shared_ptr<const CompiledModule> compile(std::string_view source, const CompileOptions& opts) {
  const NvrtcApi& api = nvrtc();
  std::string arch = check_arch(opts.arch.empty() ? compile_target(opts.device) : opts.arch);
  std::vector<std::string> options = {"--gpu-architecture=" + arch, "-std=c++17"};
  if (!api.include_dir.empty()) options.push_back("-I" + api.include_dir);
  options.insert(options.end(), opts.options.begin(), opts.options.end());

  // Everything that changes the binary (DESIGN.md "Kernel cache"); the toolkit headers are
  // covered by NVRTC's version and path, since they ship together.
  Sha256 h;
  auto field = [&](std::string_view s) { h.update(std::to_string(s.size())).update(":").update(s); };
  field("accel nvrtc module v1");
  field(api.path);
  field(api.version_string());
  for (const auto& o : options) field(o);
  field("names");
  for (const auto& e : opts.name_expressions) field(e);
  field(opts.program_name);
  field(source);
  std::string key = h.hex_digest();

  std::optional<profile::Scope> rec;
  if (profile::active()) {
    rec.emplace(profile::EventKind::compile, opts.name_expressions.empty()
                                                  ? opts.program_name
                                                  : opts.name_expressions.front());
    rec->event().detail = "NVRTC " + arch;
    rec->event().device = opts.device;
  }
  Caches& c = caches();
  if (opts.use_cache) {
    {
      std::lock_guard<std::mutex> lock(c.mutex);
      if (auto it = c.memory.find(key); it != c.memory.end()) {
        ++c.stats.memory_hits;
        if (rec) rec->event().flags |= profile::kCacheHit;
        return it->second;
      }
    }
    if (auto bytes = KernelCache::instance().load(key)) {
      if (auto m = deserialize(*bytes)) {
        if (rec) rec->event().flags |= profile::kCacheHit | profile::kDiskCache;
        m->key = key;
        std::lock_guard<std::mutex> lock(c.mutex);
        ++c.stats.disk_hits;
        c.memory[key] = m;
        return m;
      }
    }
  }
  auto start = std::chrono::steady_clock::now();
  auto m = run_nvrtc(api, source, opts, arch, options);
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  m->key = key;
  {
    std::lock_guard<std::mutex> lock(c.mutex);
    ++c.stats.compiles;
    c.stats.compile_seconds += seconds;
    if (opts.use_cache) c.memory[key] = m;
  }
  if (opts.use_cache) {
    try {
      KernelCache::instance().store(key, serialize(*m));
    } catch (const Error&) {
      // An unwritable cache directory costs a recompile next time, nothing more.
    }
  }
  return m;
}

CompileStats compile_stats() {
  std::lock_guard<std::mutex> lock(caches().mutex);
  return caches().stats;
}

void clear_compile_memory_cache() {
  std::lock_guard<std::mutex> lock(caches().mutex);
  caches().memory.clear();
}

}  // namespace accel::cuda
