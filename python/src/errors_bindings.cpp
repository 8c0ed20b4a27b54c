// accel's error classes in Python, each also a Python built-in (DESIGN.md "Errors").
#include <Python.h>

#include "bindings.h"

namespace accel::py {
namespace {

struct PyErrors {
  nb::object base, linalg, shape, dtype, index, axis, device, oom, compile, launch, kernel_assertion, unavailable;
};
PyErrors* errors = nullptr;

nb::object make_class(nb::module_& m, const char* name, std::initializer_list<PyObject*> bases,
                      const char* doc) {
  nb::list b;
  for (PyObject* p : bases) b.append(nb::handle(p));
  nb::dict ns;
  ns["__doc__"] = doc;
  ns["__module__"] = "accel";
  nb::object cls = nb::module_::import_("builtins").attr("type")(name, nb::tuple(b), ns);
  m.attr(name) = cls;
  return cls;
}

}  // namespace

void init_errors(nb::module_& m) {
  errors = new PyErrors();
  PyErrors& e = *errors;
  e.base = make_class(m, "AccelError", {PyExc_Exception}, "Base of every accel error.");
  PyObject* base = e.base.ptr();
  e.shape = make_class(m, "ShapeError", {base, PyExc_ValueError}, "Shapes that do not fit.");
  e.dtype = make_class(m, "DTypeError", {base, PyExc_TypeError}, "A dtype an op does not take.");
  e.index = make_class(m, "IndexError", {base, PyExc_IndexError}, "An index out of range.");
  e.axis = make_class(m, "AxisError", {base, PyExc_ValueError, PyExc_IndexError},
                      "An axis out of range (NumPy's AxisError).");
  e.device = make_class(m, "DeviceError", {base, PyExc_ValueError},
                        "Arrays on different or unknown devices.");
  e.oom = make_class(m, "OutOfMemoryError", {base, PyExc_MemoryError},
                     "An allocation failed; the message has the sizes.");
  e.compile = make_class(m, "CompileError", {base, PyExc_RuntimeError},
                         "Kernel source that did not compile; the message has the log.");
  e.launch = make_class(m, "LaunchError", {base, PyExc_RuntimeError}, "A kernel launch failed.");
  e.kernel_assertion = make_class(m, "KernelAssertionError", {base, PyExc_AssertionError},
                                  "An assert in a kernel failed; the message names the kernel, "
                                  "block and thread.");
  // Raised by the accel.jit front end (Python) at the user's source: file, line and column.
  make_class(m, "KernelSyntaxError", {base, PyExc_SyntaxError},
             "A construct an accel.jit kernel cannot contain, at its file, line and column.");
  make_class(m, "KernelTypeError", {base, PyExc_TypeError},
             "A type error in an accel.jit kernel, at its file, line and column.");
  // accel.linalg.LinAlgError: also numpy.linalg.LinAlgError where NumPy is importable, so that
  // code catching NumPy's catches accel's; else a ValueError, which NumPy's is.
  PyObject* numpy_linalg_error = PyExc_ValueError;
  nb::object numpy_cls;
  try {
    numpy_cls = nb::module_::import_("numpy.linalg").attr("LinAlgError");
    numpy_linalg_error = numpy_cls.ptr();
  } catch (const nb::python_error&) {
  }
  e.linalg = make_class(m, "_LinAlgError", {base, numpy_linalg_error},
                        "A matrix an accel.linalg function cannot use: singular, not positive "
                        "definite, not square, fewer than two dimensions.");
  e.linalg.attr("__name__") = "LinAlgError";
  e.linalg.attr("__qualname__") = "LinAlgError";
  e.linalg.attr("__module__") = "accel.linalg";
  e.unavailable = make_class(m, "BackendUnavailable", {base, PyExc_RuntimeError},
                             "A backend (CUDA, NVRTC, a compiler) cannot be used here, and why.");

  nb::register_exception_translator([](const std::exception_ptr& p, void*) {
    try {
      std::rethrow_exception(p);
    } catch (const ShapeError& ex) {
      PyErr_SetString(errors->shape.ptr(), ex.what());
    } catch (const DTypeError& ex) {
      PyErr_SetString(errors->dtype.ptr(), ex.what());
    } catch (const IndexError& ex) {
      PyErr_SetString(errors->index.ptr(), ex.what());
    } catch (const AxisError& ex) {
      PyErr_SetString(errors->axis.ptr(), ex.what());
    } catch (const DeviceError& ex) {
      PyErr_SetString(errors->device.ptr(), ex.what());
    } catch (const OutOfMemoryError& ex) {
      PyErr_SetString(errors->oom.ptr(), ex.what());
    } catch (const CompileError& ex) {
      PyErr_SetString(errors->compile.ptr(), ex.what());
    } catch (const LaunchError& ex) {
      PyErr_SetString(errors->launch.ptr(), ex.what());
    } catch (const KernelAssertionError& ex) {
      PyErr_SetString(errors->kernel_assertion.ptr(), ex.what());
    } catch (const BackendUnavailable& ex) {
      PyErr_SetString(errors->unavailable.ptr(), ex.what());
    } catch (const LinAlgError& ex) {
      PyErr_SetString(errors->linalg.ptr(), ex.what());
    } catch (const ValueError& ex) {
      PyErr_SetString(PyExc_ValueError, ex.what());
    } catch (const OverflowError& ex) {
      PyErr_SetString(PyExc_OverflowError, ex.what());
    } catch (const Error& ex) {
      PyErr_SetString(errors->base.ptr(), ex.what());
    } catch (const std::bad_alloc&) {
      PyErr_SetString(errors->oom.ptr(), "[allocate] out of host memory (std::bad_alloc)");
    }
  });
}

}  // namespace accel::py
