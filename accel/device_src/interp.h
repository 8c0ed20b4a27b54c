// np.interp at one point, written once for the CPU (backend/cpu/interp.cpp) and the CUDA kernel
// (interp.cuh, compiled after this file in the same NVRTC source, with -default-device). It is
// NumPy's loop (arr_interp / arr_interp_complex in numpy/_core/src/multiarray/compiled_base.c):
// float64 throughout, the value at a sample point exactly fp[j], and the same fallbacks when the
// interpolating product is not finite, so the values match NumPy's to the last bit. A complex fp
// is two real ones (its real and imaginary parts) interpolated with the same interval.
#pragma once
#include <cstdint>

namespace accel::kernels {

// interp_values: out[k] = fp's piecewise-linear function through (xp, fp) at x[k], for the
// `count` values of x. Everything contiguous; fp and out hold `components` doubles per point
// (1: float64, 2: complex128).
struct InterpParams {
  const double* x;
  const double* xp;
  const double* fp;
  double* out;
  int64_t count, n;           // values of x; sample points
  double left[2], right[2];   // the value below xp[0] and above xp[n - 1], per component,
  int32_t components;         // where `given` has bit 0 (left) or bit 1 (right) set: else
  int32_t given;              // fp[0] and fp[n - 1]
};
static_assert(sizeof(InterpParams) == 8 * 6 + 8 * 4 + 8, "InterpParams layout");

// slope * d rounded by itself: NumPy's loop has no fused multiply-add, and NVRTC would contract
// slope * d + fp[j] into one (the CPU build compiles with -ffp-contract=off).
inline double interp_product(double slope, double d) {
#ifdef __CUDACC_RTC__
  return __dmul_rn(slope, d);
#else
  return slope * d;
#endif
}

// The last j with xp[j] <= x among the n (>= 1) increasing xp; -1 when x < xp[0] or x is NaN.
// A NaN in xp counts as above every x, as in NumPy's bisection (`key >= arr[imid]`). For
// increasing xp this is the interval NumPy's binary_search_with_guess finds; for xp out of order
// (NumPy does not check) the two may pick different intervals. Without branches on the data:
// the step is added times 0 or 1, so random x cost no mispredictions.
inline int64_t interp_interval(double x, const double* xp, int64_t n) {
  int64_t base = 0;
  for (int64_t len = n; len > 1;) {
    const int64_t half = len / 2;
    base += half * static_cast<int64_t>(x >= xp[base + half]);
    len -= half;
  }
  return base - static_cast<int64_t>(!(x >= xp[base]));
}

// The line through (x0, y0) and (x1, y1) of that slope at x, by NumPy's arithmetic.
inline double interp_line(double x, double x0, double x1, double y0, double y1, double slope) {
  double v = interp_product(slope, x - x0) + y0;
  if (v != v) {  // an infinite slope or sample: from the other end, then a flat interval's value
    v = interp_product(slope, x - x1) + y1;
    if (v != v && y0 == y1) v = y0;
  }
  return v;
}

// The value below xp[0] (right: above xp[n - 1]): p.left / p.right where given, else fp's end.
inline const double* interp_end(const InterpParams& p, bool right) {
  if (p.given & (right ? 2 : 1)) return right ? p.right : p.left;
  return right ? p.fp + (p.n - 1) * p.components : p.fp;
}

// out[0 .. components) = the value at x, whose interval is j = interp_interval(x, xp, n) (any
// j for a NaN x). left / right hold one value per component.
inline void interp_at(double x, int64_t j, const double* xp, const double* fp, int64_t n,
                      int components, const double* left, const double* right, double* out) {
  if (n == 1) {  // below, above, else (a NaN x too) the one value
    for (int c = 0; c < components; ++c)
      out[c] = x < xp[0] ? left[c] : x > xp[0] ? right[c] : fp[c];
    return;
  }
  if (x != x) {  // NaN: NumPy gives x, and x + 0j for a complex fp
    out[0] = x;
    if (components == 2) out[1] = 0.0;
    return;
  }
  const double* ends = x > xp[n - 1] ? right : j < 0 ? left : nullptr;
  if (ends) {
    for (int c = 0; c < components; ++c) out[c] = ends[c];
    return;
  }
  if (j == n - 1 || xp[j] == x) {  // at a sample point: its value, never a non-finite product
    for (int c = 0; c < components; ++c) out[c] = fp[j * components + c];
    return;
  }
  const double x0 = xp[j], x1 = xp[j + 1];
  if (components == 1) {  // NumPy divides by the interval for a real fp ...
    out[0] = interp_line(x, x0, x1, fp[j], fp[j + 1], (fp[j + 1] - fp[j]) / (x1 - x0));
    return;
  }
  const double inverse = 1.0 / (x1 - x0);  // ... and multiplies by its inverse for a complex one
  for (int c = 0; c < 2; ++c) {
    const double y0 = fp[2 * j + c], y1 = fp[2 * j + 2 + c];
    out[c] = interp_line(x, x0, x1, y0, y1, (y1 - y0) * inverse);
  }
}

inline void interp_point(double x, const double* xp, const double* fp, int64_t n, int components,
                         const double* left, const double* right, double* out) {
  interp_at(x, interp_interval(x, xp, n), xp, fp, n, components, left, right, out);
}

}  // namespace accel::kernels
