#include "accel/ops/elementwise.h"

#include <algorithm>
#include <optional>
#include <string>

#include "accel/eval/eager.h"
#include "accel/eval/eval.h"
#include "accel/ops/copy.h"
#include "accel/ops/manipulation.h"
#include "accel/ops/op_record.h"
#include "accel/ops/promotion.h"
#include "accel/ops/result_layout.h"
#include "accel/runtime/errors.h"
#include "accel/runtime/profiler.h"

namespace accel {
namespace {

// The device all strong operands share; weak scalars follow it.
Device common_device(OpId op, std::span<const Array> inputs) {
  const Array* first = nullptr;
  for (const Array& a : inputs) {
    if (a.weak()) continue;
    if (!first) {
      first = &a;
    } else if (a.device() != first->device()) {
      throw DeviceError(std::string("[") + op_name(op) + "] operands are on different devices (" +
                        first->device().str() + " and " + a.device().str() +
                        "); move one with to_device() first");
    }
  }
  return first ? first->device() : inputs[0].device();
}

// x <op> v (or v <op> x) for a Python int v outside every value of x's integer dtype has the
// same answer for all elements (NumPy 2 answers it rather than raising): all-true is
// equal(x, x), all-false not_equal(x, x), both lazy and of x's shape.
std::optional<Array> compare_out_of_range(OpId op, std::span<const Array> inputs, Dtype compute) {
  if (!is_comparison(op) || !is_integer(compute)) return std::nullopt;
  for (size_t i = 0; i < 2; ++i) {
    int side = weak_int_side(inputs[i], compute);
    if (side == 0) continue;
    const Array& x = inputs[1 - i];
    const bool left_is_less = (i == 1) == (side > 0);
    bool all_true = false;
    switch (op) {
      case OpId::not_equal: all_true = true; break;
      case OpId::less:
      case OpId::less_equal: all_true = left_is_less; break;
      case OpId::greater:
      case OpId::greater_equal: all_true = !left_is_less; break;
      default: break;
    }
    return all_true ? equal(x, x) : not_equal(x, x);
  }
  return std::nullopt;
}

// uint64 against a signed integer array: NumPy 2 compares the values exactly, where their
// common type (float64) would round both past 2^53 (2^63 - 2 == 2^63 - 1). A negative value is
// below every uint64; the others compare as uint64.
std::optional<Array> compare_mixed_sign(OpId op, std::span<const Array> inputs) {
  if (!is_comparison(op) || inputs[0].weak() || inputs[1].weak()) return std::nullopt;
  const bool signed_right = inputs[0].dtype() == Dtype::uint64 &&
                            dtype_kind(inputs[1].dtype()) == DtypeKind::SignedInt;
  const bool signed_left = inputs[1].dtype() == Dtype::uint64 &&
                           dtype_kind(inputs[0].dtype()) == DtypeKind::SignedInt;
  if (!signed_left && !signed_right) return std::nullopt;
  const Array& s = inputs[signed_right ? 1 : 0];
  const Array negative = less(s, Array::scalar(int64_t{0}, true, s.device()));
  const Array as_unsigned[] = {signed_left ? cast_operand(s, Dtype::uint64) : inputs[0],
                               signed_right ? cast_operand(s, Dtype::uint64) : inputs[1]};
  // Where s < 0: the unsigned side is greater.
  bool unsigned_greater_answer = false;  // the answer of "op" when the unsigned side is greater
  switch (op) {
    case OpId::not_equal: unsigned_greater_answer = true; break;
    case OpId::less: case OpId::less_equal: unsigned_greater_answer = signed_left; break;
    case OpId::greater: case OpId::greater_equal: unsigned_greater_answer = signed_right; break;
    default: break;
  }
  const Array answer = Array::scalar(unsigned_greater_answer, false, s.device());
  return where(negative, answer, elementwise(op, as_unsigned));
}

// Whether NumPy's power loop takes a one-element exponent of 0.5 as sqrt: its float32 and
// float64 loops do when the exponent's stride is 0 (a 0-d exponent, or one broadcast: x of
// shape (3,) with [0.5]); same-shape operands, or a 0-d base, run its plain loop, which steps
// through the exponent and calls pow (np.pow([-inf], [0.5]) is inf, np.pow(-inf, 0.5) nan).
// Its float16 loop always calls pow.
bool numpy_takes_sqrt(Dtype compute, const Array& x, const Array& e) {
  if (compute != Dtype::float32 && compute != Dtype::float64) return false;
  if (e.ndim() == 0) return true;
  return x.ndim() != 0 && x.shape() != e.shape();
}

int pending_depth(const Array& a) { return a.is_pending() ? a.impl()->node->depth : 0; }

// A literal exponent: a computed one-element real host value (a Python or NumPy scalar,
// typically; NumPy's power loop sees any one-element exponent as a scalar, its stride 0).
std::optional<double> literal_exponent(const Array& a) {
  if (a.size() != 1 || is_complex(a.dtype())) return std::nullopt;
  if (a.impl()->literal) return a.impl()->literal->real();  // a Python number, on any device
  if (a.is_pending() || !a.device().is_cpu()) return std::nullopt;
  return a.item<double>();
}

// The pending node (or the eager result) of op over inputs, its types resolved and its
// operands rewritten by elementwise().
Array build_elementwise(OpId op, const OpInfo& info, const OpTypes& types, const Device& device,
                        std::span<const Array> inputs) {
  Shape shape = inputs[0].shape();
  for (size_t i = 1; i < inputs.size(); ++i)
    if (inputs[i].shape() != shape) shape = broadcast_shapes(shape, inputs[i].shape(), info.name);

  // A Python int that does not fit the loop's integer dtype is NumPy's OverflowError (NEP 50),
  // except in where: np.where converts its Python values with a C cast, which wraps
  // (np.where(c, -1, uint32_array) puts 4294967295; fuzz seed 901602).
  if (op != OpId::where)
    for (const Array& a : inputs)
      if (a.weak()) check_weak_fits(a, types.compute, info.name);
  const Strides layout = kept_layout(shape, inputs);
  if (auto now = try_eager(op, types.compute, types.out, shape, inputs, layout)) {
    if (profile::active()) [[unlikely]]
      record_op(op, inputs, *now, true);
    return *std::move(now);
  }

  auto node = std::make_shared<Node>();
  node->op = op;
  node->compute = types.compute;
  node->inputs.reserve(inputs.size());
  int depth = 0;
  for (const Array& a : inputs) {
    if (a.weak()) {
      node->inputs.push_back(a.device() == device ? a : to_device(a, device));
    } else {
      node->inputs.push_back(a);
    }
    depth = std::max(depth, pending_depth(a));
  }
  // Long chains are cut here: compute the inputs now so the graph stays shallow.
  if (depth >= kMaxPendingDepth) {
    if (profile::active()) [[unlikely]]
      record_depth_cut(op);
    for (const Array& a : node->inputs)
      if (!a.host_constant()) a.eval();  // a Python number stays a kernel parameter
    depth = 0;
  }
  node->depth = depth + 1;
  Node* recorded = node.get();
  Array out = Array::pending(shape, types.out, device, std::move(node), layout);
  if (profile::active()) [[unlikely]]
    recorded->profile_id = record_op(op, inputs, out, false);
  return out;
}

}  // namespace

Array elementwise(OpId op, std::span<const Array> inputs) {
  if (is_comparison(op))
    if (auto answer = try_eager_scalar_compare(op, inputs)) return *std::move(answer);
  const OpInfo& info = op_info(op);
  if (static_cast<int>(inputs.size()) != info.arity)
    throw ValueError(std::string("[") + info.name + "] takes " + std::to_string(info.arity) +
                     " arguments, got " + std::to_string(inputs.size()));
  Device device = common_device(op, inputs);
  // where's condition is tested for non-zero in its own dtype: the loop casts every input to
  // the compute dtype, which would turn a 0.5 condition into int 0.
  if (op == OpId::where && inputs[0].dtype() != Dtype::bool_) {
    const Array in[] = {cast_operand(inputs[0], Dtype::bool_), inputs[1], inputs[2]};
    return elementwise(op, in);
  }
  // where's condition is not promoted with the values; it is only tested for non-zero.
  std::span<const Array> typed = op == OpId::where ? inputs.subspan(1) : inputs;
  Dtype promoted = result_type(typed);
  const bool float_math = info.domain == OpDomain::Inexact || info.domain == OpDomain::RealInexact;
  // divide is the exception: NumPy divides every integer pair in float64.
  if (float_math && op != OpId::divide && !is_inexact(promoted)) promoted = float_math_type(typed);
  OpTypes types = resolve_op_types(op, promoted);
  if (auto constant = compare_out_of_range(op, inputs, types.compute)) return *constant;
  if (auto exact = compare_mixed_sign(op, inputs)) return *exact;
  // x ** 2 with a literal 2 is x * x, as NumPy's fast scalar power: exact (a GPU's pow may
  // round differently) and no pow call, on every device and in every fused kernel; x ** 1 is x.
  // A literal 0.5 is sqrt where NumPy's power loop takes it so (numpy_takes_sqrt: sqrt(-inf) is
  // nan where pow gives inf, sqrt(-0.0) is -0.0). Decided here, while the exponent is still a
  // host value.
  if (op == OpId::pow && is_floating(types.compute) && inputs[1].size() == 1) {
    const std::optional<double> e = literal_exponent(inputs[1]);
    const bool sqrt_loop = numpy_takes_sqrt(types.compute, inputs[0], inputs[1]);
    if (e == 2.0 || e == 1.0 || (e == 0.5 && sqrt_loop)) {
      Array x = cast_operand(inputs[0], types.compute);
      if (inputs[1].ndim() > 0 && inputs[1].shape() != x.shape())  // (1, 1) exponent: 2-d result
        x = broadcast_to(x, broadcast_shapes(x.shape(), inputs[1].shape(), info.name));
      // x ** 1 is x, bit for bit (NaN payloads and signs too), as the C library's pow and
      // NumPy's operator give it; the vector pow quiets NaNs and drops their signs.
      const OpId op1 = *e == 2.0 ? OpId::square : *e == 1.0 ? OpId::positive : OpId::sqrt;
      return elementwise(op1, std::span<const Array>(&x, 1));
    }
    // An exponent not known yet (computed lazily, or on a device) is 0.5 or not only when the
    // kernel runs: it picks sqrt's answer there, as the path above does once the value is
    // known (fuzz seed 895786348: -inf ** 0.5 was inf lazily, nan eagerly and in NumPy).
    if (!e && sqrt_loop && !is_complex(inputs[1].dtype())) {
      const Array x = cast_operand(inputs[0], types.compute);
      const Array xe[] = {x, cast_operand(inputs[1], types.compute)};
      const Array general = build_elementwise(op, info, types, device, xe);
      const Array is_half = equal(xe[1], Array::scalar(0.5, true, device));
      return where(is_half, sqrt(broadcast_to(x, general.shape())), general);
    }
  }
  return build_elementwise(op, info, types, device, inputs);
}

#define ACCEL_OP_DEF_1(name) \
  Array name(const Array& x) { return elementwise(OpId::name, std::span<const Array>(&x, 1)); }
#define ACCEL_OP_DEF_2(name)                            \
  Array name(const Array& x1, const Array& x2) {        \
    const Array in[] = {x1, x2};                        \
    return elementwise(OpId::name, in);                 \
  }
#define ACCEL_OP_DEF_3(name)                                        \
  Array name(const Array& x1, const Array& x2, const Array& x3) {   \
    const Array in[] = {x1, x2, x3};                                \
    return elementwise(OpId::name, in);                             \
  }
#define ACCEL_OP(name, arity, functor, bools, domain, output) ACCEL_OP_DEF_##arity(name)
#include "accel/core/ops.def"
#undef ACCEL_OP

Array clip(const Array& x, const Array* min, const Array* max) {
  // Complex values clip in NumPy's lexicographic order (real parts first), as maximum/minimum
  // compare them; the Array API leaves complex clip out, NumPy has it.
  Array r = x;
  // Bounds are cast to x's dtype first so the result keeps it (Array API clip).
  if (min) r = maximum(r, min->weak() ? *min : astype(*min, x.dtype()));
  if (max) r = minimum(r, max->weak() ? *max : astype(*max, x.dtype()));
  if (r.dtype() != x.dtype()) r = astype(r, x.dtype());
  // NumPy's clip is one ufunc: its result is laid out by the iterator over x and both bounds as
  // given, which the two steps above (and the bounds' casts) need not keep: a Fortran x beside
  // a broadcast bound came out C-ordered. Without bounds it is a copy laid out so.
  std::vector<Array> given{x};
  for (const Array* bound : {min, max})
    if (bound) given.push_back(*bound);
  const Strides want = kept_layout(r.shape(), given);
  if (r.is(x) || r.strides() != (want.empty() ? contiguous_strides(r.shape()) : want)) {
    Array out = Array::empty(r.shape(), x.dtype(), x.device(), want);
    assign(out, r, "clip");
    r = out;
  }
  return r;
}

}  // namespace accel
