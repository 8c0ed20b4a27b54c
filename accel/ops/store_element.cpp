#include "accel/ops/store_element.h"

#include <limits>
#include <type_traits>

#include "accel/core/dtype.h"
#include "accel/device_src/scalar_ops.h"
#include "accel/runtime/profiler.h"

namespace accel {
namespace {

// Whether int64 v is a value of integer type T.
template <class T> bool holds(int64_t v) {
  if constexpr (std::is_unsigned_v<T>) {
    return v >= 0 && static_cast<uint64_t>(v) <= std::numeric_limits<T>::max();
  } else {
    return v >= std::numeric_limits<T>::min() && v <= std::numeric_limits<T>::max();
  }
}

template <class T> bool store_as(void* at, PlainNumber number) {
  T* p = static_cast<T*>(at);
  if constexpr (std::is_same_v<T, bool>) {
    *p = number.is_int ? number.i != 0 : number.d != 0.0;  // NaN is true, as NumPy's
  } else if constexpr (std::is_integral_v<T>) {
    if (!number.is_int || !holds<T>(number.i)) return false;
    *p = static_cast<T>(number.i);
  } else {
    // Floats and complex numbers: from a double, as NumPy converts a Python number.
    constexpr int64_t kExact = int64_t(1) << 53;
    if (number.is_int && (number.i > kExact || number.i < -kExact)) return false;
    const double v = number.is_int ? static_cast<double>(number.i) : number.d;
    *p = scalar::convert<T>(v);
  }
  return true;
}

}  // namespace

bool store_number(const Array& x, std::span<const int64_t> index, PlainNumber number) {
  if (x.is_pending() || !x.device().is_cpu() || profile::active()) return false;
  if (static_cast<int>(index.size()) != x.ndim()) return false;
  const ArrayImpl& impl = *x.impl();
  if (impl.read_only || x.buffer()->read_only()) return false;
  int64_t element = impl.offset;
  for (size_t d = 0; d < index.size(); ++d) {
    const int64_t n = impl.shape[d];
    int64_t i = index[d];
    if (i < -n || i >= n) return false;
    element += (i < 0 ? i + n : i) * impl.strides[d];
  }
  const Dtype dtype = x.dtype();
  // Arrays still to be computed from x's memory must see its old values. (A store refused
  // below only computed them sooner.)
  x.buffer()->evaluate_pending_readers();
  char* base = static_cast<char*>(x.buffer()->data());
  void* at = base + element * static_cast<int64_t>(itemsize(dtype));
  return dispatch_dtype(dtype, [&](auto tag) { return store_as<typename decltype(tag)::type>(at, number); });
}

}  // namespace accel
