// Shapes, strides (in elements, not bytes) and the broadcasting and axis rules shared by all ops.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "accel/core/small_vector.h"

namespace accel {

// Up to 6 dimensions inside the object (small_vector.h: no heap allocation per array or view).
using Shape = SmallVector<int64_t, 6>;
using Strides = SmallVector<int64_t, 6>;

int64_t shape_size(const Shape& shape);
Strides contiguous_strides(const Shape& shape);
// The same, written into `strides` in place (an array's own, with no Strides made and moved).
void set_contiguous_strides(Strides& strides, const Shape& shape);
std::string shape_str(const Shape& shape);  // "(2, 3)" like Python
// NumPy broadcasting of two / many shapes; throws ShapeError naming `op` and the shapes.
Shape broadcast_shapes(const Shape& a, const Shape& b, const char* op = "broadcast_shapes");
Shape broadcast_shapes(const std::vector<Shape>& shapes, const char* op = "broadcast_shapes");
// Strides that view an array of `shape`/`strides` as `target` (0 on broadcast axes).
Strides broadcast_strides(const Shape& shape, const Strides& strides, const Shape& target);
// Axis -3 -> ndim-3; throws AxisError naming `op`.
int normalize_axis(int64_t axis, int ndim, const char* op);
// Sorted, unique, normalized axes; throws AxisError on repeats.
std::vector<int> normalize_axes(const std::vector<int64_t>& axes, int ndim, const char* op);

}  // namespace accel
