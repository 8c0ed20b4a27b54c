#include "accel/ops/creation.h"

#include <array>
#include <cmath>
#include <limits>
#include <string>

#include "accel/backend/backend.h"
#include "accel/ops/copy.h"
#include "accel/ops/elementwise.h"
#include "accel/ops/promotion.h"
#include "accel/runtime/errors.h"

namespace accel {
namespace {

// One element of any dtype in host memory (complex128, 16 bytes, is the widest).
using HostValue = std::array<unsigned char, 16>;

// The single value of a 0-d array (on any device) converted to `dtype`.
HostValue host_value(const Array& v, Dtype dtype) {
  HostValue bytes{};
  v.copy_to_host(bytes.data(), dtype);
  return bytes;
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

HostValue one_of(Dtype dtype) { return host_value(Array::scalar(int64_t{1}), dtype); }

void check_scalar_argument(const Array& v, const char* name, const char* op) {
  if (v.ndim() != 0)
    throw ShapeError(std::string("[") + op + "] " + name + " must be a scalar; got " + v.describe());
  if (is_complex(v.dtype()))
    throw DTypeError(std::string("[") + op + "] " + name + " must be real; got " + v.describe());
}

// The exact integer value of a 0-d integer or bool array.
__int128 exact_integer(const Array& v) {
  if (v.dtype() == Dtype::uint64) return static_cast<__int128>(v.item<uint64_t>());
  return static_cast<__int128>(v.item<int64_t>());
}

// An integer as a weak scalar, so check_weak_fits can reject values the dtype cannot hold.
Array weak_integer(__int128 v) {
  if (v > std::numeric_limits<int64_t>::max())
    return Array::scalar(static_cast<uint64_t>(v), true, Device::cpu());
  return Array::scalar(static_cast<int64_t>(v), true, Device::cpu());
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
  Array diag = subtract(cols, rows);  // j - i: 0 on the main diagonal
  Array k_arr = weak_scalar(k, dev);
  Array keep = lower ? less_equal(diag, k_arr) : greater_equal(diag, k_arr);
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

Array empty(const Shape& shape, Dtype dtype, Device device) {
  check_shape(shape, "empty");
  return Array::empty(shape, dtype, device);
}

Array zeros(const Shape& shape, Dtype dtype, Device device) {
  return filled(shape, dtype, device, HostValue{}, "zeros");
}

Array ones(const Shape& shape, Dtype dtype, Device device) {
  return filled(shape, dtype, device, one_of(dtype), "ones");
}

Array full(const Shape& shape, const Array& fill_value, std::optional<Dtype> dtype, Device device) {
  // A weak scalar already carries its kind's default dtype (bool, int64, float64, complex128).
  const Dtype dt = dtype.value_or(fill_value.dtype());
  check_weak_fits(fill_value, dt, "full");
  if (fill_value.ndim() == 0) return filled(shape, dt, device, host_value(fill_value, dt), "full");
  check_shape(shape, "full");
  Array out = Array::empty(shape, dt, device);
  assign(out, fill_value, "full");
  return out;
}

Array empty_like(const Array& x, std::optional<Dtype> dtype, std::optional<Device> device) {
  return empty(x.shape(), dtype.value_or(x.dtype()), device.value_or(x.device()));
}

Array zeros_like(const Array& x, std::optional<Dtype> dtype, std::optional<Device> device) {
  return zeros(x.shape(), dtype.value_or(x.dtype()), device.value_or(x.device()));
}

Array ones_like(const Array& x, std::optional<Dtype> dtype, std::optional<Device> device) {
  return ones(x.shape(), dtype.value_or(x.dtype()), device.value_or(x.device()));
}

Array full_like(const Array& x, const Array& fill_value, std::optional<Dtype> dtype,
                std::optional<Device> device) {
  return full(x.shape(), fill_value, dtype.value_or(x.dtype()), device.value_or(x.device()));
}

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

  int64_t length = 0;
  Array first, second;  // the first two elements, before conversion to dt
  if (integral) {
    // Exact integer arithmetic: no rounding of large bounds through a double.
    const __int128 s = exact_integer(start), e = exact_integer(stop), d = exact_integer(step);
    if (d == 0) throw ValueError("[arange] step must not be zero");
    const __int128 diff = e - s;
    __int128 q = diff / d;
    if (diff % d != 0 && ((diff > 0) == (d > 0))) ++q;
    length = static_cast<int64_t>(q > 0 ? q : 0);
    first = weak_integer(s);
    second = weak_integer(s + d);
  } else {
    const double s = start.item<double>(), e = stop.item<double>(), d = step.item<double>();
    if (d == 0) throw ValueError("[arange] step must not be zero");
    const double q = std::ceil((e - s) / d);
    if (std::isnan(q))
      throw ValueError("[arange] cannot compute the length of arange(" + std::to_string(s) + ", " +
                       std::to_string(e) + ", " + std::to_string(d) + ")");
    if (q > static_cast<double>(std::numeric_limits<int64_t>::max() / 16))
      throw ValueError("[arange] the result would have " + std::to_string(q) +
                       " elements, more than any array can hold");
    length = q > 0 ? static_cast<int64_t>(q) : 0;
    first = Array::scalar(s, true, Device::cpu());
    second = Array::scalar(s + d, true, Device::cpu());
  }
  if (is_bool(dt) && length > 2)
    throw DTypeError("[arange] is only supported for booleans when the result has at most "
                     "length 2; got length " + std::to_string(length));
  check_weak_fits(first, dt, "arange");
  if (length > 1) check_weak_fits(second, dt, "arange");
  Array out = Array::empty({length}, dt, device);
  if (length > 0)
    backend_for(device).arange(out, host_value(first, dt).data(), host_value(second, dt).data());
  return out;
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
                            bool sparse) {
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
    out.push_back(copy(Array::view_of(a, shape, strides, a.offset())));
  }
  return out;
}

}  // namespace accel
