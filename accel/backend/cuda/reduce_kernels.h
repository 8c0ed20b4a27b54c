// The CUDA reductions, scans and nonzero: their NVRTC source (device_src/reduce.cuh, scan.cuh,
// nonzero.cuh over the scalar functors; also sort.cuh, whose kernels sort_kernels.h launches on
// the same runner), the kernel instantiations each (op, dtypes) needs, a per-process table of
// the compiled kernels, and the launches of reduce_plan.h's plans on the device's current stream.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "accel/backend/backend.h"
#include "accel/backend/cuda/reduce_plan.h"

namespace accel::cuda {

// The whole translation unit (builtin_source: nvrtc_std.cuh first) and its NVRTC options
// (builtin_compile_options); instantiations are chosen by name expressions.
const std::string& reduction_source();
const std::vector<std::string>& reduction_options();

// Name expressions of the kernels reduce(op) of `in` into `out` uses; throws DTypeError for a
// pair the op does not take. rows, columns: the first pass; final_rows: the second.
struct ReduceKernelNames {
  std::string rows, columns, final_rows;
};
ReduceKernelNames reduce_kernel_names(ReduceOp op, Dtype in, Dtype out);
// The out dtypes reduce(op) takes for `in`: any for sum/prod (converted as read), in's own for
// min/max, bool for any/all, int64 for argmin/argmax.
std::vector<Dtype> reduce_out_dtypes(ReduceOp op, Dtype in);

struct ScanKernelNames {
  std::string serial, block_rows, tiles;       // the scan itself
  std::string total_rows, total_columns;       // the tiles' totals
  std::string carry_serial, carry_block_rows;  // the totals' scan
};
ScanKernelNames scan_kernel_names(ScanOp op, Dtype in, Dtype out);

struct NonzeroKernelNames {
  std::string count, write;
};
NonzeroKernelNames nonzero_kernel_names(Dtype dtype);

// Where planned kernels run: a CUDA device (cuda_runner), or the host emulator of the tests,
// which runs the same kernel source on CPU threads.
class KernelRunner {
 public:
  virtual ~KernelRunner() = default;
  // The kernels a call is about to launch, so that a runner that compiles them can compile
  // them in one NVRTC run rather than one per kernel (a sort launches six).
  virtual void prepare(const std::vector<std::string>& names) {}
  // Runs kernel `name` (a name expression of reduction_source()) over `grid` blocks of
  // kernels::kThreads threads with one parameter struct.
  virtual void launch(const std::string& name, Grid grid, const void* params, size_t bytes) = 0;
  // A new array in the kernels' memory (temporaries, nonzero's result).
  virtual Array empty(const Shape& shape, Dtype dtype) = 0;
  // Copies between the kernels' memory and the host, after the work queued before.
  virtual void to_host(void* dst, const void* src, size_t bytes) = 0;
  virtual void from_host(void* dst, const void* src, size_t bytes) = 0;
  // Resident threads that keep the device busy.
  virtual int64_t threads_wanted() const = 0;
};

// cuda:device, launching on its current stream (each kernel compiled when first launched, kept
// per process).
std::unique_ptr<KernelRunner> cuda_runner(int device);

// Backend::reduce / scan / nonzero (backend.h has the semantics) on `runner`.
void run_reduce(KernelRunner& runner, ReduceOp op, const Array& in, const std::vector<int>& axes,
                const Array& out);
void run_scan(KernelRunner& runner, ScanOp op, const Array& in, int axis, const Array& out);
Array run_nonzero(KernelRunner& runner, const Array& x);

}  // namespace accel::cuda
