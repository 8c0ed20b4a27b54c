// SHA-256 (FIPS 180-4): content addresses for the kernel cache and integrity hashes of its entries.
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace accel {

// Incremental hashing, so a cache key can be built from many pieces without joining them.
class Sha256 {
 public:
  Sha256();
  Sha256& update(std::string_view data);
  // The 32-byte digest; the object is spent afterwards.
  std::array<uint8_t, 32> digest();
  std::string hex_digest();  // 64 lowercase hex characters

 private:
  void compress(const uint8_t* block);
  std::array<uint32_t, 8> state_;
  std::array<uint8_t, 64> buffer_{};
  size_t buffered_ = 0;
  uint64_t total_bytes_ = 0;
};

// 64 lowercase hex characters.
std::string sha256_hex(std::string_view data);

}  // namespace accel
