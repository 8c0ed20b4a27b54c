// The fast-path functions of fast_methods.h: installing one, and the call of the full function
// it falls back to.
#include "fast_methods.h"

#include <algorithm>
#include <deque>
#include <string>

namespace accel::py {

bool bind_arguments(PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames,
                    std::initializer_list<const char*> names, PyObject** out) {
  const Py_ssize_t n = static_cast<Py_ssize_t>(names.size());
  if (nargs > n) return false;
  for (Py_ssize_t i = 0; i < n; ++i) out[i] = i < nargs ? args[i] : nullptr;
  const Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
  for (Py_ssize_t k = 0; k < nkw; ++k) {
    PyObject* key = PyTuple_GET_ITEM(kwnames, k);
    Py_ssize_t i = 0;
    for (const char* name : names) {
      if (PyUnicode_CompareWithASCIIString(key, name) == 0) break;
      ++i;
    }
    if (i == n || out[i]) return false;
    out[i] = args[nargs + k];
  }
  return true;
}

}  // namespace accel::py

namespace accel::py::fast_method_detail {

PyObject* call_full(PyObject* full, PyObject* self, bool method, PyObject* const* args,
                    Py_ssize_t nargs, PyObject* kwnames) {
  if (!method) return PyObject_Vectorcall(full, args, static_cast<size_t>(nargs), kwnames);
  const Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
  SmallVector<PyObject*, 8> all(static_cast<size_t>(1 + nargs + nkw));
  all[0] = self;
  for (Py_ssize_t i = 0; i < nargs + nkw; ++i) all[static_cast<size_t>(i + 1)] = args[i];
  return PyObject_Vectorcall(full, all.data(), static_cast<size_t>(nargs + 1), kwnames);
}

PyObject* install(nb::module_& m, PyMethodDef* def, bool method, const char* text_signature) {
  const char* name = def->ml_name;
  nb::handle owner = method ? nb::handle(m.attr("ndarray")) : nb::handle(m);
  PyObject* dict = method ? reinterpret_cast<PyTypeObject*>(owner.ptr())->tp_dict
                          : PyModule_GetDict(m.ptr());
  PyObject* full = PyDict_GetItemString(dict, name);  // borrowed
  if (!full) throw std::logic_error(std::string("no ") + name + " to give a fast path");
  // help() shows the full function's documentation, signature line included. The strings live
  // as long as the process (the functions point at them).
  static std::deque<std::string> docs;
  nb::object doc = nb::borrow(full).attr("__doc__");
  std::string text = doc.is_none() ? std::string() : nb::cast<std::string>(doc);
  if (text_signature) {
    // CPython's convention for C functions: "name(params)\n--\n\n" then the documentation,
    // which here replaces nanobind's first line (its own signature, in C++ types).
    const size_t body = std::min(text.find_first_not_of('\n', text.find('\n')), text.size());
    text = std::string(name) + text_signature + "\n--\n\n" + text.substr(body);
  }
  docs.push_back(std::move(text));
  def->ml_doc = docs.back().c_str();
  // The module keeps the full functions alive and drops them at exit, before nanobind's report
  // of leaked functions.
  if (!nb::hasattr(m, "_full_functions")) m.attr("_full_functions") = nb::dict();
  nb::dict kept = m.attr("_full_functions");
  const std::string key = (method ? "ndarray." : "") + std::string(name);
  kept[key.c_str()] = nb::borrow(full);
  nb::object fast =
      method ? nb::steal(PyDescr_NewMethod(reinterpret_cast<PyTypeObject*>(owner.ptr()), def))
             : nb::steal(PyCFunction_NewEx(def, m.ptr(), m.attr("__name__").ptr()));
  if (!fast.is_valid() || PyObject_SetAttrString(owner.ptr(), name, fast.ptr()) != 0)
    throw nb::python_error();
  return PyDict_GetItemString(kept.ptr(), key.c_str());
}

}  // namespace accel::py::fast_method_detail
