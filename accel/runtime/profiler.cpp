#include "accel/runtime/profiler.h"

#include <chrono>
#include <mutex>

#include "accel/runtime/errors.h"

namespace accel::profile {

std::atomic<bool> g_active{false};

namespace {

struct Sink {
  std::mutex mutex;
  std::vector<Event> events;
  std::vector<std::function<void(std::vector<Event>&)>> hooks;
  std::chrono::steady_clock::time_point epoch = std::chrono::steady_clock::now();
  std::atomic<SiteProvider> site_provider{nullptr};
  std::atomic<int64_t> ids{0};
};

Sink& sink() {
  static Sink* s = new Sink;  // never destroyed: threads may record during static destruction
  return *s;
}

std::atomic<uint32_t> g_threads{0};
thread_local uint32_t t_thread = 0;
thread_local int32_t t_depth = 0;
thread_local int64_t t_region = 0;
thread_local int t_waits = 0;

uint32_t thread_number() {
  if (t_thread == 0) t_thread = g_threads.fetch_add(1, std::memory_order_relaxed) + 1;
  return t_thread;
}

}  // namespace

const char* event_kind_name(EventKind kind) {
  static constexpr const char* names[] = {
#define X(name) #name,
      ACCEL_PROFILE_EVENT_KINDS(X)
#undef X
  };
  return names[static_cast<size_t>(kind)];
}

void start() {
  Sink& s = sink();
  std::lock_guard<std::mutex> lock(s.mutex);
  if (g_active.load()) throw Error("[profile] a profiling session is already active");
  s.events.clear();
  s.events.reserve(4096);
  s.epoch = std::chrono::steady_clock::now();
  g_active.store(true);
}

std::vector<Event> stop() {
  Sink& s = sink();
  std::vector<Event> out;
  std::vector<std::function<void(std::vector<Event>&)>> hooks;
  {
    std::lock_guard<std::mutex> lock(s.mutex);
    g_active.store(false);
    out.swap(s.events);
    hooks = s.hooks;
  }
  for (auto& hook : hooks) hook(out);
  return out;
}

int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() -
                                                              sink().epoch)
      .count();
}

void record(Event e) {
  Sink& s = sink();
  e.thread = thread_number();
  e.depth = t_depth;
  // Allocations are attributed through the kernels that follow them; skipping the lookup
  // saves a third of the cost of recording a small op.
  if (e.site == 0 && e.kind != EventKind::alloc) e.site = current_site();
  std::lock_guard<std::mutex> lock(s.mutex);
  // A session that ended while this event was being timed does not get it.
  if (g_active.load(std::memory_order_relaxed)) s.events.push_back(std::move(e));
}

int64_t next_id() { return sink().ids.fetch_add(1, std::memory_order_relaxed) + 1; }

void set_site_provider(SiteProvider provider) { sink().site_provider.store(provider); }

uint32_t current_site() {
  SiteProvider p = sink().site_provider.load(std::memory_order_relaxed);
  return p ? p() : 0;
}

void add_flush_hook(std::function<void(std::vector<Event>&)> hook) {
  Sink& s = sink();
  std::lock_guard<std::mutex> lock(s.mutex);
  s.hooks.push_back(std::move(hook));
}

int64_t current_region() { return t_region; }
void set_current_region(int64_t id) { t_region = id; }

Scope::Scope(EventKind kind, std::string name) {
  e_.kind = kind;
  e_.name = std::move(name);
  ++t_depth;
  e_.start_ns = now_ns();
}

Scope::~Scope() {
  e_.dur_ns = now_ns() - e_.start_ns;
  --t_depth;
  if (active()) record(std::move(e_));
}

WaitScope::WaitScope(const char* what) {
  outermost_ = t_waits++ == 0;
  if (outermost_ && active()) scope_.emplace(EventKind::sync, what);
}

WaitScope::~WaitScope() { --t_waits; }

}  // namespace accel::profile
