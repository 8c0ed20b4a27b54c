// getitem / setitem: the index tuple is resolved into a basic view (integers, slices, new axes)
// that keeps the advanced axes whole, plus the integer arrays that gather or scatter along them.
#include "accel/ops/indexing.h"

#include <algorithm>
#include <string>

#include "accel/backend/backend.h"
#include "accel/ops/advanced_index.h"
#include "accel/ops/copy.h"
#include "accel/ops/creation.h"
#include "accel/ops/promotion.h"
#include "accel/runtime/errors.h"

namespace accel {
namespace {

using detail::AxisIndex;

std::string tag(const char* op) { return std::string("[") + op + "] "; }

struct IndexPlan {
  Array view;                       // advanced axes kept whole
  std::vector<AxisIndex> advanced;  // axes of `view`
  // Where the advanced result goes: in place of the advanced axes when they were next to each
  // other in the index, else first (NumPy's rule).
  int insert_at = 0;
};

// How many axes of x an index entry uses.
int axes_used(const Index& index) {
  if (std::holds_alternative<Ellipsis>(index) || std::holds_alternative<NewAxis>(index)) return 0;
  if (const Array* a = std::get_if<Array>(&index)) return is_bool(a->dtype()) ? a->ndim() : 1;
  return 1;
}

// The index with the ellipsis (or the implicit one at the end) read as full slices, without
// copying the entries (view creation is on the per-call path of every x[i]).
class ExpandedIndex {
 public:
  ExpandedIndex(const Array& x, std::span<const Index> indices, const char* op) : indices_(indices) {
    int used = 0, ellipses = 0;
    for (size_t k = 0; k < indices.size(); ++k) {
      used += axes_used(indices[k]);
      if (std::holds_alternative<Ellipsis>(indices[k])) {
        ++ellipses;
        ellipsis_ = k;
      }
    }
    if (ellipses > 1) throw IndexError(tag(op) + "an index can only have a single ellipsis ('...')");
    if (used > x.ndim())
      throw IndexError(tag(op) + "too many indices for array: array is " + std::to_string(x.ndim()) +
                       "-dimensional, but " + std::to_string(used) + " were indexed");
    fill_ = static_cast<size_t>(x.ndim() - used);
    skip_ = ellipses;
    if (!ellipses) ellipsis_ = indices.size();
  }
  size_t size() const { return indices_.size() - skip_ + fill_; }
  const Index& operator[](size_t e) const {
    static const Index full_slice = Slice{};
    if (e < ellipsis_) return indices_[e];
    if (e < ellipsis_ + fill_) return full_slice;
    return indices_[e - fill_ + skip_];
  }
  // Where entry e was in the index as written. The ellipsis keeps a place of its own there even
  // when it stands for no axis: NumPy's x[:, [0, 1], ..., [0, 1]] on a 3-d x puts the indexed
  // axis first, as for any advanced indices that are not next to each other.
  size_t written_position(size_t e) const {
    if (e < ellipsis_) return e;
    if (e < ellipsis_ + fill_) return ellipsis_;
    return e - fill_ + skip_;
  }

