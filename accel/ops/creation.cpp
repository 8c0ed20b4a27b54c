#include "accel/ops/creation.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>

#include "accel/backend/backend.h"
#include "accel/device_src/scalar_ops.h"
#include "accel/ops/copy.h"
#include "accel/ops/elementwise.h"
#include "accel/ops/promotion.h"
#include "accel/ops/result_layout.h"
#include "accel/runtime/errors.h"

namespace accel {
namespace {

// One element of any dtype in host memory (complex128, 16 bytes, is the widest).
using HostValue = std::array<unsigned char, 16>;

// A host value of C++ type F converted to one element of `dtype` (NumPy's conversion rules).
template <class F> HostValue converted(F x, Dtype dtype) {
  HostValue bytes{};
  dispatch_dtype(dtype, [&](auto to) {
    using T = typename decltype(to)::type;
    const T y = scalar::convert<T>(x);
    std::memcpy(bytes.data(), static_cast<const void*>(&y), sizeof(T));
  });
  return bytes;
}

// The single value of a 0-d array (on any device) converted to `dtype`. Computed CPU values
// are converted in place: arguments are read several times per call, and a strided copy
// through the backend costs more than the whole of a small arange.
HostValue host_value(const Array& v, Dtype dtype) {
  if (!v.device().is_cpu() || v.is_pending()) {
    HostValue bytes{};
    v.copy_to_host(bytes.data(), dtype);
    return bytes;
  }
  const void* src = v.data();
  return dispatch_dtype(v.dtype(), [&](auto from) {
    using F = typename decltype(from)::type;
    F x;
    std::memcpy(static_cast<void*>(&x), src, sizeof(F));
    return converted(x, dtype);
  });
}

template <class T> T value_as(const Array& v) {
  HostValue bytes = host_value(v, dtype_of<T>);
  T x;
  std::memcpy(static_cast<void*>(&x), bytes.data(), sizeof(T));
  return x;
}

void check_shape(const Shape& shape, const char* op) {
  for (int64_t d : shape)
    if (d < 0)
      throw ShapeError(std::string("[") + op + "] negative dimensions are not allowed; got shape " +
                       shape_str(shape));
}

Array filled(const Shape& shape, Dtype dtype, Device device, const HostValue& value,
             const char* op) {
  check_shape(shape, op);
  Array out = Array::empty(shape, dtype, device);
  backend_for(device).fill(out, value.data());
  return out;
}

HostValue one_of(Dtype dtype) { return converted(int64_t{1}, dtype); }

void check_scalar_argument(const Array& v, const char* name, const char* op) {
  if (v.ndim() != 0)
    throw ShapeError(std::string("[") + op + "] " + name + " must be a scalar; got " + v.describe());
  if (is_complex(v.dtype()))
    throw DTypeError(std::string("[") + op + "] " + name + " must be real; got " + v.describe());
}

// The exact integer value of a 0-d integer or bool array.
__int128 exact_integer(const Array& v) {
  if (v.dtype() == Dtype::uint64) return static_cast<__int128>(value_as<uint64_t>(v));
  return static_cast<__int128>(value_as<int64_t>(v));
}

// NumPy refuses Python integers an integer dtype cannot hold (arange's first two elements,
// full's fill value).
void check_integer_fits(__int128 v, Dtype dt, const char* op) {
  if (!is_integer(dt)) return;
  __int128 lo = 0, hi = 0;
  dispatch_dtype(dt, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_integral_v<T>) {
      lo = static_cast<__int128>(std::numeric_limits<T>::min());
      hi = static_cast<__int128>(std::numeric_limits<T>::max());
    }
  });
  if (v >= lo && v <= hi) return;
  std::string digits;
  for (unsigned __int128 u = v < 0 ? -static_cast<unsigned __int128>(v) : v; u || digits.empty(); u /= 10)
    digits.insert(digits.begin(), static_cast<char>('0' + static_cast<int>(u % 10)));
  throw OverflowError(std::string("[") + op + "] Python integer " + (v < 0 ? "-" : "") + digits +
                      " out of bounds for " + dtype_name(dt));
}

// An exact integer as one element of `dtype` (wrapping around like NumPy's integer casts).
HostValue integer_value(__int128 v, Dtype dtype) {
  if (v > std::numeric_limits<int64_t>::max()) return converted(static_cast<uint64_t>(v), dtype);
  return converted(static_cast<int64_t>(v), dtype);
}

