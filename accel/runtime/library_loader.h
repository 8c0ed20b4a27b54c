// dlopen with a record of every place tried, so that "X is unavailable" can say exactly what was
// looked for, where, and why each attempt failed. Used for the CUDA driver, NVRTC and the CPU BLAS.
#pragma once
#include <string>
#include <vector>

namespace accel {

struct LoadedLibrary {
  void* handle = nullptr;             // null when nothing could be loaded
  std::string path;                   // the file the dynamic loader actually opened
  std::vector<std::string> attempts;  // "<candidate>: <dlerror>" for each failure, in order

  // Every attempt on its own line, indented, for error messages.
  std::string attempts_text() const;
};

// Tries one candidate (a path, or a bare soname for the loader's own search). On success fills
// handle and path; on failure records the attempt and leaves handle null.
void open_library(const std::string& candidate, LoadedLibrary& lib);
// Tries each candidate in order.
LoadedLibrary open_first(const std::vector<std::string>& candidates);
// Whether the process has already loaded this candidate (dlopen would not run its initialisers).
bool already_loaded(const std::string& candidate);
// Releases a library opened here that turned out not to be the one wanted.
void close_library(void* handle);
// The symbol, or null.
void* find_symbol(void* handle, const char* name);

}  // namespace accel
