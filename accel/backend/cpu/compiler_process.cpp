#include "accel/backend/cpu/compiler_process.h"

#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <mutex>
#include <vector>

#include "accel/backend/cpu/cpu.h"

extern char** environ;

namespace accel::cpu {
namespace fs = std::filesystem;
namespace {

struct InFlight {
  pid_t group;  // the shell's pid, which leads the compile's process group
  fs::path dir;
  pid_t owner;  // the process that started it: a forked child inherits the list, not the compile
};

struct Compiles {
  std::mutex mutex;
  std::vector<InFlight> running;
  bool stopped = false;  // stop_host_compiles() ran: the process is ending
  bool exiting = false;  // ... and exit() runs its handlers and static destructors
};

// Never destroyed: the exit handler and threads still compiling during exit read it.
Compiles& compiles() {
  static Compiles* c = new Compiles;
  return *c;
}

// Stops every compile in flight: SIGTERM to each compile's group (the compiler driver deletes
// its own temporary files on it; cc1plus, as and ld die with it), then its directory goes.
void stop_compiles(bool at_exit) {
  Compiles& c = compiles();
  std::lock_guard<std::mutex> lock(c.mutex);
  c.stopped = true;
  c.exiting = c.exiting || at_exit;
  for (const InFlight& f : c.running) {
    if (f.owner != getpid()) continue;
    kill(-f.group, SIGTERM);
    std::error_code ec;
    fs::remove_all(f.dir, ec);
  }
  c.running.clear();
}

void stop_compiles_at_exit() { stop_compiles(true); }

pid_t spawn_shell(const std::string& command) {
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  // A group of its own: the exit handler stops the whole compile, and the terminal's Ctrl-C
  // goes to the caller, which decides (a compile in flight at exit is stopped then).
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK |
                                      POSIX_SPAWN_SETSIGDEF);
  posix_spawnattr_setpgroup(&attr, 0);
  sigset_t none, defaults;
  sigemptyset(&none);
  posix_spawnattr_setsigmask(&attr, &none);
  // Python ignores SIGPIPE; an ignored signal stays ignored across exec.
  sigemptyset(&defaults);
  for (int s : {SIGPIPE, SIGINT, SIGTERM, SIGQUIT, SIGHUP}) sigaddset(&defaults, s);
  posix_spawnattr_setsigdefault(&attr, &defaults);
  const char* argv[] = {"sh", "-c", command.c_str(), nullptr};
  pid_t pid = -1;
  const int err = posix_spawn(&pid, "/bin/sh", nullptr, &attr, const_cast<char* const*>(argv),
                              environ);
  posix_spawnattr_destroy(&attr);
  return err == 0 ? pid : -1;
}

}  // namespace

void stop_host_compiles() { stop_compiles(false); }

int run_compile_command(const std::string& command, const fs::path& work_dir) {
  static const bool registered = [] {
    compiles();  // constructed before the handler can run
    return std::atexit(&stop_compiles_at_exit) == 0;
  }();
  (void)registered;
  Compiles& c = compiles();
  pid_t pid;
  {
    // Spawned and recorded under the lock, so the exit handler sees every child it must stop.
    std::lock_guard<std::mutex> lock(c.mutex);
    if (c.stopped) return -1;
    pid = spawn_shell(command);
    if (pid < 0) return -1;
    c.running.push_back({pid, work_dir, getpid()});
  }
  int status = 0;
  pid_t got;
  do {
    got = waitpid(pid, &status, 0);
  } while (got < 0 && errno == EINTR);
  const int wait_error = got < 0 ? errno : 0;
  bool stopped, exiting;
  {
    std::lock_guard<std::mutex> lock(c.mutex);
    stopped = c.stopped;
    exiting = c.exiting;
    for (auto it = c.running.begin(); it != c.running.end(); ++it)
      if (it->group == pid) {
        c.running.erase(it);
        break;
      }
  }
  // exit() has stopped this compile and is destroying the statics that the caller would
  // touch next: the thread waits here until the process ends around it.
  if (exiting)
    for (;;) pause();
  if (stopped) return -1;  // stopped before exit() (Python's atexit): a failed compile
  // ECHILD: SIGCHLD is ignored (by the embedding program), so the kernel reaped the child and
  // its status is gone; the caller judges the compile by its output file.
  if (got < 0) return wait_error == ECHILD ? 0 : -1;
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return -1;
}

}  // namespace accel::cpu
