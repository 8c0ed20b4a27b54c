#include "accel/backend/profiling_backend.h"

#include <algorithm>
#include <charconv>
#include <map>
#include <mutex>
#include <optional>

#include "accel/backend/cuda/memory.h"
#include "accel/backend/cuda/stream.h"
#include "accel/codegen/template_kernel.h"
#include "accel/ir/kernel_ir.h"
#include "accel/runtime/errors.h"
#include "accel/runtime/profiler.h"

namespace accel {
namespace {

using profile::Event;
using profile::EventKind;

// Bytes the operand occupies: a broadcast axis (stride 0) is read once, not once per element.
int64_t distinct_bytes(const Array& a) {
  int64_t n = 1;
  for (int d = 0; d < a.ndim(); ++d)
    if (a.strides()[d] != 0) n *= a.shape()[d];
  return a.size() == 0 ? 0 : n * static_cast<int64_t>(a.itemsize());
}

bool is_float64(Dtype dt) { return dt == Dtype::float64 || dt == Dtype::complex128; }

// A broadcast scalar (a Python number) is named as one: it is read once, whatever its shape.
bool is_scalar(const Array& a) {
  return std::all_of(a.strides().begin(), a.strides().end(), [](int64_t s) { return s == 0; });
}

// GPU times: a pair of CUDA events around each kernel, read when the session stops (reading
// them at once would synchronize after every launch and change what is measured).
struct GpuTimer {
  int64_t kernel_id;
  cuda::Event begin, end;
};
std::mutex g_gpu_mutex;
std::vector<GpuTimer>& gpu_timers() {
  static auto* t = new std::vector<GpuTimer>;
  return *t;
}

void resolve_gpu_times(std::vector<Event>& events) {
  std::vector<GpuTimer> timers;
  {
    std::lock_guard<std::mutex> lock(g_gpu_mutex);
    timers.swap(gpu_timers());
  }
  if (timers.empty()) return;
  std::map<int64_t, Event*> by_id;
  for (Event& e : events)
    if (e.kind == EventKind::kernel) by_id[e.id] = &e;
  for (GpuTimer& t : timers) {
    auto it = by_id.find(t.kernel_id);
    if (it == by_id.end()) continue;
    try {
      it->second->gpu_ns = static_cast<int64_t>(t.begin.elapsed_ms(t.end) * 1e6);
    } catch (const std::exception&) {
      // A failed kernel leaves its events unusable: its device time stays unknown (-1).
    }
  }
}

// One backend call being recorded: operands go into the event as they are named, the timing
// (and on CUDA the event pair) spans the object's lifetime.
class KernelRecord {
 public:
  KernelRecord(Device device, std::string name) : scope_(EventKind::kernel, std::move(name)) {
    Event& e = scope_.event();
    e.device = device.is_cpu() ? -1 : device.index;
    e.id = profile::next_id();
    e.region = profile::current_region();
    if (!device.is_cpu()) {
      cuda::Stream s = cuda::current_stream(device.index);
      e.stream = static_cast<int64_t>(s.id());
      timer_.emplace(
          GpuTimer{e.id, cuda::Event::create(device.index), cuda::Event::create(device.index)});
      timer_->begin.record(s);
    }
  }
  ~KernelRecord() {
    if (!timer_) return;
    try {
      timer_->end.record(cuda::current_stream(timer_->begin.device()));
      std::lock_guard<std::mutex> lock(g_gpu_mutex);
      gpu_timers().push_back(std::move(*timer_));
    } catch (const std::exception&) {
      // A sticky CUDA error is the kernel's to report; its time stays unknown.
    }
  }
  KernelRecord& in(const Array& a) { return operand(a, true); }
  KernelRecord& in(std::span<const Array> arrays) {
    for (const Array& a : arrays) operand(a, true);
    return *this;
  }
  KernelRecord& out(const Array& a) {
    operand(a, false);
    scope_.event().elements = a.size();
    return *this;
  }
  KernelRecord& flops(int64_t n) {
    scope_.event().flops = n;
    return *this;
  }
  KernelRecord& flag(uint32_t f) {
    scope_.event().flags |= f;
    return *this;
  }

 private:
  KernelRecord& operand(const Array& a, bool input) {
    Event& e = scope_.event();
    e.bytes += distinct_bytes(a);
    if (is_float64(a.dtype()) && !is_scalar(a)) e.flags |= profile::kFloat64;
    if (e.detail.empty()) e.detail.reserve(96);
    if (!e.detail.empty())
      e.detail += input ? ", " : " -> ";
    else if (!input)
      e.detail += "-> ";
    append_operand(e.detail, a);
    return *this;
  }

