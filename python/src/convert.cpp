// Python objects -> accel arrays, dtypes, devices, shapes and axes, and back to NumPy.
#include <nanobind/ndarray.h>
#include <nanobind/stl/string.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <climits>
#include <cstring>
#include <string>

#include "bindings.h"
#include "cuda_array_interface.h"
#include "dlpack.h"
#include "numpy_api.h"

namespace accel::py {
namespace {

// nanobind's DLPack dtype (buffer-protocol imports) through accel's one mapping.
std::optional<Dtype> from_dlpack_dtype(nb::dlpack::dtype dt) {
  return from_dl_dtype({dt.code, dt.bits, dt.lanes});
}

Array python_scalar(nb::handle obj, bool weak, Device device) {
  if (PyBool_Check(obj.ptr())) return Array::scalar(obj.ptr() == Py_True, weak, device);
  if (PyLong_Check(obj.ptr())) {
    int overflow = 0;
    long long v = PyLong_AsLongLongAndOverflow(obj.ptr(), &overflow);
    if (!overflow) return Array::scalar(static_cast<int64_t>(v), weak, device);
    if (overflow > 0) {
      unsigned long long u = PyLong_AsUnsignedLongLong(obj.ptr());
      if (!PyErr_Occurred()) return Array::scalar(static_cast<uint64_t>(u), weak, device);
      PyErr_Clear();
    }
    throw OverflowError("[asarray] Python integer " + nb::cast<std::string>(nb::str(obj)) +
                        " does not fit in int64 or uint64");
  }
  if (PyFloat_Check(obj.ptr())) return Array::scalar(PyFloat_AS_DOUBLE(obj.ptr()), weak, device);
  Py_complex c = PyComplex_AsCComplex(obj.ptr());
  return Array::scalar(std::complex<double>(c.real, c.imag), weak, device);
}

// The dtype of a buffer-protocol format in native byte order ("<f", "d", "Zf", "?", "q", ...),
// by kind and item size (so 'l' is int64 on LP64); nullopt for anything else.
std::optional<Dtype> buffer_dtype(const char* format, Py_ssize_t itemsize) {
  const bool little = std::endian::native == std::endian::little;
  if (*format == '@' || *format == '=' || (*format == '<' && little)) ++format;
  const bool complex = *format == 'Z';
  if (complex) ++format;
  if (!*format || format[1]) return std::nullopt;
  const char c = *format;
  auto of_size = [&](std::initializer_list<Dtype> candidates) -> std::optional<Dtype> {
    for (Dtype d : candidates)
      if (static_cast<Py_ssize_t>(accel::itemsize(d)) == itemsize) return d;
    return std::nullopt;
  };
  if (complex) return c == 'f' || c == 'd' ? of_size({Dtype::complex64, Dtype::complex128}) : std::nullopt;
  if (c == '?') return of_size({Dtype::bool_});
  if (c == 'e' || c == 'f' || c == 'd') return of_size({Dtype::float16, Dtype::float32, Dtype::float64});
  if (std::strchr("bhilq", c)) return of_size({Dtype::int8, Dtype::int16, Dtype::int32, Dtype::int64});
  if (std::strchr("BHILQ", c))
    return of_size({Dtype::uint8, Dtype::uint16, Dtype::uint32, Dtype::uint64});
  return std::nullopt;
}

// NumPy's bfloat16 is ml_dtypes' (a 2-byte dtype of that name), which has no buffer format.
bool is_numpy_bfloat16(nb::handle ndarray) {
  nb::object dt = ndarray.attr("dtype");
  return nb::cast<int64_t>(dt.attr("itemsize")) == 2 &&
         nb::cast<std::string>(dt.attr("name")) == "bfloat16";
}

}  // namespace

// Exact types only, as NumPy 2 (NEP 50): numpy.float64 and numpy.complex128 subclass Python's
// float and complex but are strong, typed scalars (float32 array + np.float64(2) is float64).
bool is_python_scalar(nb::handle obj) {
  return PyBool_Check(obj.ptr()) || PyLong_CheckExact(obj.ptr()) || PyFloat_CheckExact(obj.ptr()) ||
         PyComplex_CheckExact(obj.ptr());
}

namespace {

// A view of memory NumPy owns: shape and strides in bytes, `owner` kept alive. nullopt for
// strides that are not multiples of the item size.
std::optional<Array> numpy_memory(nb::handle owner, void* data, int ndim, const Py_ssize_t* dims,
                                  const Py_ssize_t* byte_strides, Dtype dtype, bool read_only) {
  const auto item = static_cast<int64_t>(itemsize(dtype));
  Shape shape(static_cast<size_t>(ndim));
  Strides strides(static_cast<size_t>(ndim));
  int64_t lo = 0, hi = 0;
  for (int i = 0; i < ndim; ++i) {
    if (byte_strides[i] % item != 0) return std::nullopt;
    shape[i] = dims[i];
    strides[i] = byte_strides[i] / item;
    if (shape[i] > 0) (strides[i] < 0 ? lo : hi) += strides[i] * (shape[i] - 1);
  }
  char* base = static_cast<char*>(data) + lo * item;
  const bool empty = shape_size(shape) == 0;
  auto buf =
      python_owned_buffer(owner, base, empty ? 0 : static_cast<size_t>((hi - lo + 1) * item));
  buf->set_read_only(read_only);
  return Array::from_buffer(std::move(buf), std::move(shape), std::move(strides), -lo, dtype);
}

}  // namespace

std::optional<Array> from_numpy_array(nb::handle obj, std::optional<Dtype> as) {
  // The common case read from NumPy's struct: a buffer request makes NumPy build a format
  // string and shape arrays on every call (a third of asarray's time at 10 elements).
  if (!as)
    if (auto f = numpy_array_fields(obj))
      return numpy_memory(obj, f->data, f->ndim, f->shape, f->byte_strides, f->dtype, !f->writable);
  static PyTypeObject* ndarray = [] {
    nb::object np = nb::module_::import_("numpy");
    return reinterpret_cast<PyTypeObject*>(nb::object(np.attr("ndarray")).release().ptr());
  }();
  if (Py_TYPE(obj.ptr()) != ndarray) return std::nullopt;
  Py_buffer view;
  if (PyObject_GetBuffer(obj.ptr(), &view, PyBUF_RECORDS_RO) != 0) {
    PyErr_Clear();
    // ml_dtypes' bfloat16: its bits through a uint16 view of the same memory.
    if (!as && is_numpy_bfloat16(obj))
      return from_numpy_array(obj.attr("view")("uint16"), Dtype::bfloat16);
    return std::nullopt;
  }
  std::optional<Array> out;
  std::optional<Dtype> dt = buffer_dtype(view.format ? view.format : "B", view.itemsize);
  if (dt && as) dt = as;
  if (dt)
    out = numpy_memory(obj, view.buf, view.ndim, view.shape, view.strides, *dt, view.readonly);
  PyBuffer_Release(&view);
  return out;
}

namespace {

// Zero-copy view of a DLPack, __cuda_array_interface__ or buffer-protocol object of a known
// dtype.
std::optional<Array> from_array_interface(nb::handle obj) {
  if (auto a = from_numpy_array(obj)) return a;
  if (nb::hasattr(obj, "__dlpack__")) {
    try {
      return from_dlpack(obj, std::nullopt, std::nullopt);
    } catch (const nb::python_error&) {
      // The producer refused (a dtype DLPack lacks, as datetime64): the paths below, or NumPy's,
      // name the problem.
    }
  }
  if (auto a = from_cuda_array_interface(obj)) return a;
  nb::ndarray<nb::ro> nd;  // read-only sources too; writability is checked below
  try {
    if (!nb::try_cast(obj, nd)) return std::nullopt;
  } catch (const nb::python_error&) {
    return std::nullopt;  // an exporter refusing its dtype (datetime64): NumPy's path names it
  }
  auto dt = from_dlpack_dtype(nd.dtype());
  if (!dt) throw DTypeError("[asarray] unsupported element type in " +
                            nb::cast<std::string>(nb::repr(nb::handle(obj.type()))));
  if (nd.device_type() != nb::device::cpu::value)
    throw DeviceError("[asarray] only CPU memory can be imported here (DLPack device type " +
                      std::to_string(nd.device_type()) + ")");
  Shape shape(nd.ndim());
  Strides strides(nd.ndim());
  int64_t lo = 0, hi = 0;
  for (size_t i = 0; i < nd.ndim(); ++i) {
    shape[i] = static_cast<int64_t>(nd.shape(i));
    strides[i] = nd.stride(i);
    if (shape[i] > 0) (strides[i] < 0 ? lo : hi) += strides[i] * (shape[i] - 1);
  }
  int64_t isz = static_cast<int64_t>(itemsize(*dt));
  char* base = static_cast<char*>(const_cast<void*>(nd.data())) + lo * isz;
  size_t span = static_cast<size_t>((hi - lo + 1) * isz);
  bool empty = shape_size(shape) == 0;
  auto buf = std::make_shared<Buffer>(base, empty ? 0 : span, Device::cpu(), keep_alive(obj));
  // Read-only sources (a NumPy array with writeable=False, bytes) stay read-only here.
  Py_buffer view;
  if (PyObject_CheckBuffer(obj.ptr())) {
    if (PyObject_GetBuffer(obj.ptr(), &view, PyBUF_WRITABLE | PyBUF_STRIDES) == 0)
      PyBuffer_Release(&view);
    else {
      PyErr_Clear();
      buf->set_read_only(true);
    }
  }
  return Array::from_buffer(buf, shape, strides, -lo, *dt);
}

// NumPy trusts an __array_interface__ whose shape and strides reach past the buffer it names,
// and reads (or lets accel write) whatever memory lies there. When the interface names a buffer
// object, its span is checked against the buffer's length first; a raw pointer cannot be checked.
void check_array_interface_span(nb::handle obj) {
  if (!nb::hasattr(obj, "__array_interface__")) return;
  nb::object iface = obj.attr("__array_interface__");
  if (!nb::isinstance<nb::dict>(iface)) return;
  nb::dict d = nb::borrow<nb::dict>(iface);
  nb::object data = d.contains("data") ? nb::object(d["data"]) : nb::none();
  if (nb::isinstance<nb::tuple>(data)) return;  // (pointer, read-only): nothing to check against
  nb::handle owner = data.is_none() ? obj : data;
  if (!PyObject_CheckBuffer(owner.ptr())) return;
  const auto fail = [&](const std::string& why) {
    throw ValueError("[asarray] __array_interface__ " + nb::cast<std::string>(nb::repr(iface)) +
                     " " + why);
  };
  try {
    nb::object view = nb::steal(PyMemoryView_FromObject(owner.ptr()));
    if (!view.is_valid()) throw nb::python_error();
    const auto nbytes = nb::cast<int64_t>(view.attr("nbytes"));
    nb::object np = nb::module_::import_("numpy");
    const auto isz = nb::cast<int64_t>(np.attr("dtype")(d["typestr"]).attr("itemsize"));
    std::vector<int64_t> shape;
    for (nb::handle h : nb::object(d["shape"])) shape.push_back(nb::cast<int64_t>(h));
    std::vector<int64_t> strides;
    nb::object st = d.contains("strides") ? nb::object(d["strides"]) : nb::none();
    if (st.is_none()) {
      int64_t acc = isz;
      strides.resize(shape.size());
      for (size_t i = shape.size(); i-- > 0; acc *= std::max<int64_t>(shape[i], 1)) strides[i] = acc;
    } else {
      for (nb::handle h : st) strides.push_back(nb::cast<int64_t>(h));
    }
    if (strides.size() != shape.size()) fail("has strides and shape of different lengths");
    const int64_t offset = d.contains("offset") ? nb::cast<int64_t>(d["offset"]) : 0;
    __int128 lo = offset, hi = offset + isz;
    for (size_t i = 0; i < shape.size(); ++i) {
      if (shape[i] == 0) return;  // no element is read
      if (shape[i] < 0) fail("has a negative dimension");
      const __int128 reach = static_cast<__int128>(strides[i]) * (shape[i] - 1);
      (reach < 0 ? lo : hi) += reach;
    }
    if (lo < 0 || hi > nbytes)
      fail("reaches outside its buffer of " + std::to_string(nbytes) + " bytes");
  } catch (const nb::cast_error&) {
    fail("has a shape, strides or offset that are not integers of 64 bits");
  }
}

// Whether every int64 value fits integer dtype `to` (NumPy raises OverflowError otherwise).
bool ints_fit(const int64_t* v, Py_ssize_t n, Dtype to) {
  const int bits = static_cast<int>(8 * itemsize(to));
  int64_t lo = 0, hi = INT64_MAX;
  if (!is_unsigned(to) && bits < 64) {
    lo = -(int64_t(1) << (bits - 1));
    hi = (int64_t(1) << (bits - 1)) - 1;
  } else if (!is_unsigned(to)) {
    lo = INT64_MIN;
  } else if (bits < 64) {
    hi = (int64_t(1) << bits) - 1;
  }
  for (Py_ssize_t i = 0; i < n; ++i)
    if (v[i] < lo || v[i] > hi) return false;
  return true;
}

// A flat list of Python floats, of ints that fit in int64, or of bools, read without NumPy
// (asarray([1.0] * 10) costs NumPy's inference and an import otherwise). Without a dtype, the
// one NumPy infers for such a list: float64, int64, bool. With one, the values NumPy converts
// the same way: floats and ints to a float or complex dtype through a double each (as NumPy's
// setitem does: Python's float(x), then the dtype's rounding of it), ints to an integer dtype
// that holds every one of them, bools to any dtype. Anything else (mixed kinds, nested, empty,
// big ints, floats to integers, ints out of the dtype's range: NumPy's OverflowError) returns
// nullopt and takes NumPy's path.
std::optional<Array> flat_scalar_list(nb::handle obj, Device device, std::optional<Dtype> to) {
  if (!PyList_CheckExact(obj.ptr())) return std::nullopt;
  const Py_ssize_t n = PyList_GET_SIZE(obj.ptr());
  if (n == 0) return std::nullopt;
  PyObject* const* items = &PyList_GET_ITEM(obj.ptr(), 0);
  PyTypeObject* kind = Py_TYPE(items[0]);
  if (kind != &PyFloat_Type && kind != &PyLong_Type && kind != &PyBool_Type) return std::nullopt;
  if (to && kind == &PyFloat_Type && !is_inexact(*to)) return std::nullopt;
  if (to && kind == &PyLong_Type && is_bool(*to)) return std::nullopt;
  for (Py_ssize_t i = 1; i < n; ++i)
    if (Py_TYPE(items[i]) != kind) return std::nullopt;
  // Ints bound for a float dtype are read as doubles, as Python's float(x) (exact to 2**53,
  // rounded to nearest beyond).
  const bool ints_as_doubles = kind == &PyLong_Type && to && is_inexact(*to);
  const Dtype dtype = kind == &PyFloat_Type || ints_as_doubles ? Dtype::float64
                      : kind == &PyLong_Type                   ? Dtype::int64
                                                               : Dtype::bool_;
  Array host = Array::empty({static_cast<int64_t>(n)}, dtype, Device::cpu());
  if (kind == &PyFloat_Type) {
    auto* out = host.data<double>();
    for (Py_ssize_t i = 0; i < n; ++i) out[i] = PyFloat_AS_DOUBLE(items[i]);
  } else if (ints_as_doubles) {
    auto* out = host.data<double>();
    for (Py_ssize_t i = 0; i < n; ++i) {
      out[i] = PyLong_AsDouble(items[i]);
      if (out[i] == -1.0 && PyErr_Occurred()) {  // past float64's range: NumPy's OverflowError
        PyErr_Clear();
        return std::nullopt;
      }
    }
  } else if (kind == &PyLong_Type) {
    auto* out = host.data<int64_t>();
    for (Py_ssize_t i = 0; i < n; ++i) {
      int overflow = 0;
      out[i] = PyLong_AsLongLongAndOverflow(items[i], &overflow);
      if (overflow) return std::nullopt;  // NumPy picks uint64 or object: its path decides
    }
    if (to && !ints_fit(out, n, *to)) return std::nullopt;
  } else {
    auto* out = host.data<bool>();
    for (Py_ssize_t i = 0; i < n; ++i) out[i] = items[i] == Py_True;
  }
  if (to && *to != dtype) host = astype(host, *to).eval();
  return device.is_cpu() ? host : to_device(host, device);
}

// ml_dtypes' bfloat16 type, the NumPy dtype of accel's bfloat16 arrays; a TypeError naming
// ml_dtypes where it is not installed (NumPy has no bfloat16 of its own).
nb::handle ml_dtypes_bfloat16() {
  static PyObject* type = nullptr;
  if (!type) {
    try {
      type = nb::object(nb::module_::import_("ml_dtypes").attr("bfloat16")).release().ptr();
    } catch (const nb::python_error&) {
      throw nb::type_error(
          "[asnumpy] a bfloat16 array becomes a NumPy array through ml_dtypes' bfloat16 (NumPy "
          "has none), and ml_dtypes is not installed: pip install ml_dtypes, or convert first "
          "(x.astype('float32'))");
    }
  }
  return type;
}

bool is_numpy_scalar(nb::handle obj) {
  nb::object np = nb::module_::import_("numpy");
  return nb::isinstance(obj, np.attr("generic"));
}

}  // namespace

namespace {

// Drops a reference from whichever thread lets the last view go (the GIL is usually held
// already: asking for it again costs a quarter of a small import).
void release_reference(PyObject* p) {
  if (PyGILState_Check()) {
    Py_DECREF(p);
    return;
  }
  nb::gil_scoped_acquire gil;
  Py_DECREF(p);
}

}  // namespace

std::shared_ptr<void> keep_alive(nb::handle obj) {
  obj.inc_ref();
  return std::shared_ptr<void>(obj.ptr(),
                               [](void* p) { release_reference(static_cast<PyObject*>(p)); });
}

std::shared_ptr<Buffer> python_owned_buffer(nb::handle owner, void* data, size_t nbytes) {
  // The reference and the Buffer in one allocation, as a weak scalar's value and its Buffer.
  struct Block {
    Block(PyObject* o, void* data, size_t nbytes)
        : owner(o), buffer(data, nbytes, Device::cpu(), std::shared_ptr<void>()) {
      Py_INCREF(o);
    }
    Block(const Block&) = delete;
    Block& operator=(const Block&) = delete;
    ~Block() { release_reference(owner); }
    PyObject* owner;
    Buffer buffer;
  };
  auto block = std::make_shared<Block>(owner.ptr(), data, nbytes);
  return std::shared_ptr<Buffer>(block, &block->buffer);
}

std::optional<Device> to_optional_device(nb::handle obj) {
  if (obj.is_none()) return std::nullopt;
  if (nb::isinstance<Device>(obj)) return nb::cast<Device>(obj);
  if (nb::isinstance<nb::str>(obj)) return Device::parse(nb::cast<std::string>(obj));
  throw DeviceError("[device] expected 'cpu', 'cuda', 'cuda:N' or an accel Device, got " +
                    nb::cast<std::string>(nb::repr(obj)));
}

std::optional<Device> device_with_like(nb::handle device, nb::handle like, const char* op) {
  if (like.is_none()) return to_optional_device(device);
  if (!nb::hasattr(like, "__array_function__"))
    throw nb::type_error((std::string("[") + op + "] like= must be an array implementing "
                          "__array_function__ (an accel or NumPy array); got " +
                          nb::cast<std::string>(nb::repr(nb::handle(like.type()))))
                             .c_str());
  if (device.is_none() && is_ndarray(like)) return array_of(like.ptr()).device();
  return to_optional_device(device);
}

Device device_of(std::initializer_list<nb::handle> objs) {
  for (nb::handle h : objs)
    if (is_ndarray(h)) return array_of(h.ptr()).device();
  return default_device();
}

Array to_operand(nb::handle obj, Device device) {
  if (is_ndarray(obj)) return array_of(obj.ptr());
  if (is_python_scalar(obj)) return python_scalar(obj, true, device);
  return asarray(obj, std::nullopt, device, std::nullopt);
}

std::optional<Array> huge_int_operand(nb::handle obj, OpId op, Dtype other, Device device) {
  if (!PyLong_CheckExact(obj.ptr())) return std::nullopt;
  if (is_comparison(op) && is_integer(other)) {
    // Beyond every int64 and uint64 element: compared as an infinity of its sign, exactly.
    int sign = 0;
    PyLong_AsLongLongAndOverflow(obj.ptr(), &sign);
    return Array::scalar(sign < 0 ? -INFINITY : INFINITY, true, device);
  }
  // NumPy converts the int to the dtype the loop reads it in, found as for any Python int
  // (bool with an int is int64): an integer loop cannot hold it (OverflowError), a float loop
  // takes its nearest value (inf past float16's range; OverflowError past float64's).
  // (Logical ops take bools: NumPy raises there too. An op without a loop for the dtype raises
  // its own DTypeError here.)
  const Dtype promoted = other == Dtype::bool_ ? Dtype::int64 : other;
  const Dtype loop = resolve_op_types(op, promoted).compute;
  if (!is_inexact(loop)) return std::nullopt;
  const double v = PyLong_AsDouble(obj.ptr());
  if (v == -1.0 && PyErr_Occurred()) throw nb::python_error();
  return Array::scalar_of(loop, v, device);
}

Array asarray(nb::handle obj, std::optional<Dtype> dtype, std::optional<Device> device,
              std::optional<bool> copy, Order copy_order) {
  Array a;
  bool fresh = false;  // a is new memory nobody else sees
  if (is_ndarray(obj)) {
    a = array_of(obj.ptr());
  } else if (is_python_scalar(obj) && !dtype) {
    // (With a dtype, NumPy's path below checks the value against it: 300 as int8 raises
    // OverflowError instead of wrapping to 44.)
    a = python_scalar(obj, false, device.value_or(default_device()));
    fresh = true;
  } else if (auto list = flat_scalar_list(obj, device.value_or(default_device()), dtype)) {
    a = *list;
    fresh = true;
  } else if (auto v = from_array_interface(obj)) {
    a = *v;
    if (a.buffer()->read_only() && is_numpy_scalar(obj)) {
      // NumPy scalars export read-only memory, but are values, not arrays: NumPy copies them
      // into a new writable array, and so does accel.
      a = accel::copy(a).eval();
      fresh = true;
    } else {
      // Its owner can write it behind accel's back: no lazy value may read it.
      a.buffer()->share_with_foreign_writers();
    }
  } else {
    // Nested sequences and anything else NumPy understands, with NumPy's inference.
    nb::object np = nb::module_::import_("numpy");
    // Buffer-protocol objects NumPy would treat as scalars (bytes) are read as their buffer;
    // NumPy's own scalars (ml_dtypes' bfloat16 has no buffer format) are NumPy's to read.
    nb::object src = PyObject_CheckBuffer(obj.ptr()) && !is_numpy_scalar(obj)
                         ? nb::steal(PyMemoryView_FromObject(obj.ptr()))
                         : nb::borrow(obj);
    if (!src.is_valid()) throw nb::python_error();
    check_array_interface_span(src);
    // Python values converted straight to the requested dtype, as NumPy converts them: an
    // out-of-range Python int is NumPy's OverflowError, not a wrapped value.
    // NumPy has no bfloat16 of its own: its values come as float64, rounded once by astype below.
    const char* np_dtype = !dtype                       ? nullptr
                           : *dtype == Dtype::bfloat16 ? "float64"
                                                       : dtype_name(*dtype);
    // copy=False: NumPy's ValueError where it must copy (nested lists), its view where not.
    nb::object np_copy = copy == false ? nb::object(nb::bool_(false)) : nb::none();
    nb::object arr = np_dtype ? np.attr("asarray")(src, nb::arg("dtype") = np_dtype,
                                                   nb::arg("copy") = np_copy)
                              : np.attr("asarray")(src, nb::arg("copy") = np_copy);
    // Byte-swapped data (">f8" on a little-endian machine) in the machine's order: accel's
    // loops read native values only.
    if (!nb::cast<bool>(arr.attr("dtype").attr("isnative")))
      arr = arr.attr("astype")(arr.attr("dtype").attr("newbyteorder")("="));
    if (nb::cast<std::string>(arr.attr("dtype").attr("kind")) == "O" ||
        nb::cast<std::string>(arr.attr("dtype").attr("kind")) == "U")
      throw DTypeError("[asarray] cannot make an array from " +
                       nb::cast<std::string>(nb::repr(nb::handle(obj.type()))) +
                       " (NumPy infers dtype " + nb::cast<std::string>(arr.attr("dtype").attr("name")) + ")");
    auto imported = from_array_interface(arr);
    if (!imported)
      throw DTypeError("[asarray] cannot make an array from " +
                       nb::cast<std::string>(nb::repr(nb::handle(obj.type()))) +
                       " (NumPy infers dtype " + nb::cast<std::string>(arr.attr("dtype").attr("name")) + ")");
    a = *imported;
    fresh = true;
  }
  if (copy.has_value() && !*copy) {
    // A Python number or sequence, or a NumPy scalar, has no array memory to share.
    if (fresh && !is_ndarray(obj) && (is_python_scalar(obj) || is_numpy_scalar(obj) ||
                                      PyList_Check(obj.ptr()) || PyTuple_Check(obj.ptr())))
      throw ValueError("[asarray] copy=False, but " +
                       nb::cast<std::string>(nb::str(obj.type().attr("__name__"))) +
                       " has no array memory to share: a copy is needed");
    if ((dtype && *dtype != a.dtype()) || (device && *device != a.device()))
      throw ValueError("[asarray] copy=False but a copy is needed to change the dtype or device");
  }
  // Host data is converted before it moves: the CPU has every cast, and fewer bytes may travel.
  const bool cast_on_host = a.device().is_cpu();
  if (cast_on_host && dtype && *dtype != a.dtype()) {
    a = astype(a, *dtype);
    fresh = true;
  }
  if (device && *device != a.device()) {
    a = to_device(a, *device);
    fresh = true;
  }
  if (!cast_on_host && dtype && *dtype != a.dtype()) {
    a = astype(a, *dtype);
    fresh = true;
  }
  // Computed now: a lazy copy of NumPy-owned memory would see NumPy's later writes.
  if (copy.value_or(false) && !fresh) a = accel::copy(a, copy_order).eval();
  if (a.weak()) {
    a = Array::view_of(a, a.shape(), a.strides(), a.offset());
  }
  return a;
}

int64_t index_int(nb::handle h) {
  long long v;
  if (PyLong_CheckExact(h.ptr())) {
    v = PyLong_AsLongLong(h.ptr());
  } else {
    nb::object i = nb::steal(PyNumber_Index(h.ptr()));
    if (!i.is_valid()) throw nb::python_error();
    v = PyLong_AsLongLong(i.ptr());
  }
  if (v == -1 && PyErr_Occurred()) throw nb::python_error();
  return v;
}

namespace {

// An int or a sequence of ints (a shape, axes); `what` names it in the TypeError.
template <class Out>
Out ints_of(nb::handle obj, const char* what) {
  PyObject* o = obj.ptr();
  // Tuples and lists first: asking them for __index__ raises and clears an AttributeError,
  // which cost zeros((2, 5)) more than making the array.
  if (PyTuple_Check(o) || PyList_Check(o)) {
    Out out;
    for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(o); ++i)  // __index__ may shrink a list
      out.push_back(index_int(nb::borrow(PySequence_Fast_GET_ITEM(o, i))));
    return out;
  }
  if (PyLong_Check(o) || nb::hasattr(obj, "__index__") && !nb::isinstance<nb::sequence>(obj))
    return Out{index_int(obj)};
  if (!nb::isinstance<nb::sequence>(obj) || nb::isinstance<nb::str>(obj))
    throw nb::type_error((std::string("expected ") + what +
                          " (an integer or a sequence of integers), got " +
                          nb::cast<std::string>(nb::repr(obj)))
                             .c_str());
  Out out;
  for (nb::handle h : obj) out.push_back(index_int(h));
  return out;
}

}  // namespace

