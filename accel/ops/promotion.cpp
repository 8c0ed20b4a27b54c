#include "accel/ops/promotion.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "accel/runtime/errors.h"

namespace accel {
namespace {

int kind_rank(Dtype dt) {
  switch (dtype_kind(dt)) {
    case DtypeKind::Bool: return 0;
    case DtypeKind::SignedInt:
    case DtypeKind::UnsignedInt: return 1;
    case DtypeKind::Float: return 2;
    case DtypeKind::Complex: return 3;
  }
  return 0;
}

// A weak operand of kind `weak` meeting a strong dtype `strong` (NEP 50).
Dtype promote_weak(Dtype strong, Dtype weak) {
  if (kind_rank(weak) <= kind_rank(strong)) return strong;
  switch (kind_rank(weak)) {
    case 1: return default_int;
    case 2: return default_float;
    default:
      return is_floating(strong) ? complex_dtype(strong) : default_complex;
  }
}

// The common dtype of the strong (non-weak) operands, as NumPy's result_type finds it for more
// than two: pairwise promotion is not associative across kinds (int8 + uint16 is int32, and
// int32 + float32 is float64, while float32 absorbs int8 and uint16 one at a time), so NumPy
// meets the highest kind first. Folding after a stable sort by kind, highest first, gives
// np.result_type for every sequence of three and four of accel's dtypes (checked exhaustively).
std::optional<Dtype> promote_strong(std::span<const Array> arrays) {
  // One or two strong operands (every binary op): nothing to order, and no allocation.
  std::optional<Dtype> first, second;
  size_t count = 0;
  for (const Array& a : arrays) {
    if (a.weak()) continue;
    if (++count == 1) first = a.dtype();
    else if (count == 2) second = a.dtype();
  }
  if (count <= 2) return second ? promote_types(*first, *second) : first;
  std::vector<Dtype> strong;
  for (const Array& a : arrays)
    if (!a.weak()) strong.push_back(a.dtype());
  if (strong.empty()) return std::nullopt;
  std::stable_sort(strong.begin(), strong.end(),
                   [](Dtype x, Dtype y) { return kind_rank(x) > kind_rank(y); });
  Dtype dt = strong[0];
  for (Dtype d : strong) dt = promote_types(dt, d);
  return dt;
}

}  // namespace

Dtype result_type(std::span<const Array> arrays) {
  const std::optional<Dtype> promoted = promote_strong(arrays);
  const bool have_strong = promoted.has_value();
  const Dtype strong = promoted.value_or(Dtype::bool_);
  if (!have_strong) {
    Dtype dt = arrays[0].dtype();
    for (const Array& a : arrays) dt = promote_types(dt, a.dtype());
    return dt;
  }
  Dtype dt = strong;
  for (const Array& a : arrays)
    if (a.weak()) dt = promote_weak(dt, a.dtype());
  return dt;
}

Dtype float_math_type(std::span<const Array> arrays) {
  bool have_strong = false;
  const Dtype strong = promote_strong(arrays).value_or(Dtype::bool_);
  Dtype dt = Dtype::bool_;
  for (const Array& a : arrays) {
    if (a.weak()) continue;
    dt = have_strong ? promote_types(dt, inexact_dtype(a.dtype())) : inexact_dtype(a.dtype());
    have_strong = true;
  }
  // A Python int beside only bools is an int64 (nothing smaller adapts to it): float64.
  if (have_strong) {
    for (const Array& a : arrays)
      if (a.weak()) dt = promote_types(dt, inexact_dtype(promote_weak(strong, a.dtype())));
    return dt;
  }
  dt = inexact_dtype(arrays[0].dtype());
  for (const Array& a : arrays) dt = promote_types(dt, inexact_dtype(a.dtype()));
  return dt;
}

int weak_int_side(const Array& weak, Dtype target) {
  if (!weak.weak() || !is_integer(weak.dtype()) || !is_integer(target)) return 0;
  // A GPU array's Python number is read where it is kept, on the host: no upload, no sync.
  const Array& w = weak.host_constant() ? *weak.host_constant() : weak;
  int side = 0;
  auto check = [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
      if (w.dtype() == Dtype::uint64) {
        side = w.item<uint64_t>() > static_cast<uint64_t>(std::numeric_limits<T>::max()) ? 1 : 0;
      } else {
        int64_t v = w.item<int64_t>();
        if (v < 0) {
          if constexpr (std::is_signed_v<T>) side = v < std::numeric_limits<T>::min() ? -1 : 0;
          else side = -1;
        } else {
          side = static_cast<uint64_t>(v) > static_cast<uint64_t>(std::numeric_limits<T>::max()) ? 1 : 0;
        }
      }
    }
  };
  dispatch_dtype(target, check);
  return side;
}

