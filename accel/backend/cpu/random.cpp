// CpuBackend::random: philox.h's draws over element ranges split across the pool. Each element
// computes its own counter (offset + k), so the split does not change a value; the loop body
// is branch-free for the real distributions and vectorises (AVX2/AVX-512 here).
#include "accel/backend/cpu/cpu_backend.h"
#include "accel/backend/cpu/thread_pool.h"
#include "accel/device_src/philox.h"
#include "accel/runtime/errors.h"

namespace accel::cpu {
namespace {

constexpr int64_t kParallelGrain = 16384;

template <class T, int kDistribution>
void fill_range(T* __restrict out, int64_t begin, int64_t end, const philox::DrawParams& p) {
  for (int64_t k = begin; k < end; ++k) out[k] = philox::draw<T, kDistribution>(p, uint64_t(k));
}

template <class T, int kDistribution>
void fill(const Array& out, const philox::DrawParams& p) {
  T* data = out.data<T>();
  parallel_for(out.size(), kParallelGrain,
               [&](int64_t begin, int64_t end) { fill_range<T, kDistribution>(data, begin, end, p); });
}

template <class T>
void fill_integers(const Array& out, const philox::DrawParams& p) {
  fill<T, philox::kIntegers>(out, p);
}

template <class T>
void fill_real(const Array& out, const philox::DrawParams& p) {
  switch (p.distribution) {
    case philox::kUniform:
      return fill<T, philox::kUniform>(out, p);
    case philox::kNormal:
      return fill<T, philox::kNormal>(out, p);
    case philox::kExponential:
      return fill<T, philox::kExponential>(out, p);
    default:
      throw DTypeError("[random] integers cannot be drawn as " + std::string(dtype_name(out.dtype())));
  }
}

}  // namespace

void CpuBackend::random(const Array& out, const philox::DrawParams& params) {
  const Dtype dt = out.dtype();
  if (params.distribution != philox::kIntegers) {
    if (dt == Dtype::float32) return fill_real<float>(out, params);
    if (dt == Dtype::float64) return fill_real<double>(out, params);
    throw DTypeError("[random] real distributions are drawn as float32 or float64, not " +
                     std::string(dtype_name(dt)));
  }
  switch (dt) {
#define ACCEL_DTYPE(name, ctype, str, kind) \
  case Dtype::name:                         \
    if constexpr (std::is_integral_v<ctype>) return fill_integers<ctype>(out, params); \
    else break;
#include "accel/core/dtype.def"
#undef ACCEL_DTYPE
    default:
      break;
  }
  throw DTypeError("[random] integers are drawn as an integer dtype or bool, not " +
                   std::string(dtype_name(dt)));
}

}  // namespace accel::cpu
