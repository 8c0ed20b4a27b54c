#include "accel/ops/raw_kernel.h"

#include "accel/backend/cpu/raw_kernel.h"
#include "accel/backend/cuda/kernel.h"
#include "accel/runtime/errors.h"

namespace accel {

struct RawKernel::Impl {
  std::string name;
  cpu::RawModule cpu_module;
  cuda::Module cuda_module, cuda_checked;  // NVRTC compiles each on its first launch
  bool check = false;
};

RawKernel::RawKernel(std::string source, std::string name, std::vector<std::string> options,
                     std::vector<std::string> name_expressions)
    : impl_(std::make_shared<Impl>(Impl{std::move(name), cpu::RawModule(source, options, name_expressions),
                                        cuda::Module(source, options, name_expressions),
                                        cuda::Module(source, options, name_expressions, "kernel.cu", true),
                                        false})) {}

RawKernel& RawKernel::check(bool on) {
  impl_->check = on;
  return *this;
}

const std::string& RawKernel::name() const { return impl_->name; }

void RawKernel::launch_args(Dim3 grid, Dim3 block, size_t shared_mem,
                            const std::vector<Arg>& args) const {
  std::optional<Device> device;
  for (const Arg& a : args) {
    if (!a.array) continue;
    if (device && *device != a.array->device())
      throw DeviceError("[RawKernel " + impl_->name + "] the array arguments are on " +
                        device->str() + " and " + a.array->device().str() +
                        "; a kernel runs on one device (move them with to_device)");
    device = a.array->device();
  }
  if (!device) device = default_device();
  auto fill = [&](auto& out) {
    for (const Arg& a : args) {
      if (a.array) out.add(*a.array);
      else out.add_scalar(a.dtype, a.bytes);
    }
  };
  const bool check = impl_->check || cpu::kernel_check_default();
  if (device->is_cpu()) {
    cpu::RawArgs a;
    fill(a);
    impl_->cpu_module.function(impl_->name, check)({grid.x, grid.y, grid.z},
                                                   {block.x, block.y, block.z}, a, shared_mem, check);
  } else {
    cuda::KernelArgs a;
    fill(a);
    // Checked: the launch synchronises and raises the first out-of-bounds access.
    (check ? impl_->cuda_checked : impl_->cuda_module).function(impl_->name, device->index)({grid.x, grid.y, grid.z},
                                                            {block.x, block.y, block.z}, a, shared_mem);
  }
}

}  // namespace accel