// Where the k-th diagonal mask of the last two axes holds, `x`; elsewhere zero.
Array triangle(const Array& x, int64_t k, bool lower, const char* op) {
  if (x.ndim() < 2)
    throw ShapeError(std::string("[") + op + "] needs an array of at least 2 dimensions; got " +
                     x.describe());
  const int64_t m = x.shape(-2), n = x.shape(-1);
  const Device dev = x.device();
  Array rows = arange(int64_t{0}, m, int64_t{1}, Dtype::int64, dev);
  rows = Array::view_of(rows, {m, 1}, {1, 0}, rows.offset());
  Array cols = arange(int64_t{0}, n, int64_t{1}, Dtype::int64, dev);
  cols = Array::view_of(cols, {1, n}, {0, 1}, cols.offset());
  // Element (i, j) is kept when j <= i + k (lower) or j >= i + k (upper). k beyond the matrix
  // means all or nothing; clamping it keeps i + k from overflowing.
  k = std::clamp<int64_t>(k, -m - 1, n + 1);
  Array shifted = add(rows, weak_scalar(k, dev));
  Array keep = lower ? less_equal(cols, shifted) : greater_equal(cols, shifted);
  return where(keep, x, zeros({}, x.dtype(), dev));
}

template <class T>
Array linspace_impl(T start, T stop, int64_t num, bool endpoint, std::optional<Dtype> dtype,
                    Device device) {
  if (num < 0)
    throw ValueError("[linspace] number of samples, " + std::to_string(num) +
                     ", must be non-negative");
  const Dtype compute = is_complex_v<T> ? Dtype::complex128 : Dtype::float64;
  const int64_t div = endpoint ? num - 1 : num;
  const T delta = stop - start;
  auto scalar = [&](T v) { return Array::scalar(v, false, device); };
  // NumPy's formula and rounding: index * step + start (index / div * delta for a step that
  // underflows to zero, and index * delta when there is no step).
  Array y = arange(int64_t{0}, num, int64_t{1}, compute, device);
  if (div > 0) {
    const T step = delta / static_cast<double>(div);
    if (step == T(0))
      y = multiply(divide(y, scalar(T(static_cast<double>(div)))), scalar(delta));
    else
      y = multiply(y, scalar(step));
  } else {
    y = multiply(y, scalar(delta));
  }
  y = add(y, scalar(start));
  if (endpoint && num > 1) {
    y.eval();
    assign(Array::view_of(y, {}, {}, y.offset() + num - 1), scalar(stop), "linspace");
  }
  const Dtype out = dtype.value_or(compute);
  if (is_integer(out)) y = floor(y);
  return astype(y, out, false);
}

}  // namespace

namespace {

// A dense new array re-described with `layout` (dense strides of its shape; empty: C order):
// its values stay where every element holds the same one (a fill) or none yet (empty).
Array restrided(Array out, Strides layout) {
  if (!layout.empty()) out.impl()->strides = std::move(layout);
  return out;
}

}  // namespace

Array empty(const Shape& shape, Dtype dtype, Device device, Order order) {
  check_shape(shape, "empty");
  return Array::empty(shape, dtype, device, order_layout(shape, order));
}

Array zeros(const Shape& shape, Dtype dtype, Device device, Order order) {
  return restrided(filled(shape, dtype, device, HostValue{}, "zeros"), order_layout(shape, order));
}

Array ones(const Shape& shape, Dtype dtype, Device device, Order order) {
  return restrided(filled(shape, dtype, device, one_of(dtype), "ones"), order_layout(shape, order));
}

Array full(const Shape& shape, const Array& fill_value, std::optional<Dtype> dtype, Device device,
           Order order) {
  // A weak scalar already carries its kind's default dtype (bool, int64, float64, complex128).
  const Dtype dt = dtype.value_or(fill_value.dtype());
  if (fill_value.weak() && is_integer(fill_value.dtype()))
    check_integer_fits(exact_integer(fill_value), dt, "full");
  if (fill_value.ndim() == 0)
    return restrided(filled(shape, dt, device, host_value(fill_value, dt), "full"),
                     order_layout(shape, order));
  check_shape(shape, "full");
  Array out = Array::empty(shape, dt, device, order_layout(shape, order));
  assign(out, fill_value, "full");
  return out;
}

