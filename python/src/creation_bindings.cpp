// Creation functions: zeros, ones, empty, full (+ *_like), arange, linspace, eye, identity,
// tril, triu, meshgrid. Arguments follow the Array API with NumPy's positional forms accepted.
#include <nanobind/stl/string.h>

#include <algorithm>
#include <utility>

#include "bindings.h"
#include "fast_methods.h"

namespace accel::py {
namespace {

Device device_or_default(nb::handle device) {
  // None first: building the optional for it cost a store-forwarding stall on every creation.
  if (device.is_none()) return default_device();
  return *to_optional_device(device);
}

// The fill value as an operand: Python scalars stay weak so they take their kind's default
// dtype (bool, int64, float64, complex128); arrays keep theirs.
Array fill_operand(nb::handle v) { return to_operand(v, Device::cpu()); }

// A Python int (not a bool) that fits in int64.
bool exact_int64(nb::handle v, int64_t& out) {
  if (!PyLong_CheckExact(v.ptr())) return false;
  int overflow = 0;
  const long long x = PyLong_AsLongLongAndOverflow(v.ptr(), &overflow);
  if (overflow || (x == -1 && PyErr_Occurred())) {
    PyErr_Clear();
    return false;
  }
  out = x;
  return true;
}

// order= of a new array without a prototype: C or F ('A' and 'K' mean C there, as NumPy's).
Order new_array_order(nb::handle order) {
  const Order o = to_order(order, "creation", Order::C);
  return o == Order::F ? Order::F : Order::C;
}

// An array argument of *_like and tril/triu (NumPy arrays and sequences are accepted too).
Array array_argument(nb::handle x) { return asarray(x, std::nullopt, std::nullopt, std::nullopt); }

bool is_complex_argument(nb::handle v) {
  if (PyComplex_Check(v.ptr())) return true;
  if (nb::isinstance<Array>(v)) return is_complex(nb::cast<const Array&>(v).dtype());
  return nb::hasattr(v, "dtype") && nb::cast<std::string>(v.attr("dtype").attr("kind")) == "c";
}

std::complex<double> complex_value(nb::handle v) {
  Py_complex c = PyComplex_AsCComplex(v.ptr());
  if (PyErr_Occurred()) throw nb::python_error();
  return {c.real, c.imag};
}

// shape= of the *_like functions: None keeps the prototype's.
std::optional<Shape> optional_shape(nb::handle shape) {
  if (shape.is_none()) return std::nullopt;
  return to_shape(shape);
}

// empty, zeros and ones: a shape, a dtype (None: the default float), NumPy's order (C or F)
// and a device (None: the default one).
template <Array (*Make)(const Shape&, Dtype, Device, Order)>
Array shaped(nb::handle shape, nb::handle dtype, nb::handle order, nb::handle device) {
  return Make(to_shape(shape), to_optional_dtype(dtype).value_or(default_float),
              device_or_default(device), new_array_order(order));
}

// The same with NumPy's like= (the full functions; the fast paths take neither).
template <Array (*Make)(const Shape&, Dtype, Device, Order)>
Array shaped_like(nb::handle shape, nb::handle dtype, nb::handle order, nb::handle device,
                  nb::handle like) {
  return Make(to_shape(shape), to_optional_dtype(dtype).value_or(default_float),
              device_with_like(device, like, "creation").value_or(default_device()),
              new_array_order(order));
}

}  // namespace

void init_creation(nb::module_& m) {
  using namespace nb::literals;
  m.def("empty", &shaped_like<&empty>, "shape"_a, "dtype"_a = nb::none(), "order"_a = "C",
        nb::kw_only(), "device"_a = nb::none(), "like"_a = nb::none(), "An uninitialised array.");
  m.def("zeros", &shaped_like<&zeros>, "shape"_a, "dtype"_a = nb::none(), "order"_a = "C",
        nb::kw_only(), "device"_a = nb::none(), "like"_a = nb::none());
  m.def("ones", &shaped_like<&ones>, "shape"_a, "dtype"_a = nb::none(), "order"_a = "C",
        nb::kw_only(), "device"_a = nb::none(), "like"_a = nb::none());
  // zeros(n), zeros((2, 3), float32), zeros(n, dtype=float32): a shape and a dtype.
#define ACCEL_SHAPED_FAST(name)                                                                   \
  def_fast_function_with_keywords(                                                                \
      m, #name, [](PyObject*, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) {      \
        PyObject* a[2];                                                                           \
        if (!bind_arguments(args, nargs, kwnames, {"shape", "dtype"}, a) || !a[0])               \
          return static_cast<PyObject*>(nullptr);                                                 \
        return wrap(shaped<&name>(a[0], nb::handle(a[1] ? a[1] : Py_None), nb::none(), nb::none())) \
            .release()                                                                            \
            .ptr();                                                                               \
      });
  ACCEL_SHAPED_FAST(empty)
  ACCEL_SHAPED_FAST(zeros)
  ACCEL_SHAPED_FAST(ones)
#undef ACCEL_SHAPED_FAST
  m.def("full", [](nb::handle shape, nb::handle fill_value, nb::handle dtype, nb::handle order,
                   nb::handle device, nb::handle like) {
    return full(to_shape(shape), fill_operand(fill_value), to_optional_dtype(dtype),
                device_with_like(device, like, "full").value_or(default_device()),
                new_array_order(order));
  }, "shape"_a, "fill_value"_a, "dtype"_a = nb::none(), "order"_a = "C", nb::kw_only(),
     "device"_a = nb::none(), "like"_a = nb::none(),
     "Every element = fill_value; without dtype, a Python scalar gives bool, int64, float64 or "
     "complex128.");

