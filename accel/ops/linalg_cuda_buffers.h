// The buffers accel.linalg's CUDA paths hand to their libraries (cuSOLVER per matrix,
// ops/linalg_cusolver.cpp; cuBLAS's batched LU, ops/linalg_cublas_batched.cpp), and what is read
// back from them: private copies in the layout a routine takes, devInfo arrays turned into the
// CPU's LinAlgError, and the determinant from LU factors. Every buffer is an accel array, so it
// comes from accel's caching allocator, stream-ordered on the current stream.
#pragma once
#include <string>

#include "accel/core/array.h"

namespace accel::linalg {

// A private, C-contiguous copy of x's matrices (the libraries overwrite their input). Read in
// column-major order, each matrix is x's transpose.
Array private_copy(const Array& x);
// Each matrix in column-major order: (batch..., cols, rows), C-contiguous.
Array column_major_copy(const Array& x);
// One int32 devInfo per matrix on `device`, zeroed on the current stream.
Array zeroed_infos(int64_t batch, int device);
// Reads the devInfos back (waiting for the calls) and raises as the CPU does: a positive value
// is `failure` (LinAlgError "[op] <failure>"; none when null), a negative one an argument accel
// got wrong (`library` names who rejected it).
void check_infos(const Array& info, const std::string& where, const char* op, const char* failure,
                 const char* library);
// sign and log|det| (or the determinant into *det) of the matrices whose getrf factors are the
// contiguous (batch..., n, n) `lu` with 1-based pivots (batch..., n) int32: U's diagonal product
// and the pivots' parity, by accel's ops on lu's device. det(A^T) = det(A), so lu may hold A's
// factors in either order. A zero pivot (a singular matrix) gives 0 and -inf, no error.
void slogdet_from_lu(const Array& lu, const Array& pivots, const Array& sign,
                     const Array& logabsdet, const Array* det);

}  // namespace accel::linalg
