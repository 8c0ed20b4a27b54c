#include "accel/ops/linalg_cublas_batched.h"

#include <climits>
#include <cstdint>
#include <mutex>
#include <string>

#include "accel/backend/cuda/cublas.h"
#include "accel/backend/cuda/cusolver.h"
#include "accel/backend/cuda/devices.h"
#include "accel/backend/cuda/stream.h"
#include "accel/ops/copy.h"
#include "accel/ops/creation.h"
#include "accel/ops/linalg_cuda_buffers.h"
#include "accel/ops/manipulation.h"
#include "accel/runtime/errors.h"

namespace accel::linalg {
using namespace accel::cuda;
namespace {

// cuBLAS documents its batched LU for small matrices, where launch overhead is what counts, and
// its one-call inverse of the same family (matinvBatched) only for n < 32. Past n = 32 a matrix
// is enough work for cuSOLVER's blocked getrf, and the per-matrix loop's launches weigh less.
// (A bound from the documentation, not yet measured: see docs/ARCHITECTURE.md.)
constexpr int64_t kMaxBatchedN = 32;
// One matrix is one cuSOLVER call either way. From two on, the loop launches several kernels per
// matrix, the batched path a fixed handful (two pointer tables, getrf, getrs or getri).
constexpr int64_t kMinBatch = 2;

Shape batch_shape(const Array& x) { return Shape(x.shape().begin(), x.shape().end() - 2); }
Shape with(Shape s, int64_t last) {
  s.push_back(last);
  return s;
}

// The cuBLAS handle of a's device, locked, with its stream set to the current one, for one
// routine's calls (matmul shares the handle).
struct BatchedSession {
  const CublasApi& api;
  int device;
  std::string where;
  CublasHandle& h;
  std::unique_lock<std::mutex> lock;
  Precision p;

