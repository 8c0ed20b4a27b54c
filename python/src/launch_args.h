// Python launch configurations and arguments -> C++, for kernels on every device (the CUDA
// Kernel in cuda_bindings.cpp, the CPU RawFunction in raw_kernel_bindings.cpp): one reading of
// CuPy's calling convention `kernel(grid, block, args)`.
#pragma once
#include <array>
#include <complex>
#include <string>

#include "bindings.h"

namespace accel::py {

// An int or a tuple/list of 1 to 3 ints, each in [0, 2^32).
std::array<unsigned, 3> to_launch_dims(nb::handle obj, const char* what);
bool is_numpy_scalar(nb::handle obj);
// Where the accel arrays among `args` live: -1 the cpu, k >= 0 cuda:k, -2 no array. Arrays on
// two devices are a DeviceError (a kernel runs on one device).
int arrays_device(nb::handle args);
// A NumPy scalar's dtype (through its dtype's name) and bytes (through the buffer protocol).
Dtype numpy_scalar_dtype(nb::handle obj);
template <class Args> void add_numpy_scalar(Args& out, nb::handle a) {
  const Dtype dt = numpy_scalar_dtype(a);
  Py_buffer view;
  if (PyObject_GetBuffer(a.ptr(), &view, PyBUF_SIMPLE) != 0) throw nb::python_error();
  std::string bytes(static_cast<const char*>(view.buf), static_cast<size_t>(view.len));
  PyBuffer_Release(&view);
  if (bytes.size() != itemsize(dt))
    throw DTypeError("[launch] a NumPy " + std::string(dtype_name(dt)) + " scalar of " +
                     std::to_string(bytes.size()) + " bytes");
  out.add_scalar(dt, bytes.data());
}

// Arrays, NumPy scalars of any accel dtype, Python scalars (bool, int -> int64, float ->
// float64, complex -> complex128, as CuPy) and bytes-like structs, in order. `Args` is
// cuda::KernelArgs or cpu::RawArgs.
template <class Args> Args to_launch_args(nb::handle args, const std::string& kernel) {
  if (!nb::isinstance<nb::tuple>(args) && !nb::isinstance<nb::list>(args))
    throw nb::type_error(("[launch " + kernel + "] args must be a tuple or list").c_str());
  Args out;
  if constexpr (requires { out.reserve(size_t{}); }) out.reserve(nb::len(args));
  size_t i = 0;
  for (nb::handle a : args) {
    if (nb::isinstance<Array>(a)) {
      out.add(nb::cast<const Array&>(a));
    } else if (is_numpy_scalar(a)) {
      add_numpy_scalar(out, a);
    } else if (PyBool_Check(a.ptr())) {
      out.add(a.ptr() == Py_True);
    } else if (PyLong_Check(a.ptr())) {
      out.add(nb::cast<int64_t>(a));
    } else if (PyFloat_Check(a.ptr())) {
      out.add(PyFloat_AS_DOUBLE(a.ptr()));
    } else if (PyComplex_Check(a.ptr())) {
      out.add(std::complex<double>(PyComplex_RealAsDouble(a.ptr()), PyComplex_ImagAsDouble(a.ptr())));
    } else if (PyBytes_Check(a.ptr()) || PyByteArray_Check(a.ptr()) || PyMemoryView_Check(a.ptr())) {
      nb::bytes b(nb::module_::import_("builtins").attr("bytes")(a));
      out.add_bytes(b.c_str(), b.size());
    } else {
      throw nb::type_error(("[launch " + kernel + "] argument " + std::to_string(i) + " is a " +
                            nb::type_name(a.type()).c_str() +
                            "; pass accel arrays (on the kernel's device), NumPy scalars such as "
                            "numpy.int32(n), Python scalars, or bytes for a struct")
                               .c_str());
    }
    ++i;
  }
  return out;
}

}  // namespace accel::py
