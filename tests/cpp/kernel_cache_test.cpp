// The kernel cache: content hashing, hits and misses, damaged entries, many processes at once,
// and LRU eviction at the size cap.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <optional>
#include <string>

#include "accel/runtime/errors.h"
#include "accel/runtime/kernel_cache.h"

namespace fs = std::filesystem;
using accel::KernelCache;

namespace {

// A fresh directory per test, removed afterwards.
struct TempDir {
  fs::path path;
  TempDir() {
    static int n = 0;
    path = fs::temp_directory_path() /
           ("accel-kernel-cache-test-" + std::to_string(getpid()) + "-" + std::to_string(n++));
    fs::remove_all(path);
  }
  ~TempDir() { fs::remove_all(path); }
};

std::string blob(size_t n, char seed) {
  std::string s(n, '\0');
  for (size_t i = 0; i < n; ++i) s[i] = static_cast<char>(seed + i * 31);
  return s;
}

void set_used(const fs::path& payload, int seconds_ago) {
  fs::last_write_time(payload.parent_path(),
                      fs::file_time_type::clock::now() - std::chrono::seconds(seconds_ago));
}

}  // namespace

TEST(Sha256, matches_the_fips_180_test_vectors) {
  EXPECT_EQ(accel::sha256_hex(""),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(accel::sha256_hex("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(accel::sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  EXPECT_EQ(accel::sha256_hex(std::string(1000000, 'a')),
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST(Sha256, incremental_updates_equal_one_update) {
  std::string data = blob(1000, 'x');
  for (size_t cut : {0, 1, 55, 56, 63, 64, 65, 500, 1000}) {
    accel::Sha256 h;
    h.update(std::string_view(data).substr(0, cut)).update(std::string_view(data).substr(cut));
    EXPECT_EQ(h.hex_digest(), accel::sha256_hex(data)) << "cut at " << cut;
  }
}

TEST(KernelCache, miss_then_store_then_hit) {
  TempDir dir;
  KernelCache cache(dir.path);
  std::string key = accel::sha256_hex("kernel source + options");
  EXPECT_FALSE(cache.load(key).has_value());
  std::string bytes = blob(5000, 'a');
  fs::path payload = cache.store(key, bytes);
  EXPECT_TRUE(fs::exists(payload));
  EXPECT_EQ(payload.parent_path().parent_path().filename(), key.substr(0, 2));  // sharded
  auto loaded = cache.load(key);
  ASSERT_TRUE(loaded.has_value());
  EXPECT_EQ(*loaded, bytes);
  auto path = cache.load_path(key);
  ASSERT_TRUE(path.has_value());
  EXPECT_EQ(*path, payload);
  auto s = cache.stats();
  EXPECT_EQ(s.hits, 2u);
  EXPECT_EQ(s.misses, 1u);
  EXPECT_EQ(s.entries, 1u);
  EXPECT_GE(s.bytes, bytes.size());
  EXPECT_EQ(s.corrupt, 0u);
}

TEST(KernelCache, a_directory_it_creates_is_private_and_an_existing_one_keeps_its_mode) {
  // The cache holds shared libraries accel loads: others must not be able to plant one.
  TempDir dir;
  KernelCache cache(dir.path / "nested" / "cache");
  cache.store(accel::sha256_hex("k"), "bytes");
  EXPECT_EQ(fs::status(dir.path / "nested" / "cache").permissions() & fs::perms::all,
            fs::perms::owner_all);
  TempDir shared;
  fs::create_directories(shared.path);
  fs::permissions(shared.path, fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec,
                  fs::perm_options::replace);
  KernelCache existing(shared.path);
  existing.store(accel::sha256_hex("k"), "bytes");
  EXPECT_EQ(fs::status(shared.path).permissions() & fs::perms::all,
            fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec);
}

TEST(KernelCache, keys_that_are_not_hashes_still_work_and_stay_apart) {
  TempDir dir;
  KernelCache cache(dir.path);
  cache.store("cuda sm_90 vector_add", "one");
  cache.store("cuda sm_80 vector_add", "two");
  EXPECT_EQ(cache.load("cuda sm_90 vector_add").value(), "one");
  EXPECT_EQ(cache.load("cuda sm_80 vector_add").value(), "two");
}

TEST(KernelCache, empty_payload_round_trips) {
  TempDir dir;
  KernelCache cache(dir.path);
  cache.store(accel::sha256_hex("empty"), "");
  auto loaded = cache.load(accel::sha256_hex("empty"));
  ASSERT_TRUE(loaded.has_value());
  EXPECT_EQ(*loaded, "");
}

TEST(KernelCache, corrupt_entry_is_deleted_counted_and_rebuilt) {
  TempDir dir;
  KernelCache cache(dir.path);
  std::string key = accel::sha256_hex("corrupt me");
  std::string bytes = blob(4096, 'c');
  fs::path payload = cache.store(key, bytes);
  {
    std::fstream f(payload, std::ios::in | std::ios::out | std::ios::binary);
    f.seekg(100);
    char byte = static_cast<char>(f.get() ^ 0x5a);  // flip some bits
    f.seekp(100);
    f.put(byte);
  }
  EXPECT_FALSE(cache.load(key).has_value());
  EXPECT_FALSE(fs::exists(payload.parent_path()));
  EXPECT_EQ(cache.stats().corrupt, 1u);
  cache.store(key, bytes);  // the caller recompiles and stores again
  EXPECT_EQ(cache.load(key).value(), bytes);
}

TEST(KernelCache, truncated_payload_is_never_returned_by_load_path) {
  TempDir dir;
  KernelCache cache(dir.path);
  std::string key = accel::sha256_hex("truncate me");
  fs::path payload = cache.store(key, blob(10000, 't'));
  fs::resize_file(payload, 5000);
  EXPECT_FALSE(cache.load_path(key).has_value());
  EXPECT_EQ(cache.stats().corrupt, 1u);
  EXPECT_EQ(cache.stats().entries, 0u);
}

TEST(KernelCache, storing_an_existing_key_keeps_one_entry) {
  TempDir dir;
  KernelCache cache(dir.path);
  std::string key = accel::sha256_hex("twice");
  cache.store(key, "same bytes");
  cache.store(key, "same bytes");
  EXPECT_EQ(cache.stats().entries, 1u);
  EXPECT_EQ(cache.load(key).value(), "same bytes");
}

TEST(KernelCache, concurrent_processes_storing_and_loading_one_key_all_succeed) {
  TempDir dir;
  const std::string key = accel::sha256_hex("shared kernel");
  const std::string bytes = blob(200000, 's');
  constexpr int kProcesses = 4;
  std::vector<pid_t> children;
  for (int p = 0; p < kProcesses; ++p) {
    pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      KernelCache cache(dir.path);
      int failures = 0;
      for (int i = 0; i < 40; ++i) {
        try {
          auto loaded = cache.load(key);
          if (loaded && *loaded != bytes) ++failures;  // a partial or mixed entry was seen
          if (!loaded) cache.store(key, bytes);
          if (cache.load(key).value_or("") != bytes) ++failures;
          // Another key per process, stored and loaded while the others work.
          std::string own = accel::sha256_hex("own " + std::to_string(p) + " " + std::to_string(i));
          cache.store(own, bytes.substr(0, 1000 + i));
          if (cache.load(own).value_or("") != bytes.substr(0, 1000 + i)) ++failures;
        } catch (...) {
          ++failures;
        }
      }
      _exit(failures == 0 && cache.stats().corrupt == 0 ? 0 : 1);
    }
    children.push_back(pid);
  }
  for (pid_t pid : children) {
    int status = 0;
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "a process saw a bad entry";
  }
  KernelCache cache(dir.path);
  EXPECT_EQ(cache.load(key).value(), bytes);
  EXPECT_EQ(cache.stats().entries, 1u + kProcesses * 40);
}

TEST(KernelCache, eviction_at_the_cap_removes_least_recently_used_first) {
  TempDir dir;
  // Room for three 1000-byte entries (each also has a small meta file), not four.
  KernelCache cache(dir.path, 3500);
  std::string a = accel::sha256_hex("a"), b = accel::sha256_hex("b"), c = accel::sha256_hex("c"),
              d = accel::sha256_hex("d");
  set_used(cache.store(a, blob(1000, 'a')), 300);
  set_used(cache.store(b, blob(1000, 'b')), 200);
  set_used(cache.store(c, blob(1000, 'c')), 100);
  ASSERT_TRUE(cache.load(a).has_value());  // a becomes the most recently used
  cache.store(d, blob(1000, 'd'));
  EXPECT_TRUE(cache.load(a).has_value());
  EXPECT_FALSE(cache.load(b).has_value());  // the least recently used went
  EXPECT_TRUE(cache.load(c).has_value());
  EXPECT_TRUE(cache.load(d).has_value());
  auto s = cache.stats();
  EXPECT_EQ(s.evictions, 1u);
  EXPECT_EQ(s.entries, 3u);
  EXPECT_LE(s.bytes, 3500u);
}

TEST(KernelCache, an_entry_larger_than_the_cap_is_still_stored_and_usable) {
  TempDir dir;
  KernelCache cache(dir.path, 100);
  std::string key = accel::sha256_hex("big");
  fs::path p = cache.store(key, blob(1000, 'b'));
  EXPECT_TRUE(fs::exists(p));  // the caller may dlopen it right away
}

TEST(KernelCache, clear_removes_entries_but_not_foreign_files) {
  TempDir dir;
  KernelCache cache(dir.path);
  cache.store(accel::sha256_hex("x"), "x");
  cache.store(accel::sha256_hex("y"), "y");
  std::ofstream(dir.path / "notes.txt") << "the user's own file";
  cache.clear();
  EXPECT_EQ(cache.stats().entries, 0u);
  EXPECT_FALSE(cache.load(accel::sha256_hex("x")).has_value());
  EXPECT_TRUE(fs::exists(dir.path / "notes.txt"));
}

TEST(KernelCache, unwritable_directory_raises_an_error_naming_it) {
  // Nobody, root included, can make directories in /proc.
  KernelCache cache("/proc/accel-cannot-write-here");
  EXPECT_THROW(cache.store("k", "v"), accel::Error);
}

// Sets an environment variable for one scope and restores it afterwards.
struct ScopedEnv {
  std::string name;
  std::optional<std::string> old;
  ScopedEnv(const char* n, const char* value) : name(n) {
    if (const char* v = std::getenv(n)) old = v;
    if (value)
      setenv(n, value, 1);
    else
      unsetenv(n);
  }
  ~ScopedEnv() {
    if (old)
      setenv(name.c_str(), old->c_str(), 1);
    else
      unsetenv(name.c_str());
  }
};

TEST(KernelCache, default_directory_follows_accel_cache_dir_then_xdg_then_home) {
  {
    ScopedEnv dir("ACCEL_CACHE_DIR", "/some/where/accel");
    EXPECT_EQ(KernelCache::default_dir(), fs::path("/some/where/accel"));
  }
  ScopedEnv dir("ACCEL_CACHE_DIR", nullptr);
  {
    ScopedEnv xdg("XDG_CACHE_HOME", "/xdg");
    EXPECT_EQ(KernelCache::default_dir(), fs::path("/xdg/accel"));
  }
  ScopedEnv xdg("XDG_CACHE_HOME", nullptr);
  ScopedEnv home("HOME", "/home/someone");
  EXPECT_EQ(KernelCache::default_dir(), fs::path("/home/someone/.cache/accel"));
}

TEST(KernelCache, default_cap_follows_accel_cache_max_bytes) {
  {
    ScopedEnv cap("ACCEL_CACHE_MAX_BYTES", "12345");
    EXPECT_EQ(KernelCache::default_max_bytes(), 12345u);
  }
  ScopedEnv cap("ACCEL_CACHE_MAX_BYTES", nullptr);
  EXPECT_EQ(KernelCache::default_max_bytes(), uint64_t(1) << 30);
}
