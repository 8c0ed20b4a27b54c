#include "accel/runtime/compile_status.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <mutex>
#include <thread>
#include <vector>

#include "accel/runtime/config.h"

namespace accel::compile_status {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_between(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double>(b - a).count();
}

struct Active {
  long id;
  std::string what;
  const char* via;
  Clock::time_point start;
};

// Never destroyed: the drawing thread may still wait on it while the process exits.
struct State {
  std::mutex mutex;
  std::condition_variable wake;
  bool decided = false, enabled = false, thread_started = false;
  std::function<void(const std::string&)> sink;  // empty: stderr
  double after_s = 0.5, interval_s = 0.25;
  std::vector<Active> active;
  long next_id = 1;
  // The current run of compiles: when it began, how many finished, when the last one ended.
  Clock::time_point run_start, last_end;
  int run_done = 0;
  size_t width = 0;  // of the line on screen; 0: none drawn

  void write(const std::string& s) {
    if (sink) {
      sink(s);
      return;
    }
    ssize_t n = ::write(2, s.data(), s.size());
    (void)n;  // a status line that cannot be written is not worth an error
  }
  bool due(Clock::time_point now) const {
    if (active.empty()) return false;
    return seconds_between(active.front().start, now) >= after_s ||
           (run_done > 0 && seconds_between(run_start, now) >= after_s);
  }
  void draw(Clock::time_point now) {
    const Active& a = active.front();
    char time[64];
    std::snprintf(time, sizeof time, " ... %.1fs", seconds_between(a.start, now));
    std::string line = "compiling " + a.what + " with " + a.via + time;
    if (run_done > 0) {
      char run[96];
      // Which kernel of the run this is, and how long the run has lasted.
      std::snprintf(run, sizeof run, " (kernel %d in %.1fs)", run_done + 1, seconds_between(run_start, now));
      line += run;
    }
    const size_t pad = width > line.size() ? width - line.size() : 0;
    width = std::max(width, line.size());
    write("\r" + line + std::string(pad, ' '));
  }
  void clear() {
    if (!width) return;
    write("\r" + std::string(width, ' ') + "\r");
    width = 0;
  }
  void run_thread() {
    std::unique_lock<std::mutex> lock(mutex);
    for (;;) {
      wake.wait_for(lock, std::chrono::duration<double>(interval_s));
      const auto now = Clock::now();
      if (due(now)) draw(now);
    }
  }
};

State& state() {
  static State* s = new State;
  return *s;
}

}  // namespace

Scope::Scope(const std::string& what, const char* via) {
  State& s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  if (!s.decided) {
    s.decided = true;
    s.enabled = config::flag(config::Var::ACCEL_PROGRESS, ::isatty(2) == 1);
  }
  if (!s.enabled) return;
  const auto now = Clock::now();
  if (s.run_done == 0 || seconds_between(s.last_end, now) > 1.0) {
    s.run_start = now;
    s.run_done = 0;
  }
  id_ = s.next_id++;
  s.active.push_back({id_, what, via, now});
  if (!s.thread_started) {
    s.thread_started = true;
    std::thread([&s] { s.run_thread(); }).detach();
  }
  if (s.due(now)) s.draw(now);  // a run of compiles already on screen continues at once
}

Scope::~Scope() {
  if (!id_) return;
  State& s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  s.active.erase(std::remove_if(s.active.begin(), s.active.end(), [&](const Active& a) { return a.id == id_; }),
                 s.active.end());
  s.last_end = Clock::now();
  ++s.run_done;
  if (s.active.empty()) s.clear();
}

void enable_for_testing(std::function<void(const std::string&)> sink, double after_s, double interval_s) {
  State& s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  s.decided = true;
  s.enabled = true;
  s.sink = std::move(sink);
  s.after_s = after_s;
  s.interval_s = interval_s;
  s.run_done = 0;
  s.wake.notify_all();
}

}  // namespace accel::compile_status
