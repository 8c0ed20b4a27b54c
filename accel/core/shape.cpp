#include "accel/core/shape.h"

#include <algorithm>

#include "accel/runtime/errors.h"

namespace accel {

// NumPy's limit without the dtype: no array may span more than 2^63 bytes, which with items of
// up to 16 bytes is 2^59 elements. So size * itemsize never wraps around anywhere (a wrapped
// size allocated a few bytes for a huge shape, and writes went past them).
constexpr int64_t kMaxElements = int64_t(1) << 59;

int64_t shape_size(const Shape& shape) {
  int64_t n = 1;
  bool too_big = false;
  for (int64_t d : shape) {
    if (d <= 0) return std::any_of(shape.begin(), shape.end(), [](int64_t e) { return e == 0; })
                           ? 0
                           : -1;  // a negative dimension: the caller reports it
    too_big = too_big || __builtin_mul_overflow(n, d, &n) || n > kMaxElements;
  }
  if (too_big)
    throw ShapeError("[shape] array is too big: shape " + shape_str(shape) +
                     " has more than 2^59 elements");
  return n;
}

void set_contiguous_strides(Strides& strides, const Shape& shape) {
  strides.resize(shape.size());
  int64_t step = 1;
  for (size_t i = shape.size(); i-- > 0;) {
    strides[i] = step;
    step *= std::max<int64_t>(shape[i], 1);
  }
}

Strides contiguous_strides(const Shape& shape) {
  Strides s;
  set_contiguous_strides(s, shape);
  return s;
}

std::string shape_str(const Shape& shape) {
  std::string s = "(";
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i) s += ", ";
    s += std::to_string(shape[i]);
  }
  if (shape.size() == 1) s += ",";
  return s + ")";
}

Shape broadcast_shapes(const Shape& a, const Shape& b, const char* op) {
  if (a == b) return a;
  size_t n = std::max(a.size(), b.size());
  Shape out(n);
  for (size_t i = 0; i < n; ++i) {
    int64_t da = i < n - a.size() ? 1 : a[i - (n - a.size())];
    int64_t db = i < n - b.size() ? 1 : b[i - (n - b.size())];
    if (da != db && da != 1 && db != 1)
      throw ShapeError(std::string("[") + op + "] shapes " + shape_str(a) + " and " +
                       shape_str(b) + " cannot be broadcast together (axis " + std::to_string(i) +
                       ": " + std::to_string(da) + " vs " + std::to_string(db) + ")");
    out[i] = da == 1 ? db : da;
  }
  return out;
}

Shape broadcast_shapes(const std::vector<Shape>& shapes, const char* op) {
  Shape out;
  for (const auto& s : shapes) out = broadcast_shapes(out, s, op);
  return out;
}

Strides broadcast_strides(const Shape& shape, const Strides& strides, const Shape& target) {
  Strides out(target.size(), 0);
  size_t off = target.size() - shape.size();
  for (size_t i = 0; i < shape.size(); ++i)
    out[off + i] = (shape[i] == 1 && target[off + i] != 1) ? 0 : strides[i];
  return out;
}

int normalize_axis(int64_t axis, int ndim, const char* op) {
  if (axis < -ndim || axis >= ndim)
    throw AxisError(std::string("[") + op + "] axis " + std::to_string(axis) +
                    " is out of bounds for array of dimension " + std::to_string(ndim));
  return static_cast<int>(axis < 0 ? axis + ndim : axis);
}

std::vector<int> normalize_axes(const std::vector<int64_t>& axes, int ndim, const char* op) {
  std::vector<int> out;
  out.reserve(axes.size());
  for (int64_t a : axes) out.push_back(normalize_axis(a, ndim, op));
  std::sort(out.begin(), out.end());
  if (std::adjacent_find(out.begin(), out.end()) != out.end())
    throw AxisError(std::string("[") + op + "] repeated axis in " + shape_str(Shape(axes)));
  return out;
}

}  // namespace accel
