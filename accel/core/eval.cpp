#include "accel/core/eval.h"

#include <vector>

#include "accel/backend/backend.h"

namespace accel {
namespace {

// The input as the loop wants it: cast to the compute dtype, viewed with the output's shape.
Array prepare_input(const Array& in, Dtype compute, const Shape& shape, Backend& be) {
  Array a = in;
  a.eval();
  if (a.dtype() != compute) {
    Array cast = Array::empty(a.shape(), compute, a.device());
    be.cast(a, cast);
    a = cast;
  }
  if (a.shape() == shape) return a;
  return Array::view_of(a, shape, broadcast_strides(a.shape(), a.strides(), shape), a.offset());
}

void run_node(const Node& node, const Array& out) {
  Backend& be = backend_for(out.device());
  std::vector<Array> inputs;
  inputs.reserve(node.inputs.size());
  for (const Array& in : node.inputs) inputs.push_back(prepare_input(in, node.compute, out.shape(), be));
  if (node.op == OpId::cast)
    be.cast(inputs[0], out);
  else
    be.elementwise(node.op, inputs, out);
}

}  // namespace

void evaluate(const Array& a) {
  auto node = a.impl()->node;
  if (!node) return;
  Array out = Array::empty(a.shape(), a.dtype(), a.device());
  run_node(*node, out);
  ArrayImpl& impl = *a.impl();
  impl.buffer = out.impl()->buffer;
  impl.strides = out.strides();
  impl.offset = 0;
  impl.node.reset();
}

void evaluate_into(const Array& pending, const Array& out) {
  auto node = pending.impl()->node;
  run_node(*node, out);
}

}  // namespace accel
