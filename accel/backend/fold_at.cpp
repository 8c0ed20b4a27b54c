#include "accel/backend/fold_at.h"

#include "accel/backend/cpu/fold_at.h"
#include "accel/backend/cuda/fold_at.h"

namespace accel {

void fold_at_on_device(OpId op, const Array& dst, const Array& positions, const Array& values) {
  if (dst.device().is_cpu())
    cpu::fold_at(op, dst, positions, values);
  else
    cuda::fold_at(op, dst, positions, values);
}

}  // namespace accel
