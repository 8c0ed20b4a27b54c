// Advanced indexing on the CPU: for every position b of the index shape B, the indexed array's
// element (or block of remaining axes) picked by the index values is copied to or from the
// other operand's slot b. Elements are moved as raw bytes, so one loop serves every dtype.
#include <algorithm>
#include <cstring>
#include <mutex>

#include "accel/backend/common/coalesce.h"
#include "accel/backend/cpu/cpu_backend.h"
#include "accel/backend/cpu/thread_pool.h"

namespace accel::cpu {
namespace {

// Below this many elements moved, a hand-off to other threads costs more than it saves.
constexpr int64_t kParallelGrain = 32768;

// The axes that are not indexed: a strided block per index position, dims coalesced.
struct Block {
  Shape shape;
  Strides indexed, other;  // bytes
  int64_t size = 1;
};

// Walks the index shape B: per position, the element offset into each index array and the
// byte offset into the other operand.
struct IndexWalk {
  Shape shape;
  std::vector<const int64_t*> data;
  std::vector<Strides> strides;  // elements, per index array
  Strides other;                 // bytes
};

struct Plan {
  char* indexed = nullptr;
  char* other = nullptr;
  std::vector<int64_t> axis_size, axis_stride;  // per index array; stride in bytes
  IndexWalk walk;
  Block block;
  int64_t positions = 0;  // size of B
};

// B coalesced (backend/common/coalesce.h) over every index array and the other operand, so a
// C-contiguous B walks as one long row.
void coalesce(IndexWalk& w) {
  std::vector<Strides> steps = w.strides;
  steps.push_back(w.other);
  plan::IterSpace space = plan::coalesce(w.shape, std::move(steps));
  w.shape = std::move(space.shape);
  w.other = std::move(space.steps.back());
  space.steps.pop_back();
  w.strides = std::move(space.steps);
}

Plan make_plan(const Array& indexed, std::span<const int> axes, std::span<const Array> indices,
               const Array& other) {
  Plan p;
  const int64_t isz = static_cast<int64_t>(indexed.itemsize());
  p.indexed = static_cast<char*>(indexed.data());
  p.other = static_cast<char*>(other.data());
  p.walk.shape = indices[0].shape();
  p.positions = shape_size(p.walk.shape);
  const size_t nb = p.walk.shape.size();
  for (size_t k = 0; k < indices.size(); ++k) {
    p.axis_size.push_back(indexed.shape()[axes[k]]);
    p.axis_stride.push_back(indexed.strides()[axes[k]] * isz);
    p.walk.data.push_back(indices[k].data<int64_t>());
    p.walk.strides.push_back(indices[k].strides());
  }
  for (size_t d = 0; d < nb; ++d) p.walk.other.push_back(other.strides()[d] * isz);
  coalesce(p.walk);
  // The block: the indexed array's other axes, which follow B in the other operand.
  Shape block_shape;
  std::vector<Strides> block_steps(2);  // bytes: indexed, other
  size_t r = nb;
  for (int d = 0; d < indexed.ndim(); ++d) {
    if (std::find(axes.begin(), axes.end(), d) != axes.end()) continue;
    block_shape.push_back(indexed.shape()[d]);
    block_steps[0].push_back(indexed.strides()[d] * isz);
    block_steps[1].push_back(other.strides()[r++] * isz);
    p.block.size *= indexed.shape()[d];
  }
  plan::IterSpace block = plan::coalesce(block_shape, std::move(block_steps));
  p.block.shape = std::move(block.shape);
  p.block.indexed = std::move(block.steps[0]);
  p.block.other = std::move(block.steps[1]);
  return p;
}

template <size_t N>
void copy_block(char* dst, const int64_t* ds, const char* src, const int64_t* ss,
                const int64_t* shape, int nd) {
  if (nd == 0) {
    std::memcpy(dst, src, N);
    return;
  }
  const int64_t n = shape[0], a = ds[0], b = ss[0];
  if (nd == 1) {
    if (a == static_cast<int64_t>(N) && b == static_cast<int64_t>(N)) {
      std::memcpy(dst, src, static_cast<size_t>(n) * N);
      return;
    }
    for (int64_t i = 0; i < n; ++i) std::memcpy(dst + i * a, src + i * b, N);
    return;
  }
  for (int64_t i = 0; i < n; ++i) copy_block<N>(dst + i * a, ds + 1, src + i * b, ss + 1, shape + 1, nd - 1);
}

// Checks index value v against an axis of n elements; negative values count from the end.
inline bool wrap_index(int64_t& v, int64_t n) {
  if (v < 0) v += n;
  return static_cast<uint64_t>(v) < static_cast<uint64_t>(n);
}

// Calls f(byte offset into the indexed array, byte offset into the other operand) for positions
// [begin, end) of B in C order, a row (the last axis of B) at a time; stops at the first bad
// index and returns it. One index array (take, x[idx]) gets a loop of its own: a tight loop
// keeps many cache misses in flight, which is what a random gather's speed depends on.
template <class F>
std::optional<IndexFault> walk(const Plan& p, int64_t begin, int64_t end, F&& f) {
  if (begin >= end) return std::nullopt;
  const IndexWalk& w = p.walk;
  const int nd = static_cast<int>(w.shape.size());
  const size_t k = w.data.size();
  if (nd == 0) {  // B = (): one position
    int64_t off = 0;
    for (size_t j = 0; j < k; ++j) {
      int64_t v = w.data[j][0];
      if (!wrap_index(v, p.axis_size[j])) return IndexFault{static_cast<int>(j), w.data[j][0]};
      off += v * p.axis_stride[j];
    }
    f(off, int64_t{0});
    return std::nullopt;
  }
  int64_t pos[64];  // coalesced axes all have length >= 2: at most 63 of them
  int64_t rem = begin;
  for (int d = nd - 1; d >= 0; --d) {
    pos[d] = rem % w.shape[d];
    rem /= w.shape[d];
  }
  const int64_t row_len = w.shape[nd - 1], other_step = w.other[nd - 1];
  std::vector<int64_t> row_off(k);
  int64_t at = begin;
  while (at < end) {
    int64_t other_off = 0;
    for (int d = 0; d < nd; ++d) other_off += pos[d] * w.other[d];
    for (size_t j = 0; j < k; ++j) {
      row_off[j] = 0;
      for (int d = 0; d < nd; ++d) row_off[j] += pos[d] * w.strides[j][d];
    }
    const int64_t n = std::min(row_len - pos[nd - 1], end - at);
    if (k == 1) {
      const int64_t* ip = w.data[0] + row_off[0];
      const int64_t step = w.strides[0][nd - 1], size = p.axis_size[0], stride = p.axis_stride[0];
      for (int64_t i = 0; i < n; ++i) {
        int64_t v = ip[i * step];
        if (!wrap_index(v, size)) return IndexFault{0, ip[i * step]};
        f(v * stride, other_off + i * other_step);
      }
    } else {
      for (int64_t i = 0; i < n; ++i) {
        int64_t off = 0;
        for (size_t j = 0; j < k; ++j) {
          const int64_t raw = w.data[j][row_off[j] + i * w.strides[j][nd - 1]];
          int64_t v = raw;
          if (!wrap_index(v, p.axis_size[j])) return IndexFault{static_cast<int>(j), raw};
          off += v * p.axis_stride[j];
        }
        f(off, other_off + i * other_step);
      }
    }
    at += n;
    pos[nd - 1] += n;
    for (int d = nd - 1; d > 0 && pos[d] >= w.shape[d]; --d) {
      pos[d] = 0;
      ++pos[d - 1];
    }
  }
  return std::nullopt;
}

// Runs walk over B split across threads when the work is large; returns the fault at the
// smallest position, if any.
template <class F>
std::optional<IndexFault> parallel_walk(const Plan& p, int64_t work_per_position, F&& f) {
  const int64_t n = p.positions;
  const int64_t grain = std::max<int64_t>(kParallelGrain / std::max<int64_t>(work_per_position, 1), 1);
  if (n < 2 * grain || num_threads() == 1) return walk(p, 0, n, f);
  std::mutex mutex;
  std::optional<IndexFault> first;
  int64_t first_begin = n;
  parallel_for(n, grain, [&](int64_t b, int64_t e) {
    auto fault = walk(p, b, e, f);
    if (!fault) return;
    std::lock_guard<std::mutex> lock(mutex);
    if (b < first_begin) {
      first_begin = b;
      first = fault;
    }
  });
  return first;
}

// Calls f(byte offset into the indexed array, byte offset into the other operand) for the
// block's elements [begin, end) in C order.
template <class F> void for_block(const Block& b, int64_t begin, int64_t end, F&& f) {
  const int nd = static_cast<int>(b.shape.size());
  int64_t pos[64];  // coalesced axes all have length >= 2: at most 63 of them
  int64_t rem = begin, oi = 0, oo = 0;
  for (int d = nd - 1; d >= 0; --d) {
    pos[d] = rem % b.shape[d];
    rem /= b.shape[d];
    oi += pos[d] * b.indexed[d];
    oo += pos[d] * b.other[d];
  }
  for (int64_t e = begin; e < end; ++e) {
    f(oi, oo);
    for (int d = nd - 1; d >= 0; --d) {
      oi += b.indexed[d];
      oo += b.other[d];
      if (++pos[d] < b.shape[d]) break;
      oi -= b.indexed[d] * b.shape[d];
      oo -= b.other[d] * b.shape[d];
      pos[d] = 0;
    }
  }
}

// Walk the block outside and B inside when B's last axis moves faster than the block in the
// other operand (x[:, cols] fills the result's rows): both arrays are then walked in memory
// order instead of column by column.
// A gather decides by its output, a scatter by its destination (the indexed array).
bool block_outside(const Plan& p, bool by_indexed) {
  if (p.block.size <= 1 || p.block.shape.empty() || p.walk.shape.empty()) return false;
  if (by_indexed) return std::abs(p.axis_stride.back()) < std::abs(p.block.indexed.back());
  return std::abs(p.walk.other.back()) < std::abs(p.block.other.back());
}

// For every block element (split across threads), copy(indexed offset, other offset) over all
// of B. Block elements never share a destination, so threads do not race, and each walks B in
// order (a repeated index keeps its last value).
template <class Copy>
std::optional<IndexFault> run_block_outside(const Plan& p, Copy&& copy) {
  auto run = [&](int64_t b0, int64_t b1) {
    std::optional<IndexFault> fault;
    for_block(p.block, b0, b1, [&](int64_t bi, int64_t bo) {
      if (!fault) fault = walk(p, 0, p.positions, [&](int64_t s, int64_t o) { copy(bi + s, bo + o); });
    });
    return fault;
  };
  const int64_t n = p.block.size;
  const int64_t grain = std::max<int64_t>(kParallelGrain / std::max<int64_t>(p.positions, 1), 1);
  if (n < 2 * grain || num_threads() == 1) return run(0, n);
  std::mutex mutex;
  std::optional<IndexFault> first;
  parallel_for(n, grain, [&](int64_t b, int64_t e) {
    auto fault = run(b, e);
    std::lock_guard<std::mutex> lock(mutex);
    if (fault && !first) first = fault;
  });
  return first;
}

template <size_t N> std::optional<IndexFault> gather_bytes(const Plan& p) {
  const Block& blk = p.block;
  const int nd = static_cast<int>(blk.shape.size());
  if (nd == 0)  // one element per position
    return parallel_walk(p, 1, [&](int64_t src_off, int64_t out_off) {
      std::memcpy(p.other + out_off, p.indexed + src_off, N);
    });
  if (block_outside(p, false))
    return run_block_outside(p, [&](int64_t src_off, int64_t out_off) {
      std::memcpy(p.other + out_off, p.indexed + src_off, N);
    });
  return parallel_walk(p, blk.size, [&](int64_t src_off, int64_t out_off) {
    if (blk.size)
      copy_block<N>(p.other + out_off, blk.other.data(), p.indexed + src_off, blk.indexed.data(),
                    blk.shape.data(), nd);
  });
}

template <size_t N> void scatter_bytes(const Plan& p) {
  const Block& blk = p.block;
  const int nd = static_cast<int>(blk.shape.size());
  if (blk.size == 0) return;
  if (block_outside(p, true)) {
    run_block_outside(p, [&](int64_t dst_off, int64_t val_off) {
      std::memcpy(p.indexed + dst_off, p.other + val_off, N);
    });
    return;
  }
  if (nd == 0) {
    // One element per position: the store inline (x[idx] = v of 1M into 10M float32 took
    // 9.5 ms through copy_block's call per element, NumPy 6.0).
    walk(p, 0, p.positions, [&](int64_t dst_off, int64_t val_off) {
      std::memcpy(p.indexed + dst_off, p.other + val_off, N);
    });
    return;
  }
  // Positions run in order in every thread (a repeated index keeps its last value); large
  // blocks are split across threads along their outermost axis instead.
  auto run = [&](int64_t r0, int64_t r1) {
    Shape shape = blk.shape;
    if (nd) shape[0] = r1 - r0;
    const int64_t di = nd ? r0 * blk.indexed[0] : 0, dv = nd ? r0 * blk.other[0] : 0;
    walk(p, 0, p.positions, [&](int64_t dst_off, int64_t val_off) {
      copy_block<N>(p.indexed + dst_off + di, blk.indexed.data(), p.other + val_off + dv,
                    blk.other.data(), shape.data(), nd);
    });
  };
  const int64_t outer = nd ? blk.shape[0] : 1;
  const int64_t work = p.positions * blk.size;
  if (outer < 2 || work < 2 * kParallelGrain || num_threads() == 1) return run(0, outer);
  const int64_t grain = std::max<int64_t>(kParallelGrain / std::max<int64_t>(work / outer, 1), 1);
  parallel_for(outer, grain, run);
}

template <class F> decltype(auto) dispatch_itemsize(size_t itemsize, F&& f) {
  switch (itemsize) {
    case 1: return f(std::integral_constant<size_t, 1>{});
    case 2: return f(std::integral_constant<size_t, 2>{});
    case 4: return f(std::integral_constant<size_t, 4>{});
    case 8: return f(std::integral_constant<size_t, 8>{});
    default: return f(std::integral_constant<size_t, 16>{});
  }
}

// x[idx] and take(x, idx) on small arrays: one 1-d index array over axis 0 of an array whose
// rows (the other axes) are contiguous, into a contiguous result. Done without a Plan, whose
// vectors cost more than the copy itself at these sizes (issue 15: a[int array] of 10 elements
// spent a third of its time in malloc). Larger gathers take the Plan's parallel walk.
std::optional<std::optional<IndexFault>> gather_rows(const Array& src, std::span<const int> axes,
                                                     std::span<const Array> indices,
                                                     const Array& out) {
  if (indices.size() != 1 || axes[0] != 0 || indices[0].ndim() != 1 || !out.is_contiguous())
    return std::nullopt;
  const int64_t row = shape_size(src.shape()) / std::max<int64_t>(src.shape()[0], 1);
  const int64_t count = indices[0].shape()[0];
  if (count * std::max<int64_t>(row, 1) >= 2 * kParallelGrain) return std::nullopt;
  int64_t expected = 1;  // the rows must be C-contiguous
  for (int d = src.ndim() - 1; d >= 1; --d) {
    if (src.shape()[d] != 1 && src.strides()[d] != expected) return std::nullopt;
    expected *= src.shape()[d];
  }
  const size_t isz = src.itemsize();
  const auto* from = static_cast<const char*>(src.data());
  auto* to = static_cast<char*>(out.data());
  const int64_t* idx = indices[0].data<int64_t>();
  const int64_t step = indices[0].strides()[0], n = src.shape()[0];
  const int64_t src_step = src.strides()[0] * static_cast<int64_t>(isz);
  const size_t row_bytes = static_cast<size_t>(row) * isz;
  auto run = [&](auto copy) -> std::optional<IndexFault> {
    for (int64_t i = 0; i < count; ++i) {
      int64_t v = idx[i * step];
      if (!wrap_index(v, n)) return IndexFault{0, idx[i * step]};
      copy(to + static_cast<size_t>(i) * row_bytes, from + v * src_step);
    }
    return std::nullopt;
  };
  if (row != 1)
    return run([&](char* d, const char* s) { std::memcpy(d, s, row_bytes); });
  return dispatch_itemsize(isz, [&](auto size) {
    constexpr size_t N = decltype(size)::value;
    return run([](char* d, const char* s) { std::memcpy(d, s, N); });
  });
}

}  // namespace

std::optional<IndexFault> CpuBackend::gather(const Array& src, std::span<const int> axes,
                                             std::span<const Array> indices, const Array& out) {
  if (auto done = gather_rows(src, axes, indices, out)) return *done;
  Plan p = make_plan(src, axes, indices, out);
  return dispatch_itemsize(src.itemsize(), [&](auto n) { return gather_bytes<decltype(n)::value>(p); });
}

std::optional<IndexFault> CpuBackend::scatter(const Array& dst, std::span<const int> axes,
                                              std::span<const Array> indices,
                                              const Array& values) {
  Plan p = make_plan(dst, axes, indices, values);
  // Every index is checked first, so a bad one leaves dst untouched.
  if (auto fault = parallel_walk(p, 1, [](int64_t, int64_t) {})) return fault;
  dispatch_itemsize(dst.itemsize(), [&](auto n) { scatter_bytes<decltype(n)::value>(p); });
  return std::nullopt;
}

}  // namespace accel::cpu
