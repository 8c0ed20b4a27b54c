// ufunc_at on the CPU: one thread walks the listed positions in order, as NumPy's ufunc.at
// does. In order and in one thread is what makes it NumPy's answer (a float sum of repeated
// positions is not reassociated), and it needs no sort. The ops ufunc.at is mostly used for
// (add: histograms and scatter-adds; multiply, maximum, minimum, subtract) have typed walks
// that call the scalar functor inline; every other op calls its inner loop
// (elementwise_loops.h) on one element at a time.
#include "accel/backend/cpu/fold_at.h"

#include <cstring>
#include <type_traits>

#include "accel/backend/cpu/elementwise_loops.h"
#include "accel/device_src/scalar_ops.h"
#include "accel/runtime/errors.h"

namespace accel::cpu {
namespace {

template <class Op, class T>
void typed_walk(T* dst, const int64_t* at, const T* values, int64_t step, int64_t n) {
  if (step == 0) {
    const T v = values[0];
    for (int64_t k = 0; k < n; ++k) dst[at[k]] = Op::apply(dst[at[k]], v);
    return;
  }
  for (int64_t k = 0; k < n; ++k) dst[at[k]] = Op::apply(dst[at[k]], values[k]);
}

template <class Op>
bool try_typed(const Array& dst, const Array& positions, const Array& values) {
  return dispatch_dtype(dst.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    // float16 and bfloat16 compute in float (half_loops.h): their inner loops do that.
    if constexpr (is_narrow_float_v<T>) {
      return false;
    } else {
      typed_walk<Op>(dst.data<T>(), positions.data<int64_t>(), values.data<T>(),
                     values.size() == 1 ? 0 : 1, positions.size());
      return true;
    }
  });
}

bool typed(OpId op, const Array& dst, const Array& positions, const Array& values) {
  switch (op) {
    case OpId::add:
      return try_typed<scalar::AddOp>(dst, positions, values);
    case OpId::subtract:
      return try_typed<scalar::SubtractOp>(dst, positions, values);
    case OpId::multiply:
      return try_typed<scalar::MultiplyOp>(dst, positions, values);
    case OpId::maximum:
      return try_typed<scalar::MaximumOp>(dst, positions, values);
    case OpId::minimum:
      return try_typed<scalar::MinimumOp>(dst, positions, values);
    default:
      return false;
  }
}

}  // namespace

void fold_at(OpId op, const Array& dst, const Array& positions, const Array& values) {
  if (typed(op, dst, positions, values)) return;
  const InnerLoop loop = elementwise_loop(op, dst.dtype());
  if (!loop)
    throw DTypeError(std::string("[ufunc_at] no CPU loop of ") + op_name(op) + " for " +
                     dtype_name(dst.dtype()));
  char* base = static_cast<char*>(dst.data());
  const char* vals = static_cast<const char*>(values.data());
  const int64_t* at = positions.data<int64_t>();
  const size_t isz = dst.itemsize();
  const int64_t strides[3] = {0, 0, 0};  // one element per call
  const int64_t value_step = values.size() == 1 ? 0 : static_cast<int64_t>(isz);
  // The loops take their operands as __restrict: the element is read from a copy.
  alignas(16) char current[16];
  for (int64_t k = 0, n = positions.size(); k < n; ++k) {
    char* element = base + at[k] * static_cast<int64_t>(isz);
    std::memcpy(current, element, isz);
    char* const ptrs[3] = {current, const_cast<char*>(vals + k * value_step), element};
    loop(ptrs, strides, 1);
  }
}

}  // namespace accel::cpu
