#include "accel/backend/cuda/kernel.h"

#include <algorithm>
#include <cstring>

#include "accel/backend/cuda/devices.h"
#include "accel/backend/cuda/driver.h"
#include "accel/backend/cuda/kernel_check.h"
#include "accel/backend/cuda/nvrtc.h"
#include "accel/backend/cuda/stream_order.h"
#include "accel/runtime/errors.h"

namespace accel::cuda {

namespace {

// A checked pointer parameter as the kernel receives it (Checked<T> in checked_cuda.cuh).
struct CheckedPointer {
  CUdeviceptr p, lo, hi;
  long long arg;
};

// Why the driver may refuse NVRTC's output: the two versions, and what to install.
std::string module_version_note() {
  const DriverApi& d = driver();
  const NvrtcApi& n = nvrtc();
  const int driver_major = d.version / 1000;
  std::string note = "driver " + d.path + " supports CUDA " + cuda_version_string(d.version) +
                     "; NVRTC " + n.version_string() + " (" + n.path + ") produced code for CUDA " +
                     n.version_string() + "; install ";
  if (n.major > driver_major)
    return note + "an NVRTC for CUDA " + std::to_string(driver_major) +
           " (pip install nvidia-cuda-nvrtc-cu" + std::to_string(driver_major) +
           ", or point ACCEL_NVRTC_PATH at it) or a driver for CUDA " + n.version_string() +
           " or newer";
  return note + "a driver for CUDA " + n.version_string() +
         " or newer (https://www.nvidia.com/drivers) if the versions differ, else report this";
}

}  // namespace

std::string Dim3::str() const {
  std::string s = "(";  // appended piecewise: GCC 12 warns falsely (-Wrestrict) on one expression
  s += std::to_string(x);
  s += ", ";
  s += std::to_string(y);
  s += ", ";
  s += std::to_string(z);
  s += ")";
  return s;
}

KernelArgs& KernelArgs::add(const Array& array) {
  array.eval();
  // The kernel may write the array: pending readers of its memory must see the old values.
  array.buffer()->evaluate_pending_readers();
  void* p = array.data();
  Value v;
  v.bytes.assign(reinterpret_cast<const char*>(&p), sizeof p);
  v.what = array.describe();
  v.array = static_cast<int>(arrays_.size());
  arrays_.push_back(array);
  values_.push_back(std::move(v));
  return *this;
}

KernelArgs& KernelArgs::add_scalar(Dtype dtype, const void* value) {
  Value v;
  v.bytes.assign(static_cast<const char*>(value), itemsize(dtype));
  v.what = std::string(dtype_name(dtype)) + " scalar";
  values_.push_back(std::move(v));
  return *this;
}

KernelArgs& KernelArgs::add_bytes(const void* data, size_t size) {
  Value v;
  v.bytes.assign(static_cast<const char*>(data), size);
  v.what = std::to_string(size) + "-byte struct";
  values_.push_back(std::move(v));
  return *this;
}

int current_device() {
  Device d = default_device();
  return d.is_cuda() ? d.index : 0;
}

Module::Impl::~Impl() {
  for (auto& [device, entry] : loaded)
    if (entry.second && try_make_current(device)) driver().cuModuleUnload(entry.second);
}

Module::Module(std::string source, std::vector<std::string> options,
               std::vector<std::string> name_expressions, std::string program_name, bool checked)
    : impl_(std::make_shared<Impl>()) {
  impl_->source = std::move(source);
  impl_->options = std::move(options);
  impl_->name_expressions = std::move(name_expressions);
  impl_->program_name = std::move(program_name);
  impl_->checked = checked;
  if (checked) impl_->checked_source = checked_cuda_source(impl_->source, impl_->program_name);
}

std::shared_ptr<const CompiledModule> Module::compiled(int device) const {
  {
    std::lock_guard<std::mutex> lock(impl_->mutex);
    if (auto it = impl_->loaded.find(device); it != impl_->loaded.end()) return it->second.first;
  }
  CompileOptions o;
  o.device = device;
  o.options = impl_->options;
  o.name_expressions = impl_->name_expressions;
  o.program_name = impl_->program_name;
  return cuda::compile(impl_->checked ? impl_->checked_source.text : impl_->source, o);
}

CUmodule Module::load(int device) const {
  {
    std::lock_guard<std::mutex> lock(impl_->mutex);
    if (auto it = impl_->loaded.find(device); it != impl_->loaded.end() && it->second.second)
      return it->second.second;
  }
  auto compiled_module = compiled(device);
  make_current(device);
  CUmodule mod = nullptr;
  CUresult r = driver().cuModuleLoadData(&mod, compiled_module->image.data());
  if (r != CUDA_SUCCESS)
    throw LaunchError("[" + impl_->program_name + "] loading the module compiled for " +
                      compiled_module->arch + " onto cuda:" + std::to_string(device) +
                      " failed: " + driver().describe(r) + "; " + module_version_note());
  std::lock_guard<std::mutex> lock(impl_->mutex);
  auto& slot = impl_->loaded[device];
  if (slot.second) {  // another thread loaded it meanwhile
    driver().cuModuleUnload(mod);
    return slot.second;
  }
  slot = {compiled_module, mod};
  return mod;
}

Kernel::Kernel(Module module, std::string name, std::string symbol, int device, CUfunction fn)
    : module_(std::move(module)), name_(std::move(name)), symbol_(std::move(symbol)),
      device_(device), fn_(fn), info_(std::make_shared<Info>()) {
  const DriverApi& api = driver();
  if (api.cuFuncGetParamInfo) {
    std::vector<size_t> sizes;
    for (size_t i = 0;; ++i) {
      size_t offset = 0, size = 0;
      CUresult r = api.cuFuncGetParamInfo(fn_, i, &offset, &size);
      if (r == CUDA_ERROR_INVALID_VALUE) {  // past the last parameter
        info_->parameter_sizes = std::move(sizes);
        break;
      }
      if (r != CUDA_SUCCESS) break;  // the driver cannot tell
      sizes.push_back(size);
    }
  }
  auto attribute = [&](int which) {
    int v = 0;
    api.check(api.cuFuncGetAttribute(&v, which, fn_), "cuFuncGetAttribute", "kernel " + name_);
    return v;
  };
  info_->static_shared = static_cast<size_t>(attribute(CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES));
  info_->max_threads = attribute(CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK);
}

void Kernel::opt_in_dynamic_shared(size_t bytes, const std::string& where) const {
  std::lock_guard<std::mutex> lock(info_->mutex);
  if (bytes <= info_->dynamic_shared_opted_in) return;
  const DriverApi& api = driver();
  api.check(api.cuFuncSetAttribute(fn_, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                   static_cast<int>(bytes)),
            "cuFuncSetAttribute", where);
  info_->dynamic_shared_opted_in = bytes;
}

Kernel Module::function(const std::string& name, int device) const {
  if (device < 0) device = current_device();
  CUmodule mod = load(device);
  std::string symbol = name;
  auto compiled_module = compiled(device);
  if (auto it = compiled_module->lowered_names.find(name); it != compiled_module->lowered_names.end())
    symbol = it->second;
  CUfunction fn = nullptr;
  CUresult r = driver().cuModuleGetFunction(&fn, mod, symbol.c_str());
  if (r != CUDA_SUCCESS) {
    std::string hint = name.find('<') != std::string::npos
                           ? "; pass it in name_expressions so NVRTC instantiates the template"
                           : "; is it declared extern \"C\" __global__ (C++ names are mangled)?";
    throw LaunchError("[" + impl_->program_name + "] no kernel named '" + name +
                      "' in the module: " + driver().describe(r) + hint);
  }
  Kernel k(*this, name, symbol, device, fn);
  if (impl_->checked) {
    // Templates are checked by their name without arguments ("axpy<float>" -> "axpy").
    const auto& all = impl_->checked_source.checked_parameters;
    if (auto it = all.find(name.substr(0, name.find('<'))); it != all.end())
      k.info_->checked_parameters = it->second;
    size_t bytes = 0;
    driver().check(driver().cuModuleGetGlobal(&k.info_->check_record, &bytes, mod, kCheckRecordSymbol),
                   "cuModuleGetGlobal", "checked kernel " + name);
  }
  return k;
}

void Kernel::operator()(Dim3 grid, Dim3 block, const KernelArgs& args, size_t shared_mem,
                        std::optional<Stream> stream) const {
  const std::string where = "launch " + name_;
  const DeviceProperties& p = device_properties(device_);
  auto fail = [&](const std::string& what) { throw LaunchError("[" + where + "] " + what); };
  const unsigned g[3] = {grid.x, grid.y, grid.z}, b[3] = {block.x, block.y, block.z};
  for (int d = 0; d < 3; ++d) {
    if (g[d] == 0 || b[d] == 0)
      fail("grid " + grid.str() + " and block " + block.str() + " must have no zero dimension");
    if (b[d] > static_cast<unsigned>(p.max_block_dim[d]))
      fail("block " + block.str() + " exceeds the device's block dimension limit (" +
           std::to_string(p.max_block_dim[0]) + ", " + std::to_string(p.max_block_dim[1]) + ", " +
           std::to_string(p.max_block_dim[2]) + ")");
    if (g[d] > static_cast<unsigned>(p.max_grid_dim[d]))
      fail("grid " + grid.str() + " exceeds the device's grid dimension limit (" +
           std::to_string(p.max_grid_dim[0]) + ", " + std::to_string(p.max_grid_dim[1]) + ", " +
           std::to_string(p.max_grid_dim[2]) + ")");
  }
  uint64_t threads = uint64_t(block.x) * block.y * block.z;
  if (threads > static_cast<uint64_t>(p.max_threads_per_block))
    fail("block " + block.str() + " has " + std::to_string(threads) + " threads; " + p.name +
         " allows at most " + std::to_string(p.max_threads_per_block) + " per block");
  if (threads > static_cast<uint64_t>(info_->max_threads))
    fail("block " + block.str() + " has " + std::to_string(threads) + " threads; the kernel " +
         "allows at most " + std::to_string(info_->max_threads) +
         " per block (its __launch_bounds__, or what its register use leaves)");
  const DriverApi& api = driver();
  make_current(device_);
  // The per-block limits count static and dynamic shared memory together; past the default
  // limit the kernel must opt in (for its dynamic part) before the launch.
  const size_t shared_total = info_->static_shared + shared_mem;
  if (shared_total > static_cast<size_t>(p.max_shared_memory_per_block)) {
    if (shared_total > static_cast<size_t>(p.max_shared_memory_per_block_optin))
      fail(std::to_string(shared_mem) + " bytes of dynamic shared memory requested, " +
           std::to_string(info_->static_shared) + " static in the kernel: " +
           std::to_string(shared_total) + " in all; " + p.name + " allows at most " +
           std::to_string(p.max_shared_memory_per_block_optin) + " per block");
    opt_in_dynamic_shared(shared_mem, where);
  }
  for (const Array& a : args.arrays())
    if (a.device() != Device::cuda(device_))
      fail("an argument is a " + a.describe() + "; kernels on cuda:" + std::to_string(device_) +
           " take arrays on that device (move it with to_device)");
  if (const auto& known = parameter_sizes()) {
    const std::vector<size_t>& sizes = *known;
    if (sizes.size() != args.size())
      fail("the kernel takes " + std::to_string(sizes.size()) + " parameters, but " +
           std::to_string(args.size()) + " arguments were given");
    const std::vector<int>& c = checked_parameters();
    auto passed = [&](size_t i) {
      return std::find(c.begin(), c.end(), static_cast<int>(i)) != c.end() ? sizeof(CheckedPointer)
                                                                             : args.values_[i].bytes.size();
    };
    for (size_t i = 0; i < sizes.size(); ++i)
      if (sizes[i] != passed(i))
        fail("parameter " + std::to_string(i) + " is " + std::to_string(sizes[i]) +
             " bytes, but argument " + std::to_string(i) + " is a " + args.values_[i].what + " (" +
             std::to_string(args.values_[i].bytes.size()) +
             " bytes); pass a scalar of the parameter's type (e.g. numpy.int32(n))");
  }
  std::vector<void*> params;
  params.reserve(args.size());
  for (const auto& v : args.values_) params.push_back(const_cast<char*>(v.bytes.data()));
  // Checked pointers carry their array's bytes and their argument's number (checked_cuda.cuh),
  // with the CPU's bounds: a contiguous array's own elements, other views their buffer's memory.
  std::vector<CheckedPointer> checked(checked_parameters().size());
  for (size_t c = 0; c < checked.size(); ++c) {
    const size_t i = static_cast<size_t>(checked_parameters()[c]);
    if (i >= args.size()) break;  // the count was checked above where the driver can tell
    const KernelArgs::Value& v = args.values_[i];
    if (v.array < 0)
      fail("checked mode: parameter " + std::to_string(i) + " is a pointer, but argument " +
           std::to_string(i) + " is a " + v.what + "; pass an array");
    const Array& a = args.arrays_[static_cast<size_t>(v.array)];
    const auto data = reinterpret_cast<CUdeviceptr>(a.data());
    const auto base = reinterpret_cast<CUdeviceptr>(a.buffer()->data());
    checked[c] = a.is_contiguous() ? CheckedPointer{data, data, data + a.nbytes(), static_cast<long long>(i)}
                                   : CheckedPointer{data, base, base + a.buffer()->nbytes(), static_cast<long long>(i)};
    params[i] = &checked[c];
  }
  Stream s = stream ? *stream : current_stream(device_);
  if (s.device() != device_)
    fail("the stream belongs to cuda:" + std::to_string(s.device()) + ", the kernel to cuda:" +
         std::to_string(device_));
  // The arrays may have been written (uploaded, computed) on another stream.
  order_use(args.arrays(), s);
  make_current(device_);
  CUresult r = api.cuLaunchKernel(fn_, grid.x, grid.y, grid.z, block.x, block.y, block.z,
                                  static_cast<unsigned>(shared_mem), s.handle(), params.data(),
                                  nullptr);
  if (r != CUDA_SUCCESS)
    fail("cuLaunchKernel failed: " + api.describe(r) + " (grid " + grid.str() + ", block " +
         block.str() + ", " + std::to_string(shared_mem) + " bytes of dynamic shared memory)");
  if (info_->check_record) raise_check_record(s);
}

// After a checked launch: wait for it, and raise its first violation (clearing the record for
// the next launch) as the IndexError the CPU gives.
void Kernel::raise_check_record(const Stream& stream) const {
  const DriverApi& api = driver();
  const std::string where = "launch " + name_ + " on cuda:" + std::to_string(device_);
  AccelCheckRecord record{};
  stream.synchronize();
  api.check(api.cuMemcpyDtoHAsync(&record, info_->check_record, sizeof record, stream.handle()),
            "cuMemcpyDtoHAsync", where);
  stream.synchronize();
  if (record.flag == 0) return;
  api.check(api.cuMemsetD8Async(info_->check_record, 0, sizeof record, stream.handle()),
            "cuMemsetD8Async", where);
  stream.synchronize();
  throw IndexError("[" + where + "] " + describe_check_record(record, name_));
}

Kernel raw_kernel(const std::string& source, const std::string& name,
                  std::vector<std::string> options, int device) {
  return Module(source, std::move(options)).function(name, device);
}

}  // namespace accel::cuda
