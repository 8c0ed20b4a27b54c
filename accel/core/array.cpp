#include "accel/core/array.h"
#include "accel/core/array_impl_cache.h"

#include <algorithm>
#include <cstring>

#include "accel/runtime/errors.h"

namespace accel {

Buffer::~Buffer() {
  if (owner_) owner_->deallocate(ptr_, nbytes_);
}

void PendingReaders::add(const std::shared_ptr<ArrayImpl>& reader) {
  if (readers_.size() >= 16)  // drop readers that are gone or already computed
    std::erase_if(readers_, [](const std::weak_ptr<ArrayImpl>& w) {
      auto p = w.lock();
      return !p || !p->node;
    });
  readers_.push_back(reader);
}

void PendingReaders::evaluate(std::span<const ArrayImpl* const> except) {
  auto readers = std::move(readers_);
  readers_.clear();
  for (auto& w : readers) {
    auto p = w.lock();
    if (!p || !p->node) continue;
    if (std::find(except.begin(), except.end(), p.get()) != except.end())
      readers_.push_back(w);
    else
      Array(p).eval();
  }
}

void PendingReaders::move_to(PendingReaders& to) {
  for (auto& w : readers_)
    if (auto p = w.lock(); p && p->node) to.add(p);
  readers_.clear();
}

void Buffer::evaluate_pending_readers(const ArrayImpl* except) {
  readers_.evaluate(std::span<const ArrayImpl* const>(&except, except ? 1 : 0));
}

void Buffer::share_with_foreign_writers() {
  readers_.evaluate();
  foreign_writers_ = true;
}

Array Array::pending(const Shape& shape, Dtype dtype, Device device, std::shared_ptr<Node> node,
                     const Strides& strides) {
  auto impl = new_array_impl();
  impl->shape = shape;
  if (strides.empty())
    set_contiguous_strides(impl->strides, shape);
  else
    impl->strides = strides;
  impl->dtype = dtype;
  impl->device = device;
  impl->node = std::move(node);
  bool reads_foreign_memory = false;
  for (const Array& in : impl->node->inputs) {
    if (in.weak()) continue;  // a Python scalar: a fresh 0-d array nobody else can write
    if (in.is_pending()) {
      in.impl()->readers.add(impl);
    } else {
      in.impl()->buffer->add_pending_reader(impl);
      reads_foreign_memory |= in.impl()->buffer->foreign_writers();
    }
  }
  Array out(std::move(impl));
  // NumPy (or any foreign owner) may write that memory before this is computed, and accel
  // would not know: compute now, with the pending inputs fused in.
  if (reads_foreign_memory) out.eval();
  return out;
}

namespace {

// What a view takes from its (computed) base: the elements' dtype, device and memory, and
// whether they may be written (a view of a broadcast view shares its elements too).
void share_base(ArrayImpl& view, const ArrayImpl& base) {
  view.dtype = base.dtype;
  view.device = base.device;
  view.buffer = base.buffer;
  view.read_only = base.read_only;
}

}  // namespace

Array Array::view_of(const Array& base, Shape shape, Strides strides, int64_t offset) {
  base.eval();
  auto impl = new_array_impl();
  impl->shape = std::move(shape);
  impl->strides = std::move(strides);
  impl->offset = offset;
  share_base(*impl, *base.impl());
  return Array(std::move(impl));
}

Array Array::view_copy(const Array& base) {
  if (base.is_pending()) base.eval();
  const ArrayImpl& b = *base.impl();
  auto impl = new_array_impl(b.shape, b.strides);
  impl->offset = b.offset;
  share_base(*impl, b);
  return Array(std::move(impl));
}

Array Array::from_buffer(std::shared_ptr<Buffer> buffer, const Shape& shape, const Strides& strides,
                         int64_t offset, Dtype dtype) {
  auto impl = new_array_impl();
  impl->shape = shape;
  impl->strides = strides;
  impl->offset = offset;
  impl->dtype = dtype;
  impl->device = buffer->device();
  impl->buffer = std::move(buffer);
  return Array(std::move(impl));
}

Array Array::deferred_upload(const Array& host, Device device) {
  // A cast of the host array made on `device`: the evaluator uploads it (eval/eval.cpp), fusion
  // passes it by value (ir/fuse.cpp). Not a reader of `host`: weak scalars are never written.
  auto node = std::make_shared<Node>();
  node->op = OpId::cast;
  node->compute = host.dtype();
  node->inputs = {host};
  node->depth = 0;  // no step of a chain: `x * 2` is as deep as x plus one
  Array a = pending({}, host.dtype(), device, std::move(node));
  a.impl()->weak = true;
  a.impl()->literal = host.impl()->literal;
  a.impl()->read_only = true;
  return a;
}

const Array* Array::host_constant() const {
  const Node* node = impl_->node.get();
  if (!impl_->weak || !node || node->inputs.size() != 1) return nullptr;
  const Array& host = node->inputs[0];
  return host.device().is_cpu() && !device().is_cpu() ? &host : nullptr;
}

namespace {

// A weak scalar's memory: its value and the Buffer over it in one block, without the device
// allocator (a Python number in `a * 2.0` costs one allocation fewer and no allocator lock).
// Weak scalars are read-only and never exported writable, so the block needs no owner.
template <class T> std::shared_ptr<Buffer> inline_buffer(T v) {
  struct Block {
    explicit Block(T v) : value(v) {}
    T value;
    Buffer buffer{&value, sizeof(T), Device::cpu(), std::shared_ptr<void>()};
  };
  auto block = std::make_shared<Block>(v);
  return std::shared_ptr<Buffer>(block, &block->buffer);
}

template <class T> Array new_weak_scalar(T v, Dtype dt) {
  Array a = Array::from_buffer(inline_buffer(v), {}, {}, 0, dt);
  a.impl()->weak = true;
  if constexpr (std::is_same_v<T, std::complex<double>>)
    a.impl()->literal = v;
  else
    a.impl()->literal = std::complex<double>(static_cast<double>(v), 0.0);
  a.impl()->read_only = true;
  return a;
}

// Python numbers repeat (`a * 2.0` in a loop): the last few weak CPU scalars of each type are
// kept and handed out again. Nothing changes one after it is made (read-only, never pending,
// never a pending reader's source: Array::pending skips weak inputs), so sharing is safe.
// Matched by the value's bytes: exact for -0.0 and NaNs.
template <class T> Array cached_weak_scalar(T v, Dtype dt) {
  struct Entry {
    T value{};
    Array array;
  };
  static thread_local Entry cache[8];
  static thread_local unsigned next = 0;
  for (const Entry& e : cache)
    if (e.array.valid() && std::memcmp(&e.value, &v, sizeof(T)) == 0) return e.array;
  Entry& e = cache[next++ % 8];
  e.value = v;
  e.array = new_weak_scalar(v, dt);
  return e.array;
}

template <class T> Array make_scalar(T v, Dtype dt, bool weak, Device device) {
  // On a device, a Python number stays on the host until a kernel needs it (deferred_upload).
  if (weak && !device.is_cpu())
    return Array::deferred_upload(make_scalar(v, dt, true, Device::cpu()), device);
  if (!weak) return Array::from_host(&v, dt, {}, device);
  return cached_weak_scalar(v, dt);
}

}  // namespace

Array Array::scalar(bool v, bool weak, Device d) { return make_scalar(v, Dtype::bool_, weak, d); }
Array Array::scalar(int64_t v, bool weak, Device d) { return make_scalar(v, Dtype::int64, weak, d); }
Array Array::scalar(uint64_t v, bool weak, Device d) { return make_scalar(v, Dtype::uint64, weak, d); }
Array Array::scalar(double v, bool weak, Device d) { return make_scalar(v, Dtype::float64, weak, d); }
Array Array::scalar(std::complex<double> v, bool weak, Device d) {
  return make_scalar(v, Dtype::complex128, weak, d);
}

int64_t Array::shape(int axis) const {
  return impl_->shape[normalize_axis(axis, ndim(), "shape")];
}

bool Array::is_contiguous() const {
  int64_t expected = 1;
  for (int d = ndim() - 1; d >= 0; --d) {
    if (impl_->shape[d] == 1) continue;
    if (impl_->strides[d] != expected) return false;
    expected *= impl_->shape[d];
  }
  return true;
}

bool Array::is_f_contiguous() const {
  int64_t expected = 1;
  for (int d = 0; d < ndim(); ++d) {
    if (impl_->shape[d] == 1) continue;
    if (impl_->strides[d] != expected) return false;
    expected *= impl_->shape[d];
  }
  return true;
}

const std::shared_ptr<Buffer>& Array::buffer() const {
  eval();
  return impl_->buffer;
}

void* Array::data() const {
  eval();
  return static_cast<char*>(impl_->buffer->data()) +
         impl_->offset * static_cast<int64_t>(itemsize());
}

bool Array::shares_memory_with(const Array& other) const {
  if (is_pending() || other.is_pending()) return false;
  if (device() != other.device()) return false;
  if (size() == 0 || other.size() == 0) return false;
  // Address ranges [lo, hi] touched by each view; overlapping ranges may share elements. By
  // address rather than by Buffer: two imports of the same NumPy memory are two Buffers.
  auto range = [](const Array& a) {
    const auto base = reinterpret_cast<intptr_t>(a.impl()->buffer->data());
    int64_t lo = a.offset(), hi = a.offset();
    for (int d = 0; d < a.ndim(); ++d) {
      int64_t ext = (a.shape()[d] - 1) * a.strides()[d];
      (ext < 0 ? lo : hi) += ext;
    }
    const auto isz = static_cast<int64_t>(a.itemsize());
    return std::pair<intptr_t, intptr_t>(base + lo * isz, base + (hi + 1) * isz - 1);
  };
  auto [a0, a1] = range(*this);
  auto [b0, b1] = range(other);
  return a0 <= b1 && b0 <= a1;
}


void Array::throw_item_size_error() const {
  throw ValueError("[item] can only convert an array of size 1 to a scalar; got " + describe());
}

std::string Array::describe() const {
  return std::string(dtype_name(dtype())) + " array of shape " + shape_str(shape()) + " on " +
         device().str();
}

}  // namespace accel
