// Shared pieces of the Python bindings: one init_<area> per file (module.cpp calls them all)
// and the conversions from Python objects every area needs.
#pragma once
#include <nanobind/nanobind.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <new>
#include <optional>
#include <span>
#include <vector>

#include "accel/accel.h"

namespace nb = nanobind;

// accel's shapes and strides (core/small_vector.h) convert like std::vector: lists from Python,
// lists to Python.
namespace nanobind::detail {
template <class T, size_t N>
struct type_caster<accel::SmallVector<T, N>> : list_caster<accel::SmallVector<T, N>, T> {};
}  // namespace nanobind::detail

namespace accel::py {

// The Python type accel.ndarray, set as soon as init_array binds it.
extern PyTypeObject* ndarray_type;
// nb::isinstance<Array> without nanobind's search for the bound type: every operand of every
// call is checked, often twice.
inline bool is_ndarray(nb::handle h) {
  PyTypeObject* t = Py_TYPE(h.ptr());
  return t == ndarray_type || PyType_IsSubtype(t, ndarray_type);
}
// The array an ndarray Python object holds (the caller has checked the type).
inline const Array& array_of(PyObject* o) { return *nb::inst_ptr<Array>(nb::handle(o)); }

void init_errors(nb::module_& m);
void init_dtype(nb::module_& m);
void init_array(nb::module_& m);
void init_array_protocols(nb::module_& m);
void init_memory(nb::module_& m);
void init_elementwise(nb::module_& m);
void init_creation(nb::module_& m);
void init_reduction(nb::module_& m);
void init_sorting(nb::module_& m);
void init_flags(nb::module_& m);
void init_manipulation(nb::module_& m);
void init_indexing(nb::module_& m);
void init_linalg(nb::module_& m);
void init_linalg_decompose(nb::module_& m);
void init_fft(nb::module_& m);
void init_runtime(nb::module_& m);
void init_cuda(nb::module_& m);
void init_kernel_cache(nb::module_& m);
void init_fusion(nb::module_& m);
void init_kernel_templates(nb::module_& m);
void init_raw_kernels(nb::module_& m);
void init_random(nb::module_& m);
void init_profile(nb::module_& m);
void init_ufunc_type(nb::module_& m);
void init_operator_slots(nb::module_& m);  // last: it patches what the others defined

// A dtype from an accel dtype, a NumPy dtype or scalar type, a Python type or a name.
Dtype to_dtype(nb::handle obj);
std::optional<Dtype> to_optional_dtype(nb::handle obj);  // None -> nullopt
// NumPy's order= argument: None -> `absent`, else "C", "F", "A" or "K" (ValueError naming `op`).
Order to_order(nb::handle obj, const char* op, Order absent);
// A device from an accel Device, "cpu"/"cuda:1", or None (-> nullopt).
std::optional<Device> to_optional_device(nb::handle obj);
// The device= of a creation function that also takes NumPy's like=: like names the kind of
// array to make (accel's functions make accel arrays), so any object with __array_function__
// is taken, and an accel array's device is the default where device= is None. TypeError for
// other objects, as NumPy's.
std::optional<Device> device_with_like(nb::handle device, nb::handle like, const char* op);
// A Python bool, int, float or complex (exact types: NumPy's scalars are typed, not weak).
bool is_python_scalar(nb::handle obj);
// An operand of an op: arrays as they are, Python scalars as weak 0-d arrays on `device`,
// anything else through asarray.
Array to_operand(nb::handle obj, Device device);
// A Python int outside int64 and uint64 (to_operand raises OverflowError for it) as NumPy takes
// it in `op` beside an array of dtype `other`: a 0-d array of the float dtype the op's loop
// reads it in (its dtype joins promotion as NumPy's converted value does), or an infinity of its
// sign where it is compared with an integer array; nullopt where NumPy raises OverflowError
// (integer and bool loops) and for other objects.
std::optional<Array> huge_int_operand(nb::handle obj, OpId op, Dtype other, Device device);
// The first accel array's device among objects, else the default device.
Device device_of(std::initializer_list<nb::handle> objs);
// Array API asarray: zero copy for buffer-protocol / DLPack objects when dtype and device allow.
// A copy of an array (copy=True) is laid out in `copy_order` (NumPy's asarray: K, as the input).
Array asarray(nb::handle obj, std::optional<Dtype> dtype, std::optional<Device> device,
              std::optional<bool> copy, Order copy_order = Order::K);
// Keeps a Python object alive from C++ (an imported array's owner); drops it with the GIL held.
std::shared_ptr<void> keep_alive(nb::handle obj);
// A CPU Buffer over `nbytes` at `data`, which `owner` (kept alive, dropped with the GIL held)
// owns: keep_alive and the Buffer in one allocation.
std::shared_ptr<Buffer> python_owned_buffer(nb::handle owner, void* data, size_t nbytes);
// A NumPy ndarray (the exact type) viewed through one buffer-protocol request: the common
// import, without a DLPack capsule per call. Its memory stays put while accel holds a reference
// (NumPy refuses to resize a referenced array); read-only stays read-only. nullopt for other
// objects, dtypes accel does not have and strides that are not multiples of the item size.
// `as` reads the elements as another dtype of their size (ml_dtypes' bfloat16, via uint16).
std::optional<Array> from_numpy_array(nb::handle obj, std::optional<Dtype> as = std::nullopt);
// An accel array as it is; anything else through asarray with its defaults.
Array to_array(nb::handle obj);
// An array argument read in place: an accel array is used where it lies, in its Python object
// (a copy of its handle costs an atomic increment and decrement of the shared count, ~10 ns
// with threads running; a small reduction paid three), anything else is converted (to_array)
// and held here. Lives within one call, while the caller holds the arguments.
class ArrayArg {
 public:
  explicit ArrayArg(nb::handle obj)
      : array_(is_ndarray(obj) ? &array_of(obj.ptr()) : &converted_.emplace(to_array(obj))) {}
  ArrayArg(const ArrayArg&) = delete;
  ArrayArg& operator=(const ArrayArg&) = delete;
  operator const Array&() const { return *array_; }  // NOLINT: implicit, as an argument

