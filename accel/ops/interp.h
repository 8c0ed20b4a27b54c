// np.interp: one-dimensional piecewise-linear interpolation, one kernel on every device
// (device_src/interp.h holds the arithmetic, NumPy's own, so values match it to the last bit).
#pragma once
#include <complex>
#include <optional>

#include "accel/core/array.h"

namespace accel {

// The values at x of the piecewise-linear function through the points (xp, fp): xp 1-d and
// increasing (not checked, as NumPy), fp 1-d of the same length n >= 1. Computed in float64:
// the result is float64 of x's shape, complex128 for a complex fp. Below xp[0] it is `left`,
// above xp[n - 1] `right` (fp[0] and fp[n - 1] when absent; a real fp reads the real part). With
// `period`, x and xp are taken modulo |period| (xp in any order; left and right are ignored).
// Raises ValueError for mismatched or empty points and a zero period, DTypeError for complex x
// or xp, DeviceError for operands on different devices.
Array interp(const Array& x, const Array& xp, const Array& fp,
             std::optional<std::complex<double>> left = std::nullopt,
             std::optional<std::complex<double>> right = std::nullopt,
             std::optional<double> period = std::nullopt);

}  // namespace accel
