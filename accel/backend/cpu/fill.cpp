// CPU fills: constant values (zeros, ones, full, eye's diagonal) and arithmetic sequences
// (arange, the base of linspace).
#include <algorithm>
#include <cstring>

#include "accel/backend/cpu/cpu_backend.h"
#include "accel/backend/cpu/elementwise_loops.h"
#include "accel/backend/cpu/thread_pool.h"

// arange rounds like NumPy's loop (a multiply, then an add): the library is compiled with
// -ffp-contract=off (CMakeLists.txt), so no fused multiply-add changes the last bit.

namespace accel::cpu {
namespace {

// Below this many elements one thread fills faster than a hand-off to the pool.
constexpr int64_t kFillGrain = 1 << 16;

bool all_zero_bytes(const void* value, size_t n) {
  const auto* p = static_cast<const unsigned char*>(value);
  return std::all_of(p, p + n, [](unsigned char c) { return c == 0; });
}

template <class T> void fill_sequence(T* out, int64_t n, T first, T second) {
  if (n > 0) out[0] = first;
  if (n > 1) out[1] = second;
  if constexpr (std::is_same_v<T, bool>) {
    return;  // the ops layer allows at most two boolean elements, like NumPy
  } else if constexpr (std::is_integral_v<T>) {
    // Unsigned 64-bit arithmetic wraps like NumPy's (and is defined for every T).
    const T delta = static_cast<T>(second - first);
    const uint64_t f = static_cast<uint64_t>(first), d = static_cast<uint64_t>(delta);
    parallel_for(n - 2, kFillGrain, [&](int64_t b, int64_t e) {
      for (int64_t j = b; j < e; ++j) {
        uint64_t i = static_cast<uint64_t>(j + 2);
        out[j + 2] = static_cast<T>(f + i * d);
      }
    });
  } else if constexpr (is_complex_v<T>) {
    using R = typename T::value_type;
    const R fr = first.real(), fi = first.imag();
    const R dr = second.real() - fr, di = second.imag() - fi;
    parallel_for(n - 2, kFillGrain, [&](int64_t b, int64_t e) {
      for (int64_t j = b; j < e; ++j) {
        R i = static_cast<R>(j + 2);
        out[j + 2] = T(fr + i * dr, fi + i * di);
      }
    });
  } else if constexpr (is_narrow_float_v<T>) {
    // NumPy's HALF_fill (and ml_dtypes' bfloat16 fill): the step stays a float (not rounded to
    // the 16-bit type), each element rounded once.
    const float f = first, delta = static_cast<float>(second) - f;
    parallel_for(n - 2, kFillGrain, [&](int64_t b, int64_t e) {
      for (int64_t j = b; j < e; ++j) out[j + 2] = T(f + static_cast<float>(j + 2) * delta);
    });
  } else {
    const T delta = second - first;
    parallel_for(n - 2, kFillGrain, [&](int64_t b, int64_t e) {
      for (int64_t j = b; j < e; ++j) out[j + 2] = first + static_cast<T>(j + 2) * delta;
    });
  }
}

}  // namespace

void CpuBackend::fill(const Array& out, const void* value) {
  const int64_t n = out.size();
  if (n == 0) return;
  char* dst = static_cast<char*>(out.data());
  const size_t isz = out.itemsize();
  if (out.is_contiguous()) {
    const bool zero = all_zero_bytes(value, isz);
    dispatch_dtype(out.dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      T v;
      std::memcpy(&v, value, sizeof(T));
      T* p = reinterpret_cast<T*>(dst);
      parallel_for(n, kFillGrain, [&](int64_t b, int64_t e) {
        if (zero)
          std::memset(static_cast<void*>(p + b), 0, static_cast<size_t>(e - b) * sizeof(T));
        else
          std::fill(p + b, p + e, v);
      });
    });
    return;
  }
  // Any other layout: the same-dtype copy loop reading the value through stride-0 operands.
  const Strides zeros(out.ndim(), 0);
  const StridedOperand ops[] = {
      {const_cast<char*>(static_cast<const char*>(value)), &zeros, static_cast<int64_t>(isz)},
      {dst, &out.strides(), static_cast<int64_t>(isz)}};
  run_strided(cast_loop(out.dtype(), out.dtype()), out.shape(), ops);
}

void CpuBackend::arange(const Array& out, const void* first, const void* second) {
  dispatch_dtype(out.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    T f, s;
    std::memcpy(&f, first, sizeof(T));
    std::memcpy(&s, second, sizeof(T));
    fill_sequence(static_cast<T*>(out.data()), out.size(), f, s);
  });
}

}  // namespace accel::cpu
