// A fixed pool of worker threads sized to the cores (ACCEL_NUM_THREADS overrides). Work that
// is too small to pay for a hand-off runs inline on the caller's thread.
#pragma once
#include <cstdint>
#include <functional>

#include "accel/backend/cpu/cpu.h"  // num_threads, set_num_threads

namespace accel::cpu {

// Calls fn(begin, end) over [0, n) split into at most num_threads() chunks of at least
// `grain` items each; returns when all are done. Exceptions from fn are rethrown here.
void parallel_for(int64_t n, int64_t grain, const std::function<void(int64_t, int64_t)>& fn);

}  // namespace accel::cpu
