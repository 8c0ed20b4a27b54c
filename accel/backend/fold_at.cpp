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

void fold_segments_on_device(OpId op, const Array& out, const Array& src, const Array& starts,
                             int64_t outer, int64_t n, int64_t inner) {
  if (out.device().is_cpu())
    cpu::fold_segments(op, out, src, starts, outer, n, inner);
  else
    cuda::fold_segments(op, out, src, starts, outer, n, inner);
}

}  // namespace accel