  BatchedSession(const Array& a, const char* op)
      : api(cublas()),
        device(a.device().index),
        where(std::string(op) + " cuda:" + std::to_string(a.device().index)),
        h(cublas_handle(device)),
        lock(h.mutex),
        p(precision_of(a.dtype())) {
    make_current(device);
    api.check(api.set_stream(h.handle, current_stream(device).handle()), "cublasSetStream", where);
  }
};

void* const* pointers(const Array& table) { return static_cast<void* const*>(table.data()); }
int* ints(const Array& a) { return static_cast<int*>(a.data()); }

// LU factors of the contiguous square matrices `lu` in place (whose table is `table`), pivots
// into (batch..., n) int32 `pivots`, devInfo (a zero pivot's 1-based index) into `info`.
void getrf(const BatchedSession& s, const Array& lu, const Array& table, const Array& pivots,
           const Array& info) {
  const int n = static_cast<int>(lu.shape(-1));
  s.api.check(s.api.getrf_batched[s.p](s.h.handle, n, pointers(table), n, ints(pivots), ints(info),
                                       static_cast<int>(info.size())),
              "cublasXgetrfBatched", s.where);
}

}  // namespace

bool cublas_batched_lu_fits(const Array& a) {
  const int64_t n = a.shape(-1), nb = shape_size(batch_shape(a));
  if (!a.device().is_cuda() || n < 1 || n > kMaxBatchedN || nb < kMinBatch || nb > INT_MAX)
    return false;
  return cublas_unavailable_reason().empty() && cublas_handle(a.device().index).handle;
}

Array matrix_pointers(const Array& matrices) {
  const int64_t per = matrices.shape(-2) * matrices.shape(-1) * matrices.itemsize();
  const int64_t nb = shape_size(batch_shape(matrices));
  const auto base = static_cast<int64_t>(reinterpret_cast<uintptr_t>(matrices.data()));
  Array table = arange(base, base + nb * per, per, Dtype::uint64, matrices.device());
  table.eval();
  return table;
}

void cublas_batched_solve(const Array& a, const Array& b, const Array& x) {
  const int64_t n = a.shape(-1), k = b.shape(-1);
  const int64_t nb = shape_size(batch_shape(x));
  if (k == 0) return;
  // Read in column-major order the row-major copy is A^T: getrs with op T on its factors solves
  // A X = B, without transposing A. B goes in column-major order and comes back as X.
  const Array lu = private_copy(a);
  const Array rhs = column_major_copy(b);  // (batch..., k, n)
  const Array lu_table = matrix_pointers(lu), rhs_table = matrix_pointers(rhs);
  const Array pivots = Array::empty(with(batch_shape(a), n), Dtype::int32, a.device());
  const Array info = zeroed_infos(nb, a.device().index);
  std::string where;
  {
    BatchedSession s(a, "solve");
    where = s.where;
    getrf(s, lu, lu_table, pivots, info);
    int argument_error = 0;  // getrs's info is on the host and reports arguments only
    const int ni = static_cast<int>(n), ki = static_cast<int>(k);
    s.api.check(s.api.getrs_batched[s.p](s.h.handle, kCublasOpT, ni, ki, pointers(lu_table), ni,
                                         ints(pivots), pointers(rhs_table), ni, &argument_error,
                                         static_cast<int>(nb)),
                "cublasXgetrsBatched", s.where);
    if (argument_error != 0)
      throw Error("[" + s.where + "] cuBLAS rejected argument " + std::to_string(-argument_error) +
                  " of getrsBatched (a bug in accel: please report it)");
  }
  check_infos(info, where, "solve", "Singular matrix", "cuBLAS");
  assign(x, matrix_transpose(rhs), "solve");
}

void cublas_batched_inv(const Array& a, const Array& out) {
  const int64_t n = a.shape(-1), nb = shape_size(batch_shape(a));
  // The row-major copy is M = A^T in column-major order; getri writes M^-1 = (A^-1)^T in
  // column-major order, which read row-major is A^-1.
  const Array lu = private_copy(a);
  const Array inverse = Array::empty(a.shape(), a.dtype(), a.device());
  const Array lu_table = matrix_pointers(lu), inverse_table = matrix_pointers(inverse);
  const Array pivots = Array::empty(with(batch_shape(a), n), Dtype::int32, a.device());
  const Array info = zeroed_infos(nb, a.device().index);
  const Array inverse_info = zeroed_infos(nb, a.device().index);
  std::string where;
  {
    BatchedSession s(a, "inv");
    where = s.where;
    getrf(s, lu, lu_table, pivots, info);
    const int ni = static_cast<int>(n);
    s.api.check(s.api.getri_batched[s.p](s.h.handle, ni, pointers(lu_table), ni, ints(pivots),
                                         pointers(inverse_table), ni, ints(inverse_info),
                                         static_cast<int>(nb)),
                "cublasXgetriBatched", s.where);
  }
  check_infos(info, where, "inv", "Singular matrix", "cuBLAS");
  check_infos(inverse_info, where, "inv", "Singular matrix", "cuBLAS");
  assign(out, inverse, "inv");
}

void cublas_batched_slogdet(const Array& a, const Array& sign, const Array& logabsdet,
                            const Array* det) {
  const int64_t n = a.shape(-1), nb = shape_size(batch_shape(a));
  const Array lu = private_copy(a);  // det(A^T) = det(A): the row-major copy will do
  const Array lu_table = matrix_pointers(lu);
  const Array pivots = Array::empty(with(batch_shape(a), n), Dtype::int32, a.device());
  // A positive devInfo is a zero pivot: a singular matrix, whose determinant is 0, not an error;
  // getrfBatched reports bad arguments in its status, so the infos are not read back.
  const Array info = zeroed_infos(nb, a.device().index);
  {
    BatchedSession s(a, det ? "det" : "slogdet");
    getrf(s, lu, lu_table, pivots, info);
  }
  slogdet_from_lu(lu, pivots, sign, logabsdet, det);
}

}  // namespace accel::linalg
