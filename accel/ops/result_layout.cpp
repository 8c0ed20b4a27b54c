#include "accel/ops/result_layout.h"

#include <algorithm>
#include <cstdlib>
#include <string>

#include "accel/runtime/errors.h"

#include "accel/backend/common/coalesce.h"

namespace accel {
namespace {

constexpr int kMaxSortedAxes = 64;

// Input `a`'s step along result axis `axis`, 0 where it broadcasts or has length 1 (such an
// axis says nothing about the order).
int64_t step_of(const Array& a, int axis, int nd) {
  const int d = axis - (nd - a.ndim());
  if (d < 0 || a.shape()[d] == 1) return 0;
  return std::llabs(a.strides()[d]);
}

// What the inputs say of placing `moving` before `other` in an axis order being sorted.
enum class Verdict { untold, stay, move };

// NumPy's stable insertion sort of axes (its iterator's and concatenate's): each axis in turn
// moves before the ones ahead of it while the verdict is `move`, stops at `stay`, and steps
// over pairs the inputs do not tell apart.
template <class Judge> void insertion_sort_axes(int nd, int* order, Judge verdict) {
  for (int i0 = 1; i0 < nd; ++i0) {
    const int moving = order[i0];
    int to = i0;
    for (int i1 = i0 - 1; i1 >= 0; --i1) {
      const Verdict v = verdict(moving, order[i1]);
      if (v == Verdict::untold) continue;
      if (v == Verdict::stay) break;
      to = i1;
    }
    for (int i = i0; i > to; --i) order[i] = order[i - 1];
    order[to] = moving;
  }
}

// The dense strides of `shape` with its axes in `outer_first` order, outermost first; empty
// Strides when that is C order.
Strides dense_strides(const Shape& shape, const int* outer_first) {
  const int nd = static_cast<int>(shape.size());
  bool c_order = true;
  for (int i = 0; i < nd; ++i) c_order = c_order && outer_first[i] == i;
  if (c_order) return {};
  Strides strides(shape.size());
  int64_t step = 1;
  for (int i = nd - 1; i >= 0; --i) {
    strides[outer_first[i]] = step;
    step *= std::max<int64_t>(shape[outer_first[i]], 1);
  }
  return strides;
}

// Whether an empty array has the strides of a new one: all 0 (NumPy's), or dense in C or F order
// with a length of 0 counted as 1 (accel's), as opposed to a view's.
bool new_empty_strides(const Array& a) {
  const Shape& shape = a.shape();
  const int nd = static_cast<int>(shape.size());
  Strides c(shape.size()), f(shape.size());
  int64_t step = 1;
  for (int d = nd - 1; d >= 0; --d) {
    c[d] = step;
    step *= std::max<int64_t>(shape[d], 1);
  }
  step = 1;
  for (int d = 0; d < nd; ++d) {
    f[d] = step;
    step *= std::max<int64_t>(shape[d], 1);
  }
  const Strides& s = a.strides();
  return s == c || s == f || std::all_of(s.begin(), s.end(), [](int64_t v) { return v == 0; });
}

}  // namespace

namespace {

// kept_layout's axis order, outermost first, into `order`; false for C order (then `order` is
// not written).
bool kept_order(const Shape& shape, std::span<const Array> inputs, int* order) {
  const int nd = static_cast<int>(shape.size());
  if (nd < 2 || nd > kMaxSortedAxes) return false;
  // Only an input that is not C-contiguous can ask for another order (a C-contiguous one orders
  // every pair of its axes as C does; one of fewer than two axes orders no pair). An empty view
  // of memory keeps the strides NumPy's iterator sorts by (the reduction of one over its empty
  // axis is laid out by them: fuzz seeds 2206432, 2271999); a new empty array tells nothing
  // (NumPy gives it strides of 0; accel dense ones: new_empty_strides).
  bool other_order = false;
  for (const Array& a : inputs) {
    if (a.weak() || a.ndim() < 2) continue;
    other_order = other_order || (a.size() != 0 ? !a.is_contiguous() : !new_empty_strides(a));
  }
  if (!other_order) return false;
  // NumPy's insertion sort of the axes (its iterator's best axis ordering), innermost first:
  // axis `outer` moves inside `inner` when the first input that tells them apart has the larger
  // step on `inner` and no input has it the other way round; inputs that tell nothing are
  // stepped over.
  for (int i = 0; i < nd; ++i) order[i] = nd - 1 - i;
  insertion_sort_axes(nd, order, [&](int outer, int inner) {
    Verdict v = Verdict::untold;
    for (const Array& a : inputs) {
      if (a.weak()) continue;
      const int64_t s_outer = step_of(a, outer, nd), s_inner = step_of(a, inner, nd);
      if (s_outer == 0 || s_inner == 0) continue;
      if (s_inner <= s_outer) v = Verdict::stay;
      else if (v == Verdict::untold) v = Verdict::move;
    }
    return v;
  });
  std::reverse(order, order + nd);
  return true;
}

}  // namespace

Strides kept_layout(const Shape& shape, std::span<const Array> inputs) {
  // An empty result holds nothing to lay out (NumPy's strides for one are all 0): C order.
  for (const int64_t n : shape)
    if (n == 0) return {};
  int order[kMaxSortedAxes];
  if (!kept_order(shape, inputs, order)) return {};
  return dense_strides(shape, order);
}

Strides reduced_layout(const Array& x, const std::vector<int>& axes, bool keepdims) {
  int order[kMaxSortedAxes];
  if (!kept_order(x.shape(), {&x, 1}, order)) return {};
  // x's axis order with the reduced axes dropped (or kept, of length 1), renumbered.
  const int nd = x.ndim();
  int index[kMaxSortedAxes];
  Shape shape;
  for (int d = 0; d < nd; ++d) {
    const bool reduced = std::find(axes.begin(), axes.end(), d) != axes.end();
    index[d] = reduced && !keepdims ? -1 : static_cast<int>(shape.size());
    if (index[d] >= 0) shape.push_back(reduced ? 1 : x.shape()[d]);
  }
  int outer_first[kMaxSortedAxes];
  int n = 0;
  for (int i = 0; i < nd; ++i)
    if (index[order[i]] >= 0) outer_first[n++] = index[order[i]];
  return dense_strides(shape, outer_first);
}

Strides join_layout(const Shape& shape, std::span<const Array> inputs) {
  const int nd = static_cast<int>(shape.size());
  if (nd < 2 || nd > kMaxSortedAxes) return {};
  bool other_order = false;
  for (const Array& a : inputs) other_order = other_order || !a.is_contiguous();
  if (!other_order) return {};
  // Outermost first, as NumPy sorts: axis `inner` moves outside another when the first input
  // that tells them apart steps further along `inner`; any input stepping the other way keeps
  // C order (an input tells two axes apart when neither has length 1 in it).
  int order[kMaxSortedAxes];
  for (int i = 0; i < nd; ++i) order[i] = i;
  insertion_sort_axes(nd, order, [&](int inner, int outer) {
    Verdict v = Verdict::untold;
    for (const Array& a : inputs) {
      if (a.shape()[inner] == 1 || a.shape()[outer] == 1) continue;
      if (std::llabs(a.strides()[inner]) <= std::llabs(a.strides()[outer])) v = Verdict::stay;
      else if (v == Verdict::untold) v = Verdict::move;
    }
    return v;
  });
  return dense_strides(shape, order);
}

Strides like_layout(const Array& prototype) { return like_layout(prototype, prototype.shape()); }

Strides like_layout(const Array& prototype, const Shape& shape) {
  const int nd = prototype.ndim();
  int order[kMaxSortedAxes];
  if (nd < 2 || nd > kMaxSortedAxes || static_cast<size_t>(nd) != shape.size() ||
      prototype.is_contiguous() ||
      !plan::memory_order(nd, prototype.shape().data(), prototype.strides().data(), order))
    return {};
  return dense_strides(shape, order);
}

Order order_from_name(std::string_view name, const char* op) {
  if (name.size() == 1) {
    switch (name[0]) {
      case 'C': case 'c': return Order::C;
      case 'F': case 'f': return Order::F;
      case 'A': case 'a': return Order::A;
      case 'K': case 'k': return Order::K;
      default: break;
    }
  }
  throw ValueError(std::string("[") + op + "] order must be one of 'C', 'F', 'A' or 'K'; got '" +
                   std::string(name) + "'");
}

namespace {

bool fortran_only(const Array& x) {
  return x.ndim() >= 2 && x.size() > 0 && x.is_f_contiguous() && !x.is_contiguous();
}

Strides fortran_strides(const Shape& shape) {
  Strides strides(shape.size());
  int64_t step = 1;
  for (size_t d = 0; d < shape.size(); ++d) {
    strides[d] = step;
    step *= std::max<int64_t>(shape[d], 1);
  }
  return strides;
}

}  // namespace

Order resolve_order(Order order, const Array* prototype) {
  if (order == Order::A) return prototype && fortran_only(*prototype) ? Order::F : Order::C;
  return order;
}

Strides order_layout(const Shape& shape, Order order, const Array* prototype) {
  switch (order) {
    case Order::C: return {};
    case Order::F: return shape.size() >= 2 ? fortran_strides(shape) : Strides{};
    case Order::A: return order_layout(shape, resolve_order(order, prototype), prototype);
    case Order::K:
      // Another shape of the prototype's rank keeps its axis order; another rank is C order
      // (NumPy's empty_like(x, shape=...)).
      if (prototype) return like_layout(*prototype, shape);
      return {};
  }
  return {};
}

}  // namespace accel
