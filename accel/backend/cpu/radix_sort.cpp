#include "accel/backend/cpu/radix_sort.h"

#include <algorithm>
#include <array>
#include <memory>
#include <utility>
#include <vector>

#include "accel/backend/cpu/thread_pool.h"

namespace accel::cpu {
namespace {

using Histogram = std::array<int64_t, 256>;

// Below this many keys a pass runs on one thread: handing off costs more than it saves.
constexpr int64_t kParallelKeys = 1 << 16;

}  // namespace

template <class U>
void radix_sort(U* keys, int64_t* positions, int64_t n, bool parallel) {
  constexpr int kPasses = sizeof(U);
  if (n < 2) return;
  const int parts = parallel && n >= kParallelKeys ? std::max(1, num_threads()) : 1;
  auto part_begin = [&](int t) { return n * t / parts; };
  // Every pass's digit counts, from one read: a pass whose digit is the same in every key
  // (the high bytes of small integers) is skipped.
  std::vector<std::array<Histogram, kPasses>> part_totals(static_cast<size_t>(parts));
  parallel_for(parts, 1, [&](int64_t t0, int64_t t1) {
    for (int64_t t = t0; t < t1; ++t) {
      auto& h = part_totals[static_cast<size_t>(t)];
      for (Histogram& row : h) row.fill(0);
      for (int64_t i = part_begin(int(t)), e = part_begin(int(t) + 1); i < e; ++i) {
        const U k = keys[i];
        for (int p = 0; p < kPasses; ++p) ++h[p][(k >> (8 * p)) & 0xff];
      }
    }
  });
  std::array<Histogram, kPasses> total = part_totals[0];
  for (int t = 1; t < parts; ++t)
    for (int p = 0; p < kPasses; ++p)
      for (int d = 0; d < 256; ++d) total[p][d] += part_totals[static_cast<size_t>(t)][p][d];
  Array key_buffer, position_buffer;
  U* src = keys;
  int64_t* src_pos = positions;
  U *dst = nullptr;
  int64_t* dst_pos = nullptr;
  std::vector<Histogram> offsets(static_cast<size_t>(parts));
  bool dst_used = false;  // whether a pass has scattered yet
  for (int p = 0; p < kPasses; ++p) {
    if (std::find(total[p].begin(), total[p].end(), n) != total[p].end()) continue;
    if (!dst) {
      dst = scratch<U>(n, key_buffer);
      if (positions) dst_pos = scratch<int64_t>(n, position_buffer);
    }
    const int shift = 8 * p;
    // Each part's digit counts, then where each (digit, part) starts: digits in order, parts in
    // order within a digit, so equal digits keep their order (stability).
    if (parts == 1 || !dst_used) {  // before any scatter, the parts hold the keys counted above
      for (int t = 0; t < parts; ++t) offsets[static_cast<size_t>(t)] = part_totals[static_cast<size_t>(t)][p];
    } else {
      parallel_for(parts, 1, [&](int64_t t0, int64_t t1) {
        for (int64_t t = t0; t < t1; ++t) {
          Histogram& h = offsets[static_cast<size_t>(t)];
          h.fill(0);
          for (int64_t i = part_begin(int(t)), e = part_begin(int(t) + 1); i < e; ++i) ++h[(src[i] >> shift) & 0xff];
        }
      });
    }
    int64_t at = 0;
    for (int d = 0; d < 256; ++d)
      for (int t = 0; t < parts; ++t) {
        const int64_t count = offsets[static_cast<size_t>(t)][d];
        offsets[static_cast<size_t>(t)][d] = at;
        at += count;
      }
    auto scatter = [&](int t) {
      Histogram& next = offsets[static_cast<size_t>(t)];
      const int64_t e = part_begin(t + 1);
      if (src_pos) {
        for (int64_t i = part_begin(t); i < e; ++i) {
          const U k = src[i];
          const int64_t to = next[(k >> shift) & 0xff]++;
          dst[to] = k;
          dst_pos[to] = src_pos[i];
        }
      } else {
        for (int64_t i = part_begin(t); i < e; ++i) {
          const U k = src[i];
          dst[next[(k >> shift) & 0xff]++] = k;
        }
      }
    };
    if (parts == 1) {
      scatter(0);
    } else {
      parallel_for(parts, 1, [&](int64_t t0, int64_t t1) {
        for (int64_t t = t0; t < t1; ++t) scatter(int(t));
      });
    }
    std::swap(src, dst);
    std::swap(src_pos, dst_pos);
    dst_used = true;
  }
  if (src != keys) {
    std::copy(src, src + n, keys);
    if (positions) std::copy(src_pos, src_pos + n, positions);
  }
}

template void radix_sort<uint8_t>(uint8_t*, int64_t*, int64_t, bool);
template void radix_sort<uint16_t>(uint16_t*, int64_t*, int64_t, bool);
template void radix_sort<uint32_t>(uint32_t*, int64_t*, int64_t, bool);
template void radix_sort<uint64_t>(uint64_t*, int64_t*, int64_t, bool);

}  // namespace accel::cpu
