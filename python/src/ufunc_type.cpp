// accel.ufunc: the type of accel.add, accel.sin and the other elementwise functions NumPy has as
// ufuncs, so that the ufunc methods NumPy code calls (add.reduce, add.outer, add.at,
// maximum.accumulate, add.reduceat) and attributes (nin, nout, nargs, identity) are there. A
// call goes straight to the function it wraps through vectorcall (one indirection, ~10 ns of a
// small add(a, b)); the methods are Python (python/accel/_ufuncs.py), set on the type, and the
// attributes live in each object's __dict__.
#include "bindings.h"
// After Python.h (bindings.h brings it): PyMemberDef's T_PYSSIZET and READONLY.
#include <structmember.h>

namespace accel::py {
namespace {

struct UfuncObject {
  PyObject_HEAD
  vectorcallfunc vectorcall;
  PyObject* function;  // the function a call runs (the module's fast-path builtin)
  PyObject* dict;      // __name__, __doc__, nin, nout, ...
  // The function's C entry point where it is a METH_FASTCALL | METH_KEYWORDS builtin (the
  // fast paths of fast_methods.h are), called directly: going through PyObject_Vectorcall
  // again cost ~35 ns of a small sin(x).
  PyObject* (*direct)(PyObject*, PyObject* const*, Py_ssize_t, PyObject*);
  PyObject* direct_self;  // borrowed: `function` holds it
};

PyObject* ufunc_vectorcall(PyObject* self, PyObject* const* args, size_t nargsf,
                           PyObject* kwnames) {
  auto* u = reinterpret_cast<UfuncObject*>(self);
  if (u->direct) return u->direct(u->direct_self, args, PyVectorcall_NARGS(nargsf), kwnames);
  return PyObject_Vectorcall(u->function, args, nargsf, kwnames);
}

int ufunc_traverse(PyObject* self, visitproc visit, void* arg) {
  auto* u = reinterpret_cast<UfuncObject*>(self);
  Py_VISIT(u->function);
  Py_VISIT(u->dict);
  Py_VISIT(Py_TYPE(self));
  return 0;
}

int ufunc_clear(PyObject* self) {
  auto* u = reinterpret_cast<UfuncObject*>(self);
  Py_CLEAR(u->function);
  Py_CLEAR(u->dict);
  return 0;
}

void ufunc_dealloc(PyObject* self) {
  PyTypeObject* type = Py_TYPE(self);
  PyObject_GC_UnTrack(self);
  ufunc_clear(self);
  type->tp_free(self);
  Py_DECREF(type);
}

PyObject* ufunc_repr(PyObject* self) {
  PyObject* name = PyDict_GetItemString(reinterpret_cast<UfuncObject*>(self)->dict, "__name__");
  return PyUnicode_FromFormat("<ufunc '%U'>", name ? name : Py_None);
}

PyMemberDef ufunc_members[] = {
    {"__vectorcalloffset__", T_PYSSIZET, offsetof(UfuncObject, vectorcall), READONLY, nullptr},
    {"__dictoffset__", T_PYSSIZET, offsetof(UfuncObject, dict), READONLY, nullptr},
    {nullptr, 0, 0, 0, nullptr}};

PyGetSetDef ufunc_getset[] = {
    {"__dict__", PyObject_GenericGetDict, PyObject_GenericSetDict, nullptr, nullptr},
    {nullptr, nullptr, nullptr, nullptr, nullptr}};

PyType_Slot ufunc_slots[] = {
    {Py_tp_getset, ufunc_getset},
    {Py_tp_call, reinterpret_cast<void*>(PyVectorcall_Call)},
    {Py_tp_repr, reinterpret_cast<void*>(ufunc_repr)},
    {Py_tp_traverse, reinterpret_cast<void*>(ufunc_traverse)},
    {Py_tp_clear, reinterpret_cast<void*>(ufunc_clear)},
    {Py_tp_dealloc, reinterpret_cast<void*>(ufunc_dealloc)},
    {Py_tp_members, ufunc_members},
    {Py_tp_doc, const_cast<char*>(
                    "An elementwise function with NumPy's ufunc methods (reduce, accumulate, "
                    "outer, at, reduceat) and attributes (nin, nout, nargs, identity).")},
    {0, nullptr}};

// Not Py_TPFLAGS_IMMUTABLETYPE: python/accel/_ufuncs.py sets the methods on the type.
PyType_Spec ufunc_spec = {"accel.ufunc", sizeof(UfuncObject), 0,
                          Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_HAVE_VECTORCALL,
                          ufunc_slots};

PyTypeObject* ufunc_type = nullptr;

}  // namespace

void init_ufunc_type(nb::module_& m) {
  ufunc_type = reinterpret_cast<PyTypeObject*>(PyType_FromSpec(&ufunc_spec));
  if (!ufunc_type) throw nb::python_error();
  m.attr("ufunc") = nb::handle(reinterpret_cast<PyObject*>(ufunc_type));
  // A new ufunc around `function`, with `attributes` (a dict: __name__, nin, ...) as its
  // __dict__ (copied).
  m.def("_make_ufunc", [](nb::handle function, nb::dict attributes) -> nb::object {
    if (!PyCallable_Check(function.ptr())) throw nb::type_error("[ufunc] needs a callable");
    auto* u = PyObject_GC_New(UfuncObject, ufunc_type);
    if (!u) throw nb::python_error();
    u->vectorcall = &ufunc_vectorcall;
    u->function = nb::borrow(function).release().ptr();
    u->direct = nullptr;
    u->direct_self = nullptr;
    if (PyCFunction_CheckExact(function.ptr()) &&
        PyCFunction_GET_FLAGS(function.ptr()) == (METH_FASTCALL | METH_KEYWORDS)) {
      u->direct = reinterpret_cast<decltype(u->direct)>(
          reinterpret_cast<void (*)()>(PyCFunction_GET_FUNCTION(function.ptr())));
      u->direct_self = PyCFunction_GET_SELF(function.ptr());
    }
    u->dict = PyDict_Copy(attributes.ptr());
    if (!u->dict) {
      Py_DECREF(reinterpret_cast<PyObject*>(u));
      throw nb::python_error();
    }
    PyObject_GC_Track(reinterpret_cast<PyObject*>(u));
    return nb::steal(reinterpret_cast<PyObject*>(u));
  }, nb::arg("function"), nb::arg("attributes"));
}

}  // namespace accel::py
