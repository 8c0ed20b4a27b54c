// A status line on stderr while kernels compile (issue 14). The host compiler and NVRTC take
// from a fraction of a second to seconds per kernel on a cold cache, and a first run that
// compiles dozens of them (a module's first use, a cold GPU test run, the first evaluation of
// many fused expressions) otherwise looks hung. The line appears once a compile has lasted half
// a second, or at once while a run of compiles (gaps under a second) has lasted that long; it
// shows the kernel, the compiler, the time and how many kernels the run has compiled, and is
// cleared the moment no compile is running, so output that follows is never mixed into it.
// Drawn only when stderr is a terminal (ACCEL_PROGRESS=1 forces it, 0 turns it off); otherwise
// a Scope costs a flag check and no thread is ever started.
#pragma once
#include <functional>
#include <string>

namespace accel::compile_status {

// Held for the length of one compile: `what` is the kernel's name, `via` the compiler
// ("the host compiler", "NVRTC").
class Scope {
 public:
  Scope(const std::string& what, const char* via);
  ~Scope();
  Scope(const Scope&) = delete;
  Scope& operator=(const Scope&) = delete;

 private:
  long id_ = 0;  // 0: not shown anywhere (disabled)
};

// Tests: draw into `sink` (stderr when empty), whatever stderr is, once a compile has lasted
// `after_s` seconds, redrawing every `interval_s`.
void enable_for_testing(std::function<void(const std::string&)> sink, double after_s, double interval_s);

}  // namespace accel::compile_status
