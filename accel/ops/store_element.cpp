#include "accel/ops/store_element.h"

#include <cstring>
#include <limits>
#include <type_traits>

#include "accel/backend/backend.h"
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

template <class T> bool convert_as(PlainNumber number, void* out) {
  T* p = static_cast<T*>(out);
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

// The number as a value of `dtype` (in `out`, 16 bytes at most), or false where NumPy's
// conversion is the general path's.
bool convert_number(PlainNumber number, Dtype dtype, void* out) {
  return dispatch_dtype(dtype, [&](auto tag) { return convert_as<typename decltype(tag)::type>(number, out); });
}

// Whether x can be written here: computed, on the CPU, writable, not profiled.
bool writable_here(const Array& x) {
  return !x.is_pending() && x.device().is_cpu() && !profile::active() && !x.impl()->read_only &&
         !x.buffer()->read_only();
}

}  // namespace

bool store_number(const Array& x, std::span<const int64_t> index, PlainNumber number) {
  if (!writable_here(x) || static_cast<int>(index.size()) != x.ndim()) return false;
  const ArrayImpl& impl = *x.impl();
  int64_t element = impl.offset;
  for (size_t d = 0; d < index.size(); ++d) {
    const int64_t n = impl.shape[d];
    const int64_t i = index[d];
    if (i < -n || i >= n) return false;
    element += (i < 0 ? i + n : i) * impl.strides[d];
  }
  alignas(16) unsigned char value[16];
  if (!convert_number(number, x.dtype(), value)) return false;
  // Arrays still to be computed from x's memory must see its old values.
  x.buffer()->evaluate_pending_readers();
  char* at = static_cast<char*>(x.buffer()->data()) + element * static_cast<int64_t>(x.itemsize());
  std::memcpy(at, value, x.itemsize());
  return true;
}

bool fill_number(const Array& x, PlainNumber number) {
  if (!writable_here(x)) return false;
  alignas(16) unsigned char value[16];
  if (!convert_number(number, x.dtype(), value)) return false;
  x.buffer()->evaluate_pending_readers();
  backend_for(x.device()).fill(x, value);
  return true;
}

bool store_number_at(const Array& x, const Array& index, PlainNumber number) {
  if (!writable_here(x) || x.ndim() != 1 || index.is_pending() || !index.device().is_cpu() ||
      index.dtype() != Dtype::int64 || !index.is_contiguous())
    return false;
  alignas(16) unsigned char value[16];
  if (!convert_number(number, x.dtype(), value)) return false;
  const int64_t n = x.shape()[0], count = index.size();
  const int64_t* at = index.data<int64_t>();
  // Every index checked before anything is written (an error leaves x as it was, as NumPy's).
  for (int64_t k = 0; k < count; ++k)
    if (at[k] < -n || at[k] >= n) return false;
  x.buffer()->evaluate_pending_readers();
  const int64_t step = x.strides()[0] * static_cast<int64_t>(x.itemsize());
  char* base = static_cast<char*>(x.buffer()->data()) + x.offset() * static_cast<int64_t>(x.itemsize());
  for (int64_t k = 0; k < count; ++k) {
    const int64_t i = at[k] < 0 ? at[k] + n : at[k];
    std::memcpy(base + i * step, value, x.itemsize());
  }
  return true;
}

}  // namespace accel
