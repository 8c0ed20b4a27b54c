#include "accel/ops/linalg_cusolver.h"

#include <algorithm>
#include <climits>
#include <complex>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "accel/backend/cuda/cusolver.h"
#include "accel/backend/cuda/devices.h"
#include "accel/backend/cuda/memory.h"
#include "accel/backend/cuda/stream.h"
#include "accel/ops/copy.h"
#include "accel/ops/creation.h"
#include "accel/ops/elementwise.h"
#include "accel/ops/linalg_cuda_buffers.h"
#include "accel/ops/manipulation.h"
#include "accel/ops/reduction.h"
#include "accel/runtime/errors.h"

namespace accel::linalg {
using namespace accel::cuda;
namespace {

// The handle of a's device, locked, with its stream set to the current one, for one routine's
// batch of calls. The lock keeps another thread's calls (on another stream) out in between.
struct Session {
  const CusolverApi& api;
  int device;
  std::string where;
  CusolverHandle& h;
  std::unique_lock<std::mutex> lock;
  Precision p;

  Session(const Array& a, const char* op)
      : api(cusolver()),
        device(a.device().index),
        where(std::string(op) + " cuda:" + std::to_string(a.device().index)),
        h(cusolver_handle(device)),
        lock(h.mutex),
        p(precision_of(a.dtype())) {
    make_current(device);
    api.check(api.set_stream(h.handle, current_stream(device).handle()), "cusolverDnSetStream",
              where);
  }
  // A workspace of `elements` of `itemsize` bytes, stream-ordered on the current stream.
  std::shared_ptr<Buffer> workspace(int64_t elements, size_t itemsize) const {
    return allocate(device, std::max<size_t>(1, static_cast<size_t>(elements) * itemsize));
  }
};

int as_int(int64_t v, const char* op) {
  if (v > INT_MAX)
    throw ValueError(std::string("[") + op + "] a matrix dimension of " + std::to_string(v) +
                     " is beyond cuSOLVER's 32-bit sizes");
  return static_cast<int>(v);
}

// Element `i * per` of a contiguous array, as cuSOLVER takes it.
template <class T = void>
T* at(const Array& a, int64_t i, int64_t per) {
  return reinterpret_cast<T*>(static_cast<char*>(a.data()) + i * per * a.itemsize());
}

Shape batch_shape(const Array& x, int core) {
  return Shape(x.shape().begin(), x.shape().end() - core);
}
Shape with(Shape s, std::initializer_list<int64_t> tail) {
  s.insert(s.end(), tail);
  return s;
}
int64_t count(const Shape& batch) { return shape_size(batch); }

// The first `rows` rows of contiguous (batch..., r, c) matrices.
Array first_rows(const Array& m, int64_t rows) {
  Shape shape = m.shape();
  shape[shape.size() - 2] = rows;
  return Array::view_of(m, shape, m.strides(), m.offset());
}

// LU factors (getrf) of the contiguous square matrices `lu` in place, pivots into `pivots`
// (batch..., n) int32, devInfo into `info`.
void getrf_batch(const Session& s, const Array& lu, const Array& pivots, const Array& info) {
  const int64_t n = lu.shape(-1), nb = info.size();
  if (n == 0 || nb == 0) return;
  const int ni = as_int(n, "getrf");
  int lwork = 0;
  s.api.check(s.api.getrf_buffer_size[s.p](s.h.handle, ni, ni, at(lu, 0, 0), ni, &lwork),
              "cusolverDnXgetrf_bufferSize", s.where);
  const auto work = s.workspace(lwork, lu.itemsize());
  for (int64_t i = 0; i < nb; ++i)
    s.api.check(s.api.getrf[s.p](s.h.handle, ni, ni, at(lu, i, n * n), ni, work->data(),
                                 at<int>(pivots, i, n), at<int>(info, i, 1)),
                "cusolverDnXgetrf", s.where);
}

}  // namespace

void cusolver_solve(const Array& a, const Array& b, const Array& x, const char* op) {
  const int64_t n = a.shape(-1), k = b.shape(-1);
  const Shape batch = batch_shape(x, 2);
  const int64_t nb = count(batch);
  if (nb == 0 || n == 0 || k == 0) return;
  const Array lu = column_major_copy(a);   // (batch..., n, n): A in column-major order
  const Array rhs = column_major_copy(b);  // (batch..., k, n): B in column-major order, then X
  const int device = a.device().index;
  const Array pivots = Array::empty(with(batch, {n}), Dtype::int32, a.device());
  const Array info = zeroed_infos(nb, device), solve_info = zeroed_infos(nb, device);
  std::string where;
  {
    Session s(a, op);
    where = s.where;
    getrf_batch(s, lu, pivots, info);
    const int ni = as_int(n, op), ki = as_int(k, op);
    for (int64_t i = 0; i < nb; ++i)
      s.api.check(
          s.api.getrs[s.p](s.h.handle, 0 /* CUBLAS_OP_N */, ni, ki, at(lu, i, n * n), ni,
                           at<int>(pivots, i, n), at(rhs, i, n * k), ni, at<int>(solve_info, i, 1)),
          "cusolverDnXgetrs", s.where);
  }
  check_infos(info, where, op, "Singular matrix", "cuSOLVER");
  check_infos(solve_info, where, op, nullptr, "cuSOLVER");
  assign(x, matrix_transpose(rhs), op);
}

void cusolver_inv(const Array& a, const Array& out) {
  const int64_t n = a.shape(-1);
  const Array identity = broadcast_to(eye(n, n, 0, a.dtype(), a.device()), a.shape());
  cusolver_solve(a, identity, out, "inv");
}

void cusolver_slogdet(const Array& a, const Array& sign, const Array& logabsdet, const Array* det) {
  const int64_t n = a.shape(-1);
  const Shape batch = batch_shape(a, 2);
  const int64_t nb = count(batch);
  if (nb == 0) return;
  const Array lu = private_copy(a);  // det(A^T) = det(A): the row-major copy will do
  const Array pivots = Array::empty(with(batch, {n}), Dtype::int32, a.device());
  const Array info = zeroed_infos(nb, a.device().index);
  std::string context;
  {
    Session s(a, det ? "det" : "slogdet");
    context = s.where;
    getrf_batch(s, lu, pivots, info);
  }
  // A positive devInfo is a zero pivot: a singular matrix, whose determinant is 0, not an error.
  check_infos(info, context, det ? "det" : "slogdet", nullptr, "cuSOLVER");
  slogdet_from_lu(lu, pivots, sign, logabsdet, det);
}

void cusolver_cholesky(const Array& a, bool upper, const Array& out) {
  const int64_t n = a.shape(-1), nb = count(batch_shape(a, 2));
  if (nb == 0 || n == 0) return;
  // Read in column-major order the row-major copy is M = A^T. Factoring M's upper triangle
  // (A's lower) as U^H U leaves L = U^T in row-major order, A = L L^H; factoring M's lower
  // (A's upper, NumPy's upper=True) as L' L'^H leaves R = L'^T, A = R^H R.
  const Array f = private_copy(a);
  const int uplo = upper ? kFillLower : kFillUpper;
  const Array info = zeroed_infos(nb, a.device().index);
  std::string where;
  {
    Session s(a, "cholesky");
    where = s.where;
    const int ni = as_int(n, "cholesky");
    int lwork = 0;
    s.api.check(s.api.potrf_buffer_size[s.p](s.h.handle, uplo, ni, at(f, 0, 0), ni, &lwork),
                "cusolverDnXpotrf_bufferSize", s.where);
    const auto work = s.workspace(lwork, f.itemsize());
    for (int64_t i = 0; i < nb; ++i)
      s.api.check(s.api.potrf[s.p](s.h.handle, uplo, ni, at(f, i, n * n), ni, work->data(), lwork,
                                   at<int>(info, i, 1)),
                  "cusolverDnXpotrf", s.where);
  }
  check_infos(info, where, "cholesky", "Matrix is not positive definite", "cuSOLVER");
  // potrf leaves the other triangle as it was; the factor has zeros there.
  assign(out, upper ? triu(f) : tril(f), "cholesky");
}

void cusolver_eigh(const Array& a, const Array& w, const Array* v, const char* op) {
  const int64_t n = a.shape(-1), nb = count(batch_shape(a, 2));
  if (nb == 0 || n == 0) return;
  // In column-major order the copy is M = A^T = conj(A) (A Hermitian), whose upper triangle is
  // A's lower (NumPy's UPLO='L'): same eigenvalues, eigenvectors conj(z) for M's z.
  const Array f = private_copy(a);
  const Array values = Array::empty(w.shape(), w.dtype(), w.device());
  const int jobz = v ? kEigVectors : kEigNoVectors;
  const Array info = zeroed_infos(nb, a.device().index);
  std::string where;
  {
    Session s(a, op);
    where = s.where;
    const int ni = as_int(n, op);
    int lwork = 0;
    s.api.check(s.api.syevd_buffer_size[s.p](s.h.handle, jobz, kFillUpper, ni, at(f, 0, 0), ni,
                                             at(values, 0, 0), &lwork),
                "cusolverDnXsyevd_bufferSize", s.where);
    const auto work = s.workspace(lwork, f.itemsize());
    for (int64_t i = 0; i < nb; ++i)
      s.api.check(s.api.syevd[s.p](s.h.handle, jobz, kFillUpper, ni, at(f, i, n * n), ni,
                                   at(values, i, n), work->data(), lwork, at<int>(info, i, 1)),
                  "cusolverDnXsyevd", s.where);
  }
  check_infos(info, where, op, "Eigenvalues did not converge", "cuSOLVER");
  assign(w, values, op);
  // M's eigenvectors are the columns of the column-major result: matrix_transpose of the
  // row-major view; A's are their conjugates.
  if (v) assign(*v, conj(matrix_transpose(f)), op);
}

Array unpack_real_eigenvectors(const Array& vr_rows, const Array& values) {
  const Device dev = values.device();
  const Array zero = Array::scalar(0.0, true, dev);
  const Array im = expand_dims(imag(values), {-1});  // one per row
  const Array first = greater(im, zero), second = less(im, zero);
  const Array next = roll(vr_rows, {-1}, Axes{-2}), prev = roll(vr_rows, {1}, Axes{-2});
  const Array re = where(second, prev, vr_rows);
  const Array im_part = where(first, next, where(second, negative(vr_rows), zero));
  return add(astype(re, values.dtype()),
             multiply(astype(im_part, values.dtype()),
                      Array::scalar(std::complex<double>(0.0, 1.0), true, dev)));
}

void cusolver_eig(const Array& a, const Array& w, const Array* v, const char* op) {
  const int64_t n = a.shape(-1), nb = count(batch_shape(a, 2));
  {
    const CusolverApi& api = cusolver();
    const std::string where = std::string(op) + " cuda:" + std::to_string(a.device().index);
    api.require(api.geev_buffer_size, CusolverApi::geev_buffer_size_symbol, where);
    api.require(api.geev, CusolverApi::geev_symbol, where);
  }
  if (nb == 0 || n == 0) return;
  // NumPy checks first: geev would loop or return garbage on them.
  if (!all(isfinite(a)).item<bool>())
    throw LinAlgError(std::string("[") + op + "] Array must not contain infs or NaNs");
  // Eigenvalues alone: the row-major copy, which read in column-major order is A^T, with A's
  // eigenvalues. Eigenvectors: A in column-major order; its right eigenvectors are VR's columns.
  const Array f = v ? column_major_copy(a) : private_copy(a);
  const Array values = Array::empty(w.shape(), w.dtype(), w.device());
  const Array vr = v ? Array::empty(a.shape(), a.dtype(), a.device()) : Array();
  const int jobvr = v ? kEigVectors : kEigNoVectors;
  const int64_t ldvr = v ? n : 1;
  const Array info = zeroed_infos(nb, a.device().index);
  std::vector<char> host_work;  // kept until check_infos has waited for the calls
  std::string where;
  {
    Session s(a, op);
    where = s.where;
    const int type = kDataType[s.p], type_w = kComplexDataType[s.p];
    size_t device_bytes = 0, host_bytes = 0;
    s.api.check(
        s.api.geev_buffer_size(s.h.handle, s.h.params, kEigNoVectors, jobvr, n, type, at(f, 0, 0),
                               n, type_w, at(values, 0, 0), type, nullptr, 1, type,
                               v ? at(vr, 0, 0) : nullptr, ldvr, type, &device_bytes, &host_bytes),
        "cusolverDnXgeev_bufferSize", s.where);
    const auto work = s.workspace(static_cast<int64_t>(device_bytes), 1);
    host_work.resize(std::max<size_t>(1, host_bytes));
    for (int64_t i = 0; i < nb; ++i)
      s.api.check(s.api.geev(s.h.handle, s.h.params, kEigNoVectors, jobvr, n, type, at(f, i, n * n),
                             n, type_w, at(values, i, n), type, nullptr, 1, type,
                             v ? at(vr, i, n * n) : nullptr, ldvr, type, work->data(), device_bytes,
                             host_work.data(), host_bytes, at<int>(info, i, 1)),
                  "cusolverDnXgeev", s.where);
  }
  check_infos(info, where, op, "Eigenvalues did not converge", "cuSOLVER");
  assign(w, values, op);
  if (!v) return;
  // VR's columns are the rows of its row-major view: the eigenvectors are their transpose.
  assign(*v, matrix_transpose(is_complex(a.dtype()) ? vr : unpack_real_eigenvectors(vr, values)),
         op);
}

void cusolver_svd(const Array& a, const Array& s, const Array* u, const Array* vh, bool full) {
  const int64_t m = a.shape(-2), n = a.shape(-1), k = std::min(m, n);
  const Shape batch = batch_shape(a, 2);
  const int64_t nb = count(batch);
  if (nb == 0) return;
  if (k == 0) {  // no singular values; the full factors are identities
    if (u && full) assign(*u, eye(m, m, 0, u->dtype(), u->device()), "svd");
    if (vh && full) assign(*vh, eye(n, n, 0, vh->dtype(), vh->device()), "svd");
    return;
  }
  // gesvd takes rows >= cols (column-major). Wide A (n >= m): its row-major copy, which is
  // M = A^T in column-major order; A = conj(V_M) S U_M^T, so U is VT's buffer read in row-major
  // order and Vh is U's. Tall A: A itself in column-major order; U and Vh are the buffers read
  // in row-major order, transposed.
  const bool wide = n >= m;
  const int64_t rows = std::max(m, n), cols = k;
  const Array f = wide ? private_copy(a) : column_major_copy(a);
  const bool vectors = u != nullptr;
  const int64_t u_cols = full ? rows : cols;
  const Dtype real = s.dtype();
  const Array values = Array::empty(with(batch, {cols}), real, a.device());
  const Array ubuf =
      vectors ? Array::empty(with(batch, {u_cols, rows}), a.dtype(), a.device()) : Array();
  const Array vtbuf =
      vectors ? Array::empty(with(batch, {cols, cols}), a.dtype(), a.device()) : Array();
  const Array info = zeroed_infos(nb, a.device().index);
  const signed char jobu = vectors ? (full ? 'A' : 'S') : 'N', jobvt = vectors ? 'A' : 'N';
  std::string where;
  {
    Session ss(a, "svd");
    where = ss.where;
    const int ri = as_int(rows, "svd"), ci = as_int(cols, "svd");
    int lwork = 0;
    ss.api.check(ss.api.gesvd_buffer_size[ss.p](ss.h.handle, ri, ci, &lwork),
                 "cusolverDnXgesvd_bufferSize", ss.where);
    const auto work = ss.workspace(lwork, f.itemsize());
    // Complex gesvd's real workspace: the superdiagonal of a bidiagonal that did not converge.
    const auto rwork = ss.workspace(std::max<int64_t>(1, cols - 1), values.itemsize());
    for (int64_t i = 0; i < nb; ++i)
      ss.api.check(
          ss.api.gesvd[ss.p](ss.h.handle, jobu, jobvt, ri, ci, at(f, i, rows * cols), ri,
                             at(values, i, cols), vectors ? at(ubuf, i, u_cols * rows) : nullptr,
                             ri, vectors ? at(vtbuf, i, cols * cols) : nullptr, ci, work->data(),
                             lwork, rwork->data(), at<int>(info, i, 1)),
          "cusolverDnXgesvd", ss.where);
  }
  check_infos(info, where, "svd", "SVD did not converge", "cuSOLVER");
  assign(s, values, "svd");
  if (!vectors) return;
  assign(*u, wide ? vtbuf : matrix_transpose(ubuf), "svd");
  assign(*vh, wide ? ubuf : matrix_transpose(vtbuf), "svd");
}

void cusolver_qr(const Array& a, const Array* q, const Array& r, bool complete) {
  const int64_t m = a.shape(-2), n = a.shape(-1), k = std::min(m, n);
  const Shape batch = batch_shape(a, 2);
  const int64_t nb = count(batch);
  if (nb == 0) return;
  const Device dev = a.device();
  if (k == 0) {  // R is all zeros (or empty), Q the identity (or empty)
    assign(r, Array::scalar(0.0, true, dev), "qr");
    if (q) assign(*q, eye(m, q->shape(-1), 0, q->dtype(), dev), "qr");
    return;
  }
  const Array f = column_major_copy(a);  // (batch..., n, m): A in column-major order, lda = m
  const Array tau = Array::empty(with(batch, {k}), a.dtype(), dev);
  const Array info = zeroed_infos(nb, dev.index);
  std::string where;
  const int mi = as_int(m, "qr"), ni = as_int(n, "qr"), ki = as_int(k, "qr");
  {
    Session s(a, "qr");
    where = s.where;
    int lwork = 0;
    s.api.check(s.api.geqrf_buffer_size[s.p](s.h.handle, mi, ni, at(f, 0, 0), mi, &lwork),
                "cusolverDnXgeqrf_bufferSize", s.where);
    const auto work = s.workspace(lwork, f.itemsize());
    for (int64_t i = 0; i < nb; ++i)
      s.api.check(s.api.geqrf[s.p](s.h.handle, mi, ni, at(f, i, n * m), mi, at(tau, i, k),
                                   work->data(), lwork, at<int>(info, i, 1)),
                  "cusolverDnXgeqrf", s.where);
  }
  check_infos(info, where, "qr", nullptr, "cuSOLVER");
  // R: the upper triangle of the first rows of A's place (queued before orgqr overwrites it).
  assign(r, triu(first_rows(matrix_transpose(f), r.shape(-2))), "qr");
  if (!q) return;
  // Q's first q_cols columns from the reflectors; complete Q of a tall A needs m columns, more
  // than A has, so the reflectors go into a zeroed m x m buffer first.
  const int64_t q_cols = q->shape(-1);
  Array qbuf = f;
  if (q_cols > n) {
    qbuf = Array::empty(with(batch, {q_cols, m}), a.dtype(), dev);
    memset_async(qbuf.data(), 0, qbuf.nbytes(), current_stream(dev.index));
    assign(first_rows(qbuf, n), f, "qr");
  }
  const int64_t per = qbuf.shape(-2) * m;
  {
    Session s(a, "qr");
    const int qi = as_int(q_cols, "qr");
    int lwork = 0;
    s.api.check(s.api.orgqr_buffer_size[s.p](s.h.handle, mi, qi, ki, at(qbuf, 0, 0), mi,
                                             at(tau, 0, 0), &lwork),
                "cusolverDnXorgqr_bufferSize", s.where);
    const auto work = s.workspace(lwork, qbuf.itemsize());
    for (int64_t i = 0; i < nb; ++i)
      s.api.check(s.api.orgqr[s.p](s.h.handle, mi, qi, ki, at(qbuf, i, per), mi, at(tau, i, k),
                                   work->data(), lwork, at<int>(info, i, 1)),
                  "cusolverDnXorgqr", s.where);
  }
  check_infos(info, where, "qr", nullptr, "cuSOLVER");
  assign(*q, matrix_transpose(first_rows(qbuf, q_cols)), "qr");
}

}  // namespace accel::linalg
