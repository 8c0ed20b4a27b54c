// Every op of ops.def as a Python function (accel.add, accel.sin, ...), with NumPy's out=.
#include "bindings.h"

namespace accel::py {
namespace {

nb::object call_op(OpId op, std::initializer_list<nb::handle> args, nb::handle out) {
  Device device = device_of(args);
  std::vector<Array> inputs;
  inputs.reserve(args.size());
  for (nb::handle h : args) inputs.push_back(to_operand(h, device));
  return finish_out(elementwise(op, inputs), out, op_name(op));
}

}  // namespace

void init_elementwise(nb::module_& m) {
  using namespace nb::literals;
#define ACCEL_PY_OP_1(name)                                                                    \
  m.def(#name, [](nb::handle x, nb::handle out) { return call_op(OpId::name, {x}, out); },      \
        "x"_a, nb::kw_only(), "out"_a = nb::none());
#define ACCEL_PY_OP_2(name)                                                             \
  m.def(#name, [](nb::handle x1, nb::handle x2, nb::handle out) {                       \
    return call_op(OpId::name, {x1, x2}, out);                                          \
  }, "x1"_a, "x2"_a, nb::kw_only(), "out"_a = nb::none());
#define ACCEL_PY_OP_3(name)                                                             \
  m.def(#name, [](nb::handle x1, nb::handle x2, nb::handle x3, nb::handle out) {        \
    return call_op(OpId::name, {x1, x2, x3}, out);                                      \
  }, "x1"_a, "x2"_a, "x3"_a, nb::kw_only(), "out"_a = nb::none());
#define ACCEL_OP(name, arity, functor, bools, domain, output) \
  if (OpId::name != OpId::cast) { ACCEL_PY_OP_##arity(name) }
#include "accel/ops/ops.def"
#undef ACCEL_OP

  m.def("clip", [](nb::handle x, nb::handle min, nb::handle max, nb::handle out) {
    Device device = device_of({x, min, max});
    Array a = to_operand(x, device);
    std::optional<Array> lo, hi;
    if (!min.is_none()) lo = to_operand(min, device);
    if (!max.is_none()) hi = to_operand(max, device);
    return finish_out(clip(a, lo ? &*lo : nullptr, hi ? &*hi : nullptr), out, "clip");
  }, "x"_a, "min"_a = nb::none(), "max"_a = nb::none(), nb::kw_only(), "out"_a = nb::none());
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
