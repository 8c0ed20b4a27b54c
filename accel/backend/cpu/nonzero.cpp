// nonzero on the CPU in two passes over the same fixed chunks: count per chunk, then each chunk
// writes its coordinates at its prefix-sum offset, so threads never share an output slot.
#include <algorithm>
#include <bit>
#include <cstring>
#include <type_traits>

#if defined(__AVX2__)
#include <immintrin.h>
#endif

#include "accel/backend/cpu/cpu_backend.h"
#include "accel/backend/cpu/thread_pool.h"

namespace accel::cpu {
namespace {

constexpr int64_t kParallelGrain = 65536;

struct Walk {
  const char* base;
  Shape shape;     // at least one dim (a 0-d array walks as shape (1,))
  Strides strides;  // bytes
};

// Calls row(ptr, pos, n) for the rows covering flat indices [begin, end) in C order: n elements
// from ptr along the last axis, starting at multi-index pos.
template <class F> void for_rows(const Walk& w, int64_t begin, int64_t end, F&& row) {
  if (begin >= end) return;
  const int nd = static_cast<int>(w.shape.size());
  std::vector<int64_t> pos(static_cast<size_t>(nd));  // x's own axes: any number of them
  int64_t rem = begin;
  for (int d = nd - 1; d >= 0; --d) {
    pos[d] = rem % w.shape[d];
    rem /= w.shape[d];
  }
  int64_t at = begin;
  while (at < end) {
    const char* p = w.base;
    for (int d = 0; d < nd; ++d) p += pos[d] * w.strides[d];
    const int64_t n = std::min(w.shape[nd - 1] - pos[nd - 1], end - at);
    row(p, pos.data(), n);
    at += n;
    pos[nd - 1] += n;
    for (int d = nd - 1; d > 0 && pos[d] >= w.shape[d]; --d) {
      pos[d] = 0;
      ++pos[d - 1];
    }
  }
}

template <class T> bool is_nonzero(const char* p) {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return v != T(0);
}

template <class T> bool is_aligned(const char* p) {
  return reinterpret_cast<uintptr_t>(p) % alignof(T) == 0;
}

// Nonzero elements among n at p, step bytes apart; a contiguous row counts with a typed loop
// the compiler vectorizes. One-byte elements count as bytes: GCC vectorizes no loop that
// loads a bool (a mask took 3 ms to count, 10x a pass over its memory), and a bool's byte
// other than 0 or 1 (memory NumPy wrote) still counts as true.
template <class T> int64_t count_row(const char* p, int64_t step, int64_t n) {
  using L = std::conditional_t<sizeof(T) == 1, unsigned char, T>;
  int64_t count = 0;
  if (step == static_cast<int64_t>(sizeof(T)) && is_aligned<T>(p)) {
    const L* v = reinterpret_cast<const L*>(p);
    for (int64_t i = 0; i < n; ++i) count += v[i] != L(0);
  } else {
    for (int64_t i = 0; i < n; ++i) count += is_nonzero<T>(p + i * step);
  }
  return count;
}

// The byte path of the write pass (masks are the common input of nonzero): 8 elements at a
// time, a byte of bits saying which are nonzero, and the positions of those bits from a table,
// written as 8 slots at once; the slot advances by their count. The loop carries one add per
// 8 elements where the element-wise loop carried one per element.
struct BitPositions {
  unsigned char at[256][8];  // the set bits of each byte value, in order, then zeros
};
constexpr BitPositions make_bit_positions() {
  BitPositions t{};
  for (int b = 0; b < 256; ++b) {
    int k = 0;
    for (int j = 0; j < 8; ++j)
      if (b >> j & 1) t.at[b][k++] = static_cast<unsigned char>(j);
  }
  return t;
}
constexpr BitPositions kBitPositions = make_bit_positions();

// Bit j set where byte j of the 8 at p is nonzero (little-endian: byte j is bits 8j..8j+7).
inline unsigned nonzero_byte_bits(const unsigned char* p) {
  uint64_t w;
  std::memcpy(&w, p, 8);
  constexpr uint64_t low7 = 0x7F7F7F7F7F7F7F7FULL;
  const uint64_t high = (((w & low7) + low7) | w) & ~low7;  // each nonzero byte's top bit
  // Multiplying gathers the bits at 8j + 7 into the top byte, bit j at 56 + j.
  return static_cast<unsigned>(((high >> 7) * 0x0102040810204080ULL) >> 56);
}

// out[0..8) = base + the 8 positions.
inline void store_positions(int64_t* out, int64_t base, const unsigned char* positions) {
#if defined(__AVX2__)
  const __m128i p = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(positions));
  const __m256i b = _mm256_set1_epi64x(base);
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(out), _mm256_add_epi64(b, _mm256_cvtepu8_epi64(p)));
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + 4),
                      _mm256_add_epi64(b, _mm256_cvtepu8_epi64(_mm_srli_si128(p, 4))));
