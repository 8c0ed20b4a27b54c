// The CUDA backend's elementwise family: every op of ops.def, every cast, fused KernelIR
// regions, fills and arange. Each kernel is a KernelIR turned into CUDA C++ by the code
// generator (codegen/emit.h, the CUDA dialect), so it calls the same scalar functors
// (device_src/scalar_ops.h) as the CPU loops: no op is written again for the GPU. Kernels are
// compiled once by NVRTC (the kernel cache keeps them on disk) and then found by their IR in
// memory, so a warm launch costs a map lookup and cuLaunchKernel.
#pragma once
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "accel/core/array.h"
#include "accel/ir/kernel_ir.h"

namespace accel::cuda {

// NVRTC options of every generated kernel (the architecture aside). --fmad=false: a * b + c is
// rounded twice, as NumPy and the CPU backend compute it, so fused arithmetic matches them bit
// for bit; these kernels are bound by memory, so the lost FMAs cost nothing measurable.
const std::vector<std::string>& generated_kernel_options();

// out = op(inputs...) for inputs of dtype `compute`, stored as `out` (a cast when `out` is not
// the op's own result dtype). Operands are contiguous: launches set the layouts they find.
ir::KernelIR op_kernel_ir(OpId op, Dtype compute, Dtype out);
// out = convert<to>(in).
ir::KernelIR cast_kernel_ir(Dtype from, Dtype to);

// A by-value operand's parameter: its dtype and the value's bytes in it.
struct ByValueParam {
  Dtype dtype;
  std::string bytes;
};

// A launch of a generated kernel worked out on the host: the IR with the layouts its operands
// allow, and per launch (one, or more past 8 unmergeable axes) the packed args struct and the
// element count; every launch passes the by-value parameters after the struct. Empty `args`:
// nothing to run (no elements).
struct GeneratedLaunch {
  ir::KernelIR ir;
  std::vector<std::string> args;
  std::vector<int64_t> sizes;
  std::vector<ByValueParam> values;
};
// The launch of `ir` over inputs and outputs of one shape on one device (see below), or nullopt
// when the kernel would take more operands than one launch can pass. Throws DeviceError or
// ValueError for operands of another device, dtype or shape.
std::optional<GeneratedLaunch> plan_generated_kernel(ir::KernelIR ir, std::span<const Array> inputs,
                                                     std::span<const Array> outputs);

// Runs `ir` with inputs and outputs of one shape (inputs may be broadcast views with 0 strides)
// on cuda:device, queued on the current stream. Operand layouts are taken from the arrays after
// simplifying their shape (ir's own are ignored, but for by_value inputs: 0-d Python numbers
// kept on the host, Array::deferred_upload, passed as parameters of the operand's dtype).
// Returns false, doing nothing, when the kernel would take more operands than one launch can
// pass (the caller then splits the work).
bool run_generated_kernel(int device, ir::KernelIR ir, std::span<const Array> inputs,
                          std::span<const Array> outputs);

// out (contiguous, 1-d) = first, second, first + 2 * (second - first), ... in out's dtype
// (Backend::arange); first and second are elements of out's dtype in host memory.
void run_arange(int device, const Array& out, const void* first, const void* second);
// The arange kernels' source and their name expressions ("accel_arange<float>", ...): one
// module for every dtype but bool (at most two elements, written by copies).
std::string arange_source();
std::vector<std::string> arange_names();
std::string arange_name(Dtype dtype);

}  // namespace accel::cuda
