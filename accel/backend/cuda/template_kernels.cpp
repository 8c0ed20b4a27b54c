#include "accel/backend/cuda/template_kernels.h"

#include <algorithm>
#include <map>
#include <memory>
#include <mutex>

#include "accel/backend/cuda/cuda_backend.h"
#include "accel/backend/cuda/devices.h"
#include "accel/backend/cuda/elementwise_kernels.h"
#include "accel/backend/cuda/elementwise_layout.h"
#include "accel/backend/cuda/kernel.h"
#include "accel/backend/cuda/stream_order.h"
#include "accel/codegen/dialect.h"
#include "accel/runtime/errors.h"

namespace accel::cuda {
namespace {

// Kernel parameters are limited to 4 KiB before CUDA 12.1 and Volta.
constexpr size_t kMaxArgsBytes = 4096;
constexpr unsigned kReductionBlock = 256;  // the dialect's reduction kernel assumes it

const Kernel& template_kernel_for(int device, const codegen::TemplateKernel& k) {
  static std::mutex mutex;
  // Never destroyed: unloading modules during static teardown would race the driver's own.
  static auto* table = new std::map<std::pair<int, std::string>, std::unique_ptr<const Kernel>>();
  std::string source = template_source(k);
  const std::vector<std::string> options = template_options(k);
  std::string key = source;
  for (const std::string& o : options) key += "\n//" + o;
  {
    std::lock_guard<std::mutex> lock(mutex);
    if (auto it = table->find({device, key}); it != table->end()) return *it->second;
  }
  Module module(std::move(source), options, {}, k.name + ".cu");
  auto kernel = std::make_unique<const Kernel>(module.function(k.name, device));
  std::lock_guard<std::mutex> lock(mutex);
  return *table->emplace(std::make_pair(device, std::move(key)), std::move(kernel)).first->second;
}

}  // namespace

std::string template_source(const codegen::TemplateKernel& k) {
  return codegen::emit_template_kernel(k, codegen::cuda_dialect());
}

std::vector<std::string> template_options(const codegen::TemplateKernel& k) {
  std::vector<std::string> options = generated_kernel_options();
  options.insert(options.end(), k.options.begin(), k.options.end());
  return options;
}

void run_template_kernel(int device, const codegen::TemplateLaunch& launch) {
  const size_t bytes = launch.args.size() * sizeof(int64_t);
  if (bytes > kMaxArgsBytes)
    throw LaunchError("[" + launch.kernel.name + "] " +
                      std::to_string(launch.kernel.params.size()) + " parameters need " +
                      std::to_string(bytes) + " bytes of kernel arguments; CUDA takes at most " +
                      std::to_string(kMaxArgsBytes));
  if (launch.n == 0) return;
  const Kernel& kernel = template_kernel_for(device, launch.kernel);
  KernelArgs args;
  args.add_bytes(launch.args.data(), bytes);
  const int sms = device_properties(device).multiprocessor_count;
  if (launch.kernel.is_reduction()) {
    const int64_t blocks = std::min<int64_t>(launch.n, int64_t{std::max(sms, 1)} * 8);
    kernel(Dim3{static_cast<unsigned>(blocks)}, Dim3{kReductionBlock}, args);
  } else {
    kernel(Dim3{grid_blocks(launch.n, sms)}, Dim3{kElementwiseBlock}, args);
  }
}

void CudaBackend::run_template(const codegen::TemplateLaunch& launch) {
  // The args begin with the operands' device addresses (codegen/template_kernel.h), which may
  // have been used last on another stream (stream_order.h).
  const Stream stream = current_stream(index_);
  for (size_t k = 0; k < launch.kernel.params.size() && k < launch.args.size(); ++k)
    order_use(index_, reinterpret_cast<const void*>(launch.args[k]), stream);
  run_template_kernel(index_, launch);
}

}  // namespace accel::cuda
