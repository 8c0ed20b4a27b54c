#include "accel/backend/backend.h"

#include <vector>

#include "accel/backend/cpu/cpu_backend.h"
#include "accel/backend/profiling_backend.h"
#include "accel/backend/cuda/cuda_backend.h"
#include "accel/ir/kernel_ir.h"
#include "accel/runtime/config.h"
#include "accel/runtime/errors.h"
#include "accel/runtime/profiler.h"

namespace accel {

Backend& backend_for(Device device) {
  Backend& be = device.is_cpu() ? static_cast<Backend&>(cpu::cpu_backend())
                                : static_cast<Backend&>(cuda::cuda_backend(device.index));
  if (profile::active()) [[unlikely]]
    return profiled_backend(be);
  return be;
}

namespace {

// A by-value operand (a Python number kept on the host) as an instruction reads it: its value
// in the operand's dtype, converted as the CPU casts, uploaded once and broadcast over `shape`.
Array uploaded_value(const Array& scalar, Dtype dtype, const Shape& shape) {
  std::vector<unsigned char> bytes(itemsize(dtype));
  scalar.host_constant()->copy_to_host(bytes.data(), dtype);
  Array one = Array::from_host(bytes.data(), dtype, {}, scalar.device());
  return Array::view_of(one, shape, Strides(shape.size(), 0), 0);
}

}  // namespace

Array Backend::compress_rows(const Array& x, const Array& mask) {
  const Array coords = nonzero(mask);  // shape (1, count)
  const Array rows = Array::view_of(coords, {coords.shape()[1]}, {1}, coords.offset());
  Shape shape = x.shape();
  shape[0] = rows.shape()[0];
  Array out = Array::empty(shape, x.dtype(), device());
  const int axis = 0;
  // Positions nonzero found inside the mask, which is as long as axis 0: none is out of bounds.
  gather(x, std::span<const int>(&axis, 1), std::span<const Array>(&rows, 1), out);
  return out;
}

void Backend::reduce_kernel(ReduceOp op, const ir::KernelIR& ir, std::span<const Array> inputs,
                            const Shape& shape, const std::vector<int>& axes, const Array& out) {
  // Stored, then reduced: what a backend without a blockwise path does.
  const Array value = Array::empty(shape, ir.outputs[0].dtype, device());
  run_kernel(ir, inputs, std::span<const Array>(&value, 1));
  reduce(op, value, axes, out);
}

void Backend::run_kernel(const ir::KernelIR& ir, std::span<const Array> inputs,
                         std::span<const Array> outputs) {
  const Shape& shape = outputs[0].shape();
  std::vector<Array> values;
  values.reserve(ir.instrs.size());
  for (const ir::Instr& in : ir.instrs) {
    if (in.kind == ir::InstrKind::load) {
      const auto k = static_cast<size_t>(in.args[0]);
      values.push_back(ir.inputs[k].layout == ir::Layout::by_value
                           ? uploaded_value(inputs[k], in.dtype, shape)
                           : inputs[k]);
      continue;
    }
    Array out = Array::empty(shape, in.dtype, device());
    if (in.kind == ir::InstrKind::cast) {
      cast(values[static_cast<size_t>(in.args[0])], out);
    } else {
      std::vector<Array> args;
      for (int a = 0; a < in.nargs(); ++a) args.push_back(values[static_cast<size_t>(in.args[a])]);
      elementwise(in.op, args, out);
    }
    values.push_back(std::move(out));
  }
  for (size_t k = 0; k < outputs.size(); ++k)
    cast(values[static_cast<size_t>(ir.results[k])], outputs[k]);
}

bool backend_available(Device device) {
  try {
    backend_for(device);
    return true;
  } catch (const BackendUnavailable&) {
    return false;
  } catch (const DeviceError&) {  // e.g. cuda:3 on a machine with one GPU
    return false;
  }
}

// Declared in core/device.h; defined here because the answer depends on which backends load.
Device default_device() {
  static const Device dev = [] {
    if (auto env = config::text(config::Var::ACCEL_DEVICE)) return Device::parse(*env);
    if (backend_available(Device::cuda(0))) return Device::cuda(0);
    return Device::cpu();
  }();
  return dev;
}

}  // namespace accel
