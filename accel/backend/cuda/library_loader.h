// dlopen with a record of every place tried, so that "CUDA is unavailable" can say exactly what
// was looked for, where, and why each attempt failed.
#pragma once
#include <string>
#include <vector>

namespace accel::cuda {

struct LoadedLibrary {
  void* handle = nullptr;  // null when nothing could be loaded
  std::string path;        // the file the dynamic loader actually opened
  std::vector<std::string> attempts;  // "<candidate>: <dlerror>" for each failure, in order

  // Every attempt on its own line, indented, for error messages.
  std::string attempts_text() const;
};

// Tries each candidate (a path, or a bare soname for the loader's own search) in order.
LoadedLibrary open_first(const std::vector<std::string>& candidates);
// The symbol, or null.
void* find_symbol(void* handle, const char* name);

}  // namespace accel::cuda