 private:
  std::optional<Array> converted_;  // before array_, which may point into it
  const Array* array_;
};
// An integer read as NumPy reads sizes and axes: through __index__ (TypeError for floats, None
// and strings; the object's own error if __index__ raises), OverflowError beyond int64.
int64_t index_int(nb::handle obj);
// A shape from an int or a sequence of ints.
Shape to_shape(nb::handle obj);
// Axes from None (nullopt: all), an int or a sequence of ints.
std::optional<std::vector<int64_t>> to_axes(nb::handle obj);
// A NumPy array viewing a CPU array's memory (keeps it alive).
// Read-only views are for accel's own use (printing, pickling): NumPy cannot write them, so
// lazy values keep reading the memory lazily.
nb::object to_numpy_view(const Array& a, bool writable = true);
// Writes `result` into `out` (NumPy's out=) and returns out, or returns result (moved into
// the new Python object: no copy of its handle). With `same_kind`, a result that does not cast
// to out's dtype under same_kind raises (ufunc out=).
nb::object finish_out(Array result, nb::handle out, const char* op, bool same_kind = false);
// A new Python ndarray holding `a`: nb::cast's work without its search for the bound type (a
// hash map lookup on every result; the type is known).
nb::object wrap(Array a);
// Writes `value` into the accel array held by the Python object `target` (out=, augmented
// assignment), with NumPy's same_kind rule when `same_kind`; works for pending targets too.
void write_into(nb::handle target, const Array& value, bool same_kind, const char* op);

// Python's binary operators: self <op> other (or other <op> self when `reflected`), or
// NotImplemented when other is no array-like, so that Python tries the other operand.
using BinaryFn = Array (*)(const Array&, const Array&);
nb::object binary_operator(BinaryFn f, const Array& self, nb::handle other, bool reflected);
// A shape as a Python tuple of ints.
nb::tuple shape_tuple(const Shape& s);
// x.T: every axis reversed, as NumPy (a view).
Array transpose_all(const Array& a);
// x[i], x[a:b:c] and x[None] on an array of at least one dimension, the commonest keys, as
// views made directly (no index entries, no plan); nullopt for any other key, and for those
// that raise, which the general path reports.
std::optional<Array> basic_getitem(const Array& x, PyObject* key);
// The value of x[key] = value as an operand (NumPy's reading of Python ints past int64).
Array setitem_value(nb::handle value, const Array& x);
// x[key]: NumPy's index forms as accel::Index entries. Up to four are kept in the object
// (x[i], x[1:], x[i, j], x[..., None]): a list on the heap cost a small x[i] a malloc and a free.
class IndexEntries {
 public:
  IndexEntries(nb::handle key, Device device);
  operator std::span<const Index>() const {
    return {heap_.empty() ? inline_.at : heap_.data(), size_};
  }

 private:
  static constexpr size_t kInline = 4;
  // Built in place, only as many as the key has (zeroing four entries, 224 bytes, was a
  // twentieth of a small x[idx]); destroyed by count, also when a later entry throws.
  struct Inline {
    union {
      Index at[kInline];
    };
    size_t built = 0;
    Inline() {}
    ~Inline() {
      for (size_t i = 0; i < built; ++i) at[i].~Index();
    }
    void add(Index&& entry) {
      new (&at[built]) Index(std::move(entry));
      ++built;
    }
  } inline_;
  std::vector<Index> heap_;
  size_t size_ = 0;
};

}  // namespace accel::py