Shape to_shape(nb::handle obj) { return ints_of<Shape>(obj, "a shape"); }

std::optional<std::vector<int64_t>> to_axes(nb::handle obj) {
  if (obj.is_none()) return std::nullopt;
  return ints_of<std::vector<int64_t>>(obj, "an axis");
}

Array to_array(nb::handle obj) {
  if (is_ndarray(obj)) return array_of(obj.ptr());
  return asarray(obj, std::nullopt, std::nullopt, std::nullopt);
}

nb::object to_numpy_view(const Array& a, bool writable) {
  if (!a.device().is_cpu())
    throw nb::type_error(("[asnumpy] implicit conversion of an array on " + a.device().str() +
                          " to NumPy is not allowed; copy it explicitly with accel.asnumpy(x) "
                          "or x.to_device('cpu')").c_str());
  // The host reads the values here (printing, asnumpy, NumPy calls): a wait for the profiler.
  profile::WaitScope wait("to_host");
  if (profile::Event* e = wait.event()) {
    e->detail = shape_str(a.shape()) + " " + dtype_name(a.dtype()) + " on cpu" +
                (a.is_pending() ? " (pending: computed first)" : "");
    e->elements = a.size();
    e->bytes = static_cast<int64_t>(a.nbytes());
  }
  a.eval();
  // NumPy may write through the view: pending readers take today's values, later ones run now.
  if (writable && !a.buffer()->read_only()) a.buffer()->share_with_foreign_writers();
  const bool bf16 = a.dtype() == Dtype::bfloat16;
  nb::handle bf16_type = bf16 ? ml_dtypes_bfloat16() : nb::handle();
  auto* keep = new Array(a);
  nb::capsule owner(keep, [](void* p) noexcept { delete static_cast<Array*>(p); });
  Strides bytes = a.strides();
  for (auto& s : bytes) s *= static_cast<int64_t>(a.itemsize());
  // bfloat16 travels as its bits (uint16), viewed as ml_dtypes' bfloat16 on NumPy's side.
  nb::object out = numpy_view(a.data(), a.dtype(), a.shape(), bytes, writable && !is_read_only(a),
                              std::move(owner));
  return bf16 ? out.attr("view")(bf16_type) : out;
}

