#include "accel/eval/eager.h"

#include <atomic>
#include <cstring>

#include "accel/backend/backend.h"
#include "accel/device_src/scalar_ops.h"
#include "accel/runtime/config.h"
#include "accel/runtime/profiler.h"

namespace accel {
namespace {

std::atomic<bool>& eager_flag() {
  static std::atomic<bool> on{config::flag(config::Var::ACCEL_EAGER_SMALL, true)};
  return on;
}

// A Python number in the loop's dtype (`f32_array * 2.0` casts the float64 2.0 to float32),
// kept for the next calls: loops repeat the same literals, and converting one costs an
// allocation and a cast, more than the op. The converted arrays never leave this file, so
// nothing can write them; entries are matched by the source's bytes, exact for every dtype.
Array converted_scalar(const Array& in, Dtype compute, Backend& be) {
  struct Entry {
    Dtype from = Dtype::bool_, to = Dtype::bool_;
    unsigned char bytes[16] = {};
    Array value;
  };
  static thread_local Entry cache[8];
  static thread_local unsigned next = 0;
  const auto* src = static_cast<const unsigned char*>(in.data());
  const size_t n = in.itemsize();
  for (Entry& e : cache)
    if (e.value.valid() && e.from == in.dtype() && e.to == compute &&
        std::memcmp(e.bytes, src, n) == 0)
      return e.value;
  Entry& e = cache[next++ % 8];
  e.from = in.dtype();
  e.to = compute;
  std::memcpy(e.bytes, src, n);
  e.value = Array::empty({}, compute, Device::cpu());
  be.cast(in, e.value);
  return e.value;
}

// The input as the loop reads it: in the compute dtype, viewed with the result's shape.
Array loop_input(const Array& in, Dtype compute, const Shape& shape, Backend& be) {
  Array a = in;
  if (a.dtype() != compute && a.weak() && a.ndim() == 0) {
    a = converted_scalar(a, compute, be);
  } else if (a.dtype() != compute) {
    Array cast = Array::empty(a.shape(), compute, a.device());
    be.cast(a, cast);
    a = std::move(cast);
  }
  if (a.shape() == shape) return a;
  return Array::view_of(a, shape, broadcast_strides(a.shape(), a.strides(), shape), a.offset());
}

template <class T> bool compare_values(OpId op, T x, T y) {
  switch (op) {
    case OpId::equal: return scalar::EqualOp::apply(x, y);
    case OpId::not_equal: return scalar::NotEqualOp::apply(x, y);
    case OpId::less: return scalar::LessOp::apply(x, y);
    case OpId::less_equal: return scalar::LessEqualOp::apply(x, y);
    case OpId::greater: return scalar::GreaterOp::apply(x, y);
    default: return scalar::GreaterEqualOp::apply(x, y);
  }
}

// The comparison in T, the array's dtype, with the Python number converted to T.
template <class T> bool compare_with_number(OpId op, const Array& x, PlainNumber n, bool number_first) {
  const T strong = *static_cast<const T*>(x.data());
  const T converted = n.is_int ? scalar::convert<T>(n.i) : scalar::convert<T>(n.d);
  return number_first ? compare_values(op, converted, strong) : compare_values(op, strong, converted);
}

bool computed_scalar_on_cpu(const Array& a) {
  return a.ndim() == 0 && !a.is_pending() && a.device().is_cpu();
}

}  // namespace

bool eager_small_enabled() { return eager_flag().load(std::memory_order_relaxed); }
void set_eager_small_enabled(bool on) { eager_flag().store(on); }

std::optional<Array> try_eager(OpId op, Dtype compute, Dtype out_dtype, const Shape& shape,
                               std::span<const Array> inputs, const Strides& layout) {
  if (!eager_small_enabled() || shape_size(shape) > kEagerMaxElements) return std::nullopt;
  for (const Array& in : inputs)
    if (in.is_pending() || !in.device().is_cpu()) return std::nullopt;
  Backend& be = backend_for(Device::cpu());
  Array out = Array::empty(shape, out_dtype, Device::cpu(), layout);
  if (op == OpId::cast) {
    be.cast(loop_input(inputs[0], inputs[0].dtype(), shape, be), out);
    return out;
  }
  // Inputs already in the loop's dtype and shape go as they are (no copies of their handles).
  bool ready = true;
  for (const Array& in : inputs) ready = ready && in.dtype() == compute && in.shape() == shape;
  if (ready) {
    be.elementwise(op, inputs, out);
    return out;
  }
  Array prepared[kMaxOpArity];
  for (size_t i = 0; i < inputs.size(); ++i) prepared[i] = loop_input(inputs[i], compute, shape, be);
  be.elementwise(op, std::span<const Array>(prepared, inputs.size()), out);
  return out;
}

std::optional<Array> eager_compare_with_number(OpId op, const Array& x, PlainNumber number,
                                               bool number_first) {
  if (!eager_small_enabled() || profile::active() || x.weak() || !computed_scalar_on_cpu(x))
    return std::nullopt;
  bool answer = false;
  switch (x.dtype()) {
    case Dtype::float32: answer = compare_with_number<float>(op, x, number, number_first); break;
    case Dtype::float64: answer = compare_with_number<double>(op, x, number, number_first); break;
    default: return std::nullopt;
  }
  Array out = Array::empty({}, Dtype::bool_, Device::cpu());
  *static_cast<bool*>(out.data()) = answer;
  return out;
}

std::optional<Array> try_eager_scalar_compare(OpId op, std::span<const Array> inputs) {
  if (inputs.size() != 2 || inputs[0].weak() == inputs[1].weak()) return std::nullopt;
  const bool number_first = inputs[0].weak();
  const Array& number = inputs[number_first ? 0 : 1];
  if (!computed_scalar_on_cpu(number)) return std::nullopt;
  PlainNumber n{number.dtype() == Dtype::int64, 0, 0.0};
  if (n.is_int)
    n.i = *static_cast<const int64_t*>(number.data());
  else if (number.dtype() == Dtype::float64)
    n.d = *static_cast<const double*>(number.data());
  else
    return std::nullopt;
  return eager_compare_with_number(op, inputs[number_first ? 1 : 0], n, number_first);
}

}  // namespace accel
