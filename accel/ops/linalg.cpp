#include "accel/ops/linalg.h"

#include <algorithm>
#include <numeric>
#include <string>

#include "accel/backend/backend.h"
#include "accel/ops/copy.h"
#include "accel/ops/elementwise.h"
#include "accel/ops/promotion.h"
#include "accel/ops/result_layout.h"
#include "accel/runtime/errors.h"

namespace accel {
namespace {

std::string shapes_str(const Array& x1, const Array& x2) {
  return shape_str(x1.shape()) + " and " + shape_str(x2.shape());
}

void check_devices(const Array& x1, const Array& x2, const char* op) {
  if (x1.device() != x2.device())
    throw DeviceError(std::string("[") + op + "] operands are on different devices (" +
                      x1.device().str() + " and " + x2.device().str() +
                      "); move one with to_device() first");
}

// A view with axes in the order `perm`.
Array permuted(const Array& x, const std::vector<int>& perm) {
  Shape shape;
  Strides strides;
  for (int p : perm) {
    shape.push_back(x.shape()[p]);
    strides.push_back(x.strides()[p]);
  }
  return Array::view_of(x, shape, strides, x.offset());
}

// x with a new shape of the same size (a view when x is C-contiguous, else a copy).
Array reshaped(const Array& x, const Shape& shape) {
  Array c = ascontiguousarray(x);
  return Array::view_of(c, shape, contiguous_strides(shape), c.offset());
}

Array flattened(const Array& x) { return reshaped(x, {x.size()}); }

// x with `axis` moved to the end.
Array axis_last(const Array& x, int axis) {
  std::vector<int> perm;
  for (int d = 0; d < x.ndim(); ++d)
    if (d != axis) perm.push_back(d);
  perm.push_back(axis);
  return permuted(x, perm);
}

// The axis order (outermost first, the two matrix axes last) of a product over `batch` axes of
// a and b (each of batch + 2 axes or fewer, broadcast): NumPy's matmul, a gufunc, allocates its
// result through the iterator of the batch axes, which orders them as the operands' memory
// (kept_layout's rule), and appends each product C-ordered. Empty for C order.
std::vector<int> batch_order(const Shape& batch, const Array& a, const Array& b) {
  const int nb = static_cast<int>(batch.size());
  if (nb < 2) return {};
  auto batch_view = [](const Array& x) {
    const Shape shape(x.shape().begin(), x.shape().end() - 2);
    const Strides strides(x.strides().begin(), x.strides().end() - 2);
    return Array::view_of(x, shape, strides, x.offset());
  };
  const Array views[] = {batch_view(a), batch_view(b)};
  const Strides dense = kept_layout(batch, views);
  if (dense.empty()) return {};
  std::vector<int> order(static_cast<size_t>(nb));
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int i, int j) { return dense[i] > dense[j]; });
  order.push_back(nb);
  order.push_back(nb + 1);
  return order;
}

