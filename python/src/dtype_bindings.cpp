// accel.dtype objects (accel.float32, ...) that compare equal to NumPy's dtypes and names.
#include <iterator>
#include <optional>
#include <string>
#include <string_view>

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

// The dtypes of NumPy's scalar types and dtype objects (np.float32, np.dtype('float32')) already
// converted: finding one by its attributes costs failed attribute lookups (700 ns of a 1.1 us
// asarray(x, dtype=np.float32)). Each object is held, so its address cannot come back as another
// object's; both kinds are immutable. A few dozen at most exist in a program.
struct ConvertedDtypes {
  static constexpr int kSize = 32;
  PyObject* objects[kSize] = {};
  Dtype dtypes[kSize] = {};
  int used = 0;

  std::optional<Dtype> find(PyObject* o) const {
    for (int i = 0; i < used; ++i)
      if (objects[i] == o) return dtypes[i];
    return std::nullopt;
  }
  void add(PyObject* o, Dtype d) {
    if (used == kSize) return;
    objects[used] = Py_NewRef(o);  // held for the process, as the types themselves are
    dtypes[used++] = d;
  }
};
ConvertedDtypes converted;  // read and written with the GIL held

// Whether `obj` is a type or one of NumPy's dtype objects (whose types are numpy.dtype's
// subclasses, named numpy.dtypes.*DType).
bool is_cacheable_dtype_object(nb::handle obj) {
  if (PyType_Check(obj.ptr())) return true;
  const std::string_view name = Py_TYPE(obj.ptr())->tp_name;
  return name.rfind("numpy.dtype", 0) == 0;
}

// NumPy's dtype objects and scalar types, Python's types, and whatever names a dtype.
Dtype dtype_from_attributes(nb::handle obj) {
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

// hash(dtype) is the hash of its name (it compares equal to the name), computed once per dtype
// and answered from the type's slot: `x.dtype in {...}` and dtype-keyed dicts in the Python
// layer paid 0.11 us for the __hash__ method's dispatch. Members are matched by identity (an
// enum has one object per value).
struct MemberHash {
  PyObject* member = nullptr;  // borrowed: the enum type keeps its members for the process
  Py_hash_t hash = 0;
};
MemberHash member_hashes[kNumDtypes];

Py_hash_t dtype_hash_slot(PyObject* self) {
  for (const MemberHash& m : member_hashes)
    if (m.member == self) return m.hash;
  nb::str method("__hash__");  // not a member (a subclass?): the method's own answer
  nb::object h = nb::steal(PyObject_CallMethodObjArgs(self, method.ptr(), nullptr));
  return h.is_valid() ? PyLong_AsSsize_t(h.ptr()) : -1;
}

bool is_member(PyObject* o) {
  for (const MemberHash& m : member_hashes)
    if (m.member == o) return true;
  return false;
}

// dtype == dtype by identity in the slot (a dtype test in the Python layer cost 0.07 us through
// the __eq__ method); names, NumPy's dtypes and the rest go to the methods.
PyObject* dtype_richcompare_slot(PyObject* self, PyObject* other, int op) {
  if ((op == Py_EQ || op == Py_NE) && is_member(self) && is_member(other))
    return Py_NewRef((self == other) == (op == Py_EQ) ? Py_True : Py_False);
  // accel's dtypes have no order (NumPy's `<` means "casts safely to"; accel.can_cast says
  // that): NotImplemented, so Python raises TypeError, as the enum's default did.
  if (op != Py_EQ && op != Py_NE) return Py_NewRef(Py_NotImplemented);
  nb::str method(op == Py_EQ ? "__eq__" : "__ne__");
  return PyObject_CallMethodObjArgs(self, method.ptr(), other, nullptr);
}

}  // namespace

Dtype to_dtype(nb::handle obj) {
  if (nb::isinstance<Dtype>(obj)) return nb::cast<Dtype>(obj);
  if (nb::isinstance<nb::str>(obj)) return dtype_from_name(nb::cast<std::string>(obj));
  if (obj.is(nb::handle(reinterpret_cast<PyObject*>(&PyBool_Type)))) return Dtype::bool_;
  if (obj.is(nb::handle(reinterpret_cast<PyObject*>(&PyLong_Type)))) return default_int;
  if (obj.is(nb::handle(reinterpret_cast<PyObject*>(&PyFloat_Type)))) return default_float;
  if (obj.is(nb::handle(reinterpret_cast<PyObject*>(&PyComplex_Type)))) return default_complex;
  if (auto d = converted.find(obj.ptr())) return *d;
  const Dtype d = dtype_from_attributes(obj);
  if (is_cacheable_dtype_object(obj)) converted.add(obj.ptr(), d);
  return d;
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
  for (int i = 0; i < kNumDtypes; ++i) {
    const Dtype d = static_cast<Dtype>(i);
    nb::object member = nb::cast(d);
    member_hashes[i] = {member.ptr(), nb::hash(nb::str(dtype_name(d)))};
  }
  // After __hash__ and __eq__ are defined: defining them on the type points the slots at the
  // generic caller.
  reinterpret_cast<PyTypeObject*>(dt.ptr())->tp_hash = &dtype_hash_slot;
  reinterpret_cast<PyTypeObject*>(dt.ptr())->tp_richcompare = &dtype_richcompare_slot;
  m.def("promote_types", [](nb::handle a, nb::handle b) { return promote_types(to_dtype(a), to_dtype(b)); });
  // Array API can_cast: whether `from_` (a dtype or an array's dtype) casts to `to` under
  // NumPy's casting rule (safe by default, as the standard's).
  m.def("can_cast", [](nb::handle from, nb::handle to, const std::string& casting) {
    Dtype f = nb::isinstance<Array>(from) ? nb::cast<const Array&>(from).dtype() : to_dtype(from);
    return can_cast(f, to_dtype(to), casting_from_name(casting, "can_cast"));
  }, nb::arg("from_"), nb::arg("to"), nb::arg("casting") = "safe");
}

}  // namespace accel::py
