// The CPU's np.interp: interp_at (device_src/interp.h, the CUDA kernel's own code) at every x,
// spread over the thread pool. Intervals are searched kBatch values at a time in step, so the
// searches' dependent loads overlap (a random x into many points misses the cache at every
// step), as cpu::searchsorted does.
#include "accel/backend/cpu/interp.h"

#include "accel/backend/cpu/thread_pool.h"

namespace accel::cpu {
namespace {

constexpr int kBatch = 8;

// The intervals of x[0 .. kBatch) (interp_interval's, in step).
void intervals(const double* x, const double* xp, int64_t n, int64_t* j) {
  int64_t base[kBatch] = {};
  for (int64_t len = n; len > 1;) {
    const int64_t half = len / 2;
    for (int b = 0; b < kBatch; ++b)
      base[b] += half * static_cast<int64_t>(x[b] >= xp[base[b] + half]);
    len -= half;
  }
  for (int b = 0; b < kBatch; ++b) j[b] = base[b] - static_cast<int64_t>(!(x[b] >= xp[base[b]]));
}

}  // namespace

void interp(const kernels::InterpParams& p) {
  const double* lo = kernels::interp_end(p, false);
  const double* hi = kernels::interp_end(p, true);
  const int c = p.components;
  parallel_for(p.count, 2048, [&](int64_t k0, int64_t k1) {
    int64_t k = k0;
    for (int64_t j[kBatch]; k + kBatch <= k1; k += kBatch) {
      intervals(p.x + k, p.xp, p.n, j);
      for (int b = 0; b < kBatch; ++b)
        kernels::interp_at(p.x[k + b], j[b], p.xp, p.fp, p.n, c, lo, hi, p.out + (k + b) * c);
    }
    for (; k < k1; ++k) kernels::interp_point(p.x[k], p.xp, p.fp, p.n, c, lo, hi, p.out + k * c);
  });
}

}  // namespace accel::cpu
