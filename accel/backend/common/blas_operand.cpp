#include "accel/backend/common/blas_operand.h"

#include <algorithm>

namespace accel::plan {

std::optional<BlasOperand> blas_operand(int64_t rows, int64_t cols, int64_t s0, int64_t s1) {
  // Strides of length-1 axes never matter; BLAS only needs ld >= the stored row length.
  if ((cols == 1 || s1 == 1) && (rows == 1 || s0 >= std::max<int64_t>(cols, 1)))
    return BlasOperand{false, rows == 1 ? std::max<int64_t>(cols, 1) : s0};
  if ((rows == 1 || s0 == 1) && (cols == 1 || s1 >= std::max<int64_t>(rows, 1)))
    return BlasOperand{true, cols == 1 ? std::max<int64_t>(rows, 1) : s1};
  return std::nullopt;
}

}  // namespace accel::plan