 private:
  std::span<const Index> indices_;
  size_t ellipsis_ = 0, fill_ = 0, skip_ = 0;
};

// Python's slice.indices(): the first position, step and length of a slice over n elements.
struct SliceRange {
  int64_t start, step, length;
};

SliceRange resolve(const Slice& s, int64_t n, const char* op) {
  const int64_t step = s.step.value_or(1);
  if (step == 0) throw ValueError(tag(op) + "slice step cannot be zero");
  const int64_t lo = step < 0 ? -1 : 0, hi = step < 0 ? n - 1 : n;
  auto bound = [&](std::optional<int64_t> v, int64_t dflt) {
    if (!v) return dflt;
    int64_t i = *v < 0 ? *v + n : *v;
    return std::clamp(i, lo, hi);
  };
  const int64_t start = bound(s.start, step < 0 ? hi : lo);
  const int64_t stop = bound(s.stop, step < 0 ? lo : hi);
  int64_t length = 0;
  if (step > 0 && stop > start) length = (stop - start + step - 1) / step;
  if (step < 0 && start > stop) length = (start - stop - step - 1) / (-step);
  return {start, step, length};
}

IndexPlan plan_index(const Array& x, std::span<const Index> indices, const char* op) {
  x.eval();
  ExpandedIndex entries(x, indices, op);
  bool has_arrays = false;
  for (const Index& e : indices) has_arrays |= std::holds_alternative<Array>(e);

  IndexPlan plan;
  Shape shape;
  Strides strides;
  shape.reserve(entries.size());
  strides.reserve(entries.size());
  int64_t offset = x.offset();
  int d = 0;  // next axis of x
  std::vector<size_t> advanced_entries;
  for (size_t e = 0; e < entries.size(); ++e) {
    const Index& entry = entries[e];
    if (const int64_t* i = std::get_if<int64_t>(&entry)) {
      const int64_t n = x.shape()[d];
      if (*i < -n || *i >= n)
        throw IndexError(tag(op) + "index " + std::to_string(*i) + " is out of bounds for axis " +
                         std::to_string(d) + " with size " + std::to_string(n));
      offset += (*i < 0 ? *i + n : *i) * x.strides()[d];
      ++d;
      // An integer among index arrays counts as one of them for the placement rule.
      if (has_arrays) advanced_entries.push_back(entries.written_position(e));
    } else if (const Slice* s = std::get_if<Slice>(&entry)) {
      SliceRange r = resolve(*s, x.shape()[d], op);
      if (r.length > 0) offset += r.start * x.strides()[d];
      shape.push_back(r.length);
      strides.push_back(x.strides()[d] * r.step);
      ++d;
    } else if (std::holds_alternative<NewAxis>(entry)) {
      shape.push_back(1);
      strides.push_back(0);
    } else {
      const Array& a = std::get<Array>(entry);
      advanced_entries.push_back(entries.written_position(e));
      if (!is_bool(a.dtype())) {
        plan.advanced.push_back({detail::int64_index(a, x.device(), op), static_cast<int>(shape.size()), d});
        shape.push_back(x.shape()[d]);
        strides.push_back(x.strides()[d]);
        ++d;
        continue;
      }
      if (a.device() != x.device())
        throw DeviceError(tag(op) + "boolean index is on " + a.device().str() +
                          " but the indexed array is on " + x.device().str());
      if (a.ndim() == 0) {
        // A 0-d mask adds an axis of length 1, picked once (true) or not at all (false).
        const int64_t count = a.item<bool>() ? 1 : 0;
        plan.advanced.push_back({zeros({count}, Dtype::int64, x.device()), static_cast<int>(shape.size()), d});
        shape.push_back(1);
        strides.push_back(0);
        continue;
      }
      // A mask axis of length 0 matches any axis (NumPy's rule, and the Array API's): the mask
      // selects nothing.
      for (int k = 0; k < a.ndim(); ++k)
        if (a.shape()[k] != x.shape()[d + k] && a.shape()[k] != 0)
          throw IndexError(tag(op) + "boolean index did not match indexed array along axis " +
                           std::to_string(d + k) + "; size of axis is " +
                           std::to_string(x.shape()[d + k]) +
                           " but size of corresponding boolean axis is " + std::to_string(a.shape()[k]));
      Array coords = backend_for(x.device()).nonzero(a);
      const int64_t count = coords.shape()[1];
      for (int k = 0; k < a.ndim(); ++k) {
        Array row = Array::view_of(coords, {count}, {1}, k * count);
        plan.advanced.push_back({row, static_cast<int>(shape.size()), d});
        shape.push_back(x.shape()[d]);
        strides.push_back(x.strides()[d]);
        ++d;
      }
    }
  }
  plan.view = Array::view_of(x, std::move(shape), std::move(strides), offset);
  if (!plan.advanced.empty()) {
    const bool adjacent = advanced_entries.back() - advanced_entries.front() + 1 == advanced_entries.size();
    plan.insert_at = adjacent ? plan.advanced.front().axis : 0;
  }
  return plan;
}

}  // namespace

Array getitem(const Array& x, std::span<const Index> indices) {
  if (indices.size() == 1 && x.ndim() > 0)
    if (const Array* index = std::get_if<Array>(&indices[0]); index && is_integer(index->dtype()))
      return detail::take_rows(x, *index, "getitem");
  // x[mask] with a 1-d mask over axis 0: the rows at the mask's nonzero positions.
  // (Its result is C-ordered: rows whose other axes are not, NumPy lays out as they are.)
  const int row_axis = 0;
  if (indices.size() == 1 && x.ndim() > 0)
    if (const Array* mask = std::get_if<Array>(&indices[0]);
        mask && is_bool(mask->dtype()) && mask->ndim() == 1 && mask->device() == x.device() &&
        mask->shape()[0] == x.shape()[0] &&
        (x.ndim() < 3 || detail::getitem_layout(x.eval(), {&row_axis, 1}, {mask, 1}, 0).empty())) {
      x.eval();
      mask->eval();
      return backend_for(x.device()).compress_rows(x, *mask);
    }
  IndexPlan plan = plan_index(x, indices, "getitem");
  if (plan.advanced.empty()) return plan.view;
  detail::broadcast_indices(plan.advanced, plan.view, "getitem");
  return detail::gather_new(plan.view, plan.advanced, plan.insert_at, "getitem", true);
}

void setitem(const Array& x, std::span<const Index> indices, const Array& value) {
  check_writable(x, "setitem");
  check_weak_store(value, x.dtype(), "setitem");
  IndexPlan plan = plan_index(x, indices, "setitem");
  if (plan.advanced.empty()) return assign(plan.view, value, "setitem");
  detail::broadcast_indices(plan.advanced, plan.view, "setitem");
  detail::scatter_into(plan.view, plan.advanced, plan.insert_at, value, "setitem");
}

}  // namespace accel
