// The profiler's event sink (issue 14): what ran, for how long, and why. Layers above record
// into it only while a session is active; when none is, every recording point costs one load
// and one predictable branch (`profile::active()`), so nothing measurable.
//
// Recording is thread-safe (kernels may record from any thread, the host JIT compiles in the
// background) and cheap enough for every op: an Event is filled on the caller's stack and
// appended under one mutex. Python reads the whole list at the end of a session
// (python/src/profile_bindings.cpp); the report, trace and advice are built there.
#pragma once
#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace accel::profile {

#define ACCEL_PROFILE_EVENT_KINDS(X)                                                      \
  X(op)         /* an elementwise op was recorded (lazy) or run at once (eager) */        \
  X(kernel)     /* a backend call ran: an op, a fused region, a reduction, a copy, ... */ \
  X(region)     /* pending ops were evaluated together: which ops, fused or alone */      \
  X(transfer)   /* bytes moved between host and a device */                               \
  X(compile)    /* a kernel was compiled, or found in a cache */                          \
  X(alloc)      /* a buffer was allocated */                                              \
  X(sync)       /* the host waited for a value (read to host, explicit synchronize) */    \
  X(fusion_cut) /* a pending input could not join its consumer's region */

enum class EventKind : uint8_t {
#define X(name) name,
  ACCEL_PROFILE_EVENT_KINDS(X)
#undef X
};
const char* event_kind_name(EventKind kind);

// Flag bits of Event::flags.
enum Flag : uint32_t {
  kFused = 1,        // kernel/region: more than one op in one pass
  kCacheHit = 2,     // compile: found in memory or on disk; alloc: served by the cache
  kPinned = 4,       // transfer: host side is pinned memory
  kStridedCopy = 8,  // kernel: a same-dtype copy out of a non-contiguous view
  kFloat64 = 16,     // kernel: an operand is float64 or complex128
  kDiskCache = 32,   // compile: the hit came from the on-disk kernel cache
  kLazy = 64,        // op: became a pending node, so fusion decides how it runs
  kOomRetry = 128,   // alloc: the device was full; the cache was released and the request retried
};

struct Event {
  EventKind kind = EventKind::kernel;
  std::string name;      // op or kernel name; compile: kernel name; sync: what waited; cut: op
  std::string detail;    // operands "(1000,) float32, ... -> (1000,) float32"; compiler; reason
  int device = -1;       // -1: the CPU, N: cuda:N
  int64_t stream = -1;   // CUDA stream id, -1 when none
  int64_t start_ns = 0;  // host clock, from the session's start
  int64_t dur_ns = 0;    // host wall time
  int64_t gpu_ns = -1;   // device time from CUDA events, once known
  int64_t bytes = 0;     // kernel: operand bytes read + written; transfer/alloc: size
  int64_t elements = 0;  // kernel/op: output elements
  int64_t flops = 0;     // kernel: arithmetic operations, as counted by the recorder
  int64_t in_use = 0;    // alloc: bytes in use on the device after it
  int64_t id = 0;        // op, region, kernel: its id (GPU times are matched by it); else 0
  int64_t region = 0;    // kernel: region that ran it (0: none)
  std::vector<int64_t> members;  // region: the op ids it computed
  uint32_t thread = 0;           // small per-thread number, in order of first recording
  uint32_t site = 0;             // caller's source location (see SiteProvider), 0 when unknown
  uint32_t flags = 0;
  int32_t depth = 0;  // nesting on its thread, from 0 (trace tracks)
};

// One load and a branch: every recording point tests this first.
extern std::atomic<bool> g_active;
inline bool active() { return g_active.load(std::memory_order_relaxed); }

// Starts a session (clears the previous events). Throws accel::Error if one is active.
void start();
// Ends it: runs the flush hooks (GPU event times are resolved there) and returns the events in
// the order they were recorded.
std::vector<Event> stop();

// Nanoseconds since the session started.
int64_t now_ns();
// Appends `e`, filling its thread, depth and (when unset) site.
void record(Event e);
// Fresh ids for ops and regions (never 0).
int64_t next_id();

// The location of the code that caused an event, as a small number a front end can name
// (Python: file:line, python/src/profile_bindings.cpp). Called on the recording thread; must
// return 0 when it cannot tell (e.g. a thread with no Python frames).
using SiteProvider = uint32_t (*)();
void set_site_provider(SiteProvider provider);
uint32_t current_site();

// Called by stop() on the events before they are returned (e.g. to fill in GPU times).
void add_flush_hook(std::function<void(std::vector<Event>&)> hook);

// The region being run on this thread, stamped on the kernels it runs (0 outside regions).
int64_t current_region();
void set_current_region(int64_t id);

// Times a scope and records it at its end; nested scopes on one thread get increasing depth.
// Only construct one while active(); a session that ended meanwhile drops the event.
class Scope {
 public:
  Scope(EventKind kind, std::string name);
  ~Scope();
  Scope(const Scope&) = delete;
  Scope& operator=(const Scope&) = delete;
  Event& event() { return e_; }

 private:
  Event e_;
};

// A host wait (a sync event named `what`), unless this thread is already inside one: a read
// to the host evaluates pending work, which is part of the same wait. Records nothing while no
// session is active.
class WaitScope {
 public:
  explicit WaitScope(const char* what);
  ~WaitScope();
  WaitScope(const WaitScope&) = delete;
  WaitScope& operator=(const WaitScope&) = delete;
  Event* event() { return scope_ ? &scope_->event() : nullptr; }

 private:
  std::optional<Scope> scope_;
  bool outermost_ = false;
};

// Sessions as RAII for C++ callers: `{ profile::Session s; ...; auto ev = s.stop(); }`.
class Session {
 public:
  Session() { start(); }
  ~Session() {
    if (running_) stop();
  }
  std::vector<Event> stop() {
    running_ = false;
    return profile::stop();
  }

 private:
  bool running_ = true;
};

}  // namespace accel::profile
