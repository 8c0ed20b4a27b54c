#include "accel/backend/cuda/builtin_kernels.h"

#include <algorithm>

#include "accel/backend/cuda/devices.h"
#include "accel/device_src/embedded_sources.h"

namespace accel::cuda {
namespace {

std::string without_pragma_once(std::string text) {
  const size_t at = text.find("#pragma once\n");
  if (at != std::string::npos) text.erase(at, 13);
  return text;
}

}  // namespace

std::vector<std::string> builtin_compile_options() { return {"-default-device"}; }

std::string builtin_source(const char* body) {
  return without_pragma_once(embedded::nvrtc_std_cuh) + without_pragma_once(body);
}

BuiltinKernels::BuiltinKernels(std::string source, std::vector<std::string> names,
                               std::string program_name, std::vector<std::string> options)
    : module_(std::move(source), std::move(options), std::move(names),
              std::move(program_name)) {}

Kernel BuiltinKernels::get(const std::string& name, int device) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = kernels_.find({name, device});
  if (it == kernels_.end())
    it = kernels_.emplace(std::make_pair(name, device), module_.function(name, device)).first;
  return it->second;
}

unsigned grid_for(int64_t work, int device) {
  const int64_t wanted = (std::max<int64_t>(work, 1) + kBlockThreads - 1) / kBlockThreads;
  const int64_t cap = int64_t(32) * std::max(device_properties(device).multiprocessor_count, 1);
  return static_cast<unsigned>(std::min(wanted, cap));
}

}  // namespace accel::cuda
