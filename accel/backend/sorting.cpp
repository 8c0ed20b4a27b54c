#include "accel/backend/sorting.h"

#include "accel/backend/cpu/interp.h"
#include "accel/backend/cpu/sort.h"
#include "accel/backend/cuda/sort_kernels.h"

namespace accel {

void sort_on_device(const Array& in, int axis, bool descending, const Array* values,
                    const Array* indices) {
  if (in.device().is_cpu())
    cpu::sort(in, axis, descending, values, indices);
  else
    cuda::sort(in, axis, descending, values, indices);
}

void searchsorted_on_device(const Array& sorted, const Array& values, bool right,
                            const Array& out) {
  if (values.device().is_cpu())
    cpu::searchsorted(sorted, values, right, out);
  else
    cuda::searchsorted(sorted, values, right, out);
}

kernels::InterpParams interp_params(const Array& x, const Array& xp, const Array& fp,
                                    std::optional<std::complex<double>> left,
                                    std::optional<std::complex<double>> right, const Array& out) {
  kernels::InterpParams p{};
  p.x = x.data<double>();
  p.xp = xp.data<double>();
  p.fp = static_cast<const double*>(fp.data());
  p.out = static_cast<double*>(out.data());
  p.count = x.size();
  p.n = xp.size();
  p.components = fp.dtype() == Dtype::complex128 ? 2 : 1;
  if (left) {
    p.left[0] = left->real();
    p.left[1] = left->imag();
    p.given |= 1;
  }
  if (right) {
    p.right[0] = right->real();
    p.right[1] = right->imag();
    p.given |= 2;
  }
  return p;
}

void interp_on_device(const Array& x, const Array& xp, const Array& fp,
                      std::optional<std::complex<double>> left,
                      std::optional<std::complex<double>> right, const Array& out) {
  if (x.size() == 0) return;
  out.buffer()->evaluate_pending_readers();
  if (x.device().is_cpu())
    cpu::interp(interp_params(x, xp, fp, left, right, out));
  else
    cuda::interp(x, xp, fp, out, interp_params(x, xp, fp, left, right, out));
}

}  // namespace accel
