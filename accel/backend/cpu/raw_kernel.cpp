#include "accel/backend/cpu/raw_kernel.h"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <unordered_map>
#include <mutex>
#include <optional>

#include "accel/backend/cpu/barrier_split.h"
#include "accel/backend/cpu/host_compiler.h"
#include "accel/backend/cpu/raw_kernel_source.h"
#include "accel/backend/cpu/thread_pool.h"
#include "accel/device_src/embedded_sources.h"
#include "accel/runtime/errors.h"

namespace accel::cpu {
namespace {

// Mirrors accel_simt::Launch and accel_simt::Param in device_src/simt_cpu.h.
struct Launch {
  unsigned grid[3], block[3];
  void* const* args;
  long long block_begin, block_end;
  char* dyn_shared;
  char* stacks;
  size_t stack_bytes;
  int check;
  const char* kernel;
  int* abort;
  int error_kind;
  char error[1024];
};
struct Param {
  char kind;
  unsigned size;
};
using RunFn = int (*)(Launch*);
using SignatureFn = const Param* (*)();

// -fvisibility=hidden: the kernel can be inlined into the loop over threads (an exported
// function could be interposed) and its thread-local indices use the cheap local TLS model.
constexpr const char* kHiddenVisibility = "-fvisibility=hidden";

// NVRTC options that mean something to the host compiler (-D, -U, -I, -std=); the others are
// NVRTC's alone.
std::vector<std::string> host_options(const std::vector<std::string>& options) {
  std::vector<std::string> out;
  // Built piecewise: GCC 12 warns falsely (-Wrestrict) on `a + b` of strings here.
  auto word = [&](const char* prefix, const std::string& rest) {
    std::string w = prefix;
    w += rest;
    out.push_back(std::move(w));
  };
  for (size_t i = 0; i < options.size(); ++i) {
    const std::string& o = options[i];
    if ((o == "-D" || o == "-U" || o == "-I") && i + 1 < options.size()) {
      word(o.c_str(), options[++i]);
    } else if (o.rfind("-D", 0) == 0 || o.rfind("-U", 0) == 0 || o.rfind("-I", 0) == 0) {
      out.push_back(o);
    } else if (o.rfind("--define-macro=", 0) == 0) {
      word("-D", o.substr(15));
    } else if (o.rfind("--include-path=", 0) == 0) {
      word("-I", o.substr(15));
    } else if (o.rfind("-std=", 0) == 0 || o.rfind("--std=", 0) == 0) {
      word("-std=", o.substr(o.find('=') + 1));  // after the default: the last one wins
    }
  }
  return out;
}

struct Stats {
  std::mutex mutex;
  RawKernelStats s;
};
Stats& stats() {
  static Stats* s = new Stats();
  return *s;
}

// This OS thread's fiber stacks (each with a guard page below it) and dynamic shared memory,
// kept for the next launch.
struct WorkerMemory {
  char* stacks = nullptr;
  size_t stack_count = 0;
  struct AlignedDelete {
    void operator()(char* p) const { ::operator delete[](p, std::align_val_t(128)); }
  };
  std::unique_ptr<char[], AlignedDelete> shared;
  size_t shared_bytes = 0;

  char* stacks_for(size_t count) {
    if (count <= stack_count) return stacks;
    release();
    const size_t bytes = count * kThreadStackBytes;
    void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                   -1, 0);
    if (p == MAP_FAILED)
      throw OutOfMemoryError("[RawKernel] fiber stacks", bytes, 0, 0, 0, 0);
    stacks = static_cast<char*>(p);
    stack_count = count;
    const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
    for (size_t i = 0; i < count; ++i) mprotect(stacks + i * kThreadStackBytes, page, PROT_NONE);
    return stacks;
  }
  char* shared_for(size_t bytes) {
    if (bytes > shared_bytes) {
      shared.reset(static_cast<char*>(::operator new[](bytes, std::align_val_t(128))));
      shared_bytes = bytes;
    }
    return shared.get();
  }
  void release() {
    if (stacks) munmap(stacks, stack_count * kThreadStackBytes);
    stacks = nullptr;
    stack_count = 0;
  }
  ~WorkerMemory() { release(); }
};
thread_local WorkerMemory worker_memory;

}  // namespace

