// The kernel cache (DESIGN.md "Kernel cache"): compiled kernels (CUBIN/PTX from NVRTC, host .so
// files from the host compiler) stored on disk under a content address, shared by every process
// of a user.
//
// Layout: <dir>/<first two hex digits>/<key>/{payload,meta}. An entry is written into
// <dir>/tmp/ and renamed into place as a whole directory, so a reader sees either no entry or a
// complete one. `meta` holds the payload's SHA-256; an entry whose payload does not match is
// deleted and reported as a miss, never returned. Entries are evicted least recently used
// first (a load touches the entry) once the total passes the cap.
#pragma once
#include <atomic>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "accel/runtime/sha256.h"

namespace accel {

struct KernelCacheStats {
  uint64_t hits = 0;       // loads that returned an entry (this process)
  uint64_t misses = 0;     // loads that found nothing usable (this process)
  uint64_t entries = 0;    // entries on disk now
  uint64_t bytes = 0;      // their size on disk (payload + meta)
  uint64_t evictions = 0;  // entries this process removed to stay under the cap
  uint64_t corrupt = 0;    // entries this process found damaged and removed
};

class KernelCache {
 public:
  // The process-wide cache. Its directory: ACCEL_CACHE_DIR, else $XDG_CACHE_HOME/accel, else
  // ~/.cache/accel. Its cap: ACCEL_CACHE_MAX_BYTES, else 1 GiB.
  static KernelCache& instance();
  static std::filesystem::path default_dir();
  static uint64_t default_max_bytes();

  explicit KernelCache(std::filesystem::path dir, uint64_t max_bytes = default_max_bytes());

  // key: sha256_hex over everything that changes the binary (source with embedded headers,
  // compiler identity and version, options, arch). Other strings are hashed to make a name.
  std::optional<std::string> load(const std::string& key);
  // The verified payload file (for dlopen of host .so files); nullopt on a miss.
  std::optional<std::filesystem::path> load_path(const std::string& key);
  // Stores bytes under key (atomically; an equal entry stored meanwhile by another process is
  // kept) and returns the payload's path. Throws accel::Error when the directory is unwritable.
  std::filesystem::path store(const std::string& key, std::string_view bytes);

  // Creates the cache directory if it is missing, private (0700): it holds shared libraries
  // accel loads and runs, so no other user may write there. An existing directory keeps its mode.
  // Everything that writes under dir() calls this first.
  void create_dir() const;

  KernelCacheStats stats() const;
  // Removes every entry (and stale temporary files); counters are kept.
  void clear();
  const std::filesystem::path& dir() const { return dir_; }
  uint64_t max_bytes() const { return max_bytes_; }

 private:
  std::filesystem::path entry_dir(const std::string& key) const;
  // The verified payload's path, and its bytes when `read` is set.
  std::optional<std::filesystem::path> lookup(const std::string& key, std::string* bytes);
  void remove_entry(const std::filesystem::path& entry);
  std::filesystem::path unique_temp(std::string_view stem) const;
  void evict_to_cap(const std::filesystem::path& keep);

  std::filesystem::path dir_;
  uint64_t max_bytes_;
  std::atomic<uint64_t> hits_{0}, misses_{0}, evictions_{0}, corrupt_{0};
};

}  // namespace accel
