// A fixed pool of worker threads sized to the cores (ACCEL_NUM_THREADS overrides). Work that
// is too small to pay for a hand-off runs inline on the caller's thread.
#pragma once
#include <cstdint>
#include <functional>
#include <utility>

#include "accel/backend/cpu/cpu.h"  // num_threads, set_num_threads

namespace accel::cpu {

namespace detail {
void parallel_for_chunks(int64_t n, int64_t grain,
                         const std::function<void(int64_t, int64_t)>& fn);
}

// Calls fn(begin, end) over [0, n) split into at most num_threads() chunks of at least
// `grain` items each; returns when all are done. Exceptions from fn are rethrown here.
// Work of one chunk runs here at once, without wrapping fn in a std::function (whose
// captures past 16 bytes cost a heap allocation: most of a small fill or copy).
template <class F> void parallel_for(int64_t n, int64_t grain, F&& fn) {
  if (n <= 0) return;
  if (n <= grain) {
    fn(int64_t{0}, n);
    return;
  }
  detail::parallel_for_chunks(n, grain, std::function<void(int64_t, int64_t)>(std::ref(fn)));
}

}  // namespace accel::cpu