// A loaded shared object: one entry point and signature per kernel it was built for.
struct RawModule::Compiled {
  std::vector<std::string> names;
  std::vector<RunFn> run;
  std::vector<const Param*> signature;
  std::vector<long long> max_threads;  // per kernel: its __launch_bounds__, or 0
  std::vector<char> mode;              // per kernel: 'l' loop, 'f' fibers, 's' split at barriers
  bool checked = false;
};

struct RawModule::Impl {
  std::string source, program_name;
  std::vector<std::string> options, name_expressions;
  std::mutex mutex;
  std::shared_ptr<const Compiled> compiled[2];  // plain and checked, for every name asked for so far
  std::vector<std::string> extra_names;      // names asked for that the source scan missed
};

namespace {

// What a process has prepared and loaded, so that a second RawModule of the same source costs a
// lookup (microseconds): prepared sources by program name and source, loaded modules by the
// request (source, options, kernel names, checked) and by their full text and flags.
std::mutex loaded_mutex;
struct Loaded {
  std::unordered_map<std::string, std::shared_ptr<const PreparedSource>> prepared;
  std::unordered_map<std::string, std::shared_ptr<const RawModule::Compiled>> by_request;
  std::unordered_map<std::string, std::shared_ptr<const RawModule::Compiled>> by_text;
};
Loaded& loaded() {
  static auto* m = new Loaded();
  return *m;
}

std::shared_ptr<const PreparedSource> prepared_source(const std::string& source,
                                                      const std::string& program_name) {
  std::string key = program_name;
  key += '\0';
  key += source;
  {
    std::lock_guard<std::mutex> lock(loaded_mutex);
    if (auto it = loaded().prepared.find(key); it != loaded().prepared.end()) return it->second;
  }
  auto p = std::make_shared<const PreparedSource>(prepare_cuda_source(source, program_name));
  std::lock_guard<std::mutex> lock(loaded_mutex);
  return loaded().prepared.emplace(std::move(key), std::move(p)).first->second;
}

void count_memory_hit() {
  std::lock_guard<std::mutex> s(stats().mutex);
  ++stats().s.memory_hits;
}

std::shared_ptr<const RawModule::Compiled> build(const std::string& source,
                                                 const std::vector<std::string>& options,
                                                 const std::vector<std::string>& names,
                                                 const std::string& program_name, bool checked) {
  std::string request = program_name;
  for (const std::vector<std::string>* list : {&options, &names})
    for (const std::string& o : *list) (request += '\0') += o;
  request += checked ? "\1checked\1" : "\1plain\1";
  request += source;
  {
    std::lock_guard<std::mutex> lock(loaded_mutex);
    if (auto it = loaded().by_request.find(request); it != loaded().by_request.end()) {
      count_memory_hit();
      return it->second;
    }
  }
  const std::shared_ptr<const PreparedSource> prepared = prepared_source(source, program_name);
  std::vector<std::string> flags = {kHiddenVisibility};
  for (std::string& f : host_options(options)) flags.push_back(std::move(f));
  // Kernels with barriers are split into loops over threads where that is safe (not in checked
  // mode: its barrier checks need the fibers); the others keep fibers.
  SplitSource split;
  if (prepared->fibers && !checked) split = split_at_barriers(prepared->text, program_name);
  // Checked builds: bounds-checked parameters, and shared arrays through the race detector.
  const std::string checked_text =
      checked ? checked_kernel_parameters(instrument_shared_memory(prepared->text)).text : std::string();
  const std::string& kernel_text =
      checked ? checked_text : split.kernels.empty() ? prepared->text : split.text;
  auto mode_of = [&](const std::string& name) {
    if (std::find(split.kernels.begin(), split.kernels.end(), name) != split.kernels.end()) return 's';
    return prepared->fibers && !split.all_barriers_split ? 'f' : 'l';
  };
  auto module_text = [&](const std::string& body, bool use_split) {
    std::string text = std::string(checked ? "#define ACCEL_CHECKED 1\n" : "") + embedded::simt_cpu_h +
                       embedded::simt_cpu_block_h + embedded::simt_cpu_intrinsics_h +
                       (checked ? embedded::simt_cpu_races_h : "");
    text += "\n#line 1 \"" + program_name + "\"\n" + body + "\n#line 1 \"accel-launcher\"\n";
    for (size_t i = 0; i < names.size(); ++i) {
      const std::string idx = std::to_string(i), fn = "&" + names[i];
      const std::string exported = "extern \"C\" __attribute__((visibility(\"default\"))) ";
      const char mode = use_split ? mode_of(names[i]) : prepared->fibers ? 'f' : 'l';
      text += exported + "int accel_run_" + idx + "(::accel_simt::Launch* l) { return ::accel_simt::run<" +
              fn + ", ::accel_simt::Mode::" + (mode == 's' ? "split" : mode == 'f' ? "fibers" : "loop") +
              ">(l, " + fn + "); }\n";
      text += exported + "char accel_mode_" + idx + "() { return '" + mode + "'; }\n";
      text += exported + "const ::accel_simt::Param* accel_signature_" + idx +
              "() { return ::accel_simt::signature(" + fn + "); }\n";
      // __launch_bounds__(max threads, ...), evaluated by the compiler (macros and constants work).
      auto bounds = prepared->launch_bounds.find(names[i]);
      text += exported + "long long accel_max_threads_" + idx + "() { return " +
              (bounds == prepared->launch_bounds.end()
                   ? std::string("0")
                   : "::accel_simt::launch_bound(" + bounds->second + ")") +
              "; }\n";
    }
    return text;
  };
  const bool use_split = !checked && !split.kernels.empty();
  std::string text = module_text(kernel_text, use_split);
  // Modules already loaded in this process, by their full source and flags.
  std::string key = text;
  for (const std::string& f : flags) key += "\n" + f;
  std::shared_ptr<const RawModule::Compiled> found;
  {
    std::lock_guard<std::mutex> lock(loaded_mutex);
    if (auto it = loaded().by_text.find(key); it != loaded().by_text.end()) found = it->second;
  }
  if (!found) {
    const std::string what = "RawKernel " + program_name;
    HostLibrary lib;
    try {
      lib = build_host_library(text, flags, what);  // never closed, as RawFunctions keep pointers into it
    } catch (const CompileError&) {
      if (!use_split && !checked) throw;
      // The split source (or checked mode's shared-array wrappers) did not compile: a construct
      // the transformation misread. The kernels keep their fibers (checked: bounds checks only),
      // and a real error in the user's source is reported from that build.
      text = module_text(checked ? checked_kernel_parameters(prepared->text).text : prepared->text, false);
      lib = build_host_library(text, flags, what);
    }
    {
      std::lock_guard<std::mutex> s(stats().mutex);
      if (lib.from_disk) {
        ++stats().s.disk_hits;
      } else {
        ++stats().s.compiles;
        stats().s.compile_seconds += lib.compile_seconds;
      }
    }
    auto c = std::make_shared<RawModule::Compiled>();
    c->names = names;
    c->checked = checked;
    for (size_t i = 0; i < names.size(); ++i) {
      const std::string idx = std::to_string(i);
      c->run.push_back(reinterpret_cast<RunFn>(host_symbol(lib, "accel_run_" + idx, what)));
      c->mode.push_back(reinterpret_cast<char (*)()>(host_symbol(lib, "accel_mode_" + idx, what))());
      c->signature.push_back(reinterpret_cast<SignatureFn>(
          host_symbol(lib, "accel_signature_" + idx, what))());
      c->max_threads.push_back(reinterpret_cast<long long (*)()>(
          host_symbol(lib, "accel_max_threads_" + idx, what))());
    }
    std::lock_guard<std::mutex> lock(loaded_mutex);
    found = loaded().by_text.emplace(key, std::move(c)).first->second;
  } else {
    count_memory_hit();
  }
  std::lock_guard<std::mutex> lock(loaded_mutex);
  return loaded().by_request.emplace(std::move(request), found).first->second;
}

}  // namespace

