// How a CPU reduction walks memory: the shared reduction layout (backend/common/reduce_dims.h:
// kept and reduced dimensions sorted and merged, negative strides flipped) in the form the CPU
// loops take, so a reduction of any view looks like one of two simple loops (`inner_reduced`).
#pragma once
#include <cstdint>
#include <vector>

#include "accel/core/shape.h"

namespace accel::cpu {

struct ReduceLayout {
  Shape kept_shape;
  Strides kept_in, kept_out;  // elements
  Shape red_shape;
  Strides red_in;  // elements
  int64_t in_offset = 0;   // elements added to the input's element 0 (flipped strides)
  int64_t out_offset = 0;  // same for the output

  int64_t kept_count() const { return shape_size(kept_shape); }
  int64_t red_count() const { return shape_size(red_shape); }
  // True when the input's fastest dimension is reduced: each output element then reduces runs
  // of adjacent inputs. False: whole rows of adjacent outputs accumulate input rows at once.
  bool inner_reduced = true;
};

// `axes` sorted and unique; `out_strides` are those of the kept dimensions in order. With
// keep_reduced_order the reduced dimensions keep their logical order and sign (argmin/argmax
// count positions along them).
ReduceLayout make_reduce_layout(const Shape& shape, const Strides& in_strides,
                                const std::vector<int>& axes, const Strides& out_strides,
                                bool keep_reduced_order);

// Walks a multi-dimensional index space in C order, keeping the element offset of the position.
class Odometer {
 public:
  Odometer(const Shape& shape, const Strides& strides, int64_t start);
  int64_t offset() const { return offset_; }
  void next();

 private:
  const Shape& shape_;
  const Strides& strides_;
  int64_t idx_[32];
  int64_t offset_ = 0;
};

}  // namespace accel::cpu
