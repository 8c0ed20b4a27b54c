// float16 inner loops: blocks of halves are widened to float, the float32 loop runs on them
// (vectorised, libmvec included) and float results are rounded back to half. With F16C the
// conversions are 8 lanes an instruction (vcvtph2ps / vcvtps2ph); NumPy converts one at a time.
#pragma once
#include <cstdint>
#include <cstring>

#if defined(__F16C__)
#include <immintrin.h>
#endif

#include "accel/backend/cpu/elementwise_inner.h"
#include "accel/core/half.h"

namespace accel::cpu {

// n halves at `in` (byte stride `step`) to contiguous floats.
inline void widen_halves(const char* in, int64_t step, float* out, int64_t n) {
  int64_t i = 0;
#if defined(__F16C__)
  if (step == 2)
    for (; i + 8 <= n; i += 8)
      _mm256_storeu_ps(out + i, _mm256_cvtph_ps(_mm_loadu_si128(
                                    reinterpret_cast<const __m128i*>(in + 2 * i))));
#endif
  for (; i < n; ++i) {
    half h;
    std::memcpy(&h, in + i * step, 2);
    out[i] = h;
  }
}

// n contiguous floats to halves at `out` (byte stride `step`), rounded to nearest even.
inline void narrow_floats(const float* in, char* out, int64_t step, int64_t n) {
  int64_t i = 0;
#if defined(__F16C__)
  if (step == 2)
    for (; i + 8 <= n; i += 8)
      _mm_storeu_si128(reinterpret_cast<__m128i*>(out + 2 * i),
                       _mm256_cvtps_ph(_mm256_loadu_ps(in + i), _MM_FROUND_TO_NEAREST_INT));
#endif
  for (; i < n; ++i) {
    const half h(in[i]);
    std::memcpy(out + i * step, &h, 2);
  }
}

inline constexpr int64_t kHalfBlock = 512;

template <class Op, int N> struct HalfInner {
  template <size_t... I> static auto float_result(std::index_sequence<I...>) {
    return Op::apply((static_cast<void>(I), 0.0f)...);
  }
  using R = decltype(float_result(std::make_index_sequence<N>{}));
  static void run(char* const* p, const int64_t* s, int64_t n) {
    alignas(64) float in[N][kHalfBlock];
    alignas(64) float out[kHalfBlock];
    for (int64_t b = 0; b < n; b += kHalfBlock) {
      const int64_t c = n - b < kHalfBlock ? n - b : kHalfBlock;
      char* ptrs[N + 1];
      int64_t steps[N + 1];
      for (int k = 0; k < N; ++k) {
        // A broadcast input is widened once and stays a stride-0 scalar for the float loop.
        const int64_t len = s[k] == 0 ? 1 : c;
        widen_halves(p[k] + b * s[k], s[k], in[k], len);
        ptrs[k] = reinterpret_cast<char*>(in[k]);
        steps[k] = s[k] == 0 ? 0 : static_cast<int64_t>(sizeof(float));
      }
      if constexpr (std::is_same_v<R, float>) {
        ptrs[N] = reinterpret_cast<char*>(out);
        steps[N] = sizeof(float);
        Inner<Op, float, N>::run(ptrs, steps, c);
        narrow_floats(out, p[N] + b * s[N], s[N], c);
      } else {
        ptrs[N] = p[N] + b * s[N];
        steps[N] = s[N];
        Inner<Op, float, N>::run(ptrs, steps, c);
      }
    }
  }
};

// nextafter steps through half's own values, one element at a time.
template <int N> struct HalfInner<scalar::NextafterOp, N> : Inner<scalar::OnHalf<scalar::NextafterOp>, half, N> {};

}  // namespace accel::cpu
