#include "accel/backend/cuda/reduce_kernels.h"

#include <algorithm>
#include <initializer_list>
#include <map>
#include <memory>
#include <mutex>
#include <sstream>
#include <string_view>

#include "accel/backend/cuda/builtin_kernels.h"
#include "accel/backend/cuda/devices.h"
#include "accel/backend/cuda/kernel.h"
#include "accel/backend/cuda/memory.h"
#include "accel/backend/cuda/reduce_plan.h"
#include "accel/device_src/embedded_sources.h"
#include "accel/runtime/errors.h"

namespace accel::cuda {
namespace {

// A device source as NVRTC takes it: no include guards, no standard headers (nvrtc_std.cuh,
// placed first by builtin_source, stands in for them), and the dtype table pasted where it is
// included.
std::string as_nvrtc_text(std::string_view text) {
  std::istringstream in{std::string(text)};
  std::string out, line;
  while (std::getline(in, line)) {
    if (line.rfind("#pragma once", 0) == 0 || line.rfind("#include <", 0) == 0) continue;
    out += line.find("#include \"accel/core/dtype.def\"") != std::string::npos
               ? std::string(embedded::dtype_def)
               : line;
    out += "\n";
  }
  return out;
}

// The C++ spelling of each dtype in device code, from dtype.def.
std::string cxx(Dtype dt) {
  switch (dt) {
#define ACCEL_DTYPE(name, ctype, str, kind) \
  case Dtype::name:                         \
    return #ctype;
#include "accel/core/dtype.def"
#undef ACCEL_DTYPE
  }
  return "bool";
}

const char* reduce_name(ReduceOp op) {
  static constexpr const char* names[] = {"sum", "prod", "min",    "max",
                                          "any", "all",  "argmin", "argmax"};
  return names[static_cast<int>(op)];
}

// Appended piece by piece: GCC 12 warns falsely (-Wrestrict) on long chains of operator+.
std::string cat(std::initializer_list<std::string_view> parts) {
  std::string s;
  for (std::string_view part : parts) s += part;
  return s;
}

std::string kernel(std::string_view name, std::string_view op) {
  return cat({"accel::kernels::", name, "<", op, " >"});
}

// The conversions sum/prod/cumsum read with a kernel of their own: NumPy's defaults (the same
// dtype; bool and signed ints into int64, unsigned into uint64; any integer into float64 for
// mean). Any other pair reads through AnyDtype (a switch on the input dtype per element).
bool typed_input(Dtype in, Dtype acc) {
  const DtypeKind k = dtype_kind(in);
  const bool integer =
      k == DtypeKind::Bool || k == DtypeKind::SignedInt || k == DtypeKind::UnsignedInt;
  return in == acc ||
         (acc == Dtype::int64 && (k == DtypeKind::Bool || k == DtypeKind::SignedInt)) ||
         (acc == Dtype::uint64 && k == DtypeKind::UnsignedInt) ||
         (acc == Dtype::float64 && integer);
}

std::string sum_prod_op(bool is_sum, Dtype in, Dtype acc) {
  return cat({"accel::kernels::SumProdOp<",
              typed_input(in, acc) ? cxx(in) : "accel::kernels::AnyDtype", ", ", cxx(acc),
              is_sum ? ", true>" : ", false>"});
}

std::string reduce_op(ReduceOp op, Dtype in, Dtype out) {
  const std::string t = cxx(in);
  switch (op) {
    case ReduceOp::sum:
      return sum_prod_op(true, in, out);
    case ReduceOp::prod:
      return sum_prod_op(false, in, out);
    case ReduceOp::min:
      return cat({"accel::kernels::ExtremeOp<", t, ", false>"});
    case ReduceOp::max:
      return cat({"accel::kernels::ExtremeOp<", t, ", true>"});
    case ReduceOp::any:
      return cat({"accel::kernels::LogicalOp<", t, ", true>"});
    case ReduceOp::all:
      return cat({"accel::kernels::LogicalOp<", t, ", false>"});
    case ReduceOp::argmin:
      return cat({"accel::kernels::ArgExtremeOp<", t, ", false>"});
    case ReduceOp::argmax:
      return cat({"accel::kernels::ArgExtremeOp<", t, ", true>"});
  }
  return "";
}

// The compiled kernels of this process, by name: a module per group of kernels named together
// (KernelRunner::prepare: a sort's six kernels in one NVRTC run), else per kernel, compiled when
// first launched (a reduction uses one to three of an op's kernels); the kernel cache keeps
// them across processes.
struct KernelTable {
  std::mutex mutex;
  std::vector<std::unique_ptr<BuiltinKernels>> modules;
  std::map<std::string, BuiltinKernels*> by_name;

