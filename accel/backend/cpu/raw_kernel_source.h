// The source side of user kernels on the CPU (raw_kernel.h): what a CUDA C++ translation unit
// needs before the host compiler sees it. Lines keep their numbers, so compiler messages point
// at the user's lines.
#pragma once
#include <map>
#include <string>
#include <vector>

#include "accel/backend/common/checked_source.h"

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

// Checked mode's shared-memory race detection (device_src/simt_cpu_races.h), on a prepared
// source: each static `__shared__ T a[N][M], b[K];` becomes `__shared__
// ::accel_simt::SharedArray<T[N][M]> a{{}, "a"}; ...`, each dynamic shared array a SharedView,
// so that every element access is recorded. Declarations of other forms (scalars, pointers)
// stay as they are. Lines keep their numbers.
std::string instrument_shared_memory(const std::string& prepared);

// Shared with the CUDA backend (checked mode's transformation, the blanked copy for scans).
using plan::blank_comments_and_strings;
using plan::checked_kernel_parameters;

}  // namespace accel::cpu
