// CUDA reductions: the reduction ops (what a state is, how an input element becomes one, how
// two combine, what is written) built from the scalar functors of scalar_ops.h, and the
// kernels that run any of them over a ReduceParams layout (reduce_params.h). Compiled by NVRTC
// after nvrtc_std.cuh, scalar_ops.h and reduce_params.h with -default-device; the host
// emulator of the tests compiles the same text with the host compiler.
#pragma once

namespace accel::kernels {

// Integer sums and products wrap around like NumPy's: they run in an unsigned type at least as
// wide as int and are narrowed at the end (as the CPU backend's reduce_ops.h).
template <class T> struct WrapOf { using type = T; };
template <> struct WrapOf<int8_t> { using type = uint32_t; };
template <> struct WrapOf<int16_t> { using type = uint32_t; };
template <> struct WrapOf<int32_t> { using type = uint32_t; };
template <> struct WrapOf<int64_t> { using type = uint64_t; };
template <> struct WrapOf<uint8_t> { using type = uint32_t; };
template <> struct WrapOf<uint16_t> { using type = uint32_t; };
template <> struct WrapOf<uint32_t> { using type = uint32_t; };
template <> struct WrapOf<uint64_t> { using type = uint64_t; };
// float16 and bfloat16 sums and products in float, rounded once at the end (as the CPU backend).
template <> struct WrapOf<accel::half> { using type = float; };
template <> struct WrapOf<accel::bfloat16_t> { using type = float; };

// NaN test that reads the 16-bit floats as float (scalar::isnan_ knows only the C++ float types).
template <class T> inline bool is_nan_value(T v) {
  if constexpr (scalar::is_narrow<T>) return scalar::isnan_(scalar::to_float(v));
  else return scalar::isnan_(v);
}

// The extremes of each type: the identities of min and max.
template <class T> struct Limits {
  static T lowest() {
    if constexpr (scalar::is_bool<T>) return false;
    else if constexpr (std::is_signed_v<T>) return T(-highest() - 1);
    else return T(0);
  }
  static T highest() {
    if constexpr (scalar::is_bool<T>) return true;
    else if constexpr (std::is_signed_v<T>) return T(~0ull >> (65 - 8 * sizeof(T)));
    else return T(~0ull);
  }
};
template <> struct Limits<float> {
  static float highest() { return __int_as_float(0x7f800000); }  // +inf
  static float lowest() { return -highest(); }
};
template <> struct Limits<double> {
  static double highest() { return __longlong_as_double(0x7ff0000000000000ll); }
  static double lowest() { return -highest(); }
};
template <> struct Limits<accel::half> {
  static accel::half highest() { return scalar::to_half(Limits<float>::highest()); }
  static accel::half lowest() { return scalar::to_half(Limits<float>::lowest()); }
};
template <> struct Limits<accel::bfloat16_t> {
  static accel::bfloat16_t highest() { return scalar::to_bfloat16(Limits<float>::highest()); }
  static accel::bfloat16_t lowest() { return scalar::to_bfloat16(Limits<float>::lowest()); }
};
template <class R> struct Limits<std::complex<R>> {
  static std::complex<R> highest() {
    return std::complex<R>(Limits<R>::highest(), Limits<R>::highest());
  }
  static std::complex<R> lowest() {
    return std::complex<R>(Limits<R>::lowest(), Limits<R>::lowest());
  }
};

// The dtypes in Dtype's order (dtype.def), to read inputs whose dtype is known only at run time.
enum class DtypeCode : int32_t {
#define ACCEL_DTYPE(name, ctype, str, kind) name,
#include "accel/core/dtype.def"
#undef ACCEL_DTYPE
};

// The input type of ops that convert any input dtype as they read (ReduceParams::in_dtype says
// which): one kernel per accumulator instead of one per (input, accumulator) pair, for the
// conversions NumPy's defaults never ask for.
struct AnyDtype {};

// sum / prod of In accumulated in Acc (In converted as it is read).
template <class In, class Acc, bool IsSum> struct SumProdOp {
  using InT = In;
  using State = typename WrapOf<Acc>::type;
  using Out = Acc;
  static State identity() { return State(IsSum ? 0 : 1); }
  template <class T> static State load(T x, int64_t) {
    return static_cast<State>(scalar::convert<Acc>(x));
  }
  static State combine(State a, State b) {
    return IsSum ? scalar::AddOp::apply(a, b) : scalar::MultiplyOp::apply(a, b);
  }
  static Out finish(State s) { return static_cast<Out>(s); }
};

// min / max: NaN propagates, complex numbers compare lexicographically (scalar_ops.h); complex
// ones are specialised below.
template <class T, bool IsMax> struct ExtremeOp {
  using InT = T;
  using State = T;
  using Out = T;
  static State identity() { return IsMax ? Limits<T>::lowest() : Limits<T>::highest(); }
  static State load(T x, int64_t) { return x; }
  static State combine(State a, State b) {
    if constexpr (scalar::is_narrow<T>)  // compared as float, exactly
      return IsMax ? scalar::InFloat<scalar::MaximumOp>::apply(a, b)
                   : scalar::InFloat<scalar::MinimumOp>::apply(a, b);
    else return IsMax ? scalar::MaximumOp::apply(a, b) : scalar::MinimumOp::apply(a, b);
  }
  static Out finish(State s) { return s; }
};

template <class T> struct ArgState {
  T v;
  int64_t i;  // -1: nothing seen yet
};

// argmin / argmax: the first extreme value, or the first NaN. Combining compares positions,
// so any grouping of the inputs gives NumPy's answer.
template <class T, bool IsMax> struct ArgExtremeOp {
  using InT = T;
  using State = ArgState<T>;
  using Out = int64_t;
  static State identity() { return State{T(), -1}; }
  static State load(T x, int64_t pos) { return State{x, pos}; }
  static State first(const State& a, const State& b) { return a.i <= b.i ? a : b; }
  static State combine(State a, State b) {
    if (a.i < 0) return b;
    if (b.i < 0) return a;
    const bool an = is_nan_value(a.v), bn = is_nan_value(b.v);
    if (an || bn) return an && bn ? first(a, b) : (an ? a : b);
    if (IsMax ? scalar::lt(a.v, b.v) : scalar::lt(b.v, a.v)) return b;
    if (IsMax ? scalar::lt(b.v, a.v) : scalar::lt(a.v, b.v)) return a;
    return first(a, b);
  }
  static Out finish(State s) { return s.i; }
};

// Complex min / max return NumPy's first NaN, whose other part is part of the answer: the state
// carries its position, as argmin / argmax, so any grouping of the inputs finds the same one.
template <class R, bool IsMax>
struct ExtremeOp<std::complex<R>, IsMax> : ArgExtremeOp<std::complex<R>, IsMax> {
  using State = typename ArgExtremeOp<std::complex<R>, IsMax>::State;
  using Out = std::complex<R>;
  static Out finish(State s) { return s.v; }
};

// any / all of "is nonzero" (NaN is nonzero, -0.0 is zero).
template <class T, bool IsAny> struct LogicalOp {
  using InT = T;
  using State = bool;
  using Out = bool;
  static State identity() { return !IsAny; }
  static State load(T x, int64_t) { return scalar::convert<bool>(x); }
  static State combine(State a, State b) { return IsAny ? (a || b) : (a && b); }
  static Out finish(State s) { return s; }
};

// Reads the states a first pass wrote (second pass of a split reduction, or the running totals
// of a scan's tiles); Finish: write Op's output, else the state itself.
template <class Op, bool Finish> struct StateOp {
  using InT = typename Op::State;
  using State = typename Op::State;
  using Out = typename Op::Out;  // with Finish; else State
  static State identity() { return Op::identity(); }
  static State load(State s, int64_t) { return s; }
  static State combine(State a, State b) { return Op::combine(a, b); }
  static Out finish(State s) { return Op::finish(s); }
};
template <class Op> struct StateOp<Op, false> {
  using InT = typename Op::State;
  using State = typename Op::State;
  using Out = State;
  static State identity() { return Op::identity(); }
  static State load(State s, int64_t) { return s; }
  static State combine(State a, State b) { return Op::combine(a, b); }
  static Out finish(State s) { return s; }
};

// Shared memory for one state per thread; raw bytes, since __shared__ objects take no
// constructors.
template <class T, int N> struct alignas(16) SharedArray {
  unsigned char bytes[sizeof(T) * N];
  T* get() { return reinterpret_cast<T*>(bytes); }
};

// q = a / b, returning a % b: in 32 bits when both fit (a 64-bit division is several times the
// instructions on a GPU), as indices and sizes nearly always do.
inline int64_t divmod(int64_t a, int64_t b, int64_t& q) {
  if (static_cast<uint64_t>(a | b) <= 0xffffffffull) {
    const uint32_t q32 = static_cast<uint32_t>(a) / static_cast<uint32_t>(b);
    q = q32;
    return static_cast<uint32_t>(a) - q32 * static_cast<uint32_t>(b);
  }
  q = a / b;
  return a - q * b;
}

// Element offset of position `index` in C order of dims (size, stride). Out of line: the
// divisions are only for reductions over several unmerged axes, and one copy keeps compiles short.
__noinline__ int64_t offset_nd(int64_t index, int ndim, const int64_t* size,
                               const int64_t* stride) {
  int64_t off = 0;
  for (int d = ndim - 1; d >= 0; --d) off += divmod(index, size[d], index) * stride[d];
  return off;
}
inline int64_t offset_of(int64_t index, int ndim, const int64_t* size, const int64_t* stride) {
  if (ndim == 1) return index * stride[0];
  return ndim == 0 ? 0 : offset_nd(index, ndim, size, stride);
}

struct Offsets {
  int64_t in, out;  // elements
};

// The input and output offsets of output k.
__noinline__ Offsets kept_offsets(const ReduceParams& p, int64_t k) {
  Offsets o{0, 0};
  for (int d = p.kept_ndim - 1; d >= 0; --d) {
    const int64_t i = divmod(k, p.kept_size[d], k);
    o.in += i * p.kept_in[d];
    o.out += i * p.kept_out[d];
  }
  return o;
}

// Op's state of the input element at `off` (elements from `in`), position `pos`.
template <class Op>
inline typename Op::State read(const void* in, int64_t off, int64_t pos, int32_t dtype) {
  if constexpr (std::is_same_v<typename Op::InT, AnyDtype>) {
    switch (static_cast<DtypeCode>(dtype)) {
#define ACCEL_DTYPE(name, ctype, str, kind) \
  case DtypeCode::name: return Op::load(static_cast<const ctype*>(in)[off], pos);
#include "accel/core/dtype.def"
#undef ACCEL_DTYPE
    }
    return Op::identity();
  } else {
    return Op::load(static_cast<const typename Op::InT*>(in)[off], pos);
  }
}

// Inputs r, r + step, ... below end (element offsets base + offset(i)) folded into one state,
// four independent accumulators at a time.
template <class Op, class Offset>
inline typename Op::State fold(const void* in, int32_t dtype, int64_t base, int64_t r, int64_t end,
                               int64_t step, Offset offset) {
  typename Op::State a0 = Op::identity(), a1 = a0, a2 = a0, a3 = a0;
  for (; r + 3 * step < end; r += 4 * step) {
    a0 = Op::combine(a0, read<Op>(in, base + offset(r), r, dtype));
    a1 = Op::combine(a1, read<Op>(in, base + offset(r + step), r + step, dtype));
    a2 = Op::combine(a2, read<Op>(in, base + offset(r + 2 * step), r + 2 * step, dtype));
    a3 = Op::combine(a3, read<Op>(in, base + offset(r + 3 * step), r + 3 * step, dtype));
  }
  for (; r < end; r += step) a0 = Op::combine(a0, read<Op>(in, base + offset(r), r, dtype));
  return Op::combine(Op::combine(a0, a1), Op::combine(a2, a3));
}

// fold over the reduced dims: one multiply per element when they merged into one.
template <class Op>
inline typename Op::State fold_reduced(const ReduceParams& p, int64_t base, int64_t r, int64_t end,
                                       int64_t step) {
  if (p.red_ndim <= 1) {
    const int64_t s = p.red_ndim == 1 ? p.red_in[0] : 0;
    return fold<Op>(p.in, p.in_dtype, base, r, end, step, [s](int64_t i) { return i * s; });
  }
  return fold<Op>(p.in, p.in_dtype, base, r, end, step,
                  [&p](int64_t i) { return offset_nd(i, p.red_ndim, p.red_size, p.red_in); });
}

template <class Op>
inline void store_result(const ReduceParams& p, int64_t k, int64_t split, int64_t out_off,
                         const typename Op::State& s) {
  if (p.splits > 1)
    reinterpret_cast<typename Op::State*>(p.partial)[k * p.splits + split] = s;
  else
    reinterpret_cast<typename Op::Out*>(p.out)[out_off] = Op::finish(s);
}

// A group of `group` threads (a warp, or the whole block) per output: its threads read
// neighbouring inputs (coalesced when the reduced axis is the fastest), each folds every
// group-th element into four independent accumulators, then the group combines them as a tree
// in shared memory. blockIdx.y picks the chunk of a split reduction.
// low occupancy (reduce_rows): ptxas -v for sm_90 gives 80 registers (37% occupancy at 256
// threads) for 4- to 16-byte states and 114-116 (25%) for argmin/argmax of complex128: the four
// accumulators and their 64-bit positions keep four loads in flight per thread, which hides
// memory latency that the missing warps would. Capping at 64 registers (__launch_bounds__(256,
// 4), 50%) compiles without spills for every state but the 24-byte arg-extremes of complex128
// (16 bytes spilled): worth measuring on a GPU (scripts/gpu-check bench: sum 1e8) before switching.
template <class Op>
__global__ void __launch_bounds__(kThreads) reduce_rows(const __grid_constant__ ReduceParams p) {
  using State = typename Op::State;
  static_assert(sizeof(State) <= kMaxStateBytes, "state larger than kMaxStateBytes");
  using Shared = SharedArray<State, kThreads>;
  ACCEL_SHARED(Shared, shared);
  const int group = p.group;
  const int lane = static_cast<int>(threadIdx.x) % group;
  State* s = shared.get() + (static_cast<int>(threadIdx.x) - lane);
  const int64_t per_block = kThreads / group;
  for (int64_t split = blockIdx.y; split < p.splits; split += gridDim.y) {
    const int64_t begin = split * p.chunk;
    const int64_t end = begin + p.chunk < p.red_count ? begin + p.chunk : p.red_count;
    for (int64_t k0 = blockIdx.x * per_block; k0 < p.kept_count; k0 += gridDim.x * per_block) {
      // Uniform within each group: a group's threads all work or all skip, so the barriers
      // below (the block's for a block-wide group, the warp's otherwise) are reached by all.
      const int64_t k = k0 + static_cast<int>(threadIdx.x) / group;
      if (k >= p.kept_count) continue;
      const Offsets o = kept_offsets(p, k);
      s[lane] = fold_reduced<Op>(p, o.in, begin + lane, end, group);
      for (int w = group / 2; w > 0; w /= 2) {
        if (group == kThreads) __syncthreads();
        else __syncwarp();
        if (lane < w) s[lane] = Op::combine(s[lane], s[lane + w]);
      }
      if (lane == 0) store_result<Op>(p, k, split, o.out, s[0]);
      // The slots are written again for the next output.
      if (group == kThreads) __syncthreads();
      else __syncwarp();
    }
  }
}

// One thread per output, reading its chunk serially: for reductions over axes slower than the
// kept ones (neighbouring threads then read neighbouring inputs), for tiny reductions and for
// empty ones (the identity is written).
// low occupancy (reduce_columns): 78-80 registers (37%) for 8- and 16-byte states, 98 (25%) for
// argmin/argmax of complex128 (sm_90, ptxas -v): the same four-accumulator loop as reduce_rows,
// and the same measurement to make before capping it at 64 (which spills only the latter).
template <class Op>
__global__ void __launch_bounds__(kThreads) reduce_columns(const __grid_constant__ ReduceParams p) {
  for (int64_t split = blockIdx.y; split < p.splits; split += gridDim.y) {
    const int64_t begin = split * p.chunk;
    const int64_t end = begin + p.chunk < p.red_count ? begin + p.chunk : p.red_count;
    for (int64_t k = blockIdx.x * int64_t(kThreads) + threadIdx.x; k < p.kept_count;
         k += int64_t(gridDim.x) * kThreads) {
      const Offsets o = kept_offsets(p, k);
      store_result<Op>(p, k, split, o.out, fold_reduced<Op>(p, o.in, begin, end, 1));
    }
  }
}

}  // namespace accel::kernels
