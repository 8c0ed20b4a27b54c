// Stable LSD radix sort for the CPU's sort and argsort of integer, bool and real rows
// (sort.cpp). Comparison sorts cost n log n comparisons with unpredictable branches; a radix
// sort makes one pass per byte of the key (fewer when a byte is the same in every key, as in
// small-range integers), each a sequential read and a scatter, and splits every pass across the
// pool. Keys are first mapped to unsigned integers whose order is the sort order (RadixKey).
//
// A long sort is bound by its passes over memory, so the sorter makes as few as it can: the
// keys are encoded and every pass's digits counted in one read of the row; the first pass takes
// the positions as its indices (none stored up front); the last pass hands each key to the
// caller's store, which decodes it into the result (no copy back, no decode pass). For 1e7
// float32 keys that is four reads and writes of 40 MB fewer. Tried and slower on a 2-core VM:
// counting the next pass's digits in each scatter (no re-read per pass; the scatter's extra
// work cost more than the read), and gathering each digit's keys into a cache line before
// writing it (2x slower: the scatter is bound by its instructions there, not by memory).
#pragma once
#include <algorithm>
#include <array>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

#include "accel/core/array.h"
#include "accel/core/dtype.h"
#include "accel/core/half.h"
#include "accel/backend/cpu/thread_pool.h"
#include "accel/device_src/sort_key.h"

namespace accel::cpu {

// T's sort order as an unsigned integer: NumPy's order (NaN after every number), -0.0 equal to
// 0.0 (they keep their input order, as in the stable comparison sort), and descending as the
// complement (NaNs first, ties still in input order). `exact` is false for the values the key
// cannot give back (NaN payloads, -0.0): rows holding one sort their positions and gather.
template <class T, class Enable = void>
struct RadixKey;

template <class T>
struct RadixKey<T, std::enable_if_t<std::is_integral_v<T>>> {
  using U = std::make_unsigned_t<std::conditional_t<std::is_same_v<T, bool>, uint8_t, T>>;
  static constexpr U kFlip = std::is_signed_v<T> ? U(U(1) << (8 * sizeof(U) - 1)) : U(0);
  static U encode(T x, bool descending, bool* exact) {
    (void)exact;
    const U k = U(U(x) ^ kFlip);
    return descending ? U(~k) : k;
  }
  static T decode(U k, bool descending) { return T(U((descending ? U(~k) : k) ^ kFlip)); }
};

template <class T>
struct RadixKey<T, std::enable_if_t<std::is_floating_point_v<T> || is_narrow_float_v<T>>> {
  using U = std::conditional_t<sizeof(T) == 2, uint16_t, std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>>;
  static constexpr int kExponent = std::is_same_v<T, bfloat16_t> ? 8 : kernels::float_exponent_bits<U>();
  static constexpr U kSign = U(U(1) << (8 * sizeof(U) - 1));
  static U encode(T x, bool descending, bool* exact) {
    U b;
    std::memcpy(&b, &x, sizeof b);
    if (kernels::float_key_merges<U, kExponent>(b)) *exact = false;
    const U k = U(kernels::float_key<U, kExponent>(b));  // the CUDA sort's key (device_src/sort_key.h)
    return descending ? U(~k) : k;
  }
  static T decode(U k, bool descending) {
    if (descending) k = U(~k);
    // Branch-free (the last radix pass decodes keys in random order of sign): a key with the
    // sign bit set was a positive (clear the bit), one without it a complemented negative.
    const U negative = U(U(0) - U((k >> (8 * sizeof(U) - 1)) ^ 1));
    const U b = U(k ^ (negative | kSign));
    T x;
    std::memcpy(&x, &b, sizeof b);
    return x;
  }
};

template <class T, class = void>
struct has_radix_key : std::false_type {};
template <class T>
struct has_radix_key<T, std::void_t<typename RadixKey<T>::U>> : std::true_type {};

// n elements of scratch memory from the CPU allocator's cache, alive as long as `holder`: big
// blocks there start on huge pages and are reused between calls, where fresh memory costs a
// page fault per 4 KB on first touch (20 ms for the 40 MB of 1e7 keys on this VM, most of a
// sort's time beside the passes).
template <class E> E* scratch(int64_t n, Array& holder) {
  holder = Array::empty({n * static_cast<int64_t>(sizeof(E))}, Dtype::uint8, Device::cpu());
  return static_cast<E*>(holder.data());
}

// The split of [0, n) into `count` nearly equal parts, one per thread.
class RadixParts {
 public:
  RadixParts(int64_t n, int count) : n_(n), count_(count) {}
  int count() const { return count_; }
  int64_t begin(int t) const { return n_ * t / count_; }

 private:
  int64_t n_;
  int count_;
};

// Sorts n keys of type U stably: load() encodes them, sort() runs the passes and hands every
// key, in sorted order, to a store.
template <class U>
class RadixSorter {
 public:
  using Histogram = std::array<int64_t, 256>;
  static constexpr int kPasses = int(sizeof(U));
  // Below this many keys a pass runs on one thread: handing off costs more than it saves.
  static constexpr int64_t kParallelKeys = int64_t(1) << 16;

  RadixSorter(int64_t n, bool parallel)
      : n_(n), parts_(n, parallel && n >= kParallelKeys ? std::max(1, num_threads()) : 1) {}

