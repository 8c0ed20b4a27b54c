// Every op of ops.def as a Python function (accel.add, accel.sin, ...), with NumPy's out=,
// where=, dtype= and casting=.
#include <span>
#include <string>

#include "bindings.h"
#include "fast_methods.h"

namespace accel::py {
namespace {

// An input cast refused under NumPy's casting= rule, as NumPy words it.
[[noreturn]] void throw_input_cast(const char* op, size_t i, Dtype from, Dtype to, Casting casting) {
  throw DTypeError(std::string("[") + op + "] cannot cast input " + std::to_string(i) + " from " +
                   dtype_name(from) + " to " + dtype_name(to) + " with casting rule '" +
                   casting_name(casting) + "'");
}

// The operands `where` casts: all but its condition.
size_t first_cast_input(OpId op) { return op == OpId::where ? 1 : 0; }

// NumPy's ufunc dtype=: the op runs in (and returns) `dt`. Inputs are cast to dt under the
// casting rule; a Python integer that does not fit dt raises OverflowError, as NumPy.
Array elementwise_in(OpId op, std::span<Array> inputs, Dtype dt, Casting casting) {
  const char* name = op_name(op);
  for (size_t i = first_cast_input(op); i < inputs.size(); ++i) {
    Array& a = inputs[i];
    if (a.dtype() == dt && !a.weak()) continue;
    if (a.weak()) check_weak_fits(a, dt, name);
    else if (!can_cast(a.dtype(), dt, casting)) throw_input_cast(name, i, a.dtype(), dt, casting);
    a = cast_operand(a, dt);
  }
  Array r = elementwise(op, inputs);
  if (r.dtype() != dt)
    throw DTypeError(std::string("[") + name + "] has no loop that returns dtype=" +
                     dtype_name(dt) + " for these inputs (the result would be " +
                     dtype_name(r.dtype()) + ")");
  return r;
}

// casting='no' or 'equiv' without dtype=: every array operand must already have the loop's
// dtype (the promoted one, or the float a float function computes ints in), as NumPy checks.
void check_inputs_uncast(OpId op, std::span<const Array> inputs, Casting casting) {
  const Dtype loop = resolve_op_types(op, result_type(inputs.subspan(first_cast_input(op)))).compute;
  for (size_t i = first_cast_input(op); i < inputs.size(); ++i)
    if (!inputs[i].weak() && !can_cast(inputs[i].dtype(), loop, casting))
      throw_input_cast(op_name(op), i, inputs[i].dtype(), loop, casting);
}

// out= takes the result under the casting rule, as a NumPy ufunc's (same_kind by default:
// a float result into an int array raises), and broadcast to its shape when it is larger, as
// NumPy's ufuncs broadcast their inputs against out (np.add(row, 1, out=rows): fuzz seed
// 981621). finish_out raises for any other shape.
nb::object finish_elementwise_out(OpId op, Array result, nb::handle out, Casting casting) {
  const nb::handle target =
      !out.is_none() && nb::isinstance<nb::tuple>(out) && nb::len(out) == 1 ? out[0] : out;
  if (!out.is_none() && nb::isinstance<Array>(target)) {
    const Array& dst = nb::cast<const Array&>(target);
    if (casting != Casting::same_kind && casting != Casting::unsafe &&
        !can_cast(result.dtype(), dst.dtype(), casting))
      throw DTypeError(std::string("[") + op_name(op) + "] cannot cast the result from " +
                       dtype_name(result.dtype()) + " to out= " + dtype_name(dst.dtype()) +
                       " with casting rule '" + casting_name(casting) + "'");
    const Shape& want = dst.shape();
    if (want != result.shape() && want.size() >= result.shape().size()) {
      bool fits = true;
      for (size_t i = 0, off = want.size() - result.shape().size(); i < result.shape().size(); ++i)
        fits = fits && (result.shape()[i] == want[off + i] || result.shape()[i] == 1);
      if (fits) result = broadcast_to(result, want);
    }
  }
  return finish_out(std::move(result), out, op_name(op), casting != Casting::unsafe);
}

// The int of `ac.greater(x, 2**70)` beside the other operands as NumPy takes it
// (huge_int_operand, with the dtype of the first array among them); else the OverflowError.
Array huge_operand(OpId op, nb::handle huge, std::span<const Array> operands, size_t at,
                   Device device) {
  for (size_t i = 0; i < operands.size(); ++i) {
    if (i == at || operands[i].weak()) continue;
    if (auto a = huge_int_operand(huge, op, operands[i].dtype(), device)) return *a;
    break;
  }
  return to_operand(huge, device);  // raises the OverflowError again
}

// NumPy's where= of a ufunc: the result only where the condition holds (broadcast with the
// operands); out= keeps its own values elsewhere. Without out=, NumPy leaves those elements
// uninitialised; accel's hold the op's values there.
nb::object finish_masked_out(OpId op, Array result, nb::handle where, nb::handle out,
                             Casting casting, Device device) {
  const char* name = op_name(op);
  Array mask = to_operand(where, device);
  if (mask.dtype() != Dtype::bool_)
    throw DTypeError(std::string("[") + name + "] where= must be a boolean array or bool; got " +
                     mask.describe() + " (NumPy casts it under the 'safe' rule, which refuses)");
  const nb::handle target =
      !out.is_none() && nb::isinstance<nb::tuple>(out) && nb::len(out) == 1 ? out[0] : out;
  if (out.is_none() || !nb::isinstance<Array>(target)) {
    const Shape shape = broadcast_shapes(result.shape(), mask.shape(), name);
    if (shape != result.shape()) result = accel::copy(broadcast_to(result, shape));
    return finish_elementwise_out(op, std::move(result), out, casting);
  }
  const Array& dst = nb::cast<const Array&>(target);
  if (!can_cast(result.dtype(), dst.dtype(), casting))
    throw DTypeError(std::string("[") + name + "] cannot cast the result from " +
                     dtype_name(result.dtype()) + " to out= " + dtype_name(dst.dtype()) +
                     " with casting rule '" + casting_name(casting) + "'");
  // In out's dtype before the merge, so that where() promotes nothing (int64 into uint64 out
  // would otherwise pass through float64). The merge reads out: the write computes it first.
  Array in_out = result.dtype() == dst.dtype() ? result : astype(result, dst.dtype(), false);
  Array parts[] = {mask, in_out, dst};
  return finish_out(elementwise(OpId::where, parts), out, name, false);
}

nb::object call_op(OpId op, std::initializer_list<nb::handle> args, nb::handle out,
                   nb::handle dtype, nb::handle casting_h, nb::handle where = nb::handle()) {
  Device device = device_of(args);
  // The operands in the frame, not in a std::vector (a malloc and a free per call).
  Array operands[kMaxOpArity];
  size_t n = 0;
  nb::handle huge;  // a Python int outside int64 and uint64 (to_operand raised)
  size_t huge_at = 0;
  for (nb::handle h : args) {
    try {
      operands[n] = to_operand(h, device);
    } catch (const OverflowError&) {
      if (huge) throw;
      huge = h;
      huge_at = n;
    }
    ++n;
  }
  if (huge) operands[huge_at] = huge_operand(op, huge, {operands, n}, huge_at, device);
  const std::span<Array> inputs(operands, n);
  const bool masked = where && !where.is_none() && where.ptr() != Py_True;
  if (out.is_none() && dtype.is_none() && casting_h.is_none() && !masked)  // add(a, b)
    return wrap(elementwise(op, inputs));
  const Casting casting = casting_h.is_none()
                              ? Casting::same_kind
                              : casting_from_name(nb::cast<std::string>(casting_h), op_name(op));
  Array result;
  if (!dtype.is_none()) {
    result = elementwise_in(op, inputs, to_dtype(dtype), casting);
  } else {
    if (casting == Casting::no || casting == Casting::equiv) check_inputs_uncast(op, inputs, casting);
    result = elementwise(op, inputs);
  }
  if (masked) return finish_masked_out(op, std::move(result), where, out, casting, device);
  return finish_elementwise_out(op, std::move(result), out, casting);
}

// op(x1, ..., xN) with no out= and no dtype=, as a new reference.
template <int N>
PyObject* positional_op(OpId op, PyObject* const* a) {
  const nb::handle none = nb::none();
  if constexpr (N == 1) return call_op(op, {a[0]}, none, none, none).release().ptr();
  if constexpr (N == 2) return call_op(op, {a[0], a[1]}, none, none, none).release().ptr();
  if constexpr (N == 3) return call_op(op, {a[0], a[1], a[2]}, none, none, none).release().ptr();
}

// op(x1, ..., xN), op(x1, ..., xN, out) and op(x1, ..., xN, out=y): the full function's call
// without its other keywords (where=, dtype=, casting=), or nullptr for any other call. An
// error raised here leaves out unwritten (the write is the last step), so the full function
// that raises it again sees the same operands.
template <int N>
PyObject* op_with_out(OpId op, PyObject* const* a, Py_ssize_t nargs, PyObject* kwnames) {
  const Py_ssize_t keywords = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
  if (keywords == 0 && nargs == N) return positional_op<N>(op, a);
  const bool out_given =
      (keywords == 0 && nargs == N + 1) ||
      (keywords == 1 && nargs == N &&
       PyUnicode_CompareWithASCIIString(PyTuple_GET_ITEM(kwnames, 0), "out") == 0);
  if (!out_given) return nullptr;
  const nb::handle none = nb::none(), out = a[N];
  if constexpr (N == 1) return call_op(op, {a[0]}, out, none, none).release().ptr();
  if constexpr (N == 2) return call_op(op, {a[0], a[1]}, out, none, none).release().ptr();
  if constexpr (N == 3) return call_op(op, {a[0], a[1], a[2]}, out, none, none).release().ptr();
}

// The registry as data, for tests and introspection: (name, arity, bool inputs, domain, output).
nb::list op_registry() {
  static const char* bools[] = {"Keep", "Int8", "Reject", "Logical"};
  static const char* domains[] = {"Any", "Real", "Inexact", "RealInexact", "Integer"};
  static const char* outputs[] = {"Same", "Bool", "Real"};
  nb::list ops;
  for (int i = 0; i < kNumOps; ++i) {
    const OpInfo& info = op_info(static_cast<OpId>(i));
    ops.append(nb::make_tuple(info.name, info.arity, bools[static_cast<int>(info.bools)],
                              domains[static_cast<int>(info.domain)],
                              outputs[static_cast<int>(info.output)]));
  }
  return ops;
}

}  // namespace

void init_elementwise(nb::module_& m) {
  using namespace nb::literals;
#define ACCEL_PY_OP_1(name)                                                                    \
  m.def(#name, [](nb::handle x, nb::handle out, nb::handle where, nb::handle dtype,            \
                  nb::handle casting) {                                                        \
    return call_op(OpId::name, {x}, out, dtype, casting, where);                               \
  }, "x"_a, "out"_a = nb::none(), nb::kw_only(), "where"_a = true, "dtype"_a = nb::none(),     \
     "casting"_a = nb::none());
#define ACCEL_PY_OP_2(name)                                                                    \
  m.def(#name, [](nb::handle x1, nb::handle x2, nb::handle out, nb::handle where,              \
                  nb::handle dtype, nb::handle casting) {                                      \
    return call_op(OpId::name, {x1, x2}, out, dtype, casting, where);                          \
  }, "x1"_a, "x2"_a, "out"_a = nb::none(), nb::kw_only(), "where"_a = true,                    \
     "dtype"_a = nb::none(), "casting"_a = nb::none());
