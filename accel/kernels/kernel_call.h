// What ElementwiseKernel and ReductionKernel do alike for a call: match the arguments to the
// params, find the device, bind the type placeholders, convert the inputs, check the outputs
// given, and hand the planned kernel to the device's backend.
#pragma once
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "accel/codegen/template_kernel.h"
#include "accel/kernels/kernel_params.h"
#include "accel/kernels/template_launch.h"

namespace accel {

struct KernelCall {
  std::string kernel;
  Device device = Device::cpu();
  std::vector<KernelParam> params;  // in params, then out params
  size_t nin = 0;
  std::vector<Array> args;    // converted inputs; outputs given (invalid where not given)
  std::vector<Dtype> dtypes;  // of each param
  TypeBindings types;
  // Arrays the kernel writes in place of the caller's (raw outputs that are not contiguous,
  // outputs of loops with too many axes): copied back after the run.
  std::vector<std::pair<Array, Array>> write_back;  // (caller's, the kernel's)
};

// Matches `args` (the in params' arguments, then optionally every out param's) to the params.
// Throws ValueError (argument count), DeviceError, DTypeError, OverflowError.
KernelCall bind_kernel_call(const std::string& kernel, const std::vector<KernelParam>& in,
                            const std::vector<KernelParam>& out, const std::vector<Array>& args);

// The kernel skeleton of a call: params with their dtypes, the bound placeholders as typedefs.
codegen::TemplateKernel template_of(const KernelCall& call, const std::string& preamble,
                                    const std::vector<std::string>& options);

// Raw operand k as the kernel sees it: C-contiguous (a raw output that is not gets a copy,
// written back after the run).
TemplateOperand raw_operand(KernelCall& call, size_t k);

// Byte strides of `a` (element strides times the item size).
Strides byte_strides(const Array& a);

// Computes the inputs, then the pending readers of every output's memory (they must see the
// old values), and puts the operands' addresses into `launch`.
void bind_operands(KernelCall& call, codegen::TemplateLaunch& launch);
// bind_operands, then runs the launch on the call's device and copies write-backs.
void run_kernel_call(KernelCall& call, codegen::TemplateLaunch launch);

}  // namespace accel
