// Manipulation functions under their Array API and NumPy names (reshape, permute_dims/transpose,
// concat/concatenate, ...) and the ndarray methods x.reshape(), x.transpose(), x.flatten(), ...
// NumPy conveniences built from these (hstack, atleast_2d, fliplr, ...) live in
// python/accel/_manipulation.py.
#include <nanobind/stl/vector.h>

#include <string>

#include "bindings.h"
#include "fast_methods.h"

namespace accel::py {
namespace {

using namespace nb::literals;

// An accel array as it is; anything else (lists, NumPy arrays, scalars) through asarray.
Array array_arg(nb::handle obj, std::optional<Device> device = std::nullopt) {
  if (nb::isinstance<Array>(obj)) return nb::cast<Array>(obj);
  return asarray(obj, std::nullopt, device, std::nullopt);
}

// A sequence of array-likes (an array counts as the sequence of its rows, as in NumPy). Non-accel
// items go to the device of the first accel array.
std::vector<Array> arrays_arg(nb::handle seq, const char* op) {
  if (nb::isinstance<Array>(seq)) return unstack(nb::cast<const Array&>(seq), 0);
  if (!nb::isinstance<nb::sequence>(seq) || nb::isinstance<nb::str>(seq))
    throw nb::type_error((std::string("[") + op + "] expected a sequence of arrays, got " +
                          nb::cast<std::string>(nb::repr(nb::handle(seq.type()))))
                             .c_str());
  std::optional<Device> device;
  for (nb::handle h : seq)
    if (nb::isinstance<Array>(h)) {
      device = nb::cast<const Array&>(h).device();
      break;
    }
  std::vector<Array> out;
  for (nb::handle h : seq) out.push_back(array_arg(h, device));
  return out;
}

// The fast path of concat / concatenate: a list or tuple of accel arrays, and an int axis.
PyObject* concat_fast_path(PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) {
  PyObject* a[2];
  if (!bind_arguments(args, nargs, kwnames, {"arrays", "axis"}, a) || !a[0]) return nullptr;
  PyObject* seq = a[0];
  if (!PyList_CheckExact(seq) && !PyTuple_CheckExact(seq)) return nullptr;
  std::optional<int64_t> axis = 0;
  if (a[1]) {
    if (!PyLong_CheckExact(a[1])) return nullptr;
    axis = PyLong_AsLongLong(a[1]);
    if (*axis == -1 && PyErr_Occurred()) return nullptr;
  }
  const Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
  std::vector<Array> arrays;
  arrays.reserve(static_cast<size_t>(n));
  for (Py_ssize_t i = 0; i < n; ++i) {
    PyObject* item = PySequence_Fast_GET_ITEM(seq, i);
    if (!is_ndarray(item)) return nullptr;
    arrays.push_back(array_of(item));
  }
  return wrap(concat(arrays, axis, std::nullopt, Casting::same_kind)).release().ptr();
}

// Axes from None (nullopt), an integer or a sequence of integers.
std::optional<Axes> axes_arg(nb::handle obj) {
  if (obj.is_none()) return std::nullopt;
  return to_shape(obj);
}

std::optional<int64_t> axis_arg(nb::handle obj) {
  if (obj.is_none()) return std::nullopt;
  return index_int(obj);
}

// A Python or NumPy integer (not an array or a sequence of them).
bool is_integer_scalar(nb::handle obj) {
  if (PyLong_Check(obj.ptr())) return true;
  if (nb::isinstance<Array>(obj) || nb::isinstance<nb::sequence>(obj)) return false;
  if (!nb::hasattr(obj, "__index__")) return false;
  return !nb::hasattr(obj, "shape") || nb::len(nb::object(obj.attr("shape"))) == 0;
}

// reshape in NumPy's order (C unless given): the C-order call as it was, the others through
// the ordered overload.
Array reshape_in(const Array& x, const Shape& shape, std::optional<bool> copy, nb::handle order) {
  const Order o = to_order(order, "reshape", Order::C);
  return o == Order::C ? reshape(x, shape, copy) : reshape(x, shape, copy, o);
}

std::optional<bool> copy_arg(nb::handle copy) {
  if (copy.is_none()) return std::nullopt;
  return nb::cast<bool>(copy);
}

nb::tuple to_tuple(const std::vector<Array>& arrays) {
  nb::list l;
  for (const Array& a : arrays) l.append(nb::cast(a));
  return nb::tuple(l);
}

// NumPy's split / array_split: an integer number of sections or a sequence of cut indices.
nb::list split_arg(const Array& x, nb::handle sections, int64_t axis, bool equal) {
  std::vector<Array> parts = is_integer_scalar(sections)
                                 ? split(x, nb::cast<int64_t>(sections), axis, equal)
                                 : split_at(x, to_shape(sections), axis);
  nb::list l;
  for (const Array& a : parts) l.append(nb::cast(a));
  return l;
}

Array repeat_arg(const Array& x, nb::handle repeats, nb::handle axis) {
  if (is_integer_scalar(repeats)) return repeat(x, nb::cast<int64_t>(repeats), axis_arg(axis));
  return repeat(x, array_arg(repeats, x.device()), axis_arg(axis));
}

// x.reshape(2, 3), x.reshape((2, 3)) and x.reshape(-1) all mean the same, as in NumPy.
Shape shape_from_args(const nb::args& args, const char* op) {
  if (args.size() == 0) throw nb::type_error((std::string("[") + op + "] needs a shape").c_str());
  if (args.size() == 1) return to_shape(args[0]);
  Shape s;
  for (nb::handle h : args) s.push_back(index_int(h));  // TypeError for floats, as NumPy
  return s;
}

// Adds a method to the already registered ndarray class.
template <class F, class... Extra>
void def_method(nb::handle cls, const char* name, F&& f, const Extra&... extra) {
  cls.attr(name) = nb::cpp_function(std::forward<F>(f), nb::is_method(), nb::name(name),
                                    nb::scope(cls), extra...);
}

// The Python ints of x.f(2, 5) or x.f((2, 5)) appended to `out`; false for any other
// argument (the full path parses and reports it).
template <class Ints> bool python_ints(PyObject* const* args, Py_ssize_t nargs, Ints& out) {
  PyObject* const* items = args;
  Py_ssize_t n = nargs;
  if (nargs == 1 && PyTuple_CheckExact(args[0])) {
    items = &PyTuple_GET_ITEM(args[0], 0);
    n = PyTuple_GET_SIZE(args[0]);
  }
  for (Py_ssize_t i = 0; i < n; ++i) {
    if (!PyLong_CheckExact(items[i])) return false;
    const long long d = PyLong_AsLongLong(items[i]);
    if (d == -1 && PyErr_Occurred()) return false;
    out.push_back(d);
  }
  return true;
}

// x.reshape(2, 5) and x.reshape((2, 5)) with Python ints: the fast path of x.reshape.
PyObject* reshape_fast(PyObject* self, PyObject* const* args, Py_ssize_t nargs) {
  Shape shape;
  // x.reshape() raises, on the full path
  if (nargs == 0 || !python_ints(args, nargs, shape)) return nullptr;
  return wrap(reshape(array_of(self), shape)).release().ptr();
}

void init_methods(nb::module_& m) {
  nb::handle cls = m.attr("ndarray");
  def_method(cls, "reshape", [](const Array& x, nb::args shape, nb::handle order, nb::handle copy) {
    return reshape_in(x, shape_from_args(shape, "reshape"), copy_arg(copy), order);
  }, "shape"_a, "order"_a = "C", "copy"_a = nb::none());
  def_fast_path(m, "reshape", [](PyObject* self, PyObject* const* args, Py_ssize_t nargs) {
    return reshape_fast(self, args, nargs);
  });
  def_method(cls, "transpose", [](const Array& x, nb::args axes) {
    if (axes.size() == 0 || (axes.size() == 1 && axes[0].is_none())) return transpose(x);
    return permute_dims(x, shape_from_args(axes, "transpose"));
  }, "axes"_a);
  def_fast_path(m, "transpose", [](PyObject* self, PyObject* const* args, Py_ssize_t nargs) -> PyObject* {
    if (nargs == 0) return wrap(transpose(array_of(self))).release().ptr();
    Axes axes;  // x.transpose(2, 0, 1) and x.transpose((2, 0, 1))
    if (!python_ints(args, nargs, axes)) return nullptr;
    return wrap(permute_dims(array_of(self), axes)).release().ptr();
  });
  def_method(cls, "flatten", [](const Array& x, nb::handle order) {
    return flatten(x, to_order(order, "flatten", Order::C));
  }, "order"_a = "C");
  def_method(cls, "ravel", [](const Array& x, nb::handle order) {
    return ravel(x, to_order(order, "ravel", Order::C));
  }, "order"_a = "C");
  // x.ravel() and x.flatten(): C order, without nanobind's dispatch of the order argument
  // (ravel of a contiguous array is a view: the dispatch was half of it).
  def_fast_path(m, "ravel", [](PyObject* self, PyObject* const*, Py_ssize_t nargs) -> PyObject* {
    return nargs == 0 ? wrap(ravel(array_of(self), Order::C)).release().ptr() : nullptr;
  });
  def_fast_path(m, "flatten", [](PyObject* self, PyObject* const*, Py_ssize_t nargs) -> PyObject* {
    return nargs == 0 ? wrap(flatten(array_of(self), Order::C)).release().ptr() : nullptr;
  });
  def_method(cls, "squeeze", [](const Array& x, nb::handle axis) {
    return squeeze(x, axes_arg(axis));
  }, "axis"_a = nb::none());
  def_fast_path(m, "squeeze", [](PyObject* self, PyObject* const*, Py_ssize_t nargs) -> PyObject* {
    return nargs == 0 ? wrap(squeeze(array_of(self), std::nullopt)).release().ptr() : nullptr;
  });
  def_method(cls, "swapaxes", [](const Array& x, int64_t a, int64_t b) { return swapaxes(x, a, b); },
             "axis1"_a, "axis2"_a);
  def_method(cls, "repeat", [](const Array& x, nb::handle repeats, nb::handle axis) {
    return repeat_arg(x, repeats, axis);
  }, "repeats"_a, "axis"_a = nb::none());
}

}  // namespace

void init_manipulation(nb::module_& m) {
  m.def("reshape", [](nb::handle x, nb::handle shape, nb::handle order, nb::handle copy) {
    return reshape_in(array_arg(x), to_shape(shape), copy_arg(copy), order);
  }, "x"_a, "shape"_a, "order"_a = "C", nb::kw_only(), "copy"_a = nb::none(),
     "x with a new shape (one entry may be -1); a view whenever the strides allow one.");
  m.def("ravel", [](nb::handle x, nb::handle order) {
    return ravel(array_arg(x), to_order(order, "ravel", Order::C));
  }, "a"_a, "order"_a = "C",
     "The flattened array (C order, or NumPy's F, A, K); a view where the layout allows.");

  m.def("permute_dims", [](nb::handle x, nb::handle axes) {
    return permute_dims(array_arg(x), to_shape(axes));
  }, "a"_a, "axes"_a, "A view with the axes reordered.");
  m.def("transpose", [](nb::handle x, nb::handle axes) {
    Array a = array_arg(x);
    return axes.is_none() ? transpose(a) : permute_dims(a, to_shape(axes));
  }, "a"_a, "axes"_a = nb::none(), "A view with the axes reversed or reordered.");
  m.def("matrix_transpose", [](nb::handle x) { return matrix_transpose(array_arg(x)); }, "x"_a);
  m.def("swapaxes", [](nb::handle x, int64_t a, int64_t b) { return swapaxes(array_arg(x), a, b); },
        "a"_a, "axis1"_a, "axis2"_a);
  m.def("moveaxis", [](nb::handle x, nb::handle source, nb::handle destination) {
    return moveaxis(array_arg(x), to_shape(source), to_shape(destination));
  }, "a"_a, "source"_a, "destination"_a);

  m.def("squeeze", [](nb::handle x, nb::handle axis) { return squeeze(array_arg(x), axes_arg(axis)); },
        "a"_a, "axis"_a = nb::none());
  m.def("expand_dims", [](nb::handle x, nb::handle axis) {
    return expand_dims(array_arg(x), to_shape(axis));
  }, "a"_a, "axis"_a = 0);

  // subok: NumPy's, accepted (accel has no subclasses to pass through).
  m.def("broadcast_to", [](nb::handle x, nb::handle shape, bool) {
    return broadcast_to(array_arg(x), to_shape(shape));
  }, "array"_a, "shape"_a, "subok"_a = false,
     "A read view of the array at a broadcast shape (no copy).");
  m.def("broadcast_arrays", [](nb::args arrays, bool) {
    return to_tuple(broadcast_arrays(arrays_arg(arrays, "broadcast_arrays")));
  }, "arrays"_a, nb::kw_only(), "subok"_a = false);
  m.def("broadcast_shapes", [](nb::args shapes) {
    std::vector<Shape> list;
    for (nb::handle h : shapes) list.push_back(to_shape(h));
    Shape s = broadcast_shapes(list);
    nb::list l;
    for (int64_t d : s) l.append(d);
    return nb::tuple(l);
  });

  // concat (the Array API's name) and concatenate take NumPy's arguments, as NumPy 2's concat,
  // its alias: np.concat((a, b), 1) passes the axis positionally.
#define ACCEL_CONCAT(name)                                                                     \
  m.def(#name, [](nb::handle arrays, nb::handle axis, nb::handle out, nb::handle dtype,         \
                  const std::string& casting) {                                                \
    return finish_out(concat(arrays_arg(arrays, #name), axis_arg(axis), to_optional_dtype(dtype), \
                             casting_from_name(casting, #name)),                               \
                      out, #name);                                                             \
  }, "arrays"_a, "axis"_a.none() = 0, "out"_a = nb::none(), nb::kw_only(), "dtype"_a = nb::none(), \
     "casting"_a = "same_kind");
  ACCEL_CONCAT(concat)
  ACCEL_CONCAT(concatenate)
#undef ACCEL_CONCAT
  // concatenate([a, b, c]) and concatenate((a, b), axis), axis= too, of accel arrays, without nanobind's
  // dispatch of five arguments (a third of concatenating three arrays of 10 elements). Each
  // name needs a lambda of its own type: its entry holds the full function it replaced.
  def_fast_function_with_keywords(m, "concat", [](PyObject*, PyObject* const* args, Py_ssize_t nargs,
                                                  PyObject* kwnames) {
    return concat_fast_path(args, nargs, kwnames);
  }, "(arrays, axis=0, out=None, *, dtype=None, casting='same_kind')");
  def_fast_function_with_keywords(m, "concatenate", [](PyObject*, PyObject* const* args,
                                                       Py_ssize_t nargs, PyObject* kwnames) {
    return concat_fast_path(args, nargs, kwnames);
  }, "(arrays, axis=0, out=None, *, dtype=None, casting='same_kind')");
  m.def("stack", [](nb::handle arrays, int64_t axis, nb::handle out, nb::handle dtype,
                    const std::string& casting) {
    return finish_out(stack(arrays_arg(arrays, "stack"), axis, to_optional_dtype(dtype),
                            casting_from_name(casting, "stack")),
                      out, "stack");
  }, "arrays"_a, "axis"_a = 0, "out"_a = nb::none(), nb::kw_only(), "dtype"_a = nb::none(),
     "casting"_a = "same_kind");
  m.def("unstack", [](nb::handle x, int64_t axis) { return to_tuple(unstack(array_arg(x), axis)); },
        "x"_a, nb::kw_only(), "axis"_a = 0, "Views of x along axis, as a tuple.");
  m.def("split", [](nb::handle x, nb::handle sections, int64_t axis) {
    return split_arg(array_arg(x), sections, axis, true);
  }, "ary"_a, "indices_or_sections"_a, "axis"_a = 0);
  m.def("array_split", [](nb::handle x, nb::handle sections, int64_t axis) {
    return split_arg(array_arg(x), sections, axis, false);
  }, "ary"_a, "indices_or_sections"_a, "axis"_a = 0);

  m.def("flip", [](nb::handle x, nb::handle axis) { return flip(array_arg(x), axes_arg(axis)); },
        "m"_a, "axis"_a = nb::none(), "A view with the elements reversed along axis (all: None).");
  m.def("diagonal", [](nb::handle x, int64_t offset, int64_t axis1, int64_t axis2) {
    return diagonal(array_arg(x), offset, axis1, axis2);
  }, "a"_a, "offset"_a = 0, "axis1"_a = 0, "axis2"_a = 1,
     "NumPy's diagonal: a read-only view of x[..., i, i + offset] over axis1 and axis2.");
  m.def("_writable_diagonal", [](const Array& x, int64_t axis1, int64_t axis2) {
    return diagonal(x, 0, axis1, axis2, true);
  }, "a"_a, "axis1"_a, "axis2"_a, "einsum's diagonal view ('ii->i'), writable as NumPy's.");
  m.def("sliding_window_view", [](nb::handle x, nb::handle window_shape, nb::handle axis,
                                  bool subok, bool writeable) {
    if (writeable)
      throw ValueError("[sliding_window_view] writeable=True is not supported: windows overlap, "
                       "so one element is many of the view's, which accel's threads would "
                       "write at once");
    (void)subok;  // accel has no ndarray subclasses to pass through
    Array a = array_arg(x);
    return sliding_window_view(a, to_shape(window_shape), to_axes(axis));
  }, "x"_a, "window_shape"_a, "axis"_a = nb::none(), nb::kw_only(), "subok"_a = false,
     "writeable"_a = false,
     "NumPy's sliding_window_view: every window of window_shape over axis, a read-only view.");
  m.def("roll", [](nb::handle x, nb::handle shift, nb::handle axis) {
    return roll(array_arg(x), to_shape(shift), axes_arg(axis));
  }, "a"_a, "shift"_a, "axis"_a = nb::none());
  m.def("repeat", [](nb::handle x, nb::handle repeats, nb::handle axis) {
    return repeat_arg(array_arg(x), repeats, axis);
  }, "a"_a, "repeats"_a, "axis"_a = nb::none());
  m.def("tile", [](nb::handle x, nb::handle reps) { return tile(array_arg(x), to_shape(reps)); },
        "A"_a, "reps"_a);

  init_methods(m);
}

}  // namespace accel::py
