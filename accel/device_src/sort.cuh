// CUDA sort and searchsorted (accel/backend/sorting.h has the order they compute), over the
// SortParams / SearchParams layouts of sort_params.h; compiled with reduce.cuh (offset_of,
// divmod) and sort_key.h (the keys, shared with the CPU's radix sort) in the same NVRTC source.
//
// Every element gets an order-preserving unsigned key (sort_key below), so NumPy's order with
// NaNs last becomes plain unsigned order and descending is the complemented key. A stable LSD
// radix sort then orders the elements' logical positions (perm) by the key, kSortRadixBits bits
// per pass: sort_count counts each tile's digits, sort_scan_counts turns the digit-major counts
// into global offsets, sort_scatter moves each tile's (key, position) pairs there in tile order.
// Multi-word keys (complex) are sorted word by word, least significant first, re-reading the
// input through the current perm (sort_keys). Many rows are sorted at once: a last word, the
// row (sort_segment_keys), brings each row's elements together in their sorted order, because
// every pass is stable. sort_write then gathers values and/or the positions along the axis.
#pragma once

namespace accel::kernels {

template <class Bits>
struct SortComplexPair {
  Bits re, im;
};
// What sort_write moves per element: its bits, or a complex's two components.
template <class Bits, int Kind>
struct SortElement {
  using type = Bits;
};
template <class Bits>
struct SortElement<Bits, kSortComplex> {
  using type = SortComplexPair<Bits>;
};

// Word `word` of the ascending key of the element at offset `off` of `p` (elements of Bits; a
// complex element is two). Complex follows the CPU's order, class = 2 * isnan(re) + isnan(im)
// first, then the parts that are numbers: word 2 is the class, word 1 the real part's key (0,
// all equal, when it is NaN), word 0 the imaginary part's (0 when it is NaN).
template <class Bits, int Kind>
inline uint64_t sort_key(const Bits* p, int64_t off, int word) {
  constexpr int W = int(sizeof(Bits) * 8);
  if constexpr (Kind == kSortComplex) {
    const uint64_t re = float_key(p[2 * off]), im = float_key(p[2 * off + 1]);
    const bool re_nan = re == low_mask(W), im_nan = im == low_mask(W);
    if (word == 2) return 2 * uint64_t(re_nan) + uint64_t(im_nan);
    if (word == 1) return re_nan ? 0 : re;
    return im_nan ? 0 : im;
  } else if constexpr (Kind == kSortFloat) {
    return float_key(p[off]);
  } else if constexpr (Kind == kSortBfloat16) {
    return float_key<Bits, 8>(p[off]);
  } else if constexpr (Kind == kSortSigned) {
    return (uint64_t(p[off]) ^ (uint64_t(1) << (W - 1))) & low_mask(W);
  } else if constexpr (Kind == kSortBool) {
    return p[off] != 0;
  } else {
    return uint64_t(p[off]);
  }
}

// a < b in the sort's order (all key words, most significant first).
template <class Bits, int Kind>
inline bool sort_less(const Bits* a, int64_t ia, const Bits* b, int64_t ib) {
  for (int w = sort_key_words(Kind) - 1; w >= 0; --w) {
    const uint64_t ka = sort_key<Bits, Kind>(a, ia, w), kb = sort_key<Bits, Kind>(b, ib, w);
    if (ka != kb) return ka < kb;
  }
  return false;
}

inline int64_t sort_first() { return int64_t(blockIdx.x) * kThreads + threadIdx.x; }
inline int64_t sort_step() { return int64_t(gridDim.x) * kThreads; }

// Writes key word p.word of every element, in the current order perm_in (the identity, which
// it then writes to perm_out, when perm_in is null).
template <class Bits, int Kind>
__global__ void __launch_bounds__(kThreads) sort_keys(const __grid_constant__ SortParams p) {
  const auto* in = static_cast<const Bits*>(p.in);
  const uint64_t flip =
      p.descending ? low_mask(sort_word_bits(Kind, int(sizeof(Bits) * 8), p.word)) : 0;
  for (int64_t i = sort_first(); i < p.total; i += sort_step()) {
    int64_t q = i;
    if (p.perm_in)
      q = p.perm_in[i];
    else
      p.perm_out[i] = i;
    int64_t row;
    const int64_t j = divmod(q, p.len, row);
    const int64_t off = offset_of(row, p.ndim, p.size, p.in_stride) + j * p.in_step;
    p.keys_out[i] = sort_key<Bits, Kind>(in, off, p.word) ^ flip;
  }
}

// The last, most significant word: the row (rows keep ascending order in either direction).
__global__ void __launch_bounds__(kThreads)
    sort_segment_keys(const __grid_constant__ SortParams p) {
  for (int64_t i = sort_first(); i < p.total; i += sort_step())
    p.keys_out[i] = p.perm_in[i] / p.len;
}

// The elements thread t of a block ranks in `tile`: kSortItems consecutive ones.
inline void sort_thread_range(const SortParams& p, int64_t tile, int t, int64_t& begin,
                              int64_t& end) {
  begin = tile * kSortTile + int64_t(t) * kSortItems;
  end = begin + kSortItems < p.total ? begin + kSortItems : p.total;
}

inline int sort_digit(const SortParams& p, int64_t i) {
  return int((p.keys_in[i] >> p.shift) & (kSortDigits - 1));
}

// The thread's own digit counts, into column t of counts.
inline void count_own_digits(const SortParams& p, int64_t tile, int t,
                             uint32_t (*counts)[kThreads]) {
  uint32_t mine[kSortDigits];
  for (int d = 0; d < kSortDigits; ++d) mine[d] = 0;
  int64_t begin, end;
  sort_thread_range(p, tile, t, begin, end);
  for (int64_t i = begin; i < end; ++i) ++mine[sort_digit(p, i)];
  for (int d = 0; d < kSortDigits; ++d) counts[d][t] = mine[d];
}

// counts[d * tiles + tile] = elements of the tile whose digit is d.
__global__ void __launch_bounds__(kThreads) sort_count(const __grid_constant__ SortParams p) {
  using Counts = uint32_t[kSortDigits][kThreads];
  ACCEL_SHARED(Counts, counts);
  const int t = int(threadIdx.x);
  for (int64_t tile = blockIdx.x; tile < p.tiles; tile += gridDim.x) {
    count_own_digits(p, tile, t, counts);
    __syncthreads();
    if (t < kSortDigits) {
      int64_t sum = 0;
      for (int u = 0; u < kThreads; ++u) sum += counts[t][u];
      p.counts[t * p.tiles + tile] = sum;
    }
    __syncthreads();  // counts is rewritten for the next tile
  }
}

// The exclusive prefix sums of the n values at `v` (n <= kThreads * per-thread chunk) by one
// block: each thread sums a contiguous chunk, thread 0 scans the chunk totals, each thread
// rewrites its chunk. `totals` is kThreads entries of shared memory.
template <class T>
inline void block_exclusive_scan(T* v, int64_t n, T* totals) {
  const int t = int(threadIdx.x);
  const int64_t chunk = (n + kThreads - 1) / kThreads;
  const int64_t begin = t * chunk < n ? t * chunk : n;
  const int64_t end = begin + chunk < n ? begin + chunk : n;
  T sum = 0;
  for (int64_t i = begin; i < end; ++i) sum += v[i];
  totals[t] = sum;
  __syncthreads();
  if (t == 0) {
    T running = 0;
    for (int u = 0; u < kThreads; ++u) {
      const T x = totals[u];
      totals[u] = running;
      running += x;
    }
  }
  __syncthreads();
  T running = totals[t];
  for (int64_t i = begin; i < end; ++i) {
    const T x = v[i];
    v[i] = running;
    running += x;
  }
  __syncthreads();
}

// One block (grid 1): counts becomes where each (digit, tile) starts in the pass's output.
__global__ void __launch_bounds__(kThreads) sort_scan_counts(const __grid_constant__ SortParams p) {
  using Totals = int64_t[kThreads];
  ACCEL_SHARED(Totals, totals);
  block_exclusive_scan<int64_t>(p.counts, int64_t(kSortDigits) * p.tiles, totals);
}

struct SortScatterShared {
  uint32_t counts[kSortDigits][kThreads];
  uint32_t totals[kThreads];
};

// Moves each tile's (key, position) pairs to their places: after the digit-major scan of the
// per-thread counts, counts[d][t] is how many elements of the tile go before thread t's first
// element of digit d; less counts[d][0] it is the rank among the tile's elements of digit d.
// Elements keep their order within a digit (threads in order, each thread's in order): stable.
__global__ void __launch_bounds__(kThreads) sort_scatter(const __grid_constant__ SortParams p) {
  ACCEL_SHARED(SortScatterShared, s);
  const int t = int(threadIdx.x);
  for (int64_t tile = blockIdx.x; tile < p.tiles; tile += gridDim.x) {
    count_own_digits(p, tile, t, s.counts);
    __syncthreads();
    block_exclusive_scan<uint32_t>(&s.counts[0][0], int64_t(kSortDigits) * kThreads, s.totals);
    int64_t next[kSortDigits];
    for (int d = 0; d < kSortDigits; ++d)
      next[d] = p.counts[d * p.tiles + tile] + (s.counts[d][t] - s.counts[d][0]);
    int64_t begin, end;
    sort_thread_range(p, tile, t, begin, end);
    for (int64_t i = begin; i < end; ++i) {
      const int64_t to = next[sort_digit(p, i)]++;
      p.keys_out[to] = p.keys_in[i];
      p.perm_out[to] = p.perm_in[i];
    }
    __syncthreads();  // s is rewritten for the next tile
  }
}

// values / indices at sorted position i of its row: the element at perm_in[i] and its position
// along the axis.
template <class Bits, int Kind>
__global__ void __launch_bounds__(kThreads) sort_write(const __grid_constant__ SortParams p) {
  using E = typename SortElement<Bits, Kind>::type;
  const auto* in = static_cast<const E*>(p.in);
  auto* values = static_cast<E*>(p.values);
  for (int64_t i = sort_first(); i < p.total; i += sort_step()) {
    int64_t row;
    const int64_t k = divmod(i, p.len, row);
    const int64_t j = p.perm_in[i] - row * p.len;
    if (values)
      values[offset_of(row, p.ndim, p.size, p.values_stride) + k * p.values_step] =
          in[offset_of(row, p.ndim, p.size, p.in_stride) + j * p.in_step];
    if (p.indices)
      p.indices[offset_of(row, p.ndim, p.size, p.indices_stride) + k * p.indices_step] = j;
  }
}

// A binary search per value, in the sort's ascending order.
template <class Bits, int Kind>
__global__ void __launch_bounds__(kThreads) sort_search(const __grid_constant__ SearchParams p) {
  const auto* a = static_cast<const Bits*>(p.sorted);
  const auto* v = static_cast<const Bits*>(p.values);
  for (int64_t k = sort_first(); k < p.count; k += sort_step()) {
    const int64_t x = offset_of(k, p.ndim, p.size, p.values_stride);
    int64_t lo = 0, hi = p.n;
    while (lo < hi) {
      const int64_t mid = lo + (hi - lo) / 2, m = mid * p.sorted_step;
      if (p.right ? !sort_less<Bits, Kind>(v, x, a, m) : sort_less<Bits, Kind>(a, m, v, x))
        lo = mid + 1;
      else
        hi = mid;
    }
    p.out[offset_of(k, p.ndim, p.size, p.out_stride)] = lo;
  }
}

}  // namespace accel::kernels
