// Array creation (Array API "creation functions" plus NumPy's identity): constant fills,
// sequences, identity-like matrices, triangles and coordinate grids. Each one allocates on
// `device` and fills through the Backend; nothing is computed element by element here.
#pragma once
#include <complex>
#include <optional>
#include <string_view>
#include <vector>

#include "accel/core/array.h"
#include "accel/ops/operators.h"
#include "accel/ops/result_layout.h"

namespace accel {

// New arrays, C-ordered or in `order` (Order::F: column-major, NumPy's order='F').
Array empty(const Shape& shape, Dtype dtype = default_float, Device device = default_device(),
            Order order = Order::C);
Array zeros(const Shape& shape, Dtype dtype = default_float, Device device = default_device(),
            Order order = Order::C);
Array ones(const Shape& shape, Dtype dtype = default_float, Device device = default_device(),
           Order order = Order::C);
// Every element = fill_value, broadcast to `shape` (NumPy allows an array here). Without a
// dtype, a weak (Python) scalar gives the default dtype of its kind (bool, int64, float64,
// complex128) and an array keeps its own.
Array full(const Shape& shape, const Array& fill_value, std::optional<Dtype> dtype = std::nullopt,
           Device device = default_device(), Order order = Order::C);
template <Number T>
Array full(const Shape& shape, T fill_value, std::optional<Dtype> dtype = std::nullopt,
           Device device = default_device(), Order order = Order::C) {
  return full(shape, weak_scalar(fill_value, Device::cpu()), dtype, device, order);
}

// x's shape (or `shape`, NumPy's shape=), and x's dtype and device unless given; laid out as x
// (Order::K, NumPy's default; another shape of x's rank keeps x's axis order, another rank is C)
// or in `order` (A: Fortran where x is Fortran- and not C-contiguous).
Array empty_like(const Array& x, std::optional<Dtype> dtype = std::nullopt,
                 std::optional<Device> device = std::nullopt, Order order = Order::K,
                 const std::optional<Shape>& shape = std::nullopt);
Array zeros_like(const Array& x, std::optional<Dtype> dtype = std::nullopt,
                 std::optional<Device> device = std::nullopt, Order order = Order::K,
                 const std::optional<Shape>& shape = std::nullopt);
Array ones_like(const Array& x, std::optional<Dtype> dtype = std::nullopt,
                std::optional<Device> device = std::nullopt, Order order = Order::K,
                const std::optional<Shape>& shape = std::nullopt);
Array full_like(const Array& x, const Array& fill_value, std::optional<Dtype> dtype = std::nullopt,
                std::optional<Device> device = std::nullopt, Order order = Order::K,
                const std::optional<Shape>& shape = std::nullopt);

// NumPy's arange: length ceil((stop - start) / step), values start + i * step computed the way
// NumPy does (in the result dtype, from its first two elements). start/stop/step are 0-d
// arrays, usually weak scalars; without a dtype the result is int64 for integers and float64
// as soon as one is a float.
Array arange(const Array& start, const Array& stop, const Array& step,
             std::optional<Dtype> dtype = std::nullopt, Device device = default_device());
// The same for integers known on the host (Python ints from the bindings, C++ int64s), without
// a 0-d array for each; without a dtype the result is int64.
Array arange(int64_t start, int64_t stop, int64_t step, std::optional<Dtype> dtype, Device device);
template <Number A, Number B, Number C = int64_t>
Array arange(A start, B stop, C step = 1, std::optional<Dtype> dtype = std::nullopt,
             Device device = default_device()) {
  return arange(weak_scalar(start, Device::cpu()), weak_scalar(stop, Device::cpu()),
                weak_scalar(step, Device::cpu()), dtype, device);
}
template <Number A>
Array arange(A stop, std::optional<Dtype> dtype = std::nullopt, Device device = default_device()) {
  return arange(weak_scalar(int64_t{0}, Device::cpu()), weak_scalar(stop, Device::cpu()),
                weak_scalar(int64_t{1}, Device::cpu()), dtype, device);
}

// `num` evenly spaced values over [start, stop] (or [start, stop) without the endpoint),
// computed in float64 (complex128 for complex bounds) like NumPy, with the exact endpoint;
// integer dtypes are rounded towards -inf (NumPy 2).
Array linspace(double start, double stop, int64_t num, bool endpoint = true,
               std::optional<Dtype> dtype = std::nullopt, Device device = default_device());
Array linspace(std::complex<double> start, std::complex<double> stop, int64_t num,
               bool endpoint = true, std::optional<Dtype> dtype = std::nullopt,
               Device device = default_device());

// Ones on the k-th diagonal of an n_rows x n_cols matrix (n_cols defaults to n_rows).
Array eye(int64_t n_rows, std::optional<int64_t> n_cols = std::nullopt, int64_t k = 0,
          Dtype dtype = default_float, Device device = default_device());
Array identity(int64_t n, Dtype dtype = default_float, Device device = default_device());

// The lower / upper triangle (on and below / above the k-th diagonal) of the last two axes;
// the rest is zero. Leading axes are a batch.
Array tril(const Array& x, int64_t k = 0);
Array triu(const Array& x, int64_t k = 0);

// Coordinate grids from 1-d arrays. indexing "xy" (Cartesian: the first two output axes
// swapped) or "ij" (matrix). sparse returns arrays with length-1 axes that broadcast to the
// grid instead of full copies. copy_grids=false (NumPy's copy=False) returns views of the
// inputs instead of copies; a dense grid's views are read-only (each element repeats).
std::vector<Array> meshgrid(const std::vector<Array>& arrays, std::string_view indexing = "xy",
                            bool sparse = false, bool copy_grids = true);

}  // namespace accel
