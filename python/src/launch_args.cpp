#include "launch_args.h"

#include <utility>
#include <vector>

namespace accel::py {

std::array<unsigned, 3> to_launch_dims(nb::handle obj, const char* what) {
  int64_t v[3] = {1, 1, 1};  // no allocation: this runs twice per launch
  size_t n = 0;
  if (nb::isinstance<nb::int_>(obj)) {
    v[n++] = nb::cast<int64_t>(obj);
  } else if (nb::isinstance<nb::tuple>(obj) || nb::isinstance<nb::list>(obj)) {
    const size_t len = nb::len(obj);
    if (len == 0 || len > 3)
      throw ValueError(std::string("[launch] ") + what + " must have 1 to 3 dimensions, got " +
                       std::to_string(len));
    for (nb::handle h : obj) v[n++] = nb::cast<int64_t>(h);
  } else {
    throw nb::type_error((std::string("[launch] ") + what + " must be an int or a tuple of 1 to 3 ints").c_str());
  }
  for (size_t i = 0; i < n; ++i)
    if (v[i] < 0 || v[i] > 0xffffffffLL)
      throw ValueError(std::string("[launch] ") + what + " dimension " + std::to_string(v[i]) +
                       " is out of range");
  return {static_cast<unsigned>(v[0]), static_cast<unsigned>(v[1]), static_cast<unsigned>(v[2])};
}

int arrays_device(nb::handle args) {
  int found = -2;
  for (nb::handle a : args) {
    if (!nb::isinstance<Array>(a)) continue;
    const Device d = nb::cast<const Array&>(a).device();
    const int where = d.is_cpu() ? -1 : d.index;
    if (found == -2) {
      found = where;
    } else if (found != where) {
      auto name = [](int w) { return w == -1 ? std::string("cpu") : "cuda:" + std::to_string(w); };
      throw DeviceError("[launch] the array arguments are on " + name(found) + " and " +
                        name(where) + "; a kernel runs on one device (move them with to_device)");
    }
  }
  return found;
}

bool is_numpy_scalar(nb::handle obj) {
  // Leaked on purpose: a static nb::object would be released after the interpreter is gone.
  static nb::object* generic = [] {
    try {
      return new nb::object(nb::module_::import_("numpy").attr("generic"));
    } catch (const nb::python_error&) {
      return new nb::object();
    }
  }();
  return generic->is_valid() && PyObject_IsInstance(obj.ptr(), generic->ptr()) == 1;
}

Dtype numpy_scalar_dtype(nb::handle obj) {
  // By the scalar's type, remembered: numpy's dtype.name is computed in Python, and asking it
  // cost several microseconds per scalar argument of every launch. NumPy's own scalar types are
  // static types that live as long as the interpreter, so their addresses stay valid keys (a
  // subclass, a heap type, could be freed: it is asked each time). Accessed under the GIL.
  static auto* known = new std::vector<std::pair<PyTypeObject*, Dtype>>();
  PyTypeObject* type = Py_TYPE(obj.ptr());
  for (const auto& [t, d] : *known)
    if (t == type) return d;
  nb::object name = obj.attr("dtype").attr("name");
  const Dtype d = dtype_from_name(nb::cast<std::string>(name));
  if (!(type->tp_flags & Py_TPFLAGS_HEAPTYPE)) known->emplace_back(type, d);
  return d;
}

}  // namespace accel::py
