// CpuBackend::matmul: walks the batch, hands each matrix product to BLAS when the dtype and
// layout allow (transposed views included, without copies) and to the plain loop otherwise.
// Operands in a layout neither accepts are packed once, not once per batch element. float16
// and bfloat16 products past the tiny ones are widened to float32, multiplied by sgemm and
// rounded once.
#include <algorithm>
#include <vector>

#include "accel/backend/cpu/blas_library.h"
#include "accel/backend/cpu/cpu_backend.h"
#include "accel/backend/cpu/matmul_kernels.h"
#include "accel/backend/cpu/thread_pool.h"

namespace accel::cpu {
namespace {

// Below this much work per matrix OpenBLAS runs single-threaded (its GEMM threshold is
// 64^3 multiply-adds, GEMV's 9216), so the batch is spread over our pool instead.
constexpr int64_t kBlasThreadedGemm = 64 * 64 * 64;
constexpr int64_t kBlasThreadedGemv = 9216;
// Products of at most this many multiply-adds run in the loop: a BLAS call costs more. The
// complex loop does not vectorise, so complex products leave it sooner (a whole 8x8 complex64
// call took 0.86 us through cgemm, 1.04 us in the loop).
constexpr int64_t kLoopMaxProduct = 8 * 8 * 8;
constexpr int64_t kComplexLoopMaxProduct = 4 * 4 * 4;
// Multiply-adds per chunk of the pool; smaller batches run on the calling thread.
constexpr int64_t kWorkGrain = 1 << 15;
// float16 / bfloat16 products of more multiply-adds than this go through sgemm on float32
// copies, whose widening, rounding and extra calls cost about as much as the loop's whole
// 16x16x16 product (whole calls: bfloat16 1.4 us in the loop, 1.7 us through sgemm; 32x32x32
// 3.5 us against 2.3 us; float16 64x64x64 100 us against 14 us).
constexpr int64_t kNarrowLoopMaxProduct = 16 * 16 * 16;

// Element offset of each batch element's matrix, in C order over the batch axes.
std::vector<int64_t> batch_offsets(const Array& x, int batch_nd) {
  int64_t count = 1;
  for (int d = 0; d < batch_nd; ++d) count *= x.shape()[d];
  std::vector<int64_t> offsets(static_cast<size_t>(count));
  std::vector<int64_t> idx(batch_nd, 0);
  int64_t off = 0;
  for (int64_t i = 0; i < count; ++i) {
    offsets[i] = off;
    for (int d = batch_nd - 1; d >= 0; --d) {
      off += x.strides()[d];
      if (++idx[d] < x.shape()[d]) break;
      off -= x.strides()[d] * x.shape()[d];
      idx[d] = 0;
    }
  }
  return offsets;
}

// A copy of x in dtype `to` whose matrices are C-contiguous. Batch axes with stride 0
// (broadcast) keep it, so a matrix shared by the whole batch is copied once.
Array packed(CpuBackend& be, const Array& x, Dtype to) {
  Shape compact = x.shape();
  for (int d = 0; d + 2 < x.ndim(); ++d)
    if (x.strides()[d] == 0) compact[d] = 1;
  Array src = Array::view_of(x, compact, x.strides(), x.offset());
  Array dst = Array::empty(compact, to, x.device());
  be.cast(src, dst);
  return Array::view_of(dst, x.shape(), broadcast_strides(compact, dst.strides(), x.shape()), 0);
}

}  // namespace

void CpuBackend::matmul(const Array& a_in, const Array& b_in, const Array& out) {
  const int nd = out.ndim();
  const int batch_nd = nd - 2;
  const int64_t m = out.shape(-2), n = out.shape(-1), k = a_in.shape(-1);
  if (out.size() == 0) return;
  if (k == 0) {
    const unsigned char zero[16] = {};
    fill(out, zero);
    return;
  }
  const Dtype dt = out.dtype();
  const size_t isz = out.itemsize();
  Array a = a_in, b = b_in;

  // float16 and bfloat16 sum their products in float and round once (as NumPy's float16 loop):
  // sgemm on widened copies does exactly that, BLAS-fast. The tiny ones stay in the loop.
  if ((dt == float16 || dt == bfloat16) && m * n * k > kNarrowLoopMaxProduct &&
      blas_library()) {
    Array wide = Array::empty(out.shape(), float32, out.device());
    matmul(packed(*this, a, float32), packed(*this, b, float32), wide);
    cast(wide, out);
    return;
  }

  auto la = blas_operand(m, k, a.strides()[batch_nd], a.strides()[batch_nd + 1]);
  auto lb = blas_operand(k, n, b.strides()[batch_nd], b.strides()[batch_nd + 1]);
  // BLAS for float and complex, when one is loaded and takes these sizes (after packing, ld is
  // the row length), except for tiny products where a BLAS call costs more than the arithmetic.
  // Asked for every float product, so a broken ACCEL_BLAS_PATH raises whatever the size.
  // float16 and bfloat16 get here only when tiny or without a BLAS: the loop.
  const BlasLibrary* blas = is_inexact(dt) && itemsize(dt) > 2 ? blas_library() : nullptr;
  const bool use_blas = blas &&
                        m * n * k > (is_complex(dt) ? kComplexLoopMaxProduct : kLoopMaxProduct) &&
                        blas_supports(*blas, dt, m, n, k, la.value_or(BlasOperand{false, k}),
                                      lb.value_or(BlasOperand{false, n}));
  if (use_blas) {
    if (!la) {
      a = packed(*this, a, dt);
      la = BlasOperand{false, k};
    }
    if (!lb) {
      b = packed(*this, b, dt);
      lb = BlasOperand{false, n};
    }
  } else if (b.strides()[batch_nd + 1] != 1 && n > 1) {
    b = packed(*this, b, dt);  // the loop reads rows of B contiguously
  }

  const std::vector<int64_t> offsets_a = batch_offsets(a, batch_nd);
  const std::vector<int64_t> offsets_b = batch_offsets(b, batch_nd);
  const auto* pa = static_cast<const char*>(a.data());
  const auto* pb = static_cast<const char*>(b.data());
  auto* pc = static_cast<char*>(out.data());
  const int64_t batch = static_cast<int64_t>(offsets_a.size());
  const int64_t per_matrix = m * n * k;
  auto a_of = [&](int64_t i) { return pa + offsets_a[i] * static_cast<int64_t>(isz); };
  auto b_of = [&](int64_t i) { return pb + offsets_b[i] * static_cast<int64_t>(isz); };
  auto c_of = [&](int64_t i) { return pc + i * m * n * static_cast<int64_t>(isz); };

  if (use_blas) {
    auto run = [&](int64_t begin, int64_t end) {
      for (int64_t i = begin; i < end; ++i)
        blas_matmul(*blas, dt, m, n, k, a_of(i), *la, b_of(i), *lb, c_of(i));
    };
    const int64_t threaded = (m == 1 || n == 1) ? kBlasThreadedGemv : kBlasThreadedGemm;
    if (per_matrix >= threaded || batch == 1)
      run(0, batch);  // OpenBLAS threads each call itself
    else
      parallel_for(batch, std::max<int64_t>(1, kWorkGrain / per_matrix), run);
    return;
  }

  // The loop: rows of all batch elements form one index space split over the pool.
  const int64_t sa0 = a.strides()[batch_nd], sa1 = a.strides()[batch_nd + 1];
  const int64_t ldb = b.strides()[batch_nd];
  parallel_for(batch * m, std::max<int64_t>(1, kWorkGrain / std::max<int64_t>(n * k, 1)),
               [&](int64_t begin, int64_t end) {
                 while (begin < end) {
                   const int64_t i = begin / m, r0 = begin % m;
                   const int64_t r1 = std::min(m, r0 + (end - begin));
                   loop_matmul(dt, n, k, a_of(i), sa0, sa1, b_of(i), ldb, c_of(i), r0, r1);
                   begin += r1 - r0;
                 }
               });
}

}  // namespace accel::cpu