// The *_like functions lay their result out as x is by default (NumPy's order='K':
// np.zeros_like(m.T) is stored as m.T; result_layout.h).
Array empty_like(const Array& x, std::optional<Dtype> dtype, std::optional<Device> device,
                 Order order, const std::optional<Shape>& shape) {
  const Shape& s = shape ? *shape : x.shape();
  return restrided(empty(s, dtype.value_or(x.dtype()), device.value_or(x.device())),
                   order_layout(s, order, &x));
}

Array zeros_like(const Array& x, std::optional<Dtype> dtype, std::optional<Device> device,
                 Order order, const std::optional<Shape>& shape) {
  const Shape& s = shape ? *shape : x.shape();
  return restrided(zeros(s, dtype.value_or(x.dtype()), device.value_or(x.device())),
                   order_layout(s, order, &x));
}

Array ones_like(const Array& x, std::optional<Dtype> dtype, std::optional<Device> device,
                Order order, const std::optional<Shape>& shape) {
  const Shape& s = shape ? *shape : x.shape();
  return restrided(ones(s, dtype.value_or(x.dtype()), device.value_or(x.device())),
                   order_layout(s, order, &x));
}

Array full_like(const Array& x, const Array& fill_value, std::optional<Dtype> dtype,
                std::optional<Device> device, Order order, const std::optional<Shape>& shape) {
  const Dtype dt = dtype.value_or(x.dtype());
  const Device dev = device.value_or(x.device());
  const Shape& s = shape ? *shape : x.shape();
  if (fill_value.ndim() == 0) return restrided(full(s, fill_value, dt, dev), order_layout(s, order, &x));
  // An array fill (NumPy broadcasts it) is written into memory laid out already.
  Array out = empty_like(x, dt, dev, order, shape);
  assign(out, fill_value, "full_like");
  return out;
}

namespace {

// arange from its length and first two elements (in the result dtype).
Array arange_filled(int64_t length, const HostValue& first, const HostValue& second, Dtype dt,
                    Device device) {
  if (is_bool(dt) && length > 2)
    throw DTypeError("[arange] is only supported for booleans when the result has at most "
                     "length 2; got length " + std::to_string(length));
  Array out = Array::empty({length}, dt, device);
  if (length > 0)
    backend_for(device).arange(out, first.data(), second.data());
  return out;
}

// Integer bounds: exact arithmetic, no rounding of large bounds through a double.
Array arange_exact(__int128 s, __int128 e, __int128 d, Dtype dt, Device device) {
  if (d == 0) throw ValueError("[arange] step must not be zero");
  const __int128 diff = e - s;
  __int128 q = diff / d;
  if (diff % d != 0 && ((diff > 0) == (d > 0))) ++q;
  const auto length = static_cast<int64_t>(q > 0 ? q : 0);
  check_integer_fits(s, dt, "arange");
  if (length > 1) check_integer_fits(s + d, dt, "arange");
  return arange_filled(length, integer_value(s, dt), integer_value(s + d, dt), dt, device);
}

}  // namespace

Array arange(const Array& start, const Array& stop, const Array& step, std::optional<Dtype> dtype,
             Device device) {
  check_scalar_argument(start, "start", "arange");
  check_scalar_argument(stop, "stop", "arange");
  check_scalar_argument(step, "step", "arange");
  const Array args[] = {start, stop, step};
  const bool integral = !is_floating(start.dtype()) && !is_floating(stop.dtype()) &&
                        !is_floating(step.dtype());
  Dtype dt = dtype.value_or(result_type(args));
  if (!dtype && is_bool(dt)) dt = default_int;
  if (integral)
    return arange_exact(exact_integer(start), exact_integer(stop), exact_integer(step), dt, device);

  const double s = value_as<double>(start), e = value_as<double>(stop), d = value_as<double>(step);
  if (d == 0) throw ValueError("[arange] step must not be zero");
  // NumPy: a span that is not zero but whose quotient underflows to zero holds one element
  // when the quotient is +0.0 (the step goes the span's way), none when it is -0.0.
  const double span = e - s, quotient = span / d;
  const double q = quotient == 0 && span != 0 ? (std::signbit(quotient) ? 0.0 : 1.0)
                                              : std::ceil(quotient);
  if (std::isnan(q))
    throw ValueError("[arange] cannot compute the length of arange(" + std::to_string(s) + ", " +
                     std::to_string(e) + ", " + std::to_string(d) + ")");
  if (q > static_cast<double>(std::numeric_limits<int64_t>::max() / 16))
    throw ValueError("[arange] the result would have " + std::to_string(q) +
                     " elements, more than any array can hold");
  const int64_t length = q > 0 ? static_cast<int64_t>(q) : 0;
  return arange_filled(length, converted(s, dt), converted(s + d, dt), dt, device);
}