#else
  for (int j = 0; j < 8; ++j) out[j] = base + positions[j];
#endif
}

// Writes base + i at slots k, k+1, ... for every nonzero byte i of the n at v; returns the next
// slot. Slots at k_end and past it belong to the next chunk: 8 are written at once only while
// 8 remain (the unused ones are written again by later groups), the rest one at a time.
int64_t write_byte_row(const unsigned char* v, int64_t n, int64_t base, int64_t* out, int64_t k,
                       int64_t k_end) {
  int64_t i = 0;
  if constexpr (std::endian::native == std::endian::little) {
    for (; i + 8 <= n && k + 8 <= k_end; i += 8) {
      const unsigned bits = nonzero_byte_bits(v + i);
      store_positions(out + k, base + i, kBitPositions.at[bits]);
      k += std::popcount(bits);
    }
  }
  for (; i < n && k < k_end; ++i) {
    out[k] = base + i;
    k += v[i] != 0;
  }
  return k;
}

}  // namespace

Array CpuBackend::nonzero(const Array& x) {
  const int nd = x.ndim();
  const int64_t total = x.size();
  Walk w{static_cast<const char*>(x.data()), x.shape(), x.strides()};
  for (auto& s : w.strides) s *= static_cast<int64_t>(x.itemsize());
  if (nd == 0) {
    w.shape = {1};
    w.strides = {0};
  }
  const int64_t chunks =
      total < 2 * kParallelGrain ? 1 : std::min<int64_t>(num_threads(), total / kParallelGrain);
  auto chunk_begin = [&](int64_t c) { return total * c / chunks; };
  std::vector<int64_t> counts(static_cast<size_t>(chunks) + 1, 0);
  return dispatch_dtype(x.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const int64_t step = w.strides.back();
    parallel_for(chunks, 1, [&](int64_t c0, int64_t c1) {
      for (int64_t c = c0; c < c1; ++c) {
        int64_t count = 0;
        for_rows(w, chunk_begin(c), chunk_begin(c + 1), [&](const char* p, const int64_t*, int64_t n) {
          count += count_row<T>(p, step, n);
        });
        counts[c + 1] = count;
      }
    });
    for (int64_t c = 0; c < chunks; ++c) counts[c + 1] += counts[c];
    const int64_t found = counts[chunks];
    Array out = Array::empty({nd, found}, Dtype::int64, Device::cpu());
    if (nd == 0) return out;  // a 0-d array has no coordinates to write, only a count
    int64_t* coords = out.data<int64_t>();
    parallel_for(chunks, 1, [&](int64_t c0, int64_t c1) {
      for (int64_t c = c0; c < c1; ++c) {
        int64_t k = counts[c];
        const int64_t k_end = counts[c + 1];
        for_rows(w, chunk_begin(c), chunk_begin(c + 1), [&](const char* p, const int64_t* pos, int64_t n) {
          // Branch-free: every element's coordinate is written at slot k, which only advances
          // past a nonzero one (the mask of a filter is unpredictable; a mispredicted branch
          // per element would dominate). Writes stay inside this chunk's slots: below, by
          // leaving out the row's trailing zeros; in the strided loop, by stopping at k_end.
          int64_t* last = coords + (nd - 1) * found;
          const int64_t base = pos[nd - 1];
          int64_t kk = k;
          if (sizeof(T) == 1 && step == 1) {
            kk = write_byte_row(reinterpret_cast<const unsigned char*>(p), n, base, last, kk, k_end);
          } else if (step == static_cast<int64_t>(sizeof(T)) && is_aligned<T>(p)) {
            const T* v = reinterpret_cast<const T*>(p);
            // The row's trailing zeros are left out, so every write below lands at a slot
            // before this chunk's end (the last one at the last nonzero element's own slot)
            // and the loop needs no bound on k: one compare and one store per element.
            int64_t m = n;
            while (m > 0 && v[m - 1] == T(0)) --m;
            for (int64_t i = 0; i < m; ++i) {
              last[kk] = base + i;
              kk += v[i] != T(0);
            }
          } else {
            for (int64_t i = 0; i < n && kk < k_end; ++i) {
              last[kk] = base + i;
              kk += is_nonzero<T>(p + i * step);
            }
          }
          for (int d = 0; d + 1 < nd; ++d) std::fill(coords + d * found + k, coords + d * found + kk, pos[d]);
          k = kk;
        });
      }
    });
    return out;
  });
}

}  // namespace accel::cpu