  // Under the lock: one new module for the names no module has yet.
  void add_missing(const std::vector<std::string>& names) {
    std::vector<std::string> missing;
    for (const std::string& n : names)
      if (!by_name.count(n) && std::find(missing.begin(), missing.end(), n) == missing.end())
        missing.push_back(n);
    if (missing.empty()) return;
    modules.push_back(
        std::make_unique<BuiltinKernels>(reduction_source(), missing, "accel_reduce.cu"));
    for (const std::string& n : missing) by_name[n] = modules.back().get();
  }
};

KernelTable& kernel_table() {
  static auto* table = new KernelTable();  // never destroyed: modules outlive static destruction
  return *table;
}

Kernel kernel_for(int device, const std::string& name) {
  KernelTable& table = kernel_table();
  BuiltinKernels* kernels;
  {
    std::lock_guard<std::mutex> lock(table.mutex);
    table.add_missing({name});
    kernels = table.by_name.at(name);
  }
  return kernels->get(name, device);
}

class CudaRunner final : public KernelRunner {
 public:
  explicit CudaRunner(int device) : device_(device) {}
  void prepare(const std::vector<std::string>& names) override {
    KernelTable& table = kernel_table();
    std::lock_guard<std::mutex> lock(table.mutex);
    table.add_missing(names);
  }
  void launch(const std::string& name, Grid grid, const void* params, size_t bytes) override {
    KernelArgs args;
    args.add_bytes(params, bytes);
    kernel_for(device_, name)(Dim3{grid.x, grid.y, 1},
                              Dim3{static_cast<unsigned>(kernels::kThreads), 1, 1}, args);
  }
  // Temporaries return to the stream-ordered cache when dropped: later work on this stream
  // runs after the kernels that use them.
  Array empty(const Shape& shape, Dtype dtype) override {
    return Array::empty(shape, dtype, Device::cuda(device_));
  }
  void to_host(void* dst, const void* src, size_t bytes) override {
    copy(dst, src, bytes, CopyKind::device_to_host, current_stream(device_));
  }
  void from_host(void* dst, const void* src, size_t bytes) override {
    copy(dst, src, bytes, CopyKind::host_to_device, current_stream(device_));
  }
  // 2048 resident threads per multiprocessor since Maxwell.
  int64_t threads_wanted() const override {
    return static_cast<int64_t>(device_properties(device_).multiprocessor_count) * 2048;
  }

