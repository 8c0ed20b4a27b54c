// Sorting and searching on an array's device, dispatched here by device kind (cpu/sort.h,
// cpu/interp.h, cuda/sort_kernels.h) rather than through the Backend interface: entry points
// with one implementation per device kind do not need a virtual method in every backend
// (profiling and test backends included).
#pragma once
#include <complex>
#include <optional>

#include "accel/core/array.h"
#include "accel/device_src/interp.h"

namespace accel {

// Stable sort of `in` along `axis`, NaNs last (NumPy's order; complex lexicographic, a NaN part
// after every number). Descending is the reverse of an ascending sort of the reversed axis (NaNs
// first, equal elements keep their order). Writes the sorted values into `values` (in's dtype)
// and/or their positions along `axis` into `indices` (int64); either may be null; both have
// in's shape and any strides; all on in's device.
void sort_on_device(const Array& in, int axis, bool descending, const Array* values,
                    const Array* indices);
// out[i] = where values[i] goes in the sorted 1-d `sorted` (same dtype, NaNs last): the first
// position whose element is not less (right: greater) than it. out is int64 of values' shape.
void searchsorted_on_device(const Array& sorted, const Array& values, bool right, const Array& out);
// out[k] = the piecewise-linear function through the n points (xp, fp) at x[k], as np.interp
// computes it (device_src/interp.h): x and xp float64, fp and out both float64 or both complex128,
// out of x's shape; all contiguous. left / right are the values below xp[0] and above xp[n - 1]
// (only the real part is read for a real fp), fp's ends when absent.
void interp_on_device(const Array& x, const Array& xp, const Array& fp,
                      std::optional<std::complex<double>> left,
                      std::optional<std::complex<double>> right, const Array& out);
// The kernels' parameters for those arrays (the same struct on every device).
kernels::InterpParams interp_params(const Array& x, const Array& xp, const Array& fp,
                                    std::optional<std::complex<double>> left,
                                    std::optional<std::complex<double>> right, const Array& out);

}  // namespace accel
