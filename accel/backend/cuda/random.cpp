#include "accel/backend/cuda/random.h"

#include "accel/backend/cuda/builtin_kernels.h"
#include "accel/backend/cuda/stream.h"
#include "accel/device_src/embedded_sources.h"

namespace accel::cuda {
namespace {

// The dtypes a draw can write (the op layer checks the distribution against them).
constexpr Dtype kDtypes[] = {Dtype::float32, Dtype::float64, Dtype::int8,   Dtype::int16,
                             Dtype::int32,   Dtype::int64,   Dtype::uint8,  Dtype::uint16,
                             Dtype::uint32,  Dtype::uint64,  Dtype::bool_};

const char* cxx(Dtype dtype) {
  switch (dtype) {
#define ACCEL_DTYPE(name, ctype, str, kind) \
  case Dtype::name:                         \
    return #ctype;
#include "accel/core/dtype.def"
#undef ACCEL_DTYPE
  }
  return "bool";
}

BuiltinKernels& kernels() {
  static auto* k = new BuiltinKernels(random_kernel_source(), random_kernel_names(),
                                      "accel_random.cu", random_compile_options());  // never freed
  return *k;
}

}  // namespace

std::string random_kernel_name(Dtype dtype) { return std::string("accel_random<") + cxx(dtype) + ">"; }

std::vector<std::string> random_kernel_names() {
  std::vector<std::string> names;
  for (Dtype d : kDtypes) names.push_back(random_kernel_name(d));
  names.push_back("accel_random_counts");
  return names;
}

std::string random_kernel_source() {
  return builtin_source((std::string(embedded::philox_h) + embedded::random_cuh).c_str());
}

std::vector<std::string> random_compile_options() {
  std::vector<std::string> options = builtin_compile_options();
  options.push_back("--fmad=false");  // a * b + c rounds twice, as on the CPU
  return options;
}

void random(int device, const Array& out, const philox::DrawParams& params,
            std::span<const Array> per_element) {
  const int64_t n = out.size();
  if (n == 0) return;
  KernelArgs args;
  args.add(out).add(static_cast<int64_t>(n)).add_bytes(&params, sizeof params);
  // The per-element parameters as the kernel's last two arguments (null when absent): the
  // kernel points its copy of params at them.
  const void* none = nullptr;
  for (size_t i = 0; i < 2; ++i) {
    if (i < per_element.size()) args.add(per_element[i]);
    else args.add_bytes(&none, sizeof none);
  }
  const bool counts =
      params.distribution == philox::kPoisson || params.distribution == philox::kBinomial;
  kernels()
      .get(counts ? std::string("accel_random_counts") : random_kernel_name(out.dtype()), device)(Dim3{grid_for(n, device), 1, 1},
                                                    Dim3{kBlockThreads, 1, 1}, args, 0,
                                                    current_stream(device));
}

}  // namespace accel::cuda
