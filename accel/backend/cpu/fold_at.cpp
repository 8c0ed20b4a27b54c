// ufunc_at on the CPU: one thread walks the listed positions in order, as NumPy's ufunc.at
// does. In order and in one thread is what makes it NumPy's answer (a float sum of repeated
// positions is not reassociated), and it needs no sort. The ops ufunc.at is mostly used for
// (add: histograms and scatter-adds; multiply, maximum, minimum, subtract) have typed walks
// that call the scalar functor inline; every other op calls its inner loop
// (elementwise_loops.h) on one element at a time.
//
// ufunc_reduceat's segments are independent, so they are folded on every thread. A float sum
// is the segment's first element plus NumPy's pairwise sum of the rest (numpy_pairwise along a
// run, pairwise_rows lane by lane along rows), which makes it NumPy's to the bit; maximum and
// minimum of a run reduce in vector lanes as max and min do (reduce_ops.h); the other ops fold
// in order, a run element by element, rows row after row with the op's inner loop.
#include "accel/backend/cpu/fold_at.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <type_traits>
#include <vector>

#include "accel/backend/cpu/elementwise_loops.h"
#include "accel/backend/cpu/reduce_ops.h"
#include "accel/backend/cpu/thread_pool.h"
#include "accel/backend/fold_at.h"
#include "accel/device_src/scalar_ops.h"
#include "accel/runtime/errors.h"

