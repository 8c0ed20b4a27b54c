// CUDA inclusive scans (cumulative sum / product) with the ops of reduce.cuh, over a ScanParams
// layout (reduce_params.h). Short rows, or an axis slower than the others: a thread per row
// (scan_serial). Otherwise a block scans tiles of kScanTile elements: a row's tiles in turn
// (scan_block_rows), or, for long rows, in chunks all at once (scan_tiles). Rows cut into
// chunks (long ones, or few rows of scan_serial) first reduce each chunk to its total
// (reduce.cuh's kernels with splits) and scan those totals; each chunk then starts from the
// total before it.
#pragma once

namespace accel::kernels {

// Row `row`'s input and output offsets.
__noinline__ Offsets row_offsets(const ScanParams& p, int64_t row) {
  Offsets o{0, 0};
  for (int d = p.ndim - 1; d >= 0; --d) {
    const int64_t i = divmod(row, p.size[d], row);
    o.in += i * p.in_stride[d];
    o.out += i * p.out_stride[d];
  }
  return o;
}

// A thread per (row, tile), scanning the tile serially after the carry of the tiles before it
// (neighbouring threads take neighbouring rows: coalesced when the axis is not the fastest).
template <class Op>
__global__ void __launch_bounds__(kThreads) scan_serial(const __grid_constant__ ScanParams p) {
  using State = typename Op::State;
  auto* out = reinterpret_cast<typename Op::Out*>(p.out);
  const auto* carries = reinterpret_cast<const State*>(p.carries);
  for (int64_t t = blockIdx.y; t < p.tiles; t += gridDim.y) {
    const int64_t begin = t * p.chunk;
    const int64_t end = begin + p.chunk < p.len ? begin + p.chunk : p.len;
    for (int64_t row = blockIdx.x * int64_t(kThreads) + threadIdx.x; row < p.rows;
         row += int64_t(gridDim.x) * kThreads) {
      const Offsets o = row_offsets(p, row);
      State acc = t > 0 ? carries[row * p.tiles + t - 1] : Op::identity();
      for (int64_t i = begin; i < end; ++i) {
        // The row's first element as it is (NumPy's accumulate copies it; combined with the
        // identity, inf+0j would become inf+nanj and -0.0 would become 0.0).
        const State x = read<Op>(p.in, o.in + i * p.in_step, i, p.in_dtype);
        acc = i == 0 ? x : Op::combine(acc, x);
        out[o.out + i * p.out_step] = Op::finish(acc);
      }
    }
  }
}

// The whole block scans the n <= kScanTile elements of one tile, starting after `carry` (the
// total of everything before the tile; none for a row's first tile, whose first element is
// then copied as NumPy does); returns the total through the tile. Every thread of the
// block must call it. Loads and stores are coalesced (element j by thread j % kThreads); each
// thread scans kScanItems neighbours in shared memory, then the threads' totals are scanned.
// The tile's inputs are at element offsets in_off + i * p.in_step from p.in.
template <class Op>
typename Op::State scan_tile(const ScanParams& p, int64_t in_off, typename Op::Out* out, int64_t n,
                             bool has_carry, typename Op::State carry, typename Op::State* tile,
                             typename Op::State* totals) {
  using State = typename Op::State;
  const int t = static_cast<int>(threadIdx.x);
  for (int j = 0; j < kScanItems; ++j) {
    const int idx = j * kThreads + t;
    tile[idx] =
        idx < n ? read<Op>(p.in, in_off + idx * p.in_step, idx, p.in_dtype) : Op::identity();
  }
  __syncthreads();
  State* mine = tile + t * kScanItems;
  State acc = mine[0];
  for (int i = 1; i < kScanItems; ++i) mine[i] = acc = Op::combine(acc, mine[i]);
  totals[t] = acc;
  __syncthreads();
  for (int d = 1; d < kThreads; d *= 2) {  // Hillis-Steele over the threads' totals
    const State v = t >= d ? Op::combine(totals[t - d], totals[t]) : totals[t];
    __syncthreads();
    totals[t] = v;
    __syncthreads();
  }
  if (t > 0 || has_carry) {
    const State before =
        t == 0 ? carry : (has_carry ? Op::combine(carry, totals[t - 1]) : totals[t - 1]);
    for (int i = 0; i < kScanItems; ++i) mine[i] = Op::combine(before, mine[i]);
  }
  const State through =
      has_carry ? Op::combine(carry, totals[kThreads - 1]) : totals[kThreads - 1];
  __syncthreads();
  for (int j = 0; j < kScanItems; ++j) {
    const int idx = j * kThreads + t;
    if (idx < n) out[idx * p.out_step] = Op::finish(tile[idx]);
  }
  __syncthreads();  // the tile and the totals are reused by the caller's next tile
  return through;
}

template <class Op> struct ScanShared {
  SharedArray<typename Op::State, kScanTile> tile;
  SharedArray<typename Op::State, kThreads> totals;
};

// A block per row, its tiles in order.
template <class Op>
__global__ void __launch_bounds__(kThreads) scan_block_rows(const __grid_constant__ ScanParams p) {
  ACCEL_SHARED(ScanShared<Op>, shared);
  auto* out = reinterpret_cast<typename Op::Out*>(p.out);
  for (int64_t row = blockIdx.x; row < p.rows; row += gridDim.x) {
    const Offsets o = row_offsets(p, row);
    typename Op::State carry = Op::identity();
    for (int64_t start = 0; start < p.len; start += kScanTile) {
      const int64_t n = p.len - start < kScanTile ? p.len - start : kScanTile;
      carry = scan_tile<Op>(p, o.in + start * p.in_step, out + o.out + start * p.out_step, n,
                            start > 0, carry, shared.tile.get(), shared.totals.get());
    }
  }
}

// Every chunk (p.chunk elements, whole tiles) of every row at once; chunk t of a row starts
// after carries[row * tiles + t - 1], the inclusive running total of the row's chunks before it,
// and scans its tiles in turn.
template <class Op>
__global__ void __launch_bounds__(kThreads) scan_tiles(const __grid_constant__ ScanParams p) {
  using State = typename Op::State;
  ACCEL_SHARED(ScanShared<Op>, shared);
  auto* out = reinterpret_cast<typename Op::Out*>(p.out);
  const auto* carries = reinterpret_cast<const State*>(p.carries);
  for (int64_t row = blockIdx.y; row < p.rows; row += gridDim.y) {
    const Offsets o = row_offsets(p, row);
    for (int64_t t = blockIdx.x; t < p.tiles; t += gridDim.x) {
      const int64_t end = (t + 1) * p.chunk < p.len ? (t + 1) * p.chunk : p.len;
      State carry = t > 0 ? carries[row * p.tiles + t - 1] : Op::identity();
      for (int64_t start = t * p.chunk; start < end; start += kScanTile) {
        const int64_t n = end - start < kScanTile ? end - start : kScanTile;
        carry = scan_tile<Op>(p, o.in + start * p.in_step, out + o.out + start * p.out_step, n,
                              start > 0, carry, shared.tile.get(), shared.totals.get());
      }
    }
  }
}

}  // namespace accel::kernels