void check_weak_fits(const Array& weak, Dtype target, const char* op) {
  if (weak_int_side(weak, target) == 0) return;
  const Array& w = weak.host_constant() ? *weak.host_constant() : weak;
  std::string value = w.dtype() == Dtype::uint64 ? std::to_string(w.item<uint64_t>())
                                                 : std::to_string(w.item<int64_t>());
  throw OverflowError(std::string("[") + op + "] Python integer " + value +
                      " out of bounds for " + dtype_name(target));
}

void check_weak_store(const Array& value, Dtype target, const char* op) {
  if (!value.weak() || target == Dtype::bool_) return;  // anything stores into bool as its truth
  check_weak_fits(value, target, op);
  const Array& w = value.host_constant() ? *value.host_constant() : value;
  const std::string tag = std::string("[") + op + "] ";
  if (is_complex(w.dtype()) && !is_complex(target))
    throw DTypeError(tag + "cannot store a Python complex into a " + dtype_name(target) +
                    " array (NumPy's rule: the imaginary part is not dropped)");
  if (!is_floating(w.dtype()) || !is_integer(target)) return;
  const double v = w.item<double>();
  if (std::isnan(v)) throw ValueError(tag + "cannot convert float NaN to integer");
  if (std::isinf(v)) throw OverflowError(tag + "cannot convert float infinity to integer");
  const double t = std::trunc(v);  // int(v), as NumPy converts it
  if (t < -0x1p63 || t >= 0x1p64) {
    char text[32];
    std::snprintf(text, sizeof text, "%g", v);
    throw OverflowError(tag + "Python float " + text + " is out of bounds for " +
                        dtype_name(target));
  }
  check_weak_fits(t < 0 ? Array::scalar(static_cast<int64_t>(t), true)
                        : Array::scalar(static_cast<uint64_t>(t), true), target, op);
}

bool can_cast(Dtype from, Dtype to, Casting casting) {
  switch (casting) {
    case Casting::no:
    case Casting::equiv: return from == to;
    case Casting::safe: return can_cast_safely(from, to);
    case Casting::same_kind: return can_cast_same_kind(from, to);
    case Casting::unsafe: return true;
  }
  return false;
}

namespace {
constexpr std::pair<std::string_view, Casting> kCastingNames[] = {
    {"no", Casting::no},
    {"equiv", Casting::equiv},
    {"safe", Casting::safe},
    {"same_kind", Casting::same_kind},
    {"unsafe", Casting::unsafe}};
}  // namespace

Casting casting_from_name(std::string_view name, const char* op) {
  for (auto [n, c] : kCastingNames)
    if (n == name) return c;
  throw ValueError(std::string("[") + op + "] casting must be one of 'no', 'equiv', 'safe', "
                   "'same_kind' or 'unsafe'; got '" + std::string(name) + "'");
}

const char* casting_name(Casting casting) {
  for (auto [n, c] : kCastingNames)
    if (c == casting) return n.data();
  return "?";
}

}  // namespace accel