namespace accel::cpu {
namespace {

template <class Op, class T>
void typed_walk(T* dst, const int64_t* at, const T* values, int64_t step, int64_t n) {
  if (step == 0) {
    const T v = values[0];
    for (int64_t k = 0; k < n; ++k) dst[at[k]] = Op::apply(dst[at[k]], v);
    return;
  }
  for (int64_t k = 0; k < n; ++k) dst[at[k]] = Op::apply(dst[at[k]], values[k]);
}

// Integer sums (wrapping), maxima and minima are the same in any order, so a long list of
// positions into a small array (bincount, histogram's counts) folds on every thread: each into
// its own copy of the array, started from the op's identity (the first thread into the array
// itself), the copies then folded in. Floats stay in one ordered walk (NumPy's sums).
constexpr int64_t kParallelPositions = 1 << 16;
constexpr int64_t kPrivateElements = 1 << 15;  // per thread: 256 KB of int64, in L2

template <class Op, class T> constexpr bool order_free() {
  return std::is_integral_v<T> && !std::is_same_v<T, bool> &&
         (std::is_same_v<Op, scalar::AddOp> || std::is_same_v<Op, scalar::MaximumOp> ||
          std::is_same_v<Op, scalar::MinimumOp>);
}

template <class Op, class T> T identity_of() {
  if constexpr (std::is_same_v<Op, scalar::AddOp>) return T(0);
  else if constexpr (std::is_same_v<Op, scalar::MaximumOp>) return std::numeric_limits<T>::lowest();
  else return std::numeric_limits<T>::max();
}

template <class Op, class T>
void parallel_walk(T* dst, int64_t size, const int64_t* at, const T* values, int64_t step,
                   int64_t n, int parts) {
  std::vector<T> copies(static_cast<size_t>((parts - 1) * size), identity_of<Op, T>());
  parallel_for(parts, 1, [&](int64_t p0, int64_t p1) {
    for (int64_t p = p0; p < p1; ++p) {
      T* into = p == 0 ? dst : copies.data() + (p - 1) * size;
      const int64_t begin = n * p / parts, end = n * (p + 1) / parts;
      typed_walk<Op>(into, at + begin, values + begin * step, step, end - begin);
    }
  });
  for (int p = 1; p < parts; ++p) {
    const T* copy = copies.data() + (p - 1) * size;
    for (int64_t i = 0; i < size; ++i) dst[i] = Op::apply(dst[i], copy[i]);
  }
}

template <class Op>
bool try_typed(const Array& dst, const Array& positions, const Array& values) {
  return dispatch_dtype(dst.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    // float16 and bfloat16 compute in float (half_loops.h): their inner loops do that.
    if constexpr (is_narrow_float_v<T>) {
      return false;
    } else {
      const int64_t n = positions.size(), step = values.size() == 1 ? 0 : 1;
      if constexpr (order_free<Op, T>()) {
        const int parts = num_threads();
        if (parts > 1 && n >= kParallelPositions && dst.size() <= kPrivateElements) {
          parallel_walk<Op>(dst.data<T>(), dst.size(), positions.data<int64_t>(), values.data<T>(),
                            step, n, parts);
          return true;
        }
      }
      typed_walk<Op>(dst.data<T>(), positions.data<int64_t>(), values.data<T>(), step, n);
      return true;
    }
  });
}

bool typed(OpId op, const Array& dst, const Array& positions, const Array& values) {
  switch (op) {
    case OpId::add:
      return try_typed<scalar::AddOp>(dst, positions, values);
    case OpId::subtract:
      return try_typed<scalar::SubtractOp>(dst, positions, values);
    case OpId::multiply:
      return try_typed<scalar::MultiplyOp>(dst, positions, values);
    case OpId::maximum:
      return try_typed<scalar::MaximumOp>(dst, positions, values);
    case OpId::minimum:
      return try_typed<scalar::MinimumOp>(dst, positions, values);
    default:
      return false;
  }
}

InnerLoop loop_of(OpId op, Dtype dtype, const char* what) {
  const InnerLoop loop = elementwise_loop(op, dtype);
  if (!loop)
    throw DTypeError(std::string("[") + what + "] no CPU loop of " + op_name(op) + " for " +
                     dtype_name(dtype));
  return loop;
}

// The end of segment k of `m` over rows [0, n): backend/fold_at.h.
int64_t segment_stop(const int64_t* starts, int64_t k, int64_t m, int64_t n) {
  const int64_t stop = k + 1 < m ? starts[k + 1] : n;
  return stop > starts[k] ? stop : starts[k] + 1;
}

// p[0] op p[1] op ... op p[len - 1], left to right, for a contiguous run of len >= 1.
template <class T> using RunFold = T (*)(const T* p, int64_t len);

// NumPy's pairwise sum (its loops_utils.h) of n reals at p, or of n / 2 complex numbers stored
// as n interleaved reals: eight accumulators over blocks of up to 128 reals, longer runs split in
// halves on multiples of 8, fewer than 8 added in order from -0.0. Grouped exactly as NumPy groups
// them, so a segment's sum is NumPy's to the bit (-0.0s included); the accumulators are one or
// two vectors.
template <class R, bool Complex> void numpy_pairwise(const R* p, int64_t n, R* re, R* im) {
  if (n < 8) {
    R a = -R(0), b = -R(0);
    for (int64_t i = 0; i < n; i += Complex ? 2 : 1) {
      a += p[i];
      if constexpr (Complex) b += p[i + 1];
    }
    *re = a;
    *im = b;
  } else if (n <= 128) {
    R r[8];
    for (int k = 0; k < 8; ++k) r[k] = p[k];
    int64_t i = 8;
    for (; i < n - n % 8; i += 8)
      for (int k = 0; k < 8; ++k) r[k] += p[i + k];
    if constexpr (Complex) {
      R a = (r[0] + r[2]) + (r[4] + r[6]), b = (r[1] + r[3]) + (r[5] + r[7]);
      for (; i < n; i += 2) {
        a += p[i];
        b += p[i + 1];
      }
      *re = a;
      *im = b;
    } else {
      R a = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
      for (; i < n; ++i) a += p[i];
      *re = a;
      *im = R(0);
    }
  } else {
    int64_t half = n / 2;
    half -= half % 8;
    R a1, b1, a2, b2;
    numpy_pairwise<R, Complex>(p, half, &a1, &b1);
    numpy_pairwise<R, Complex>(p + half, n - half, &a2, &b2);
    *re = a1 + a2;
    *im = b1 + b2;
  }
}

// NumPy's reduceat sum: the segment's first element plus the pairwise sum of the rest (integers
// wrap as the sum's reduction does).
template <class T> T run_add(const T* p, int64_t len) {
  if (len == 1) return p[0];
  if constexpr (std::is_floating_point_v<T>) {
    T rest, unused;
    numpy_pairwise<T, false>(p + 1, len - 1, &rest, &unused);
    return p[0] + rest;
  } else if constexpr (is_complex_v<T>) {
    using R = typename T::value_type;
    R re, im;
    numpy_pairwise<R, true>(reinterpret_cast<const R*>(p + 1), 2 * (len - 1), &re, &im);
    return T(p[0].real() + re, p[0].imag() + im);
  } else {
    using S = SumProdOp<T, T, true>;
    return S::finish(S::combine(S::load(p[0]), S::reduce_run(p + 1, len - 1, 1)));
  }
}

template <class T, bool IsMax> T run_extreme(const T* p, int64_t len) {
  using E = ExtremeOrder<T, IsMax>;
  return len == 1 ? p[0] : E::pick(p[0], E::reduce(p + 1, len - 1, 1));
}

template <class Op, class T> T run_in_order(const T* p, int64_t len) {
  T acc = p[0];
  for (int64_t j = 1; j < len; ++j) acc = Op::apply(acc, p[j]);
  return acc;
}

// The typed fold of a run for the ops reduceat is mostly used with; nullptr for the others
// and for float16 / bfloat16 (whose inner loops round every step, as the GPU's fold does).
template <class T> RunFold<T> typed_run(OpId op) {
  if constexpr (is_narrow_float_v<T>) {
    return nullptr;
  } else {
    switch (op) {
      case OpId::add:
        return run_add<T>;
      case OpId::maximum:
        return run_extreme<T, true>;
      case OpId::minimum:
        return run_extreme<T, false>;
      case OpId::multiply:
        return run_in_order<scalar::MultiplyOp, T>;
      case OpId::subtract:
        return run_in_order<scalar::SubtractOp, T>;
      default:
        return nullptr;
    }
  }
}

// Segments along contiguous runs (inner == 1): one task per (outer, segment).
void fold_runs(OpId op, const Array& out, const Array& src, const int64_t* starts, int64_t m,
               int64_t n, int64_t outer, int64_t grain) {
  const bool done = dispatch_dtype(out.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const RunFold<T> fold = typed_run<T>(op);
    if (!fold) return false;
    T* o = out.data<T>();
    const T* x = src.data<T>();
    parallel_for(outer * m, grain, [&](int64_t begin, int64_t end) {
      for (int64_t t = begin; t < end; ++t) {
        const int64_t row = t / m, k = t % m;
        o[t] = fold(x + row * n + starts[k], segment_stop(starts, k, m, n) - starts[k]);
      }
    });
    return true;
  });
  if (done) return;
  // Every other op, and float16 / bfloat16: the inner loop on one element at a time (a sum from
  // the segment's second element, its first added last: sums_rest_first).
  const InnerLoop loop = loop_of(op, out.dtype(), "ufunc_reduceat");
  const bool rest_first = sums_rest_first(op, out.dtype());
  const int64_t isz = static_cast<int64_t>(out.itemsize());
  char* o = static_cast<char*>(out.data());
  const char* x = static_cast<const char*>(src.data());
  parallel_for(outer * m, grain, [&](int64_t begin, int64_t end) {
    const int64_t strides[3] = {0, 0, 0};
    alignas(16) char current[16];
    // (the loops take their operands as __restrict: the running value is read from a copy)
    auto step = [&](const char* a, const char* b, char* into) {
      char* const ptrs[3] = {const_cast<char*>(a), const_cast<char*>(b), into};
      loop(ptrs, strides, 1);
    };
    for (int64_t t = begin; t < end; ++t) {
      const int64_t row = t / m, k = t % m;
      const char* p = x + (row * n + starts[k]) * isz;
      const int64_t len = segment_stop(starts, k, m, n) - starts[k];
      const int64_t first = rest_first && len > 1 ? 1 : 0;
      char* dst = o + t * isz;
      std::memcpy(dst, p + first * isz, static_cast<size_t>(isz));
      for (int64_t j = first + 1; j < len; ++j) {
        std::memcpy(current, dst, static_cast<size_t>(isz));
        step(current, p + j * isz, dst);
      }
      if (first == 1) {
        std::memcpy(current, dst, static_cast<size_t>(isz));
        step(p, current, dst);
      }
    }
  });
}