#define ACCEL_PY_OP_3(name)                                                                    \
  m.def(#name, [](nb::handle x1, nb::handle x2, nb::handle x3, nb::handle out,                \
                  nb::handle where, nb::handle dtype, nb::handle casting) {                    \
    return call_op(OpId::name, {x1, x2, x3}, out, dtype, casting, where);                      \
  }, "x1"_a, "x2"_a, "x3"_a, "out"_a = nb::none(), nb::kw_only(), "where"_a = true,            \
     "dtype"_a = nb::none(), "casting"_a = nb::none());
#define ACCEL_OP(name, arity, functor, bools, domain, output) \
  if (OpId::name != OpId::cast) { ACCEL_PY_OP_##arity(name) }
#include "accel/core/ops.def"
#undef ACCEL_OP

  // add(a, b), sqrt(x), add(a, b, out=a): the calls with positional operands and at most out=
  // skip nanobind's dispatch of the five-argument signature (fast_methods.h): ~85 ns of a small
  // `add(a, b)`, ~110 of `add(a, b, out=a)`.
#define ACCEL_OP(name, arity, functor, bools, domain, output)                                  \
  if (OpId::name != OpId::cast)                                                               \
    def_fast_function_with_keywords(m, #name, [](PyObject*, PyObject* const* args,            \
                                                 Py_ssize_t nargs, PyObject* kwnames) {       \
      return op_with_out<arity>(OpId::name, args, nargs, kwnames);                             \
    });
