#include "accel/ops/linalg_device.h"

#include <string>

#include "accel/backend/cpu/lapack.h"
#include "accel/backend/cuda/cusolver.h"
#include "accel/ops/linalg_cublas_batched.h"
#include "accel/ops/linalg_cusolver.h"
#include "accel/runtime/errors.h"

namespace accel::linalg {

void require_dense_linalg_device(const Device& device, const char* op) {
  if (device.is_cpu()) return;
  const std::string why = cuda::cusolver_unavailable_reason();
  if (!why.empty())
    throw BackendUnavailable(std::string("[") + op + "] accel.linalg on " + device.str() +
                             " needs cuSOLVER: " + why +
                             "\n  Or copy the array to the CPU (to_device(\"cpu\")) to run it "
                             "there");
}

void solve_on_device(const Array& a, const Array& b, const Array& x) {
  if (cublas_batched_lu_fits(a)) return cublas_batched_solve(a, b, x);
  if (a.device().is_cuda()) return cusolver_solve(a, b, x);
  cpu::lapack_solve(a, b, x);
}

void inv_on_device(const Array& a, const Array& out) {
  if (cublas_batched_lu_fits(a)) return cublas_batched_inv(a, out);
  if (a.device().is_cuda()) return cusolver_inv(a, out);
  cpu::lapack_inv(a, out);
}

void slogdet_on_device(const Array& a, const Array& sign, const Array& logabsdet,
                       const Array* det) {
  if (cublas_batched_lu_fits(a)) return cublas_batched_slogdet(a, sign, logabsdet, det);
  if (a.device().is_cuda()) return cusolver_slogdet(a, sign, logabsdet, det);
  cpu::lapack_slogdet(a, sign, logabsdet, det);
}

void cholesky_on_device(const Array& a, bool upper, const Array& out) {
  if (a.device().is_cuda()) return cusolver_cholesky(a, upper, out);
  cpu::lapack_cholesky(a, upper, out);
}

void eigh_on_device(const Array& a, const Array& w, const Array* v, const char* op) {
  if (a.device().is_cuda()) return cusolver_eigh(a, w, v, op);
  cpu::lapack_eigh(a, w, v);
}

void eig_on_device(const Array& a, const Array& w, const Array* v, const char* op) {
  if (a.device().is_cuda()) return cusolver_eig(a, w, v, op);
  cpu::lapack_eig(a, w, v);
}

void svd_on_device(const Array& a, const Array& s, const Array* u, const Array* vh, bool full) {
  if (a.device().is_cuda()) return cusolver_svd(a, s, u, vh, full);
  cpu::lapack_svd(a, s, u, vh, full);
}

void qr_on_device(const Array& a, const Array* q, const Array& r, bool complete) {
  if (a.device().is_cuda()) return cusolver_qr(a, q, r, complete);
  cpu::lapack_qr(a, q, r, complete);
}

}  // namespace accel::linalg
