// The CPU's np.interp: interp_at (device_src/interp.h, the CUDA kernel's own code) at every x,
// spread over the thread pool. Intervals are searched kBatch values at a time in step, so the
// searches' dependent loads overlap (a random x into many points misses the cache at every
// step), as cpu::searchsorted does. 64 at a time, measured on 1e6 random values into 1e6 points:
// 8 -> 37-44 ms, 16 -> 28-31, 32 -> 20-24, 64 -> 17.
#include "accel/backend/cpu/interp.h"

#include <algorithm>

#include "accel/backend/cpu/thread_pool.h"

namespace accel::cpu {
namespace {

constexpr int kBatch = 64;

// The intervals of x[0 .. m), m <= kBatch (interp_interval's, in step).
template <int M>
void intervals(const double* x, const double* xp, int64_t n, int m, int64_t* j) {
  const int count = M > 0 ? M : m;
  int64_t base[kBatch] = {};
  for (int64_t len = n; len > 1;) {
    const int64_t half = len / 2;
    for (int b = 0; b < count; ++b)
      base[b] += half * static_cast<int64_t>(x[b] >= xp[base[b] + half]);
    len -= half;
  }
  for (int b = 0; b < count; ++b) j[b] = base[b] - static_cast<int64_t>(!(x[b] >= xp[base[b]]));
}

}  // namespace

void interp(const kernels::InterpParams& p) {
  const double* lo = kernels::interp_end(p, false);
  const double* hi = kernels::interp_end(p, true);
  const int c = p.components;
  parallel_for(p.count, 2048, [&](int64_t k0, int64_t k1) {
    int64_t j[kBatch];
    for (int64_t k = k0; k < k1; k += kBatch) {
      const int m = static_cast<int>(std::min<int64_t>(kBatch, k1 - k));
      if (m == kBatch)
        intervals<kBatch>(p.x + k, p.xp, p.n, m, j);
      else
        intervals<0>(p.x + k, p.xp, p.n, m, j);  // the chunk's last values, as many as remain
      for (int b = 0; b < m; ++b)
        kernels::interp_at(p.x[k + b], j[b], p.xp, p.fp, p.n, c, lo, hi, p.out + (k + b) * c);
    }
  });
}

}  // namespace accel::cpu
