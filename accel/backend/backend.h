// The Backend interface (DESIGN.md "Backends"): what a device must provide. Ops in accel/ops
// check arguments and build nodes; they reach memory and loops only through this interface.
#pragma once
#include <cstddef>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "accel/core/array.h"
#include "accel/core/buffer.h"
#include "accel/core/device.h"
#include "accel/core/op_id.h"

namespace accel::philox {
struct DrawParams;  // device_src/philox.h
}  // namespace accel::philox

namespace accel {

namespace ir {
struct KernelIR;
}
namespace codegen {
struct TemplateLaunch;
}

struct MemoryStats {
  size_t in_use = 0;     // bytes held by live buffers
  size_t cached = 0;     // bytes kept for reuse
  size_t peak = 0;       // highest in_use seen
  size_t allocations = 0;  // allocate() calls
  size_t cache_hits = 0;   // allocate() calls served from the cache
  size_t oom_retries = 0;  // allocate() calls that found the device full, released the cache
                           // and tried again (whether or not the retry succeeded)
};

// An index value outside [-size, size) met by gather/scatter: `which` is its position in the
// `indices` argument, so the caller can name the axis.
struct IndexFault {
  int which = 0;
  int64_t value = 0;
};

enum class ReduceOp : unsigned char { sum, prod, min, max, any, all, argmin, argmax };
enum class ScanOp : unsigned char { sum, prod };

class Backend {
 public:
  virtual ~Backend() = default;
  virtual Device device() const = 0;

  // Memory. Throws OutOfMemoryError (after freeing its cache and retrying).
  virtual std::shared_ptr<Buffer> allocate(size_t nbytes) = 0;
  virtual MemoryStats memory_stats() const = 0;
  virtual void free_cached() = 0;
  // Raw copies between this device's memory and host memory.
  virtual void copy_from_host(void* dst, const void* src, size_t nbytes) = 0;
  virtual void copy_to_host(void* dst, const void* src, size_t nbytes) = 0;

  // out[i] = op(inputs[0][i], ...): every input already has out's shape (broadcast views with
  // stride 0) and the op's compute dtype; out may be any strided view.
  virtual void elementwise(OpId op, std::span<const Array> inputs, const Array& out) = 0;
  // out[i] = convert(in[i]): a strided copy between any two dtypes (same shape).
  virtual void cast(const Array& in, const Array& out) = 0;
  // Runs a fused elementwise kernel (accel/ir/kernel_ir.h) in one pass: inputs and outputs
  // all have one shape (inputs may be broadcast views with 0 strides). The default runs the
  // IR one instruction at a time over whole-array temporaries with elementwise() and cast().
  virtual void run_kernel(const ir::KernelIR& ir, std::span<const Array> inputs,
                          std::span<const Array> outputs);
  // Reduce `in` over `axes` (sorted, unique) into `out` (in's shape without those axes, any
  // strides). sum/prod run in out's dtype (in is converted as it is read); min/max keep in's
  // dtype; any/all write bool; argmin/argmax write int64 and take exactly one axis. An empty
  // reduction writes the identity (sum 0, prod 1, any false, all true); min/max/argmin/argmax
  // must not be asked to reduce nothing.
  virtual void reduce(ReduceOp op, const Array& in, const std::vector<int>& axes,
                      const Array& out) = 0;
  // Reduces the single output of a fused kernel (ir, inputs of `shape`, as run_kernel's) over
  // `axes` into `out` as reduce() would reduce that output, without storing it: the values are
  // computed in cache-sized blocks and reduced there. Only where reduces_kernel_output says so
  // (the caller otherwise computes the output, then reduces it).
  virtual bool reduces_kernel_output(ReduceOp op, const Shape& shape, const std::vector<int>& axes,
                                     const Array& out) const {
    return false;
  }
  virtual void reduce_kernel(ReduceOp op, const ir::KernelIR& ir, std::span<const Array> inputs,
                             const Shape& shape, const std::vector<int>& axes, const Array& out);
  // Inclusive running sum / product of `in` along `axis` into `out` (in's shape, any strides,
  // the dtype the scan runs in; in is converted as it is read).
  virtual void scan(ScanOp op, const Array& in, int axis, const Array& out) = 0;
  // Batched matrix product: a (..., m, k) @ b (..., k, n) -> out (..., m, n), all the same
  // dtype and already broadcast over the batch dimensions (stride 0 allowed); out contiguous.
  // Integers wrap around like NumPy's; bool is OR of ANDs.
  virtual void matmul(const Array& a, const Array& b, const Array& out) = 0;
  // out[...] = *value, where `value` points to one element of out's dtype in host memory;
  // out may be any strided view.
  virtual void fill(const Array& out, const void* value) = 0;
  // NumPy's arange fill rule on a contiguous 1-d out: out[0] = *first, out[1] = *second,
  // out[i] = first + i * (second - first) in out's dtype (integers wrap around). `first` and
  // `second` point to elements of out's dtype in host memory.
  virtual void arange(const Array& out, const void* first, const void* second) = 0;

