// x[key] and x[key] = value for accel.ndarray (NumPy's index forms, turned into accel::Index
// entries), and take, take_along_axis, put, nonzero, argwhere, flatnonzero, compress, extract.
#include <climits>
#include <string>
#include <typeinfo>

#include "bindings.h"
#include "accel/ops/axis_view.h"
#include "accel/ops/ufunc_at.h"

namespace accel::py {

namespace {

// The registry's op called `name`; ValueError naming `entry` for none.
OpId named_op(const std::string& name, const char* entry) {
  for (int i = 0; i < kNumOps; ++i)
    if (name == op_info(static_cast<OpId>(i)).name) return static_cast<OpId>(i);
  throw ValueError(std::string("[") + entry + "] no elementwise op is called '" + name + "'");
}

const char* kValidIndices =
    "only integers, slices (`:`), ellipsis (`...`), None (new axis) and integer or boolean "
    "arrays are valid indices";

[[noreturn]] void throw_invalid_index(nb::handle key) {
  throw IndexError(std::string("[getitem] ") + kValidIndices + "; got " +
                   nb::cast<std::string>(nb::repr(nb::handle(key.type()))));
}

// A Python integer as an index; beyond int64 it is out of bounds for any axis anyway.
int64_t python_int(PyObject* p) {
  nb::object i = PyLong_CheckExact(p) ? nb::borrow(p) : nb::steal(PyNumber_Index(p));
  if (!i.is_valid()) throw nb::python_error();
  int overflow = 0;
  long long v = PyLong_AsLongLongAndOverflow(i.ptr(), &overflow);
  if (overflow) return overflow > 0 ? LLONG_MAX : LLONG_MIN;
  return static_cast<int64_t>(v);
}

std::optional<int64_t> slice_part(PyObject* p) {
  if (p == Py_None) return std::nullopt;
  if (PyLong_CheckExact(p)) return python_int(p);
  if (!PyIndex_Check(p))
    throw nb::type_error("slice indices must be integers or None or have an __index__ method");
  return python_int(p);
}

// NumPy's own objects: its scalars (np.int64(3), np.bool_(True)) and arrays.
bool is_numpy_object(nb::handle h) {
  static PyObject* kinds = [] {
    nb::object np = nb::module_::import_("numpy");
    return nb::make_tuple(np.attr("generic"), np.attr("ndarray")).release().ptr();
  }();
  return PyObject_IsInstance(h.ptr(), kinds) == 1;
}
bool is_numpy_integer(nb::handle h) {
  static PyObject* integer = [] {
    nb::object np = nb::module_::import_("numpy");
    return nb::object(np.attr("integer")).release().ptr();
  }();
  return PyObject_IsInstance(h.ptr(), integer) == 1;
}

// The value of a 0-d integer array as an index (a uint64 beyond int64 is out of bounds anyway).
int64_t array_int(const Array& a) {
  if (a.dtype() == Dtype::uint64) {
    const uint64_t v = a.item<uint64_t>();
    return v > uint64_t(LLONG_MAX) ? LLONG_MAX : static_cast<int64_t>(v);
  }
  return a.item<int64_t>();
}

// A flat list of Python ints (x[[1, 2]]) becomes an int64 array directly, without the cost of
// a NumPy conversion; anything else returns nullopt.
std::optional<Array> int_list(PyObject* p, Device device) {
  if (!PyList_CheckExact(p) || PyList_GET_SIZE(p) == 0) return std::nullopt;
  const Py_ssize_t n = PyList_GET_SIZE(p);
  std::vector<int64_t> values(static_cast<size_t>(n));
  for (Py_ssize_t i = 0; i < n; ++i) {
    PyObject* item = PyList_GET_ITEM(p, i);
    if (!PyLong_CheckExact(item)) return std::nullopt;  // bools, nested lists, floats
    int overflow = 0;
    values[static_cast<size_t>(i)] = PyLong_AsLongLongAndOverflow(item, &overflow);
    if (overflow) return std::nullopt;
  }
  return Array::from_vector(values, {static_cast<int64_t>(n)}, device);
}

Index to_index(nb::handle h, Device device) {
  PyObject* p = h.ptr();
  if (PyLong_CheckExact(p)) return python_int(p);  // the common case first
  if (p == Py_None) return NewAxis{};
  if (p == Py_Ellipsis) return Ellipsis{};
  if (PySlice_Check(p)) {
    auto* s = reinterpret_cast<PySliceObject*>(p);
    return Slice{slice_part(s->start), slice_part(s->stop), slice_part(s->step)};
  }
  if (PyBool_Check(p)) return Array::scalar(p == Py_True, false, device);
  if (is_ndarray(h)) {
    const Array& a = array_of(p);
    // accel has no scalars: a 0-d integer array stands where NumPy has an integer scalar (the
    // result of a reduction, or of arithmetic on 0-d values), which NumPy indexes with as with
    // an int: basic indexing, a view. (NumPy's own 0-d arrays stay advanced, below: a copy.)
    if (a.ndim() == 0 && is_integer(a.dtype())) return array_int(a);
    return a;
  }
  if (PyLong_Check(p)) return python_int(p);
  // As NumPy: NumPy integer scalars and any other object with __index__ are integers (NumPy's
  // bools and arrays are not, though they may have __index__).
  if (is_numpy_integer(h) || (PyIndex_Check(p) && !is_numpy_object(h))) return python_int(p);
  if (auto ints = int_list(p, device)) return *ints;
  // Lists, NumPy arrays and other array-likes are advanced indices.
  Array a;
  try {
    a = asarray(h, std::nullopt, device, std::nullopt);
  } catch (const DTypeError&) {
    throw_invalid_index(h);
  } catch (const std::bad_cast&) {  // nanobind's cast_error: an object NumPy cannot convert
    throw_invalid_index(h);
  }
  if (is_integer(a.dtype()) || is_bool(a.dtype())) return a;
  // `x[[]]` is an empty integer index, as in NumPy.
  if (a.size() == 0) return astype(a, Dtype::int64);
  throw_invalid_index(h);
}

IndexMode to_mode(const std::string& mode, const char* op) {
  if (mode == "raise") return IndexMode::raise;
  if (mode == "wrap") return IndexMode::wrap;
  if (mode == "clip") return IndexMode::clip;
  throw ValueError(std::string("[") + op + "] mode must be 'raise', 'wrap' or 'clip'; got '" +
                   mode + "'");
}

std::optional<int64_t> to_axis(nb::handle axis) {
  if (axis.is_none()) return std::nullopt;
  return nb::cast<int64_t>(axis);
}

nb::tuple to_tuple(const std::vector<Array>& arrays) {
  nb::list l;
  for (const Array& a : arrays) l.append(nb::cast(a));
  return nb::tuple(l);
}

}  // namespace

// x[key] for a tuple of Python ints, slices, None and at most one Ellipsis (m[:, 3],
// x[..., 1], img[1:-1, ::2]): NumPy's basic indexing, the view's layout worked out here in one
// pass, without the general path's Index entries and plan. Anything else (arrays, bools, NumPy
// integers, an index out of range, too many indices) returns nullopt for the general path,
// which raises NumPy's errors.
namespace {
std::optional<Array> basic_tuple_getitem(const Array& x, PyObject* key) {
  const Py_ssize_t k = PyTuple_GET_SIZE(key);
  int consumed = 0;
  bool ellipsis = false;
  for (Py_ssize_t i = 0; i < k; ++i) {
    PyObject* item = PyTuple_GET_ITEM(key, i);
    if (PyLong_CheckExact(item) || PySlice_Check(item)) {
      ++consumed;
    } else if (item == Py_Ellipsis) {
      if (ellipsis) return std::nullopt;
      ellipsis = true;
    } else if (item != Py_None) {
      return std::nullopt;
    }
  }
  const int nd = x.ndim();
  if (consumed > nd) return std::nullopt;
  const Shape& xs = x.shape();
  const Strides& xt = x.strides();
  // The view's layout is written straight into its impl: no Shape / Strides to build and move.
  Array result = Array::view_copy(x);
  ArrayImpl& view = *result.impl();
  Shape& shape = view.shape;
  Strides& strides = view.strides;
  shape.clear();
  strides.clear();
  int64_t offset = x.offset();
  int axis = 0;
  for (Py_ssize_t i = 0; i < k; ++i) {
    PyObject* item = PyTuple_GET_ITEM(key, i);
    if (PyLong_CheckExact(item)) {
      int overflow = 0;
      long long v = PyLong_AsLongLongAndOverflow(item, &overflow);
      const int64_t n = xs[static_cast<size_t>(axis)];
      if (overflow || v < -n || v >= n) return std::nullopt;
      if (v < 0) v += n;
      offset += v * xt[static_cast<size_t>(axis)];
      ++axis;
    } else if (PySlice_Check(item)) {
      Py_ssize_t start = 0, stop = 0, step = 0;
      if (PySlice_Unpack(item, &start, &stop, &step) < 0) {
        PyErr_Clear();
        return std::nullopt;
      }
      const int64_t n = xs[static_cast<size_t>(axis)];
      const Py_ssize_t length =
          PySlice_AdjustIndices(static_cast<Py_ssize_t>(n), &start, &stop, step);
      const int64_t stride = xt[static_cast<size_t>(axis)];
      if (length > 0) offset += start * stride;
      shape.push_back(length);
      strides.push_back(stride * step);
      ++axis;
    } else if (item == Py_None) {
      shape.push_back(1);
      strides.push_back(0);
    } else {  // the Ellipsis: every axis no other entry takes
      for (int j = 0; j < nd - consumed; ++j, ++axis) {
        shape.push_back(xs[static_cast<size_t>(axis)]);
        strides.push_back(xt[static_cast<size_t>(axis)]);
      }
    }
  }
  for (; axis < nd; ++axis) {
    shape.push_back(xs[static_cast<size_t>(axis)]);
    strides.push_back(xt[static_cast<size_t>(axis)]);
  }
  view.offset = offset;
  return result;
}
}  // namespace

std::optional<Array> basic_getitem(const Array& x, PyObject* key) {
  if (x.ndim() == 0) return std::nullopt;
  const int64_t n = x.shape()[0];
  if (PyLong_CheckExact(key)) {
    int overflow = 0;
    const long long i = PyLong_AsLongLongAndOverflow(key, &overflow);
    if (overflow || i < -n || i >= n) return std::nullopt;
    return axis_index(x, 0, i < 0 ? i + n : i);
  }
  if (PySlice_Check(key)) {
    Py_ssize_t start = 0, stop = 0, step = 0;
    if (PySlice_Unpack(key, &start, &stop, &step) < 0) {
      PyErr_Clear();
      return std::nullopt;
    }
    // Python's own clamping (slice.indices), as the general path's resolve().
    const Py_ssize_t length = PySlice_AdjustIndices(static_cast<Py_ssize_t>(n), &start, &stop, step);
    Array v = Array::view_copy(x);
    ArrayImpl& view = *v.impl();
    if (length > 0) view.offset += start * view.strides[0];
    view.shape[0] = length;
    view.strides[0] *= step;
    return v;
  }
  if (key == Py_None) return insert_axis(x, 0, 1, 0);
  if (PyTuple_CheckExact(key)) return basic_tuple_getitem(x, key);
  return std::nullopt;
}

IndexEntries::IndexEntries(nb::handle key, Device device) {
  if (!PyTuple_Check(key.ptr())) {
    inline_.add(to_index(key, device));
    size_ = 1;
    return;
  }
  size_ = static_cast<size_t>(PyTuple_GET_SIZE(key.ptr()));
  if (size_ > kInline) heap_.reserve(size_);
  for (size_t i = 0; i < size_; ++i) {
    Index entry = to_index(PyTuple_GET_ITEM(key.ptr(), static_cast<Py_ssize_t>(i)), device);
    if (size_ > kInline)
      heap_.push_back(std::move(entry));
    else
      inline_.add(std::move(entry));
  }
}

// The value of x[key] = value: to_operand's, except a Python int beyond int64 and uint64 stored
// into a float, complex or bool array, which NumPy takes as float(value) (inf past float16's
// range) or its truth; into integers it stays to_operand's OverflowError, as NumPy's.
Array setitem_value(nb::handle value, const Array& x) {
  if (PyLong_CheckExact(value.ptr()) && !is_integer(x.dtype())) {
    int overflow = 0;
    PyLong_AsLongLongAndOverflow(value.ptr(), &overflow);
    bool huge = overflow < 0;
    if (overflow > 0) {  // fits uint64 below 2**64
      PyLong_AsUnsignedLongLong(value.ptr());
      huge = PyErr_Occurred() != nullptr;
      PyErr_Clear();
    }
    if (huge) {
      if (x.dtype() == Dtype::bool_) return Array::scalar(true, true, x.device());
      const double v = PyLong_AsDouble(value.ptr());  // OverflowError past float64's range
      if (v == -1.0 && PyErr_Occurred()) throw nb::python_error();
      return Array::scalar(v, true, x.device());
    }
  }
  return to_operand(value, x.device());
}

void init_indexing(nb::module_& m) {
  using namespace nb::literals;
  nb::handle cls = nb::type<Array>();
  nb::cpp_function_def(
      [](const Array& self, nb::handle key) { return getitem(self, IndexEntries(key, self.device())); },
      nb::scope(cls), nb::name("__getitem__"), nb::is_method(), nb::arg("key").none());
  nb::cpp_function_def(
      [](const Array& self, nb::handle key, nb::handle value) {
        setitem(self, IndexEntries(key, self.device()), setitem_value(value, self));
      },
      nb::scope(cls), nb::name("__setitem__"), nb::is_method(), nb::arg("key").none(),
      nb::arg("value").none());

  m.def("take", [](nb::handle x, nb::handle indices, nb::handle axis, nb::handle out,
                   const std::string& mode) {
    Device device = device_of({x, indices});
    return finish_out(take(to_operand(x, device), to_operand(indices, device), to_axis(axis),
                           to_mode(mode, "take")),
                      out, "take");
  }, "a"_a, "indices"_a, "axis"_a = nb::none(), "out"_a = nb::none(), "mode"_a = "raise",
        "Elements of x at indices along axis (of the flattened x when axis is None).");
  m.def("take_along_axis", [](nb::handle x, nb::handle indices, nb::handle axis) {
    Device device = device_of({x, indices});
    return take_along_axis(to_operand(x, device), to_operand(indices, device), to_axis(axis));
  }, "arr"_a, "indices"_a, "axis"_a.none() = -1);
  m.def("put", [](const Array& x, nb::handle indices, nb::handle values, const std::string& mode) {
    put(x, to_operand(indices, x.device()), to_operand(values, x.device()), to_mode(mode, "put"));
  }, "a"_a, "ind"_a, "v"_a, "mode"_a = "raise", "x.flat[ind] = v, with v repeated as needed.");
  // NumPy's ufunc.at for the registry's binary ops (python/accel/_ufuncs.py calls it with the
  // flat positions it has worked out from NumPy's index forms).
  m.def("_binary_op_names", [] {
    std::vector<std::string> names;
    for (int i = 0; i < kNumOps; ++i)
      if (op_info(static_cast<OpId>(i)).arity == 2) names.push_back(op_info(static_cast<OpId>(i)).name);
    return names;
  }, "The names of the registry's binary elementwise ops (core/ops.def).");
  m.def("_ufunc_at", [](const std::string& name, const Array& x, nb::handle indices,
                        nb::handle values) {
    ufunc_at(named_op(name, "ufunc_at"), x, to_operand(indices, x.device()),
             to_operand(values, x.device()));
  }, "op"_a, "x"_a, "indices"_a, "values"_a,
     "x.flat[indices[k]] = op(x.flat[indices[k]], values[k]) for each k in order (repeated "
     "indices fold every value in, in order); the op must keep x's dtype.");
  m.def("_bincount", [](const Array& x, nb::handle weights, int64_t minlength) {
    std::optional<Array> w;
    if (!weights.is_none()) w = to_operand(weights, x.device());
    return bincount(x, w, minlength);
  }, "x"_a, "weights"_a = nb::none(), "minlength"_a = 0,
     "NumPy's bincount (the checks of NumPy's own errors are accel.bincount's).");
  m.def("_ufunc_reduceat", [](const std::string& name, const Array& x, nb::handle indices,
                              int64_t axis) {
    return ufunc_reduceat(named_op(name, "ufunc_reduceat"), x, to_operand(indices, x.device()),
                          axis);
  }, "op"_a, "x"_a, "indices"_a, "axis"_a,
     "NumPy's op.reduceat(x, indices, axis) for an op that keeps x's dtype, as one segmented "
     "fold on x's device.");
  // NumPy's parameter names (a, arr) where the Array API's x is positional-only.
  m.def("nonzero", [](nb::handle x) { return to_tuple(nonzero(to_operand(x, device_of({x})))); },
        "a"_a, "The coordinates of the nonzero elements: one int64 array per axis.");
  m.def("argwhere", [](nb::handle x) { return argwhere(to_operand(x, device_of({x}))); }, "a"_a);
  m.def("flatnonzero", [](nb::handle x) { return flatnonzero(to_operand(x, device_of({x}))); },
        "a"_a);
  m.def("compress", [](nb::handle condition, nb::handle x, nb::handle axis, nb::handle out) {
    Device device = device_of({condition, x});
    return finish_out(compress(to_operand(condition, device), to_operand(x, device), to_axis(axis)),
                      out, "compress");
  }, "condition"_a, "a"_a, "axis"_a = nb::none(), "out"_a = nb::none());
  m.def("extract", [](nb::handle condition, nb::handle x) {
    Device device = device_of({condition, x});
    return extract(to_operand(condition, device), to_operand(x, device));
  }, "condition"_a, "arr"_a);
}

}  // namespace accel::py
