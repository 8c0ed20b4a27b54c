// What the CPU backend's BLAS is: OpenBLAS's build configuration, the kernel family (core) it
// chose for this CPU, and its thread count. For `accel info` and benchmarks: a misdetected
// core silently costs several times in matmul speed.
#pragma once
#include <string>

namespace accel::cpu {

struct BlasInfo {
  std::string config;  // e.g. "OpenBLAS 0.3.21 DYNAMIC_ARCH NO_AFFINITY Haswell MAX_THREADS=64"
  std::string core;    // e.g. "Haswell"
  int threads = 1;
};

BlasInfo blas_info();

}  // namespace accel::cpu
