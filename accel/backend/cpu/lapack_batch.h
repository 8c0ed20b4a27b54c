// The pieces every LAPACK-backed op shares: a stack of matrices read through any strides, copies
// into and out of the column-major scratch LAPACK wants, the typed call into the loaded library,
// and the batch spread over the thread pool.
#pragma once
#include <algorithm>
#include <complex>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "accel/backend/cpu/lapack_library.h"
#include "accel/backend/cpu/thread_pool.h"
#include "accel/core/array.h"
#include "accel/runtime/errors.h"

namespace accel::cpu {

template <class T>
struct RealOf {
  using type = T;
};
template <class T>
struct RealOf<std::complex<T>> {
  using type = T;
};
template <class T>
using real_t = typename RealOf<T>::type;

// The matrices of an array of shape (batch..., rows, cols): matrix i of the flattened batch,
// element (r, c) at at(i)[r * rs + c * cs]. A batch axis of stride 0 (a broadcast view) repeats.
template <class T>
struct Matrices {
  T* base;
  Shape batch;
  Strides batch_strides;
  int64_t rows, cols, rs, cs;

  explicit Matrices(const Array& a)
      : base(static_cast<T*>(a.data())),
        batch(a.shape().begin(), a.shape().end() - 2),
        batch_strides(a.strides().begin(), a.strides().end() - 2),
        rows(a.shape()[a.ndim() - 2]),
        cols(a.shape()[a.ndim() - 1]),
        rs(a.strides()[a.ndim() - 2]),
        cs(a.strides()[a.ndim() - 1]) {}

  T* at(int64_t i) const {
    if (batch.size() == 1) return base + i * batch_strides[0];  // the common stack: no division
    int64_t off = 0;
    for (int d = static_cast<int>(batch.size()) - 1; d >= 0; --d) {
      off += (i % batch[d]) * batch_strides[d];
      i /= batch[d];
    }
    return base + off;
  }
  // Matrix i into column-major `dst` with leading dimension ld.
  void gather(int64_t i, T* dst, int64_t ld) const {
    const T* m = at(i);
    tiled([&](int64_t r, int64_t c) { dst[c * ld + r] = m[r * rs + c * cs]; });
  }
  // Column-major `src` (leading dimension ld) into matrix i.
  void scatter(int64_t i, const T* src, int64_t ld) const {
    T* m = at(i);
    tiled([&](int64_t r, int64_t c) { m[r * rs + c * cs] = src[c * ld + r]; });
  }
  // Matrix i into `dst` in row-major order, which LAPACK reads as the column-major transpose
  // (leading dimension cols). Row by row, without the transposing copy's cache misses: the
  // kernels pick the routine or triangle that makes the transpose do (cholesky, inv, svd).
  void gather_rows(int64_t i, T* dst) const {
    const T* m = at(i);
    for (int64_t r = 0; r < rows; ++r) {
      if (cs == 1)
        std::copy(m + r * rs, m + r * rs + cols, dst + r * cols);
      else
        for (int64_t c = 0; c < cols; ++c) dst[r * cols + c] = m[r * rs + c * cs];
    }
  }
  void scatter_rows(int64_t i, const T* src) const {
    T* m = at(i);
    for (int64_t r = 0; r < rows; ++r) {
      if (cs == 1)
        std::copy(src + r * cols, src + (r + 1) * cols, m + r * rs);
      else
        for (int64_t c = 0; c < cols; ++c) m[r * rs + c * cs] = src[r * cols + c];
    }
  }
  // Whether each matrix is stored row-major without gaps (a fresh output is): then LAPACK can
  // work in the matrix itself and no scatter_rows is needed.
  bool row_major() const { return (cs == 1 || cols <= 1) && (rs == cols || rows <= 1); }
  // The same for matrices of small_lu's sizes, `rows` a std::integral_constant (the leading
  // dimension too): plain unrolled loops, where the tiles' bounds cost as much as the
  // factorisation of a 4x4 matrix (a third of a batched solve's time went to gather).
  template <class Rows>
  void gather_small(int64_t i, T* dst, Rows rows) const {
    const T* m = at(i);
    for (int64_t c = 0; c < cols; ++c)
      for (int64_t r = 0; r < rows; ++r) dst[c * rows + r] = m[r * rs + c * cs];
  }
  template <class Rows>
  void scatter_small(int64_t i, const T* src, Rows rows) const {
    T* m = at(i);
    for (int64_t c = 0; c < cols; ++c)
      for (int64_t r = 0; r < rows; ++r) m[r * rs + c * cs] = src[c * rows + r];
  }

