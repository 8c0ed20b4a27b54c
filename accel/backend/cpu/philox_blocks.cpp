// PhiloxChunk::fill (philox_blocks.h): 8 blocks at a time with AVX2, one at a time elsewhere.
#include "accel/backend/cpu/philox_blocks.h"

#ifdef __AVX2__
#include <immintrin.h>
#endif

namespace accel::cpu {

#ifdef __AVX2__
namespace {
// 8 blocks from counter q0: two groups of 4 lanes, interleaved so that each product's latency
// is hidden behind the other group's (one group alone runs at 0.8x of two; three spill).
void philox_blocks_x8(uint64_t key, uint64_t q0, uint32_t word2, uint32_t domain, uint64_t* lo,
                      uint64_t* hi) {
  const __m256i low32 = _mm256_set1_epi64x(0xFFFFFFFF);
  const __m256i m0 = _mm256_set1_epi64x(0xD2511F53u), m1 = _mm256_set1_epi64x(0xCD9E8D57u);
  __m256i c0[2], c1[2], c2[2], c3[2];
  for (int g = 0; g < 2; ++g) {
    const __m256i q = _mm256_add_epi64(_mm256_set1_epi64x(int64_t(q0 + 4 * uint64_t(g))),
                                       _mm256_setr_epi64x(0, 1, 2, 3));
    c0[g] = _mm256_and_si256(q, low32);
    c1[g] = _mm256_srli_epi64(q, 32);
    c2[g] = _mm256_set1_epi64x(word2);
    c3[g] = _mm256_set1_epi64x(domain);
  }
  uint32_t k0 = uint32_t(key), k1 = uint32_t(key >> 32);
  for (int round = 0; round < 10; ++round) {  // philox::philox_round, lane by lane
    const __m256i key0 = _mm256_set1_epi64x(k0), key1 = _mm256_set1_epi64x(k1);
    for (int g = 0; g < 2; ++g) {
      const __m256i p0 = _mm256_mul_epu32(c0[g], m0), p1 = _mm256_mul_epu32(c2[g], m1);
      c0[g] = _mm256_xor_si256(_mm256_xor_si256(_mm256_srli_epi64(p1, 32), c1[g]), key0);
      c1[g] = _mm256_and_si256(p1, low32);
      c2[g] = _mm256_xor_si256(_mm256_xor_si256(_mm256_srli_epi64(p0, 32), c3[g]), key1);
      c3[g] = _mm256_and_si256(p0, low32);
    }
    k0 += 0x9E3779B9u;
    k1 += 0xBB67AE85u;
  }
  for (int g = 0; g < 2; ++g) {
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(lo + 4 * g),
                        _mm256_or_si256(c0[g], _mm256_slli_epi64(c1[g], 32)));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(hi + 4 * g),
                        _mm256_or_si256(c2[g], _mm256_slli_epi64(c3[g], 32)));
  }
}
}  // namespace
#endif

void PhiloxChunk::fill(uint64_t key, uint64_t q0, int64_t count, uint32_t word2, uint32_t domain) {
  int64_t i = 0;
#ifdef __AVX2__
  for (; i + 8 <= count; i += 8)
    philox_blocks_x8(key, q0 + uint64_t(i), word2, domain, lo + i, hi + i);
#endif
  for (; i < count; ++i) {
    const philox::Block b = philox::element_block(key, q0 + uint64_t(i), word2, domain);
    lo[i] = philox::word64(b, 0);
    hi[i] = philox::word64(b, 1);
  }
}

}  // namespace accel::cpu
