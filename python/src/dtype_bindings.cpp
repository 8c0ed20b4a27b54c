// accel.dtype objects (accel.float32, ...) that compare equal to NumPy's dtypes and names.
#include <iterator>
#include <string>

#include "bindings.h"

namespace accel::py {
namespace {

// bfloat16: ml_dtypes' character.
const char kNumpyChar[] = {'?', 'b', 'h', 'i', 'l', 'B', 'H', 'I',
                           'L', 'e', 'E', 'f', 'd', 'F', 'D'};
static_assert(std::size(kNumpyChar) == kNumDtypes);
const char kKindChar[] = {'b', 'i', 'u', 'f', 'c'};

// == and != against anything NumPy's dtype compares with (dtypes, names, scalar types, Python
// types); for other objects NotImplemented, so Python falls back to identity (float32 == None
// is False) instead of an error.
nb::object compare(Dtype d, nb::handle other, bool equal) {
  std::optional<Dtype> o;
  try {
    if (!other.is_none()) o = to_dtype(other);
  } catch (const std::exception&) {
  }
  if (!o) return nb::borrow(Py_NotImplemented);
  return nb::bool_((*o == d) == equal);
}

}  // namespace

Dtype to_dtype(nb::handle obj) {
  if (nb::isinstance<Dtype>(obj)) return nb::cast<Dtype>(obj);
  if (nb::isinstance<nb::str>(obj)) return dtype_from_name(nb::cast<std::string>(obj));
  if (obj.is(nb::handle(reinterpret_cast<PyObject*>(&PyBool_Type)))) return Dtype::bool_;
  if (obj.is(nb::handle(reinterpret_cast<PyObject*>(&PyLong_Type)))) return default_int;
  if (obj.is(nb::handle(reinterpret_cast<PyObject*>(&PyFloat_Type)))) return default_float;
  if (obj.is(nb::handle(reinterpret_cast<PyObject*>(&PyComplex_Type)))) return default_complex;
  // NumPy dtypes have .name; NumPy scalar types (np.float32) have a dtype attribute.
  if (nb::hasattr(obj, "dtype") && nb::isinstance<nb::type_object>(obj)) {
    nb::object dt = obj.attr("dtype");
    if (nb::hasattr(dt, "name")) return dtype_from_name(nb::cast<std::string>(dt.attr("name")));
  }
  if (nb::hasattr(obj, "name") && nb::hasattr(obj, "itemsize"))
    return dtype_from_name(nb::cast<std::string>(obj.attr("name")));
  if (nb::hasattr(obj, "__name__")) return dtype_from_name(nb::cast<std::string>(obj.attr("__name__")));
  throw DTypeError("[dtype] cannot interpret " + nb::cast<std::string>(nb::repr(obj)) + " as a dtype");
}

std::optional<Dtype> to_optional_dtype(nb::handle obj) {
  if (obj.is_none()) return std::nullopt;
  return to_dtype(obj);
}

void init_dtype(nb::module_& m) {
  nb::enum_<Dtype> dt(m, "dtype", "An accel dtype; compares equal to NumPy's dtype of that name.");
#define ACCEL_DTYPE(name, ctype, str, kind) dt.value(str, Dtype::name);
#include "accel/core/dtype.def"
#undef ACCEL_DTYPE
  dt.def_prop_ro("name", [](Dtype d) { return std::string(dtype_name(d)); })
      .def_prop_ro("itemsize", [](Dtype d) { return itemsize(d); })
      .def_prop_ro("kind", [](Dtype d) { return std::string(1, kKindChar[int(dtype_kind(d))]); })
      .def_prop_ro("char", [](Dtype d) { return std::string(1, kNumpyChar[int(d)]); })
      .def("__repr__", [](Dtype d) { return std::string("dtype('") + dtype_name(d) + "')"; })
      .def("__str__", [](Dtype d) { return std::string(dtype_name(d)); })
      .def("__hash__", [](Dtype d) { return nb::hash(nb::str(dtype_name(d))); })
      .def("__eq__", [](Dtype d, nb::handle other) { return compare(d, other, true); },
           nb::arg().none())
      .def("__ne__", [](Dtype d, nb::handle other) { return compare(d, other, false); },
           nb::arg().none());
#define ACCEL_DTYPE(name, ctype, str, kind) m.attr(str) = Dtype::name;
#include "accel/core/dtype.def"
#undef ACCEL_DTYPE
  m.def("promote_types", [](nb::handle a, nb::handle b) { return promote_types(to_dtype(a), to_dtype(b)); });
  // Array API can_cast: whether `from_` (a dtype or an array's dtype) casts to `to` under
  // NumPy's casting rule (safe by default, as the standard's).
  m.def("can_cast", [](nb::handle from, nb::handle to, const std::string& casting) {
    Dtype f = nb::isinstance<Array>(from) ? nb::cast<const Array&>(from).dtype() : to_dtype(from);
    return can_cast(f, to_dtype(to), casting_from_name(casting, "can_cast"));
  }, nb::arg("from_"), nb::arg("to"), nb::arg("casting") = "safe");
}

}  // namespace accel::py
