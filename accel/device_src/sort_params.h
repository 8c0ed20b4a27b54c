// The launch parameters of the CUDA sort and searchsorted kernels (sort.cuh), one struct each,
// passed by value. Compiled by the host compiler (backend/cuda/sort_kernels.cpp fills them) and
// embedded as text for NVRTC after reduce_params.h, whose kMaxDims and kThreads they use.
#pragma once
#ifndef __CUDACC_RTC__
#include <cstdint>
#endif

namespace accel::kernels {

// A radix pass sorts by kSortRadixBits bits of the key: 16 digits, so that a block's per-thread
// digit counts (kSortDigits x kThreads) fit in 16 KiB of shared memory and the scatter stays
// stable without warp intrinsics. A block ranks a tile of kSortItems consecutive elements per
// thread.
inline constexpr int kSortRadixBits = 4;
inline constexpr int kSortDigits = 1 << kSortRadixBits;
inline constexpr int kSortItems = 16;
inline constexpr int kSortTile = kThreads * kSortItems;

// The element kinds the key map knows (sort.cuh's sort_key); each kernel is instantiated for
// the element's bits (a component's for complex) and its kind.
inline constexpr int kSortBool = 0, kSortUnsigned = 1, kSortSigned = 2, kSortFloat = 3,
                     kSortComplex = 4, kSortBfloat16 = 5;

// A key is sorted one 64-bit word at a time, least significant first. Complex has three: the
// imaginary part's key, the real part's, then the NaN class (sort.cuh's SortKey says why).
constexpr int sort_key_words(int kind) { return kind == kSortComplex ? 3 : 1; }
// The bits of word `word` that can differ, for an element (or complex component) of `bits` bits:
// the radix passes cover only these.
constexpr int sort_word_bits(int kind, int bits, int word) {
  return kind == kSortBool ? 1 : (kind == kSortComplex && word == 2 ? 2 : bits);
}

// A sort of `total` = rows x len elements, tracked by their logical position q = row * len + j
// (j along the sorted axis). The rows are the other axes of `in` (ndim of them, C order);
// element offsets are in elements. keys/perm are double buffers the host swaps between passes;
// counts holds kSortDigits x tiles digit counts, digit-major.
struct SortParams {
  const void* in;
  void* values;      // null: not written
  int64_t* indices;  // null: not written
  const uint64_t* keys_in;
  uint64_t* keys_out;
  const int64_t* perm_in;  // sort_keys: null for the first key word (the identity)
  int64_t* perm_out;
  int64_t* counts;
  int64_t total, len, tiles;
  int64_t in_step, values_step, indices_step;  // along the sorted axis
  int32_t ndim;
  int32_t word;        // sort_keys: which key word (0: least significant)
  int32_t shift;       // count / scatter: the digit's lowest bit
  int32_t descending;  // sort_keys: complement the key
  int64_t size[kMaxDims], in_stride[kMaxDims], values_stride[kMaxDims], indices_stride[kMaxDims];
};
static_assert(sizeof(SortParams) == 8 * 14 + 16 + 8 * 4 * kMaxDims, "SortParams layout");

// searchsorted: out[k] = where values[k] goes in the 1-d `sorted` (n elements, step
// sorted_step), for the `count` values in C order over size[ndim].
struct SearchParams {
  const void* sorted;
  const void* values;
  int64_t* out;
  int64_t n, sorted_step, count;
  int32_t ndim;
  int32_t right;
  int64_t size[kMaxDims], values_stride[kMaxDims], out_stride[kMaxDims];
};
static_assert(sizeof(SearchParams) == 8 * 6 + 8 + 8 * 3 * kMaxDims, "SearchParams layout");

}  // namespace accel::kernels
