#include "accel/runtime/kernel_cache.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <random>
#include <sstream>
#include <system_error>
#include <vector>

#include "accel/runtime/config.h"
#include "accel/runtime/errors.h"

namespace accel {
namespace fs = std::filesystem;

namespace {

constexpr std::string_view kMetaMagic = "accel-kernel-cache 1";
// Temporary directories older than this were left by a process that died while storing.
constexpr auto kStaleTemp = std::chrono::hours(1);

bool is_lower_hex(std::string_view s) {
  return std::all_of(s.begin(), s.end(),
                     [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
}
bool is_entry_name(std::string_view s) { return s.size() >= 16 && s.size() <= 128 && is_lower_hex(s); }
bool is_shard_name(std::string_view s) { return s.size() == 2 && is_lower_hex(s); }

std::optional<std::string> read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad()) return std::nullopt;
  return std::move(ss).str();
}

bool write_file(const fs::path& p, std::string_view bytes) {
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  out.close();
  return static_cast<bool>(out);
}

std::string meta_text(std::string_view payload) {
  return std::string(kMetaMagic) + "\nsha256 " + sha256_hex(payload) + "\nsize " +
         std::to_string(payload.size()) + "\n";
}

}  // namespace

fs::path KernelCache::default_dir() {
  if (auto d = config::text(config::Var::ACCEL_CACHE_DIR)) return *d;
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) return fs::path(x) / "accel";
  if (const char* h = std::getenv("HOME"); h && *h) return fs::path(h) / ".cache" / "accel";
  return fs::temp_directory_path() / ("accel-cache-" + std::to_string(getuid()));
}

namespace {

struct EntryInfo {
  fs::path path;
  fs::file_time_type used;
  uint64_t bytes;
};

// Every complete entry on disk (best effort: entries vanishing meanwhile are skipped).
std::vector<EntryInfo> scan_entries(const fs::path& dir) {
  std::vector<EntryInfo> out;
  std::error_code ec;
  for (const auto& shard : fs::directory_iterator(dir, ec)) {
    if (!is_shard_name(shard.path().filename().string())) continue;
    std::error_code ec2;
    for (const auto& entry : fs::directory_iterator(shard.path(), ec2)) {
      if (!is_entry_name(entry.path().filename().string())) continue;
      std::error_code e1, e2, e3;
      uint64_t payload = fs::file_size(entry.path() / "payload", e1);
      uint64_t meta = fs::file_size(entry.path() / "meta", e2);
      auto used = fs::last_write_time(entry.path(), e3);
      if (e3) continue;
      out.push_back({entry.path(), used, (e1 ? 0 : payload) + (e2 ? 0 : meta)});
    }
  }
  return out;
}

}  // namespace

uint64_t KernelCache::default_max_bytes() {
  return config::number(config::Var::ACCEL_CACHE_MAX_BYTES).value_or(uint64_t(1) << 30);
}

KernelCache& KernelCache::instance() {
  // Never destroyed: kernels may be loaded while static destructors run.
  static KernelCache* cache = new KernelCache(default_dir());
  return *cache;
}

KernelCache::KernelCache(fs::path dir, uint64_t max_bytes)
    : dir_(std::move(dir)), max_bytes_(max_bytes) {}

fs::path KernelCache::entry_dir(const std::string& key) const {
  std::string name = is_entry_name(key) ? key : sha256_hex(key);
  return dir_ / name.substr(0, 2) / name;
}

fs::path KernelCache::unique_temp(std::string_view stem) const {
  static std::atomic<uint64_t> counter{0};
  thread_local std::mt19937_64 rng(std::random_device{}());
  return dir_ / "tmp" /
         (std::string(stem) + "." + std::to_string(getpid()) + "." + std::to_string(counter++) +
          "." + std::to_string(rng() % 1000000007));
}

void KernelCache::remove_entry(const fs::path& entry) {
  // Moved aside first, so no reader ever sees a half-deleted entry under its key.
  std::error_code ec;
  fs::create_directories(dir_ / "tmp", ec);
  fs::path trash = unique_temp("trash");
  if (fs::rename(entry, trash, ec); ec) return;  // someone else removed or replaced it
  fs::remove_all(trash, ec);
}

std::optional<fs::path> KernelCache::lookup(const std::string& key, std::string* bytes) {
  fs::path entry = entry_dir(key);
  auto meta = read_file(entry / "meta");
  std::optional<std::string> payload = meta ? read_file(entry / "payload") : std::nullopt;
  if (!meta || !payload) {
    // Missing, or removed by another process between the two reads: a plain miss.
    ++misses_;
    return std::nullopt;
  }
  if (*meta != meta_text(*payload)) {
    remove_entry(entry);
    ++corrupt_;
    ++misses_;
    return std::nullopt;
  }
  std::error_code ec;
  fs::last_write_time(entry, fs::file_time_type::clock::now(), ec);  // LRU; a read-only dir is fine
  ++hits_;
  if (bytes) *bytes = std::move(*payload);
  return entry / "payload";
}

