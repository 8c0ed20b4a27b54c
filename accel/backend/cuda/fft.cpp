#include "accel/backend/cuda/fft.h"

#include <algorithm>
#include <memory>
#include <mutex>
#include <string>

#include "accel/backend/cuda/devices.h"
#include "accel/backend/cuda/memory.h"
#include "accel/backend/cuda/plan_cache.h"
#include "accel/backend/cuda/stream.h"
#include "accel/runtime/errors.h"

namespace accel::cuda {
namespace {

// Plans kept at once, over all devices; each holds cuFFT's twiddle tables (a few times n bytes).
constexpr size_t kPlanCapacity = 64;

struct CufftPlan {
  cufftHandle handle = -1;
  int device = 0;
  size_t work_size = 0;
  std::mutex mutex;  // keeps the stream and work area from changing between setting and exec
  CufftPlan() = default;
  CufftPlan(const CufftPlan&) = delete;
  CufftPlan& operator=(const CufftPlan&) = delete;
  // cufftDestroy frees the tables with cudaFree, which waits for the device, so queued transforms
  // finish first. Failures are ignored: there is nothing to do about them in a destructor.
  ~CufftPlan() {
    if (handle >= 0 && try_make_current(device)) cufft().destroy(handle);
  }
};

using FftPlans = PlanCache<FftPlanKey, CufftPlan>;

void release_under_pressure(int device) { release_fft_plans(device); }

FftPlans& plans() {
  // Never destroyed: cufftDestroy after the primary context is gone (at exit) would fail, and
  // the driver frees everything with the process.
  static FftPlans* p = [] {
    add_memory_pressure_hook(&release_under_pressure);
    return new FftPlans(kPlanCapacity);
  }();
  return *p;
}

std::shared_ptr<CufftPlan> make_plan(const CufftApi& api, const FftPlanKey& key, FftKind kind) {
  const std::string where = "fft cuda:" + std::to_string(key.device);
  auto plan = std::make_shared<CufftPlan>();
  plan->device = key.device;
  api.check(api.create(&plan->handle), "cufftCreate", where);
  // The work area is accel's (set per call), not one cuFFT would hold for the plan's lifetime.
  api.check(api.set_auto_allocation(plan->handle, 0), "cufftSetAutoAllocation", where);
  long long n = key.n;
  long long in_length = fft_input_length(kind, key.n), out_length = fft_output_length(kind, key.n);
  api.check(api.make_plan_many64(plan->handle, 1, &n, &in_length, 1, in_length, &out_length, 1,
                                 out_length, key.type, key.batch, &plan->work_size),
            "cufftMakePlanMany64", where);
  return plan;
}

void execute(const CufftApi& api, CufftPlan& plan, cufftType type, bool forward, void* in,
             void* out) {
  const std::string where = "fft cuda:" + std::to_string(plan.device);
  const Stream stream = current_stream(plan.device);
  // Stream-ordered: the block goes back to the pool after the call and is reused only by later
  // work on this stream.
  std::shared_ptr<Buffer> work = plan.work_size ? allocate(plan.device, plan.work_size) : nullptr;
  std::lock_guard<std::mutex> lock(plan.mutex);
  api.check(api.set_stream(plan.handle, stream.handle()), "cufftSetStream", where);
  api.check(api.set_work_area(plan.handle, work ? work->data() : nullptr), "cufftSetWorkArea",
            where);
  const int direction = forward ? kCufftForward : kCufftInverse;
  switch (type) {
    case kCufftC2C:
      return api.check(api.exec_c2c(plan.handle, in, out, direction), "cufftExecC2C", where);
    case kCufftZ2Z:
      return api.check(api.exec_z2z(plan.handle, in, out, direction), "cufftExecZ2Z", where);
    case kCufftR2C:
      return api.check(api.exec_r2c(plan.handle, in, out), "cufftExecR2C", where);
    case kCufftD2Z:
      return api.check(api.exec_d2z(plan.handle, in, out), "cufftExecD2Z", where);
    case kCufftC2R:
      return api.check(api.exec_c2r(plan.handle, in, out), "cufftExecC2R", where);
    case kCufftZ2D:
      return api.check(api.exec_z2d(plan.handle, in, out), "cufftExecZ2D", where);
    default:
      throw Error("[" + where + "] no cuFFT transform of type " + std::to_string(type));
  }
}

}  // namespace

cufftType cufft_type(FftKind kind, bool double_precision) {
  switch (kind) {
    case FftKind::complex:
      return double_precision ? kCufftZ2Z : kCufftC2C;
    case FftKind::real_forward:
      return double_precision ? kCufftD2Z : kCufftR2C;
    case FftKind::real_backward:
      return double_precision ? kCufftZ2D : kCufftC2R;
  }
  return kCufftC2C;
}

int64_t fft_input_length(FftKind kind, int64_t n) {
  return kind == FftKind::real_backward ? n / 2 + 1 : n;
}

int64_t fft_output_length(FftKind kind, int64_t n) {
  return kind == FftKind::real_forward ? n / 2 + 1 : n;
}

size_t release_fft_plans(int device) noexcept {
  try {
    return plans().release(device);
  } catch (...) {
    return 0;
  }
}

size_t cached_fft_plans() { return plans().size(); }

void cufft_lines(int device, FftKind kind, bool double_precision, int64_t n, int64_t batch,
                 bool forward, void* in, void* out) {
  if (batch == 0) return;
  const CufftApi& api = cufft();
  make_current(device);  // cuFFT (the CUDA runtime) works in the current context: the primary one
  const cufftType type = cufft_type(kind, double_precision);
  const FftPlanKey key{device, n, type, batch};
  const auto plan = plans().get(key, [&] { return make_plan(api, key, kind); });
  execute(api, *plan, type, forward, in, out);
}

}  // namespace accel::cuda
