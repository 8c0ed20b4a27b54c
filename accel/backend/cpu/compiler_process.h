// Runs a host-compiler command line in a child process, as std::system would, without what
// std::system does to the rest of the process and with nothing left behind when the process
// ends first:
// - std::system ignores SIGINT in the whole process while its child runs, so Ctrl-C during a
//   background compile (host JIT) was swallowed; the child here runs in a process group of its
//   own, and the caller's signals stay the caller's.
// - a process that exits while a compile is in flight (a short script whose last fused kernel
//   was queued for the JIT) left the compile's temporary directory in /tmp and the compiler
//   running as an orphan; at exit the compiles in flight are killed and their directories
//   removed.
#pragma once
#include <filesystem>
#include <string>

namespace accel::cpu {

// Runs `/bin/sh -c command` and waits for it; returns its exit status (128 + the signal when a
// signal ended it, -1 when it could not be started). `work_dir` belongs to this compile: it is
// removed at process exit if the compile is still running then.
int run_compile_command(const std::string& command, const std::filesystem::path& work_dir);

}  // namespace accel::cpu