#include "accel/core/ops.def"
#undef ACCEL_OP

  m.def("clip", [](nb::handle x, nb::handle min, nb::handle max, nb::handle out) {
    Device device = device_of({x, min, max});
    Array a = to_operand(x, device);
    std::optional<Array> lo, hi;
    if (!min.is_none()) lo = to_operand(min, device);
    if (!max.is_none()) hi = to_operand(max, device);
    return finish_out(clip(a, lo ? &*lo : nullptr, hi ? &*hi : nullptr), out, "clip", true);
  }, "x"_a, "min"_a = nb::none(), "max"_a = nb::none(), "out"_a = nb::none());
  m.def("_op_registry", &op_registry, "The elementwise op registry (accel/core/ops.def) as tuples.");
  m.def("result_type", [](nb::args args) {
    std::vector<Array> arrays;
    for (nb::handle h : args) {
      if (nb::isinstance<Array>(h)) {
        arrays.push_back(nb::cast<Array>(h));
      } else if (PyBool_Check(h.ptr()) || PyLong_Check(h.ptr()) || PyFloat_Check(h.ptr()) ||
                 PyComplex_Check(h.ptr())) {
        arrays.push_back(to_operand(h, Device::cpu()));
      } else {
        Array proto = Array::empty({}, to_dtype(h), Device::cpu());
        arrays.push_back(proto);
      }
    }
    if (arrays.empty()) throw ValueError("[result_type] at least one array or dtype is required");
    return result_type(arrays);
  });
}

}  // namespace accel::py
