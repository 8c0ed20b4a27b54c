#include "accel/runtime/library_loader.h"

#include <dlfcn.h>
#include <link.h>

namespace accel {

std::string LoadedLibrary::attempts_text() const {
  std::string s;
  for (const auto& a : attempts) s += "\n    " + a;
  return s;
}

void open_library(const std::string& candidate, LoadedLibrary& lib) {
  dlerror();
  // RTLD_LOCAL: the library's symbols stay out of the global namespace (no clash with CuPy,
  // torch, or a BLAS that NumPy or the application loaded itself).
  void* h = dlopen(candidate.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!h) {
    const char* e = dlerror();
    std::string err = e ? e : "";
    lib.attempts.push_back(err.empty()                    ? candidate + ": not loadable"
                           : err.rfind(candidate, 0) == 0 ? err  // dlerror often names it first
                                                          : candidate + ": " + err);
    return;
  }
  lib.handle = h;
  lib.path = candidate;
  link_map* map = nullptr;
  if (dlinfo(h, RTLD_DI_LINKMAP, &map) == 0 && map && map->l_name && *map->l_name)
    lib.path = map->l_name;
}

LoadedLibrary open_first(const std::vector<std::string>& candidates) {
  LoadedLibrary lib;
  for (const auto& candidate : candidates) {
    open_library(candidate, lib);
    if (lib.handle) break;
  }
  return lib;
}

bool already_loaded(const std::string& candidate) {
  void* h = dlopen(candidate.c_str(), RTLD_LAZY | RTLD_NOLOAD);
  if (!h) return false;
  dlclose(h);  // RTLD_NOLOAD still took a reference
  return true;
}

void close_library(void* handle) {
  if (handle) dlclose(handle);
}

void* find_symbol(void* handle, const char* name) { return handle ? dlsym(handle, name) : nullptr; }

}  // namespace accel
