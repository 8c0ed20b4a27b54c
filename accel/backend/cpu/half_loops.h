// float16 and bfloat16 inner loops: blocks of 16-bit floats are widened to float, the float32
// loop runs on them (vectorised, libmvec included) and float results are rounded back. With
// F16C the float16 conversions are 8 lanes an instruction (vcvtph2ps / vcvtps2ph); bfloat16's
// are a shift one way and integer rounding the other, plain loops GCC vectorises. NumPy (and
// ml_dtypes) convert one element at a time.
#pragma once
#include <cstdint>
#include <cstring>

#if defined(__F16C__)
#include <immintrin.h>
#endif

#include "accel/backend/cpu/elementwise_inner.h"
#include "accel/core/bfloat16.h"
#include "accel/core/half.h"

namespace accel::cpu {

// n values of the 16-bit float type N at `in` (byte stride `step`) to contiguous floats.
template <class N> inline void widen_to_float(const char* in, int64_t step, float* out, int64_t n) {
  int64_t i = 0;
  if constexpr (std::is_same_v<N, bfloat16_t>) {
    if (step == 2) {
      for (; i < n; ++i) {
        uint16_t h;
        std::memcpy(&h, in + 2 * i, 2);
        const uint32_t b = static_cast<uint32_t>(h) << 16;
        std::memcpy(out + i, &b, 4);
      }
      return;
    }
  }
#if defined(__F16C__)
  if constexpr (std::is_same_v<N, half>) {
    if (step == 2)
      for (; i + 8 <= n; i += 8)
        _mm256_storeu_ps(out + i, _mm256_cvtph_ps(_mm_loadu_si128(
                                      reinterpret_cast<const __m128i*>(in + 2 * i))));
  }
#endif
  for (; i < n; ++i) {
    N h;
    std::memcpy(&h, in + i * step, 2);
    out[i] = h;
  }
}

// n contiguous floats to the 16-bit float type N at `out` (byte stride `step`), rounded to
// nearest even.
template <class N> inline void narrow_from_float(const float* in, char* out, int64_t step, int64_t n) {
  int64_t i = 0;
  if constexpr (std::is_same_v<N, bfloat16_t>) {
    if (step == 2) {
      for (; i < n; ++i) {
        uint32_t b;
        std::memcpy(&b, in + i, 4);
        const uint16_t h = bfloat16_bits::from_float_bits(b);
        std::memcpy(out + 2 * i, &h, 2);
      }
      return;
    }
  }
#if defined(__F16C__)
  if constexpr (std::is_same_v<N, half>) {
    if (step == 2)
      for (; i + 8 <= n; i += 8)
        _mm_storeu_si128(reinterpret_cast<__m128i*>(out + 2 * i),
                         _mm256_cvtps_ph(_mm256_loadu_ps(in + i), _MM_FROUND_TO_NEAREST_INT));
  }
#endif
  for (; i < n; ++i) {
    const N h(in[i]);
    std::memcpy(out + i * step, &h, 2);
  }
}

inline constexpr int64_t kHalfBlock = 512;

template <class Op, class N, int Arity> struct NarrowInner {
  template <size_t... I> static auto float_result(std::index_sequence<I...>) {
    return Op::apply((static_cast<void>(I), 0.0f)...);
  }
  using R = decltype(float_result(std::make_index_sequence<Arity>{}));
  static void run(char* const* p, const int64_t* s, int64_t n) {
    alignas(64) float in[Arity][kHalfBlock];
    alignas(64) float out[kHalfBlock];
    for (int64_t b = 0; b < n; b += kHalfBlock) {
      const int64_t c = n - b < kHalfBlock ? n - b : kHalfBlock;
      char* ptrs[Arity + 1];
      int64_t steps[Arity + 1];
      for (int k = 0; k < Arity; ++k) {
        // A broadcast input is widened once and stays a stride-0 scalar for the float loop.
        const int64_t len = s[k] == 0 ? 1 : c;
        widen_to_float<N>(p[k] + b * s[k], s[k], in[k], len);
        ptrs[k] = reinterpret_cast<char*>(in[k]);
        steps[k] = s[k] == 0 ? 0 : static_cast<int64_t>(sizeof(float));
      }
      if constexpr (std::is_same_v<R, float>) {
        ptrs[Arity] = reinterpret_cast<char*>(out);
        steps[Arity] = sizeof(float);
        Inner<Op, float, Arity>::run(ptrs, steps, c);
        narrow_from_float<N>(out, p[Arity] + b * s[Arity], s[Arity], c);
      } else {
        ptrs[Arity] = p[Arity] + b * s[Arity];
        steps[Arity] = s[Arity];
        Inner<Op, float, Arity>::run(ptrs, steps, c);
      }
    }
  }
};

// nextafter and spacing step through the narrow type's own values, one element at a time.
template <class N, int Arity>
struct NarrowInner<scalar::NextafterOp, N, Arity> : Inner<scalar::InFloat<scalar::NextafterOp>, N, Arity> {};
template <class N, int Arity>
struct NarrowInner<scalar::SpacingOp, N, Arity> : Inner<scalar::InFloat<scalar::SpacingOp>, N, Arity> {};

}  // namespace accel::cpu