// Rows of a tile: `count` rows of `width` elements, `step` elements apart.
template <class T> struct Rows {
  const T* first;
  int64_t count, step, width;
  const T* operator[](int64_t r) const { return first + r * step; }
};

// numpy_pairwise lane by lane over rows: sum = the rows summed as NumPy sums each lane (the
// lane's elements are strided there, grouped the same). L accumulator rows: 8 for reals, 4 for
// complex numbers (NumPy's eight real accumulators, re and im interleaved); blocks of 16 L rows;
// halves split as numpy_pairwise splits them. acc: L rows of scratch; levels: one row of scratch
// per level of halving below this one.
template <class T, int L> void pairwise_rows(const Rows<T>& rows, T* sum, T* acc, T* levels) {
  const int64_t w = rows.width;
  auto add_row = [w](T* into, const T* row) {
    for (int64_t j = 0; j < w; ++j) into[j] += row[j];
  };
  if (rows.count < L) {  // in order (from -0.0, which changes no addend)
    std::copy(rows[0], rows[0] + w, sum);
    for (int64_t r = 1; r < rows.count; ++r) add_row(sum, rows[r]);
  } else if (rows.count <= 16 * L) {
    for (int k = 0; k < L; ++k) std::copy(rows[k], rows[k] + w, acc + k * w);
    int64_t r = L;
    for (; r < rows.count - rows.count % L; r += L)
      for (int k = 0; k < L; ++k) add_row(acc + k * w, rows[r + k]);
    for (int64_t j = 0; j < w; ++j) {
      const T* a = acc + j;
      if constexpr (L == 8)
        sum[j] = ((a[0] + a[w]) + (a[2 * w] + a[3 * w])) + ((a[4 * w] + a[5 * w]) + (a[6 * w] + a[7 * w]));
      else
        sum[j] = (a[0] + a[w]) + (a[2 * w] + a[3 * w]);
    }
    for (; r < rows.count; ++r) add_row(sum, rows[r]);
  } else {
    // NumPy halves its count of reals and rounds down to a multiple of 8.
    const int64_t half = L == 8 ? rows.count / 2 - rows.count / 2 % 8 : (rows.count - rows.count % 8) / 2;
    pairwise_rows<T, L>({rows.first, half, rows.step, w}, sum, acc, levels);
    pairwise_rows<T, L>({rows[half], rows.count - half, rows.step, w}, levels, acc, levels + w);
    add_row(sum, levels);
  }
}

