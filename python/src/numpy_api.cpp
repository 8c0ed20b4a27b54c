// The few entries of NumPy's C API table accel uses, by their index in the table: NumPy keeps
// the indices stable across versions (its ABI promise; pybind11's numpy.h reads the same ones).
#include "numpy_api.h"

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

}  // namespace

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
