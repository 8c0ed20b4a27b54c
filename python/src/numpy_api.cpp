// The few entries of NumPy's C API table accel uses, by their index in the table: NumPy keeps
// the indices stable across versions (its ABI promise; pybind11's numpy.h reads the same ones).
#include "numpy_api.h"

#include <bit>
#include <optional>
#include <string>

namespace accel::py {
namespace {

using npy_intp = Py_ssize_t;

// Indices in the table (numpy/__multiarray_api.h).
constexpr int kArrayType = 2;        // PyArray_Type
constexpr int kDescrFromType = 45;   // PyArray_Descr* (int typenum)
constexpr int kNewFromDescr = 94;    // PyObject* (type, descr, nd, dims, strides, data, flags, obj)
constexpr int kSetBaseObject = 282;  // int (PyArrayObject*, PyObject* base), steals base

constexpr int kWriteable = 0x0400;  // NPY_ARRAY_WRITEABLE

// The leading fields of NumPy's array and dtype structs (PyArrayObject_fields, PyArray_Descr):
// part of its ABI, read by the macros every compiled extension uses. NumPy 2 kept the dtype's
// type_num where NumPy 1 had it (its old `flags` char became `_former_flags`).
struct ArrayStruct {
  PyObject_HEAD
  char* data;
  int nd;
  npy_intp* dimensions;
  npy_intp* strides;
  PyObject* base;
  PyObject* descr;
  int flags;
};
struct DescrStruct {
  PyObject_HEAD
  PyTypeObject* typeobj;
  char kind;
  char type;
  char byteorder;  // '>' big-endian, '<' little-endian, '=' native, '|' not applicable
  char former_flags;
  int type_num;
};

using DescrFromType = PyObject* (*)(int);
using NewFromDescr = PyObject* (*)(PyTypeObject*, PyObject*, int, npy_intp*, npy_intp*, void*, int,
                                   PyObject*);
using SetBaseObject = int (*)(PyObject*, PyObject*);

struct Api {
  PyTypeObject* array_type;
  DescrFromType descr_from_type;
  NewFromDescr new_from_descr;
  SetBaseObject set_base_object;
};

const Api& api() {
  static const Api table = [] {
    // NumPy 2 keeps the table in numpy._core, NumPy 1 in numpy.core.
    nb::object module;
    try {
      module = nb::module_::import_("numpy._core._multiarray_umath");
    } catch (const nb::python_error&) {
      module = nb::module_::import_("numpy.core.multiarray");
    }
    nb::object capsule = module.attr("_ARRAY_API");
    auto** t = static_cast<void**>(PyCapsule_GetPointer(capsule.ptr(), nullptr));
    if (!t) throw nb::python_error();
    return Api{static_cast<PyTypeObject*>(t[kArrayType]),
               reinterpret_cast<DescrFromType>(t[kDescrFromType]),
               reinterpret_cast<NewFromDescr>(t[kNewFromDescr]),
               reinterpret_cast<SetBaseObject>(t[kSetBaseObject])};
  }();
  return table;
}

// NumPy's type numbers (NPY_TYPES) for accel's dtypes, in Dtype order. 64-bit integers are
// NPY_LONG / NPY_ULONG, NumPy's own int64 and uint64 where long has 64 bits (LP64).
int type_number(Dtype d) {
  static_assert(sizeof(long) == 8, "int64 as NPY_LONG needs an LP64 platform");
  static constexpr int numbers[] = {0 /*bool*/,       1 /*int8*/,
                                    3 /*int16*/,      5 /*int32*/,
                                    7 /*int64*/,      2 /*uint8*/,
                                    4 /*uint16*/,     6 /*uint32*/,
                                    8 /*uint64*/,     23 /*float16*/,
                                    4 /*bfloat16: its bits as uint16; to_numpy_view views them as ml_dtypes'*/,
                                    11 /*float32*/,   12 /*float64*/,
                                    14 /*complex64*/, 15 /*complex128*/};
  static_assert(std::size(numbers) == kNumDtypes);
  return numbers[static_cast<int>(d)];
}

// accel's dtype of a NumPy type number: type_number's table searched (uint16 comes before
// bfloat16, which shares its number), plus NPY_LONGLONG / NPY_ULONGLONG, also 64-bit on LP64.
std::optional<Dtype> dtype_of_type_number(int n) {
  constexpr int kLongLong = 9, kULongLong = 10;
  if (n == kLongLong) return Dtype::int64;
  if (n == kULongLong) return Dtype::uint64;
  for (int d = 0; d < kNumDtypes; ++d)
    if (type_number(static_cast<Dtype>(d)) == n) return static_cast<Dtype>(d);
  return std::nullopt;
}

}  // namespace

bool is_numpy_ndarray(nb::handle obj) { return Py_TYPE(obj.ptr()) == api().array_type; }

std::optional<NumpyArrayFields> numpy_array_fields(nb::handle obj) {
  if (!is_numpy_ndarray(obj)) return std::nullopt;
  const auto* arr = reinterpret_cast<const ArrayStruct*>(obj.ptr());
  const auto* descr = reinterpret_cast<const DescrStruct*>(arr->descr);
  const char swapped = std::endian::native == std::endian::little ? '>' : '<';
  if (descr->byteorder == swapped) return std::nullopt;
  std::optional<Dtype> dtype = dtype_of_type_number(descr->type_num);
  if (!dtype) return std::nullopt;
  return NumpyArrayFields{arr->data, arr->nd, arr->dimensions, arr->strides, *dtype,
                          (arr->flags & kWriteable) != 0};
}

nb::object numpy_view(void* data, Dtype dtype, const Shape& shape, const Strides& byte_strides,
                      bool writable, nb::object base) {
  const Api& np = api();
  static_assert(sizeof(npy_intp) == sizeof(int64_t));
  // An empty array may have no memory; NumPy would allocate its own for a null pointer.
  static char no_elements;
  PyObject* descr = np.descr_from_type(type_number(dtype));
  if (!descr) throw nb::python_error();
  PyObject* arr =
      np.new_from_descr(np.array_type, descr, static_cast<int>(shape.size()),
                        reinterpret_cast<npy_intp*>(const_cast<int64_t*>(shape.data())),
                        reinterpret_cast<npy_intp*>(const_cast<int64_t*>(byte_strides.data())),
                        data ? data : &no_elements, writable ? kWriteable : 0, nullptr);
  if (!arr) throw nb::python_error();
  nb::object out = nb::steal(arr);
  if (np.set_base_object(arr, base.release().ptr()) != 0) throw nb::python_error();
  return out;
}

}  // namespace accel::py