 private:
  int device_;
};

template <class Params>
void launch(KernelRunner& runner, const std::string& name, Grid grid, const Params& params) {
  runner.launch(name, grid, &params, sizeof params);
}

void* scratch(KernelRunner& runner, Array& holder, size_t bytes) {
  holder = runner.empty({static_cast<int64_t>(bytes)}, Dtype::uint8);
  return holder.data();
}

}  // namespace

const std::string& reduction_source() {
  static const std::string source = builtin_source(
      (as_nvrtc_text(embedded::scalar_ops_h) + as_nvrtc_text(embedded::reduce_params_h) +
       as_nvrtc_text(embedded::reduce_cuh) + as_nvrtc_text(embedded::scan_cuh) +
       as_nvrtc_text(embedded::nonzero_cuh) + as_nvrtc_text(embedded::fold_at_cuh) + as_nvrtc_text(embedded::sort_params_h) +
       as_nvrtc_text(embedded::sort_key_h) + as_nvrtc_text(embedded::sort_cuh) +
       as_nvrtc_text(embedded::interp_h) + as_nvrtc_text(embedded::interp_cuh))
          .c_str());
  return source;
}

const std::vector<std::string>& reduction_options() {
  static const std::vector<std::string> options = builtin_compile_options();
  return options;
}

std::vector<Dtype> reduce_out_dtypes(ReduceOp op, Dtype in) {
  switch (op) {
    case ReduceOp::sum:
    case ReduceOp::prod: {
      std::vector<Dtype> all;
      for (int d = 0; d < kNumDtypes; ++d) all.push_back(static_cast<Dtype>(d));
      return all;
    }
    case ReduceOp::min:
    case ReduceOp::max:
      return {in};
    case ReduceOp::any:
    case ReduceOp::all:
      return {Dtype::bool_};
    case ReduceOp::argmin:
    case ReduceOp::argmax:
      return {Dtype::int64};
  }
  return {};
}

ReduceKernelNames reduce_kernel_names(ReduceOp op, Dtype in, Dtype out) {
  const std::vector<Dtype> outs = reduce_out_dtypes(op, in);
  if (std::find(outs.begin(), outs.end(), out) == outs.end())
    throw DTypeError(cat({"[reduce] ", reduce_name(op), " of ", dtype_name(in), " writes ",
                          dtype_name(outs.front()), ", not ", dtype_name(out)}));
  const std::string o = reduce_op(op, in, out);
  // A second pass reads states: for sum/prod they depend only on the accumulator's dtype.
  const bool sum_prod = op == ReduceOp::sum || op == ReduceOp::prod;
  const std::string state_op =
      cat({"accel::kernels::StateOp<", sum_prod ? reduce_op(op, out, out) : o, ", true>"});
  return {kernel("reduce_rows", o), kernel("reduce_columns", o), kernel("reduce_rows", state_op)};
}

ScanKernelNames scan_kernel_names(ScanOp op, Dtype in, Dtype out) {
  const bool is_sum = op == ScanOp::sum;
  const std::string o = sum_prod_op(is_sum, in, out);
  const std::string carry =
      cat({"accel::kernels::StateOp<", sum_prod_op(is_sum, out, out), ", false>"});
  return {kernel("scan_serial", o),        kernel("scan_block_rows", o),
          kernel("scan_tiles", o),         kernel("reduce_rows", o),
          kernel("reduce_columns", o),     kernel("scan_serial", carry),
          kernel("scan_block_rows", carry)};
}

NonzeroKernelNames nonzero_kernel_names(Dtype dtype) {
  const std::string t = cxx(dtype);
  return {kernel("nonzero_count", t), kernel("nonzero_write", t)};
}

std::unique_ptr<KernelRunner> cuda_runner(int device) {
  return std::make_unique<CudaRunner>(device);
}

void run_reduce(KernelRunner& runner, ReduceOp op, const Array& in, const std::vector<int>& axes,
                const Array& out) {
  const bool arg = op == ReduceOp::argmin || op == ReduceOp::argmax;
  if (arg && axes.size() != 1)
    throw ValueError("[reduce] argmin/argmax take exactly one axis; got " +
                     std::to_string(axes.size()));
  const ReduceKernelNames names = reduce_kernel_names(op, in.dtype(), out.dtype());
  const ReduceDims dims = reduce_dims(in.shape(), in.strides(), axes, out.strides(), arg);
  if (dims.kept_count() == 0) return;
  ReducePlan plan = plan_reduce(dims, runner.threads_wanted());
  out.buffer()->evaluate_pending_readers();
  plan.params.in = dims.reduced_count() == 0 ? nullptr : in.data();
  plan.params.in_dtype = static_cast<int32_t>(in.dtype());
  plan.params.out = out.data();
  Array partial;
  if (plan.two_pass()) {
    void* states = scratch(runner, partial, plan.partial_bytes());
    plan.params.partial = states;
    plan.final_params.in = states;
    plan.final_params.out = out.data();
  }
  launch(runner, plan.kernel == ReduceKernel::rows ? names.rows : names.columns, plan.grid,
         plan.params);
  if (plan.two_pass()) launch(runner, names.final_rows, plan.final_grid, plan.final_params);
}

void run_scan(KernelRunner& runner, ScanOp op, const Array& in, int axis, const Array& out) {
  ScanPlan plan = plan_scan(in.shape(), in.strides(), out.strides(), axis, runner.threads_wanted());
  if (plan.empty()) return;
  const ScanKernelNames n = scan_kernel_names(op, in.dtype(), out.dtype());
  out.buffer()->evaluate_pending_readers();
  plan.params.in = plan.total_params.in = in.data();
  plan.params.in_dtype = plan.total_params.in_dtype = static_cast<int32_t>(in.dtype());
  plan.params.out = out.data();
  Array carries;
  if (plan.params.tiles > 1) {
    void* c = scratch(runner, carries, plan.carry_bytes());
    plan.total_params.partial = plan.carry_params.out = plan.params.carries = c;
    plan.carry_params.in = c;
    launch(runner, plan.total_kernel == ReduceKernel::rows ? n.total_rows : n.total_columns,
           plan.total_grid, plan.total_params);
    launch(runner, plan.carry_kernel == ScanKernel::serial ? n.carry_serial : n.carry_block_rows,
           plan.carry_grid, plan.carry_params);
  }
  const std::string& main = plan.kernel == ScanKernel::serial       ? n.serial
                            : plan.kernel == ScanKernel::block_rows ? n.block_rows
                                                                    : n.tiles;
  launch(runner, main, plan.grid, plan.params);
}

Array run_nonzero(KernelRunner& runner, const Array& x) {
  const int nd = x.ndim();
  NonzeroPlan plan = plan_nonzero(x.shape(), x.strides(), runner.threads_wanted());
  kernels::NonzeroParams& p = plan.params;
  if (p.total == 0) return runner.empty({nd, 0}, Dtype::int64);
  const NonzeroKernelNames n = nonzero_kernel_names(x.dtype());
  const int64_t blocks = plan.grid.x;
  Array counts = runner.empty({blocks}, Dtype::int64);
  p.in = x.data();
  p.counts = counts.data<int64_t>();
  launch(runner, n.count, plan.grid, p);
  // The output's size is the count: it comes back to the host (after the kernel).
  std::vector<int64_t> offsets(static_cast<size_t>(blocks));
  runner.to_host(offsets.data(), p.counts, offsets.size() * sizeof(int64_t));
  int64_t found = 0;
  for (int64_t& c : offsets) {
    const int64_t count = c;
    c = found;
    found += count;
  }
  Array out = runner.empty({nd, found}, Dtype::int64);
  if (nd == 0 || found == 0) return out;  // a 0-d array has a count but no coordinates
  runner.from_host(p.counts, offsets.data(), offsets.size() * sizeof(int64_t));
  p.out = out.data<int64_t>();
  p.found = found;
  launch(runner, n.write, plan.grid, p);
  return out;
}

}  // namespace accel::cuda