Array matmul_impl(const Array& x1, const Array& x2, const char* op) {
  if (x1.ndim() == 0 || x2.ndim() == 0)
    throw ShapeError(std::string("[") + op + "] operands must have at least one dimension; got "
                     "shapes " + shapes_str(x1, x2));
  check_devices(x1, x2, op);
  const Array both[] = {x1, x2};
  const Dtype dt = result_type(both);
  const bool vec1 = x1.ndim() == 1, vec2 = x2.ndim() == 1;
  const int64_t k = x1.shape(-1);
  const int64_t k2 = vec2 ? x2.shape(0) : x2.shape(-2);
  if (k != k2)
    throw ShapeError(std::string("[") + op + "] shapes " + shapes_str(x1, x2) +
                     " are not aligned: the last axis of x1 has size " + std::to_string(k) +
                     " but axis " + (vec2 ? "0" : "-2") + " of x2 has size " + std::to_string(k2));

  // 1-d operands become a 1 x k row and a k x 1 column.
  Array a = astype(x1, dt, false), b = astype(x2, dt, false);
  if (vec1) a = Array::view_of(a, {1, k}, {0, a.strides()[0]}, a.offset());
  if (vec2) b = Array::view_of(b, {k, 1}, {b.strides()[0], 0}, b.offset());
  a.eval();
  b.eval();
  const Shape batch_a(a.shape().begin(), a.shape().end() - 2);
  const Shape batch_b(b.shape().begin(), b.shape().end() - 2);
  Shape batch;
  try {
    batch = broadcast_shapes(batch_a, batch_b, op);
  } catch (const ShapeError&) {
    throw ShapeError(std::string("[") + op + "] the batch axes of shapes " + shapes_str(x1, x2) +
                     " cannot be broadcast together: " + shape_str(batch_a) + " vs " +
                     shape_str(batch_b));
  }
  const int64_t m = a.shape(-2), n = b.shape(-1);
  Shape a_shape = batch, b_shape = batch, out_shape = batch;
  a_shape.insert(a_shape.end(), {m, k});
  b_shape.insert(b_shape.end(), {k, n});
  out_shape.insert(out_shape.end(), {m, n});
  // Operands already of their product's shape (no batch axes to broadcast) are used as they
  // are: a view costs allocations that matter to a small product.
  auto expanded = [](const Array& x, const Shape& shape) {
    if (x.shape() == shape) return x;
    return Array::view_of(x, shape, broadcast_strides(x.shape(), x.strides(), shape), x.offset());
  };
  // Batch axes in the operands' memory order (NumPy's gufunc iterator), each matrix C-ordered:
  // the backend writes a C-contiguous product of operands whose batch axes are permuted so. The
  // order is the given operands', as NumPy's iterator sorts them before it casts: a cast copy of
  // a broadcast operand is laid out otherwise (fuzz seed 1837907).
  const std::vector<int> order = batch_order(batch, vec1 ? a : x1, vec2 ? b : x2);
  Array out;
  if (order.empty()) {
    out = Array::empty(out_shape, dt, x1.device());
    backend_for(out.device()).matmul(expanded(a, a_shape), expanded(b, b_shape), out);
  } else {
    Shape p_shape(order.size());
    for (size_t i = 0; i < order.size(); ++i) p_shape[i] = out_shape[order[i]];
    Array out_p = Array::empty(p_shape, dt, x1.device());
    backend_for(out_p.device()).matmul(permuted(expanded(a, a_shape), order),
                                       permuted(expanded(b, b_shape), order), out_p);
    std::vector<int> inverse(order.size());
    for (size_t i = 0; i < order.size(); ++i) inverse[order[i]] = static_cast<int>(i);
    out = permuted(out_p, inverse);
  }

  if (!vec1 && !vec2) return out;
  // A 1-d operand's axis of length 1 is dropped.
  Shape result;
  Strides strides;
  for (int d = 0; d < out.ndim(); ++d) {
    if ((vec1 && d == out.ndim() - 2) || (vec2 && d == out.ndim() - 1)) continue;
    result.push_back(out.shape()[d]);
    strides.push_back(out.strides()[d]);
  }
  return Array::view_of(out, result, strides, out.offset());
}

}  // namespace

Array matmul(const Array& x1, const Array& x2) { return matmul_impl(x1, x2, "matmul"); }

Array tensordot(const Array& x1, const Array& x2, int64_t axes) {
  if (axes < 0 || axes > x1.ndim() || axes > x2.ndim())
    throw ValueError("[tensordot] axes=" + std::to_string(axes) +
                     " must be between 0 and the smaller number of dimensions of shapes " +
                     shapes_str(x1, x2));
  std::vector<int64_t> a1, a2;
  for (int64_t i = 0; i < axes; ++i) {
    a1.push_back(x1.ndim() - axes + i);
    a2.push_back(i);
  }
  return tensordot(x1, x2, a1, a2);
}

Array tensordot(const Array& x1, const Array& x2, const std::vector<int64_t>& axes1,
                const std::vector<int64_t>& axes2) {
  if (axes1.size() != axes2.size())
    throw ValueError("[tensordot] axes lists have different lengths (" +
                     std::to_string(axes1.size()) + " and " + std::to_string(axes2.size()) + ")");
  check_devices(x1, x2, "tensordot");
  std::vector<int> c1, c2;  // contracted axes, pairwise
  for (size_t i = 0; i < axes1.size(); ++i) {
    c1.push_back(normalize_axis(axes1[i], x1.ndim(), "tensordot"));
    c2.push_back(normalize_axis(axes2[i], x2.ndim(), "tensordot"));
    if (x1.shape()[c1.back()] != x2.shape()[c2.back()])
      throw ShapeError("[tensordot] shape mismatch for the sum: axis " + std::to_string(c1.back()) +
                       " of x1 has size " + std::to_string(x1.shape()[c1.back()]) + " but axis " +
                       std::to_string(c2.back()) + " of x2 has size " +
                       std::to_string(x2.shape()[c2.back()]) + " (shapes " + shapes_str(x1, x2) +
                       ")");
  }
  auto check_unique = [](std::vector<int> axes) {
    std::sort(axes.begin(), axes.end());
    if (std::adjacent_find(axes.begin(), axes.end()) != axes.end())
      throw AxisError("[tensordot] repeated axis in axes");
  };
  check_unique(c1);
  check_unique(c2);

  // x1 -> (free1..., contracted...) as (M, K); x2 -> (contracted..., free2...) as (K, N).
  std::vector<int> perm1, perm2 = c2;
  Shape free1, free2;
  int64_t m = 1, n = 1, k = 1;
  for (int d = 0; d < x1.ndim(); ++d)
    if (std::find(c1.begin(), c1.end(), d) == c1.end()) {
      perm1.push_back(d);
      free1.push_back(x1.shape()[d]);
      m *= x1.shape()[d];
    }
  perm1.insert(perm1.end(), c1.begin(), c1.end());
  for (int d : c1) k *= x1.shape()[d];
  for (int d = 0; d < x2.ndim(); ++d)
    if (std::find(c2.begin(), c2.end(), d) == c2.end()) {
      perm2.push_back(d);
      free2.push_back(x2.shape()[d]);
      n *= x2.shape()[d];
    }
  Array a = reshaped(permuted(x1, perm1), {m, k});
  Array b = reshaped(permuted(x2, perm2), {k, n});
  Array product = matmul_impl(a, b, "tensordot");
  Shape result = free1;
  result.insert(result.end(), free2.begin(), free2.end());
  return Array::view_of(product, result, contiguous_strides(result), product.offset());
}

