// accel.ndarray: properties, Python operators (plain, reflected and in-place), conversions to
// Python scalars, NumPy (__array__, the buffer protocol), DLPack and __cuda_array_interface__
// (those two in dlpack.cpp and cuda_array_interface.cpp).
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>

#include <algorithm>
#include <cstring>
#include <string>

#include "bindings.h"
#include "cuda_array_interface.h"
#include "dlpack.h"
#include "fast_methods.h"
#include "numpy_api.h"
#include "accel/ops/result_layout.h"

namespace accel::py {

PyTypeObject* ndarray_type = nullptr;

namespace {

nb::object not_implemented() { return nb::borrow(Py_NotImplemented); }

// An array type of another library that takes part in NumPy's dispatch (a Dask or xarray array
// holding accel chunks): accel's operators leave it to that type's reflected operator, as
// NEP 13 asks, instead of converting it (which would compute a whole Dask graph into one array).
bool foreign_duck_array(nb::handle other) {
  if (is_ndarray(other) || PyFloat_Check(other.ptr()) || PyLong_Check(other.ptr()) ||
      PyComplex_Check(other.ptr()) || PyBool_Check(other.ptr()))
    return false;
  nb::handle type = other.type();
  if (!nb::hasattr(type, "__array_ufunc__") && !nb::hasattr(type, "__array_function__"))
    return false;
  // NumPy's own types live as long as the process: kept without reference counting.
  static PyObject* ndarray = nb::object(nb::module_::import_("numpy").attr("ndarray")).release().ptr();
  static PyObject* generic = nb::object(nb::module_::import_("numpy").attr("generic")).release().ptr();
  return !PyObject_TypeCheck(other.ptr(), reinterpret_cast<PyTypeObject*>(ndarray)) &&
         !PyObject_TypeCheck(other.ptr(), reinterpret_cast<PyTypeObject*>(generic));
}

template <BinaryFn F> nb::object binary(const Array& self, nb::handle other) {
  return binary_operator(F, self, other, false);
}

template <BinaryFn F> nb::object reflected(const Array& self, nb::handle other) {
  return binary_operator(F, self, other, true);
}

template <BinaryFn F> nb::object inplace(nb::handle self_h, nb::handle other) {
  const Array& self = nb::cast<const Array&>(self_h);
  Array o = to_operand(other, self.device());
  write_into(self_h, F(self, o), true, "inplace");
  return nb::borrow(self_h);
}

// x ** e as NumPy's operator (its fast scalar power, which np.power does not take). For a
// float or complex x, a Python float 0.5 is sqrt and a Python int -1 is reciprocal: for real x
// these give pow's values; for complex x they differ at infinities (sqrt(inf+1j) is inf+0j where
// pow gives inf+nanj, 1/(inf+1j) is 0 where pow gives nan). A Python 2 is square; for a bool x
// that decides the dtype: square's int8, where np.power(x, 2) promotes bool with a Python int
// to int64.
nb::object power_operator(const Array& self, nb::handle e, bool in_place, nb::handle self_h) {
  if (self.dtype() == Dtype::bool_ && PyLong_CheckExact(e.ptr())) {
    int overflow = 0;
    if (PyLong_AsLongAndOverflow(e.ptr(), &overflow) == 2 && !overflow) {
      Array r = accel::square(self);
      if (!in_place) return nb::cast(r);
      write_into(self_h, r, true, "inplace");
      return nb::borrow(self_h);
    }
  }
  if (is_inexact(self.dtype())) {
    const bool half = PyFloat_CheckExact(e.ptr()) && PyFloat_AS_DOUBLE(e.ptr()) == 0.5;
    int overflow = 0;
    const long n = PyLong_CheckExact(e.ptr()) ? PyLong_AsLongAndOverflow(e.ptr(), &overflow) : 0;
    const bool minus_one = n == -1 && !overflow, two = n == 2 && !overflow;
    if (half || minus_one || two) {
      // square's loop, not pow's: for complex x they round differently (NumPy's square
      // fuses multiply-adds, its pow does not).
      Array r = half ? accel::sqrt(self) : two ? accel::square(self) : accel::reciprocal(self);
      if (!in_place) return nb::cast(r);
      write_into(self_h, r, true, "inplace");
      return nb::borrow(self_h);
    }
  }
  constexpr BinaryFn power = &accel::pow;
  return in_place ? inplace<power>(self_h, e) : binary<power>(self, e);
}

}  // namespace

namespace {

// The op of a binary operator's function (matmul has none).
std::optional<OpId> operator_op(BinaryFn f) {
  static const std::pair<BinaryFn, OpId> table[] = {
      {&add, OpId::add}, {&subtract, OpId::subtract}, {&multiply, OpId::multiply},
      {&divide, OpId::divide}, {&floor_divide, OpId::floor_divide},
      {&remainder, OpId::remainder}, {&pow, OpId::pow}, {&bitwise_and, OpId::bitwise_and},
      {&bitwise_or, OpId::bitwise_or}, {&bitwise_xor, OpId::bitwise_xor},
      {&bitwise_left_shift, OpId::bitwise_left_shift},
      {&bitwise_right_shift, OpId::bitwise_right_shift}, {&equal, OpId::equal},
      {&not_equal, OpId::not_equal}, {&less, OpId::less}, {&less_equal, OpId::less_equal},
      {&greater, OpId::greater}, {&greater_equal, OpId::greater_equal}};
  for (const auto& [fn, op] : table)
    if (fn == f) return op;
  return std::nullopt;
}

}  // namespace

nb::object binary_operator(BinaryFn f, const Array& self, nb::handle other, bool reflected) {
  if (foreign_duck_array(other)) return not_implemented();
  Array o;
  try {
    o = to_operand(other, self.device());
  } catch (const OverflowError&) {  // x < 2**70, x * 2**70 for a float x: NumPy answers
    std::optional<OpId> op = operator_op(f);
    std::optional<Array> huge =
        op ? huge_int_operand(other, *op, self.dtype(), self.device()) : std::nullopt;
    if (!huge) throw;
    o = *std::move(huge);
  } catch (const DTypeError&) {
    return not_implemented();
  } catch (const nb::python_error&) {
    return not_implemented();
  }
  return wrap(reflected ? f(o, self) : f(self, o));
}

nb::tuple shape_tuple(const Shape& s) {
  PyObject* t = PyTuple_New(static_cast<Py_ssize_t>(s.size()));
  if (!t) throw nb::python_error();
  for (size_t i = 0; i < s.size(); ++i) {
    PyObject* d = PyLong_FromLongLong(s[i]);
    if (!d) {
      Py_DECREF(t);
      throw nb::python_error();
    }
    PyTuple_SET_ITEM(t, static_cast<Py_ssize_t>(i), d);
  }
  return nb::steal<nb::tuple>(t);
}

namespace {

// The Python scalar of a size-1 array (for __int__, __float__, item()).
nb::object python_item(const Array& a) {
  if (a.size() != 1)
    throw ValueError("[item] can only convert an array of size 1 to a Python scalar; got " +
                     a.describe());
  switch (dtype_kind(a.dtype())) {
    case DtypeKind::Bool: return nb::bool_(a.item<bool>());
    case DtypeKind::SignedInt: return nb::int_(a.item<int64_t>());
    case DtypeKind::UnsignedInt: return nb::steal(PyLong_FromUnsignedLongLong(a.item<uint64_t>()));
    case DtypeKind::Float: return nb::float_(a.item<double>());
    case DtypeKind::Complex: {
      auto c = a.item<std::complex<double>>();
      return nb::steal(PyComplex_FromDoubles(c.real(), c.imag()));
    }
  }
  return nb::none();
}

// NumPy's tolist: nested lists of Python scalars (bool, int, float, complex), read straight from
// the host's memory (through a NumPy view it cost twice NumPy's own tolist at 10 elements). A
// 0-d array gives its scalar. New reference, or nullptr with a Python error set.
template <class T> PyObject* python_scalar_of(const T& v) {
  if constexpr (std::is_same_v<T, bool>) return PyBool_FromLong(v);
  else if constexpr (std::is_integral_v<T> && std::is_signed_v<T>) return PyLong_FromLongLong(v);
  else if constexpr (std::is_integral_v<T>) return PyLong_FromUnsignedLongLong(v);
  else if constexpr (is_complex_v<T>) return PyComplex_FromDoubles(v.real(), v.imag());
  else return PyFloat_FromDouble(static_cast<double>(static_cast<float>(v)));
}
template <> PyObject* python_scalar_of(const double& v) { return PyFloat_FromDouble(v); }

template <class T> PyObject* nested_list(const char* p, const Shape& shape, const Strides& bytes, int dim) {
  if (dim == static_cast<int>(shape.size())) return python_scalar_of(*reinterpret_cast<const T*>(p));
  const Py_ssize_t n = static_cast<Py_ssize_t>(shape[dim]);
  PyObject* list = PyList_New(n);
  if (!list) return nullptr;
  for (Py_ssize_t i = 0; i < n; ++i) {
    PyObject* item = nested_list<T>(p + i * bytes[dim], shape, bytes, dim + 1);
    if (!item) {
      Py_DECREF(list);
      return nullptr;
    }
    PyList_SET_ITEM(list, i, item);
  }
  return list;
}

nb::object tolist(const Array& a) {
  const Array host = to_device(a, Device::cpu());
  host.eval();
  Strides bytes = host.strides();
  for (auto& b : bytes) b *= static_cast<int64_t>(host.itemsize());
  PyObject* r = dispatch_dtype(host.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    return nested_list<T>(static_cast<const char*>(host.data()), host.shape(), bytes, 0);
  });
  if (!r) throw nb::python_error();
  return nb::steal(r);
}

// The buffer protocol: zero-copy memoryview / np.frombuffer of CPU arrays, and np.asarray(x)
// (NumPy asks for a buffer before __array__). Formats as NumPy's own: 64-bit ints are 'l'/'L'
// (C long on LP64), so np.asarray gives NumPy's int64 type, not long long's.
const char* buffer_format(Dtype d) {
  static_assert(sizeof(long) == 8, "int64 as 'l' needs an LP64 platform");
  // bfloat16 has no buffer-protocol format (nor has NumPy's, ml_dtypes'): nullptr.
  static const char* f[] = {"?", "b", "h", "i", "l", "B", "H", "I", "L", "e", nullptr, "f", "d", "Zf", "Zd"};
  static_assert(std::size(f) == kNumDtypes);
  return f[static_cast<int>(d)];
}

int getbuffer(PyObject* exporter, Py_buffer* view, int flags) {
  try {
    const Array& a = array_of(exporter);  // the slot of accel.ndarray: exporter is one
    if (!a.device().is_cpu()) {
      PyErr_SetString(PyExc_BufferError, ("[buffer] array is on " + a.device().str() +
                                          "; only CPU arrays export the buffer protocol").c_str());
      return -1;
    }
    if (!buffer_format(a.dtype())) {
      PyErr_SetString(PyExc_BufferError,
                      (std::string("[buffer] ") + dtype_name(a.dtype()) +
                       " has no buffer-protocol format; use np.asarray (with ml_dtypes) or DLPack")
                          .c_str());
      return -1;
    }
    if ((flags & PyBUF_WRITABLE) && is_read_only(a)) {
      PyErr_SetString(PyExc_BufferError, "[buffer] array is read-only");
      return -1;
    }
    if (!(flags & PyBUF_STRIDES) && !a.is_contiguous()) {
      PyErr_SetString(PyExc_BufferError, "[buffer] array is not C-contiguous");
      return -1;
    }
    view->buf = a.data();  // computes a pending array
    // Shape then strides in one block, freed by releasebuffer (one allocation per request:
    // np.asarray(x) comes this way).
    const int nd = a.ndim();
    auto* dims = new Py_ssize_t[2 * static_cast<size_t>(nd) + 1];
    for (int i = 0; i < nd; ++i) {
      dims[i] = a.shape()[i];
      dims[nd + i] = a.strides()[i] * static_cast<Py_ssize_t>(a.itemsize());
    }
    view->obj = exporter;
    Py_INCREF(exporter);
    view->len = static_cast<Py_ssize_t>(a.nbytes());
    view->readonly = is_read_only(a);
    // The consumer may write through the view (see Buffer::share_with_foreign_writers).
    if (!view->readonly) a.buffer()->share_with_foreign_writers();
    view->itemsize = static_cast<Py_ssize_t>(a.itemsize());
    view->format = (flags & PyBUF_FORMAT) ? const_cast<char*>(buffer_format(a.dtype())) : nullptr;
    view->ndim = nd;
    view->shape = dims;
    view->strides = dims + nd;
    view->suboffsets = nullptr;
    view->internal = dims;
    return 0;
  } catch (const std::exception& e) {
    PyErr_SetString(PyExc_BufferError, e.what());
    return -1;
  }
}

void releasebuffer(PyObject*, Py_buffer* view) { delete[] static_cast<Py_ssize_t*>(view->internal); }

PyType_Slot array_slots[] = {{Py_bf_getbuffer, reinterpret_cast<void*>(getbuffer)},
                             {Py_bf_releasebuffer, reinterpret_cast<void*>(releasebuffer)},
                             {0, nullptr}};

Array matrix_transpose_of(const Array& a) {
  if (a.ndim() < 2)
    throw ShapeError("[mT] needs an array of at least 2 dimensions; got " + a.describe());
  Shape s = a.shape();
  Strides st = a.strides();
  std::swap(s[s.size() - 1], s[s.size() - 2]);
  std::swap(st[st.size() - 1], st[st.size() - 2]);
  return Array::view_of(a, s, st, a.offset());
}

}  // namespace

