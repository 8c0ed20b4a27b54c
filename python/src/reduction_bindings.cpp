// Reductions and scans as module functions with NumPy's signatures (sum(a, axis, dtype, out,
// keepdims), amax, cumsum, var(..., ddof=) ...) and the Array API's (correction=,
// cumulative_sum(include_initial=)), and the same reductions as ndarray methods.
#include <string>

#include "bindings.h"
#include "fast_methods.h"

namespace accel::py {
namespace {

using namespace nb::literals;

bool is_single_index(nb::handle obj) {
  return PyLong_Check(obj.ptr()) || (nb::hasattr(obj, "__index__") && !PySequence_Check(obj.ptr()));
}

ReduceAxes axes_of(nb::handle axis) {
  if (!axis.is_none() && is_single_index(axis)) return ReduceAxes(index_int(axis));
  return ReduceAxes(to_axes(axis));
}

std::optional<int64_t> single_axis_of(nb::handle axis, const char* op) {
  if (axis.is_none()) return std::nullopt;
  if (!is_single_index(axis))
    throw nb::type_error((std::string("[") + op + "] axis must be None or an integer, got " +
                          nb::cast<std::string>(nb::repr(axis)))
                             .c_str());
  return index_int(axis);
}

// ddof (NumPy) and correction (Array API) name the same number.
double correction_of(nb::handle ddof, nb::handle correction, const char* op) {
  if (!ddof.is_none() && !correction.is_none())
    throw ValueError(std::string("[") + op + "] ddof and correction can't be provided simultaneously");
  if (!correction.is_none()) return nb::cast<double>(correction);
  if (!ddof.is_none()) return nb::cast<double>(ddof);
  return 0.0;
}

// A 1-d C-order view of x (NumPy's cumsum without an axis scans the flattened array).
Array flattened(const Array& x) {
  Array c = ascontiguousarray(x);
  return Array::view_of(c, {c.size()}, {1}, c.offset());
}

// Registers f as accel.<name>(a, ...) and as ndarray.<name>(self, ...).
template <class F, class... Extra>
void def_function_and_method(nb::module_& m, nb::handle cls, const char* name, F f,
                             const Extra&... extra) {
  m.def(name, f, "a"_a, extra...);
  nb::cpp_function_def<Array>(f, nb::scope(cls), nb::name(name), nb::is_method(), extra...);
}

// NumPy's where= and initial= (None: absent), on x's device; `initial` only where NumPy takes
// one (sum, prod, max, min).
ReduceOptions options_of(nb::handle where, nb::handle initial, const Array& x, const char* name,
                         bool takes_initial) {
  ReduceOptions o;
  if (!where.is_none() && !(PyBool_Check(where.ptr()) && where.ptr() == Py_True))
    o.where = to_operand(where, x.device());  // where=True, NumPy's default, leaves nothing out
  if (!initial.is_none()) {
    if (!takes_initial)
      throw nb::type_error((std::string(name) + "() got an unexpected keyword argument "
                            "'initial'").c_str());
    o.initial = to_operand(initial, x.device());
  }
  return o;
}

bool plain(nb::handle where, nb::handle initial) { return where.is_none() && initial.is_none(); }

template <Array (*Fn)(const Array&, const ReduceAxes&, bool, std::optional<Dtype>),
          Array (*WithOptions)(const Array&, const ReduceAxes&, bool, std::optional<Dtype>,
                               const ReduceOptions&)>
nb::object sum_like(nb::handle a, nb::handle axis, nb::handle dtype, nb::handle out, bool keepdims,
                    nb::handle initial, nb::handle where, const char* name, bool takes_initial) {
  ArrayArg x(a);
  if (plain(where, initial))
    return finish_out(Fn(x, axes_of(axis), keepdims, to_optional_dtype(dtype)), out, name);
  return finish_out(WithOptions(x, axes_of(axis), keepdims, to_optional_dtype(dtype),
                                options_of(where, initial, x, name, takes_initial)),
                    out, name);
}

template <Array (*Fn)(const Array&, const ReduceAxes&, bool),
          Array (*WithOptions)(const Array&, const ReduceAxes&, bool, const ReduceOptions&)>
nb::object max_like(nb::handle a, nb::handle axis, nb::handle out, bool keepdims,
                    nb::handle initial, nb::handle where, const char* name, bool takes_initial) {
  ArrayArg x(a);
  if (plain(where, initial)) return finish_out(Fn(x, axes_of(axis), keepdims), out, name);
  return finish_out(WithOptions(x, axes_of(axis), keepdims,
                                options_of(where, initial, x, name, takes_initial)),
                    out, name);
}

template <Array (*Fn)(const Array&, const ReduceAxes&, double, bool, std::optional<Dtype>),
          Array (*WithOptions)(const Array&, const ReduceAxes&, double, bool,
                               std::optional<Dtype>, const ReduceOptions&)>
nb::object var_like(nb::handle a, nb::handle axis, nb::handle dtype, nb::handle out,
                    nb::handle ddof, bool keepdims, nb::handle where, nb::handle mean,
                    nb::handle correction, const char* name) {
  ArrayArg x(a);
  const double c = correction_of(ddof, correction, name);
  if (where.is_none() && mean.is_none())
    return finish_out(Fn(x, axes_of(axis), c, keepdims, to_optional_dtype(dtype)), out, name);
  ReduceOptions o = options_of(where, nb::none(), x, name, false);
  if (!mean.is_none()) o.mean = to_operand(mean, static_cast<const Array&>(x).device());
  return finish_out(WithOptions(x, axes_of(axis), c, keepdims, to_optional_dtype(dtype), o),
                    out, name);
}

template <Array (*Fn)(const Array&, std::optional<int64_t>, bool)>
nb::object arg_like(nb::handle a, nb::handle axis, nb::handle out, bool keepdims, const char* name) {
  return finish_out(Fn(ArrayArg(a), single_axis_of(axis, name), keepdims), out, name);
}

template <Array (*Fn)(const Array&, std::optional<int64_t>, std::optional<Dtype>, bool)>
nb::object numpy_scan(nb::handle a, nb::handle axis, nb::handle dtype, nb::handle out,
                      const char* name) {
  Array x = to_array(a);
  std::optional<int64_t> ax = single_axis_of(axis, name);
  if (!ax) x = flattened(x);
  return finish_out(Fn(x, ax, to_optional_dtype(dtype), false), out, name);
}

// The axis of a method's fast path (fast_methods.h): x.sum() or x.sum(axis).
nb::handle axis_or_none(PyObject* const* args, Py_ssize_t nargs) {
  return nb::handle(nargs ? args[0] : Py_None);
}

}  // namespace

void init_reduction(nb::module_& m) {
  nb::handle cls = m.attr("ndarray");

  // NumPy's keywords: initial= for sum and prod (mean takes none), where= for all three.
#define ACCEL_PY_SUM_LIKE(py, fn, takes_initial)                                            \
  def_function_and_method(                                                                 \
      m, cls, py,                                                                          \
      [](nb::handle a, nb::handle axis, nb::handle dtype, nb::handle out, bool keepdims,    \
         nb::handle initial, nb::handle where) {                                            \
        return sum_like<&fn, &fn>(a, axis, dtype, out, keepdims, initial, where, py,         \
                                  takes_initial);                                          \
      },                                                                                   \
      "axis"_a = nb::none(), "dtype"_a = nb::none(), "out"_a = nb::none(), "keepdims"_a = false, \
      "initial"_a = nb::none(), "where"_a = nb::none());                                   \
  def_fast_path(m, py, [](PyObject* self, PyObject* const* args, Py_ssize_t nargs) -> PyObject* {    \
    if (nargs > 1) return nullptr;                                                           \
    return sum_like<&fn, &fn>(self, axis_or_none(args, nargs), nb::none(), nb::none(), false, \
                              nb::none(), nb::none(), py, takes_initial)                     \
        .release().ptr();                                                                    \
  });
  ACCEL_PY_SUM_LIKE("sum", accel::sum, true)
  ACCEL_PY_SUM_LIKE("prod", accel::prod, true)
  ACCEL_PY_SUM_LIKE("mean", accel::mean, false)
#undef ACCEL_PY_SUM_LIKE

  // initial= for max and min (any and all take none), where= for all four.
#define ACCEL_PY_MAX_LIKE(py, fn, takes_initial)                                          \
  def_function_and_method(                                                                \
      m, cls, py,                                                                         \
      [](nb::handle a, nb::handle axis, nb::handle out, bool keepdims, nb::handle initial, \
         nb::handle where) {                                                              \
        return max_like<&fn, &fn>(a, axis, out, keepdims, initial, where, py, takes_initial); \
      },                                                                                  \
      "axis"_a = nb::none(), "out"_a = nb::none(), "keepdims"_a = false,                    \
      "initial"_a = nb::none(), "where"_a = nb::none());                                  \
  def_fast_path(m, py, [](PyObject* self, PyObject* const* args, Py_ssize_t nargs) -> PyObject* { \
    if (nargs > 1) return nullptr;                                                        \
    return max_like<&fn, &fn>(self, axis_or_none(args, nargs), nb::none(), false, nb::none(), \
                              nb::none(), py, takes_initial)                              \
        .release().ptr();                                                                 \
  });
  ACCEL_PY_MAX_LIKE("max", accel::max, true)
  ACCEL_PY_MAX_LIKE("min", accel::min, true)
  ACCEL_PY_MAX_LIKE("any", accel::any, false)
  ACCEL_PY_MAX_LIKE("all", accel::all, false)
#undef ACCEL_PY_MAX_LIKE
  m.attr("amax") = m.attr("max");
  m.attr("amin") = m.attr("min");

#define ACCEL_PY_VAR_LIKE(py, fn)                                                             \
  def_function_and_method(                                                                    \
      m, cls, py,                                                                             \
      [](nb::handle a, nb::handle axis, nb::handle dtype, nb::handle out, nb::handle ddof,    \
         bool keepdims, nb::handle where, nb::handle mean, nb::handle correction) {           \
        return var_like<&fn, &fn>(a, axis, dtype, out, ddof, keepdims, where, mean,           \
                                  correction, py);                                            \
      },                                                                                      \
      "axis"_a = nb::none(), "dtype"_a = nb::none(), "out"_a = nb::none(),                    \
      "ddof"_a = nb::none(), "keepdims"_a = false, nb::kw_only(), "where"_a = nb::none(),     \
      "mean"_a = nb::none(), "correction"_a = nb::none());
  ACCEL_PY_VAR_LIKE("var", accel::var)
  ACCEL_PY_VAR_LIKE("std", accel::std)
#undef ACCEL_PY_VAR_LIKE

#define ACCEL_PY_ARG_LIKE(py, fn)                                                      \
  def_function_and_method(                                                             \
      m, cls, py,                                                                      \
      [](nb::handle a, nb::handle axis, nb::handle out, bool keepdims) {               \
        return arg_like<&fn>(a, axis, out, keepdims, py);                              \
      },                                                                               \
      "axis"_a = nb::none(), "out"_a = nb::none(), nb::kw_only(), "keepdims"_a = false); \
  def_fast_path(m, py, [](PyObject* self, PyObject* const* args, Py_ssize_t nargs) -> PyObject* { \
    if (nargs > 1) return nullptr;                                                     \
    return arg_like<&fn>(self, axis_or_none(args, nargs), nb::none(), false, py)        \
        .release().ptr();                                                              \
  });
  ACCEL_PY_ARG_LIKE("argmax", accel::argmax)
  ACCEL_PY_ARG_LIKE("argmin", accel::argmin)
#undef ACCEL_PY_ARG_LIKE

#define ACCEL_PY_NUMPY_SCAN(py, fn)                                                  \
  def_function_and_method(                                                           \
      m, cls, py,                                                                    \
      [](nb::handle a, nb::handle axis, nb::handle dtype, nb::handle out) {          \
        return numpy_scan<&fn>(a, axis, dtype, out, py);                             \
      },                                                                             \
      "axis"_a = nb::none(), "dtype"_a = nb::none(), "out"_a = nb::none());
  ACCEL_PY_NUMPY_SCAN("cumsum", accel::cumulative_sum)
  ACCEL_PY_NUMPY_SCAN("cumprod", accel::cumulative_prod)
#undef ACCEL_PY_NUMPY_SCAN

#define ACCEL_PY_ARRAY_API_SCAN(py, fn)                                                      \
  m.def(                                                                                     \
      py,                                                                                    \
      [](nb::handle x, nb::handle axis, nb::handle dtype, bool include_initial,              \
         nb::handle out) {                                                                   \
        return finish_out(fn(ArrayArg(x), single_axis_of(axis, py), to_optional_dtype(dtype), \
                             include_initial),                                               \
                          out, py);                                                          \
      },                                                                                     \
      "x"_a, nb::kw_only(), "axis"_a = nb::none(), "dtype"_a = nb::none(),                   \
      "include_initial"_a = false, "out"_a = nb::none());
  ACCEL_PY_ARRAY_API_SCAN("cumulative_sum", accel::cumulative_sum)
  ACCEL_PY_ARRAY_API_SCAN("cumulative_prod", accel::cumulative_prod)
#undef ACCEL_PY_ARRAY_API_SCAN

  m.def("count_nonzero", [](nb::handle a, nb::handle axis, bool keepdims) {
    return count_nonzero(ArrayArg(a), axes_of(axis), keepdims);
  }, "a"_a, "axis"_a = nb::none(), nb::kw_only(), "keepdims"_a = false);
}

}  // namespace accel::py
