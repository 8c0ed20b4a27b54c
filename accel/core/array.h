// Array: a cheap handle to an ArrayImpl (shape, strides, dtype, device, and either a buffer or a
// pending elementwise Node). Views share the buffer; copies of the handle share the impl.
#pragma once
#include <complex>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "accel/core/buffer.h"
#include "accel/core/device.h"
#include "accel/core/dtype.h"
#include "accel/core/shape.h"
#include "accel/core/op_id.h"

namespace accel {

class Array;

// A pending elementwise computation (DESIGN.md "Evaluation"): evaluated when data is needed.
// Inputs keep their own shapes and dtypes; broadcasting and casts to `compute` happen at eval.
struct Node {
  Node() {}  // as ArrayImpl's: no zeroing of the whole node before the member initialisers
  OpId op{};
  Dtype compute{};           // dtype the op's loop runs in (inputs are cast to it)
  std::vector<Array> inputs;
  int depth = 1;             // longest chain of pending nodes below, capped (eval.cpp)
  int64_t profile_id = 0;    // its op event while profiling (runtime/profiler.h), else 0
};

struct ArrayImpl {
  // User-provided, so that make_shared's value-initialisation runs only the member
  // initialisers: an implicit constructor makes it zero all 264 bytes first (a `rep stos` that
  // cost every new array, view or result, ~15 ns).
  ArrayImpl() {}
  ArrayImpl(const Shape& s, const Strides& st) : shape(s), strides(st) {}

  Shape shape;
  Strides strides;  // in elements
  int64_t offset = 0;  // in elements from the buffer start
  Dtype dtype = Dtype::float32;
  Device device;
  std::shared_ptr<Buffer> buffer;  // null while `node` is pending
  std::shared_ptr<Node> node;
  // While pending: pending arrays that read its future value. They move to its buffer when it
  // gets one, so that a later in-place write into it computes them first.
  PendingReaders readers;
  // A Python scalar wrapped as a 0-d array: promotes "weakly" (NEP 50), e.g. f32_array * 2.0 is f32.
  bool weak = false;
  // A weak scalar's value, kept on the host too (the array is read-only, so it cannot go stale):
  // `x ** 2` becomes square on any device without reading device memory.
  std::optional<std::complex<double>> literal;
  // A view NumPy makes read-only (broadcast_to, ...): writes into it raise; its views inherit it.
  bool read_only = false;
  // read_only set by the user (NumPy's x.flags.writeable = False) on an array that was writable:
  // the one kind of read-only that may be turned off again. Views made from it are read-only
  // without it (NumPy lets them be thawed once their base is; accel keeps no base to ask).
  bool frozen = false;
};

// Core declares every member; those that need a device's backend (allocation, host copies:
// empty, from_host, scalar_of, copy_to_host, host_mirror) are defined in
// backend/array_memory.cpp and eval() in eval/eval.cpp, the layers above core that can do them.
class Array {
 public:
  Array() = default;
  explicit Array(std::shared_ptr<ArrayImpl> impl) : impl_(std::move(impl)) {}

