// LU with partial pivoting for matrices of up to kSmallLu rows, inlined into the batch loops of
// solve, inv and slogdet. A LAPACK call costs about a microsecond of overhead per matrix (argument
// checks, workspace, blocking logic), several times the arithmetic of a 4x4 factorisation; for
// batches of tiny matrices this loop is what makes the batch cheap. Same algorithm as getrf
// (unblocked), so the results agree with LAPACK's to rounding.
#pragma once
#include <cmath>
#include <complex>
#include <cstdint>
#include <type_traits>
#include <utility>

namespace accel::cpu {

inline constexpr int64_t kSmallLu = 8;

// |re| + |im|: the pivot measure LAPACK's i?amax uses.
template <class T>
auto abs1(const T& v) {
  if constexpr (std::is_arithmetic_v<T>)
    return std::abs(v);
  else
    return std::abs(v.real()) + std::abs(v.imag());
}

// Factors column-major a (n x n, leading dimension n) in place into L (unit, below the
// diagonal) and U; piv[k] is the row swapped with row k. Returns false when a pivot is exactly
// zero (a singular matrix), as getrf's info > 0.
// `n` is an int64_t or a std::integral_constant from with_small_size, whose fixed bounds let the
// compiler unroll the loops.
template <class T, class N>
bool small_lu(T* a, N n, int64_t* piv) {
  bool regular = true;
  for (int64_t k = 0; k < n; ++k) {
    int64_t p = k;
    for (int64_t i = k + 1; i < n; ++i)
      if (abs1(a[k * n + i]) > abs1(a[k * n + p])) p = i;
    piv[k] = p;
    if (a[k * n + p] == T(0)) {
      regular = false;
      continue;
    }
    if (p != k)
      for (int64_t j = 0; j < n; ++j) std::swap(a[j * n + k], a[j * n + p]);
    const T inv = T(1) / a[k * n + k];
    for (int64_t i = k + 1; i < n; ++i) a[k * n + i] *= inv;
    for (int64_t j = k + 1; j < n; ++j) {
      const T f = a[j * n + k];
      for (int64_t i = k + 1; i < n; ++i) a[j * n + i] -= a[k * n + i] * f;
    }
  }
  return regular;
}

// Solves (L U) x = P b in place for the k columns of column-major b (leading dimension n).
template <class T, class N>
void small_lu_solve(const T* lu, const int64_t* piv, N n, T* b, int64_t k) {
  for (int64_t c = 0; c < k; ++c) {
    T* x = b + c * n;
    for (int64_t i = 0; i < n; ++i)
      if (piv[i] != i) std::swap(x[i], x[piv[i]]);
    for (int64_t j = 0; j < n; ++j)
      for (int64_t i = j + 1; i < n; ++i) x[i] -= lu[j * n + i] * x[j];
    for (int64_t j = static_cast<int64_t>(n) - 1; j >= 0; --j) {
      x[j] /= lu[j * n + j];
      for (int64_t i = 0; i < j; ++i) x[i] -= lu[j * n + i] * x[j];
    }
  }
}

// Calls f(std::integral_constant<int64_t, n>) for 1 <= n <= kSmallLu, else f(n): one switch per
// batch, not per matrix.
template <class F>
void with_small_size(int64_t n, F&& f) {
  switch (n) {
    case 1:
      return f(std::integral_constant<int64_t, 1>{});
    case 2:
      return f(std::integral_constant<int64_t, 2>{});
    case 3:
      return f(std::integral_constant<int64_t, 3>{});
    case 4:
      return f(std::integral_constant<int64_t, 4>{});
    case 5:
      return f(std::integral_constant<int64_t, 5>{});
    case 6:
      return f(std::integral_constant<int64_t, 6>{});
    case 7:
      return f(std::integral_constant<int64_t, 7>{});
    case 8:
      return f(std::integral_constant<int64_t, 8>{});
    default:
      return f(n);
  }
}

}  // namespace accel::cpu
