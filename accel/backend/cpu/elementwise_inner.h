// The inner-loop templates behind elementwise_loops.h; included only by the table sources.
#pragma once
#include <algorithm>
#include <cstdint>
#include <utility>

#if defined(__AVX__)
#include <immintrin.h>
#endif

#include "accel/backend/cpu/strided_loop.h"
#include "accel/backend/cpu/vector_math.h"
#include "accel/device_src/scalar_ops.h"

namespace accel::cpu {


// Large contiguous results are written with non-temporal (streaming) stores through a small
// cache-resident block: the output lines are not read from memory before being overwritten,
// which saves a quarter of the memory traffic of a + b on arrays far bigger than the caches.
// The block is two cache lines: the compiler keeps it in registers and the loads and streaming
// stores interleave; a 4 KB block ran a + b at 1e7 float32 1.4x slower than a direct loop.
// Only outputs of 8 MiB or more (per thread's chunk): a smaller one stays in the last-level
// cache for the next op to read, and streaming it out made -a of 5e5 to 2e6 float32 on one
// thread 1.2-1.7x slower than plain stores (and than NumPy). The JIT's kernels use the same
// bound (ACCEL_STREAM_MIN, codegen/dialect.cpp).
inline constexpr int64_t kStreamMinBytes = int64_t{1} << 23;
inline constexpr int64_t kStreamBlockBytes = 128;

// compute(i, count, dst) writes elements [i, i + count) to dst[0, count). Returns false (and
// does nothing) when streaming does not apply.
template <class R, class F> inline bool write_streamed(R* o, int64_t n, F&& compute) {
#if defined(__AVX__)
  if constexpr (sizeof(R) == 4 || sizeof(R) == 8 || sizeof(R) == 16) {
    const auto addr = reinterpret_cast<uintptr_t>(o);
    if (n * static_cast<int64_t>(sizeof(R)) < kStreamMinBytes || addr % sizeof(R) != 0) return false;
    const int64_t head = static_cast<int64_t>(((32 - (addr & 31)) & 31) / sizeof(R));
    constexpr int64_t kBlock = kStreamBlockBytes / static_cast<int64_t>(sizeof(R));
    compute(0, head, o);
    alignas(32) R buf[kBlock];
    int64_t i = head;
    for (; i + kBlock <= n; i += kBlock) {
      compute(i, kBlock, buf);
      auto* dst = reinterpret_cast<__m256i*>(o + i);
      const auto* src = reinterpret_cast<const __m256i*>(buf);
      for (int64_t k = 0; k < kStreamBlockBytes / 32; ++k)
        _mm256_stream_si256(dst + k, _mm256_load_si256(src + k));
    }
    compute(i, n - i, o + i);
    _mm_sfence();
    return true;
  }
#endif
  return false;
}

template <class Op, class T, int N> struct Inner;

template <class Op, class T> struct Inner<Op, T, 1> {
  using R = decltype(Op::apply(std::declval<T>()));
  static void run(char* const* p, const int64_t* s, int64_t n) {
    if (s[0] == sizeof(T) && s[1] == sizeof(R)) {
      const T* __restrict a = reinterpret_cast<const T*>(p[0]);
      R* __restrict o = reinterpret_cast<R*>(p[1]);
      if constexpr (VectorMath<Op, T>::available) {
        VectorMath<Op, T>::run(a, o, n);
        return;
      }
      auto compute = [a](int64_t i, int64_t c, R* __restrict d) {
        for (int64_t j = 0; j < c; ++j) d[j] = Op::apply(a[i + j]);
      };
      if (write_streamed(o, n, compute)) return;
      compute(0, n, o);
      return;
    }
    if constexpr (VectorMath<Op, T>::available) return buffered(p, s, n);
    char* a = p[0];
    char* o = p[1];
    for (int64_t i = 0; i < n; ++i, a += s[0], o += s[1])
      *reinterpret_cast<R*>(o) = Op::apply(*reinterpret_cast<const T*>(a));
  }
  // A strided operand (a transposed or stepped view) goes through blocks on the stack, as in
  // NumPy's buffered iteration, so the vector kernel still runs: sin of a 4000² float32 m.T
  // took 13x as long as sin(m) element by element through std::sin, and its values were
  // std::sin's, not the vector kernel's that sin(m) gives.
  static void buffered(char* const* p, const int64_t* s, int64_t n) {
    constexpr int64_t kBlock = 256;
    alignas(32) T in[kBlock];
    alignas(32) R out[kBlock];
    for (int64_t i = 0; i < n; i += kBlock) {
      const int64_t c = std::min(kBlock, n - i);
      const char* a = p[0] + i * s[0];
      for (int64_t j = 0; j < c; ++j) in[j] = *reinterpret_cast<const T*>(a + j * s[0]);
      if (s[1] == sizeof(R)) {
        VectorMath<Op, T>::run(in, reinterpret_cast<R*>(p[1]) + i, c);
        continue;
      }
      VectorMath<Op, T>::run(in, out, c);
      char* o = p[1] + i * s[1];
      for (int64_t j = 0; j < c; ++j) *reinterpret_cast<R*>(o + j * s[1]) = out[j];
    }
  }
};

template <class Op, class T> struct Inner<Op, T, 2> {
  using R = decltype(Op::apply(std::declval<T>(), std::declval<T>()));
  static void run(char* const* p, const int64_t* s, int64_t n) {
    if constexpr (VectorMath2<Op, T>::available) return buffered(p, s, n);
    R* __restrict o = reinterpret_cast<R*>(p[2]);
    if (s[2] == sizeof(R)) {
      if (s[0] == sizeof(T) && s[1] == sizeof(T)) {
        const T* __restrict a = reinterpret_cast<const T*>(p[0]);
        const T* __restrict b = reinterpret_cast<const T*>(p[1]);
        auto compute = [a, b](int64_t i, int64_t c, R* __restrict d) {
          for (int64_t j = 0; j < c; ++j) d[j] = Op::apply(a[i + j], b[i + j]);
        };
        if (write_streamed(o, n, compute)) return;
        compute(0, n, o);
        return;
      }
      if (s[0] == sizeof(T) && s[1] == 0) {
        const T* __restrict a = reinterpret_cast<const T*>(p[0]);
        const T b = *reinterpret_cast<const T*>(p[1]);
        auto compute = [a, b](int64_t i, int64_t c, R* __restrict d) {
          for (int64_t j = 0; j < c; ++j) d[j] = Op::apply(a[i + j], b);
        };
        if (write_streamed(o, n, compute)) return;
        compute(0, n, o);
        return;
      }
      if (s[0] == 0 && s[1] == sizeof(T)) {
        const T a = *reinterpret_cast<const T*>(p[0]);
        const T* __restrict b = reinterpret_cast<const T*>(p[1]);
        for (int64_t i = 0; i < n; ++i) o[i] = Op::apply(a, b[i]);
        return;
      }
    }
    char* a = p[0];
    char* b = p[1];
    char* out = p[2];
    for (int64_t i = 0; i < n; ++i, a += s[0], b += s[1], out += s[2])
      *reinterpret_cast<R*>(out) =
          Op::apply(*reinterpret_cast<const T*>(a), *reinterpret_cast<const T*>(b));
  }
  // Any layout through blocks, contiguous operands read and written in place.
  static void buffered(char* const* p, const int64_t* s, int64_t n) {
    constexpr int64_t kBlock = 256;
    alignas(32) T in[2][kBlock];
    alignas(32) R out[kBlock];
    for (int64_t i = 0; i < n; i += kBlock) {
      const int64_t c = std::min(kBlock, n - i);
      const T* args[2];
      for (int k = 0; k < 2; ++k) {
        const char* x = p[k] + i * s[k];
        if (s[k] == sizeof(T)) {
          args[k] = reinterpret_cast<const T*>(x);
          continue;
        }
        for (int64_t j = 0; j < c; ++j) in[k][j] = *reinterpret_cast<const T*>(x + j * s[k]);
        args[k] = in[k];
      }
      if (s[2] == sizeof(R)) {
        VectorMath2<Op, T>::run(args[0], args[1], reinterpret_cast<R*>(p[2]) + i, c);
        continue;
      }
      VectorMath2<Op, T>::run(args[0], args[1], out, c);
      char* o = p[2] + i * s[2];
      for (int64_t j = 0; j < c; ++j) *reinterpret_cast<R*>(o + j * s[2]) = out[j];
    }
  }
};

template <class Op, class T> struct Inner<Op, T, 3> {
  using R = decltype(Op::apply(std::declval<T>(), std::declval<T>(), std::declval<T>()));
  // Every input contiguous or a broadcast scalar (Scalar<k>), the output contiguous: loops the
  // compiler vectorizes (where(mask, x, 0) as a blend instead of a branch per element).
  template <bool S0, bool S1, bool S2> static void dense(char* const* p, int64_t n) {
    const T* __restrict a = reinterpret_cast<const T*>(p[0]);
    const T* __restrict b = reinterpret_cast<const T*>(p[1]);
    const T* __restrict c = reinterpret_cast<const T*>(p[2]);
    R* __restrict o = reinterpret_cast<R*>(p[3]);
    for (int64_t i = 0; i < n; ++i) o[i] = Op::apply(a[S0 ? 0 : i], b[S1 ? 0 : i], c[S2 ? 0 : i]);
  }
  static void run(char* const* p, const int64_t* s, int64_t n) {
    const auto unit_or_zero = [](int64_t st) { return st == sizeof(T) || st == 0; };
    if (s[3] == sizeof(R) && unit_or_zero(s[0]) && unit_or_zero(s[1]) && unit_or_zero(s[2])) {
      switch ((s[0] == 0) | (s[1] == 0) << 1 | (s[2] == 0) << 2) {
        case 0: return dense<false, false, false>(p, n);
        case 1: return dense<true, false, false>(p, n);
        case 2: return dense<false, true, false>(p, n);
        case 3: return dense<true, true, false>(p, n);
        case 4: return dense<false, false, true>(p, n);
        case 5: return dense<true, false, true>(p, n);
        case 6: return dense<false, true, true>(p, n);
        default: return dense<true, true, true>(p, n);
      }
    }
    char* a = p[0];
    char* b = p[1];
    char* c = p[2];
    char* out = p[3];
    for (int64_t i = 0; i < n; ++i, a += s[0], b += s[1], c += s[2], out += s[3])
      *reinterpret_cast<R*>(out) = Op::apply(*reinterpret_cast<const T*>(a),
                                             *reinterpret_cast<const T*>(b),
                                             *reinterpret_cast<const T*>(c));
  }
};

template <class From, class To> struct CastInner {
  static void run(char* const* p, const int64_t* s, int64_t n) {
    if (s[0] == sizeof(From) && s[1] == sizeof(To)) {
      const From* __restrict a = reinterpret_cast<const From*>(p[0]);
      To* __restrict o = reinterpret_cast<To*>(p[1]);
      for (int64_t i = 0; i < n; ++i) o[i] = scalar::convert<To>(a[i]);
      return;
    }
    char* a = p[0];
    char* o = p[1];
    for (int64_t i = 0; i < n; ++i, a += s[0], o += s[1])
      *reinterpret_cast<To*>(o) = scalar::convert<To>(*reinterpret_cast<const From*>(a));
  }
};

}  // namespace accel::cpu
