// The plainest call of a hot function or ndarray method (positional arguments only, often none:
// `x.sum()`, `x.copy()`, `x.reshape(2, 5)`, `accel.zeros(10)`) handled without nanobind's
// argument dispatch, which costs more than the work of a small view or copy (x.reshape(2, 5)
// took 180 ns where NumPy takes 120). The full function keeps nanobind's signature and
// documentation; the name becomes a METH_FASTCALL function (a method descriptor for methods)
// that runs the fast path and hands every other call (keywords, other argument types, anything
// that raises) to the full function, which parses the arguments and raises the proper errors.
// Fast paths are pure (views, copies, reductions, new arrays), so running one again on the full
// path to raise is harmless, as for the operator slots (operator_slots.cpp).
#pragma once
#include <initializer_list>
#include <type_traits>

#include "bindings.h"

namespace accel::py {

// A fast path is a function object without state (a lambda without captures) called as
// `PyObject* (PyObject* self, PyObject* const* args, Py_ssize_t nargs)`, self being the array
// for methods and the module for functions: the result of the call with these positional
// arguments as a new reference, or nullptr (with or without a Python error set) when this call
// is not one it handles.

namespace fast_method_detail {
// Calls the full function: with self prepended to the vectorcall arguments for a method.
PyObject* call_full(PyObject* full, PyObject* self, bool method, PyObject* const* args,
                    Py_ssize_t nargs, PyObject* kwnames);
// Replaces ndarray.<name> (method) or the module's <name> by a function of `def`; returns the
// full function it replaced (kept alive by the module, borrowed here). With `text_signature`
// ("(x, /, *, device=None)"), inspect.signature and help() show it in place of nanobind's line.
PyObject* install(nb::module_& m, PyMethodDef* def, bool method,
                  const char* text_signature = nullptr);

template <class F, bool Method, bool Keywords = false>
struct Entry {
  static inline PyObject* full = nullptr;
  static inline PyMethodDef def{};
  static PyObject* call(PyObject* self, PyObject* const* args, Py_ssize_t nargs,
                        PyObject* kwnames) {
    if (Keywords || !kwnames || PyTuple_GET_SIZE(kwnames) == 0) {
      try {
        PyObject* r = nullptr;
        if constexpr (Keywords) r = F{}(self, args, nargs, kwnames);
        else r = F{}(self, args, nargs);
        if (r) return r;
      } catch (...) {
      }
      PyErr_Clear();
    }
    return call_full(full, self, Method, args, nargs, kwnames);
  }
  static void install(nb::module_& m, const char* name, const char* text_signature = nullptr) {
    static_assert(std::is_empty_v<F>, "a fast path holds no state");
    def = {name, reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(&call)),
           METH_FASTCALL | METH_KEYWORDS, nullptr};
    full = fast_method_detail::install(m, &def, Method, text_signature);
  }
};
}  // namespace fast_method_detail

// Gives the already defined method ndarray.<name> the fast path `fast` (each lambda has its own
// type, so its own entry).
template <class F>
void def_fast_path(nb::module_& m, const char* name, F /*fast*/) {
  fast_method_detail::Entry<F, true>::install(m, name);
}

// A method's fast path that reads keywords too, for methods other libraries call with keywords
// (`x.__dlpack__(max_version=(1, 0))` from NumPy's from_dlpack): `fast` is called as
// `(self, args, nargs, kwnames)`, the keyword values following the positional ones in args.
template <class F>
void def_fast_path_with_keywords(nb::module_& m, const char* name, F /*fast*/) {
  fast_method_detail::Entry<F, true, true>::install(m, name);
}

// Binds a keyword-taking fast path's arguments to its parameters `names` (in order): out[i] is
// the argument given for names[i], positionally or by keyword, or null. False (nothing bound)
// for more positional arguments than names, an unknown keyword or one given twice: the call is
// the full function's.
bool bind_arguments(PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames,
                    std::initializer_list<const char*> names, PyObject** out);

// A function's fast path that reads keywords too (`zeros(n, dtype=float32)`): `fast` is called
// as `(module, args, nargs, kwnames)`, for bind_arguments.
template <class F>
void def_fast_function_with_keywords(nb::module_& m, const char* name, F /*fast*/,
                                     const char* text_signature = nullptr) {
  fast_method_detail::Entry<F, false, true>::install(m, name, text_signature);
}

// Gives the already defined function <name> of the module the fast path `fast`; with
// `text_signature` (Python's syntax, "(x, /, *, device=None)"), inspect.signature(f) works.
template <class F>
void def_fast_function(nb::module_& m, const char* name, F /*fast*/,
                       const char* text_signature = nullptr) {
  fast_method_detail::Entry<F, false>::install(m, name, text_signature);
}

}  // namespace accel::py
