// The launch parameters of the CUDA reduction, scan and nonzero kernels (reduce.cuh, scan.cuh,
// nonzero.cuh), passed by value as one struct. Compiled by the host compiler (the planner in
// backend/cuda fills them) and embedded as text for NVRTC, so both sides share one layout; the
// static_asserts pin it (x86-64 and NVPTX64 lay out pointers and int64 alike).
#pragma once
#ifndef __CUDACC_RTC__
#include <cstdint>
#endif

namespace accel::kernels {

// Dimensions per side after size-1 dimensions are dropped and contiguous ones merged; a view
// needs more only with more than this many non-mergeable axes.
inline constexpr int kMaxDims = 24;
// Threads per block of every kernel here; the shared-memory trees assume this size.
inline constexpr int kThreads = 256;
// Scans work in tiles of kThreads x kScanItems elements.
inline constexpr int kScanItems = 8;
inline constexpr int kScanTile = kThreads * kScanItems;
// The largest reduction state (argmin/argmax of complex128: 16 bytes + an int64 index).
inline constexpr int kMaxStateBytes = 32;

// out[kept] = reduce(in[kept, r] for r in [0, red_count)), or, with splits > 1, partial states
// partial[k * splits + s] over the chunks [s * chunk, (s + 1) * chunk) (k: the output's index
// in C order of the kept dims). Strides in elements; in/out point at element 0.
struct ReduceParams {
  const void* in;
  void* out;
  void* partial;
  int64_t kept_count, red_count;
  int64_t splits, chunk;
  int32_t kept_ndim, red_ndim;
  int32_t group;     // reduce_rows: threads per output (32, or the whole block)
  int32_t in_dtype;  // the input's Dtype, read by ops that take any input dtype (AnyDtype)
  int64_t kept_size[kMaxDims], kept_in[kMaxDims], kept_out[kMaxDims];
  int64_t red_size[kMaxDims], red_in[kMaxDims];
};
static_assert(sizeof(ReduceParams) == 8 * 7 + 16 + 8 * 5 * kMaxDims, "ReduceParams layout");

// Inclusive scans of `len` elements along one axis, for each of `rows` rows (the other dims).
// A row is cut into `tiles` tiles of `chunk` elements; when there are several, `carries` holds
// the inclusive running totals of each row's tiles (rows x tiles states).
struct ScanParams {
  const void* in;
  void* out;
  void* carries;
  int64_t len, in_step, out_step;
  int64_t rows, tiles, chunk;
  int32_t ndim;
  int32_t in_dtype;  // as ReduceParams::in_dtype
  int64_t size[kMaxDims], in_stride[kMaxDims], out_stride[kMaxDims];
};
static_assert(sizeof(ScanParams) == 8 * 9 + 8 + 8 * 3 * kMaxDims, "ScanParams layout");

// nonzero over `total` elements in C order: block b reads [b * chunk, (b + 1) * chunk), counts
// into counts[b] (first pass), then writes coordinates from offsets[b] on (second pass) into
// out, an (ndim, found) int64 array.
struct NonzeroParams {
  const void* in;
  int64_t* out;
  int64_t* counts;   // per block: nonzero counts (pass 1), then their exclusive prefix sums
  int64_t total, chunk, found;
  int32_t ndim;
  int32_t pad_;
  int64_t size[kMaxDims], stride[kMaxDims];
};
static_assert(sizeof(NonzeroParams) == 8 * 6 + 8 + 8 * 2 * kMaxDims, "NonzeroParams layout");

// NumPy's ufunc.at (fold_at.cuh): dst[sorted[k]] = op(dst[sorted[k]], values[order[k] * step])
// for the n positions `sorted` (ascending, ties in NumPy's order: a stable sort), order[k] being
// where position k was in the caller's list. dst is contiguous, of the op's dtype, as values,
// whose step is 1, or 0 for one value for every position.
struct FoldAtParams {
  void* dst;
  const void* values;
  const int64_t* sorted;
  const int64_t* order;
  int64_t n;
  int64_t value_step;
};
static_assert(sizeof(FoldAtParams) == 8 * 6, "FoldAtParams layout");

// NumPy's ufunc.reduceat (fold_at.cuh): src is contiguous (outer, n, inner) and out contiguous
// (outer, segments, inner), both of the op's dtype; segment k of every (outer, inner) lane folds
// src rows starts[k] .. stop - 1 in order, stop being starts[k + 1] (n for the last) where that
// is past starts[k], else starts[k] + 1 (the segment is its first row alone). rest_first (add of
// floats, as NumPy's reduceat adds): the segment's later rows are summed first, then its first
// row is added to that sum.
struct FoldSegmentsParams {
  void* out;
  const void* src;
  const int64_t* starts;
  int64_t outer, n, inner, segments, rest_first;
};
static_assert(sizeof(FoldSegmentsParams) == 8 * 8, "FoldSegmentsParams layout");

}  // namespace accel::kernels