// Sums of float and complex rows as NumPy's reduceat sums them: the first row plus the
// pairwise sum of the rest (sums_rest_first), NumPy's answer to the bit. False for other
// dtypes (float16 and bfloat16 take the inner loops).
bool sum_rows(const Array& out, const Array& src, const int64_t* starts, int64_t m, int64_t n,
              int64_t outer, int64_t inner, int64_t grain) {
  return dispatch_dtype(out.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_floating_point_v<T> || is_complex_v<T>) {
      constexpr int L = is_complex_v<T> ? 4 : 8;
      constexpr int64_t kTile = 256;
      const int64_t tiles = (inner + kTile - 1) / kTile;
      T* o = out.data<T>();
      const T* x = src.data<T>();
      parallel_for(outer * m * tiles, grain, [&](int64_t begin, int64_t end) {
        // L accumulator rows, the rest's sum, and a row per level of halving (64 > log2 n).
        std::vector<T> scratch(static_cast<size_t>((L + 1 + 64) * std::min(inner, kTile)));
        for (int64_t t = begin; t < end; ++t) {
          const int64_t tile = t % tiles, k = (t / tiles) % m, row = t / (tiles * m);
          const int64_t column = tile * kTile, w = std::min(kTile, inner - column);
          const T* lane = x + row * n * inner + column;  // src[row, 0, column]
          T* dst = o + (row * m + k) * inner + column;
          const int64_t start = starts[k], len = segment_stop(starts, k, m, n) - start;
          const T* head = lane + start * inner;
          if (len == 1) {
            std::copy(head, head + w, dst);
            continue;
          }
          T* acc = scratch.data();
          T* rest = acc + L * w;
          pairwise_rows<T, L>({head + inner, len - 1, inner, w}, rest, acc, rest + w);
          for (int64_t j = 0; j < w; ++j) dst[j] = head[j] + rest[j];
        }
      });
      return true;
    } else {
      return false;
    }
  });
}