  // NumPy's order: K (the default) lays the result out as x, A as x when x is Fortran-ordered;
  // shape= replaces x's shape (NumPy's signature, its name a for x, subok accepted: accel has
  // no subclasses).
#define ACCEL_LIKE(name)                                                                        \
  m.def(#name, [](nb::handle x, nb::handle dtype, nb::handle order, nb::handle, nb::handle shape, \
                  nb::handle device) {                                                          \
    return name(array_argument(x), to_optional_dtype(dtype), to_optional_device(device),         \
                to_order(order, #name, Order::K), optional_shape(shape));                        \
  }, "a"_a, "dtype"_a = nb::none(), "order"_a = "K", "subok"_a = true, "shape"_a = nb::none(),   \
     nb::kw_only(), "device"_a = nb::none());
  ACCEL_LIKE(empty_like)
  ACCEL_LIKE(zeros_like)
  ACCEL_LIKE(ones_like)
#undef ACCEL_LIKE
  m.def("full_like", [](nb::handle x, nb::handle fill_value, nb::handle dtype, nb::handle order,
                        nb::handle, nb::handle shape, nb::handle device) {
    return full_like(array_argument(x), fill_operand(fill_value), to_optional_dtype(dtype),
                     to_optional_device(device), to_order(order, "full_like", Order::K),
                     optional_shape(shape));
  }, "a"_a, "fill_value"_a, "dtype"_a = nb::none(), "order"_a = "K", "subok"_a = true,
     "shape"_a = nb::none(), nb::kw_only(), "device"_a = nb::none());

  m.def("arange", [](nb::handle start, nb::handle stop, nb::handle step, nb::handle dtype,
                     nb::handle device_arg, nb::handle like) {
    const nb::object device = like.is_none() ? nb::borrow(device_arg) : nb::cast(
        device_with_like(device_arg, like, "arange").value_or(default_device()));
    // Python ints (the common arange(n)) go straight to the integer overload.
    int64_t first = 0, last = 0, by = 0;
    if (exact_int64(start, first) && exact_int64(step, by) &&
        (stop.is_none() || exact_int64(stop, last))) {
      if (stop.is_none()) last = std::exchange(first, 0);
      return arange(first, last, by, to_optional_dtype(dtype), device_or_default(device));
    }
    // NumPy's arange types each argument by its kind alone: integers and bools as int64
    // (uint64 as itself), floats as float64, complex as complex128; then promotes them, the
    // default start and step (int64) included: np.arange(np.float32(0.5), np.float32(3)) is
    // float64, np.arange(np.int8(5)) int64, np.arange(np.uint64(5)) float64.
    auto strong = [](nb::handle v) {
      const Array a = fill_operand(v);
      const Dtype d = a.dtype();
      const Dtype as = d == Dtype::uint64                       ? Dtype::uint64
                       : dtype_kind(d) == DtypeKind::Complex ? Dtype::complex128
                       : dtype_kind(d) == DtypeKind::Float   ? Dtype::float64
                                                             : Dtype::int64;
      return astype(a, as);
    };
    Array lo = strong(start), hi;
    if (stop.is_none()) {
      hi = lo;
      lo = Array::scalar(int64_t{0}, false, Device::cpu());
    } else {
      hi = strong(stop);
    }
    return arange(lo, hi, strong(step), to_optional_dtype(dtype), device_or_default(device));
  }, "start"_a, "stop"_a = nb::none(), "step"_a = 1, "dtype"_a = nb::none(), nb::kw_only(),
     "device"_a = nb::none(), "like"_a = nb::none(),
     "Values from start (default 0) up to stop in steps of step, as NumPy's arange.");
  // Python numbers only: accel.linspace (_np_creation.py) takes arrays and NumPy scalars, whose
  // dtype and shape the result follows.
  m.def("_linspace_scalars", [](nb::handle start, nb::handle stop, int64_t num, bool endpoint,
                       nb::handle dtype, nb::handle device) {
    auto dt = to_optional_dtype(dtype);
    Device dev = device_or_default(device);
    if (is_complex_argument(start) || is_complex_argument(stop))
      return linspace(complex_value(start), complex_value(stop), num, endpoint, dt, dev);
    return linspace(nb::cast<double>(nb::float_(start)), nb::cast<double>(nb::float_(stop)), num,
                    endpoint, dt, dev);
  }, "start"_a, "stop"_a, "num"_a = 50, "endpoint"_a = true, nb::kw_only(), "dtype"_a = nb::none(),
     "device"_a = nb::none());
  // NumPy's names and order (the Array API's n_rows and n_cols are positional-only).
  m.def("eye", [](int64_t n_rows, std::optional<int64_t> n_cols, nb::int_ k, nb::handle dtype,
                  nb::handle order, nb::handle device, nb::handle like) {
    // NumPy takes any Python int for k. A diagonal outside the matrix has no ones, so k is
    // clamped to [-n_rows, n_cols], which also keeps k = 2**63 from overflowing int64.
    int overflow = 0;
    const long long v = PyLong_AsLongLongAndOverflow(k.ptr(), &overflow);
    if (v == -1 && PyErr_Occurred()) throw nb::python_error();
    const int64_t lo = -std::max<int64_t>(n_rows, 0);
    const int64_t hi = std::max<int64_t>(n_cols.value_or(n_rows), 0);
    const int64_t diagonal = overflow > 0 ? hi : overflow < 0 ? lo : std::clamp<int64_t>(v, lo, hi);
    Array r = eye(n_rows, n_cols, diagonal, to_optional_dtype(dtype).value_or(default_float),
                  device_with_like(device, like, "eye").value_or(default_device()));
    return new_array_order(order) == Order::F ? accel::copy(r, Order::F) : r;
  }, "N"_a, "M"_a = nb::none(), "k"_a = 0, "dtype"_a = nb::none(), "order"_a = "C", nb::kw_only(),
     "device"_a = nb::none(), "like"_a = nb::none());
  m.def("identity", [](int64_t n, nb::handle dtype, nb::handle device, nb::handle like) {
    return identity(n, to_optional_dtype(dtype).value_or(default_float),
                    device_with_like(device, like, "identity").value_or(default_device()));
  }, "n"_a, "dtype"_a = nb::none(), nb::kw_only(), "device"_a = nb::none(), "like"_a = nb::none());
  // NumPy's name for the matrix, m (the Array API's x is positional-only).
  m.def("tril", [](nb::handle x, int64_t k) { return tril(array_argument(x), k); }, "m"_a, "k"_a = 0);
  m.def("triu", [](nb::handle x, int64_t k) { return triu(array_argument(x), k); }, "m"_a, "k"_a = 0);
  m.def("meshgrid", [](nb::args arrays, const std::string& indexing, bool sparse, bool copy) {
    std::vector<Array> in;
    for (nb::handle h : arrays) in.push_back(array_argument(h));
    nb::list out;
    for (const Array& a : meshgrid(in, indexing, sparse, copy)) out.append(nb::cast(a));
    return nb::tuple(out);
  }, "arrays"_a, nb::kw_only(), "indexing"_a = "xy", "sparse"_a = false, "copy"_a = true,
     "Coordinate grids from 1-d arrays ('xy': Cartesian, 'ij': matrix indexing), as a tuple; "
     "copy=False gives views of the inputs (read-only where the grid repeats them).");
}

}  // namespace accel::py
