// How the CPU runs a fused KernelIR: the interpreter, always available.
#include "accel/backend/cpu/cpu_backend.h"
#include "accel/backend/cpu/fused_interpreter.h"

namespace accel::cpu {

void CpuBackend::run_kernel(const ir::KernelIR& ir, std::span<const Array> inputs,
                            std::span<const Array> outputs) {
  interpret_fused(ir, inputs, outputs);
}

}  // namespace accel::cpu
