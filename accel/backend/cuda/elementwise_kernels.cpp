#include "accel/backend/cuda/elementwise_kernels.h"

#include <memory>
#include <mutex>

#include "accel/backend/common/coalesce.h"
#include "accel/backend/common/kernel_table.h"
#include "accel/backend/cuda/devices.h"
#include "accel/backend/cuda/elementwise_layout.h"
#include "accel/backend/cuda/kernel.h"
#include "accel/backend/cuda/memory.h"
#include "accel/codegen/emit.h"
#include "accel/runtime/errors.h"

namespace accel::cuda {
namespace {

// Kernel parameters are limited to 4 KiB before CUDA 12.1 and Volta: 55 operands.
constexpr size_t kMaxArgsBytes = 4096;

// One table for every device, keyed by the full IR (plan::KernelTable): a 64-bit hash collision
// must not run another program's code.
struct KernelTable {
  std::mutex mutex;
  plan::KernelTable<std::shared_ptr<const Kernel>> kernels;
};
KernelTable& table() {
  static auto* t = new KernelTable();  // never destroyed: modules outlive static teardown
  return *t;
}

const Kernel& kernel_for(int device, const ir::KernelIR& ir) {
  KernelTable& t = table();
  {
    std::lock_guard<std::mutex> lock(t.mutex);
    if (auto* k = t.kernels.find(device, ir)) return **k;
  }
  // Compiled outside the lock: NVRTC takes a while, and other kernels may be wanted meanwhile.
  Module module(codegen::emit_kernel(ir, codegen::cuda_dialect()), generated_kernel_options(), {},
                ir.name() + ".cu");
  auto kernel = std::make_shared<const Kernel>(module.function(ir.name(), device));
  std::lock_guard<std::mutex> lock(t.mutex);
  return *t.kernels.insert(device, ir, std::move(kernel));  // another thread's, if it got there first
}

void check_operand(const Array& a, const Shape& shape, Dtype dtype, Device device,
                   const char* role, size_t k, const ir::KernelIR& ir) {
  if (a.device() != device)
    throw DeviceError("[" + ir.name() + "] " + role + " " + std::to_string(k) + " is a " +
                      a.describe() + "; the kernel runs on " + device.str());
  if (a.dtype() != dtype || a.shape() != shape)
    throw ValueError("[" + ir.name() + "] " + role + " " + std::to_string(k) + " is a " +
                     a.describe() + "; the kernel takes " + dtype_name(dtype) + " of shape " +
                     shape_str(shape));
}

// A by-value input: a Python number still on the host (or a 0-d array in host memory, as the
// emulator tests pass), its value converted to the operand's dtype by the CPU's one-element
// conversion (scalar::convert, as its cast loop and fused kernels).
ByValueParam by_value_param(const Array& a, Dtype dtype, Device device, size_t k,
                            const ir::KernelIR& ir) {
  const Array* host = a.host_constant();
  if (a.device() != device || a.ndim() != 0 || (!host && !a.device().is_cpu()))
    throw ValueError("[" + ir.name() + "] input " + std::to_string(k) +
                     " is passed by value but is a " + a.describe() + " (not a Python number of " +
                     device.str() + " kept on the host)");
  ByValueParam p{dtype, std::string(itemsize(dtype), '\0')};
  (host ? *host : a).copy_to_host(p.bytes.data(), dtype);
  return p;
}

}  // namespace

const std::vector<std::string>& generated_kernel_options() {
  static const std::vector<std::string> options = {"-default-device", "--fmad=false"};
  return options;
}

ir::KernelIR op_kernel_ir(OpId op, Dtype compute, Dtype out) {
  ir::KernelIR k;
  const int arity = op_info(op).arity;
  for (int a = 0; a < arity; ++a) {
    k.inputs.push_back({compute, ir::Layout::contiguous});
    k.instrs.push_back({ir::InstrKind::load, OpId::cast, compute, compute, {a, -1, -1}});
  }
  const Dtype result = op_output_dtype(op, compute);
  k.instrs.push_back({ir::InstrKind::op, op, result, compute, {0, arity > 1 ? 1 : -1, arity > 2 ? 2 : -1}});
  if (result != out)
    k.instrs.push_back({ir::InstrKind::cast, OpId::cast, out, result, {arity, -1, -1}});
  k.outputs.push_back({out, ir::Layout::contiguous});
  k.results.push_back(static_cast<int32_t>(k.instrs.size() - 1));
  return k;
}

ir::KernelIR cast_kernel_ir(Dtype from, Dtype to) {
  ir::KernelIR k;
  k.inputs.push_back({from, ir::Layout::contiguous});
  k.instrs.push_back({ir::InstrKind::load, OpId::cast, from, from, {0, -1, -1}});
  // Kept as an instruction even for one dtype: outputs are stored from computed values.
  k.instrs.push_back({ir::InstrKind::cast, OpId::cast, to, from, {0, -1, -1}});
  k.outputs.push_back({to, ir::Layout::contiguous});
  k.results.push_back(1);
  return k;
}

std::optional<GeneratedLaunch> plan_generated_kernel(ir::KernelIR ir, std::span<const Array> inputs,
                                                     std::span<const Array> outputs) {
  const size_t nin = inputs.size();
  if (nin != ir.inputs.size() || outputs.size() != ir.outputs.size() || outputs.empty())
    throw ValueError("[" + ir.name() + "] takes " + std::to_string(ir.inputs.size()) + " inputs and " +
                     std::to_string(ir.outputs.size()) + " outputs; got " + std::to_string(nin) +
                     " and " + std::to_string(outputs.size()));
  const Shape& shape = outputs[0].shape();
  const Device device = outputs[0].device();
  GeneratedLaunch launch;
  // Operands in memory (inputs but the by-value ones, then outputs): the args struct's.
  std::vector<const Array*> in_memory;
  std::vector<size_t> memory_input;  // in_memory[j]'s input index, for inputs
  size_t param_bytes = 0;
  for (size_t k = 0; k < nin; ++k) {
    if (ir.inputs[k].layout == ir::Layout::by_value) {
      launch.values.push_back(by_value_param(inputs[k], ir.inputs[k].dtype, device, k, ir));
      param_bytes += 16;  // at most, with its alignment
      continue;
    }
    check_operand(inputs[k], shape, ir.inputs[k].dtype, device, "input", k, ir);
    in_memory.push_back(&inputs[k]);
    memory_input.push_back(k);
  }
  for (size_t k = 0; k < outputs.size(); ++k) {
    check_operand(outputs[k], shape, ir.outputs[k].dtype, device, "output", k, ir);
    in_memory.push_back(&outputs[k]);
  }
  const size_t nops = in_memory.size(), nin_memory = memory_input.size();
  if (args_size(nops) + param_bytes > kMaxArgsBytes) return std::nullopt;
  if (shape_size(shape) == 0) {
    launch.ir = std::move(ir);
    return launch;
  }
  std::vector<char*> ptrs;
  std::vector<Strides> strides;
  ptrs.reserve(nops);
  strides.reserve(nops);
  for (const Array* a : in_memory) {
    ptrs.push_back(static_cast<char*>(a->data()));
    Strides s = a->strides();
    for (int64_t& x : s) x *= static_cast<int64_t>(a->itemsize());
    strides.push_back(std::move(s));
  }
  Shape walk = shape;  // in the first output's memory order (ops/result_layout.h)
  plan::order_axes(walk, strides, nin_memory);
  const LoopLayout layout = simplify_layout(walk, std::move(strides));
  for (size_t j = 0; j < nin_memory; ++j)
    ir.inputs[memory_input[j]].layout =
        input_layout_of(layout, j, static_cast<int64_t>(in_memory[j]->itemsize()));
  for (size_t k = 0; k < outputs.size(); ++k)
    ir.outputs[k].layout =
        output_layout_of(layout, nin_memory + k, static_cast<int64_t>(outputs[k].itemsize()));
  launch.ir = std::move(ir);
  for_each_launch(layout, [&](const std::vector<int64_t>& offsets, const LoopLayout& part) {
    std::vector<char*> at = ptrs;
    for (size_t k = 0; k < nops; ++k) at[k] += offsets[k];
    launch.args.push_back(pack_args(at, part));
    launch.sizes.push_back(part.size());
  });
  return launch;
}

bool run_generated_kernel(int device, ir::KernelIR ir, std::span<const Array> inputs,
                          std::span<const Array> outputs) {
  if (!outputs.empty() && outputs[0].device() != Device::cuda(device))
    throw DeviceError("[" + ir.name() + "] output 0 is a " + outputs[0].describe() +
                      "; the kernel runs on cuda:" + std::to_string(device));
  std::optional<GeneratedLaunch> launch = plan_generated_kernel(std::move(ir), inputs, outputs);
  if (!launch) return false;
  if (launch->args.empty()) return true;
  const Kernel& kernel = kernel_for(device, launch->ir);
  const int sms = device_properties(device).multiprocessor_count;
  for (size_t part = 0; part < launch->args.size(); ++part) {
    KernelArgs args;
    args.add_bytes(launch->args[part].data(), launch->args[part].size());
    for (const ByValueParam& v : launch->values) args.add_scalar(v.dtype, v.bytes.data());
    kernel(Dim3{grid_blocks(launch->sizes[part], sms)}, Dim3{kElementwiseBlock}, args);
  }
  return true;
}

std::string arange_source() {
  // NumPy's arange fill loop (as the CPU backend's fill_sequence): element i is
  // first + i * (second - first) in the dtype, a multiply then an add (compiled without FMA
  // contraction), integers wrapping around through uint64, complex parts separately, float16
  // and bfloat16 in float rounded once per element.
  return codegen::emit_prelude(codegen::cuda_dialect()) + R"(
template <class T>
__global__ void accel_arange(T* out, T first, T second, int64_t n) {
  for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += (int64_t)blockDim.x * gridDim.x) {
    T v;
    if (i < 2) {
      v = i == 0 ? first : second;
    } else if constexpr (accel::scalar::is_int<T>) {
      const uint64_t d = (uint64_t)(T)(second - first);
      v = (T)((uint64_t)first + (uint64_t)i * d);
    } else if constexpr (accel::scalar::is_narrow<T>) {
      const float f = accel::scalar::convert<float>(first);
      v = accel::scalar::convert<T>(f + (float)i * (accel::scalar::convert<float>(second) - f));
    } else if constexpr (accel::scalar::is_cplx<T>) {
      using R = accel::scalar::real_of_t<T>;
      const R r = (R)i;
      v = T(first.real() + r * (second.real() - first.real()),
            first.imag() + r * (second.imag() - first.imag()));
    } else {
      v = first + (T)i * (second - first);
    }
    out[i] = v;
  }
}
)";
}

