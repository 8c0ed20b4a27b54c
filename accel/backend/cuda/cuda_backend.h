// The CUDA backend of one device: device memory and copies through the caching allocator and
// the current stream; the elementwise family (ops, casts, fused regions, fills, arange) as
// generated kernels (elementwise_kernels.h); matmul, gather and scatter on cuBLAS and accel's
// own kernels (matmul.h, gather_scatter.h); reductions, scans and nonzero (reduce_kernels.h).
// User kernels (kernel.h) run on it fully.
#pragma once
#include "accel/backend/backend.h"

namespace accel::cuda {

class CudaBackend final : public Backend {
 public:
  explicit CudaBackend(int index) : index_(index) {}
  Device device() const override { return Device::cuda(index_); }
  std::shared_ptr<Buffer> allocate(size_t nbytes) override;
  MemoryStats memory_stats() const override;
  void free_cached() override;
  void copy_from_host(void* dst, const void* src, size_t nbytes) override;
  void copy_to_host(void* dst, const void* src, size_t nbytes) override;
  // elementwise, cast, run_kernel, fill and arange: generated kernels (elementwise_kernels.h).
  void elementwise(OpId op, std::span<const Array> inputs, const Array& out) override;
  // Same dtype and both contiguous: a device-to-device copy; anything else a generated kernel.
  void cast(const Array& in, const Array& out) override;
  void run_kernel(const ir::KernelIR& ir, std::span<const Array> inputs,
                  std::span<const Array> outputs) override;
  void reduce(ReduceOp op, const Array& in, const std::vector<int>& axes,
              const Array& out) override;
  void scan(ScanOp op, const Array& in, int axis, const Array& out) override;
  void matmul(const Array& a, const Array& b, const Array& out) override;
  // Contiguous out and a value of equal bytes: a memset; else a generated kernel.
  void fill(const Array& out, const void* value) override;
  void arange(const Array& out, const void* first, const void* second) override;
  std::optional<IndexFault> gather(const Array& src, std::span<const int> axes,
                                   std::span<const Array> indices, const Array& out) override;
  std::optional<IndexFault> scatter(const Array& dst, std::span<const int> axes,
                                    std::span<const Array> indices, const Array& values) override;
  Array nonzero(const Array& x) override;
  void random(const Array& out, const philox::DrawParams& params,
              std::span<const Array> per_element) override;  // random.h
  void run_template(const codegen::TemplateLaunch& launch) override;  // template_kernels.h
  void synchronize() override;

 private:
  int index_;
};

// The backend of cuda:index; throws BackendUnavailable (no driver, NVRTC aside) or DeviceError
// (no such device).
CudaBackend& cuda_backend(int index);

}  // namespace accel::cuda
