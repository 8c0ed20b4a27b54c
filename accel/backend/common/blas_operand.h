// How a BLAS (the CPU's, or cuBLAS) sees one strided matrix, planned once for both backends.
#pragma once
#include <cstdint>
#include <optional>

namespace accel::plan {

// Row-major as stored (trans = false, rows ld apart) or the row-major transpose of what is
// stored (trans = true, columns ld apart).
struct BlasOperand {
  bool trans;
  int64_t ld;
};

// nullopt when the matrix (strides in elements) is neither kind of row-major, e.g. sliced
// with steps in both axes, broadcast, or with negative strides.
std::optional<BlasOperand> blas_operand(int64_t rows, int64_t cols, int64_t s0, int64_t s1);

}  // namespace accel::plan
