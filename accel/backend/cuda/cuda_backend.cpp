#include "accel/backend/cuda/cuda_backend.h"

#include <algorithm>
#include <cstring>
#include <mutex>
#include <string>
#include <vector>

#include "accel/backend/cuda/devices.h"
#include "accel/backend/cuda/driver.h"
#include "accel/backend/cuda/elementwise_kernels.h"
#include "accel/backend/cuda/gather_scatter.h"
#include "accel/backend/cuda/matmul.h"
#include "accel/backend/cuda/memory.h"
#include "accel/backend/cuda/random.h"
#include "accel/backend/cuda/reduce_kernels.h"
#include "accel/backend/cuda/stream_order.h"
#include "accel/runtime/errors.h"

namespace accel::cuda {
namespace {

// Every operation runs on the current stream; the arrays it reads and writes may have been
// used last on another one (stream_order.h). Returns the stream.
Stream order_on_current(int device, std::initializer_list<const Array*> arrays,
                        std::span<const Array> more = {}) {
  Stream s = current_stream(device);
  for (const Array* a : arrays) order_use(*a, s);
  order_use(more, s);
  return s;
}

}  // namespace

std::shared_ptr<Buffer> CudaBackend::allocate(size_t nbytes) { return cuda::allocate(index_, nbytes); }

MemoryStats CudaBackend::memory_stats() const { return device_allocator(index_).stats(); }

void CudaBackend::free_cached() { device_allocator(index_).free_cached(); }

void CudaBackend::copy_from_host(void* dst, const void* src, size_t nbytes) {
  copy(dst, src, nbytes, CopyKind::host_to_device, current_stream(index_));
}

void CudaBackend::copy_to_host(void* dst, const void* src, size_t nbytes) {
  copy(dst, src, nbytes, CopyKind::device_to_host, current_stream(index_));
}

void CudaBackend::elementwise(OpId op, std::span<const Array> inputs, const Array& out) {
  order_on_current(index_, {&out}, inputs);
  const Dtype compute = inputs.empty() ? out.dtype() : inputs[0].dtype();
  run_generated_kernel(index_, op_kernel_ir(op, compute, out.dtype()), inputs,
                       std::span<const Array>(&out, 1));
}

void CudaBackend::cast(const Array& in, const Array& out) {
  if (out.size() == 0) return;
  order_on_current(index_, {&in, &out});
  if (in.dtype() == out.dtype() && in.is_contiguous() && out.is_contiguous()) {
    // Queued only: later work on the stream sees it, and host reads synchronise anyway.
    copy_async(out.data(), in.data(), out.nbytes(), CopyKind::device_to_device, current_stream(index_));
    return;
  }
  run_generated_kernel(index_, cast_kernel_ir(in.dtype(), out.dtype()), std::span<const Array>(&in, 1),
                       std::span<const Array>(&out, 1));
}

void CudaBackend::run_kernel(const ir::KernelIR& ir, std::span<const Array> inputs,
                             std::span<const Array> outputs) {
  order_on_current(index_, {}, inputs);
  order_on_current(index_, {}, outputs);
  // A region with more operands than one launch can pass runs an instruction at a time.
  if (!run_generated_kernel(index_, ir, inputs, outputs)) Backend::run_kernel(ir, inputs, outputs);
}

void CudaBackend::reduce(ReduceOp op, const Array& in, const std::vector<int>& axes,
                         const Array& out) {
  order_on_current(index_, {&in, &out});
  run_reduce(*cuda_runner(index_), op, in, axes, out);
}

void CudaBackend::scan(ScanOp op, const Array& in, int axis, const Array& out) {
  order_on_current(index_, {&in, &out});
  run_scan(*cuda_runner(index_), op, in, axis, out);
}

void CudaBackend::matmul(const Array& a, const Array& b, const Array& out) {
  order_on_current(index_, {&a, &b, &out});
  cuda::matmul(index_, a, b, out);
}

void CudaBackend::fill(const Array& out, const void* value) {
  if (out.size() == 0) return;
  const size_t item = out.itemsize();
  auto bytes = static_cast<const unsigned char*>(value);
  Stream stream = order_on_current(index_, {&out});
  if (out.is_contiguous() &&
      std::all_of(bytes, bytes + item, [&](unsigned char b) { return b == bytes[0]; })) {
    memset_async(out.data(), bytes[0], out.nbytes(), stream);  // zeros, and the like
    return;
  }
  // Any other value or layout: the value goes to the device once and is cast (copied) into out
  // as a stride-0 input. Its block returns to the pool only for later work on this stream.
  Array one = Array::from_buffer(allocate(item), {}, {}, 0, out.dtype());
  copy_async(one.data(), value, item, CopyKind::host_to_device, stream);
  cast(Array::view_of(one, out.shape(), Strides(static_cast<size_t>(out.ndim()), 0), 0), out);
}

void CudaBackend::arange(const Array& out, const void* first, const void* second) {
  order_on_current(index_, {&out});
  run_arange(index_, out, first, second);
}

std::optional<IndexFault> CudaBackend::gather(const Array& src, std::span<const int> axes,
                                              std::span<const Array> indices, const Array& out) {
  order_on_current(index_, {&src, &out}, indices);
  return cuda::gather(index_, src, axes, indices, out);
}

std::optional<IndexFault> CudaBackend::scatter(const Array& dst, std::span<const int> axes,
                                               std::span<const Array> indices,
                                               const Array& values) {
  order_on_current(index_, {&dst, &values}, indices);
  return cuda::scatter(index_, dst, axes, indices, values);
}

Array CudaBackend::nonzero(const Array& x) {
  order_on_current(index_, {&x});
  return run_nonzero(*cuda_runner(index_), x);
}

void CudaBackend::random(const Array& out, const philox::DrawParams& params,
                         std::span<const Array> per_element) {
  order_on_current(index_, {&out}, per_element);
  cuda::random(index_, out, params, per_element);
}

void CudaBackend::synchronize() { synchronize_device(index_); }

CudaBackend& cuda_backend(int index) {
  driver();                  // BackendUnavailable with the reason
  device_properties(index);  // DeviceError for a missing device
  static std::mutex mutex;
  static auto* backends = new std::vector<std::unique_ptr<CudaBackend>>();  // never destroyed
  std::lock_guard<std::mutex> lock(mutex);
  if (backends->size() <= static_cast<size_t>(index)) backends->resize(index + 1);
  auto& b = (*backends)[index];
  if (!b) b = std::make_unique<CudaBackend>(index);
  return *b;
}

}  // namespace accel::cuda
