// The typed pieces of every CPU reduction: for each op, how one run of adjacent inputs reduces
// to a state (mode A of reduce_engine.h), how a row of inputs folds into a row of states
// (mode B), how two states combine, and what the output is. Included by the reduce_*.cpp files.
#pragma once
#include <algorithm>
#include <complex>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#include "accel/core/dtype.h"

namespace accel::cpu {

// Independent accumulators per run: enough to fill two AVX2 registers of floats, so the
// compiler keeps them in vector registers and the adds do not wait on each other.
inline constexpr int kLanes = 16;
// Runs longer than this are split in halves (NumPy's pairwise summation, with bigger blocks).
inline constexpr int64_t kPairwiseBlock = 1024;

// Integer sums and products wrap around like NumPy's: they run in an unsigned type at least as
// wide as int (no signed overflow, no promotion to int) and are narrowed at the end.
template <class T, class = void> struct WrapOf { using type = T; };
template <class T>
struct WrapOf<T, std::enable_if_t<std::is_integral_v<T> && !std::is_same_v<T, bool>>> {
  using type = std::conditional_t<(sizeof(T) < 4), uint32_t, std::make_unsigned_t<T>>;
};
// float16 and bfloat16 sums and products run in float and are rounded once at the end, as
// NumPy's pairwise sum of float16.
template <class T> struct WrapOf<T, std::enable_if_t<is_narrow_float_v<T>>> { using type = float; };
template <class T> using Wrap = typename WrapOf<T>::type;

template <class T> inline bool is_nan(const T& v) {
  if constexpr (std::is_floating_point_v<T> || is_narrow_float_v<T>) return v != v;
  else if constexpr (is_complex_v<T>) return v.real() != v.real() || v.imag() != v.imag();
  else return false;
}

// Input -> accumulator conversions done while reading (no converted copy of the input): the
// defaults of sum/prod/cumsum (small ints widen to int64/uint64) and mean of ints (float64).
template <class In, class Acc> inline constexpr bool kFusedConversion =
    std::is_same_v<In, Acc> ||
    (std::is_same_v<Acc, int64_t> && (std::is_signed_v<In> || std::is_same_v<In, bool>) &&
     std::is_integral_v<In>) ||
    (std::is_same_v<Acc, uint64_t> && std::is_unsigned_v<In> && !std::is_same_v<In, bool>) ||
    (std::is_same_v<Acc, double> && std::is_integral_v<In>) ||
    (std::is_same_v<Acc, float> && is_narrow_float_v<In>);  // mean of float16, bfloat16

// n elements at stride s folded with kLanes accumulators, then the lanes folded as a tree.
template <class A, class In, class Load, class Comb>
inline A lane_reduce(const In* p, int64_t n, int64_t s, A init, Load load, Comb comb) {
  A r[kLanes];
  for (int k = 0; k < kLanes; ++k) r[k] = init;
  int64_t i = 0;
  for (; i + kLanes <= n; i += kLanes)
    for (int k = 0; k < kLanes; ++k) r[k] = comb(r[k], load(p[(i + k) * s]));
  for (int w = kLanes / 2; w >= 1; w /= 2)
    for (int k = 0; k < w; ++k) r[k] = comb(r[k], r[k + w]);
  A out = r[0];
  // The tail, fewer than kLanes elements, walked by pointer.
  const In* q = p + i * s;
  for (int64_t left = n - i; left > 0; --left, q += s) out = comb(out, load(*q));
  return out;
}

// One 32-byte (AVX2) register of T, through the GCC/Clang vector extensions: the compiler does
// not turn the scalar lanes above into vector code reliably (selects, wide unrolls).
template <class T> struct Vec32 {
  typedef T type __attribute__((vector_size(32)));
};

// The nonzero bytes of a contiguous run (a bool array's, bytes of 0 or 1), 32 at a time in byte
// counters that cannot overflow in 255 steps: count_nonzero(mask) and sum(mask) went through a
// widening per element at a third of NumPy's count_nonzero speed.
inline int64_t count_nonzero_bytes(const uint8_t* p, int64_t n) {
  using V = Vec32<uint8_t>::type;
  int64_t total = 0, i = 0;
  while (n - i >= 32) {
    const int64_t vectors = std::min<int64_t>((n - i) / 32, 255);
    V acc = {};
    for (int64_t v = 0; v < vectors; ++v, i += 32) {
      V x;
      std::memcpy(&x, p + i, sizeof(V));
      acc += reinterpret_cast<V>(x != 0) & 1;
    }
    for (int k = 0; k < 32; ++k) total += acc[k];
  }
  for (; i < n; ++i) total += p[i] != 0;
  return total;
}

// Whether a contiguous run of In can be read straight into vectors of the accumulator A: the
// same type, or integers of the same width (int64 summed as wrapping uint64).
template <class A, class In>
inline constexpr bool kVectorRun =
    std::is_arithmetic_v<A> && !std::is_same_v<A, bool> && !std::is_same_v<In, bool> &&
    sizeof(A) == sizeof(In) &&
    (std::is_same_v<A, In> || (std::is_integral_v<A> && std::is_integral_v<In>));

// A contiguous run folded into four vectors of accumulators (vcomb on whole vectors), then
// their lanes folded as a tree with comb.
template <class A, class In, class VComb, class Comb>
inline A vector_reduce(const In* p, int64_t n, A init, VComb vcomb, Comb comb) {
  using V = typename Vec32<A>::type;
  constexpr int W = 32 / sizeof(A);
  V r0, r1, r2, r3;
  for (int k = 0; k < W; ++k) r0[k] = r1[k] = r2[k] = r3[k] = init;
  int64_t i = 0;
  for (; i + 4 * W <= n; i += 4 * W) {
    V x0, x1, x2, x3;
    std::memcpy(&x0, p + i, sizeof(V));
    std::memcpy(&x1, p + i + W, sizeof(V));
    std::memcpy(&x2, p + i + 2 * W, sizeof(V));
    std::memcpy(&x3, p + i + 3 * W, sizeof(V));
    r0 = vcomb(r0, x0);
    r1 = vcomb(r1, x1);
    r2 = vcomb(r2, x2);
    r3 = vcomb(r3, x3);
  }
  r0 = vcomb(vcomb(r0, r1), vcomb(r2, r3));
  for (; i + W <= n; i += W) {
    V x;
    std::memcpy(&x, p + i, sizeof(V));
    r0 = vcomb(r0, x);
  }
  A lanes[W];
  std::memcpy(lanes, &r0, sizeof(V));
  for (int w = W / 2; w >= 1; w /= 2)
    for (int k = 0; k < w; ++k) lanes[k] = comb(lanes[k], lanes[k + w]);
  A out = lanes[0];
  for (; i < n; ++i) {
    A x;
    std::memcpy(&x, p + i, sizeof(A));
    out = comb(out, x);
  }
  return out;
}

// A contiguous run of floats summed pairwise with vector states: each block of kPairwiseBlock
// elements is summed into one vector (four accumulators), the block vectors are folded by a
// binary counter (as RunFolder folds runs: O(log n) rounding error), and the lanes are added
// once at the end. Folding the lanes of every block cost as much as the block's own adds
// (float32 sum of 1e7 ran at 0.66x NumPy); a vector add per block costs nothing.
template <class A> inline A pairwise_vector_sum(const A* p, int64_t n) {
  using V = typename Vec32<A>::type;
  constexpr int W = 32 / sizeof(A);
  V parts[64];
  int64_t counts[64];
  int depth = 0;
  int64_t i = 0;
  for (; i + kPairwiseBlock <= n; i += kPairwiseBlock) {
    V r0 = {}, r1 = {}, r2 = {}, r3 = {};
    for (int64_t j = i; j < i + kPairwiseBlock; j += 4 * W) {
      V x0, x1, x2, x3;
      std::memcpy(&x0, p + j, sizeof(V));
      std::memcpy(&x1, p + j + W, sizeof(V));
      std::memcpy(&x2, p + j + 2 * W, sizeof(V));
      std::memcpy(&x3, p + j + 3 * W, sizeof(V));
      r0 += x0;
      r1 += x1;
      r2 += x2;
      r3 += x3;
    }
    parts[depth] = (r0 + r1) + (r2 + r3);
    counts[depth++] = 1;
    while (depth >= 2 && counts[depth - 1] == counts[depth - 2]) {
      parts[depth - 2] += parts[depth - 1];
      counts[depth - 2] *= 2;
      --depth;
    }
  }
  V total = {};
  if (depth > 0) {
    total = parts[depth - 1];
    for (int k = depth - 2; k >= 0; --k) total = parts[k] + total;
  }
  A lanes[W];
  std::memcpy(lanes, &total, sizeof(V));
  for (int w = W / 2; w >= 1; w /= 2)
    for (int k = 0; k < w; ++k) lanes[k] += lanes[k + w];
  if (i == n) return lanes[0];
  return lanes[0] + vector_reduce(p + i, n - i, A(0), [](auto a, auto b) { return a + b; },
                                  [](A a, A b) { return a + b; });
}

// acc[j] = f(acc[j], row[j * s], j) with a unit-stride path the compiler vectorizes.
template <class State, class In, class F>
inline void fold_row(State* acc, const In* row, int64_t n, int64_t s, F f) {
  if (s == 1) {
    for (int64_t j = 0; j < n; ++j) acc[j] = f(acc[j], row[j]);
  } else {
    for (int64_t j = 0; j < n; ++j) acc[j] = f(acc[j], row[j * s]);
  }
}

template <class In, class Acc, bool IsSum> struct SumProdOp {
  using InT = In;
  using State = Wrap<Acc>;
  using Out = Acc;
  static constexpr bool kPairwise = IsSum && !std::is_integral_v<Acc>;

  static State identity() { return State(IsSum ? 0 : 1); }
  static State load(In x) { return static_cast<State>(static_cast<Acc>(x)); }

  static State combine(State a, State b) {
    if constexpr (std::is_same_v<State, bool>) return IsSum ? (a || b) : (a && b);
    // Complex products as NumPy's reduce and accumulate loops: the textbook formula, unfused
    // (std::complex's operator* recovers infinities from NaNs, C's Annex G; only NumPy's
    // elementwise SIMD loop fuses multiply-adds, scalar::cmul).
    else if constexpr (!IsSum && is_complex_v<State>)
      return State(a.real() * b.real() - a.imag() * b.imag(),
                   a.real() * b.imag() + a.imag() * b.real());
    else return static_cast<State>(IsSum ? a + b : a * b);
  }
  static State reduce_run(const In* p, int64_t n, int64_t s) {
    if constexpr (IsSum && std::is_same_v<In, bool> && std::is_integral_v<Acc> &&
                  !std::is_same_v<Acc, bool>) {
      // (a narrower accumulator wraps as adding one at a time would: C++20 converts modulo
      // its width)
      if (s == 1)
        return static_cast<State>(
            static_cast<Acc>(count_nonzero_bytes(reinterpret_cast<const uint8_t*>(p), n)));
    }
    if constexpr (kPairwise && kVectorRun<State, In> && std::is_floating_point_v<State>) {
      if (s == 1 && n > kPairwiseBlock) return pairwise_vector_sum(p, n);
    }
    if constexpr (kPairwise) {
      if (n > kPairwiseBlock) {
        // Split on block boundaries so every leaf but the last is a whole block (no tails).
        int64_t half = (n / kPairwiseBlock + 1) / 2 * kPairwiseBlock;
        return combine(reduce_run(p, half, s), reduce_run(p + half * s, n - half, s));
      }
    }
    if constexpr (kVectorRun<State, In>) {
      if (s == 1)
        return vector_reduce(p, n, identity(), [](auto a, auto b) { return IsSum ? a + b : a * b; },
                             combine);
    }
    if constexpr (IsSum && is_complex_v<In> && std::is_same_v<In, Acc>) {
      if (s == 1) return complex_sum(p, n);
    }
    if constexpr (!IsSum && is_complex_v<State>) {
      // In order, as NumPy: once a product overflows, whether the parts end as inf or NaN
      // depends on which factors meet it, so independent lanes would change the answer.
      State acc = identity();
      for (int64_t i = 0; i < n; ++i) acc = combine(acc, load(p[i * s]));
      return acc;
    }
    return lane_reduce(p, n, s, identity(), load, combine);
  }
  // A contiguous complex run summed as interleaved (re, im) reals in vector lanes: even lanes
  // collect real parts, odd lanes imaginary parts.
  static State complex_sum(const In* p, int64_t n) {
    using R = typename In::value_type;
    using V = typename Vec32<R>::type;
    constexpr int W = 32 / sizeof(R);
    const R* q = reinterpret_cast<const R*>(p);
    const int64_t m = 2 * n;
    V r0 = {}, r1 = {}, r2 = {}, r3 = {};
    int64_t i = 0;
    for (; i + 4 * W <= m; i += 4 * W) {
      V x0, x1, x2, x3;
      std::memcpy(&x0, q + i, sizeof(V));
      std::memcpy(&x1, q + i + W, sizeof(V));
      std::memcpy(&x2, q + i + 2 * W, sizeof(V));
      std::memcpy(&x3, q + i + 3 * W, sizeof(V));
      r0 += x0;
      r1 += x1;
      r2 += x2;
      r3 += x3;
    }
    r0 = (r0 + r1) + (r2 + r3);
    R lanes[W];
    std::memcpy(lanes, &r0, sizeof(V));
    for (int w = W / 2; w >= 2; w /= 2)
      for (int k = 0; k < w; ++k) lanes[k] += lanes[k + w];
    State out(lanes[0], lanes[1]);
    for (int64_t j = i / 2; j < n; ++j) out += p[j];
    return out;
  }
  static State at(State s, int64_t) { return s; }
  static void accumulate(State* acc, const In* row, int64_t n, int64_t s, int64_t) {
    fold_row(acc, row, n, s, [](State a, In x) { return combine(a, load(x)); });
  }
  static Out finish(State s) { return static_cast<Out>(s); }
};

// min / max: NaN wins (NumPy), complex numbers compare lexicographically (NumPy).
template <class T, bool IsMax> struct ExtremeOrder {
  static bool beats(const T& b, const T& a) {  // b strictly before a in the op's order
    if constexpr (is_complex_v<T>) {
      if (IsMax) return b.real() > a.real() || (b.real() == a.real() && b.imag() > a.imag());
      return b.real() < a.real() || (b.real() == a.real() && b.imag() < a.imag());
    } else {
      return IsMax ? b > a : b < a;
    }
  }
  // Lane combine (a before b): a NaN, once seen, stays. A real NaN loses every comparison;
  // a complex one may not (NaN only in the imaginary part), so it is kept explicitly.
  // (`|`, not `||`: no branch, so the lanes vectorize into compare-and-blend.)
  static T pick(T a, T b) {
    if constexpr (is_complex_v<T>) return (!is_nan(a) && (beats(b, a) || is_nan(b))) ? b : a;
    else return (beats(b, a) | is_nan(b)) ? b : a;
  }
  // The same on whole vectors (b != b: NaN lanes).
  template <class V> static V vpick(V a, V b) { return ((IsMax ? b > a : b < a) | (b != b)) ? b : a; }
  // The extreme of a run. NumPy keeps the first NaN; the lanes may meet a later one first,
  // which matters for complex NaNs (their other part is compared), so those search again.
  static T reduce(const T* p, int64_t n, int64_t s) {
    if constexpr (kVectorRun<T, T>) {
      if (s == 1) return vector_reduce(p, n, identity(), [](auto a, auto b) { return vpick(a, b); }, pick);
    }
    const T m = lane_reduce(p, n, s, identity(), [](T x) { return x; }, pick);
    if constexpr (is_complex_v<T>) {
      if (is_nan(m))
        for (int64_t i = 0; i < n; ++i)
          if (is_nan(p[i * s])) return p[i * s];
    }
    return m;
  }
  static T identity() {
    if constexpr (is_complex_v<T>) {
      using R = typename T::value_type;
      R v = IsMax ? -std::numeric_limits<R>::infinity() : std::numeric_limits<R>::infinity();
      return T(v, v);
    } else if constexpr (std::is_floating_point_v<T>) {
      return IsMax ? -std::numeric_limits<T>::infinity() : std::numeric_limits<T>::infinity();
    } else if constexpr (is_narrow_float_v<T>) {
      return T(IsMax ? -std::numeric_limits<float>::infinity() : std::numeric_limits<float>::infinity());
    } else {
      return IsMax ? std::numeric_limits<T>::lowest() : std::numeric_limits<T>::max();
    }
  }
};

template <class T, bool IsMax> struct ExtremeOp {
  using InT = T;
  using State = T;
  using Out = T;
  using Order = ExtremeOrder<T, IsMax>;
  static constexpr bool kPairwise = false;

  static State identity() { return Order::identity(); }
  static State combine(State a, State b) { return Order::pick(a, b); }
  static State reduce_run(const T* p, int64_t n, int64_t s) { return Order::reduce(p, n, s); }
  static State at(State s, int64_t) { return s; }
  static void accumulate(State* acc, const T* row, int64_t n, int64_t s, int64_t) {
    fold_row(acc, row, n, s, Order::pick);
  }
  static Out finish(State s) { return s; }
};

template <class T> struct ArgState {
  T v;
  int64_t i;  // -1: nothing seen yet
};

// argmin / argmax: the first extreme value, or the first NaN.
template <class T, bool IsMax> struct ArgExtremeOp {
  using InT = T;
  using State = ArgState<T>;
  using Out = int64_t;
  using Order = ExtremeOrder<T, IsMax>;
  static constexpr bool kPairwise = false;
  // Runs are scanned in blocks: a vectorized extreme per block, then a vectorized search for its
  // position (from L1, the block just read) only in blocks that improve on the best so far.
  // Blocks of 256 paid a horizontal fold and a scalar search about every 256 elements: argmax
  // along a 3162-wide float32 row ran at 0.4-0.5x NumPy's speed.
  static constexpr int64_t kBlock = 4096;

  static bool better(const T& b, const T& a) {  // b, seen later, replaces a
    if (is_nan(a)) return false;
    return is_nan(b) || Order::beats(b, a);
  }
  static State identity() { return {T{}, -1}; }
  static State combine(State a, State b) {
    if (a.i < 0) return b;
    if (b.i < 0) return a;
    return better(b.v, a.v) ? b : a;
  }
  static State reduce_run(const T* p, int64_t n, int64_t s) {
    State best = identity();
    for (int64_t b = 0; b < n; b += kBlock) {
      const int64_t e = std::min(n, b + kBlock);
      const T m = Order::reduce(p + b * s, e - b, s);
      if (best.i >= 0 && !better(m, best.v)) continue;
      const bool nan = is_nan(m);
      int64_t j = b;
      if constexpr (kVectorRun<T, T>) {
        // Skip two vectors at a time that hold no match; the scalar loop finds it in the rest.
        using V = typename Vec32<T>::type;
        constexpr int64_t w = 32 / sizeof(T);
        const auto skip = [&](auto hit) {
          for (; j + 2 * w <= e; j += 2 * w) {
            V x0, x1;
            std::memcpy(&x0, p + j, sizeof(V));
            std::memcpy(&x1, p + j + w, sizeof(V));
            const auto h = hit(x0) | hit(x1);  // lanes of all ones where they match
            uint64_t q[4];
            std::memcpy(q, &h, sizeof(q));
            if ((q[0] | q[1]) | (q[2] | q[3])) break;
          }
        };
        V mv;
        for (int64_t k = 0; k < w; ++k) mv[k] = m;
        if (s == 1 && nan) skip([](V x) { return x != x; });
        if (s == 1 && !nan) skip([mv](V x) { return x == mv; });
      }
      for (; j < e; ++j) {
        const T v = p[j * s];
        if (nan ? is_nan(v) : v == m) {
          best = {v, j};
          break;
        }
      }
      if (nan) return best;
    }
    return best;
  }
  static State at(State s, int64_t pos) {
    s.i += pos;
    return s;
  }
  static void accumulate(State* acc, const T* row, int64_t n, int64_t s, int64_t r) {
    fold_row(acc, row, n, s, [r](State a, T v) { return (a.i < 0 || better(v, a.v)) ? State{v, r} : a; });
  }
  static Out finish(State s) { return s.i; }
};

// any / all: true as soon as a non-zero (any) or a zero (all) is seen.
template <class T, bool IsAny> struct LogicalOp {
  using InT = T;
  using State = bool;
  using Out = bool;
  static constexpr bool kPairwise = false;
  static constexpr int64_t kBlock = 4096;

  static bool decides(const T& x) { return IsAny ? x != T(0) : x == T(0); }
  static State identity() { return !IsAny; }
  static State combine(State a, State b) { return IsAny ? (a || b) : (a && b); }
  // Whether any element of a contiguous run decides, a block of vectors at a time.
  template <class U> static bool vector_hit(const U* p, int64_t n) {
    using V = typename Vec32<U>::type;
    constexpr int W = 32 / sizeof(U);
    const V zero = {};
    int64_t i = 0;
    for (; i + 4 * W <= n; i += 4 * W) {
      V x0, x1, x2, x3;
      std::memcpy(&x0, p + i, sizeof(V));
      std::memcpy(&x1, p + i + W, sizeof(V));
      std::memcpy(&x2, p + i + 2 * W, sizeof(V));
      std::memcpy(&x3, p + i + 3 * W, sizeof(V));
      const auto m = IsAny ? ((x0 != zero) | (x1 != zero) | (x2 != zero) | (x3 != zero))
                           : ((x0 == zero) | (x1 == zero) | (x2 == zero) | (x3 == zero));
      decltype(m) none = {};
      if (std::memcmp(&m, &none, sizeof(m)) != 0) return true;
    }
    for (; i < n; ++i)
      if (IsAny ? p[i] != U(0) : p[i] == U(0)) return true;
    return false;
  }
  static State reduce_run(const T* p, int64_t n, int64_t s) {
    if constexpr (std::is_arithmetic_v<T>) {
      if (s == 1) {
        if constexpr (std::is_same_v<T, bool>)  // bools are bytes holding 0 or 1
          return vector_hit(reinterpret_cast<const uint8_t*>(p), n) ? IsAny : !IsAny;
        else
          return vector_hit(p, n) ? IsAny : !IsAny;
      }
    }
    for (int64_t b = 0; b < n; b += kBlock) {
      const int64_t e = std::min(n, b + kBlock);
      const unsigned char hit = lane_reduce(
          p + b * s, e - b, s, static_cast<unsigned char>(0),
          [](T x) { return static_cast<unsigned char>(decides(x)); },
          [](unsigned char a, unsigned char c) { return static_cast<unsigned char>(a | c); });
      if (hit) return IsAny;
    }
    return !IsAny;
  }
  static State at(State s, int64_t) { return s; }
  static void accumulate(State* acc, const T* row, int64_t n, int64_t s, int64_t) {
    // `|` / `&`, not `||` / `&&`: no branch per element, so the row loop vectorizes.
    fold_row(acc, row, n, s, [](bool a, T x) { return IsAny ? (a | decides(x)) : (a & !decides(x)); });
  }
  static Out finish(State s) { return s; }
};

}  // namespace accel::cpu
