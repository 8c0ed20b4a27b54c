#include "accel/backend/cuda/kernel_check.h"

#include "accel/device_src/embedded_sources.h"

namespace accel::cuda {

plan::CheckedSource checked_cuda_source(const std::string& source, const std::string& program_name) {
  plan::CheckedSource out = plan::checked_kernel_parameters(source);
  std::string record = embedded::check_record_h;
  record.erase(record.find("#pragma once\n"), 13);  // NVRTC warns of it in the main file
  out.text = record + embedded::checked_cuda_cuh + "\n#line 1 \"" +
             program_name + "\"\n" + out.text;
  return out;
}

std::string describe_check_record(const AccelCheckRecord& r, const std::string& kernel) {
  auto triple = [](const unsigned v[3]) {
    return "(" + std::to_string(v[0]) + ", " + std::to_string(v[1]) + ", " + std::to_string(v[2]) + ")";
  };
  return "kernel " + kernel + ", block " + triple(r.block) + ", thread " + triple(r.thread) +
         ": index " + std::to_string(r.index) + " is out of bounds for argument " +
         std::to_string(r.arg) + " (" + std::to_string(r.size) + " elements)";
}

}  // namespace accel::cuda