std::string arange_name(Dtype dtype) {
  return std::string("accel_arange<") + codegen::c_type(dtype) + ">";
}

std::vector<std::string> arange_names() {
  std::vector<std::string> names;
  for (int i = 0; i < kNumDtypes; ++i)
    if (static_cast<Dtype>(i) != Dtype::bool_) names.push_back(arange_name(static_cast<Dtype>(i)));
  return names;
}

void run_arange(int device, const Array& out, const void* first, const void* second) {
  const int64_t n = out.size();
  if (n == 0) return;
  const size_t item = out.itemsize();
  if (n <= 2) {  // includes bool, which NumPy allows only this far
    Stream stream = current_stream(device);
    auto* dst = static_cast<char*>(out.data());
    copy_async(dst, first, item, CopyKind::host_to_device, stream);
    if (n == 2) copy_async(dst + item, second, item, CopyKind::host_to_device, stream);
    return;
  }
  // Never destroyed: unloading modules during static teardown would race the driver's own.
  // Kernels are looked up once per (dtype, device): the lookup asks the driver about them.
  struct Table {
    Module module{arange_source(), generated_kernel_options(), arange_names(), "accel_arange.cu"};
    std::mutex mutex;
    std::map<std::pair<Dtype, int>, Kernel> kernels;
  };
  static auto* table = new Table();
  std::unique_lock<std::mutex> lock(table->mutex);
  auto it = table->kernels.find({out.dtype(), device});
  if (it == table->kernels.end())
    it = table->kernels.emplace(std::pair{out.dtype(), device},
                                table->module.function(arange_name(out.dtype()), device)).first;
  const Kernel kernel = it->second;
  lock.unlock();
  KernelArgs args;
  args.add(out);
  args.add_scalar(out.dtype(), first);
  args.add_scalar(out.dtype(), second);
  args.add(n);
  kernel(Dim3{grid_blocks(n, device_properties(device).multiprocessor_count)},
         Dim3{kElementwiseBlock}, args);
}

}  // namespace accel::cuda