std::string LaunchDims::str() const {
  return "(" + std::to_string(x) + ", " + std::to_string(y) + ", " + std::to_string(z) + ")";
}

RawArgs& RawArgs::add(const Array& array) {
  array.eval();
  // The kernel may write the array: pending readers of its memory must see the old values.
  array.buffer()->evaluate_pending_readers();
  void* p = array.data();
  Value v;
  v.bytes.assign(reinterpret_cast<const char*>(&p), sizeof p);
  v.kind = 'p';
  v.array = static_cast<int>(arrays_.size());
  arrays_.push_back(array);
  values_.push_back(std::move(v));
  return *this;
}

RawArgs& RawArgs::add_scalar(Dtype dtype, const void* value) {
  Value v;
  v.bytes.assign(static_cast<const char*>(value), itemsize(dtype));
  v.dtype = dtype;
  v.kind = is_bool(dtype) ? 'b' : is_unsigned(dtype) ? 'u' : is_integer(dtype) ? 'i'
         : is_floating(dtype) ? 'f' : 'c';
  values_.push_back(std::move(v));
  return *this;
}

RawArgs& RawArgs::add_bytes(const void* data, size_t size) {
  Value v;
  v.bytes.assign(static_cast<const char*>(data), size);
  v.kind = 's';
  values_.push_back(std::move(v));
  return *this;
}

