#include "accel/backend/cuda/matmul.h"

#include <algorithm>
#include <complex>
#include <map>
#include <memory>
#include <mutex>

#include "accel/backend/cuda/builtin_kernels.h"
#include "accel/backend/cuda/cublas.h"
#include "accel/backend/cuda/devices.h"
#include "accel/backend/cuda/matmul_plan.h"
#include "accel/backend/cuda/memory.h"
#include "accel/device_src/embedded_sources.h"

namespace accel::cuda {
namespace {

constexpr Dtype kAllDtypes[] = {
#define ACCEL_DTYPE(name, type, numpy, kind) Dtype::name,
#include "accel/core/dtype.def"
#undef ACCEL_DTYPE
};

// The layout of accel_mm::Shape in matmul.cuh, passed by value.
struct KernelShape {
  long long m, n, k;
  long long sa0, sa1, sb0, sb1;
  long long batch;
  int batch_nd;
};

constexpr int64_t kTile = 64;  // matmul.cuh's kTile
constexpr unsigned kMatmulThreads = 256;
constexpr int64_t kMaxGridYZ = 65535;

// One module per dtype: the first product of a dtype compiles only its own instantiation.
BuiltinKernels& matmul_kernels(Dtype dt) {
  static std::mutex mutex;
  static auto* modules = new std::map<Dtype, std::unique_ptr<BuiltinKernels>>();  // never freed
  std::lock_guard<std::mutex> lock(mutex);
  auto& k = (*modules)[dt];
  if (!k)
    k = std::make_unique<BuiltinKernels>(matmul_kernel_source(),
                                         std::vector<std::string>{matmul_kernel_name(dt)},
                                         "accel_matmul.cu");
  return *k;
}

void* at(const Array& x, int64_t elements) {
  return static_cast<char*>(x.data()) + elements * static_cast<int64_t>(x.itemsize());
}

// a, b and out as cuBLAS sees them (matmul_plan.h), one call or one per batch element.
void run_cublas(int device, const GemmPlan& p, const Array& a, const Array& b, const Array& out) {
  const CublasApi& api = cublas();
  CublasHandle& h = cublas_handle(device);
  const Dtype dt = out.dtype();
  // alpha = 1, beta = 0 in the dtype (complex: real part 1, imaginary 0).
  const std::complex<double> one_z(1, 0), zero_z(0, 0);
  const std::complex<float> one_c(1, 0), zero_c(0, 0);
  const double one_d = 1, zero_d = 0;
  const float one_s = 1, zero_s = 0;
  const void* one = dt == Dtype::float32 ? static_cast<const void*>(&one_s)
                    : dt == Dtype::float64 ? static_cast<const void*>(&one_d)
                    : dt == Dtype::complex64 ? static_cast<const void*>(&one_c)
                                             : static_cast<const void*>(&one_z);
  const void* zero = dt == Dtype::float32 ? static_cast<const void*>(&zero_s)
                     : dt == Dtype::float64 ? static_cast<const void*>(&zero_d)
                     : dt == Dtype::complex64 ? static_cast<const void*>(&zero_c)
                                              : static_cast<const void*>(&zero_z);
  auto gemm = dt == Dtype::float32 ? api.sgemm : dt == Dtype::float64 ? api.dgemm
              : dt == Dtype::complex64 ? api.cgemm : api.zgemm;
  auto batched = dt == Dtype::float32 ? api.sgemm_strided_batched
                 : dt == Dtype::float64 ? api.dgemm_strided_batched
                 : dt == Dtype::complex64 ? api.cgemm_strided_batched
                                          : api.zgemm_strided_batched;
  const std::string where = "matmul cuda:" + std::to_string(device);
  std::lock_guard<std::mutex> lock(h.mutex);
  make_current(device);
  api.check(api.set_stream(h.handle, current_stream(device).handle()), "cublasSetStream", where);
  if (p.strided && p.batch == 1) {
    api.check(gemm(h.handle, p.transa, p.transb, p.m, p.n, p.k, one, b.data(), p.lda, a.data(),
                   p.ldb, zero, out.data(), p.ldc),
              "cublasGemm", where);
  } else if (p.strided) {
    api.check(batched(h.handle, p.transa, p.transb, p.m, p.n, p.k, one, b.data(), p.lda,
                      p.stride_b, a.data(), p.ldb, p.stride_a, zero, out.data(), p.ldc,
                      p.stride_c, static_cast<int>(p.batch)),
              "cublasGemmStridedBatched", where);
  } else {
    for (int64_t i = 0; i < p.batch; ++i)
      api.check(gemm(h.handle, p.transa, p.transb, p.m, p.n, p.k, one, at(b, p.offsets_b[i]),
                     p.lda, at(a, p.offsets_a[i]), p.ldb, zero, at(out, i * p.stride_c), p.ldc),
                "cublasGemm", where);
  }
}

void run_kernel(int device, const Array& a, const Array& b, const Array& out) {
  const int batch_nd = out.ndim() - 2;
  KernelShape s{};
  s.m = out.shape(-2);
  s.n = out.shape(-1);
  s.k = a.shape(-1);
  s.sa0 = a.strides()[batch_nd];
  s.sa1 = a.strides()[batch_nd + 1];
  s.sb0 = b.strides()[batch_nd];
  s.sb1 = b.strides()[batch_nd + 1];
  s.batch = 1;
  // The batch axes as a table in device memory: [shape, a strides, b strides].
  std::vector<int64_t> table;
  for (int d = 0; d < batch_nd; ++d) {
    if (out.shape()[d] == 1) continue;  // length-1 axes move nothing
    s.batch *= out.shape()[d];
    table.push_back(out.shape()[d]);
  }
  s.batch_nd = static_cast<int>(table.size());
  for (const Array* x : {&a, &b})
    for (int d = 0; d < batch_nd; ++d)
      if (out.shape()[d] != 1) table.push_back(x->strides()[d]);
  Stream stream = current_stream(device);
  std::shared_ptr<Buffer> table_buf;
  uint64_t table_ptr = 0;
  if (!table.empty()) {
    table_buf = allocate(device, table.size() * sizeof(int64_t));
    copy_async(table_buf->data(), table.data(), table.size() * sizeof(int64_t),
               CopyKind::host_to_device, stream);
    table_ptr = reinterpret_cast<uint64_t>(table_buf->data());
  }
  Dim3 grid;
  grid.x = static_cast<unsigned>(std::min<int64_t>((s.n + kTile - 1) / kTile, INT32_MAX));
  grid.y = static_cast<unsigned>(std::min<int64_t>((s.m + kTile - 1) / kTile, kMaxGridYZ));
  grid.z = static_cast<unsigned>(std::min<int64_t>(s.batch, kMaxGridYZ));
  KernelArgs args;
  args.add(reinterpret_cast<uint64_t>(a.data()))
      .add(reinterpret_cast<uint64_t>(b.data()))
      .add(reinterpret_cast<uint64_t>(out.data()))
      .add_bytes(&s, sizeof s)
      .add(table_ptr);
  matmul_kernels(out.dtype())
      .get(matmul_kernel_name(out.dtype()), device)(grid, Dim3{kMatmulThreads, 1, 1}, args, 0, stream);
}

}  // namespace

std::string matmul_kernel_source() { return builtin_source(embedded::matmul_cuh); }

std::string matmul_kernel_name(Dtype dt) {
  switch (dt) {
#define ACCEL_DTYPE(name, type, numpy, kind) \
  case Dtype::name: return "accel_matmul<" #type ">";
#include "accel/core/dtype.def"
#undef ACCEL_DTYPE
  }
  return {};
}

std::vector<std::string> matmul_kernel_names() {
  std::vector<std::string> names;
  for (Dtype dt : kAllDtypes) names.push_back(matmul_kernel_name(dt));
  return names;
}

void matmul(int device, const Array& a, const Array& b, const Array& out) {
  if (out.size() == 0) return;
  const int batch_nd = out.ndim() - 2;
  const int64_t m = out.shape(-2), n = out.shape(-1), k = a.shape(-1);
  if (k == 0) {  // an empty sum: zeros (all-zero bytes in every dtype)
    memset_async(out.data(), 0, out.nbytes(), current_stream(device));
    return;
  }
  if (is_inexact(out.dtype()) && cublas_unavailable_reason().empty()) {
    const Shape batch(out.shape().begin(), out.shape().begin() + batch_nd);
    if (auto plan = plan_gemm(batch, m, n, k, a.strides(), b.strides())) {
      run_cublas(device, *plan, a, b, out);
      return;
    }
  }
  run_kernel(device, a, b, out);
}

}  // namespace accel::cuda
