// A recording fake of the CUDA driver API (the table of driver_api.def), for checking without a
// GPU how accel orders work across streams. It stands in for one sm_90 device: device memory is
// host memory, copies and memsets happen at once, kernels are recorded (not run), and every
// access to device memory is checked against CUDA's ordering rules as a race detector would:
// each stream carries a vector clock; work on it advances its own entry; cuEventRecord copies
// the clock into the event, cuStreamWaitEvent and the synchronize calls merge it; the legacy
// default stream and blocking streams merge each other's clocks at every call (the implicit
// ordering of the legacy stream); the host's clock takes in what it synchronized with, and work
// queued after that is ordered after it. Two accesses to the same bytes, one a write, with neither
// ordered before the other, are a race, reported in races().
//
// Kernel parameters are found through the CUBIN's own parameter table (.nv.info,
// EIATTR_KPARAM_INFO), so cuFuncGetParamInfo answers as a real driver would, each launch's
// parameter bytes are kept (launches), and every 8-byte word of a parameter that points into
// device memory counts as a read and write of the byte it points to (enough to tell arrays
// apart: each test array starts its own block).
//
// Calls that need a context fail with CUDA_ERROR_INVALID_CONTEXT on a thread without one (as
// the real driver does), and are counted in missing_context.
#pragma once
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "accel/backend/cuda/driver.h"

