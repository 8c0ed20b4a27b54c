// The hottest ndarray operations as C slots of the type, as NumPy has them: `a + b`, `a @ b`,
// `-a`, `a < b`, `x[i]`, `x[i] = v`, `len(x)`, `bool(x)`, `int(x)`, `float(x)`, `operator.index(x)`
// and `x.shape`/`ndim`/`size`/`dtype`/`T`
// then call accel directly, where a method defined through nanobind costs a
// lookup of `__add__` on the type, a call of the bound function and nanobind's argument dispatch:
// about a third of a small `a + b`. The methods stay (`a.__add__(b)`, `x.__getitem__(i)`): the
// slots do what they do, and when anything raises, the slot calls the method again, whose
// dispatcher turns the C++ exception into the Python one (errors are rare; ops have no side
// effects, so running one twice to raise is harmless).
#include "bindings.h"
#include "fast_methods.h"

namespace accel::py {
namespace {

// Calls the method `name` of `self` (the nanobind function in the type's dictionary).
PyObject* call_method(PyObject* self, const char* name, PyObject* arg) {
  nb::str method(name);
  return PyObject_CallMethodObjArgs(self, method.ptr(), arg, nullptr);
}

template <BinaryFn F> struct Names;
#define ACCEL_SLOT_NAMES(fn, py)                           \
  template <> struct Names<static_cast<BinaryFn>(&fn)> {   \
    static constexpr const char* method = "__" py "__";    \
    static constexpr const char* reflected = "__r" py "__"; \
  };
ACCEL_SLOT_NAMES(add, "add")
ACCEL_SLOT_NAMES(subtract, "sub")
ACCEL_SLOT_NAMES(multiply, "mul")
ACCEL_SLOT_NAMES(divide, "truediv")
ACCEL_SLOT_NAMES(matmul, "matmul")
#undef ACCEL_SLOT_NAMES

// x <op> y: x.__op__(y) when x is an accel array, else y.__rop__(x) (Python calls the slot of
// either operand's type with the operands in their order).
template <BinaryFn F> PyObject* number_slot(PyObject* x, PyObject* y) {
  const bool left = is_ndarray(x);
  PyObject* self = left ? x : y;
  PyObject* other = left ? y : x;
  try {
    return binary_operator(F, array_of(self), other, !left).release().ptr();
  } catch (...) {
    PyErr_Clear();
  }
  return call_method(self, left ? Names<F>::method : Names<F>::reflected, other);
}

// Python's comparison codes (Py_LT .. Py_GE) in order, with their methods.
constexpr BinaryFn kCompare[] = {&less, &less_equal, &equal, &not_equal, &greater, &greater_equal};
constexpr const char* kCompareNames[] = {"__lt__", "__le__", "__eq__", "__ne__", "__gt__", "__ge__"};

constexpr OpId kCompareOps[] = {OpId::less,    OpId::less_equal, OpId::equal,
                                 OpId::not_equal, OpId::greater,    OpId::greater_equal};

// y as eager_compare_with_number takes it: an exact int that fits int64, or an exact float.
std::optional<PlainNumber> plain_number(PyObject* y) {
  if (PyFloat_CheckExact(y)) return PlainNumber{false, 0, PyFloat_AS_DOUBLE(y)};
  if (!PyLong_CheckExact(y)) return std::nullopt;
  int overflow = 0;
  const long long i = PyLong_AsLongLongAndOverflow(y, &overflow);
  if (overflow) return std::nullopt;
  return PlainNumber{true, i, 0.0};
}

PyObject* richcompare_slot(PyObject* x, PyObject* y, int op) {
  try {
    // `s > 0` on a computed 0-d array: answered before the number becomes an array.
    if (auto number = plain_number(y))
      if (auto answer = eager_compare_with_number(kCompareOps[op], array_of(x), *number, false))
        return wrap(*std::move(answer)).release().ptr();
    return binary_operator(kCompare[op], array_of(x), y, false).release().ptr();
  } catch (...) {
    PyErr_Clear();
  }
  return call_method(x, kCompareNames[op], y);
}

PyObject* subscript_slot(PyObject* x, PyObject* key) {
  try {
    const Array& a = array_of(x);
    if (auto view = basic_getitem(a, key)) return wrap(*std::move(view)).release().ptr();
    return wrap(getitem(a, IndexEntries(key, a.device()))).release().ptr();
  } catch (...) {
    PyErr_Clear();
  }
  return call_method(x, "__getitem__", key);
}

// An index of ints alone (an int, or a tuple of up to kMaxElementIndex exact ints that fit
// int64) into `at`: their count, or 0 for any other key.
constexpr int kMaxElementIndex = 8;
int element_index(PyObject* key, int64_t* at) {
  PyObject* const* items = &key;
  Py_ssize_t n = 1;
  if (PyTuple_CheckExact(key)) {
    n = PyTuple_GET_SIZE(key);
    if (n == 0 || n > kMaxElementIndex) return 0;
    items = &PyTuple_GET_ITEM(key, 0);
  }
  for (Py_ssize_t k = 0; k < n; ++k) {
    if (!PyLong_CheckExact(items[k])) return 0;
    int overflow = 0;
    at[k] = PyLong_AsLongLongAndOverflow(items[k], &overflow);
    if (overflow) return 0;
  }
  return static_cast<int>(n);
}

// The stores written straight into memory (ops/store_element.h), or false for the general
// path: x[i] = number and x[i, j] = number (one element), x[a:b] = number and x[...] = number
// (the view, filled), x[idx] = number or values and x[mask] = number or values. Not inlined
// into the slot: GCC's inliner budget for this file is shared with subscript_slot, which lost
// 12 ns of x[idx] when this grew inside the slot.
[[gnu::noinline]] bool store_directly(const Array& a, PyObject* key, PyObject* value) {
  if (auto number = plain_number(value)) {
    int64_t at[kMaxElementIndex];
    if (const int n = element_index(key, at); n > 0 && n == a.ndim())
      return store_number(a, {at, size_t(n)}, *number);
    if (key == Py_Ellipsis) return fill_number(a, *number);
    if (is_ndarray(key)) {
      const Array& k = array_of(key);
      return k.dtype() == Dtype::bool_ ? store_number_where(a, k, *number)
                                       : store_number_at(a, k, *number);
    }
    auto view = basic_getitem(a, key);
    return view && fill_number(*view, *number);
  }
  if (!is_ndarray(key) || !is_ndarray(value)) return false;
  const Array& k = array_of(key);
  const Array& v = array_of(value);
  return k.dtype() == Dtype::bool_ ? store_values_where(a, k, v) : store_values_at(a, k, v);
}

// x[key] = value. (`del x[key]` is NumPy's ValueError.)
int ass_subscript_slot(PyObject* x, PyObject* key, PyObject* value) {
  if (!value) {
    PyErr_SetString(PyExc_ValueError, "[setitem] cannot delete array elements");
    return -1;
  }
  try {
    const Array& a = array_of(x);
    if (store_directly(a, key, value)) return 0;
    setitem(a, IndexEntries(key, a.device()), setitem_value(value, a));
    return 0;
  } catch (...) {
    PyErr_Clear();
  }
  // Again through the method, to raise the translated error (a store that raised wrote
  // nothing, or wrote what it writes again: stores are idempotent).
  PyObject* r = PyObject_CallMethod(x, "__setitem__", "OO", key, value);
  if (!r) return -1;
  Py_DECREF(r);
  return 0;
}

// -x, +x, abs(x), ~x.
using UnaryFn = Array (*)(const Array&);
template <UnaryFn F> struct UnaryName;
#define ACCEL_SLOT_NAME(fn, py) \
  template <> struct UnaryName<static_cast<UnaryFn>(&fn)> { static constexpr const char* method = py; };
ACCEL_SLOT_NAME(negative, "__neg__")
ACCEL_SLOT_NAME(positive, "__pos__")
ACCEL_SLOT_NAME(accel::abs, "__abs__")
ACCEL_SLOT_NAME(bitwise_invert, "__invert__")
#undef ACCEL_SLOT_NAME

template <UnaryFn F> PyObject* unary_slot(PyObject* x) {
  try {
    return wrap(F(array_of(x))).release().ptr();
  } catch (...) {
    PyErr_Clear();
  }
  nb::str method(UnaryName<F>::method);
  return PyObject_CallMethodObjArgs(x, method.ptr(), nullptr);
}

// The one element of a computed CPU array that already holds a T, read where it lies: bool(x) of
// a comparison, float(x) of a float64 or float32, int(x) of an index, without item()'s
// conversion dispatch and the profiler's transfer record (kept while a profile runs).
template <class T> std::optional<T> own_item(const Array& a) {
  if (a.dtype() != dtype_of<T> || a.is_pending() || !a.device().is_cpu() || a.size() != 1 ||
      profile::active())
    return std::nullopt;
  return *a.data<T>();
}

// len(x), bool(x), float(x): the plain cases here, every other one (0-d len, several elements,
// complex) through the method, which raises.
Py_ssize_t length_slot(PyObject* x) {
  const Array& a = array_of(x);
  if (a.ndim() > 0) return static_cast<Py_ssize_t>(a.shape()[0]);
  nb::object n = nb::steal(call_method(x, "__len__", nullptr));
  return n.is_valid() ? PyLong_AsSsize_t(n.ptr()) : -1;
}

int bool_slot(PyObject* x) {
  try {
    const Array& a = array_of(x);
    if (auto b = own_item<bool>(a)) return *b ? 1 : 0;
    if (a.size() == 1) return a.item<bool>() ? 1 : 0;
  } catch (...) {
    PyErr_Clear();
  }
  nb::object b = nb::steal(call_method(x, "__bool__", nullptr));
  return b.is_valid() ? PyObject_IsTrue(b.ptr()) : -1;
}

PyObject* float_slot(PyObject* x) {
  try {
    const Array& a = array_of(x);
    if (auto v = own_item<double>(a)) return PyFloat_FromDouble(*v);
    if (auto v = own_item<float>(a)) return PyFloat_FromDouble(*v);
    if (a.size() == 1 && !is_complex(a.dtype())) return PyFloat_FromDouble(a.item<double>());
  } catch (...) {
    PyErr_Clear();
  }
  return call_method(x, "__float__", nullptr);
}

// int(x) and operator.index(x) of one integer (int(x) also of one bool or float, truncated as
// Python truncates, inf and NaN raising its errors; operator.index only of a 0-d array): the
// Python int at once; complex, several elements and the other errors through the method.
template <bool Index>
PyObject* integer_slot(PyObject* x) {
  try {
    const Array& a = array_of(x);
    if (auto v = own_item<int64_t>(a); v && (!Index || a.ndim() == 0))
      return PyLong_FromLongLong(*v);
    const DtypeKind kind = dtype_kind(a.dtype());
    if (a.size() == 1 && (!Index || a.ndim() == 0)) {
      if (kind == DtypeKind::UnsignedInt) return PyLong_FromUnsignedLongLong(a.item<uint64_t>());
      if (kind == DtypeKind::SignedInt || (!Index && kind == DtypeKind::Bool))
        return PyLong_FromLongLong(a.item<int64_t>());
      if (!Index && kind == DtypeKind::Float) return PyLong_FromDouble(a.item<double>());
    }
  } catch (...) {
    PyErr_Clear();
  }
  return call_method(x, Index ? "__index__" : "__int__", nullptr);
}

// shape_tuple's work in the C API alone (no exception frames, no calls out of this file): the
// commonest attribute read, a few ns from NumPy's.
PyObject* get_shape(PyObject* x, void*) {
  const Shape& s = array_of(x).shape();
  PyObject* t = PyTuple_New(static_cast<Py_ssize_t>(s.size()));
  if (!t) return nullptr;
  for (size_t i = 0; i < s.size(); ++i) {
    PyObject* d = PyLong_FromLongLong(s[i]);
    if (!d) {
      Py_DECREF(t);
      return nullptr;
    }
    PyTuple_SET_ITEM(t, static_cast<Py_ssize_t>(i), d);
  }
  return t;
}

PyObject* get_transpose(PyObject* x, void*) {
  try {
    return wrap(transpose_all(array_of(x))).release().ptr();
  } catch (...) {
    PyErr_SetString(PyExc_MemoryError, "[T] out of memory");
    return nullptr;
  }
}

PyObject* get_ndim(PyObject* x, void*) { return PyLong_FromLong(array_of(x).ndim()); }
PyObject* get_size(PyObject* x, void*) { return PyLong_FromLongLong(array_of(x).size()); }

// The dtype's Python object (a member of the accel.dtype enum), found once per dtype. Borrowed:
// the enum type keeps its members alive as long as the module.
PyObject* get_dtype(PyObject* x, void*) {
  static PyObject* members[kNumDtypes] = {};
  const Dtype d = array_of(x).dtype();
  PyObject*& m = members[static_cast<int>(d)];
  if (!m) {
    try {
      m = nb::cast(d).ptr();  // the enum's own object: stays alive after this reference goes
    } catch (...) {
      PyErr_SetString(PyExc_RuntimeError, "[dtype] no Python object for this dtype");
      return nullptr;
    }
  }
  return Py_NewRef(m);
}

PyGetSetDef getters[] = {
    {"shape", get_shape, nullptr, "The array's dimensions, a tuple of ints.", nullptr},
    {"ndim", get_ndim, nullptr, "The number of dimensions.", nullptr},
    {"size", get_size, nullptr, "The number of elements.", nullptr},
    {"dtype", get_dtype, nullptr, "The element type.", nullptr},
    {"T", get_transpose, nullptr, "The array with every axis reversed (a view), as NumPy.", nullptr},
};

}  // namespace

void init_operator_slots(nb::module_&) {
  nb::handle cls = nb::type<Array>();
  PyTypeObject* array_type = ndarray_type;
  // Properties as getset descriptors, set through the type's dictionary (a supported way).
  for (PyGetSetDef& def : getters) {
    nb::object descr = nb::steal(PyDescr_NewGetSet(array_type, &def));
    if (!descr.is_valid() || PyObject_SetAttrString(cls.ptr(), def.name, descr.ptr()) != 0)
      throw nb::python_error();
  }
  // The operator slots themselves: set after every method is defined (setting a dunder
  // attribute on the type would point its slot back at the generic method caller).
  PyNumberMethods* num = array_type->tp_as_number;
  num->nb_add = &number_slot<static_cast<BinaryFn>(&add)>;
  num->nb_subtract = &number_slot<static_cast<BinaryFn>(&subtract)>;
  num->nb_multiply = &number_slot<static_cast<BinaryFn>(&multiply)>;
  num->nb_true_divide = &number_slot<static_cast<BinaryFn>(&divide)>;
  num->nb_matrix_multiply = &number_slot<static_cast<BinaryFn>(&matmul)>;
  num->nb_negative = &unary_slot<static_cast<UnaryFn>(&negative)>;
  num->nb_positive = &unary_slot<static_cast<UnaryFn>(&positive)>;
  num->nb_absolute = &unary_slot<static_cast<UnaryFn>(&accel::abs)>;
  num->nb_invert = &unary_slot<static_cast<UnaryFn>(&bitwise_invert)>;
  num->nb_bool = &bool_slot;
  num->nb_float = &float_slot;
  num->nb_int = &integer_slot<false>;
  num->nb_index = &integer_slot<true>;
  array_type->tp_as_mapping->mp_length = &length_slot;
  if (array_type->tp_as_sequence) array_type->tp_as_sequence->sq_length = &length_slot;  // len() asks it first
  array_type->tp_richcompare = &richcompare_slot;
  array_type->tp_as_mapping->mp_subscript = &subscript_slot;
  array_type->tp_as_mapping->mp_ass_subscript = &ass_subscript_slot;
  PyType_Modified(array_type);
}

}  // namespace accel::py