 private:
  // Visits every (r, c) in 32x32 tiles: a C-order matrix copied to column-major order is a
  // transpose, and tiles keep both sides in cache (a plain loop missed on every element of a
  // large matrix on one side).
  template <class F>
  void tiled(F&& f) const {
    constexpr int64_t kTile = 32;
    for (int64_t c0 = 0; c0 < cols; c0 += kTile)
      for (int64_t r0 = 0; r0 < rows; r0 += kTile)
        for (int64_t c = c0; c < std::min(cols, c0 + kTile); ++c)
          for (int64_t r = r0; r < std::min(rows, r0 + kTile); ++r) f(r, c);
  }
};

// A vector stack (batch..., n) read the same way: element k of vector i at at(i)[k * stride].
template <class T>
struct Vectors {
  T* base;
  Shape batch;
  Strides batch_strides;
  int64_t stride;

  explicit Vectors(const Array& a)
      : base(static_cast<T*>(a.data())),
        batch(a.shape().begin(), a.shape().end() - 1),
        batch_strides(a.strides().begin(), a.strides().end() - 1),
        stride(a.ndim() ? a.strides().back() : 0) {}

  T* at(int64_t i) const {
    int64_t off = 0;
    for (int d = static_cast<int>(batch.size()) - 1; d >= 0; --d) {
      off += (i % batch[d]) * batch_strides[d];
      i /= batch[d];
    }
    return base + off;
  }
};

// The number of matrices in an array of shape (batch..., rows, cols).
inline int64_t batch_count(const Array& a) {
  int64_t n = 1;
  for (int d = 0; d + 2 < a.ndim(); ++d) n *= a.shape()[d];
  return n;
}

template <class Api>
struct ApiInt;
template <class Int>
struct ApiInt<LapackApi<Int>> {
  using type = Int;
};
// The integer type of the LapackApi `api` (a generic lambda's parameter).
#define ACCEL_LAPACK_INT(api) typename ApiInt<std::remove_cvref_t<decltype(api)>>::type

// Calls f(api, TypeTag<T>) with the library's integer width and dtype's C++ type (float32,
// float64, complex64 or complex128; the op layer promotes everything else first).
template <class F>
void with_lapack(const char* op, Dtype dtype, F&& f) {
  const LapackLibrary& lib = lapack_library(op);
  auto typed = [&](const auto& api) {
    switch (dtype) {
      case Dtype::float32:
        return f(api, TypeTag<float>{});
      case Dtype::float64:
        return f(api, TypeTag<double>{});
      case Dtype::complex64:
        return f(api, TypeTag<std::complex<float>>{});
      case Dtype::complex128:
        return f(api, TypeTag<std::complex<double>>{});
      default:
        throw DTypeError(std::string("[") + op + "] LAPACK has no " + dtype_name(dtype) +
                         " routines");
    }
  };
  if (lib.ilp64)
    typed(lib.ilp64_api);
  else
    typed(lib.lp64);
}

// A size as the library's integer; an LP64 LAPACK cannot take more than INT_MAX.
template <class Int>
Int lapack_int(int64_t v, const char* op) {
  if (v > static_cast<int64_t>(std::numeric_limits<Int>::max()))
    throw ValueError(std::string("[") + op + "] dimension " + std::to_string(v) +
                     " exceeds the 32-bit integers of this LAPACK (an ILP64 build takes it)");
  return static_cast<Int>(v);
}

// The optimal workspace a LAPACK query (lwork = -1) wrote into its first element.
template <class T>
int64_t workspace_size(const T& w) {
  return std::max<int64_t>(1, static_cast<int64_t>(std::real(w)));
}

// Runs fn(begin, end) over the batch: several matrices per pool thread when they are small,
// one at a time when each call is large enough for the library's own threads to share it.
inline void for_each_matrix(int64_t count, int64_t n,
                            const std::function<void(int64_t, int64_t)>& fn) {
  if (count == 0) return;
  if (count == 1 || n >= 256) {
    fn(0, count);
    return;
  }
  parallel_for(count, std::max<int64_t>(1, 4096 / std::max<int64_t>(1, n * n)), fn);
}

}  // namespace accel::cpu
