// The typed pieces of every CPU reduction: for each op, how one run of adjacent inputs reduces
// to a state (mode A of reduce_engine.h), how a row of inputs folds into a row of states
// (mode B), how two states combine, and what the output is. Included by the reduce_*.cpp files.
#pragma once
#include <algorithm>
#include <complex>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "accel/core/dtype.h"

namespace accel::cpu {

// Independent accumulators per run: enough to fill two AVX2 registers of floats, so the
// compiler keeps them in vector registers and the adds do not wait on each other.
inline constexpr int kLanes = 16;
// Contiguous loops ask for memory this far ahead: the hardware prefetcher alone leaves these
// loops at a third of NumPy's speed on the EPYC VMs we measured (NumPy prefetches too).
inline constexpr int64_t kPrefetchBytes = 1024;
// Runs longer than this are split in halves (NumPy's pairwise summation, with bigger blocks).
inline constexpr int64_t kPairwiseBlock = 256;

// Integer sums and products wrap around like NumPy's: they run in an unsigned type at least as
// wide as int (no signed overflow, no promotion to int) and are narrowed at the end.
template <class T, class = void> struct WrapOf { using type = T; };
template <class T>
struct WrapOf<T, std::enable_if_t<std::is_integral_v<T> && !std::is_same_v<T, bool>>> {
  using type = std::conditional_t<(sizeof(T) < 4), uint32_t, std::make_unsigned_t<T>>;
};
template <class T> using Wrap = typename WrapOf<T>::type;

template <class T> inline bool is_nan(const T& v) {
  if constexpr (std::is_floating_point_v<T>) return v != v;
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
    (std::is_same_v<Acc, double> && std::is_integral_v<In>);

// n elements at stride s folded with kLanes accumulators, then the lanes folded as a tree.
template <class A, class In, class Load, class Comb>
inline A lane_reduce(const In* p, int64_t n, int64_t s, A init, Load load, Comb comb) {
  A r[kLanes];
  for (int k = 0; k < kLanes; ++k) r[k] = init;
  int64_t i = 0;
  if (s == 1) {
    constexpr int64_t ahead = kPrefetchBytes / static_cast<int64_t>(sizeof(In));
    for (; i + kLanes <= n; i += kLanes) {
      __builtin_prefetch(p + i + ahead, 0, 3);
      for (int k = 0; k < kLanes; ++k) r[k] = comb(r[k], load(p[i + k]));
    }
  } else {
    for (; i + kLanes <= n; i += kLanes)
      for (int k = 0; k < kLanes; ++k) r[k] = comb(r[k], load(p[(i + k) * s]));
  }
  for (int w = kLanes / 2; w >= 1; w /= 2)
    for (int k = 0; k < w; ++k) r[k] = comb(r[k], r[k + w]);
  A out = r[0];
  for (; i < n; ++i) out = comb(out, load(p[i * s]));
  return out;
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
    else return static_cast<State>(IsSum ? a + b : a * b);
  }
  static State reduce_run(const In* p, int64_t n, int64_t s) {
    if constexpr (kPairwise) {
      if (n > kPairwiseBlock) {
        // Split on block boundaries so every leaf but the last is a whole block (no tails).
        int64_t half = (n / kPairwiseBlock + 1) / 2 * kPairwiseBlock;
        return combine(reduce_run(p, half, s), reduce_run(p + half * s, n - half, s));
      }
    }
    return lane_reduce(p, n, s, identity(), load, combine);
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
  // Lane combine: a NaN, once seen, stays (comparisons with it are false).
  // (`|`, not `||`: no branch, so the lanes vectorize into compare-and-blend.)
  static T pick(T a, T b) { return (beats(b, a) | is_nan(b)) ? b : a; }
  static T identity() {
    if constexpr (is_complex_v<T>) {
      using R = typename T::value_type;
      R v = IsMax ? -std::numeric_limits<R>::infinity() : std::numeric_limits<R>::infinity();
      return T(v, v);
    } else if constexpr (std::is_floating_point_v<T>) {
      return IsMax ? -std::numeric_limits<T>::infinity() : std::numeric_limits<T>::infinity();
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
  static State reduce_run(const T* p, int64_t n, int64_t s) {
    return lane_reduce(p, n, s, identity(), [](T x) { return x; }, Order::pick);
  }
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
  // Runs are scanned in blocks: a vectorized extreme per block, then a search for its position
  // only in blocks that improve on the best so far.
  static constexpr int64_t kBlock = 256;

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
      const T m = lane_reduce(p + b * s, e - b, s, Order::identity(), [](T x) { return x; },
                              Order::pick);
      if (best.i >= 0 && !better(m, best.v)) continue;
      const bool nan = is_nan(m);
      for (int64_t j = b; j < e; ++j) {
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
  static State reduce_run(const T* p, int64_t n, int64_t s) {
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
    fold_row(acc, row, n, s, [](bool a, T x) { return IsAny ? (a || decides(x)) : (a && !decides(x)); });
  }
  static Out finish(State s) { return s; }
};

}  // namespace accel::cpu
