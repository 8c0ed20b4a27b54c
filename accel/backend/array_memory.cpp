// The members of Array (core/array.h) that allocate or move memory: they need a device's
// backend, which sits above core, so they are defined here and core includes no backend header.
#include <algorithm>
#include <vector>

#include "accel/backend/backend.h"
#include "accel/core/array.h"
#include "accel/core/array_impl_cache.h"
#include "accel/device_src/scalar_ops.h"
#include "accel/runtime/errors.h"
#include "accel/runtime/profiler.h"

namespace accel {
namespace {

// A read to the host, for the profiler: what was read, and whether it still had to be computed.
void describe_wait(const Array& a, profile::Event& e) {
  e.detail = shape_str(a.shape()) + " " + dtype_name(a.dtype()) + " on " + a.device().str() +
             (a.is_pending() ? " (pending: computed first)" : "");
  e.device = a.device().is_cpu() ? -1 : a.device().index;
  e.elements = a.size();
  e.bytes = static_cast<int64_t>(a.nbytes());
}

}  // namespace

Array Array::empty(const Shape& shape, Dtype dtype, Device device, const Strides& layout) {
  for (int64_t d : shape)
    if (d < 0)
      throw ShapeError("[empty] negative dimension in shape " + shape_str(shape));
  // The buffer is allocated first and moved in last: moved at once, its two pointers, just
  // stored by the allocator one at a time, were read back as one 16-byte load, which waits for
  // the stores to retire (perf: a quarter of this function's time in small calls).
  std::shared_ptr<Buffer> buffer =
      backend_for(device).allocate(static_cast<size_t>(shape_size(shape)) * accel::itemsize(dtype));
  auto impl = new_array_impl();
  impl->shape = shape;
  if (layout.empty())
    set_contiguous_strides(impl->strides, shape);
  else
    impl->strides = layout;
  impl->dtype = dtype;
  impl->device = device;
  impl->buffer = std::move(buffer);
  return Array(std::move(impl));
}

Array Array::from_host(const void* src, Dtype src_dtype, const Shape& shape, Device device) {
  Array out = empty(shape, src_dtype, device);
  backend_for(device).copy_from_host(out.data(), src, out.nbytes());
  return out;
}

Array Array::scalar_of(Dtype dtype, double v, Device device) {
  Array a = empty({}, dtype, device);
  Array src = scalar(v, false, Device::cpu());
  if (device.is_cpu()) {
    backend_for(device).cast(src, a);
  } else {
    std::vector<unsigned char> host(accel::itemsize(dtype));
    src.copy_to_host(host.data(), dtype);
    backend_for(device).copy_from_host(a.data(), host.data(), host.size());
  }
  return a;
}

void Array::copy_to_host(void* dst, Dtype dst_dtype) const {
  profile::WaitScope wait("to_host");
  if (wait.event()) describe_wait(*this, *wait.event());
  eval();
  // One element (item(), float(x), bool(x)): converted in place, by the cast loop's rule.
  if (device().is_cpu() && size() == 1) {
    const void* src = data();
    dispatch_dtype(dtype(), [&](auto from) {
      using From = typename decltype(from)::type;
      dispatch_dtype(dst_dtype, [&](auto to) {
        using To = typename decltype(to)::type;
        *static_cast<To*>(dst) = scalar::convert<To>(*static_cast<const From*>(src));
      });
    });
    return;
  }
  if (device().is_cpu()) {
    auto host = std::make_shared<Buffer>(dst, static_cast<size_t>(size()) * accel::itemsize(dst_dtype),
                                         Device::cpu(), std::shared_ptr<void>());
    Array out = from_buffer(host, shape(), contiguous_strides(shape()), 0, dst_dtype);
    backend_for(device()).cast(*this, out);
    return;
  }
  if (dst_dtype == dtype() && is_contiguous()) {
    backend_for(device()).copy_to_host(dst, data(), nbytes());
    return;
  }
  host_mirror().copy_to_host(dst, dst_dtype);
}

Array Array::host_mirror() const {
  profile::WaitScope wait("to_host");
  if (wait.event()) describe_wait(*this, *wait.event());
  eval();
  if (device().is_cpu()) return *this;
  if (size() == 0) return Array::empty(shape(), dtype(), Device::cpu());
  int64_t lo = offset(), hi = offset();  // elements spanned, in the buffer
  for (int d = 0; d < ndim(); ++d) {
    int64_t ext = (shape()[d] - 1) * strides()[d];
    (ext < 0 ? lo : hi) += ext;
  }
  const auto item = static_cast<int64_t>(itemsize());
  const auto span = static_cast<size_t>((hi - lo + 1) * item);
  auto host = backend_for(Device::cpu()).allocate(span);
  // The span, not host->nbytes(): the host block may be larger (a size class), and reading
  // that much from the device runs past its allocation (CUDA_ERROR_INVALID_VALUE on the H200
  // for a [::MiB] view of 100 MiB).
  backend_for(device()).copy_to_host(host->data(),
                                     static_cast<char*>(impl_->buffer->data()) + lo * item, span);
  return from_buffer(host, shape(), strides(), offset() - lo, dtype());
}

}  // namespace accel