// Segments of rows (inner > 1): each task folds one tile of a segment's rows with the op's
// inner loop, alternating between the output and a scratch tile (the loops take distinct
// operands), arranged so the last step writes the output. Sums of floats take the first row
// last (sums_rest_first): pairwise, as NumPy, for float32 / float64 / complex (sum_rows), the
// rest in order for float16 / bfloat16.
void fold_rows(OpId op, const Array& out, const Array& src, const int64_t* starts, int64_t m,
               int64_t n, int64_t outer, int64_t inner, int64_t grain) {
  const bool rest_first = sums_rest_first(op, out.dtype());
  if (rest_first && sum_rows(out, src, starts, m, n, outer, inner, grain)) return;
  constexpr int64_t kTile = 2048;
  const InnerLoop loop = loop_of(op, out.dtype(), "ufunc_reduceat");
  const int64_t isz = static_cast<int64_t>(out.itemsize());
  const int64_t tiles = (inner + kTile - 1) / kTile;
  char* o = static_cast<char*>(out.data());
  const char* x = static_cast<const char*>(src.data());
  parallel_for(outer * m * tiles, grain, [&](int64_t begin, int64_t end) {
    std::vector<char> scratch(static_cast<size_t>(std::min(inner, kTile) * isz));
    const int64_t strides[3] = {isz, isz, isz};
    for (int64_t t = begin; t < end; ++t) {
      const int64_t tile = t % tiles, k = (t / tiles) % m, row = t / (tiles * m);
      const int64_t column = tile * kTile, width = std::min(kTile, inner - column);
      const char* lane = x + (row * n * inner + column) * isz;  // src[row, 0, column]
      char* dst = o + ((row * m + k) * inner + column) * isz;
      const int64_t start = starts[k], len = segment_stop(starts, k, m, n) - start;
      const bool rest = rest_first && len > 1;
      const int64_t first = rest ? start + 1 : start;
      auto row_at = [&](int64_t r) { return const_cast<char*>(lane + r * inner * isz); };
      char* acc = row_at(first);
      if (len == 1) std::memcpy(dst, acc, static_cast<size_t>(width * isz));
      for (int64_t j = 1; j < len; ++j) {
        char* into = (len - 1 - j) % 2 == 0 ? dst : scratch.data();
        // The last step of a rest-first sum adds the first row, as NumPy's x[start] + rest.
        const bool first_row = rest && j == len - 1;
        char* const ptrs[3] = {first_row ? row_at(start) : acc,
                               first_row ? acc : row_at(first + j), into};
        loop(ptrs, strides, width);
        acc = into;
      }
    }
  });
}

}  // namespace

void fold_segments(OpId op, const Array& out, const Array& src, const Array& starts,
                   int64_t outer, int64_t n, int64_t inner) {
  const int64_t m = starts.size();
  if (out.size() == 0) return;
  // Tasks of about 32K elements each (a hand-off costs microseconds); segments are of any
  // length, so this counts the average.
  const int64_t per_task = std::max<int64_t>(n / m, 1) * std::min<int64_t>(inner, 2048);
  const int64_t grain = std::max<int64_t>((int64_t{1} << 15) / per_task, 1);
  if (inner == 1)
    fold_runs(op, out, src, starts.data<int64_t>(), m, n, outer, grain);
  else
    fold_rows(op, out, src, starts.data<int64_t>(), m, n, outer, inner, grain);
}

void fold_at(OpId op, const Array& dst, const Array& positions, const Array& values) {
  if (typed(op, dst, positions, values)) return;
  const InnerLoop loop = elementwise_loop(op, dst.dtype());
  if (!loop)
    throw DTypeError(std::string("[ufunc_at] no CPU loop of ") + op_name(op) + " for " +
                     dtype_name(dst.dtype()));
  char* base = static_cast<char*>(dst.data());
  const char* vals = static_cast<const char*>(values.data());
  const int64_t* at = positions.data<int64_t>();
  const size_t isz = dst.itemsize();
  const int64_t strides[3] = {0, 0, 0};  // one element per call
  const int64_t value_step = values.size() == 1 ? 0 : static_cast<int64_t>(isz);
  // The loops take their operands as __restrict: the element is read from a copy.
  alignas(16) char current[16];
  for (int64_t k = 0, n = positions.size(); k < n; ++k) {
    char* element = base + at[k] * static_cast<int64_t>(isz);
    std::memcpy(current, element, isz);
    char* const ptrs[3] = {current, const_cast<char*>(vals + k * value_step), element};
    loop(ptrs, strides, 1);
  }
}

}  // namespace accel::cpu