  profile::Scope scope_;
  std::optional<GpuTimer> timer_;
};

std::string fused_name(const ir::KernelIR& ir, int64_t* ops) {
  std::string name;
  for (const ir::Instr& in : ir.instrs) {
    if (in.kind != ir::InstrKind::op) continue;
    name += (name.empty() ? "" : "+");
    name += op_name(in.op);
    ++*ops;
  }
  return "fused(" + (name.empty() ? std::string("copy") : name) + ")";
}

const char* reduce_name(ReduceOp op) {
  static constexpr const char* names[] = {"sum", "prod", "min",    "max",
                                          "any", "all",  "argmin", "argmax"};
  return names[static_cast<size_t>(op)];
}

class ProfilingBackend final : public Backend {
 public:
  explicit ProfilingBackend(Backend& inner) : inner_(inner) {}

  Device device() const override { return inner_.device(); }

  std::shared_ptr<Buffer> allocate(size_t nbytes) override {
    const MemoryStats before = inner_.memory_stats();
    profile::Scope s(EventKind::alloc, device().str());
    Event& e = s.event();
    e.device = device_number();
    e.bytes = static_cast<int64_t>(nbytes);
    // Read after the attempt, failed (the event records the out-of-memory) or not.
    auto note = [&] {
      const MemoryStats after = inner_.memory_stats();
      e.in_use = static_cast<int64_t>(after.in_use);
      if (after.cache_hits > before.cache_hits) e.flags |= profile::kCacheHit;
      if (after.oom_retries > before.oom_retries) e.flags |= profile::kOomRetry;
    };
    std::shared_ptr<Buffer> b;
    try {
      b = inner_.allocate(nbytes);
    } catch (const OutOfMemoryError&) {
      note();
      e.detail = "out of memory";
      throw;
    }
    note();
    return b;
  }
  MemoryStats memory_stats() const override { return inner_.memory_stats(); }
  void free_cached() override { inner_.free_cached(); }

  void copy_from_host(void* dst, const void* src, size_t nbytes) override {
    transfer("h2d", src, nbytes, [&] { inner_.copy_from_host(dst, src, nbytes); });
  }
  void copy_to_host(void* dst, const void* src, size_t nbytes) override {
    transfer("d2h", dst, nbytes, [&] { inner_.copy_to_host(dst, src, nbytes); });
  }

