// How every backend's reductions and scans see their input, planned once: the kept dimensions
// (one output each) and the reduced ones, length-1 dimensions dropped, each sorted slowest
// first by input stride and merged where contiguous in the input and the output.
#pragma once
#include <cstdint>
#include <vector>

#include "accel/core/shape.h"

namespace accel::plan {

// One dimension: its length and strides (elements) in the input and the output (0 when reduced).
struct ReduceDim {
  int64_t size, in, out;
  bool operator==(const ReduceDim&) const = default;
};

// Stably sorts slowest first by |input stride| (when `sort`), then merges neighbours that are
// contiguous in both the input and the output (coalesce.h's rule with two operands).
std::vector<ReduceDim> sort_and_merge(std::vector<ReduceDim> dims, bool sort);

struct ReduceDims {
  std::vector<ReduceDim> kept, reduced;  // kept empty: one output
  bool no_output = false;                // a kept length of 0
  bool reduced_empty = false;            // a reduced length of 0: every output is the identity
  // Elements added to the input's and the output's element 0 by flipped dimensions.
  int64_t in_offset = 0, out_offset = 0;
  int64_t kept_count() const;
  int64_t reduced_count() const;
};

// `axes` sorted and unique; `out_strides` are those of the kept dimensions in order. With
// `keep_reduced_order` the reduced dimensions keep their logical order and sign (argmin/argmax
// count positions along them). With `flip_negative` every other dimension with a negative
// input stride is walked forwards (its strides negated, the offsets moved to its far end), so
// loops read memory in increasing order.
ReduceDims reduce_dims(const Shape& shape, const Strides& in_strides, const std::vector<int>& axes,
                       const Strides& out_strides, bool keep_reduced_order, bool flip_negative);

}  // namespace accel::plan
