#include "accel/backend/sorting.h"

#include "accel/backend/cpu/sort.h"
#include "accel/runtime/errors.h"

namespace accel {

void sort_on_device(const Array& in, int axis, bool descending, const Array* values,
                    const Array* indices) {
  if (!in.device().is_cpu())
    throw BackendUnavailable("[sort] sort/argsort have no implementation on " +
                             in.device().str() +
                             " yet; copy the array to the CPU (to_device(\"cpu\")) to sort it");
  cpu::sort(in, axis, descending, values, indices);
}

void searchsorted_on_device(const Array& sorted, const Array& values, bool right, const Array& out) {
  if (!values.device().is_cpu())
    throw BackendUnavailable("[searchsorted] searchsorted has no implementation on " +
                             values.device().str() + " yet; copy the arrays to the CPU to search");
  cpu::searchsorted(sorted, values, right, out);
}

}  // namespace accel