  void elementwise(OpId op, std::span<const Array> inputs, const Array& out) override {
    KernelRecord r(device(), op_name(op));
    r.in(inputs).out(out).flops(out.size());
    inner_.elementwise(op, inputs, out);
  }
  void cast(const Array& in, const Array& out) override {
    const bool copy = in.dtype() == out.dtype();
    KernelRecord r(device(), copy ? "copy" : "cast");
    r.in(in).out(out);
    if (copy && !in.is_contiguous()) r.flag(profile::kStridedCopy);
    inner_.cast(in, out);
  }
  void run_kernel(const ir::KernelIR& ir, std::span<const Array> inputs,
                  std::span<const Array> outputs) override {
    int64_t ops = 0;
    KernelRecord r(device(), fused_name(ir, &ops));
    r.in(inputs);
    for (const Array& a : outputs) r.out(a);
    r.flops(ops * outputs[0].size()).flag(ops > 1 ? profile::kFused : 0u);
    inner_.run_kernel(ir, inputs, outputs);
  }
  void reduce(ReduceOp op, const Array& in, const std::vector<int>& axes,
              const Array& out) override {
    KernelRecord r(device(), reduce_name(op));
    r.in(in).out(out).flops(in.size());
    inner_.reduce(op, in, axes, out);
  }
  bool reduces_kernel_output(ReduceOp op, const Shape& shape, const std::vector<int>& axes,
                             const Array& out) const override {
    return inner_.reduces_kernel_output(op, shape, axes, out);
  }
  void reduce_kernel(ReduceOp op, const ir::KernelIR& ir, std::span<const Array> inputs,
                     const Shape& shape, const std::vector<int>& axes,
                     const Array& out) override {
    int64_t ops = 0;
    const std::string name = reduce_name(op) + ("(" + fused_name(ir, &ops) + ")");
    KernelRecord r(device(), name);
    r.in(inputs).out(out).flops((ops + 1) * shape_size(shape)).flag(profile::kFused);
    inner_.reduce_kernel(op, ir, inputs, shape, axes, out);
  }
  void scan(ScanOp op, const Array& in, int axis, const Array& out) override {
    KernelRecord r(device(), op == ScanOp::sum ? "cumsum" : "cumprod");
    r.in(in).out(out).flops(in.size());
    inner_.scan(op, in, axis, out);
  }
  void matmul(const Array& a, const Array& b, const Array& out) override {
    KernelRecord r(device(), "matmul");
    const int64_t k = a.ndim() ? a.shape().back() : 1;
    r.in(a).in(b).out(out).flops(2 * out.size() * k);
    inner_.matmul(a, b, out);
  }
  void fill(const Array& out, const void* value) override {
    KernelRecord r(device(), "fill");
    r.out(out);
    inner_.fill(out, value);
  }
  void arange(const Array& out, const void* first, const void* second) override {
    KernelRecord r(device(), "arange");
    r.out(out).flops(out.size());
    inner_.arange(out, first, second);
  }
  std::optional<IndexFault> gather(const Array& src, std::span<const int> axes,
                                   std::span<const Array> indices, const Array& out) override {
    KernelRecord r(device(), "gather");
    r.in(src).in(indices).out(out);
    return inner_.gather(src, axes, indices, out);
  }
  std::optional<IndexFault> scatter(const Array& dst, std::span<const int> axes,
                                    std::span<const Array> indices, const Array& values) override {
    KernelRecord r(device(), "scatter");
    r.in(values).in(indices).out(dst);
    return inner_.scatter(dst, axes, indices, values);
  }
  Array nonzero(const Array& x) override {
    KernelRecord r(device(), "nonzero");
    r.in(x).flops(x.size());
    return inner_.nonzero(x);
  }
  Array compress_rows(const Array& x, const Array& mask) override {
    KernelRecord r(device(), "compress_rows");
    r.in(x).in(mask).flops(mask.size());
    Array out = inner_.compress_rows(x, mask);
    r.out(out);
    return out;
  }
  void random(const Array& out, const philox::DrawParams& params,
              std::span<const Array> per_element) override {
    KernelRecord r(device(), "random");
    r.in(per_element).out(out).flops(out.size());
    inner_.random(out, params, per_element);
  }
  void run_template(const codegen::TemplateLaunch& launch) override {
    KernelRecord r(device(), launch.kernel.name);
    r.flops(launch.n * std::max<int64_t>(launch.rn, 1));
    inner_.run_template(launch);
  }
  void synchronize() override {
    profile::Scope s(EventKind::sync, "synchronize");
    s.event().device = device_number();
    inner_.synchronize();
  }

 private:
  int device_number() const { return device().is_cpu() ? -1 : device().index; }

  template <class Copy>
  void transfer(const char* direction, const void* host, size_t nbytes, Copy&& copy) {
    // Host memory on the CPU device is not a transfer; the kernels that copy it are recorded.
    if (device().is_cpu()) return copy();
    profile::Scope s(EventKind::transfer, direction);
    Event& e = s.event();
    e.device = device_number();
    e.bytes = static_cast<int64_t>(nbytes);
    e.stream = static_cast<int64_t>(cuda::current_stream(device().index).id());
    if (!cuda::is_pageable_host_memory(host)) e.flags |= profile::kPinned;
    copy();
  }

  Backend& inner_;
};

}  // namespace

void append_operand(std::string& out, const Array& a) {
  if (is_scalar(a)) {
    out += "scalar";
  } else {
    char buf[24];
    out += '(';
    for (int d = 0; d < a.ndim(); ++d) {
      if (d) out += ", ";
      out.append(buf,
                 static_cast<size_t>(std::to_chars(buf, buf + sizeof buf, a.shape()[d]).ptr - buf));
    }
    out += a.ndim() == 1 ? ",)" : ")";
  }
  out += ' ';
  out += dtype_name(a.dtype());
}

Backend& profiled_backend(Backend& inner) {
  static std::mutex mutex;
  static auto* wrappers = new std::map<Backend*, std::unique_ptr<ProfilingBackend>>;
  std::lock_guard<std::mutex> lock(mutex);
  static const bool hooked = (profile::add_flush_hook(resolve_gpu_times), true);
  (void)hooked;
  auto& w = (*wrappers)[&inner];
  if (!w) w = std::make_unique<ProfilingBackend>(inner);
  return *w;
}

}  // namespace accel