std::optional<std::string> KernelCache::load(const std::string& key) {
  std::string bytes;
  if (!lookup(key, &bytes)) return std::nullopt;
  return bytes;
}

std::optional<fs::path> KernelCache::load_path(const std::string& key) {
  return lookup(key, nullptr);
}

void KernelCache::create_dir() const {
  // An existing directory (ACCEL_CACHE_DIR) keeps its mode; `python -m accel doctor` says when
  // others can write into it.
  std::error_code ec;
  if (!fs::exists(dir_, ec) && fs::create_directories(dir_, ec))
    fs::permissions(dir_, fs::perms::owner_all, fs::perm_options::replace, ec);
}

fs::path KernelCache::store(const std::string& key, std::string_view bytes) {
  fs::path entry = entry_dir(key);
  std::error_code ec;
  create_dir();
  fs::create_directories(dir_ / "tmp", ec);
  if (!ec) fs::create_directories(entry.parent_path(), ec);
  if (ec)
    throw Error("[kernel cache] cannot create the cache directory " + dir_.string() + ": " +
                ec.message() + "; set ACCEL_CACHE_DIR to a writable directory");
  fs::path temp = unique_temp(entry.filename().string());
  fs::create_directory(temp, ec);
  if (ec || !write_file(temp / "payload", bytes) || !write_file(temp / "meta", meta_text(bytes))) {
    fs::remove_all(temp, ec);
    throw Error("[kernel cache] cannot write " + std::to_string(bytes.size()) + " bytes under " +
                dir_.string() + "; set ACCEL_CACHE_DIR to a writable directory with free space");
  }
  // rename() of a directory onto a non-empty one fails: then another process stored this key
  // first. Keep its entry if it is sound, else replace it.
  bool stored = false;
  for (int attempt = 0; attempt < 3 && !stored; ++attempt) {
    fs::rename(temp, entry, ec);
    if (!ec) {
      stored = true;
      break;
    }
    auto meta = read_file(entry / "meta");
    auto payload = meta ? read_file(entry / "payload") : std::nullopt;
    if (meta && payload && *meta == meta_text(*payload))
      stored = true;
    else if (meta && payload)
      remove_entry(entry);
  }
  fs::remove_all(temp, ec);  // nothing left there when the rename succeeded
  if (!stored)
    throw Error("[kernel cache] cannot store entry " + entry.string() +
                " (the cache was cleared or changed while storing); try again");
  evict_to_cap(entry);
  return entry / "payload";
}

void KernelCache::evict_to_cap(const fs::path& keep) {
  std::vector<EntryInfo> entries = scan_entries(dir_);
  uint64_t total = 0;
  for (const auto& e : entries) total += e.bytes;
  if (total > max_bytes_) {
    std::sort(entries.begin(), entries.end(),
              [](const EntryInfo& a, const EntryInfo& b) { return a.used < b.used; });
    for (const auto& e : entries) {
      if (total <= max_bytes_) break;
      if (e.path == keep) continue;
      remove_entry(e.path);
      total -= e.bytes;
      ++evictions_;
    }
  }
  std::error_code ec;
  auto now = fs::file_time_type::clock::now();
  for (const auto& t : fs::directory_iterator(dir_ / "tmp", ec)) {
    std::error_code e1;
    auto when = fs::last_write_time(t.path(), e1);
    if (!e1 && now - when > kStaleTemp) fs::remove_all(t.path(), e1);
  }
}

KernelCacheStats KernelCache::stats() const {
  KernelCacheStats s;
  s.hits = hits_;
  s.misses = misses_;
  s.evictions = evictions_;
  s.corrupt = corrupt_;
  for (const auto& e : scan_entries(dir_)) {
    ++s.entries;
    s.bytes += e.bytes;
  }
  return s;
}

void KernelCache::clear() {
  // Only what this cache made is removed, in case the directory is shared with other files.
  std::error_code ec;
  for (const auto& shard : fs::directory_iterator(dir_, ec)) {
    std::string name = shard.path().filename().string();
    if (!is_shard_name(name)) continue;
    std::error_code ec2;
    for (const auto& entry : fs::directory_iterator(shard.path(), ec2))
      if (is_entry_name(entry.path().filename().string())) remove_entry(entry.path());
    fs::remove(shard.path(), ec2);  // only if empty
  }
  fs::remove_all(dir_ / "tmp", ec);
}

}  // namespace accel
