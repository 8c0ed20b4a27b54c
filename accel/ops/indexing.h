// Indexing with NumPy's semantics: x[...] reads and writes (basic indexing gives views, advanced
// indexing gathers and scatters), take / take_along_axis / put, and nonzero and its relatives.
#pragma once
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <span>
#include <variant>
#include <vector>

#include "accel/core/array.h"

namespace accel {

// start:stop:step; an absent part takes Python's default for the sign of step.
struct Slice {
  std::optional<int64_t> start, stop, step;
};
struct Ellipsis {};  // `...`: as many full slices as the other indices leave
struct NewAxis {};   // `None`: a new axis of length 1
inline constexpr Ellipsis ellipsis{};
inline constexpr NewAxis newaxis{};

// One entry of an index tuple. An Array entry is advanced indexing: a boolean mask (selects
// its nonzero positions; a 0-d one adds an axis of length 1 or 0) or an integer index array.
using Index = std::variant<int64_t, Slice, Ellipsis, NewAxis, Array>;

// x[indices]. Without Array entries the result is a view sharing x's memory; with them a new
// array. Out-of-range integers raise IndexError naming the index, axis and size.
Array getitem(const Array& x, std::span<const Index> indices);
inline Array getitem(const Array& x, std::initializer_list<Index> indices) {
  return getitem(x, std::span<const Index>(indices.begin(), indices.size()));
}
// x[indices] = value: value is broadcast to the shape x[indices] has and cast to x's dtype
// (NumPy's unsafe casting; a Python integer that does not fit raises OverflowError). With a
// repeated advanced index the last value wins. Nothing is written when an index is bad.
void setitem(const Array& x, std::span<const Index> indices, const Array& value);
inline void setitem(const Array& x, std::initializer_list<Index> indices, const Array& value) {
  setitem(x, std::span<const Index>(indices.begin(), indices.size()), value);
}

// What take / put do with an index outside [-n, n).
enum class IndexMode : unsigned char { raise, wrap, clip };

// x's elements at `indices` along `axis` (of the flattened x when absent). The result has
// shape x.shape[:axis] + indices.shape + x.shape[axis+1:].
Array take(const Array& x, const Array& indices, std::optional<int64_t> axis = std::nullopt,
           IndexMode mode = IndexMode::raise);
// Picks along `axis` with `indices` of x's ndim, broadcast against x on the other axes
// (flattened x and 1-d indices when axis is absent).
Array take_along_axis(const Array& x, const Array& indices, std::optional<int64_t> axis = -1);
// x.flat[indices] = values, values repeated cyclically to the number of indices.
void put(const Array& x, const Array& indices, const Array& values,
         IndexMode mode = IndexMode::raise);

// One int64 array per axis with the coordinates of x's nonzero elements, in C order.
std::vector<Array> nonzero(const Array& x);
// The same coordinates as one (count, ndim) int64 array.
Array argwhere(const Array& x);
// Indices of the nonzero elements of the flattened x.
Array flatnonzero(const Array& x);
// x's slices along `axis` (the flattened x when absent) where the 1-d `condition` is true.
Array compress(const Array& condition, const Array& x, std::optional<int64_t> axis = std::nullopt);
// The elements of the flattened x where the flattened condition is nonzero.
Array extract(const Array& condition, const Array& x);

}  // namespace accel