Array vecdot(const Array& x1, const Array& x2, int64_t axis) {
  if (x1.ndim() == 0 || x2.ndim() == 0)
    throw ShapeError("[vecdot] operands must have at least one dimension; got shapes " +
                     shapes_str(x1, x2));
  Array a = axis_last(x1, normalize_axis(axis, x1.ndim(), "vecdot"));
  Array b = axis_last(x2, normalize_axis(axis, x2.ndim(), "vecdot"));
  const int64_t n = a.shape(-1);
  if (b.shape(-1) != n)
    throw ShapeError("[vecdot] axis " + std::to_string(axis) + " has size " + std::to_string(n) +
                     " in x1 but " + std::to_string(b.shape(-1)) + " in x2 (shapes " +
                     shapes_str(x1, x2) + ")");
  if (is_complex(a.dtype())) a = conj(a).eval();
  // (..., 1, n) @ (..., n, 1) -> (..., 1, 1): a batch of dot products.
  Shape sa = a.shape(), sb = b.shape();
  Strides ta = a.strides(), tb = b.strides();
  sa.insert(sa.end() - 1, 1);
  ta.insert(ta.end() - 1, 0);
  sb.push_back(1);
  tb.push_back(0);
  Array product = matmul_impl(Array::view_of(a, sa, ta, a.offset()),
                              Array::view_of(b, sb, tb, b.offset()), "vecdot");
  // The product's batch axes may be laid out otherwise than C (matmul keeps the operands' order).
  Shape result(product.shape().begin(), product.shape().end() - 2);
  Strides strides(product.strides().begin(), product.strides().end() - 2);
  return Array::view_of(product, result, strides, product.offset());
}

Array dot(const Array& x1, const Array& x2) {
  if (x1.ndim() == 0 || x2.ndim() == 0) return multiply(x1, x2);
  if (x2.ndim() == 1 || (x1.ndim() <= 2 && x2.ndim() == 2)) return matmul_impl(x1, x2, "dot");
  if (x1.shape(-1) != x2.shape(-2))
    throw ShapeError("[dot] shapes " + shapes_str(x1, x2) + " are not aligned: " +
                     std::to_string(x1.shape(-1)) + " (last axis of x1) != " +
                     std::to_string(x2.shape(-2)) + " (axis -2 of x2)");
  return tensordot(x1, x2, {x1.ndim() - 1}, {x2.ndim() - 2});
}

Array inner(const Array& x1, const Array& x2) {
  if (x1.ndim() == 0 || x2.ndim() == 0) return multiply(x1, x2);
  if (x1.shape(-1) != x2.shape(-1))
    throw ShapeError("[inner] shapes " + shapes_str(x1, x2) + " are not aligned: last axes of " +
                     "size " + std::to_string(x1.shape(-1)) + " and " +
                     std::to_string(x2.shape(-1)));
  return tensordot(x1, x2, {-1}, {-1});
}

Array outer(const Array& x1, const Array& x2) {
  check_devices(x1, x2, "outer");
  Array a = flattened(x1), b = flattened(x2);
  return multiply(Array::view_of(a, {a.size(), 1}, {a.strides()[0], 0}, a.offset()),
                  Array::view_of(b, {1, b.size()}, {0, b.strides()[0]}, b.offset()));
}

Array vdot(const Array& x1, const Array& x2) {
  if (x1.size() != x2.size())
    throw ShapeError("[vdot] operands must have the same number of elements; got shapes " +
                     shapes_str(x1, x2));
  Array a = flattened(x1);
  if (is_complex(a.dtype())) a = conj(a);
  return matmul_impl(a, flattened(x2), "vdot");
}

}  // namespace accel