namespace fake_cuda {

using namespace accel::cuda;

inline constexpr CUresult kInvalidContext = 201;
inline constexpr CUresult kInvalidHandle = 400;

struct Access {
  uintptr_t lo, hi;
  bool write;
  size_t stream;
  uint64_t tick;  // the stream's own clock entry for this work
  std::string what;
};

struct StreamState {
  bool blocking = true;  // ordered with the legacy default stream
  std::vector<uint64_t> clock;
};

struct Function {
  std::string name;
  std::vector<size_t> params;  // sizes, from the CUBIN
};

// A launch as the kernel received it: each parameter's bytes (sizes from the CUBIN).
struct Launch {
  std::string name;
  std::vector<std::string> params;
};

struct State {
  std::recursive_mutex mutex;
  // Streams by index: 0 is the legacy default stream. Handles map to indices; a destroyed
  // stream's handle goes back to `free_handles` and is handed out again, as drivers do.
  std::vector<StreamState> streams{StreamState{}};
  std::vector<uint64_t> host;  // what the host has waited for
  std::map<uintptr_t, size_t> stream_of_handle;
  std::vector<uintptr_t> free_handles;
  uintptr_t next_handle = 0x1000;
  std::map<uintptr_t, std::vector<uint64_t>> events;
  uintptr_t next_event = 0x5000;
  std::map<uintptr_t, size_t> device_memory;  // base -> size
  std::map<uintptr_t, Function> functions;
  std::map<uintptr_t, const char*> modules;  // module -> its CUBIN
  uintptr_t next_module = 0x9000, next_function = 0xa000;
  std::vector<Access> accesses;
  std::vector<std::string> races, log;
  std::vector<Launch> launches;
  int missing_context = 0;
  int param_info_calls = 0;
  int static_shared = 0;              // what cuFuncGetAttribute reports for every kernel
  int max_threads = 1024;             // the same, for CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK
  std::vector<int> dynamic_shared_opt_ins;
  CUresult launch_result = CUDA_SUCCESS;       // cuLaunchKernel's answer
  CUresult module_load_result = CUDA_SUCCESS;  // cuModuleLoadData's answer
  int version = 13000;
  unsigned last_stream_flags = 0;
};

inline State& state() {
  static auto* s = new State();  // never destroyed: accel frees memory during static teardown
  return *s;
}

inline thread_local CUcontext current_context = nullptr;
inline const CUcontext kContext = reinterpret_cast<CUcontext>(0xc0);

inline std::string hex(uintptr_t v) {
  char b[32];
  std::snprintf(b, sizeof b, "0x%lx", static_cast<unsigned long>(v));
  return b;
}

// --- clocks --------------------------------------------------------------------------------

inline std::vector<uint64_t>& clock_of(size_t s) {
  auto& c = state().streams[s].clock;
  c.resize(std::max(c.size(), state().streams.size()), 0);
  return c;
}

inline void merge(std::vector<uint64_t>& into, const std::vector<uint64_t>& from) {
  into.resize(std::max(into.size(), from.size()), 0);
  for (size_t i = 0; i < from.size(); ++i) into[i] = std::max(into[i], from[i]);
}

inline bool stream_index(CUstream h, size_t* out) {
  const auto v = reinterpret_cast<uintptr_t>(h);
  if (v == 0 || v == 0x1) {  // the legacy default stream, by either name
    *out = 0;
    return true;
  }
  auto it = state().stream_of_handle.find(v);
  if (it == state().stream_of_handle.end()) return false;
  *out = it->second;
  return true;
}

// Queues one piece of work on stream s: the legacy stream's implicit ordering, then a tick.
inline uint64_t begin_work(size_t s) {
  State& st = state();
  merge(clock_of(s), st.host);
  if (s == 0) {
    for (size_t j = 1; j < st.streams.size(); ++j)
      if (st.streams[j].blocking) merge(clock_of(0), clock_of(j));
  } else if (st.streams[s].blocking) {
    merge(clock_of(s), clock_of(0));
  }
  return ++clock_of(s)[s];
}

inline void access(size_t s, uint64_t tick, uintptr_t lo, uintptr_t hi, bool write,
                   const std::string& what) {
  State& st = state();
  const std::vector<uint64_t>& now = clock_of(s);
  for (const Access& a : st.accesses) {
    if (a.hi <= lo || hi <= a.lo || (!a.write && !write)) continue;
    const bool ordered = a.stream == s || (a.stream < now.size() && now[a.stream] >= a.tick);
    if (!ordered)
      st.races.push_back(what + " on stream " + std::to_string(s) + " races " + a.what +
                         " on stream " + std::to_string(a.stream) + " at " + hex(std::max(lo, a.lo)));
  }
  st.accesses.push_back({lo, hi, write, s, tick, what});
}

inline bool is_device(uintptr_t p) {
  auto& mem = state().device_memory;
  auto it = mem.upper_bound(p);
  if (it == mem.begin()) return false;
  --it;
  return p < it->first + it->second;
}

// Whether [p, p + n) lies inside one allocation, as the real driver checks a copy's device
// range (CUDA_ERROR_INVALID_VALUE when it runs past the end).
inline bool device_range_ok(uintptr_t p, size_t n) {
  auto& mem = state().device_memory;
  auto it = mem.upper_bound(p);
  if (it == mem.begin()) return false;
  --it;
  return p + n <= it->first + it->second;
}

inline bool has_context(const char* call) {
  if (current_context) return true;
  ++state().missing_context;
  state().log.push_back(std::string(call) + " without a current context");
  return false;
}

// --- the CUBIN's parameter table -------------------------------------------------------------

template <class T> T read_at(const char* p) {
  T v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

// Parameter sizes of `symbol`, from the ELF section .nv.info.<symbol>: records of a format byte,
// an attribute byte and a 16-bit value; format 4 records carry that many bytes of data.
// EIATTR_KPARAM_INFO (0x17): index (4), ordinal (2), offset (2), then a word whose top 14 bits
// are the size.
inline std::vector<size_t> parameter_sizes(const char* elf, const std::string& symbol) {
  const auto shoff = read_at<uint64_t>(elf + 0x28);
  const auto shentsize = read_at<uint16_t>(elf + 0x3a);
  const auto shnum = read_at<uint16_t>(elf + 0x3c);
  const auto shstrndx = read_at<uint16_t>(elf + 0x3e);
  auto section = [&](size_t i) { return elf + shoff + i * shentsize; };
  const char* names = elf + read_at<uint64_t>(section(shstrndx) + 0x18);
  std::map<unsigned, size_t> by_ordinal;
  for (size_t i = 0; i < shnum; ++i) {
    if (std::string(names + read_at<uint32_t>(section(i))) != ".nv.info." + symbol) continue;
    const char* p = elf + read_at<uint64_t>(section(i) + 0x18);
    const char* end = p + read_at<uint64_t>(section(i) + 0x20);
    while (p + 4 <= end) {
      const auto format = static_cast<unsigned char>(p[0]);
      const auto attribute = static_cast<unsigned char>(p[1]);
      const auto value = read_at<uint16_t>(p + 2);
      if (format == 4 && attribute == 0x17)
        by_ordinal[read_at<uint16_t>(p + 8)] = read_at<uint32_t>(p + 12) >> 18;
      p += 4 + (format == 4 ? value : 0);
    }
  }
  std::vector<size_t> sizes;
  for (auto& [ordinal, size] : by_ordinal) sizes.push_back(size);
  return sizes;
}

// --- the driver functions --------------------------------------------------------------------

inline CUresult fInit(unsigned) { return CUDA_SUCCESS; }
inline CUresult fDriverGetVersion(int* v) {
  *v = state().version;
  return CUDA_SUCCESS;
}
inline CUresult fGetErrorName(CUresult, const char** s) {
  *s = "CUDA_ERROR_FAKE";
  return CUDA_SUCCESS;
}
inline CUresult fGetErrorString(CUresult, const char** s) {
  *s = "an error the fake driver was told to return";
  return CUDA_SUCCESS;
}
inline CUresult fDeviceGetCount(int* n) {
  *n = 1;
  return CUDA_SUCCESS;
}
inline CUresult fDeviceGet(CUdevice* d, int i) {
  *d = i;
  return CUDA_SUCCESS;
}
inline CUresult fDeviceGetName(char* name, int len, CUdevice) {
  std::snprintf(name, static_cast<size_t>(len), "Fake H100 (recording driver)");
  return CUDA_SUCCESS;
}
inline CUresult fDeviceGetAttribute(int* v, int a, CUdevice) {
  switch (a) {
    case kMaxThreadsPerBlock: *v = 1024; break;
    case kMaxBlockDimX: case kMaxBlockDimY: *v = 1024; break;
    case kMaxBlockDimZ: *v = 64; break;
    case kMaxGridDimX: *v = 0x7fffffff; break;
    case kMaxGridDimY: case kMaxGridDimZ: *v = 65535; break;
    case kMaxSharedMemoryPerBlock: *v = 48 * 1024; break;
    case kMaxSharedMemoryPerBlockOptin: *v = 227 * 1024; break;
    case kWarpSize: *v = 32; break;
    case kMultiprocessorCount: *v = 132; break;
    case kComputeCapabilityMajor: *v = 9; break;
    case kComputeCapabilityMinor: *v = 0; break;
    default: *v = 1;
  }
  return CUDA_SUCCESS;
}
inline CUresult fDeviceTotalMem(size_t* b, CUdevice) {
  *b = size_t(80) << 30;
  return CUDA_SUCCESS;
}
inline CUresult fPrimaryCtxRetain(CUcontext* c, CUdevice) {
  *c = kContext;
  return CUDA_SUCCESS;
}
inline CUresult fCtxSetCurrent(CUcontext c) {
  current_context = c;
  return CUDA_SUCCESS;
}
inline CUresult fCtxGetCurrent(CUcontext* c) {
  *c = current_context;
  return CUDA_SUCCESS;
}
inline CUresult fCtxSynchronize() {
  if (!has_context("cuCtxSynchronize")) return kInvalidContext;
  std::lock_guard<std::recursive_mutex> lock(state().mutex);
  for (size_t s = 0; s < state().streams.size(); ++s) merge(state().host, clock_of(s));
  state().log.push_back("cuCtxSynchronize");
  return CUDA_SUCCESS;
}
inline CUresult fMemGetInfo(size_t* f, size_t* t) {
  *t = size_t(80) << 30;
  *f = *t / 2;
  return CUDA_SUCCESS;
}
inline CUresult fMemAlloc(CUdeviceptr* p, size_t bytes) {
  if (!has_context("cuMemAlloc")) return kInvalidContext;
  std::lock_guard<std::recursive_mutex> lock(state().mutex);
  void* m = std::aligned_alloc(256, (bytes + 255) / 256 * 256);
  state().device_memory[reinterpret_cast<uintptr_t>(m)] = bytes;
  *p = reinterpret_cast<CUdeviceptr>(m);
  return CUDA_SUCCESS;
}
inline CUresult fMemFree(CUdeviceptr p) {
  if (!has_context("cuMemFree")) return kInvalidContext;
  std::lock_guard<std::recursive_mutex> lock(state().mutex);
  state().device_memory.erase(static_cast<uintptr_t>(p));
  std::free(reinterpret_cast<void*>(p));
  return CUDA_SUCCESS;
}
inline CUresult fMemHostAlloc(void** p, size_t bytes, unsigned) {
  if (!has_context("cuMemHostAlloc")) return kInvalidContext;
  *p = std::malloc(bytes);
  return CUDA_SUCCESS;
}
inline CUresult fMemFreeHost(void* p) {
  if (!has_context("cuMemFreeHost")) return kInvalidContext;
  std::free(p);
  return CUDA_SUCCESS;
}

inline CUresult copy(uintptr_t dst, uintptr_t src, size_t n, CUstream h, const char* what) {
  if (!has_context(what)) return kInvalidContext;
  std::lock_guard<std::recursive_mutex> lock(state().mutex);
  size_t s;
  if (!stream_index(h, &s)) return kInvalidHandle;
  if ((is_device(src) && !device_range_ok(src, n)) || (is_device(dst) && !device_range_ok(dst, n)))
    return CUDA_ERROR_INVALID_VALUE;
  const uint64_t tick = begin_work(s);
  if (is_device(src)) access(s, tick, src, src + n, false, std::string(what) + " reading");
  if (is_device(dst)) access(s, tick, dst, dst + n, true, std::string(what) + " writing");
  state().log.push_back(std::string(what) + " on stream " + std::to_string(s));
  std::memmove(reinterpret_cast<void*>(dst), reinterpret_cast<const void*>(src), n);
  return CUDA_SUCCESS;
}
inline CUresult fMemcpyHtoDAsync(CUdeviceptr d, const void* s, size_t n, CUstream h) {
  return copy(d, reinterpret_cast<uintptr_t>(s), n, h, "cuMemcpyHtoDAsync");
}
inline CUresult fMemcpyDtoHAsync(void* d, CUdeviceptr s, size_t n, CUstream h) {
  return copy(reinterpret_cast<uintptr_t>(d), s, n, h, "cuMemcpyDtoHAsync");
}
inline CUresult fMemcpyDtoDAsync(CUdeviceptr d, CUdeviceptr s, size_t n, CUstream h) {
  return copy(d, s, n, h, "cuMemcpyDtoDAsync");
}
inline CUresult fPointerGetAttribute(void*, int, CUdeviceptr p) {
  std::lock_guard<std::recursive_mutex> lock(state().mutex);
  return is_device(p) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;  // host memory is pageable
}
inline CUresult fMemsetD8Async(CUdeviceptr d, unsigned char v, size_t n, CUstream h) {
  if (!has_context("cuMemsetD8Async")) return kInvalidContext;
  std::lock_guard<std::recursive_mutex> lock(state().mutex);
  size_t s;
  if (!stream_index(h, &s)) return kInvalidHandle;
  access(s, begin_work(s), d, d + n, true, "cuMemsetD8Async");
  std::memset(reinterpret_cast<void*>(d), v, n);
  return CUDA_SUCCESS;
}
inline CUresult fStreamCreate(CUstream* h, unsigned flags) {
  if (!has_context("cuStreamCreate")) return kInvalidContext;
  std::lock_guard<std::recursive_mutex> lock(state().mutex);
  State& st = state();
  uintptr_t v;
  if (!st.free_handles.empty()) {
    v = st.free_handles.back();
    st.free_handles.pop_back();
  } else {
    v = st.next_handle += 0x10;
  }
  st.streams.push_back(StreamState{(flags & CU_STREAM_NON_BLOCKING) == 0, {}});
  st.stream_of_handle[v] = st.streams.size() - 1;
  st.last_stream_flags = flags;
  *h = reinterpret_cast<CUstream>(v);
  return CUDA_SUCCESS;
}
inline CUresult fStreamDestroy(CUstream h) {
  if (!has_context("cuStreamDestroy")) return kInvalidContext;
  std::lock_guard<std::recursive_mutex> lock(state().mutex);
  const auto v = reinterpret_cast<uintptr_t>(h);
  // Its queued work still runs: the stream's state (and clock) stays, the handle is freed.
  if (state().stream_of_handle.erase(v) == 0) return kInvalidHandle;
  state().free_handles.push_back(v);
  return CUDA_SUCCESS;
}
inline CUresult fStreamSynchronize(CUstream h) {
  if (!has_context("cuStreamSynchronize")) return kInvalidContext;
  std::lock_guard<std::recursive_mutex> lock(state().mutex);
  size_t s;
  if (!stream_index(h, &s)) return kInvalidHandle;
  merge(state().host, clock_of(s));
  return CUDA_SUCCESS;
}
inline CUresult fStreamQuery(CUstream) { return CUDA_SUCCESS; }
inline CUresult fStreamWaitEvent(CUstream h, CUevent e, unsigned) {
  if (!has_context("cuStreamWaitEvent")) return kInvalidContext;
  std::lock_guard<std::recursive_mutex> lock(state().mutex);
  size_t s;
  auto it = state().events.find(reinterpret_cast<uintptr_t>(e));
  if (!stream_index(h, &s) || it == state().events.end()) return kInvalidHandle;
  merge(clock_of(s), it->second);
  state().log.push_back("cuStreamWaitEvent stream " + std::to_string(s));
  return CUDA_SUCCESS;
}
inline CUresult fEventCreate(CUevent* e, unsigned) {
  if (!has_context("cuEventCreate")) return kInvalidContext;
  std::lock_guard<std::recursive_mutex> lock(state().mutex);
  const uintptr_t v = state().next_event += 0x10;
  state().events[v] = {};
  *e = reinterpret_cast<CUevent>(v);
  return CUDA_SUCCESS;
}
inline CUresult fEventDestroy(CUevent e) {
  if (!has_context("cuEventDestroy")) return kInvalidContext;
  std::lock_guard<std::recursive_mutex> lock(state().mutex);
  return state().events.erase(reinterpret_cast<uintptr_t>(e)) ? CUDA_SUCCESS : kInvalidHandle;
}
inline CUresult fEventRecord(CUevent e, CUstream h) {
  if (!has_context("cuEventRecord")) return kInvalidContext;
  std::lock_guard<std::recursive_mutex> lock(state().mutex);
  size_t s;
  auto it = state().events.find(reinterpret_cast<uintptr_t>(e));
  if (!stream_index(h, &s) || it == state().events.end()) return kInvalidHandle;
  begin_work(s);  // the legacy stream's implicit ordering applies to the record too
  it->second = clock_of(s);
  state().log.push_back("cuEventRecord stream " + std::to_string(s));
  return CUDA_SUCCESS;
}
inline CUresult fEventSynchronize(CUevent e) {
  std::lock_guard<std::recursive_mutex> lock(state().mutex);
  auto it = state().events.find(reinterpret_cast<uintptr_t>(e));
  if (it == state().events.end()) return kInvalidHandle;
  merge(state().host, it->second);
  return CUDA_SUCCESS;
}
inline CUresult fEventQuery(CUevent) { return CUDA_SUCCESS; }
inline CUresult fEventElapsedTime(float* ms, CUevent, CUevent) {
  *ms = 0;
  return CUDA_SUCCESS;
}
inline CUresult fModuleLoadData(CUmodule* m, const void* image) {
  if (!has_context("cuModuleLoadData")) return kInvalidContext;
  std::lock_guard<std::recursive_mutex> lock(state().mutex);
  if (state().module_load_result != CUDA_SUCCESS) return state().module_load_result;
  const uintptr_t v = state().next_module += 0x10;
  state().modules[v] = static_cast<const char*>(image);
  *m = reinterpret_cast<CUmodule>(v);
  return CUDA_SUCCESS;
}
inline CUresult fModuleUnload(CUmodule m) {
  if (!has_context("cuModuleUnload")) return kInvalidContext;
  std::lock_guard<std::recursive_mutex> lock(state().mutex);
  return state().modules.erase(reinterpret_cast<uintptr_t>(m)) ? CUDA_SUCCESS : kInvalidHandle;
}
// A module's __device__ variable (checked mode's error record): not modelled, as no fake kernel runs.
inline CUresult fModuleGetGlobal(CUdeviceptr*, size_t*, CUmodule, const char*) { return kInvalidHandle; }
inline CUresult fModuleGetFunction(CUfunction* f, CUmodule m, const char* name) {
  std::lock_guard<std::recursive_mutex> lock(state().mutex);
  auto it = state().modules.find(reinterpret_cast<uintptr_t>(m));
  if (it == state().modules.end()) return kInvalidHandle;
  const uintptr_t v = state().next_function += 0x10;
  state().functions[v] = Function{name, parameter_sizes(it->second, name)};
  *f = reinterpret_cast<CUfunction>(v);
  return CUDA_SUCCESS;
}
inline CUresult fFuncGetAttribute(int* v, int attribute, CUfunction) {
  *v = attribute == CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES        ? state().static_shared
       : attribute == CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK ? state().max_threads
                                                               : 0;
  return CUDA_SUCCESS;
}
inline CUresult fFuncSetAttribute(CUfunction, int attribute, int value) {
  if (attribute == CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES)
    state().dynamic_shared_opt_ins.push_back(value);
  return CUDA_SUCCESS;
}
inline CUresult fLaunchKernel(CUfunction f, unsigned, unsigned, unsigned, unsigned, unsigned,
                              unsigned, unsigned, CUstream h, void** params, void**) {
  if (!has_context("cuLaunchKernel")) return kInvalidContext;
  std::lock_guard<std::recursive_mutex> lock(state().mutex);
  if (state().launch_result != CUDA_SUCCESS) return state().launch_result;
  size_t s;
  auto it = state().functions.find(reinterpret_cast<uintptr_t>(f));
  if (!stream_index(h, &s) || it == state().functions.end()) return kInvalidHandle;
  const uint64_t tick = begin_work(s);
  const Function& fn = it->second;
  for (size_t i = 0; i < fn.params.size(); ++i)
    for (size_t at = 0; at + 8 <= fn.params[i]; at += 8) {
      const auto p = read_at<uintptr_t>(static_cast<const char*>(params[i]) + at);
      if (is_device(p)) access(s, tick, p, p + 1, true, "kernel " + fn.name);
    }
  Launch launch{fn.name, {}};
  for (size_t i = 0; i < fn.params.size(); ++i)
    launch.params.emplace_back(static_cast<const char*>(params[i]), fn.params[i]);
  state().launches.push_back(std::move(launch));
  state().log.push_back("cuLaunchKernel " + fn.name + " on stream " + std::to_string(s));
  return CUDA_SUCCESS;
}
inline CUresult fFuncGetParamInfo(CUfunction f, size_t i, size_t* offset, size_t* size) {
  std::lock_guard<std::recursive_mutex> lock(state().mutex);
  ++state().param_info_calls;
  auto it = state().functions.find(reinterpret_cast<uintptr_t>(f));
  if (it == state().functions.end()) return kInvalidHandle;
  if (i >= it->second.params.size()) return CUDA_ERROR_INVALID_VALUE;
  *offset = 0;
  *size = it->second.params[i];
  return CUDA_SUCCESS;
}

// The table accel loads, pointing at the functions above.
inline DriverApi driver_table() {
  DriverApi api;
  api.cuInit = fInit;
  api.cuDriverGetVersion = fDriverGetVersion;
  api.cuGetErrorName = fGetErrorName;
  api.cuGetErrorString = fGetErrorString;
  api.cuDeviceGetCount = fDeviceGetCount;
  api.cuDeviceGet = fDeviceGet;
  api.cuDeviceGetName = fDeviceGetName;
  api.cuDeviceGetAttribute = fDeviceGetAttribute;
  api.cuDeviceTotalMem = fDeviceTotalMem;
  api.cuDevicePrimaryCtxRetain = fPrimaryCtxRetain;
  api.cuCtxSetCurrent = fCtxSetCurrent;
  api.cuCtxGetCurrent = fCtxGetCurrent;
  api.cuCtxSynchronize = fCtxSynchronize;
  api.cuMemGetInfo = fMemGetInfo;
  api.cuMemAlloc = fMemAlloc;
  api.cuMemFree = fMemFree;
  api.cuMemHostAlloc = fMemHostAlloc;
  api.cuMemFreeHost = fMemFreeHost;
  api.cuMemcpyHtoDAsync = fMemcpyHtoDAsync;
  api.cuMemcpyDtoHAsync = fMemcpyDtoHAsync;
  api.cuMemcpyDtoDAsync = fMemcpyDtoDAsync;
  api.cuPointerGetAttribute = fPointerGetAttribute;
  api.cuMemsetD8Async = fMemsetD8Async;
  api.cuStreamCreate = fStreamCreate;
  api.cuStreamDestroy = fStreamDestroy;
  api.cuStreamSynchronize = fStreamSynchronize;
  api.cuStreamQuery = fStreamQuery;
  api.cuStreamWaitEvent = fStreamWaitEvent;
  api.cuEventCreate = fEventCreate;
  api.cuEventDestroy = fEventDestroy;
  api.cuEventRecord = fEventRecord;
  api.cuEventSynchronize = fEventSynchronize;
  api.cuEventQuery = fEventQuery;
  api.cuEventElapsedTime = fEventElapsedTime;
  api.cuModuleLoadData = fModuleLoadData;
  api.cuModuleUnload = fModuleUnload;
  api.cuModuleGetFunction = fModuleGetFunction;
  api.cuModuleGetGlobal = fModuleGetGlobal;
  api.cuFuncGetAttribute = fFuncGetAttribute;
  api.cuFuncSetAttribute = fFuncSetAttribute;
  api.cuLaunchKernel = fLaunchKernel;
  api.cuFuncGetParamInfo = fFuncGetParamInfo;
  api.path = "fake libcuda (tests/cpp/fake_cuda_driver.h)";
  api.version = state().version;
  api.device_count = 1;
  return api;
}

// Puts the fake in place of the driver; a test file calls it from a namespace-scope initialiser
// (`const bool kFakeInstalled = fake_cuda::install();`), so that the very first driver() call,
// in any test, finds the fake.
inline bool install() {
  accel::cuda::replace_driver_for_testing(driver_table());
  return true;
}

}  // namespace fake_cuda
