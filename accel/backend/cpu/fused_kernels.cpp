// How the CPU runs a fused KernelIR: a compiled host kernel when one is ready (host_jit.h),
// else the interpreter, which is always available.
#include <algorithm>
#include <optional>

#include "accel/backend/cpu/cpu_backend.h"
#include "accel/backend/cpu/fused_interpreter.h"
#include "accel/backend/cpu/fused_rows.h"
#include "accel/backend/cpu/host_jit.h"
#include "accel/backend/cpu/thread_pool.h"

namespace accel::cpu {
namespace {

// The compiled kernel addresses a contiguous operand as p[i] along each row. The walk follows
// the first output's memory order (plan::order_axes), so an operand contiguous in C order steps
// across rows when the output is laid out otherwise (written through a transposed view), and
// one laid out as the output (ops/result_layout.h) is contiguous along them: the layouts the
// fusion gave are corrected to the walk's (nullopt: nothing to correct, the common case).
std::optional<ir::KernelIR> walked_layouts(const ir::KernelIR& ir, const FusedSpace& s,
                                           std::span<const Array> inputs,
                                           std::span<const Array> outputs) {
  if (s.shape.back() < 2) return std::nullopt;
  std::optional<ir::KernelIR> fixed;
  auto correct = [&](ir::Layout have, size_t k, const Array& a, auto&& slot) {
    if (have != ir::Layout::contiguous && have != ir::Layout::strided) return;
    const ir::Layout walked = s.inner[k] == static_cast<int64_t>(a.itemsize())
                                  ? ir::Layout::contiguous : ir::Layout::strided;
    if (walked == have) return;
    if (!fixed) fixed = ir;
    slot(*fixed) = walked;
  };
  for (size_t k = 0; k < inputs.size(); ++k)
    correct(ir.inputs[k].layout, k, inputs[k],
            [k](ir::KernelIR& f) -> ir::Layout& { return f.inputs[k].layout; });
  for (size_t k = 0; k < outputs.size(); ++k)
    correct(ir.outputs[k].layout, inputs.size() + k, outputs[k],
            [k](ir::KernelIR& f) -> ir::Layout& { return f.outputs[k].layout; });
  return fixed;
}

}  // namespace

void CpuBackend::run_kernel(const ir::KernelIR& given, std::span<const Array> inputs,
                            std::span<const Array> outputs) {
  const int64_t total = outputs[0].size();
  if (total == 0) return;
  const FusedSpace s = bind_fused(outputs[0].shape(), inputs, outputs);
  const std::optional<ir::KernelIR> walked = walked_layouts(given, s, inputs, outputs);
  const ir::KernelIR& ir = walked ? *walked : given;
  if (HostKernel fn = host_kernel_for(ir, total)) {
    const TileWalk w = plan_walk(s);
    const int64_t grain = std::max<int64_t>(32768 / ir.cost(), kFusedBlock);
    parallel_for(w.units, std::max<int64_t>(grain / w.unit_elements, 1), [&](int64_t b, int64_t e) {
      for_each_walk_row(s, w, b, e,
                        [&](char* const* row, int64_t n) { fn(row, s.inner.data(), n); });
    });
    note_jit_run();
    return;
  }
  interpret_fused(ir, s);
}

}  // namespace accel::cpu
