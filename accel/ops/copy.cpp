#include "accel/ops/copy.h"

#include <string>

#include "accel/backend/backend.h"
#include "accel/eval/eager.h"
#include "accel/eval/eval.h"
#include "accel/ops/creation.h"
#include "accel/ops/op_record.h"
#include "accel/ops/result_layout.h"
#include "accel/runtime/errors.h"
#include "accel/runtime/profiler.h"

namespace accel {

namespace {

// x converted to `dtype` in a new array laid out as `layout` says (result_layout.h).
Array converted(const Array& x, Dtype dtype, const Strides& layout) {
  const std::span<const Array> in(&x, 1);
  if (auto now = try_eager(OpId::cast, x.dtype(), dtype, x.shape(), in, layout)) {
    if (profile::active()) [[unlikely]]
      record_op(OpId::cast, in, *now, true);
    return *std::move(now);
  }
  auto node = std::make_shared<Node>();
  node->op = OpId::cast;
  node->compute = x.dtype();
  node->inputs = {x};
  node->depth = (x.is_pending() ? x.impl()->node->depth : 0) + 1;
  if (node->depth > kMaxPendingDepth) {
    x.eval();
    node->depth = 1;
  }
  Node* recorded = node.get();
  Array out = Array::pending(x.shape(), dtype, x.device(), std::move(node), layout);
  if (profile::active()) [[unlikely]]
    recorded->profile_id = record_op(OpId::cast, in, out, false);
  return out;
}

}  // namespace

// NumPy's astype keeps the input's axis order (order='K'): x.T.astype(f) is laid out as x.T.
Array astype(const Array& x, Dtype dtype, bool copy_always) {
  if (x.dtype() == dtype && !copy_always) return x;
  return converted(x, dtype, like_layout(x));
}

Array cast_operand(const Array& x, Dtype dtype) {
  if (x.dtype() == dtype) return x;
  return converted(x, dtype, kept_layout(x.shape(), std::span<const Array>(&x, 1)));
}

// C order, as ndarray.copy(): the linear algebra and FFT paths take copies as C-ordered buffers.
Array copy(const Array& x) { return converted(x, x.dtype(), {}); }

Array astype(const Array& x, Dtype dtype, bool copy_always, Order order) {
  order = resolve_order(order, &x);
  if (!copy_always && x.dtype() == dtype) {
    x.eval();
    const bool fits = order == Order::K || (order == Order::C && x.is_contiguous()) ||
                      (order == Order::F && x.is_f_contiguous());
    if (fits) return x;
  }
  return converted(x, dtype, order_layout(x.shape(), order, &x));
}

Array copy(const Array& x, Order order) { return astype(x, x.dtype(), true, order); }

Array ascontiguousarray(const Array& x) {
  x.eval();
  return x.is_contiguous() ? x : copy(x).eval();
}

Array to_device(const Array& x, Device device) {
  if (x.device() == device) return x;
  // A Python number moves without a copy: it stays on the host until a kernel needs it.
  const Array* host = x.host_constant();
  if (host && device.is_cpu()) return *host;
  if (x.weak() && x.ndim() == 0 && (host || x.device().is_cpu()))
    return Array::deferred_upload(host ? *host : x, device);
  if (device.is_cpu()) {
    // Device data comes over as the span it covers (strided views too; one transfer) and is
    // made contiguous here.
    Array out = ascontiguousarray(x.host_mirror());
    out.impl()->weak = x.weak();
    return out;
  }
  Backend& dst_be = backend_for(device);
  Array out = Array::empty(x.shape(), x.dtype(), device);
  if (x.device().is_cpu()) {
    Array src = ascontiguousarray(x);
    dst_be.copy_from_host(out.data(), src.data(), src.nbytes());
  } else {
    // Between two GPUs through host memory (peer copies are the CUDA backend's to add).
    Array src = ascontiguousarray(x.host_mirror());
    dst_be.copy_from_host(out.data(), src.data(), src.nbytes());
  }
  out.impl()->weak = x.weak();
  return out;
}

void assign(const Array& dst, const Array& src, const char* op) {
  if (dst.is_pending())
    throw ValueError(std::string("[") + op + "] cannot write into a computed temporary");
  if (src.device() != dst.device() && !src.weak())
    throw DeviceError(std::string("[") + op + "] cannot assign an array on " + src.device().str() +
                      " into one on " + dst.device().str() + "; move it with to_device() first");
  if (dst.buffer()->read_only() || dst.impl()->read_only)
    throw ValueError(std::string("[") + op + "] assignment destination is read-only");
  Shape shape = broadcast_shapes(src.shape(), dst.shape(), op);
  if (shape != dst.shape())
    throw ShapeError(std::string("[") + op + "] could not broadcast input array from shape " +
                     shape_str(src.shape()) + " into shape " + shape_str(dst.shape()));
  Array value = src.device() == dst.device() ? src : to_device(src, dst.device());
  // A pending value is computed straight into dst when it reads dst only element by element
  // (x += 1, x[...] = x * y + z); evaluate_into first computes dst's other pending readers.
  if (value.is_pending() && evaluate_into(value, dst)) return;
  // Arrays still to be computed from dst's memory must see its old values.
  // (value itself may be one; it is computed next, before dst is written.)
  dst.buffer()->evaluate_pending_readers(value.impl().get());
  value.eval();
  if (value.shares_memory_with(dst)) value = copy(value).eval();
  Array view = value.shape() == dst.shape()
                   ? value
                   : Array::view_of(value, dst.shape(),
                                    broadcast_strides(value.shape(), value.strides(), dst.shape()),
                                    value.offset());
  backend_for(dst.device()).cast(view, dst);
}

void assign_inplace(const Array& dst, const Array& result, const char* op) {
  Dtype from = result.dtype(), to = dst.dtype();
  // NumPy's same_kind rule: float into int, or complex into float, is refused.
  if (!can_cast_same_kind(from, to))
    throw DTypeError(std::string("[") + op + "] cannot cast the result from " + dtype_name(from) +
                     " to " + dtype_name(to) + " with casting rule 'same_kind'");
  if (result.shape() != dst.shape())
    throw ShapeError(std::string("[") + op + "] non-broadcastable output operand with shape " +
                     shape_str(dst.shape()) + " doesn't match the broadcast shape " +
                     shape_str(result.shape()));
  assign(dst, result, op);
}

Array set_writeable(const Array& x, bool writeable) {
  const bool read_only = is_read_only(x);
  if (writeable == !read_only) return x;
  if (writeable && !x.impl()->frozen)
    throw ValueError("[flags] cannot set WRITEABLE flag to True of this array: " + x.describe() +
                     " is read-only by how it was made (a broadcast view, read-only memory or a "
                     "view of a frozen array), not by writeable = False");
  // A fresh handle, so that only this array changes (NumPy's flags belong to one array object).
  Array v = Array::view_of(x, x.shape(), x.strides(), x.offset());
  v.impl()->read_only = !writeable;
  v.impl()->frozen = !writeable;
  return v;
}

Array resize_in_place(const Array& x, const Shape& shape, bool refcheck) {
  for (int64_t d : shape)
    if (d < 0) throw ValueError("[resize] negative dimensions not allowed: " + shape_str(shape));
  const int64_t size = shape_size(shape);  // ShapeError past 2^59 elements, before any change
  if (!x.is_contiguous() && !x.is_f_contiguous())
    throw ValueError("[resize] resize only works on single-segment arrays: " + x.describe() +
                     " is a strided view; accel.resize(x, shape) makes a resized copy");
  x.eval();
  auto flags_of_x = [&x](Array r) {
    r.impl()->read_only = x.impl()->read_only;
    r.impl()->frozen = x.impl()->frozen;
    return r;
  };
  // NumPy lays the result out as x: Fortran-ordered when x is (and is not also C-ordered).
  const bool fortran = x.is_f_contiguous() && !x.is_contiguous();
  Strides layout = contiguous_strides(shape);
  if (fortran) {
    int64_t step = 1;
    for (size_t i = 0; i < shape.size(); ++i) {
      layout[i] = step;
      step *= std::max<int64_t>(shape[i], 1);
    }
  }
  if (size == x.size())  // the same memory, read in its memory order
    return flags_of_x(Array::view_of(x, shape, layout, x.offset()));
  const std::shared_ptr<Buffer>& memory = x.buffer();
  // (A view at the start of its base's memory is told apart by the refcheck below, as long as
  // the base lives: the allocator rounds sizes up, so the memory's size cannot tell.)
  if (x.offset() != 0)
    throw ValueError("[resize] cannot resize this array: it does not own its data (" +
                     x.describe() + " views part of a larger array); accel.resize(x, shape) "
                     "makes a resized copy");
  // Arrays not computed yet that read x read the old memory, which they keep; computing them
  // first lets go of the references they hold to it.
  memory->evaluate_pending_readers();
  if (refcheck && (memory.use_count() > 1 || x.impl().use_count() > 1))
    throw ValueError("[resize] cannot resize an array that references or is referenced by "
                     "another array in this way: other arrays view " + x.describe() +
                     "; accel.resize(x, shape) makes a resized copy, or refcheck=False leaves "
                     "them the old memory");
  // x's memory in order, then zeros, laid out as `layout` says.
  Array memory_order = zeros({size}, x.dtype(), x.device());
  const int64_t kept = std::min(size, x.size());
  if (kept > 0)
    assign(Array::view_of(memory_order, {kept}, {1}, 0), Array::view_of(x, {kept}, {1}, 0),
           "resize");
  Array r = Array::view_of(memory_order, shape, layout, 0);
  return flags_of_x(r);
}

}  // namespace accel
