#include "accel/backend/cuda/matmul.h"

#include <algorithm>
#include <complex>
#include <map>
#include <memory>
#include <mutex>

#include "accel/backend/backend.h"
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

constexpr int64_t kTile = 64;  // matmul.cuh's kTile
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

// The cuBLAS routines of a dtype, and alpha = 1, beta = 0 in it.
struct GemmRoutines {
  decltype(CublasApi::sgemm) gemm;
  decltype(CublasApi::sgemm_strided_batched) batched;
  const void* one;
  const void* zero;
};

GemmRoutines routines(const CublasApi& api, Dtype dt) {
  static const float s[2] = {1, 0};
  static const double d[2] = {1, 0};
  static const std::complex<float> c[2] = {1, 0};
  static const std::complex<double> z[2] = {1, 0};
  switch (dt) {
    case Dtype::float32:
      return {api.sgemm, api.sgemm_strided_batched, &s[0], &s[1]};
    case Dtype::float64:
      return {api.dgemm, api.dgemm_strided_batched, &d[0], &d[1]};
    case Dtype::complex64:
      return {api.cgemm, api.cgemm_strided_batched, &c[0], &c[1]};
    default:
      return {api.zgemm, api.zgemm_strided_batched, &z[0], &z[1]};
  }
}

// a, b and out as cuBLAS sees them (matmul_plan.h), one call or one per batch element.
void run_cublas(int device, CublasHandle& h, const GemmPlan& p, const Array& a, const Array& b,
                const Array& out) {
  const CublasApi& api = cublas();
  const auto [gemm, batched, one, zero] = routines(api, out.dtype());
  const std::string where = "matmul cuda:" + std::to_string(device);
  std::lock_guard<std::mutex> lock(h.mutex);
  make_current(device);
  api.check(api.set_stream(h.handle, current_stream(device).handle()), "cublasSetStream", where);
  if (p.strided && p.batch == 1) {
    api.check(gemm(h.handle, p.transa, p.transb, p.m, p.n, p.k, one, b.data(), p.lda, a.data(),
                   p.ldb, zero, out.data(), p.ldc),
              "cublasGemm", where);
  } else if (p.strided) {
    api.check(batched(h.handle, p.transa, p.transb, p.m, p.n, p.k, one, b.data(), p.lda, p.stride_b,
                      a.data(), p.ldb, p.stride_a, zero, out.data(), p.ldc, p.stride_c,
                      static_cast<int>(p.batch)),
              "cublasGemmStridedBatched", where);
  } else {
    for (int64_t i = 0; i < p.batch; ++i)
      api.check(gemm(h.handle, p.transa, p.transb, p.m, p.n, p.k, one, at(b, p.offsets_b[i]), p.lda,
                     at(a, p.offsets_a[i]), p.ldb, zero, at(out, i * p.stride_c), p.ldc),
                "cublasGemm", where);
  }
}

// x, or a copy whose matrices are C-contiguous (made by the backend's strided cast). Batch axes
// with stride 0 keep it, so a matrix shared by the whole batch is copied once.
Array packed(const Array& x) {
  Shape compact = x.shape();
  for (int d = 0; d + 2 < x.ndim(); ++d)
    if (x.strides()[d] == 0) compact[d] = 1;
  const Array src = Array::view_of(x, compact, x.strides(), x.offset());
  const Array dst = Array::empty(compact, x.dtype(), x.device());
  backend_for(x.device()).cast(src, dst);
  return Array::view_of(dst, x.shape(), broadcast_strides(compact, dst.strides(), x.shape()), 0);
}

// a or b as cuBLAS can take it: itself, or packed when its layout is refused and the product is
// large enough for cuBLAS to repay the copy.
Array for_gemm(const Array& x, int64_t mnk) {
  const int nd = x.ndim();
  if (mnk < kPackForGemm ||
      gemm_accepts(x.shape(-2), x.shape(-1), x.strides()[nd - 2], x.strides()[nd - 1]))
    return x;
  return packed(x);
}

void run_kernel(int device, const Array& a, const Array& b, const Array& out) {
  const MatmulKernelPlan plan =
      plan_matmul_kernel(out.shape(), a.shape(-1), a.strides(), b.strides());
  const MatmulKernelShape& s = plan.shape;
  const std::vector<int64_t>& table = plan.table;
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
      .get(matmul_kernel_name(out.dtype()), device)(grid, Dim3{kMatmulThreads, 1, 1}, args, 0,
                                                    stream);
}

}  // namespace

std::string matmul_kernel_source() { return builtin_source(embedded::matmul_cuh); }

std::string matmul_kernel_name(Dtype dt) {
  switch (dt) {
#define ACCEL_DTYPE(name, type, numpy, kind) \
  case Dtype::name:                          \
    return "accel_matmul<" #type ">";
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
    CublasHandle& h = cublas_handle(device);
    if (h.handle) {
      const Array pa = for_gemm(a, m * n * k), pb = for_gemm(b, m * n * k);
      if (auto plan = plan_gemm(batch, m, n, k, pa.strides(), pb.strides())) {
        run_cublas(device, h, *plan, pa, pb, out);
        return;
      }
    }
  }
  run_kernel(device, a, b, out);
}

}  // namespace accel::cuda
