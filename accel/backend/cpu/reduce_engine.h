// The one loop structure behind every CPU reduction, for any op of reduce_ops.h:
//   mode A (the input's fastest dimension is reduced): each output element reduces runs of
//     adjacent inputs; sums fold the runs pairwise, so accuracy does not depend on the view;
//   mode B (the fastest dimension is kept): a tile of adjacent outputs accumulates whole input
//     rows, one reduced position after another (no strided gathers); sums fold blocks of rows
//     into the tile so error grows with rows/128 + 128 rather than with rows.
// Work is spread over the thread pool by output elements or tiles when there are enough of
// them, otherwise by splitting the reduced positions and combining the partial states in order.
#pragma once
#include <algorithm>
#include <cstdint>
#include <memory>

#include "accel/backend/cpu/reduce_layout.h"
#include "accel/backend/cpu/thread_pool.h"

namespace accel::cpu {

namespace reduce_detail {

// Below this many input elements everything runs on the caller's thread.
inline constexpr int64_t kSerialWork = 65536;
// Input elements per parallel chunk at least.
inline constexpr int64_t kChunkWork = 32768;
// Mode B: bytes of states a tile holds, and rows per block of a pairwise sum. A tile spans a
// whole row of outputs up to 64 KB of states (L2-resident), so the input is read row after row
// as it lies in memory, as NumPy's axis-0 loops read it; 8 KB tiles cut a 3162-float row in two
// and read the matrix in 8 KB pieces 12.6 KB apart: sum/max/mean(axis=0) took 1.6-2x longer.
inline constexpr int64_t kTileBytes = 65536;
inline constexpr int64_t kRowBlock = 128;

// Folds the states of consecutive runs in order. Pairwise ops keep a binary counter of partial
// states (at most 64 levels), so n short runs still fold with O(log n) rounding error.
template <class Op> class RunFolder {
 public:
  using State = typename Op::State;
  void add(State s) {
    if constexpr (!Op::kPairwise) {
      // The first run's state as it is: each run already started from the identity, and a
      // second identity is not free (1 * (inf+infj) is nan+nanj in NumPy's complex product).
      acc_ = depth_ ? Op::combine(acc_, s) : s;
      depth_ = 1;
    } else {
      parts_[depth_] = s;
      counts_[depth_++] = 1;
      while (depth_ >= 2 && counts_[depth_ - 1] == counts_[depth_ - 2]) {
        parts_[depth_ - 2] = Op::combine(parts_[depth_ - 2], parts_[depth_ - 1]);
        counts_[depth_ - 2] *= 2;
        --depth_;
      }
    }
  }
  State result() const {
    if constexpr (!Op::kPairwise) {
      return acc_;
    } else {
      if (depth_ == 0) return Op::identity();
      State r = parts_[depth_ - 1];
      for (int i = depth_ - 2; i >= 0; --i) r = Op::combine(parts_[i], r);
      return r;
    }
  }

 private:
  State acc_ = Op::identity();
  State parts_[Op::kPairwise ? 64 : 1];
  int64_t counts_[Op::kPairwise ? 64 : 1];
  int depth_ = 0;  // partial states held (without kPairwise: 1 once a run was added)
};

// The reduced positions [b, e) (C order over the reduced dims) of one output element.
template <class Op>
typename Op::State reduce_positions(const typename Op::InT* base, const Shape& outer_shape,
                                    const Strides& outer_in, int64_t len, int64_t stride,
                                    int64_t b, int64_t e) {
  RunFolder<Op> folder;
  int64_t col = b % len;
  Odometer rows(outer_shape, outer_in, b / len);
  for (int64_t pos = b; pos < e;) {
    const int64_t n = std::min(len - col, e - pos);
    folder.add(Op::at(Op::reduce_run(base + rows.offset() + col * stride, n, stride), pos));
    pos += n;
    col = 0;
    rows.next();
  }
  return folder.result();
}

// Splits [0, n) into `chunks` nearly equal parts: part c is [bound(c), bound(c + 1)).
inline int64_t bound(int64_t n, int64_t chunks, int64_t c) { return n / chunks * c + std::min(c, n % chunks); }

template <class Op>
void run_mode_a(const ReduceLayout& l, const typename Op::InT* in, typename Op::Out* out) {
  using State = typename Op::State;
  const int64_t K = l.kept_count(), E = l.red_count();
  const Shape outer_shape(l.red_shape.begin(), l.red_shape.end() - 1);
  const Strides outer_in(l.red_in.begin(), l.red_in.end() - 1);
  const int64_t len = l.red_shape.back(), stride = l.red_in.back();
  auto outputs = [&](int64_t k0, int64_t k1) {
    Odometer src(l.kept_shape, l.kept_in, k0), dst(l.kept_shape, l.kept_out, k0);
    for (int64_t k = k0; k < k1; ++k, src.next(), dst.next())
      out[dst.offset()] = Op::finish(
          reduce_positions<Op>(in + src.offset(), outer_shape, outer_in, len, stride, 0, E));
  };
  const int threads = num_threads();
  if (threads == 1 || K * E < kSerialWork) return outputs(0, K);
  if (K >= threads) return parallel_for(K, std::max<int64_t>(1, kChunkWork / E), outputs);
  // Few outputs with many inputs each: split each output's positions over the threads.
  const int64_t chunks = std::min<int64_t>(threads, std::max<int64_t>(1, E / kChunkWork));
  // Not std::vector: vector<bool> packs bits, which threads cannot write side by side.
  std::unique_ptr<State[]> parts(new State[chunks]);
  Odometer src(l.kept_shape, l.kept_in, 0), dst(l.kept_shape, l.kept_out, 0);
  for (int64_t k = 0; k < K; ++k, src.next(), dst.next()) {
    parallel_for(chunks, 1, [&](int64_t c0, int64_t c1) {
      for (int64_t c = c0; c < c1; ++c)
        parts[c] = reduce_positions<Op>(in + src.offset(), outer_shape, outer_in, len, stride,
                                        bound(E, chunks, c), bound(E, chunks, c + 1));
    });
    State s = parts[0];
    for (int64_t c = 1; c < chunks; ++c) s = Op::combine(s, parts[c]);
    out[dst.offset()] = Op::finish(s);
  }
}

template <class Op>
void run_mode_b(const ReduceLayout& l, const typename Op::InT* in, typename Op::Out* out) {
  using State = typename Op::State;
  constexpr int64_t kTile = std::max<int64_t>(32, kTileBytes / static_cast<int64_t>(sizeof(State)));
  const int64_t E = l.red_count();
  const Shape outer_shape(l.kept_shape.begin(), l.kept_shape.end() - 1);
  const Strides outer_in(l.kept_in.begin(), l.kept_in.end() - 1);
  const Strides outer_out(l.kept_out.begin(), l.kept_out.end() - 1);
  const int64_t row_len = l.kept_shape.back(), row_in = l.kept_in.back(),
                row_out = l.kept_out.back();
  const int64_t tiles = (row_len + kTile - 1) / kTile;
  const int64_t units = shape_size(outer_shape) * tiles;

  auto tile_len = [&](int64_t u) { return std::min(kTile, row_len - u % tiles * kTile); };
  // Folds reduced positions [r0, r1) of unit u into acc (the unit's tile of states).
  auto accumulate = [&](int64_t u, int64_t r0, int64_t r1, State* acc) {
    const int64_t t = u % tiles, n = tile_len(u);
    const typename Op::InT* base =
        in + Odometer(outer_shape, outer_in, u / tiles).offset() + t * kTile * row_in;
    for (int64_t j = 0; j < n; ++j) acc[j] = Op::identity();
    Odometer pos(l.red_shape, l.red_in, r0);
    if constexpr (Op::kPairwise) {
      State block[kTile];
      for (int64_t r = r0; r < r1;) {
        const int64_t rend = std::min(r1, r + kRowBlock);
        for (int64_t j = 0; j < n; ++j) block[j] = Op::identity();
        for (; r < rend; ++r, pos.next()) Op::accumulate(block, base + pos.offset(), n, row_in, r);
        for (int64_t j = 0; j < n; ++j) acc[j] = Op::combine(acc[j], block[j]);
      }
    } else {
      for (int64_t r = r0; r < r1; ++r, pos.next())
        Op::accumulate(acc, base + pos.offset(), n, row_in, r);
    }
  };
  auto store = [&](int64_t u, const State* acc) {
    const int64_t n = tile_len(u);
    typename Op::Out* dst =
        out + Odometer(outer_shape, outer_out, u / tiles).offset() + (u % tiles) * kTile * row_out;
    for (int64_t j = 0; j < n; ++j) dst[j * row_out] = Op::finish(acc[j]);
  };
  auto whole_units = [&](int64_t u0, int64_t u1) {
    State acc[kTile];
    for (int64_t u = u0; u < u1; ++u) {
      accumulate(u, 0, E, acc);
      store(u, acc);
    }
  };
  const int threads = num_threads();
  const int64_t work = units * std::min(row_len, kTile) * E;
  if (threads == 1 || work < kSerialWork) return whole_units(0, units);
  if (units >= threads)
    return parallel_for(units, std::max<int64_t>(1, kChunkWork / (kTile * std::max<int64_t>(E, 1))),
                        whole_units);
  // Few, short rows of outputs: split the reduced positions; partial tiles combine in order.
  const int64_t chunks = std::min<int64_t>(
      threads, std::max<int64_t>(1, work / units / kChunkWork));
  std::unique_ptr<State[]> parts(new State[chunks * kTile]);
  for (int64_t u = 0; u < units; ++u) {
    parallel_for(chunks, 1, [&](int64_t c0, int64_t c1) {
      for (int64_t c = c0; c < c1; ++c)
        accumulate(u, bound(E, chunks, c), bound(E, chunks, c + 1), &parts[c * kTile]);
    });
    const int64_t n = tile_len(u);
    for (int64_t c = 1; c < chunks; ++c)
      for (int64_t j = 0; j < n; ++j) parts[j] = Op::combine(parts[j], parts[c * kTile + j]);
    store(u, parts.get());
  }
}

}  // namespace reduce_detail

// Reduces `in` (the layout's input, already offset to element 0) into `out` with Op.
template <class Op>
void run_reduce(const ReduceLayout& l, const void* in_data, void* out_data) {
  using namespace reduce_detail;
  const auto* in = static_cast<const typename Op::InT*>(in_data) + l.in_offset;
  auto* out = static_cast<typename Op::Out*>(out_data) + l.out_offset;
  if (l.kept_count() == 0) return;
  if (l.red_count() == 0) {
    Odometer dst(l.kept_shape, l.kept_out, 0);
    for (int64_t k = 0; k < l.kept_count(); ++k, dst.next()) out[dst.offset()] = Op::finish(Op::identity());
    return;
  }
  // One output from one short run (`a.sum()`, `a.argmax()` of a small contiguous array): the
  // run itself, without the odometers and run folder that mode A sets up around it (the same
  // state: a folder of one run returns that run's).
  if (l.kept_count() == 1 && l.red_shape.size() == 1 && l.red_count() < kSerialWork) {
    out[0] = Op::finish(Op::at(Op::reduce_run(in, l.red_shape[0], l.red_in[0]), 0));
    return;
  }
  if (l.inner_reduced) run_mode_a<Op>(l, in, out);
  else run_mode_b<Op>(l, in, out);
}

}  // namespace accel::cpu
