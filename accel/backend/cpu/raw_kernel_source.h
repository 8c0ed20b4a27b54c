// The source side of user kernels on the CPU (raw_kernel.h): what a CUDA C++ translation unit
// needs before the host compiler sees it. Lines keep their numbers, so compiler messages point
// at the user's lines.
#pragma once
#include <map>
#include <string>
#include <vector>

namespace accel::cpu {

struct PreparedSource {
  std::string text;                  // the source, rewritten
  bool fibers = false;               // it uses barriers or warp functions
  std::vector<std::string> kernels;  // its non-template __global__ functions, by name
  // name -> the arguments of its __launch_bounds__ ("256, 2"), for the kernels at global scope
  // (outside namespaces: the launcher evaluates them there).
  std::map<std::string, std::string> launch_bounds;
};

// Refuses what cannot run on the CPU (CompileError naming the line: inline PTX, textures and
// surfaces, cooperative groups and grid-wide sync, launches from a kernel); drops the includes
// the prelude provides (<cuda_fp16.h>, <cuda_runtime.h>, <cassert>, ...); turns each
// `extern __shared__ T name[];` into a view of the block's dynamic shared memory.
PreparedSource prepare_cuda_source(const std::string& source, const std::string& program_name);

// Checked mode: every single-level pointer parameter of every __global__ function
// (`const float* __restrict__ x`) becomes `::accel_simt::Checked<const float> x`, which checks
// each access against its array's bounds. Lines keep their numbers.
std::string checked_kernel_parameters(const std::string& source);

// The source with every comment and string or character literal replaced by spaces (newlines
// kept), so that scanning for names cannot match inside them.
std::string blank_comments_and_strings(const std::string& source);

}  // namespace accel::cpu
