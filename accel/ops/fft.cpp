#include "accel/ops/fft.h"

#include <cmath>
#include <string>

#include "accel/backend/fft.h"
#include "accel/core/half.h"
#include "accel/ops/fft_cufft.h"
#include "accel/ops/copy.h"
#include "accel/ops/elementwise.h"
#include "accel/runtime/errors.h"

namespace accel::fft {
namespace {

// NumPy 2 keeps single precision and takes everything else (integers and bool too) in double.
// float16 transforms in single precision too (result_type(float16, 1j) is complex64), but its
// inverse real transforms return float16 (result_type(float16, 1.0)).
bool single_precision(Dtype dt) {
  return dt == Dtype::float16 || dt == Dtype::float32 || dt == Dtype::complex64;
}
Dtype complex_for(Dtype dt) { return single_precision(dt) ? Dtype::complex64 : Dtype::complex128; }
Dtype real_for(Dtype dt) { return single_precision(dt) ? Dtype::float32 : Dtype::float64; }

// "backward" scales the inverse transform by 1/n, "forward" the forward one, "ortho" both by
// 1/sqrt(n). NumPy computes the factor in the input's real dtype: for float16 it is rounded to
// float16 (1/12 is 0.08331, 2^-11 off), which moves a complex64 result by thousands of ulps.
double norm_scale(Norm norm, int64_t n, bool forward, Dtype in) {
  const bool scaled = forward ? norm == Norm::forward : norm == Norm::backward;
  if (norm != Norm::ortho && !scaled) return 1.0;
  if (in == Dtype::float16) {
    const half length(static_cast<float>(n));
    const half divisor = norm == Norm::ortho ? half(std::sqrt(static_cast<float>(length))) : length;
    return static_cast<float>(half(1.0f / static_cast<float>(divisor)));
  }
  const double length = static_cast<double>(n);
  return 1.0 / (norm == Norm::ortho ? std::sqrt(length) : length);
}

// hfft and ihfft are irfft and rfft of the conjugate with the norm's direction swapped.
Norm swapped(Norm norm) {
  if (norm == Norm::backward) return Norm::forward;
  if (norm == Norm::forward) return Norm::backward;
  return Norm::ortho;
}

// One transform along one axis; n is the logical length (the output's for real_backward).
Array transform(const Array& x, std::optional<int64_t> n_arg, int64_t axis, Norm norm, FftKind kind,
                bool forward, const char* op) {
  require_fft_device(x.device(), op);
  const int ax = normalize_axis(axis, x.ndim(), op);
  const int64_t length = x.shape()[ax];
  const bool to_real = kind == FftKind::real_backward;
  const int64_t n = n_arg ? *n_arg : to_real ? 2 * (length - 1) : length;
  if (n < 1)
    throw ValueError(
        std::string("[") + op + "] invalid number of data points n=" + std::to_string(n) +
        " along axis " + std::to_string(ax) + "; it must be at least 1" +
        (n_arg ? ""
         : to_real
             ? " (n defaults to 2 (m - 1) for an input of length m=" + std::to_string(length) + ")"
             : " (n defaults to the axis's length)"));
  Dtype in_dtype = complex_for(x.dtype()), out_dtype = in_dtype;
  if (kind == FftKind::real_forward) {
    if (is_complex(x.dtype()))
      throw DTypeError(std::string("[") + op + "] takes real input, got " + dtype_name(x.dtype()) +
                       " (the complex transform is fft)");
    in_dtype = real_for(x.dtype());
  } else if (to_real) {
    out_dtype = real_for(x.dtype());
  }
  Array input = astype(x, in_dtype, false);
  input.eval();
  Shape shape = x.shape();
  shape[ax] = kind == FftKind::real_forward ? n / 2 + 1 : n;
  Array out = Array::empty(shape, out_dtype, x.device());
  const FftLines lines{ax, n, kind, forward, norm_scale(norm, n, forward, x.dtype())};
  if (input.device().is_cuda())
    cufft_transform(input, out, lines);
  else
    fft_on_device(input, out, lines);
  return to_real && x.dtype() == Dtype::float16 ? astype(out, Dtype::float16, false) : out;
}

// The axes and lengths of an N-d transform, as NumPy's _cook_nd_args: axes default to the last
// len(s) axes (or all), s to the input's lengths (-1 entries too); for the inverse real
// transform the last length defaults to 2 (m - 1).
struct NdAxes {
  std::vector<int64_t> sizes;
  std::vector<int> axes;
};

NdAxes nd_axes(const Array& x, const Sizes& s, const Sizes& axes, bool inverse_real,
               const char* op) {
  NdAxes nd;
  const int ndim = x.ndim();
  if (axes) {
    for (int64_t a : *axes) nd.axes.push_back(normalize_axis(a, ndim, op));
  } else {
    const int64_t count = s ? static_cast<int64_t>(s->size()) : ndim;
    for (int64_t i = 0; i < count; ++i) nd.axes.push_back(normalize_axis(i - count, ndim, op));
  }
  if (s && s->size() != nd.axes.size())
    throw ValueError(std::string("[") + op + "] s and axes have different lengths (" +
                     std::to_string(s->size()) + " and " + std::to_string(nd.axes.size()) + ")");
  for (size_t i = 0; i < nd.axes.size(); ++i) {
    const int64_t length = x.shape()[nd.axes[i]];
    nd.sizes.push_back(s && (*s)[i] != -1 ? (*s)[i] : length);
  }
  if (inverse_real && !s && !nd.axes.empty()) nd.sizes.back() = 2 * (x.shape()[nd.axes.back()] - 1);
  return nd;
}

Array complex_nd(const Array& x, const Sizes& s, const Sizes& axes, Norm norm, bool forward,
                 const char* op) {
  require_fft_device(x.device(), op);
  const NdAxes nd = nd_axes(x, s, axes, false, op);
  // Each transform converts its own input: the first one sees x's dtype (float16's norm
  // factor is rounded to float16 there, and only there, as in NumPy's axis-by-axis loop).
  Array result = nd.axes.empty() ? astype(x, complex_for(x.dtype()), false) : x;
  for (size_t i = nd.axes.size(); i-- > 0;)
    result = transform(result, nd.sizes[i], nd.axes[i], norm, FftKind::complex, forward, op);
  return result;
}

void require_an_axis(const NdAxes& nd, const char* op) {
  if (nd.axes.empty())
    throw ValueError(std::string("[") + op + "] needs at least one axis (the real transform's)");
}

}  // namespace

Norm norm_from_string(const std::string& name) {
  if (name == "backward") return Norm::backward;
  if (name == "ortho") return Norm::ortho;
  if (name == "forward") return Norm::forward;
  throw ValueError("[fft] norm must be \"backward\", \"ortho\" or \"forward\", got \"" + name +
                   "\"");
}

Array fft(const Array& x, std::optional<int64_t> n, int64_t axis, Norm norm) {
  return transform(x, n, axis, norm, FftKind::complex, true, "fft");
}

Array ifft(const Array& x, std::optional<int64_t> n, int64_t axis, Norm norm) {
  return transform(x, n, axis, norm, FftKind::complex, false, "ifft");
}

Array rfft(const Array& x, std::optional<int64_t> n, int64_t axis, Norm norm) {
  return transform(x, n, axis, norm, FftKind::real_forward, true, "rfft");
}

Array irfft(const Array& x, std::optional<int64_t> n, int64_t axis, Norm norm) {
  return transform(x, n, axis, norm, FftKind::real_backward, false, "irfft");
}

Array hfft(const Array& x, std::optional<int64_t> n, int64_t axis, Norm norm) {
  require_fft_device(x.device(), "hfft");
  // The conjugate of a real input is itself, and keeps its dtype (float16 gives float16).
  const Array conjugate = is_complex(x.dtype()) ? conj(x) : x;
  return transform(conjugate, n, axis, swapped(norm), FftKind::real_backward, false, "hfft");
}

Array ihfft(const Array& x, std::optional<int64_t> n, int64_t axis, Norm norm) {
  return conj(transform(x, n, axis, swapped(norm), FftKind::real_forward, true, "ihfft"));
}

Array fftn(const Array& x, const Sizes& s, const Sizes& axes, Norm norm) {
  return complex_nd(x, s, axes, norm, true, "fftn");
}

Array ifftn(const Array& x, const Sizes& s, const Sizes& axes, Norm norm) {
  return complex_nd(x, s, axes, norm, false, "ifftn");
}

Array rfftn(const Array& x, const Sizes& s, const Sizes& axes, Norm norm) {
  require_fft_device(x.device(), "rfftn");
  const NdAxes nd = nd_axes(x, s, axes, false, "rfftn");
  require_an_axis(nd, "rfftn");
  Array result =
      transform(x, nd.sizes.back(), nd.axes.back(), norm, FftKind::real_forward, true, "rfftn");
  for (size_t i = nd.axes.size() - 1; i-- > 0;)
    result = transform(result, nd.sizes[i], nd.axes[i], norm, FftKind::complex, true, "rfftn");
  return result;
}

Array irfftn(const Array& x, const Sizes& s, const Sizes& axes, Norm norm) {
  require_fft_device(x.device(), "irfftn");
  const NdAxes nd = nd_axes(x, s, axes, true, "irfftn");
  require_an_axis(nd, "irfftn");
  Array result = x;
  for (size_t i = 0; i + 1 < nd.axes.size(); ++i)
    result = transform(result, nd.sizes[i], nd.axes[i], norm, FftKind::complex, false, "irfftn");
  return transform(result, nd.sizes.back(), nd.axes.back(), norm, FftKind::real_backward, false,
                   "irfftn");
}

}  // namespace accel::fft
