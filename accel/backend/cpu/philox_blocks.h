// Philox blocks for the CPU's draws, many at a time: the draws' loops first make a chunk of
// blocks here, then turn them into values in a loop of their own (which vectorises). With AVX2,
// 8 blocks run in step, each 32-bit word of a block in a 64-bit lane, so that a round's
// products are one vpmuludq each with no shuffling: 2.2x the loop GCC vectorises from
// philox4x32_10 itself, which packs the words 8 to a register and spends most of its time
// moving them between the products' lanes (philox_blocks.cpp). Other CPUs call philox4x32_10
// per block. The bits are philox.h's either way (tests/cpp/random_test.cpp compares them).
#pragma once
#include <cstdint>

#include "accel/device_src/philox.h"

namespace accel::cpu {

// Blocks q0 .. q0 + count - 1 of the form philox::element_block(key, q, word2, domain), held as
// their two 64-bit words (philox::word64(b, 0) and (b, 1)).
struct PhiloxChunk {
  static constexpr int64_t kSize = 256;
  alignas(32) uint64_t lo[kSize];
  alignas(32) uint64_t hi[kSize];

  // count <= kSize.
  void fill(uint64_t key, uint64_t q0, int64_t count, uint32_t word2, uint32_t domain);
  philox::Block block(int64_t i) const {
    return {{uint32_t(lo[i]), uint32_t(lo[i] >> 32), uint32_t(hi[i]), uint32_t(hi[i] >> 32)}};
  }
};

}  // namespace accel::cpu
