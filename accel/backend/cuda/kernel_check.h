// Checked mode on a GPU (docs/ARCHITECTURE.md, "Checked mode"): the NVRTC source of a checked
// module (the same transformation as the CPU's, over the GPU's Checked<T>) and the reading of the
// device-side error record a checked launch leaves.
#pragma once
#include <string>

#include "accel/backend/common/checked_source.h"
#include "accel/device_src/check_record.h"

namespace accel::cuda {

using plan::CheckedSource;

// check_record.h + checked_cuda.cuh + the source with its pointer parameters checked; the user's
// lines keep their numbers (`#line 1 "<program_name>"`).
plan::CheckedSource checked_cuda_source(const std::string& source, const std::string& program_name);

// "kernel K, block (x, y, z), thread (x, y, z): index I is out of bounds for argument A (S
// elements)", the CPU's words for the same violation.
std::string describe_check_record(const AccelCheckRecord& record, const std::string& kernel);

// The symbol of the record in a checked module (cuModuleGetGlobal).
inline constexpr const char* kCheckRecordSymbol = "accel_check_record";

}  // namespace accel::cuda