nb::object wrap(Array a) {
  static const nb::handle type = nb::type<Array>();
  nb::object o = nb::inst_alloc(type);
  new (nb::inst_ptr<Array>(o)) Array(std::move(a));
  nb::inst_mark_ready(o);
  return o;
}

nb::object finish_out(Array result, nb::handle out, const char* op, bool same_kind) {
  if (out.is_none()) return wrap(std::move(result));
  nb::handle target = out;
  if (nb::isinstance<nb::tuple>(out)) {
    if (nb::len(out) != 1) throw ValueError(std::string("[") + op + "] out= must hold one array");
    target = out[0];
  }
  if (!nb::isinstance<Array>(target))
    throw nb::type_error((std::string("[") + op + "] out= must be an accel array").c_str());
  const Array& dst = nb::cast<const Array&>(target);
  if (dst.shape() != result.shape())
    throw ShapeError(std::string("[") + op + "] out= has shape " + shape_str(dst.shape()) +
                     " but the result has shape " + shape_str(result.shape()));
  write_into(target, result, same_kind, op);
  return nb::borrow(target);
}

void write_into(nb::handle target, const Array& value, bool same_kind, const char* op) {
  Array& dst = nb::cast<Array&>(target);
  // A pending target (an op's result not computed yet) has no memory to write into and no
  // views (making one computes it); arrays computed from it must keep its old value. So the
  // Python object is rebound to a fresh array with the new values: NumPy's semantics. It keeps
  // the layout the pending one has (ops/result_layout.h: sin(m.T) is stored as m.T), as NumPy's
  // x keeps its own.
  Array into = dst;
  if (dst.is_pending())
    into = Array::empty(dst.shape(), dst.dtype(), dst.device(), dst.strides());
  if (same_kind) assign_inplace(into, value, op);
  else assign(into, value, op);
  if (!into.is(dst)) dst = into;
}

Order to_order(nb::handle obj, const char* op, Order absent) {
  if (obj.is_none()) return absent;
  if (!PyUnicode_Check(obj.ptr()))
    throw nb::type_error((std::string("[") + op + "] order must be a string ('C', 'F', 'A' or "
                          "'K'), got " + nb::cast<std::string>(nb::repr(obj))).c_str());
  Py_ssize_t size = 0;
  const char* text = PyUnicode_AsUTF8AndSize(obj.ptr(), &size);
  if (!text) throw nb::python_error();
  return order_from_name(std::string_view(text, static_cast<size_t>(size)), op);
}

}  // namespace accel::py
