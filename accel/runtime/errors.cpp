#include "accel/runtime/errors.h"

#include <cstdio>

namespace accel {

std::string format_bytes(size_t bytes) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  double v = static_cast<double>(bytes);
  int u = 0;
  while (v >= 1024.0 && u < 4) {
    v /= 1024.0;
    ++u;
  }
  char buf[64];
  if (u == 0)
    std::snprintf(buf, sizeof buf, "%zu B", bytes);
  else
    std::snprintf(buf, sizeof buf, "%.2f %s", v, units[u]);
  return buf;
}

static std::string oom_message(const std::string& where, size_t requested, size_t in_use,
                               size_t cached, size_t total, size_t free) {
  return "[" + where + "] out of memory allocating " + format_bytes(requested) + " (" +
         std::to_string(requested) + " bytes); in use by accel: " + format_bytes(in_use) +
         ", cached by accel: " + format_bytes(cached) + ", device total: " + format_bytes(total) +
         ", device free: " + format_bytes(free);
}

OutOfMemoryError::OutOfMemoryError(const std::string& where, size_t requested_, size_t in_use_,
                                   size_t cached_, size_t total_, size_t free_)
    : Error(oom_message(where, requested_, in_use_, cached_, total_, free_)),
      requested(requested_),
      in_use(in_use_),
      cached(cached_),
      total(total_),
      free(free_) {}

}  // namespace accel
