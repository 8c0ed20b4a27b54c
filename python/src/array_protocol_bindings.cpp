// The Python protocols of accel.ndarray that are not arithmetic: repr/str/format, pickling,
// copy/deepcopy, iteration, __array_namespace__, and NumPy's dispatch (__array_ufunc__,
// __array_function__). Formatting, pickling and dispatch are written in Python
// (python/accel/_array_api.py, reusing NumPy's printer; python/accel/_numpy_protocols.py); the
// methods here forward to them.
// They are C++ functions on the type rather than Python functions set from Python, so the type
// holds no reference to a module's globals and nanobind's exit-time leak check stays quiet.
#include <string>

#include "bindings.h"
#include "fast_methods.h"

namespace accel::py {
namespace {

// `name` of an accel Python module: from sys.modules once it is imported (the import
// machinery's own lookup cost 0.8 us of every np.add(a, b) on accel arrays).
nb::object module_attr(PyObject* module_name, const char* name) {
  PyObject* m = PyImport_GetModule(module_name);  // new reference, or null (not imported yet)
  if (!m) {
    if (PyErr_Occurred()) throw nb::python_error();
    m = PyImport_Import(module_name);
    if (!m) throw nb::python_error();
  }
  return nb::steal(m).attr(name);
}

// Kept for the process: interned strings, not objects of nanobind's.
nb::object array_api(const char* name) {
  static PyObject* module = PyUnicode_InternFromString("accel._array_api");
  return module_attr(module, name);
}

nb::object numpy_protocols(const char* name) {
  static PyObject* module = PyUnicode_InternFromString("accel._numpy_protocols");
  return module_attr(module, name);
}

// Iterating an array yields views of its sub-arrays along the first axis, as NumPy.
struct RowIterator {
  Array base;
  int64_t next = 0;
};

Array row_view(const Array& a, int64_t i) {
  Shape shape(a.shape().begin() + 1, a.shape().end());
  Strides strides(a.strides().begin() + 1, a.strides().end());
  return Array::view_of(a, shape, strides, a.offset() + i * a.strides()[0]);
}

// The iterator's next row as a C slot: the end is a null return with no exception set, where
// nanobind's __next__ raised StopIteration through a C++ exception (a microsecond, most of
// iterating a small array), and each row skips nanobind's dispatch.
PyObject* row_iterator_next(PyObject* self) {
  try {
    RowIterator& it = *nb::inst_ptr<RowIterator>(self);
    if (it.next >= it.base.shape()[0]) return nullptr;
    return wrap(row_view(it.base, it.next++)).release().ptr();
  } catch (...) {
    nb::chain_error(PyExc_RuntimeError, "[iter] could not make the next row");
    return nullptr;
  }
}

PyObject* row_iterator_iter(PyObject* self) { return Py_NewRef(self); }

RowIterator rows_of(const Array& a) {
  if (a.ndim() == 0) throw nb::type_error("iteration over a 0-d array");
  a.eval();
  return RowIterator{a, 0};
}

// iter(x) as the type's slot: `for row in x` and list(x) skip the lookup of __iter__ and
// nanobind's dispatch (iter(x) 87 -> 70 ns). Errors go through the method, whose dispatcher
// raises the translated exception.
PyObject* array_iter_slot(PyObject* x) {
  try {
    return nb::cast(rows_of(*nb::inst_ptr<Array>(x))).release().ptr();
  } catch (...) {
    PyErr_Clear();
  }
  nb::str method("__iter__");
  return PyObject_CallMethodObjArgs(x, method.ptr(), nullptr);
}

PyType_Slot row_iterator_slots[] = {{Py_tp_iter, reinterpret_cast<void*>(row_iterator_iter)},
                                    {Py_tp_iternext, reinterpret_cast<void*>(row_iterator_next)},
                                    {0, nullptr}};

}  // namespace

void init_array_protocols(nb::module_& m) {
  using namespace nb::literals;
  nb::class_<RowIterator>(m, "_RowIterator", nb::type_slots(row_iterator_slots));

  auto cls = nb::borrow<nb::type_object>(m.attr("ndarray"));
  auto def = [&](const char* name, auto&& fn, auto... extra) {
    cls.attr(name) = nb::cpp_function(std::forward<decltype(fn)>(fn), nb::name(name),
                                      nb::is_method(), nb::scope(cls), extra...);
  };
  def("__repr__", [](nb::handle self) { return array_api("array_repr")(self); });
  def("__str__", [](nb::handle self) { return array_api("array_str")(self); });
  def("__format__", [](nb::handle self, nb::handle spec) {
    return array_api("array_format")(self, spec);
  });
  def("__reduce__", [](nb::handle self) { return array_api("array_reduce")(self); });
  def("__array_namespace__", [](nb::handle self, nb::handle api_version) {
    return array_api("array_namespace")(self, api_version);
  }, "api_version"_a = nb::none());
  def("__array_ufunc__", [](nb::handle self, nb::handle ufunc, nb::handle method, nb::args inputs,
                            nb::kwargs kwargs) {
    return numpy_protocols("array_ufunc")(self, ufunc, method, inputs, kwargs);
  });
  // np.add(a, b), np.sqrt(a) of accel arrays and Python numbers: the accel function the
  // Python handler found for that ufunc before (its _PLAIN_CALLS), called here without the
  // handler (whose checks, with this method's argument dispatch, were 6x accel's own call).
  def_fast_path_with_keywords(m, "__array_ufunc__", [](PyObject*, PyObject* const* args, Py_ssize_t nargs,
                                                       PyObject* kwnames) -> PyObject* {
    if ((kwnames && PyTuple_GET_SIZE(kwnames) != 0) || nargs < 3 || !PyUnicode_Check(args[1]) ||
        PyUnicode_CompareWithASCIIString(args[1], "__call__") != 0)
      return nullptr;
    for (Py_ssize_t i = 2; i < nargs; ++i) {
      PyObject* x = args[i];
      if (!is_ndarray(x) && !PyFloat_CheckExact(x) && !PyLong_CheckExact(x) && !PyBool_Check(x) &&
          !PyComplex_CheckExact(x))
        return nullptr;
    }
    static PyObject* module_name = PyUnicode_InternFromString("accel._numpy_protocols");
    static PyObject* calls_name = PyUnicode_InternFromString("_PLAIN_CALLS");
    nb::object module = nb::steal(PyImport_GetModule(module_name));
    if (!module.is_valid()) return nullptr;  // not imported yet: the handler imports it
    nb::object calls = nb::steal(PyObject_GetAttr(module.ptr(), calls_name));
    if (!calls.is_valid() || !PyDict_Check(calls.ptr())) return nullptr;
    PyObject* fn = PyDict_GetItemWithError(calls.ptr(), args[0]);  // borrowed
    if (!fn) return nullptr;
    return PyObject_Vectorcall(fn, args + 2, static_cast<size_t>(nargs - 2), nullptr);
  });
  def("__array_function__", [](nb::handle self, nb::handle func, nb::handle types, nb::handle args,
                               nb::handle kwargs) {
    return numpy_protocols("array_function")(self, func, types, args, kwargs);
  });
  // np.sum(a), np.concatenate([a, b]) with accel arrays alone and no keywords: the accel
  // function the Python handler found for that NumPy function before (its _PLAIN_FUNCTIONS).
  def_fast_path(m, "__array_function__", [](PyObject*, PyObject* const* args, Py_ssize_t nargs) -> PyObject* {
    if (nargs != 4 || !PyTuple_Check(args[1]) || PyTuple_GET_SIZE(args[1]) != 1 ||
        PyTuple_GET_ITEM(args[1], 0) != reinterpret_cast<PyObject*>(ndarray_type) ||
        !PyTuple_Check(args[2]) || !PyDict_Check(args[3]) || PyDict_GET_SIZE(args[3]) != 0)
      return nullptr;
    static PyObject* module_name = PyUnicode_InternFromString("accel._numpy_protocols");
    static PyObject* table_name = PyUnicode_InternFromString("_PLAIN_FUNCTIONS");
    nb::object module = nb::steal(PyImport_GetModule(module_name));
    if (!module.is_valid()) return nullptr;
    nb::object table = nb::steal(PyObject_GetAttr(module.ptr(), table_name));
    if (!table.is_valid() || !PyDict_Check(table.ptr())) return nullptr;
    PyObject* fn = PyDict_GetItemWithError(table.ptr(), args[0]);  // borrowed
    if (!fn) return nullptr;
    return PyObject_Call(fn, args[2], nullptr);
  });
  def("__copy__", [](const Array& a) { return accel::copy(a); });
  def("__deepcopy__", [](const Array& a, nb::handle) { return accel::copy(a); }, "memo"_a);
  def("__iter__", &rows_of);
  // After the method: defining __iter__ on the type points the slot at the generic caller.
  ndarray_type->tp_iter = &array_iter_slot;
}

}  // namespace accel::py
