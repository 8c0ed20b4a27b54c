// sort, argsort and searchsorted with the Array API's keywords (descending=, stable=, side=,
// sorter=) and NumPy's (kind=, axis=None for the flattened array), as module functions and as
// ndarray methods (ndarray.sort sorts in place, as NumPy's); and interp, NumPy's signature.
#include <complex>
#include <string>

#include "bindings.h"

namespace accel::py {
namespace {

using namespace nb::literals;

// NumPy's kind= names one of its algorithms; every accel sort is stable, which satisfies them
// all, so the name is only checked.
void check_kind(nb::handle kind, nb::handle order, const char* op) {
  if (!order.is_none())
    throw nb::type_error((std::string("[") + op + "] order= sorts structured arrays by field; "
                          "accel has no structured dtypes").c_str());
  if (kind.is_none()) return;
  const std::string k = nb::cast<std::string>(kind);
  if (k != "quicksort" && k != "mergesort" && k != "heapsort" && k != "stable")
    throw ValueError(std::string("[") + op + "] kind must be one of 'quicksort', 'mergesort', "
                     "'heapsort' or 'stable', got '" + k + "'");
}

// axis=None sorts the flattened array (NumPy); an integer axis is used as it is.
template <Array (*Fn)(const Array&, int64_t, bool, bool)>
Array sort_like(nb::handle a, nb::handle axis, nb::handle kind, nb::handle order, bool descending,
                nb::handle stable, const char* op) {
  check_kind(kind, order, op);
  Array x = to_array(a);
  const bool is_stable = stable.is_none() || nb::cast<bool>(stable);
  if (axis.is_none()) return Fn(reshape(x, {x.size()}), 0, descending, is_stable);
  return Fn(x, index_int(axis), descending, is_stable);
}

bool side_right(const std::string& side) {
  if (side == "left") return false;
  if (side == "right") return true;
  throw ValueError("[searchsorted] side must be 'left' or 'right', got '" + side + "'");
}

Array searchsorted_of(nb::handle a, nb::handle v, const std::string& side, nb::handle sorter) {
  Array sorted = to_array(a);
  Array values = to_operand(v, sorted.device());
  std::optional<Array> order;
  if (!sorter.is_none()) order = to_operand(sorter, sorted.device());
  return searchsorted(sorted, values, side_right(side), order);
}

// A number as NumPy's interp reads it: float() for a real fp, complex() for a complex one (a
// complex left for a real fp is a TypeError, as there).
std::complex<double> interp_number(nb::handle v, bool complex_fp) {
  if (complex_fp) {
    const Py_complex c = PyComplex_AsCComplex(v.ptr());
    if (c.real == -1.0 && PyErr_Occurred()) throw nb::python_error();
    return {c.real, c.imag};
  }
  const double d = PyFloat_AsDouble(v.ptr());
  if (d == -1.0 && PyErr_Occurred()) throw nb::python_error();
  return d;
}

// The operands on the device of the first accel array among them (the default device if none).
Array interp_of(nb::handle x, nb::handle xp, nb::handle fp, nb::handle left, nb::handle right,
                nb::handle period) {
  Device device = default_device();
  for (nb::handle h : {x, xp, fp})
    if (nb::isinstance<Array>(h)) {
      device = nb::cast<const Array&>(h).device();
      break;
    }
  const Array xs = to_operand(x, device), points = to_operand(xp, device);
  const Array values = to_operand(fp, device);
  const bool complex_fp = is_complex(values.dtype());
  std::optional<std::complex<double>> lo, hi;
  if (!left.is_none()) lo = interp_number(left, complex_fp);
  if (!right.is_none()) hi = interp_number(right, complex_fp);
  std::optional<double> p;
  // NumPy takes abs(period) first: a complex period is its modulus.
  if (!period.is_none()) {
    const nb::object magnitude = nb::steal(PyNumber_Absolute(period.ptr()));
    if (!magnitude.is_valid()) throw nb::python_error();
    p = interp_number(magnitude, false).real();
  }
  return interp(xs, points, values, lo, hi, p);
}

}  // namespace

void init_sorting(nb::module_& m) {
  nb::handle cls = m.attr("ndarray");
  m.def(
      "sort",
      [](nb::handle a, nb::handle axis, nb::handle kind, nb::handle order, bool descending,
         nb::handle stable) {
        return sort_like<&accel::sort>(a, axis, kind, order, descending, stable, "sort");
      },
      "a"_a, "axis"_a.none() = -1, "kind"_a.none() = nb::none(), "order"_a.none() = nb::none(), nb::kw_only(),
      "descending"_a = false, "stable"_a.none() = nb::none());
  m.def(
      "argsort",
      [](nb::handle a, nb::handle axis, nb::handle kind, nb::handle order, bool descending,
         nb::handle stable) {
        return sort_like<&accel::argsort>(a, axis, kind, order, descending, stable, "argsort");
      },
      "a"_a, "axis"_a.none() = -1, "kind"_a.none() = nb::none(), "order"_a.none() = nb::none(), nb::kw_only(),
      "descending"_a = false, "stable"_a.none() = nb::none());
  m.def("searchsorted", &searchsorted_of, "a"_a, "v"_a, "side"_a = "left", "sorter"_a.none() = nb::none());
  m.def("interp", &interp_of, "x"_a, "xp"_a, "fp"_a, "left"_a.none() = nb::none(),
        "right"_a.none() = nb::none(), "period"_a.none() = nb::none(),
        "Values at x of the piecewise-linear function through (xp, fp), as np.interp: xp "
        "increasing (any order with period), float64 arithmetic, complex128 for a complex fp.");

  // ndarray.sort is NumPy's in-place sort: the sorted values are written back into the array.
  nb::cpp_function_def<void>(
      [](nb::handle self, nb::handle axis, nb::handle kind, nb::handle order, nb::handle stable) {
        write_into(self, sort_like<&accel::sort>(self, axis, kind, order, false, stable, "sort"),
                   false, "sort");
      },
      nb::scope(cls), nb::name("sort"), nb::is_method(), "axis"_a.none() = -1, "kind"_a.none() = nb::none(),
      "order"_a.none() = nb::none(), nb::kw_only(), "stable"_a.none() = nb::none());
  nb::cpp_function_def<Array>(
      [](nb::handle self, nb::handle axis, nb::handle kind, nb::handle order, nb::handle stable) {
        return sort_like<&accel::argsort>(self, axis, kind, order, false, stable, "argsort");
      },
      nb::scope(cls), nb::name("argsort"), nb::is_method(), "axis"_a.none() = -1, "kind"_a.none() = nb::none(),
      "order"_a.none() = nb::none(), nb::kw_only(), "stable"_a.none() = nb::none());
  nb::cpp_function_def<Array>(
      [](nb::handle self, nb::handle v, const std::string& side, nb::handle sorter) {
        return searchsorted_of(self, v, side, sorter);
      },
      nb::scope(cls), nb::name("searchsorted"), nb::is_method(), "v"_a, "side"_a = "left",
      "sorter"_a.none() = nb::none());
}

}  // namespace accel::py
