// Reductions and cumulative scans of the Array API (2025.12) with NumPy 2's dtype rules:
// sum/prod of bool and signed ints give int64, of unsigned ints uint64, floats keep their
// dtype; mean of ints is float64; var/std of complex are real; argmin/argmax give int64.
// They evaluate their input and return computed arrays (mean/var/std end in a pending divide).
#pragma once
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <vector>

#include "accel/core/array.h"

namespace accel {

// Which axes a reduction runs over: all of them (the default, or std::nullopt), one, or several.
class ReduceAxes {
 public:
  ReduceAxes() = default;
  ReduceAxes(std::nullopt_t) {}
  ReduceAxes(int axis) : axes_(std::vector<int64_t>{axis}) {}
  ReduceAxes(int64_t axis) : axes_(std::vector<int64_t>{axis}) {}
  ReduceAxes(std::initializer_list<int64_t> axes) : axes_(std::vector<int64_t>(axes)) {}
  ReduceAxes(std::vector<int64_t> axes) : axes_(std::move(axes)) {}
  ReduceAxes(std::optional<std::vector<int64_t>> axes) : axes_(std::move(axes)) {}

  bool all() const { return !axes_.has_value(); }
  const std::vector<int64_t>& list() const { return *axes_; }

 private:
  std::optional<std::vector<int64_t>> axes_;
};

// The dtype sum/prod/cumulative_sum accumulate in when no dtype is given.
Dtype sum_dtype(Dtype x);

Array sum(const Array& x, const ReduceAxes& axis = {}, bool keepdims = false,
          std::optional<Dtype> dtype = std::nullopt);
Array prod(const Array& x, const ReduceAxes& axis = {}, bool keepdims = false,
           std::optional<Dtype> dtype = std::nullopt);
// NaN propagates; an empty reduction raises ValueError (there is no identity).
Array min(const Array& x, const ReduceAxes& axis = {}, bool keepdims = false);
Array max(const Array& x, const ReduceAxes& axis = {}, bool keepdims = false);
// The mean of an empty reduction is NaN (NumPy warns; accel stays silent).
Array mean(const Array& x, const ReduceAxes& axis = {}, bool keepdims = false,
           std::optional<Dtype> dtype = std::nullopt);
// Divides the squared deviations by max(N - correction, 0) (NumPy's ddof).
Array var(const Array& x, const ReduceAxes& axis = {}, double correction = 0.0, bool keepdims = false,
          std::optional<Dtype> dtype = std::nullopt);
Array std(const Array& x, const ReduceAxes& axis = {}, double correction = 0.0, bool keepdims = false,
          std::optional<Dtype> dtype = std::nullopt);
Array any(const Array& x, const ReduceAxes& axis = {}, bool keepdims = false);
Array all(const Array& x, const ReduceAxes& axis = {}, bool keepdims = false);
Array count_nonzero(const Array& x, const ReduceAxes& axis = {}, bool keepdims = false);
// Index of the first extreme value (the first NaN if there is one); without an axis, the index
// into the flattened (C order) array. int64.
Array argmin(const Array& x, std::optional<int64_t> axis = std::nullopt, bool keepdims = false);
Array argmax(const Array& x, std::optional<int64_t> axis = std::nullopt, bool keepdims = false);

// NumPy's where= and initial= of a reduction (np.sum(x, where=m, initial=v)): elements where
// the bool array `where` (broadcast to x) is false take no part, as if they held the
// reduction's identity; `initial` joins every reduction (sum/prod combine it, max/min compare
// it, and an empty max/min gives it). max/min need an initial for a where (they have no
// identity: ValueError); mean/var/std divide by the number of elements taken. `mean` (var and
// std only, NumPy 2's mean=): x's mean as keepdims=True gives it, used instead of computing it.
struct ReduceOptions {
  std::optional<Array> where;
  std::optional<Array> initial;
  std::optional<Array> mean;
};
Array sum(const Array& x, const ReduceAxes& axis, bool keepdims, std::optional<Dtype> dtype,
          const ReduceOptions& options);
Array prod(const Array& x, const ReduceAxes& axis, bool keepdims, std::optional<Dtype> dtype,
           const ReduceOptions& options);
Array min(const Array& x, const ReduceAxes& axis, bool keepdims, const ReduceOptions& options);
Array max(const Array& x, const ReduceAxes& axis, bool keepdims, const ReduceOptions& options);
Array any(const Array& x, const ReduceAxes& axis, bool keepdims, const ReduceOptions& options);
Array all(const Array& x, const ReduceAxes& axis, bool keepdims, const ReduceOptions& options);
Array mean(const Array& x, const ReduceAxes& axis, bool keepdims, std::optional<Dtype> dtype,
           const ReduceOptions& options);
Array var(const Array& x, const ReduceAxes& axis, double correction, bool keepdims,
          std::optional<Dtype> dtype, const ReduceOptions& options);
Array std(const Array& x, const ReduceAxes& axis, double correction, bool keepdims,
          std::optional<Dtype> dtype, const ReduceOptions& options);

// Running sums / products along `axis` (required unless x has at most one dimension). With
// include_initial the result starts with the identity (0 or 1) and is one longer on `axis`.
Array cumulative_sum(const Array& x, std::optional<int64_t> axis = std::nullopt,
                     std::optional<Dtype> dtype = std::nullopt, bool include_initial = false);
Array cumulative_prod(const Array& x, std::optional<int64_t> axis = std::nullopt,
                      std::optional<Dtype> dtype = std::nullopt, bool include_initial = false);

}  // namespace accel