  // A new, uninitialised array, C-contiguous or laid out with `layout` (dense strides in
  // elements, as ops/result_layout.h makes them).
  static Array empty(const Shape& shape, Dtype dtype, Device device = default_device(),
                     const Strides& layout = {});
  // An array computed later by `node`, C-contiguous or laid out with `strides` (dense, in
  // elements: ops/result_layout.h), which it has from now on (a node reading memory written
  // outside accel is computed here at once).
  static Array pending(const Shape& shape, Dtype dtype, Device device, std::shared_ptr<Node> node,
                       const Strides& strides = {});
  // A view of `base`'s buffer (base is evaluated first).
  static Array view_of(const Array& base, Shape shape, Strides strides, int64_t offset);
  // A view of `base`'s buffer with base's own layout, for the caller to re-describe through
  // impl() (drop an axis, narrow one) before it is shared: the common views edit it in place
  // instead of building a Shape and Strides on the side and moving them in.
  static Array view_copy(const Array& base);
  // Wrap memory owned elsewhere (zero copy).
  static Array from_buffer(std::shared_ptr<Buffer> buffer, const Shape& shape,
                           const Strides& strides, int64_t offset, Dtype dtype);
  // Copies host data of type T into a new array on `device`.
  template <class T>
  static Array from_vector(const std::vector<T>& values, const Shape& shape,
                           Device device = default_device());
  // 0-d arrays from C++ / Python scalars; weak ones promote like Python scalars (NEP 50).
  static Array scalar(bool v, bool weak = false, Device device = default_device());
  static Array scalar(int64_t v, bool weak = false, Device device = default_device());
  static Array scalar(uint64_t v, bool weak = false, Device device = default_device());
  static Array scalar(double v, bool weak = false, Device device = default_device());
  static Array scalar(std::complex<double> v, bool weak = false, Device device = default_device());
  static Array scalar_of(Dtype dtype, double v, Device device = default_device());
  // A weak scalar of `device` whose value stays in `host` (a weak 0-d CPU array) until something
  // needs its device memory: a pending upload. Elementwise kernels take the value as a
  // parameter instead (ir::Layout::by_value), so `gpu_array * 2.5` allocates and copies nothing.
  static Array deferred_upload(const Array& host, Device device);

  bool valid() const { return impl_ != nullptr; }
  const Shape& shape() const { return impl_->shape; }
  int64_t shape(int axis) const;
  const Strides& strides() const { return impl_->strides; }
  int64_t offset() const { return impl_->offset; }
  Dtype dtype() const { return impl_->dtype; }
  Device device() const { return impl_->device; }
  int ndim() const { return static_cast<int>(impl_->shape.size()); }
  int64_t size() const { return shape_size(impl_->shape); }
  size_t itemsize() const { return accel::itemsize(impl_->dtype); }
  size_t nbytes() const { return static_cast<size_t>(size()) * itemsize(); }
  bool weak() const { return impl_->weak; }
  bool is_pending() const { return impl_->node != nullptr; }
  // The host value of a deferred_upload() not uploaded yet; null for every other array.
  const Array* host_constant() const;
  bool is_contiguous() const;  // C order
  bool is_f_contiguous() const;

  // Computes a pending array (no-op otherwise).
  const Array& eval() const;
  // The buffer (evaluating first) and the address of element 0.
  const std::shared_ptr<Buffer>& buffer() const;
  void* data() const;
  template <class T> T* data() const { return static_cast<T*>(data()); }
  // Do two arrays possibly share memory?
  bool shares_memory_with(const Array& other) const;

  // Host copy in C order, converting to T. For any device.
  template <class T> std::vector<T> to_vector() const;
  // The single element of a size-1 array, as T.
  template <class T> T item() const;

  // Copies `n` values of type `src_dtype` from host memory into a new array of `shape`.
  static Array from_host(const void* src, Dtype src_dtype, const Shape& shape,
                         Device device = default_device());
  // Writes the array in C order into host memory as `dst_dtype`.
  void copy_to_host(void* dst, Dtype dst_dtype) const;
  // A CPU array with this one's shape and strides over a copy of the memory it spans (one
  // transfer, no device kernel); the array itself when it is on the CPU.
  Array host_mirror() const;

  const std::shared_ptr<ArrayImpl>& impl() const { return impl_; }
  bool is(const Array& other) const { return impl_ == other.impl_; }
  std::string describe() const;  // "float32 array of shape (2, 3) on cpu", for messages

 private:
  [[noreturn]] void throw_item_size_error() const;
  std::shared_ptr<ArrayImpl> impl_;
};

template <class T>
Array Array::from_vector(const std::vector<T>& values, const Shape& shape, Device device) {
  static_assert(!std::is_same_v<T, bool>, "use from_host for bool data (std::vector<bool> is packed)");
  return from_host(values.data(), dtype_of<T>, shape, device);
}

template <class T> std::vector<T> Array::to_vector() const {
  std::vector<T> out(static_cast<size_t>(size()));
  copy_to_host(out.data(), dtype_of<T>);
  return out;
}

template <class T> T Array::item() const {
  T v{};
  if (size() != 1) throw_item_size_error();
  copy_to_host(&v, dtype_of<T>);
  return v;
}

}  // namespace accel