std::string RawParam::str() const {
  const std::string bytes = std::to_string(size) + "-byte ";
  switch (kind) {
    case 'p': return "pointer";
    case 'P': return "pointer to const";
    case 'k': return "checked pointer";
    case 'b': return "bool";
    case 'i': return bytes + "signed integer";
    case 'u': return bytes + "unsigned integer";
    case 'f': return bytes + "floating-point number";
    default: return bytes + "struct";
  }
}

RawModule::RawModule(std::string source, std::vector<std::string> options,
                     std::vector<std::string> name_expressions, std::string program_name)
    : impl_(std::make_shared<Impl>()) {
  impl_->source = std::move(source);
  impl_->options = std::move(options);
  impl_->name_expressions = std::move(name_expressions);
  impl_->program_name = std::move(program_name);
}

const std::string& RawModule::source() const { return impl_->source; }

RawFunction RawModule::function(const std::string& name, bool checked) const {
  std::lock_guard<std::mutex> lock(impl_->mutex);
  std::shared_ptr<const Compiled>& compiled = impl_->compiled[checked];
  auto find = [&]() -> int {
    if (!compiled) return -1;
    const auto& n = compiled->names;
    auto it = std::find(n.begin(), n.end(), name);
    return it == n.end() ? -1 : static_cast<int>(it - n.begin());
  };
  int index = find();
  if (index < 0) {
    // Every kernel the source declares (so that they share the module's __device__ variables),
    // the name expressions, and names asked for before.
    std::vector<std::string> names = impl_->name_expressions;
    for (const std::string& k : prepared_source(impl_->source, impl_->program_name)->kernels)
      if (std::find(names.begin(), names.end(), k) == names.end()) names.push_back(k);
    for (const std::string& k : impl_->extra_names)
      if (std::find(names.begin(), names.end(), k) == names.end()) names.push_back(k);
    bool added = false;
    if (std::find(names.begin(), names.end(), name) == names.end()) {
      if (name.find('<') == std::string::npos)
        throw LaunchError("[" + impl_->program_name + "] no kernel named '" + name +
                          "' in the module; is it a __global__ function of the source?");
      names.push_back(name);  // a template instantiation not among the name expressions
      added = true;
    }
    compiled = build(impl_->source, impl_->options, names, impl_->program_name, checked);
    if (added) impl_->extra_names.push_back(name);
    index = find();
  }
  std::vector<RawParam> params;
  for (const Param* p = compiled->signature[static_cast<size_t>(index)]; p->kind; ++p)
    params.push_back({p->kind, p->size});
  return RawFunction(compiled, index, name, std::move(params));
}

