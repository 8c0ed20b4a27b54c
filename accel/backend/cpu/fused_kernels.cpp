// How the CPU runs a fused KernelIR: a compiled host kernel when one is ready (host_jit.h),
// else the interpreter, which is always available.
#include <algorithm>

#include "accel/backend/cpu/cpu_backend.h"
#include "accel/backend/cpu/fused_interpreter.h"
#include "accel/backend/cpu/fused_rows.h"
#include "accel/backend/cpu/host_jit.h"
#include "accel/backend/cpu/thread_pool.h"

namespace accel::cpu {

void CpuBackend::run_kernel(const ir::KernelIR& ir, std::span<const Array> inputs,
                            std::span<const Array> outputs) {
  const int64_t total = outputs[0].size();
  if (total == 0) return;
  if (HostKernel fn = host_kernel_for(ir, total)) {
    const FusedSpace s = bind_fused(outputs[0].shape(), inputs, outputs);
    const TileWalk w = plan_walk(s);
    const int64_t grain = std::max<int64_t>(32768 / ir.cost(), kFusedBlock);
    parallel_for(w.units, std::max<int64_t>(grain / w.unit_elements, 1), [&](int64_t b, int64_t e) {
      for_each_walk_row(s, w, b, e,
                        [&](char* const* row, int64_t n) { fn(row, s.inner.data(), n); });
    });
    note_jit_run();
    return;
  }
  interpret_fused(ir, inputs, outputs);
}

}  // namespace accel::cpu
