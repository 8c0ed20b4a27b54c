// The CPU's sort and searchsorted. A row (the sorted axis of one position of the other axes)
// is copied into a contiguous scratch buffer, sorted there and written back: rows are spread
// over the thread pool. Rows of integers, bools and reals of kRadixRow elements or more are
// radix-sorted (radix_sort.h; each pass split across the pool for a single long row); other
// rows (complex numbers, short rows) are comparison-sorted, a single long row cut into chunks
// sorted in parallel and merged. Every sort is stable (radix passes keep the order of equal
// digits; merges take from the left on ties), so the order of equal elements (-0.0 and 0.0,
// NaNs) is the same on every run, for every thread count and either algorithm.
#include <algorithm>
#include <cmath>
#include <complex>
#include <memory>
#include <utility>
#include <vector>

#include "accel/backend/cpu/sort.h"

#include "accel/core/dtype.h"
#include "accel/backend/cpu/radix_sort.h"
#include "accel/backend/cpu/reduce_layout.h"
#include "accel/backend/cpu/thread_pool.h"

namespace accel::cpu {
namespace {

constexpr int64_t kSerialElements = 1 << 15;  // below this a row is sorted on one thread
// From this length a row of integers or reals is radix-sorted: below it, the 256-entry digit
// tables of each pass cost more than the comparisons they save.
constexpr int64_t kRadixRow = 256;

// NumPy's sort order: NaN after every number; complex numbers by real then imaginary part, the
// classes R+Rj < R+nanj < nan+Rj < nan+nanj (numpy/_core/src/npysort's CFLOAT_LT).
template <class T> struct Less {
  bool operator()(const T& a, const T& b) const {
    if constexpr (std::is_floating_point_v<T> || is_narrow_float_v<T>) {
      return a < b || (b != b && a == a);
    } else if constexpr (is_complex_v<T>) {
      const int ca = 2 * std::isnan(a.real()) + std::isnan(a.imag());
      const int cb = 2 * std::isnan(b.real()) + std::isnan(b.imag());
      if (ca != cb) return ca < cb;
      if (ca == 0) return a.real() < b.real() || (a.real() == b.real() && a.imag() < b.imag());
      if (ca == 1) return a.real() < b.real();
      if (ca == 2) return a.imag() < b.imag();
      return false;
    } else {
      return a < b;
    }
  }
};

// Descending is the ascending order with its arguments swapped: with a stable sort that is the
// reverse of an ascending sort of the reversed row (NaNs first, ties in their original order).
template <class T> struct Order {
  bool descending;
  bool operator()(const T& a, const T& b) const { return descending ? Less<T>{}(b, a) : Less<T>{}(a, b); }
};

template <class T> struct KeyOrder {
  Order<T> order;
  bool operator()(const std::pair<T, int64_t>& a, const std::pair<T, int64_t>& b) const {
    return order(a.first, b.first);
  }
};

// Stable sort of [data, data + n), on the pool when the row is long: chunks sorted in parallel,
// then merged pairwise (std::merge takes the left run's element on ties, so stability holds).
template <class E, class Cmp> void sort_range(E* data, int64_t n, Cmp cmp, bool parallel) {
  const int threads = parallel ? num_threads() : 1;
  if (threads == 1 || n < 2 * kSerialElements) {
    std::stable_sort(data, data + n, cmp);
    return;
  }
  int64_t chunks = 1;
  while (chunks < threads) chunks *= 2;
  const int64_t width0 = (n + chunks - 1) / chunks;
  parallel_for(chunks, 1, [&](int64_t c0, int64_t c1) {
    for (int64_t c = c0; c < c1; ++c) {
      const int64_t b = std::min(n, c * width0), e = std::min(n, b + width0);
      std::stable_sort(data + b, data + e, cmp);
    }
  });
  std::unique_ptr<E[]> scratch(new E[static_cast<size_t>(n)]);
  E* src = data;
  E* dst = scratch.get();
  for (int64_t width = width0; width < n; width *= 2) {
    const int64_t pairs = (n + 2 * width - 1) / (2 * width);
    parallel_for(pairs, 1, [&](int64_t p0, int64_t p1) {
      for (int64_t p = p0; p < p1; ++p) {
        const int64_t b = p * 2 * width, m = std::min(n, b + width), e = std::min(n, b + 2 * width);
        std::merge(src + b, src + m, src + m, src + e, dst + b, cmp);
      }
    });
    std::swap(src, dst);
  }
  if (src != data) std::copy(src, src + n, data);
}

// Radix sort of one row (`step` apart in `p`) into `values` and/or `indices` (either may be
// null). The last pass decodes the keys into `values` when they give the values back exactly;
// otherwise the keys carry their positions and the values are gathered from the row.
template <class T>
void radix_sort_row(const T* p, int64_t step, int64_t len, bool descending, bool parallel, T* values,
                    int64_t v_step, int64_t* indices, int64_t i_step) {
  using Key = RadixKey<T>;
  using U = typename Key::U;
  RadixSorter<U> sorter(len, parallel);
  const bool exact = sorter.load([&](int64_t j, bool* exact) { return Key::encode(p[j * step], descending, exact); });
  if (!indices && exact) {
    sorter.sort(false, [&](int64_t j, U key, int64_t) { values[j * v_step] = Key::decode(key, descending); });
  } else if (!values) {
    sorter.sort(true, [&](int64_t j, U, int64_t i) { indices[j * i_step] = i; });
  } else if (!indices) {
    sorter.sort(true, [&](int64_t j, U, int64_t i) { values[j * v_step] = p[i * step]; });
  } else {
    sorter.sort(true, [&](int64_t j, U, int64_t i) {
      indices[j * i_step] = i;
      values[j * v_step] = p[i * step];
    });
  }
}

// The positions of every row: the other axes of `a` walked in C order.
struct RowWalk {
  Shape shape;
  Strides in, values, indices;
};

// Rows side by side in memory (the sorted axis before a contiguous one, as axis 0 of a C-ordered
// matrix): a row read alone touches one cache line per element and uses one element of it, and
// so does its write-back. Tiles of kTileRows neighbouring rows are instead read across (every
// line used whole) into contiguous scratch, each row radix-sorted there, and written back across:
// a 1000 x 10000 float32 matrix's argsort along axis 0 82-130 -> 70 ms (its sort within noise:
// the radix passes dominate). False (nothing done) for other layouts.
constexpr int64_t kTileRows = 16;

template <class T>
bool sort_row_tiles(const RowWalk& w, const T* src, int64_t len, int64_t in_step, bool descending,
                    T* vdst, int64_t v_step, int64_t* idst, int64_t i_step) {
  if constexpr (!has_radix_key<T>::value) {
    return false;
  } else {
    if (len < kRadixRow || w.shape.empty() || w.in.back() != 1 || w.shape.back() < kTileRows ||
        in_step == 1)
      return false;
    const Shape outer(w.shape.begin(), w.shape.end() - 1);
    const Strides outer_in(w.in.begin(), w.in.end() - 1);
    const Strides outer_v(w.values.begin(), w.values.end() - 1);
    const Strides outer_i(w.indices.begin(), w.indices.end() - 1);
    const int64_t inner = w.shape.back(), v_inner = w.values.back(), i_inner = w.indices.back();
    const int64_t per_outer = (inner + kTileRows - 1) / kTileRows;
    const int64_t tiles = shape_size(outer) * per_outer;
    const size_t scratch = static_cast<size_t>(kTileRows * len);
    parallel_for(tiles, std::max<int64_t>(1, kSerialElements / (kTileRows * len)),
                 [&](int64_t t0, int64_t t1) {
      std::unique_ptr<T[]> keys(new T[scratch]);
      std::unique_ptr<T[]> sorted(vdst ? new T[scratch] : nullptr);
      std::unique_ptr<int64_t[]> positions(idst ? new int64_t[scratch] : nullptr);
      for (int64_t t = t0; t < t1; ++t) {
        const int64_t o = t / per_outer, c0 = (t % per_outer) * kTileRows;
        const int64_t count = std::min(kTileRows, inner - c0);
        const T* p = src + Odometer(outer, outer_in, o).offset() + c0;
        for (int64_t j = 0; j < len; ++j)
          for (int64_t b = 0; b < count; ++b) keys[b * len + j] = p[j * in_step + b];
        for (int64_t b = 0; b < count; ++b)
          radix_sort_row(keys.get() + b * len, 1, len, descending, false,
                         vdst ? sorted.get() + b * len : nullptr, 1,
                         idst ? positions.get() + b * len : nullptr, 1);
        if (vdst) {
          T* out = vdst + Odometer(outer, outer_v, o).offset() + c0 * v_inner;
          for (int64_t j = 0; j < len; ++j)
            for (int64_t b = 0; b < count; ++b) out[j * v_step + b * v_inner] = sorted[b * len + j];
        }
        if (idst) {
          int64_t* out = idst + Odometer(outer, outer_i, o).offset() + c0 * i_inner;
          for (int64_t j = 0; j < len; ++j)
            for (int64_t b = 0; b < count; ++b)
              out[j * i_step + b * i_inner] = positions[b * len + j];
        }
      }
    });
    return true;
  }
}

template <class T>
void sort_typed(const Array& in, int axis, bool descending, const Array* values,
                const Array* indices) {
  const int64_t len = in.shape()[axis];
  RowWalk w;
  for (int d = 0; d < in.ndim(); ++d) {
    if (d == axis) continue;
    w.shape.push_back(in.shape()[d]);
    w.in.push_back(in.strides()[d]);
    w.values.push_back(values ? values->strides()[d] : 0);
    w.indices.push_back(indices ? indices->strides()[d] : 0);
  }
  const int64_t rows = shape_size(w.shape);
  const int64_t in_step = in.strides()[axis];
  const int64_t v_step = values ? values->strides()[axis] : 0;
  const int64_t i_step = indices ? indices->strides()[axis] : 0;
  const T* src = static_cast<const T*>(in.data());
  T* vdst = values ? static_cast<T*>(values->data()) : nullptr;
  int64_t* idst = indices ? static_cast<int64_t*>(indices->data()) : nullptr;
  const Order<T> order{descending};
  if (sort_row_tiles(w, src, len, in_step, descending, vdst, v_step, idst, i_step)) return;
  const bool parallel_rows = rows > 1 && num_threads() > 1 && rows * len >= kSerialElements;

  auto run_rows = [&](int64_t r0, int64_t r1) {
    Odometer at_in(w.shape, w.in, r0), at_v(w.shape, w.values, r0), at_i(w.shape, w.indices, r0);
    // Not std::vector<T>: vector<bool> has no data().
    std::unique_ptr<T[]> keys;
    std::vector<std::pair<T, int64_t>> pairs;
    for (int64_t r = r0; r < r1; ++r, at_in.next(), at_v.next(), at_i.next()) {
      const T* p = src + at_in.offset();
      if constexpr (has_radix_key<T>::value) {
        if (len >= kRadixRow) {
          radix_sort_row(p, in_step, len, descending, !parallel_rows, values ? vdst + at_v.offset() : nullptr,
                         v_step, indices ? idst + at_i.offset() : nullptr, i_step);
          continue;
        }
      }
      if (!indices) {
        if (!keys) keys.reset(new T[static_cast<size_t>(len)]);
        for (int64_t j = 0; j < len; ++j) keys[j] = p[j * in_step];
        sort_range(keys.get(), len, order, !parallel_rows);
        T* o = vdst + at_v.offset();
        for (int64_t j = 0; j < len; ++j) o[j * v_step] = keys[j];
        continue;
      }
      pairs.resize(static_cast<size_t>(len));
      for (int64_t j = 0; j < len; ++j) pairs[j] = {p[j * in_step], j};
      sort_range(pairs.data(), len, KeyOrder<T>{order}, !parallel_rows);
      int64_t* oi = idst + at_i.offset();
      for (int64_t j = 0; j < len; ++j) oi[j * i_step] = pairs[j].second;
      if (values) {
        T* o = vdst + at_v.offset();
        for (int64_t j = 0; j < len; ++j) o[j * v_step] = pairs[j].first;
      }
    }
  };
  if (!parallel_rows) return run_rows(0, rows);
  parallel_for(rows, std::max<int64_t>(1, kSerialElements / std::max<int64_t>(len, 1)), run_rows);
}

// Less<T> without a branch: the NaN test of a float compare combined with `&` and `|` rather
// than `&&` and `||`, which the compiler turns into jumps (taken as often as not in a search).
template <class T> bool less_no_branch(const T& a, const T& b) {
  if constexpr (std::is_floating_point_v<T> || is_narrow_float_v<T>) {
    return (a < b) | ((b != b) & (a == a));
  } else {
    return Less<T>{}(a, b);
  }
}

// The position of x among the n sorted elements at a (step apart): the first one not before
// x. Without a branch on the comparison (the step of the search is added times 0 or 1): a
// mispredicted branch per step cost most of each search, and isin and histogram search every
// element of their input.
template <class T, bool Right>
int64_t search_position(const T* a, int64_t n, int64_t step, const T& x) {
  if (n == 0) return 0;
  auto before = [&](const T& m) {
    if constexpr (Right) return !less_no_branch(x, m);
    else return less_no_branch(m, x);
  };
  int64_t base = 0, len = n;
  while (len > 1) {
    const int64_t half = len / 2;
    base += half * static_cast<int64_t>(before(a[(base + half) * step]));
    len -= half;
  }
  return base + static_cast<int64_t>(before(a[base * step]));
}

// search_position for x[0, count) into out[0, count), kBatch searches in step: every search
// into the same n elements takes the same number of steps, and interleaved, one search's
// load-compare-add chain overlaps the others' (one search at a time waits on each load: 18 ms
// for 1e6 values into 51 edges).
template <class T, bool Right>
void search_positions(const T* a, int64_t n, int64_t step, const T* x, int64_t count, int64_t* out) {
  constexpr int kBatch = 8;
  int64_t k = 0;
  if (n > 0) {
    for (; k + kBatch <= count; k += kBatch) {
      int64_t base[kBatch] = {};
      for (int64_t len = n; len > 1;) {
        const int64_t half = len / 2;
        for (int b = 0; b < kBatch; ++b) {
          const T& m = a[(base[b] + half) * step];
          const bool before = Right ? !less_no_branch(x[k + b], m) : less_no_branch(m, x[k + b]);
          base[b] += half * static_cast<int64_t>(before);
        }
        len -= half;
      }
      for (int b = 0; b < kBatch; ++b) {
        const T& m = a[base[b] * step];
        const bool before = Right ? !less_no_branch(x[k + b], m) : less_no_branch(m, x[k + b]);
        out[k + b] = base[b] + static_cast<int64_t>(before);
      }
    }
  }
  for (; k < count; ++k) out[k] = search_position<T, Right>(a, n, step, x[k]);
}

template <class T, bool Right>
void searchsorted_typed(const Array& sorted, const Array& values, const Array& out) {
  const T* a = static_cast<const T*>(sorted.data());
  const int64_t n = sorted.shape()[0], step = sorted.strides()[0];
  const T* v = static_cast<const T*>(values.data());
  int64_t* o = static_cast<int64_t*>(out.data());
  const Shape& shape = values.shape();
  if (values.is_contiguous() && out.is_contiguous()) {
    parallel_for(values.size(), 4096, [&](int64_t k0, int64_t k1) {
      search_positions<T, Right>(a, n, step, v + k0, k1 - k0, o + k0);
    });
    return;
  }
  parallel_for(values.size(), 4096, [&](int64_t k0, int64_t k1) {
    Odometer at_v(shape, values.strides(), k0), at_o(shape, out.strides(), k0);
    for (int64_t k = k0; k < k1; ++k, at_v.next(), at_o.next())
      o[at_o.offset()] = search_position<T, Right>(a, n, step, v[at_v.offset()]);
  });
}

}  // namespace

void sort(const Array& in, int axis, bool descending, const Array* values,
                      const Array* indices) {
  if (in.size() == 0) return;
  dispatch_dtype(in.dtype(), [&](auto tag) {
    sort_typed<typename decltype(tag)::type>(in, axis, descending, values, indices);
  });
}

void searchsorted(const Array& sorted, const Array& values, bool right, const Array& out) {
  if (values.size() == 0) return;
  dispatch_dtype(values.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if (right)
      searchsorted_typed<T, true>(sorted, values, out);
    else
      searchsorted_typed<T, false>(sorted, values, out);
  });
}

}  // namespace accel::cpu