  // Advanced indexing (gather_scatter.cpp on the CPU). `axes` are distinct ascending axes of the
  // indexed array; indices[k] (int64, one shared shape B, any strides, broadcast views allowed)
  // picks positions along axes[k], negative ones counting from the end. The other array has
  // shape B + (the indexed array's remaining axes, in order) and any strides.
  // out[b, r...] = src[..., indices[k][b] at axes[k], ...]; returns the first bad index instead
  // (out is then partly written).
  virtual std::optional<IndexFault> gather(const Array& src, std::span<const int> axes,
                                           std::span<const Array> indices, const Array& out) = 0;
  // dst[..., indices[k][b] at axes[k], ...] = values[b, r...], values in dst's dtype. Every index
  // is checked before anything is written; for a repeated index the last value wins.
  virtual std::optional<IndexFault> scatter(const Array& dst, std::span<const int> axes,
                                            std::span<const Array> indices,
                                            const Array& values) = 0;
  // Coordinates of x's nonzero elements in C order: a new contiguous int64 array of shape
  // (x.ndim(), count). NaN counts as nonzero, -0.0 as zero.
  virtual Array nonzero(const Array& x) = 0;
  // x[mask]: the rows of x (along axis 0) where the 1-d bool `mask` (x.shape()[0] long, any
  // stride) is true, in order, as a new contiguous array. Here nonzero, then a gather of those
  // rows; a backend may do it in one pass (the CPU does, for rows that are contiguous).
  virtual Array compress_rows(const Array& x, const Array& mask);
  // out[k] = philox::draw(params, k) for a C-contiguous out: float32/float64 for the real
  // distributions, an integer dtype or bool for kIntegers, int64 for the counts
  // (device_src/philox.h). Element k uses counter params.offset + k on every device, so the
  // values are the same everywhere. per_element: none, or one contiguous float64 array of
  // out.size() per parameter (params.param[i] of element k is per_element[i][k]), on out's
  // device; the backend points params.per_element at them.
  virtual void random(const Array& out, const philox::DrawParams& params,
                      std::span<const Array> per_element = {}) = 0;

  // Runs a kernel template (ElementwiseKernel / ReductionKernel, codegen/template_kernel.h)
  // planned by accel/kernels: the kernel is emitted in the device's dialect, compiled once
  // (kernel cache) and run over launch.n elements, or launch.n outputs of launch.rn reduced
  // positions each. The operands' addresses are in launch.args; they are computed already.
  virtual void run_template(const codegen::TemplateLaunch& launch) = 0;

  virtual void synchronize() {}
};

// The backend of a device; throws BackendUnavailable saying why it cannot be used.
Backend& backend_for(Device device);
bool backend_available(Device device);

}  // namespace accel
