#include "accel/backend/sorting.h"

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

}  // namespace accel
