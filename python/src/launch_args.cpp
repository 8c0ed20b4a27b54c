#include "launch_args.h"

namespace accel::py {

std::array<unsigned, 3> to_launch_dims(nb::handle obj, const char* what) {
  std::vector<int64_t> v;
  if (nb::isinstance<nb::int_>(obj)) {
    v.push_back(nb::cast<int64_t>(obj));
  } else if (nb::isinstance<nb::tuple>(obj) || nb::isinstance<nb::list>(obj)) {
    for (nb::handle h : obj) v.push_back(nb::cast<int64_t>(h));
  } else {
    throw nb::type_error((std::string("[launch] ") + what + " must be an int or a tuple of 1 to 3 ints").c_str());
  }
  if (v.empty() || v.size() > 3)
    throw ValueError(std::string("[launch] ") + what + " must have 1 to 3 dimensions, got " +
                     std::to_string(v.size()));
  for (int64_t x : v)
    if (x < 0 || x > 0xffffffffLL)
      throw ValueError(std::string("[launch] ") + what + " dimension " + std::to_string(x) +
                       " is out of range");
  std::array<unsigned, 3> d = {1, 1, 1};
  for (size_t i = 0; i < v.size(); ++i) d[i] = static_cast<unsigned>(v[i]);
  return d;
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
  nb::object name = obj.attr("dtype").attr("name");
  return dtype_from_name(nb::cast<std::string>(name));
}

}  // namespace accel::py
