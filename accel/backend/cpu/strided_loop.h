// The N-d strided iteration every CPU elementwise loop goes through, NumPy-ufunc style: a typed
// 1-d inner loop over rows, called for each row of the coalesced N-d index space, split over the
// thread pool when there is enough work.
#pragma once
#include <cstdint>
#include <span>
#include <vector>

#include "accel/core/shape.h"

namespace accel::cpu {

// Operands are inputs then the output: ptrs[k] and byte strides[k] of the innermost dimension.
using InnerLoop = void (*)(char* const* ptrs, const int64_t* strides, int64_t n);

inline constexpr int kMaxOperands = 8;

struct StridedOperand {
  char* data;            // address of element 0
  const Strides* strides;  // in elements
  int64_t itemsize;
};

// Runs `loop` over `shape` for every operand. `cost` is a rough per-element cost in units of an
// add (1) so that cheap work on small arrays stays inline and costly work spreads sooner.
void run_strided(InnerLoop loop, const Shape& shape, std::span<const StridedOperand> operands,
                 int cost = 1);

}  // namespace accel::cpu
