// Checked mode's source transformation, one for both backends: every pointer parameter of every
// __global__ function becomes `::accel_simt::Checked<T>`, which checks each access against its
// array's bounds. The CPU's prelude (device_src/simt_cpu.h) and the GPU's
// (device_src/checked_cuda.cuh) define Checked<T> alike, so the check lives in the generated
// code, not in a tool, and a launch packs the same {pointer, lo, hi, argument} on either.
#pragma once
#include <map>
#include <string>
#include <vector>

namespace accel::plan {

struct CheckedSource {
  std::string text;  // the source, rewritten; lines keep their numbers
  // kernel name (a template's without its arguments) -> the numbers of its parameters that
  // became Checked<T>: the launch passes those as {pointer, lo, hi, argument}
  std::map<std::string, std::vector<int>> checked_parameters;
};

// Single-level pointer parameters (`const float* __restrict__ x`) become
// `::accel_simt::Checked<const float> x`.
CheckedSource checked_kernel_parameters(const std::string& source);

// The source with every comment and string or character literal replaced by spaces (newlines
// kept), so that scanning for names cannot match inside them.
std::string blank_comments_and_strings(const std::string& source);

}  // namespace accel::plan