  // Key i is load(i, &exact) (RadixKey::encode, which clears `exact` for a key that does not
  // give its value back). Returns whether every key is exact.
  template <class Load> bool load(Load&& load) {
    keys_ = scratch<U>(n_, key_holder_);
    counts_.assign(size_t(parts_.count()), {});
    std::atomic<bool> exact{true};
    for_each_part([&](int t) {
      auto& h = counts_[size_t(t)];
      for (Histogram& row : h) row.fill(0);
      bool part_exact = true;
      for (int64_t i = parts_.begin(t), e = parts_.begin(t + 1); i < e; ++i) {
        const U k = load(i, &part_exact);
        keys_[i] = k;
        for (int p = 0; p < kPasses; ++p) ++h[size_t(p)][(k >> (8 * p)) & 0xff];
      }
      if (!part_exact) exact.store(false, std::memory_order_relaxed);
    });
    return exact.load();
  }

  // Runs the passes; the last one calls store(j, key, i) for the j-th key in sorted order,
  // which was key i of the load. `positions`: whether the store reads i (else it is not kept).
  template <class Store> void sort(bool positions, Store&& store) {
    std::array<Histogram, kPasses> total{};
    for (const auto& h : counts_)
      for (int p = 0; p < kPasses; ++p)
        for (int d = 0; d < 256; ++d) total[size_t(p)][size_t(d)] += h[size_t(p)][size_t(d)];
    // A pass whose digit is the same in every key (the high bytes of small integers) is skipped.
    std::vector<int> passes;
    for (int p = 0; p < kPasses; ++p)
      if (std::find(total[size_t(p)].begin(), total[size_t(p)].end(), n_) == total[size_t(p)].end())
        passes.push_back(p);
    if (passes.empty()) {  // every key equal: the order stays
      for_each_part([&](int t) {
        for (int64_t i = parts_.begin(t), e = parts_.begin(t + 1); i < e; ++i) store(i, keys_[i], i);
      });
      return;
    }
    const int m = int(passes.size());
    Array other_keys, position_holder[2];
    U* src = keys_;
    U* dst = m > 1 ? scratch<U>(n_, other_keys) : nullptr;
    // Pass q writes positions to pos[q % 2] and reads them from the other (the first pass's
    // positions are its indices: none are read); the last pass writes none.
    int64_t* pos[2] = {positions && m > 1 ? scratch<int64_t>(n_, position_holder[0]) : nullptr,
                       positions && m > 2 ? scratch<int64_t>(n_, position_holder[1]) : nullptr};
    // Each part's digit counts for the pass about to run, then where each (digit, part) starts.
    std::vector<Histogram> next(size_t(parts_.count()));
    for (int t = 0; t < parts_.count(); ++t) next[size_t(t)] = counts_[size_t(t)][size_t(passes[0])];
    for (int q = 0; q < m; ++q) {
      const int shift = 8 * passes[size_t(q)];
      const bool last = q == m - 1;
      // The parts' counts of this digit: from the load for the first pass (or a single part:
      // the totals); later ones read their part of the keys again (a scatter mixes the parts).
      if (q > 0 && parts_.count() > 1) {
        for_each_part([&](int t) {
          Histogram& h = next[size_t(t)];
          h.fill(0);
          for (int64_t i = parts_.begin(t), e = parts_.begin(t + 1); i < e; ++i) ++h[(src[i] >> shift) & 0xff];
        });
      } else if (q > 0) {
        next[0] = total[size_t(passes[size_t(q)])];
      }
      // Digits in order, parts in order within a digit: equal digits keep their order.
      int64_t at = 0;
      for (int d = 0; d < 256; ++d)
        for (auto& h : next) {
          const int64_t count = h[size_t(d)];
          h[size_t(d)] = at;
          at += count;
        }
      const int64_t* src_pos = q == 0 ? nullptr : pos[(q + 1) % 2];
      int64_t* dst_pos = pos[q % 2];
      for_each_part([&](int t) {
        const int64_t b = parts_.begin(t), e = parts_.begin(t + 1);
        Histogram& to = next[size_t(t)];
        if (last) {
          if (positions)
            scatter_to_store<true>(src, src_pos, b, e, shift, to, store);
          else
            scatter_to_store<false>(src, src_pos, b, e, shift, to, store);
          return;
        }
        if (positions)
          scatter<true>(src, src_pos, dst, dst_pos, b, e, shift, to);
        else
          scatter<false>(src, src_pos, dst, dst_pos, b, e, shift, to);
      });
      if (last) break;
      std::swap(src, dst);  // the next pass writes over the keys just read
    }
  }

 private:
  template <class F> void for_each_part(F&& fn) {
    if (parts_.count() == 1) return fn(0);
    parallel_for(parts_.count(), 1, [&](int64_t t0, int64_t t1) {
      for (int64_t t = t0; t < t1; ++t) fn(int(t));
    });
  }

  template <bool kPositions>
  static void scatter(const U* src, const int64_t* src_pos, U* dst, int64_t* dst_pos, int64_t b, int64_t e,
                      int shift, Histogram& to) {
    for (int64_t i = b; i < e; ++i) {
      const U k = src[i];
      const int64_t j = to[(k >> shift) & 0xff]++;
      dst[j] = k;
      if constexpr (kPositions) dst_pos[j] = src_pos ? src_pos[i] : i;
    }
  }

  template <bool kPositions, class Store>
  static void scatter_to_store(const U* src, const int64_t* src_pos, int64_t b, int64_t e, int shift,
                               Histogram& to, Store& store) {
    for (int64_t i = b; i < e; ++i) {
      const U k = src[i];
      store(to[(k >> shift) & 0xff]++, k, kPositions && src_pos ? src_pos[i] : i);
    }
  }

  int64_t n_;
  RadixParts parts_;
  Array key_holder_;
  U* keys_ = nullptr;
  std::vector<std::array<Histogram, kPasses>> counts_;  // per part: every pass's digit counts
};

}  // namespace accel::cpu
