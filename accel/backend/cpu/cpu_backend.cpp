#include "accel/backend/cpu/cpu_backend.h"

#include <cstring>
#include <string>

#include "accel/backend/cpu/elementwise_loops.h"
#include "accel/backend/cpu/host_allocator.h"
#include "accel/backend/cpu/thread_pool.h"
#include "accel/runtime/errors.h"

namespace accel::cpu {

std::shared_ptr<Buffer> CpuBackend::allocate(size_t nbytes) {
  return host_allocator().allocate(nbytes);
}
MemoryStats CpuBackend::memory_stats() const { return host_allocator().stats(); }
void CpuBackend::free_cached() { host_allocator().free_cached(); }

void CpuBackend::copy_from_host(void* dst, const void* src, size_t nbytes) {
  if (nbytes) std::memcpy(dst, src, nbytes);
}
void CpuBackend::copy_to_host(void* dst, const void* src, size_t nbytes) {
  if (nbytes) std::memcpy(dst, src, nbytes);
}

static StridedOperand operand(const Array& a) {
  return {static_cast<char*>(a.data()), &a.strides(), static_cast<int64_t>(a.itemsize())};
}

void CpuBackend::elementwise(OpId op, std::span<const Array> inputs, const Array& out) {
  InnerLoop loop = elementwise_loop(op, inputs[0].dtype());
  if (!loop)
    throw DTypeError(std::string("[") + op_name(op) + "] no CPU loop for dtype " +
                     dtype_name(inputs[0].dtype()));
  StridedOperand ops[kMaxOperands];
  size_t n = 0;
  for (const Array& a : inputs) ops[n++] = operand(a);
  ops[n++] = operand(out);
  run_strided(loop, out.shape(), std::span<const StridedOperand>(ops, n), op_cost(op));
}

void CpuBackend::cast(const Array& in, const Array& out) {
  const StridedOperand ops[] = {operand(in), operand(out)};
  run_strided(cast_loop(in.dtype(), out.dtype()), out.shape(), ops);
}

CpuBackend& cpu_backend() {
  static CpuBackend* b = new CpuBackend();  // never destroyed: outlives Python's last array
  return *b;
}

}  // namespace accel::cpu
