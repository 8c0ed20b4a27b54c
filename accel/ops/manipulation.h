// Array manipulation (Array API "Manipulation Functions" plus NumPy's common extras).
// Views: reshape (when the strides allow), permute_dims, squeeze, expand_dims, broadcast_to,
// flip, moveaxis, swapaxes, ravel of a contiguous array and unstack share x's memory, as
// NumPy's do. concat, stack, roll, tile and repeat write new arrays through Backend::cast.
// Axes may be negative; out-of-range axes raise AxisError, shapes that do not fit ShapeError.
#pragma once
#include <optional>
#include <span>
#include <vector>

#include "accel/core/array.h"
#include "accel/ops/promotion.h"
#include "accel/ops/result_layout.h"

namespace accel {

using Axes = std::vector<int64_t>;

// `x` with `shape` (one entry may be -1: inferred). copy: nullopt = a view when the strides
// allow one, else a copy; true = always a copy; false = a view or ValueError.
Array reshape(const Array& x, const Shape& shape, std::optional<bool> copy = std::nullopt);
// The same with NumPy's order=: F reads and places elements first axis fastest, A is F for a
// Fortran- and not C-contiguous x; K raises ValueError, as NumPy's.
Array reshape(const Array& x, const Shape& shape, std::optional<bool> copy, Order order);
// C-order flattening: a view of contiguous x, else a copy (NumPy ravel).
Array ravel(const Array& x);
// Flattening in `order`: F first axis fastest, A as x is laid out (F or C), K in memory order.
Array ravel(const Array& x, Order order);
// C-order flattening, always a new array (NumPy ndarray.flatten); `order` as ravel's.
Array flatten(const Array& x);
Array flatten(const Array& x, Order order);

// Axes reordered: result axis i is x's axis axes[i] (a permutation of x's axes).
Array permute_dims(const Array& x, const Axes& axes);
// All axes reversed (NumPy transpose without axes, x.T).
Array transpose(const Array& x);
// The last two axes swapped (x.mT); x needs at least 2 dimensions.
Array matrix_transpose(const Array& x);
Array swapaxes(const Array& x, int64_t axis1, int64_t axis2);
// The axes `source` moved to positions `destination`; the others keep their order.
Array moveaxis(const Array& x, const Axes& source, const Axes& destination);

// The size-1 axes removed: all of them (nullopt) or the listed ones (which must have size 1).
Array squeeze(const Array& x, const std::optional<Axes>& axes = std::nullopt);
// Size-1 axes inserted so that they sit at `axes` of the result.
Array expand_dims(const Array& x, const Axes& axes);

// A read view of x broadcast to `shape` (stride 0 on the broadcast axes).
Array broadcast_to(const Array& x, const Shape& shape);
// Every array viewed at the common broadcast shape.
std::vector<Array> broadcast_arrays(std::span<const Array> arrays);

// Joins arrays along an existing axis (nullopt: the flattened arrays). Dtypes promote like
// NumPy's concatenate; `dtype` forces the result's dtype instead (NumPy's dtype=). Every input
// must cast to the result's dtype under `casting` (DTypeError otherwise).
Array concat(std::span<const Array> arrays, std::optional<int64_t> axis = 0,
             std::optional<Dtype> dtype = std::nullopt, Casting casting = Casting::same_kind);
// Joins arrays of one shape along a new axis.
Array stack(std::span<const Array> arrays, int64_t axis = 0,
            std::optional<Dtype> dtype = std::nullopt, Casting casting = Casting::same_kind);
// The views x[..., i, ...] along `axis`, one per index.
std::vector<Array> unstack(const Array& x, int64_t axis = 0);
// Views of x cut along `axis` before each of `indices` (NumPy split with a list of indices).
std::vector<Array> split_at(const Array& x, const Axes& indices, int64_t axis = 0);
// `sections` views along `axis`; with `equal`, the axis must divide evenly (NumPy split),
// otherwise the first ones are one longer (NumPy array_split).
std::vector<Array> split(const Array& x, int64_t sections, int64_t axis = 0, bool equal = true);

// The real and imaginary parts of a complex x as writable views of its memory (NumPy's x.real
// and x.imag): the part's float dtype, strides doubled, the imaginary part one float further.
// x.real of a real x is a view of x; x.imag of a real x is read-only zeros (a new array).
Array real_part(const Array& x);
Array imag_part(const Array& x);
// x's memory read as `dtype` (NumPy's x.view(dtype)). Another item size scales the last axis,
// which must be contiguous (stride 1) and span a whole number of the new items; the view's other
// strides and its offset must land on whole items. ValueError otherwise, naming the layout.
// Bools are the bytes 0 and 1: other memory is not viewed as bool (ValueError), and a view of
// bool memory as another dtype is read-only.
Array view_as(const Array& x, Dtype dtype);
// NumPy's x.getfield(dtype, offset): each element's bytes [offset, offset + dtype's size) read
// as `dtype`, x's shape kept (complex128's getfield(float64, 8) is a writable view of the
// imaginary parts). ValueError for an offset outside the item, and where a step or the start
// does not land on a whole item of `dtype` (accel's views count in items, NumPy's in bytes).
Array field_view(const Array& x, Dtype dtype, int64_t offset);

// NumPy's diagonal: the elements x[..., i, i + offset] of the axes axis1 and axis2 as a read-only
// view (both axes removed, the diagonal last), so later writes into x show in it, as NumPy's.
// writable: a view that writes into x (unless x is read-only), as NumPy's einsum('ii->i').
Array diagonal(const Array& x, int64_t offset = 0, int64_t axis1 = 0, int64_t axis2 = 1,
               bool writable = false);

// NumPy's sliding_window_view: every window of `window_shape` over `axes` (one per window
// dimension, repeats allowed; nullopt: all of x's axes in order) as a read-only view, x's axes
// shortened by the window less one and the window's axes appended. Windows overlap, so the view
// is read-only (NumPy's default). ValueError for a window larger than its axis or negative.
Array sliding_window_view(const Array& x, const Shape& window_shape,
                          const std::optional<Axes>& axes = std::nullopt);

// A view with the order of elements reversed along `axes` (nullopt: every axis).
Array flip(const Array& x, const std::optional<Axes>& axes = std::nullopt);
// Elements shifted by `shifts` along `axes`, wrapping around; nullopt axes: shifted in the
// flattened array. One shift applies to every axis; repeated axes add their shifts.
Array roll(const Array& x, const Axes& shifts, const std::optional<Axes>& axes = std::nullopt);

// Each element repeated `repeats` times along `axis` (nullopt: in the flattened array).
Array repeat(const Array& x, int64_t repeats, std::optional<int64_t> axis = std::nullopt);
// Element i repeated repeats[i] times; `repeats` is an integer array of length 1 or of the axis.
Array repeat(const Array& x, const Array& repeats, std::optional<int64_t> axis = std::nullopt);
// x repeated reps[i] times along each axis (NumPy tile; the shorter of x.shape and reps is
// padded with leading 1s).
Array tile(const Array& x, const Axes& reps);

}  // namespace accel
