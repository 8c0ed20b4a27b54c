#include "accel/ops/linalg_decompose.h"
#include "accel/ops/qr_raw.h"

#include <algorithm>
#include <limits>
#include <string>

#include "accel/backend/cpu/lapack.h"
#include "accel/ops/linalg_device.h"
#include "accel/ops/copy.h"
#include "accel/ops/elementwise.h"
#include "accel/ops/linalg.h"
#include "accel/ops/manipulation.h"
#include "accel/ops/promotion.h"
#include "accel/ops/reduction.h"
#include "accel/runtime/errors.h"

namespace accel::linalg {
namespace {

std::string bracket(const char* op) { return std::string("[") + op + "] "; }

// The dtype LAPACK computes x in: NumPy's rule, integers and bool as float64.
Dtype lapack_dtype(Dtype dt) {
  switch (dt) {
    case Dtype::float32:
    case Dtype::float64:
    case Dtype::complex64:
    case Dtype::complex128:
      return dt;
    default:
      return Dtype::float64;
  }
}

// For what has no CUDA path yet (`missing` says which): a CUDA array is not copied to the host
// behind the caller.
void require_cpu(const Array& x, const char* op, const char* missing) {
  if (!x.device().is_cpu())
    throw BackendUnavailable(bracket(op) + "accel.linalg has no implementation on " +
                             x.device().str() + " (" + missing +
                             "); copy the array to the CPU (to_device(\"cpu\")) to run it there");
}

// x as a stack of matrices in its LAPACK dtype, on its device and evaluated (any strides).
Array matrices(const Array& x, const char* op, bool square) {
  require_dense_linalg_device(x.device(), op);
  if (x.ndim() < 2)
    throw LinAlgError(bracket(op) + std::to_string(x.ndim()) +
                      "-dimensional array given. Array must be at least two-dimensional");
  if (square && x.shape(-1) != x.shape(-2))
    throw LinAlgError(bracket(op) + "Last 2 dimensions of the array must be square; got shape " +
                      shape_str(x.shape()));
  Array a = astype(x, lapack_dtype(x.dtype()), false);
  a.eval();
  return a;
}

Shape batch_of(const Array& x, int core) {
  return Shape(x.shape().begin(), x.shape().end() - core);
}

Shape with(Shape s, std::initializer_list<int64_t> tail) {
  s.insert(s.end(), tail);
  return s;
}

Array out(const Shape& s, Dtype dt, Device device) { return Array::empty(s, dt, device); }

}  // namespace

Array cholesky(const Array& x, bool upper) {
  Array a = matrices(x, "cholesky", true);
  Array r = out(a.shape(), a.dtype(), a.device());
  cholesky_on_device(a, upper, r);
  return r;
}

Array inv(const Array& x) {
  Array a = matrices(x, "inv", true);
  Array r = out(a.shape(), a.dtype(), a.device());
  inv_on_device(a, r);
  return r;
}

Array solve(const Array& a_in, const Array& b_in) {
  require_dense_linalg_device(b_in.device(), "solve");
  if (a_in.device() != b_in.device())
    throw DeviceError("[solve] a is on " + a_in.device().str() + " and b on " +
                      b_in.device().str() + "; move one with to_device()");
  if (b_in.ndim() == 0)
    throw LinAlgError("[solve] b must have at least one dimension; got a 0-d array");
  const Array both[] = {a_in, b_in};
  const Dtype dt = lapack_dtype(result_type(both));
  Array a = matrices(astype(a_in, dt, false), "solve", true);
  const int64_t n = a.shape(-1);
  const bool vector = b_in.ndim() == 1;
  Array b = astype(b_in, dt, false);
  if (vector) b = reshape(b, {b.shape(0), 1});
  if (b.shape(-2) != n)
    throw ShapeError("[solve] b has " + std::to_string(b.shape(-2)) + " rows where a " +
                     shape_str(a.shape()) + " needs " + std::to_string(n) + "; b's shape is " +
                     shape_str(b_in.shape()) +
                     " (b is a vector only when it is 1-d, otherwise a stack of matrices)");
  const Shape batch = broadcast_shapes(batch_of(a, 2), batch_of(b, 2), "solve");
  const int64_t k = b.shape(-1);
  Array ab = broadcast_to(a, with(batch, {n, n}));
  Array bb = broadcast_to(b, with(batch, {n, k}));
  bb.eval();
  Array x = out(with(batch, {n, k}), dt, a.device());
  solve_on_device(ab, bb, x);
  return vector ? reshape(x, with(batch, {n})) : x;
}

SlogdetResult slogdet(const Array& x) {
  Array a = matrices(x, "slogdet", true);
  const Shape batch = batch_of(a, 2);
  SlogdetResult r{out(batch, a.dtype(), a.device()), out(batch, real_dtype(a.dtype()), a.device())};
  slogdet_on_device(a, r.sign, r.logabsdet);
  return r;
}

Array det(const Array& x) {
  Array a = matrices(x, "det", true);
  Array r = out(batch_of(a, 2), a.dtype(), a.device());
  slogdet_on_device(a, Array(), Array(), &r);
  return r;
}

EighResult eigh(const Array& x) {
  Array a = matrices(x, "eigh", true);
  const int64_t n = a.shape(-1);
  EighResult r{out(with(batch_of(a, 2), {n}), real_dtype(a.dtype()), a.device()), out(a.shape(), a.dtype(), a.device())};
  eigh_on_device(a, r.eigenvalues, &r.eigenvectors, "eigh");
  return r;
}

Array eigvalsh(const Array& x) {
  Array a = matrices(x, "eigvalsh", true);
  Array w = out(with(batch_of(a, 2), {a.shape(-1)}), real_dtype(a.dtype()), a.device());
  eigh_on_device(a, w, nullptr, "eigvalsh");
  return w;
}

namespace {
EigResult eig_impl(const Array& x, bool vectors) {
  const char* op = vectors ? "eig" : "eigvals";
  Array a = matrices(x, op, true);
  const int64_t n = a.shape(-1);
  const Dtype cdt = is_complex(a.dtype()) ? a.dtype() : complex_dtype(a.dtype());
  EigResult r{out(with(batch_of(a, 2), {n}), cdt, a.device()),
              vectors ? out(a.shape(), cdt, a.device()) : Array()};
  eig_on_device(a, r.eigenvalues, vectors ? &r.eigenvectors : nullptr, op);
  return r;
}
}  // namespace

EigResult eig(const Array& x) { return eig_impl(x, true); }
Array eigvals(const Array& x) { return eig_impl(x, false).eigenvalues; }

SVDResult svd(const Array& x, bool full_matrices) {
  Array a = matrices(x, "svd", false);
  const int64_t m = a.shape(-2), n = a.shape(-1), k = std::min(m, n);
  const Shape batch = batch_of(a, 2);
  SVDResult r{out(with(batch, {m, full_matrices ? m : k}), a.dtype(), a.device()),
              out(with(batch, {k}), real_dtype(a.dtype()), a.device()),
              out(with(batch, {full_matrices ? n : k, n}), a.dtype(), a.device())};
  svd_on_device(a, r.S, &r.U, &r.Vh, full_matrices);
  return r;
}

Array svdvals(const Array& x) {
  Array a = matrices(x, "svdvals", false);
  Array s = out(with(batch_of(a, 2), {std::min(a.shape(-2), a.shape(-1))}), real_dtype(a.dtype()), a.device());
  svd_on_device(a, s, nullptr, nullptr, false);
  return s;
}

QRResult qr(const Array& x, QRMode mode) {
  Array a = matrices(x, "qr", false);
  const int64_t m = a.shape(-2), n = a.shape(-1), k = std::min(m, n);
  const bool complete = mode == QRMode::complete;
  const Shape batch = batch_of(a, 2);
  QRResult r{mode == QRMode::r ? Array() : out(with(batch, {m, complete ? m : k}), a.dtype(), a.device()),
             out(with(batch, {complete ? m : k, n}), a.dtype(), a.device())};
  qr_on_device(a, r.Q.valid() ? &r.Q : nullptr, r.R, complete);
  return r;
}

QRRawResult qr_raw(const Array& x) {
  Array a = matrices(x, "qr", false);
  const int64_t m = a.shape(-2), n = a.shape(-1);
  const Shape batch = batch_of(a, 2);
  require_cpu(a, "qr", "mode='raw' has no cuSOLVER path yet");
  QRRawResult r{out(with(batch, {n, m}), a.dtype(), a.device()),
                out(with(batch, {std::min(m, n)}), a.dtype(), a.device())};
  cpu::lapack_qr_raw(a, r.h, r.tau);
  return r;
}

namespace {

// rtol (default max(M, N) * eps) times the largest of each matrix's singular values s
// (batch..., k), shaped (batch..., 1) to compare with s.
Array svd_cutoff(const Array& s, const std::optional<Array>& rtol, int64_t m, int64_t n) {
  const double eps = s.dtype() == Dtype::float32 ? std::numeric_limits<float>::epsilon()
                                                 : std::numeric_limits<double>::epsilon();
  if (s.shape(-1) == 0) return Array::scalar_of(s.dtype(), 0.0, s.device());  // nothing to compare
  Array r = rtol ? (rtol->ndim() ? expand_dims(*rtol, {-1}) : *rtol)
                 : Array::scalar(static_cast<double>(std::max(m, n)) * eps, true, s.device());
  return multiply(r, max(s, {int64_t{-1}}, true));
}

}  // namespace

Array pinv(const Array& x, const std::optional<Array>& rtol) {
  SVDResult r = svd(x, false);
  const int64_t m = x.shape(-2), n = x.shape(-1);
  Array keep = greater(r.S, svd_cutoff(r.S, rtol, m, n));
  Array one = Array::scalar(1.0, true, r.S.device()), zero = Array::scalar(0.0, true, r.S.device());
  // 1/s where kept (the inner where keeps dropped zeros from dividing), 0 elsewhere.
  Array s_inv = where(keep, divide(one, where(keep, r.S, one)), zero);
  Array v = multiply(conj(matrix_transpose(r.Vh)), expand_dims(s_inv, {-2}));
  return matmul(v, conj(matrix_transpose(r.U)));
}

Array matrix_rank(const Array& x, const std::optional<Array>& rtol,
                  const std::optional<Array>& atol) {
  Array s = svdvals(x);
  Array cutoff = atol ? (atol->ndim() ? expand_dims(*atol, {-1}) : *atol)
                      : svd_cutoff(s, rtol, x.shape(-2), x.shape(-1));
  return count_nonzero(greater(s, cutoff), {int64_t{-1}});
}

}  // namespace accel::linalg
