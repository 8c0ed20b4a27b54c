// accel::RawKernel: one CUDA C++ kernel, launched CuPy-style on whichever device its array
// arguments live on: a GPU (NVRTC, backend/cuda/kernel.h) or the CPU (the host compiler,
// backend/cpu/raw_kernel.h). The C++ face of accel.RawKernel.
//
//   accel::RawKernel add(src, "vector_add");
//   add({blocks}, {256}, a, b, c, (long long)n);           // a, b, c: accel arrays
#pragma once
#include <complex>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "accel/core/array.h"

namespace accel {

struct Dim3 {
  unsigned x = 1, y = 1, z = 1;
};

class RawKernel {
 public:
  RawKernel(std::string source, std::string name, std::vector<std::string> options = {},
            std::vector<std::string> name_expressions = {});

  // Runs every block and thread of the grid where the arrays among `args` live (the default
  // device when there are none); scalars are passed by value in the kernel's parameter types.
  template <class... A> void operator()(Dim3 grid, Dim3 block, const A&... args) const {
    launch(grid, block, 0, args...);
  }
  template <class... A>
  void launch(Dim3 grid, Dim3 block, size_t shared_mem, const A&... args) const {
    std::vector<Arg> list;
    list.reserve(sizeof...(A));
    (list.push_back(to_arg(args)), ...);
    launch_args(grid, block, shared_mem, list);
  }
  // Checked mode on either device (backend/cpu/raw_kernel.h, backend/cuda/kernel_check.h);
  // ACCEL_KERNEL_CHECK=1 turns it on for all.
  RawKernel& check(bool on = true);
  const std::string& name() const;

  // One argument: an array, or a scalar's dtype and bytes.
  struct Arg {
    std::optional<Array> array;
    Dtype dtype = Dtype::bool_;
    unsigned char bytes[16] = {};
  };

 private:
  template <class T> static Arg to_arg(const T& v) {
    Arg a;
    if constexpr (std::is_same_v<T, Array>) {
      a.array = v;
    } else {
      static_assert(std::is_arithmetic_v<T> || is_complex_v<T>,
                    "kernel arguments are accel arrays or scalars");
      if constexpr (std::is_same_v<T, bool> || !std::is_integral_v<T>) {
        a.dtype = dtype_of<T>;
      } else {
        constexpr Dtype s[] = {Dtype::int8, Dtype::int16, Dtype::int32, Dtype::int64};
        constexpr Dtype u[] = {Dtype::uint8, Dtype::uint16, Dtype::uint32, Dtype::uint64};
        constexpr int i = sizeof(T) == 1 ? 0 : sizeof(T) == 2 ? 1 : sizeof(T) == 4 ? 2 : 3;
        a.dtype = std::is_signed_v<T> ? s[i] : u[i];
      }
      std::memcpy(a.bytes, &v, sizeof v);
    }
    return a;
  }
  void launch_args(Dim3 grid, Dim3 block, size_t shared_mem, const std::vector<Arg>& args) const;

  struct Impl;
  std::shared_ptr<Impl> impl_;
};

}  // namespace accel