Array transpose_all(const Array& a) {
  Array v = Array::view_copy(a);
  std::reverse(v.impl()->shape.begin(), v.impl()->shape.end());
  std::reverse(v.impl()->strides.begin(), v.impl()->strides.end());
  return v;
}

void init_array(nb::module_& m) {
  nb::class_<Device>(m, "Device", "Where an array lives: 'cpu' or 'cuda:N'.")
      .def("__init__", [](Device* d, const std::string& s) { new (d) Device(Device::parse(s)); })
      .def_prop_ro("type", [](const Device& d) { return d.is_cpu() ? "cpu" : "cuda"; })
      .def_ro("index", &Device::index)
      .def("__str__", &Device::str)
      .def("__repr__", [](const Device& d) { return "Device('" + d.str() + "')"; })
      .def("__hash__", [](const Device& d) { return nb::hash(nb::str(d.str().c_str())); })
      // Against a device or its name; NotImplemented for anything else (None included), so
      // Python falls back to identity instead of raising.
      .def("__eq__", [](const Device& d, nb::handle o) -> nb::object {
        if (!nb::isinstance<Device>(o) && !nb::isinstance<nb::str>(o))
          return nb::borrow(Py_NotImplemented);
        try {
          return nb::bool_(*to_optional_device(o) == d);
        } catch (const std::exception&) {
          return nb::bool_(false);  // a string that names no device
        }
      }, nb::arg().none());

  nb::class_<Array> cls(m, "ndarray", nb::type_slots(array_slots),
#if NB_VERSION_MAJOR * 100 + NB_VERSION_MINOR >= 301
                        // Dead array objects are kept (up to 256) and reused: a small call's
                        // result then costs no Python allocation and no registration in
                        // nanobind's instance map, and its release no removal from it.
                        nb::pooled(256),
#endif
                        "An N-d array on a device (NumPy / Array API semantics).");
  ndarray_type = reinterpret_cast<PyTypeObject*>(cls.ptr());
  cls.def_prop_ro("shape", [](const Array& a) { return shape_tuple(a.shape()); })
      .def_prop_ro("dtype", &Array::dtype)
      .def_prop_ro("device", &Array::device)
      .def_prop_ro("ndim", &Array::ndim)
      .def_prop_ro("size", &Array::size)
      .def_prop_ro("itemsize", &Array::itemsize)
      .def_prop_ro("nbytes", &Array::nbytes)
      .def_prop_ro("strides", [](const Array& a) {
        a.eval();
        Shape s = a.strides();
        for (auto& v : s) v *= static_cast<int64_t>(a.itemsize());
        return shape_tuple(s);
      })
      // .T is a getset descriptor of the type (operator_slots.cpp).
      .def_prop_ro("mT", &matrix_transpose_of)
      .def_prop_ro("is_pending", &Array::is_pending, "True while the value is not computed yet.")
      // NumPy's parts: views of a complex array's memory, so x.imag[...] = 0 or x.real = v writes
      // into x. (accel.real/accel.imag, the Array API's functions, return new arrays.)
      // x.real of a real x is x itself, as NumPy's (a new view cost five times NumPy's read).
      .def_prop_rw("real", [](nb::handle self) -> nb::object {
        const Array& a = array_of(self.ptr());
        return is_complex(a.dtype()) ? wrap(real_part(a)) : nb::borrow(self);
      }, [](const Array& a, nb::handle v) {
        assign(real_part(a), to_operand(v, a.device()), "real");
      }, nb::arg("value").none())
      .def_prop_rw("imag", &imag_part, [](const Array& a, nb::handle v) {
        if (!is_complex(a.dtype()))
          throw nb::type_error(("[imag] an array of real dtype has no imaginary part to set (" +
                                a.describe() + ")").c_str());
        assign(imag_part(a), to_operand(v, a.device()), "imag");
      }, nb::arg("value").none())
      .def("view", [](const Array& a, nb::handle dtype) {
        return dtype.is_none() ? view_as(a, a.dtype()) : view_as(a, to_dtype(dtype));
      }, nb::arg("dtype") = nb::none(),
         "x's memory read as another dtype (NumPy's x.view(dtype)); no data is copied.")
      .def("getfield", [](const Array& a, nb::handle dtype, int64_t offset) {
        return field_view(a, to_dtype(dtype), offset);
      }, nb::arg("dtype"), nb::arg("offset") = 0,
         "A view of each item's bytes from `offset` read as `dtype`, x's shape kept (NumPy's "
         "getfield); writes through it reach x.")
      .def("setfield", [](const Array& a, nb::handle val, nb::handle dtype, int64_t offset) {
        assign(field_view(a, to_dtype(dtype), offset), to_operand(val, a.device()), "setfield");
      }, nb::arg("val"), nb::arg("dtype"), nb::arg("offset") = 0,
         "Writes val (broadcast) into each item's bytes from `offset`, read as `dtype` "
         "(NumPy's setfield).")
      .def("eval", [](nb::handle self) {
        nb::cast<const Array&>(self).eval();
        return nb::borrow(self);
      }, "Computes a pending (lazily recorded) array now; returns self.")
      .def("to_device", [](const Array& a, nb::handle device, nb::handle stream) {
        return to_device(a, *to_optional_device(device));
      }, nb::arg("device"), nb::kw_only(), nb::arg("stream") = nb::none())
      // NumPy's signature: astype(dtype, order='K', casting='unsafe', subok=True, copy=True).
      .def("astype", [](nb::handle self, nb::handle dtype, nb::handle order, nb::handle casting,
                        nb::handle subok, bool copy) -> nb::object {
        const Array& a = nb::cast<const Array&>(self);
        const Dtype dt = to_dtype(dtype);
        if (!casting.is_none()) {
          const Casting rule = casting_from_name(nb::cast<std::string>(casting), "astype");
          if (!can_cast(a.dtype(), dt, rule))
            throw DTypeError(std::string("[astype] cannot cast from ") + dtype_name(a.dtype()) +
                             " to " + dtype_name(dt) + " under the rule '" +
                             casting_name(rule) + "'");
        }
        (void)subok;  // accel has no array subclasses to keep or drop
        Array r = astype(a, dt, copy, to_order(order, "astype", Order::K));
        return r.is(a) ? nb::borrow(self) : wrap(std::move(r));  // copy=False: x itself
      }, nb::arg("dtype"), nb::arg("order") = "K", nb::arg("casting") = "unsafe",
         nb::arg("subok") = true, nb::arg("copy") = true)
      // NumPy's ndarray.copy is C-ordered unless asked otherwise (np.copy keeps the layout).
      .def("copy", [](const Array& a, nb::handle order) {
        const Order o = to_order(order, "copy", Order::C);
        return o == Order::C ? accel::copy(a) : accel::copy(a, o);
      }, nb::arg("order") = "C")
      .def("tolist", &tolist, "The values as nested Python lists of Python scalars (NumPy's tolist); "
           "a 0-d array gives its scalar.")
      // NumPy's item(*args): no argument for a size-1 array, a flat index in C order, or one
      // index per axis (as ints or one tuple).
      .def("item", [](const Array& a, nb::args args) {
        if (args.size() == 0) return python_item(a);
        nb::tuple coords = args.size() == 1 && PyTuple_Check(args[0].ptr())
                               ? nb::borrow<nb::tuple>(args[0]) : nb::tuple(args);
        std::vector<int64_t> at;
        for (nb::handle c : coords) at.push_back(index_int(c));
        if (at.size() == 1 && a.ndim() != 1) {  // a flat index, unravelled in C order
          int64_t flat = at[0];
          if (flat < -a.size() || flat >= a.size())
            throw IndexError("[item] index " + std::to_string(flat) +
                             " is out of bounds for size " + std::to_string(a.size()));
          if (flat < 0) flat += a.size();
          at.assign(static_cast<size_t>(a.ndim()), 0);
          for (int d = a.ndim() - 1; d >= 0; --d) {
            at[d] = flat % a.shape()[d];
            flat /= a.shape()[d];
          }
        }
        if (static_cast<int>(at.size()) != a.ndim())
          throw ValueError("[item] incorrect number of indices for array: " +
                           std::to_string(at.size()) + " for " + a.describe());
        std::vector<Index> index(at.begin(), at.end());
        return python_item(getitem(a, index));
      })
      .def("__bool__", [](const Array& a) {
        if (a.size() != 1)
          throw ValueError("[bool] the truth value of an array with more than one element is "
                           "ambiguous; use any() or all() (got " + a.describe() + ")");
        return a.item<bool>();
      })
      .def("__int__", [](const Array& a) {
        if (is_complex(a.dtype())) throw DTypeError("[int] cannot convert a complex array to int");
        return nb::int_(python_item(astype(a, is_floating(a.dtype()) ? Dtype::float64 : a.dtype(), false)));
      })
      .def("__float__", [](const Array& a) {
        if (is_complex(a.dtype())) throw DTypeError("[float] cannot convert a complex array to float");
        return a.item<double>();
      })
      .def("__complex__", [](const Array& a) {
        auto c = a.item<std::complex<double>>();
        return nb::steal(PyComplex_FromDoubles(c.real(), c.imag()));
      })
      .def("__index__", [](const Array& a) {
        if (!is_integer(a.dtype()))
          throw DTypeError("[index] only integer arrays can be used as an index; got " + a.describe());
        // 0-d only, as NumPy and the standard: NumPy's indexing takes any object with __index__
        // as one integer, so np_array[accel_array_of_shape_(1, 1)] would lose the index's shape.
        if (a.ndim() != 0)
          throw nb::type_error(("[index] only 0-d integer arrays can be converted to an index; got " +
                                a.describe()).c_str());
        return python_item(a);
      })
      .def("__len__", [](const Array& a) {
        if (a.ndim() == 0) throw nb::type_error("len() of unsized object");
        return a.shape()[0];
      })
      .def("__array__", [](const Array& a, nb::handle dtype, nb::handle copy) {
        bool must_copy = !copy.is_none() && nb::cast<bool>(copy);
        if (!copy.is_none() && !nb::cast<bool>(copy) && !a.device().is_cpu())
          throw ValueError("[__array__] copy=False is impossible for an array on " + a.device().str());
        nb::object out = to_numpy_view(a);
        if (!dtype.is_none()) out = out.attr("astype")(dtype, nb::arg("copy") = must_copy);
        else if (must_copy) out = out.attr("copy")();
        return out;
      }, nb::arg("dtype") = nb::none(), nb::arg("copy") = nb::none())
      .def("__dlpack__", &export_dlpack, nb::kw_only(), nb::arg("stream") = nb::none(),
           nb::arg("max_version") = nb::none(), nb::arg("dl_device") = nb::none(),
           nb::arg("copy") = nb::none())
      .def("__dlpack_device__", &dlpack_device)
      .def_prop_ro("__cuda_array_interface__", &cuda_array_interface);

#define ACCEL_PY_BINARY(py, fn)                                     \
  cls.def("__" py "__", &binary<static_cast<BinaryFn>(&fn)>);       \
  cls.def("__r" py "__", &reflected<static_cast<BinaryFn>(&fn)>);   \
  cls.def("__i" py "__", &inplace<static_cast<BinaryFn>(&fn)>);
  ACCEL_PY_BINARY("add", add)
  ACCEL_PY_BINARY("sub", subtract)
  ACCEL_PY_BINARY("mul", multiply)
  ACCEL_PY_BINARY("truediv", divide)
  ACCEL_PY_BINARY("floordiv", floor_divide)
  ACCEL_PY_BINARY("mod", remainder)
  cls.def("__pow__", [](const Array& self, nb::handle e) {
    return power_operator(self, e, false, nb::handle());
  });
  cls.def("__rpow__", &reflected<static_cast<BinaryFn>(&pow)>);
  cls.def("__ipow__", [](nb::handle self_h, nb::handle e) {
    return power_operator(nb::cast<const Array&>(self_h), e, true, self_h);
  });
  ACCEL_PY_BINARY("and", bitwise_and)
  ACCEL_PY_BINARY("or", bitwise_or)
  ACCEL_PY_BINARY("xor", bitwise_xor)
  ACCEL_PY_BINARY("lshift", bitwise_left_shift)
  ACCEL_PY_BINARY("rshift", bitwise_right_shift)
#undef ACCEL_PY_BINARY
  cls.def("__eq__", &binary<static_cast<BinaryFn>(&equal)>)
      .def("__ne__", &binary<static_cast<BinaryFn>(&not_equal)>)
      .def("__lt__", &binary<static_cast<BinaryFn>(&less)>)
      .def("__le__", &binary<static_cast<BinaryFn>(&less_equal)>)
      .def("__gt__", &binary<static_cast<BinaryFn>(&greater)>)
      .def("__ge__", &binary<static_cast<BinaryFn>(&greater_equal)>)
      .def("__neg__", [](const Array& a) { return negative(a); })
      .def("__pos__", [](const Array& a) { return positive(a); })
      .def("__abs__", [](const Array& a) { return accel::abs(a); })
      .def("__invert__", [](const Array& a) { return bitwise_invert(a); });
  cls.attr("__hash__") = nb::none();
  // NumPy's binary operators defer to ours (np_array + x gives an accel array, like x + np_array)
  // while np.sin(x) still works through __array__.
  cls.attr("__array_priority__") = 100;

  // NumPy's asarray(a, dtype=None, order=None, *, device=None, copy=None, like=None): dtype and
  // order may come positionally, as in np.asarray(x, np.float32) (the Array API's keywords stay
  // keywords; its obj is positional-only).
  m.def("asarray", [](nb::handle obj, nb::handle dtype, nb::handle order, nb::handle device_arg,
                      nb::handle copy, nb::handle like) -> nb::object {
    const std::optional<Device> device = device_with_like(device_arg, like, "asarray");
    const std::optional<bool> copy_mode =
        copy.is_none() ? std::nullopt : std::optional<bool>(nb::cast<bool>(copy));
    // NumPy's order: C or F copy an array laid out otherwise; A and K (and None) ask for no
    // layout (NumPy's asarray(x, order='A') of a strided x is x itself), and a copy=True copy
    // keeps x's layout for K and A's F.
    const Order o = to_order(order, "asarray", Order::K);
    Array r = asarray(obj, to_optional_dtype(dtype), device, copy_mode, o);
    if (o == Order::C || o == Order::F) {
      r.eval();
      // (An empty array is both, as NumPy's.)
      if (r.size() != 0 && !(o == Order::C ? r.is_contiguous() : r.is_f_contiguous())) {
        if (copy_mode == false)
          throw ValueError(std::string("[asarray] order='") + (o == Order::C ? "C" : "F") +
                           "' needs a copy of " + r.describe() + ", and copy=False was given");
        r = accel::copy(r, o);
      }
    }
    // An accel array that needed nothing is returned itself, as NumPy's asarray returns x.
    if (is_ndarray(obj) && r.is(array_of(obj.ptr()))) return nb::borrow(obj);
    return wrap(std::move(r));
  }, nb::arg("a"), nb::arg("dtype") = nb::none(), nb::arg("order") = nb::none(), nb::kw_only(),
     nb::arg("device") = nb::none(), nb::arg("copy") = nb::none(), nb::arg("like") = nb::none(),
     "An accel array of obj: an accel array as it is, NumPy arrays and DLPack producers without "
     "a copy where they can, Python scalars and (nested) sequences converted. dtype converts; "
     "order 'C' or 'F' copies an array laid out otherwise ('A' and 'K' keep its layout); "
     "copy=True always copies, copy=False raises ValueError where a copy is needed.");
  // asarray(x) and asarray(x, dtype) of the common kinds of x (a NumPy array, a list or tuple,
  // a Python number, an accel array) without nanobind's dispatch of six arguments (a tenth of
  // asarray(numpy_array)). Other objects go to the full function, so none is read twice.
  def_fast_function_with_keywords(m, "asarray", [](PyObject*, PyObject* const* args, Py_ssize_t nargs,
                                                   PyObject* kwnames) -> PyObject* {
    PyObject* a[2];
    if (!bind_arguments(args, nargs, kwnames, {"a", "dtype"}, a) || !a[0]) return nullptr;
    nb::handle obj(a[0]);
    PyObject* o = obj.ptr();
    if (!(is_ndarray(obj) || PyList_Check(o) || PyTuple_Check(o) || is_python_scalar(obj) ||
          is_numpy_ndarray(obj)))
      return nullptr;
    Array r = asarray(obj, a[1] ? to_optional_dtype(a[1]) : std::nullopt, std::nullopt, std::nullopt);
    // An accel array comes back itself, as NumPy's asarray(x) is x (and x.flags writes reach x).
    if (is_ndarray(obj) && r.is(array_of(o))) return Py_NewRef(o);
    return wrap(std::move(r)).release().ptr();
  }, "(a, dtype=None, order=None, *, device=None, copy=None, like=None)");
  m.def("from_dlpack", [](nb::handle x, nb::handle device, nb::handle copy) {
    return from_dlpack(x, to_optional_device(device),
                       copy.is_none() ? std::nullopt : std::optional<bool>(nb::cast<bool>(copy)));
  }, nb::arg("x"), nb::kw_only(), nb::arg("device") = nb::none(), nb::arg("copy") = nb::none(),
     "An accel array of a DLPack producer's memory: zero copy unless copy=True or another "
     "device is asked for; read-only when the producer flags it so.");
  // from_dlpack(x) of a NumPy or accel array, positional and alone, without nanobind's dispatch
  // of two keyword-only arguments (two fifths of from_dlpack(numpy_array) at 10 elements).
  def_fast_function(m, "from_dlpack", [](PyObject*, PyObject* const* args, Py_ssize_t nargs) -> PyObject* {
    if (nargs != 1 || !(is_numpy_ndarray(args[0]) || is_ndarray(args[0]))) return nullptr;
    return wrap(from_dlpack(args[0], std::nullopt, std::nullopt)).release().ptr();
  }, "(x, /, *, device=None, copy=None)");
  // As cupy.asnumpy: any array-like goes in (a NumPy array comes back as it is), so host code
  // can call it on whatever it holds.
  m.def("asnumpy", [](nb::handle a) -> nb::object {
    if (is_ndarray(a)) return to_numpy_view(to_device(array_of(a.ptr()), Device::cpu()));
    // Kept for the process (released after the interpreter, a static nb::object would crash).
    static PyObject* np_asarray =
        nb::object(nb::module_::import_("numpy").attr("asarray")).release().ptr();
    return nb::borrow(np_asarray)(a);
  }, nb::arg("a"),
        "A NumPy array with the values of `a` (a copy for GPU arrays, a view for CPU ones; "
        "NumPy arrays and other array-likes through numpy.asarray).");
  // asnumpy(x) of an accel array without nanobind's dispatch (a fifth of the call).
  def_fast_function(m, "asnumpy", [](PyObject*, PyObject* const* args, Py_ssize_t nargs) -> PyObject* {
    if (nargs != 1 || !is_ndarray(args[0])) return nullptr;
    return to_numpy_view(to_device(array_of(args[0]), Device::cpu())).release().ptr();
  });
  m.def("_readonly_view", [](const Array& a) {
    return to_numpy_view(to_device(a, Device::cpu()), /*writable=*/false);
  }, "asnumpy as a read-only view (printing, pickling): the array stays lazy-friendly.");
  m.def("to_device", [](const Array& a, nb::handle device) { return to_device(a, *to_optional_device(device)); });
  m.def("astype", [](const Array& a, nb::handle dtype, bool copy, nb::handle device) {
    Array r = astype(a, to_dtype(dtype), copy);
    if (auto d = to_optional_device(device)) r = to_device(r, *d);
    return r;
  }, nb::arg("x"), nb::arg("dtype"), nb::kw_only(), nb::arg("copy") = true, nb::arg("device") = nb::none());
  m.def("_kept_layout", [](nb::handle shape, const std::vector<Array>& inputs) -> nb::object {
    const Strides s = kept_layout(to_shape(shape), inputs);
    if (s.empty()) return nb::none();
    nb::list out;
    for (int64_t v : s) out.append(v);
    return nb::tuple(out);
  }, nb::arg("shape"), nb::arg("inputs"),
     "The element strides NumPy's iterator lays an elementwise result of `shape` from `inputs` "
     "out with (order='K'), or None for C order.");
  m.def("_resize", [](Array& a, nb::handle shape, bool refcheck) {
    a = resize_in_place(a, to_shape(shape), refcheck);  // x's Python object holds the resized array
  }, nb::arg("x"), nb::arg("shape"), nb::arg("refcheck"), "NumPy's x.resize(shape) in place.");
  m.def("_cast_operand", [](const Array& a, nb::handle dtype) {
    return cast_operand(a, to_dtype(dtype));
  }, nb::arg("x"), nb::arg("dtype"),
     "x as dtype for an elementwise op to read, laid out as that op lays its result out (a\n"
     "ufunc's loop casts its inputs; astype copies order K). x itself when it has the dtype.");
  m.def("default_device", [] { return default_device(); });
  m.def("eval", [](nb::args arrays) {
    std::vector<Array> list;
    for (nb::handle h : arrays) list.push_back(nb::cast<const Array&>(h));
    accel::eval(list);
  }, "Computes pending arrays now; those that share work run in one fused pass.");
  def_fast_path(m, "view", [](PyObject* self, PyObject* const*, Py_ssize_t nargs) -> PyObject* {
    return nargs == 0 ? wrap(Array::view_copy(array_of(self))).release().ptr() : nullptr;
  });
  def_fast_path(m, "copy", [](PyObject* self, PyObject* const*, Py_ssize_t nargs) -> PyObject* {
    return nargs == 0 ? wrap(accel::copy(array_of(self))).release().ptr() : nullptr;
  });
  // x.item() and x.tolist(), without nanobind's dispatch (about 60 ns, a third of x.item()).
  def_fast_path(m, "item", [](PyObject* self, PyObject* const*, Py_ssize_t nargs) -> PyObject* {
    return nargs == 0 ? python_item(array_of(self)).release().ptr() : nullptr;
  });
  def_fast_path(m, "tolist", [](PyObject* self, PyObject* const*, Py_ssize_t nargs) -> PyObject* {
    return nargs == 0 ? tolist(array_of(self)).release().ptr() : nullptr;
  });
}

}  // namespace accel::py