Array arange(int64_t start, int64_t stop, int64_t step, std::optional<Dtype> dtype, Device device) {
  return arange_exact(start, stop, step, dtype.value_or(default_int), device);
}

Array linspace(double start, double stop, int64_t num, bool endpoint, std::optional<Dtype> dtype,
               Device device) {
  return linspace_impl(start, stop, num, endpoint, dtype, device);
}

Array linspace(std::complex<double> start, std::complex<double> stop, int64_t num, bool endpoint,
               std::optional<Dtype> dtype, Device device) {
  return linspace_impl(start, stop, num, endpoint, dtype, device);
}

Array eye(int64_t n_rows, std::optional<int64_t> n_cols, int64_t k, Dtype dtype, Device device) {
  const int64_t n = n_cols.value_or(n_rows);
  Array out = zeros({n_rows, n}, dtype, device);
  // The k-th diagonal is a strided view: it starts at (0, k) or (-k, 0) and steps n + 1.
  // (k is clamped first: a diagonal outside the matrix is empty, and -k must not overflow.)
  k = std::clamp<int64_t>(k, -n_rows - 1, n + 1);
  const int64_t row0 = k >= 0 ? 0 : -k, col0 = k >= 0 ? k : 0;
  const int64_t len = std::min(n_rows - row0, n - col0);
  if (len > 0) {
    Array diag = Array::view_of(out, {len}, {n + 1}, row0 * n + col0);
    backend_for(device).fill(diag, one_of(dtype).data());
  }
  return out;
}

Array identity(int64_t n, Dtype dtype, Device device) { return eye(n, n, 0, dtype, device); }

Array tril(const Array& x, int64_t k) { return triangle(x, k, true, "tril"); }
Array triu(const Array& x, int64_t k) { return triangle(x, k, false, "triu"); }

std::vector<Array> meshgrid(const std::vector<Array>& arrays, std::string_view indexing,
                            bool sparse, bool copy_grids) {
  if (indexing != "xy" && indexing != "ij")
    throw ValueError("[meshgrid] indexing must be 'xy' or 'ij'; got '" + std::string(indexing) +
                     "'");
  const int nd = static_cast<int>(arrays.size());
  Shape grid(nd);
  for (int i = 0; i < nd; ++i) {
    if (arrays[i].ndim() > 1)
      throw ShapeError("[meshgrid] expects 0-d or 1-d arrays; argument " + std::to_string(i) +
                       " is a " + arrays[i].describe());
    if (arrays[i].device() != arrays[0].device())
      throw DeviceError("[meshgrid] arrays are on different devices (" +
                        arrays[0].device().str() + " and " + arrays[i].device().str() + ")");
    grid[i] = arrays[i].size();
  }
  // Cartesian indexing: the first array varies along axis 1 and the second along axis 0.
  auto axis_of = [&](int i) { return indexing == "xy" && nd >= 2 && i < 2 ? 1 - i : i; };
  if (indexing == "xy" && nd >= 2) std::swap(grid[0], grid[1]);
  std::vector<Array> out;
  out.reserve(nd);
  for (int i = 0; i < nd; ++i) {
    const Array& a = arrays[i];
    const int ax = axis_of(i);
    const int64_t stride = a.ndim() == 1 ? a.strides()[0] : 0;
    Shape shape(nd, 1);
    shape[ax] = grid[ax];
    Strides strides(nd, 0);
    strides[ax] = stride;
    if (!sparse) {
      shape = grid;
    }
    Array view = Array::view_of(a, shape, strides, a.offset());
    if (copy_grids) {
      out.push_back(copy(view));
      continue;
    }
    // NumPy's copy=False: views of the inputs. A dense grid repeats each element along the other
    // axes, so a write would reach many: read-only, as broadcast_to's views.
    if (shape_size(shape) > a.size()) view.impl()->read_only = true;
    out.push_back(view);
  }
  return out;
}

}  // namespace accel
