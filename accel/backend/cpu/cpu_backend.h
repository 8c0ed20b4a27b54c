// The CPU backend: the thread pool, the caching host allocator, the typed loops and BLAS.
#pragma once
#include "accel/backend/backend.h"

namespace accel::cpu {

class CpuBackend final : public Backend {
 public:
  Device device() const override { return Device::cpu(); }
  std::shared_ptr<Buffer> allocate(size_t nbytes) override;
  MemoryStats memory_stats() const override;
  void free_cached() override;
  void copy_from_host(void* dst, const void* src, size_t nbytes) override;
  void copy_to_host(void* dst, const void* src, size_t nbytes) override;
  void elementwise(OpId op, std::span<const Array> inputs, const Array& out) override;
  void cast(const Array& in, const Array& out) override;
  void run_kernel(const ir::KernelIR& ir, std::span<const Array> inputs,
                  std::span<const Array> outputs) override;  // fused_kernels.cpp
  void reduce(ReduceOp op, const Array& in, const std::vector<int>& axes,
              const Array& out) override;
  bool reduces_kernel_output(ReduceOp op, const Shape& shape, const std::vector<int>& axes,
                             const Array& out) const override;
  void reduce_kernel(ReduceOp op, const ir::KernelIR& ir, std::span<const Array> inputs,
                     const Shape& shape, const std::vector<int>& axes, const Array& out) override;  // reduce.cpp
  void scan(ScanOp op, const Array& in, int axis, const Array& out) override;  // scan.cpp
  void matmul(const Array& a, const Array& b, const Array& out) override;  // matmul.cpp
  void fill(const Array& out, const void* value) override;                  // fill.cpp
  void arange(const Array& out, const void* first, const void* second) override;  // fill.cpp
  std::optional<IndexFault> gather(const Array& src, std::span<const int> axes,
                                   std::span<const Array> indices,
                                   const Array& out) override;  // gather_scatter.cpp
  std::optional<IndexFault> scatter(const Array& dst, std::span<const int> axes,
                                    std::span<const Array> indices,
                                    const Array& values) override;  // gather_scatter.cpp
  Array nonzero(const Array& x) override;  // nonzero.cpp
  Array compress_rows(const Array& x, const Array& mask) override;  // compress_rows.cpp
  void random(const Array& out, const philox::DrawParams& params,
              std::span<const Array> per_element) override;  // random.cpp
  void run_template(const codegen::TemplateLaunch& launch) override;  // template_kernels.cpp
};

CpuBackend& cpu_backend();

}  // namespace accel::cpu
