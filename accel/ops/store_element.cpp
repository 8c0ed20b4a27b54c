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

// Whether `values` can be read here as the elements to store into x: computed, on the CPU,
// contiguous, of x's dtype (no cast), and not in x's memory (NumPy copies a value that overlaps
// its target first; the general path does the same).
bool readable_values(const Array& values, const Array& x) {
  return !values.is_pending() && values.device().is_cpu() && values.dtype() == x.dtype() &&
         values.is_contiguous() && values.buffer() != x.buffer();
}

// The indices of `index` when a 1-d x can take a store at every one (computed, contiguous
// int64 on the CPU, all in range: an error leaves x as it was, as NumPy's does), else null. Not
// an index in x's own memory (x[x] = 0 of an int64 x): the stores would change indices still
// to be read.
const int64_t* checked_indices(const Array& x, const Array& index) {
  if (index.is_pending() || !index.device().is_cpu() || index.dtype() != Dtype::int64 ||
      !index.is_contiguous() || index.buffer() == x.buffer())
    return nullptr;
  const int64_t n = x.shape()[0], count = index.size();
  const int64_t* at = index.data<int64_t>();
  for (int64_t k = 0; k < count; ++k)
    if (at[k] < -n || at[k] >= n) return nullptr;
  return at;
}

// One element of `size` bytes: a fixed-size copy for each dtype's size (memcpy of a variable
// size is a library call per element).
inline void copy_item(char* to, const void* from, size_t size) {
  switch (size) {
    case 1: std::memcpy(to, from, 1); return;
    case 2: std::memcpy(to, from, 2); return;
    case 4: std::memcpy(to, from, 4); return;
    case 8: std::memcpy(to, from, 8); return;
    default: std::memcpy(to, from, 16); return;
  }
}

// Writes value(k) at the `count` checked indices `at` of the 1-d x, in order (the last of
// repeated indices stays, as NumPy's).
template <class Value>
void store_at_indices(const Array& x, const int64_t* at, int64_t count, Value value) {
  x.buffer()->evaluate_pending_readers();
  const int64_t n = x.shape()[0];
  const size_t size = x.itemsize();
  const int64_t step = x.strides()[0] * static_cast<int64_t>(size);
  char* base = static_cast<char*>(x.buffer()->data()) + x.offset() * static_cast<int64_t>(size);
  for (int64_t k = 0; k < count; ++k) {
    const int64_t i = at[k] < 0 ? at[k] + n : at[k];
    copy_item(base + i * step, value(k), size);
  }
}

// A bool mask of x's own shape, computed and contiguous on the CPU, for a contiguous x. It may
// be x itself (x[x] = False): element k of the mask is read before element k of x is written,
// and no other.
bool mask_of(const Array& x, const Array& mask) {
  return x.ndim() > 0 && x.is_contiguous() && !mask.is_pending() && mask.device().is_cpu() &&
         mask.dtype() == Dtype::bool_ && mask.is_contiguous() && mask.shape() == x.shape();
}

// Writes value(j) at the j-th true element of the mask (C order).
template <class Value> void store_where(const Array& x, const Array& mask, Value value) {
  x.buffer()->evaluate_pending_readers();
  const size_t size = x.itemsize();
  char* base = static_cast<char*>(x.buffer()->data()) + x.offset() * static_cast<int64_t>(size);
  const bool* m = mask.data<bool>();
  for (int64_t k = 0, j = 0, n = x.size(); k < n; ++k)
    if (m[k]) copy_item(base + k * static_cast<int64_t>(size), value(j++), size);
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
  if (!writable_here(x) || x.ndim() != 1) return false;
  const int64_t* at = checked_indices(x, index);
  alignas(16) unsigned char value[16];
  if (!at || !convert_number(number, x.dtype(), value)) return false;
  store_at_indices(x, at, index.size(), [&](int64_t) { return value; });
  return true;
}

bool store_values_at(const Array& x, const Array& index, const Array& values) {
  if (!writable_here(x) || x.ndim() != 1 || !readable_values(values, x)) return false;
  const bool one = values.size() == 1 && values.ndim() <= index.ndim();
  if (!one && values.shape() != index.shape()) return false;
  const int64_t* at = checked_indices(x, index);
  if (!at) return false;
  const char* v = static_cast<const char*>(values.data());
  const int64_t step = one ? 0 : static_cast<int64_t>(x.itemsize());
  store_at_indices(x, at, index.size(), [&](int64_t k) { return v + k * step; });
  return true;
}

bool store_number_where(const Array& x, const Array& mask, PlainNumber number) {
  if (!writable_here(x) || !mask_of(x, mask)) return false;
  alignas(16) unsigned char value[16];
  if (!convert_number(number, x.dtype(), value)) return false;
  store_where(x, mask, [&](int64_t) { return value; });
  return true;
}

bool store_values_where(const Array& x, const Array& mask, const Array& values) {
  if (!writable_here(x) || !mask_of(x, mask) || !readable_values(values, x) || values.ndim() > 1)
    return false;
  const bool* m = mask.data<bool>();
  int64_t selected = 0;
  for (int64_t k = 0, n = mask.size(); k < n; ++k) selected += m[k];
  // NumPy's rule: as many values as true elements, or one for all (else its ValueError).
  const bool one = values.size() == 1;
  if (!one && values.size() != selected) return false;
  const char* v = static_cast<const char*>(values.data());
  const int64_t step = one ? 0 : static_cast<int64_t>(x.itemsize());
  store_where(x, mask, [&](int64_t j) { return v + j * step; });
  return true;
}

}  // namespace accel