bool RawFunction::uses_fibers() const { return mode() == 'f'; }
char RawFunction::mode() const { return so_->mode[static_cast<size_t>(index_)]; }
bool RawFunction::checked() const { return so_->checked; }

bool kernel_check_default() {
  static const bool on = [] {
    const char* env = std::getenv("ACCEL_KERNEL_CHECK");
    return env && *env && std::strcmp(env, "0") != 0;
  }();
  return on;
}

RawKernelStats raw_kernel_stats() {
  std::lock_guard<std::mutex> lock(stats().mutex);
  return stats().s;
}

void RawFunction::operator()(LaunchDims grid, LaunchDims block, const RawArgs& args,
                             size_t shared_mem, bool check) const {
  // Messages are built only on failure: a warm launch allocates nothing it can avoid.
  auto where = [&] { return "launch " + name_ + " on cpu"; };
  auto fail = [&](const std::string& what) { throw LaunchError("[" + where() + "] " + what); };
  const unsigned g[3] = {grid.x, grid.y, grid.z}, b[3] = {block.x, block.y, block.z};
  for (int d = 0; d < 3; ++d) {
    if (g[d] == 0 || b[d] == 0)
      fail("grid " + grid.str() + " and block " + block.str() + " must have no zero dimension");
    if (b[d] > kMaxBlockDim[d])
      fail("block " + block.str() + " exceeds the block dimension limit (1024, 1024, 64)");
    if (g[d] > kMaxGridDim[d])
      fail("grid " + grid.str() + " exceeds the grid dimension limit (2147483647, 65535, 65535)");
  }
  const uint64_t threads = uint64_t(block.x) * block.y * block.z;
  if (threads > kMaxThreadsPerBlock)
    fail("block " + block.str() + " has " + std::to_string(threads) +
         " threads; at most 1024 per block, as on a GPU");
  if (so_->max_threads[static_cast<size_t>(index_)] > 0 &&
      threads > static_cast<uint64_t>(so_->max_threads[static_cast<size_t>(index_)]))
    fail("block " + block.str() + " has " + std::to_string(threads) +
         " threads, but the kernel declares __launch_bounds__(" +
         std::to_string(so_->max_threads[static_cast<size_t>(index_)]) +
         "): at most that many per block, as on a GPU");
  if (shared_mem > kMaxDynamicSharedBytes)
    fail(std::to_string(shared_mem) + " bytes of dynamic shared memory requested; at most " +
         std::to_string(kMaxDynamicSharedBytes) + " per block, as on an sm_90 GPU");
  if (args.size() != params_.size())
    fail("the kernel takes " + std::to_string(params_.size()) + " parameters, but " +
         std::to_string(args.size()) + " arguments were given");
  bool any_checked = false;
  for (size_t i = 0; i < params_.size(); ++i) {
    const RawParam& p = params_[i];
    const RawArgs::Value& v = args.values_[i];
    const bool pointer = p.kind == 'p' || p.kind == 'P' || p.kind == 'k';
    any_checked |= p.kind == 'k';
    bool ok;
    if (pointer) ok = v.kind == 'p';
    else if (p.kind == 'i' || p.kind == 'u' || p.kind == 'b')
      ok = (v.kind == 'i' || v.kind == 'u' || v.kind == 'b') && v.bytes.size() == p.size;
    else if (p.kind == 'f') ok = v.kind == 'f' && v.bytes.size() == p.size;
    else ok = v.kind != 'p' && v.bytes.size() == p.size;
    if (!ok)
      fail("parameter " + std::to_string(i) + " is a " + p.str() + ", but argument " +
           std::to_string(i) + " is a " +
           (v.array >= 0  ? args.arrays_[static_cast<size_t>(v.array)].describe()
            : v.kind == 's' ? std::to_string(v.bytes.size()) + "-byte struct"
                            : std::string(dtype_name(v.dtype)) + " scalar") +
           (pointer ? "; pass an accel array on the cpu"
                    : " (" + std::to_string(v.bytes.size()) +
                          " bytes); pass a scalar of the parameter's type (e.g. numpy.int32(n))"));
    if (v.array >= 0) {
      const Array& a = args.arrays_[static_cast<size_t>(v.array)];
      if (!a.device().is_cpu())
        throw DeviceError("[" + where() + "] argument " + std::to_string(i) + " is a " +
                          a.describe() +
                          "; a kernel launched on the cpu takes arrays on the cpu (move it "
                          "with to_device)");
      if (p.kind == 'p' && (a.impl()->read_only || a.buffer()->read_only()))
        throw ValueError("[" + where() + "] argument " + std::to_string(i) +
                         " is read-only (a broadcast view or read-only memory), but the "
                         "kernel's parameter is not a pointer to const");
    }
  }
  // Checked pointers carry their array's bytes and their argument's number (simt_cpu.h Checked).
  struct CheckedPointer {
    const char* p;
    const char* lo;
    const char* hi;
    long long arg;
  };
  std::vector<CheckedPointer> checked(any_checked ? params_.size() : 0);
  // Most kernels take a handful of parameters: their pointers live on the stack.
  void* inline_values[16];
  std::vector<void*> more_values(params_.size() > 16 ? params_.size() : 0);
  void** values = params_.size() > 16 ? more_values.data() : inline_values;
  for (size_t i = 0; i < params_.size(); ++i) {
    const RawArgs::Value& v = args.values_[i];
    if (params_[i].kind != 'k') {
      values[i] = const_cast<char*>(v.bytes.data());
      continue;
    }
    const Array& a = args.arrays_[static_cast<size_t>(v.array)];
    const char* data = static_cast<const char*>(a.data());
    const char* base = static_cast<const char*>(a.buffer()->data());
    // Contiguous: the array's own elements; other views: the memory of their buffer.
    checked[i] = a.is_contiguous()
                     ? CheckedPointer{data, data, data + a.nbytes(), static_cast<long long>(i)}
                     : CheckedPointer{data, base, base + a.buffer()->nbytes(), static_cast<long long>(i)};
    values[i] = &checked[i];
  }

  const long long blocks = (long long)grid.x * grid.y * grid.z;
  const bool fibers = so_->mode[static_cast<size_t>(index_)] == 'f';
  const RunFn run = so_->run[static_cast<size_t>(index_)];
  const bool check_barriers = check || kernel_check_default();
  int abort = 0;
  std::mutex error_mutex;
  long long error_block = -1;
  int error_kind = 0;
  std::string error;
  auto run_blocks = [&](int64_t b0, int64_t b1) {
    WorkerMemory& mem = worker_memory;
    Launch l;
    for (int d = 0; d < 3; ++d) {
      l.grid[d] = g[d];
      l.block[d] = b[d];
    }
    l.args = values;
    l.block_begin = b0;
    l.block_end = b1;
    l.dyn_shared = mem.shared_for(std::max<size_t>(shared_mem, 16));
    l.stacks = mem.stacks_for(fibers ? threads : 1);
    l.stack_bytes = kThreadStackBytes;
    l.check = check_barriers;
    l.kernel = name_.c_str();
    l.abort = &abort;
    l.error_kind = 0;
    l.error[0] = 0;
    if (run(&l) != 0) {
      std::lock_guard<std::mutex> lock(error_mutex);
      if (error_block < 0 || b0 < error_block) {
        error_block = b0;
        error_kind = l.error_kind;
        error = l.error;
      }
    }
  };
  // Enough threads per task to pay for the hand-off to the pool (a fiber thread costs more than
  // a loop iteration: it has a stack and switches at every barrier); small launches run inline,
  // without waking the pool.
  const int64_t grain_threads = fibers ? 2048 : 16384;
  const int64_t grain = std::max<int64_t>(1, grain_threads / int64_t(threads));
  if (blocks <= grain || num_threads() <= 1)
    run_blocks(0, blocks);
  else
    parallel_for(blocks, grain, run_blocks);
  if (error_kind == 1) throw KernelAssertionError("[" + where() + "] " + error);
  if (error_kind == 4) throw IndexError("[" + where() + "] " + error);
  if (error_kind != 0) fail(error);
}

}  // namespace accel::cpu
