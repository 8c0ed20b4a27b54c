#include "accel/core/dtype.h"

#include <string>

#include "accel/runtime/errors.h"

namespace accel {
namespace {

Dtype signed_int_of_size(size_t bytes) {
  switch (bytes) {
    case 1: return Dtype::int8;
    case 2: return Dtype::int16;
    case 4: return Dtype::int32;
    default: return Dtype::int64;
  }
}

Dtype float_of_size(size_t bytes) {
  return bytes <= 2 ? Dtype::float16 : bytes <= 4 ? Dtype::float32 : Dtype::float64;
}

}  // namespace

Dtype dtype_from_name(std::string_view name) {
  for (int i = 0; i < kNumDtypes; ++i)
    if (name == detail::kDtypeInfo[i].name) return static_cast<Dtype>(i);
  struct Alias {
    const char* alias;
    Dtype dt;
  };
  static constexpr Alias kAliases[] = {
      {"?", Dtype::bool_},        {"b1", Dtype::bool_},        {"bool_", Dtype::bool_},
      {"i1", Dtype::int8},        {"i2", Dtype::int16},        {"i4", Dtype::int32},
      {"i8", Dtype::int64},       {"int", Dtype::int64},       {"intp", Dtype::int64},
      {"u1", Dtype::uint8},       {"u2", Dtype::uint16},       {"u4", Dtype::uint32},
      {"u8", Dtype::uint64},      {"uint", Dtype::uint64},     {"uintp", Dtype::uint64},
      {"f2", Dtype::float16},     {"e", Dtype::float16},       {"half", Dtype::float16},
      {"<f2", Dtype::float16},    {"f4", Dtype::float32},     {"f8", Dtype::float64},      {"float", Dtype::float64},
      {"double", Dtype::float64}, {"single", Dtype::float32},  {"c8", Dtype::complex64},
      {"c16", Dtype::complex128}, {"complex", Dtype::complex128}, {"<f4", Dtype::float32},
      {"<f8", Dtype::float64},    {"<i4", Dtype::int32},       {"<i8", Dtype::int64},
      {"<c8", Dtype::complex64},  {"<c16", Dtype::complex128}, {"|b1", Dtype::bool_},
      {"|i1", Dtype::int8},       {"|u1", Dtype::uint8},       {"<i2", Dtype::int16},
      {"<u2", Dtype::uint16},     {"<u4", Dtype::uint32},      {"<u8", Dtype::uint64},
  };
  for (const auto& a : kAliases)
    if (name == a.alias) return a.dt;
  throw DTypeError("[dtype] accel has no dtype named '" + std::string(name) +
                   "'; supported: bool, int8..int64, uint8..uint64, float16, bfloat16, float32, "
                   "float64, complex64, complex128");
}

Dtype real_dtype(Dtype dt) {
  if (dt == Dtype::complex64) return Dtype::float32;
  if (dt == Dtype::complex128) return Dtype::float64;
  return dt;
}

Dtype complex_dtype(Dtype dt) {
  if (is_complex(dt)) return dt;
  return itemsize(dt) <= 4 ? Dtype::complex64 : Dtype::complex128;
}

Dtype inexact_dtype(Dtype dt) {
  switch (dt) {
    case Dtype::bool_:
    case Dtype::int8:
    case Dtype::uint8: return Dtype::float16;
    case Dtype::int16:
    case Dtype::uint16: return Dtype::float32;
    default: return is_inexact(dt) ? dt : Dtype::float64;
  }
}

Dtype promote_types(Dtype a, Dtype b) {
  if (a == b) return a;
  const detail::DtypeInfo& x = detail::kDtypeInfo[static_cast<size_t>(a)];
  const detail::DtypeInfo& y = detail::kDtypeInfo[static_cast<size_t>(b)];
  if (x.kind == DtypeKind::Bool) return b;
  if (y.kind == DtypeKind::Bool) return a;
  auto has = [&](DtypeKind k) { return x.kind == k || y.kind == k; };
  if (has(DtypeKind::Complex)) {
    // complex64 + float64 -> complex128: the real part needs the wider float.
    size_t real = std::max(is_complex(a) ? x.itemsize / 2 : x.itemsize,
                           is_complex(b) ? y.itemsize / 2 : y.itemsize);
    if (is_integer(a) || is_integer(b)) {
      size_t int_size = is_integer(a) ? x.itemsize : y.itemsize;
      real = std::max(real, int_size >= 4 ? size_t{8} : size_t{4});
    }
    return real <= 4 ? Dtype::complex64 : Dtype::complex128;
  }
  if (has(DtypeKind::Float)) {
    size_t fsize = is_floating(a) ? x.itemsize : 0;
    fsize = std::max(fsize, is_floating(b) ? y.itemsize : size_t{0});
    size_t isize = is_integer(a) ? x.itemsize : (is_integer(b) ? y.itemsize : 0);
    // NumPy: int8/uint8 fit in float16, int16 in float32, wider ints need float64.
    size_t need = isize == 0 ? fsize : std::max(fsize, isize >= 4 ? size_t{8} : isize * 2);
    // Two bytes with bfloat16: bfloat16 itself (it holds every int8 and uint8 too), but float16
    // and bfloat16 each lack the other's values and meet in float32 (ml_dtypes, JAX).
    if (need == 2 && (a == Dtype::bfloat16 || b == Dtype::bfloat16))
      return a == Dtype::float16 || b == Dtype::float16 ? Dtype::float32 : Dtype::bfloat16;
    return float_of_size(need);
  }
  if (x.kind == y.kind) {
    return x.itemsize >= y.itemsize ? a : b;
  }
  // Mixed signed/unsigned: a signed int wider than the unsigned one, or float64 for uint64.
  size_t usize = is_unsigned(a) ? x.itemsize : y.itemsize;
  size_t ssize = is_unsigned(a) ? y.itemsize : x.itemsize;
  if (ssize > usize) return signed_int_of_size(ssize);
  if (usize >= 8) return Dtype::float64;
  return signed_int_of_size(usize * 2);
}

bool can_cast_safely(Dtype from, Dtype to) { return promote_types(from, to) == to; }

bool can_cast_same_kind(Dtype from, Dtype to) {
  static constexpr int kRank[] = {0, 2, 1, 3, 4};  // by DtypeKind: Bool, SignedInt, UnsignedInt, ...
  return kRank[static_cast<int>(dtype_kind(from))] <= kRank[static_cast<int>(dtype_kind(to))];
}

}  // namespace accel
