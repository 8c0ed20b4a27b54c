// CpuBackend::scan: running sums and products along one axis. When the axis is the input's
// fastest dimension each lane is scanned on its own; otherwise whole rows are combined with the
// previous output row (unit stride, vectorized), NumPy's order of operations in both cases.
#include <algorithm>
#include <cstdlib>

#include "accel/backend/common/reduce_dims.h"
#include "accel/backend/cpu/cpu_backend.h"
#include "accel/backend/cpu/reduce_layout.h"
#include "accel/backend/cpu/reduce_ops.h"
#include "accel/backend/cpu/thread_pool.h"

namespace accel::cpu {
namespace {

constexpr int64_t kSerialWork = 65536;
constexpr int64_t kTile = 2048;

struct ScanLayout {
  int64_t len, in_step, out_step;  // along the scanned axis
  Shape shape;                     // the other dims, slowest first by input stride, merged
  Strides in, out;
  bool lanes;                      // the scanned axis is the fastest: scan lane by lane
};

ScanLayout make_scan_layout(const Shape& shape, const Strides& in, const Strides& out, int axis) {
  ScanLayout l{shape[axis], in[axis], out[axis], {}, {}, {}, true};
  std::vector<plan::ReduceDim> dims;
  for (int d = 0; d < static_cast<int>(shape.size()); ++d)
    if (d != axis && shape[d] != 1) dims.push_back({shape[d], in[d], out[d]});
  for (const plan::ReduceDim& d : plan::sort_and_merge(std::move(dims), true)) {
    l.shape.push_back(d.size);
    l.in.push_back(d.in);
    l.out.push_back(d.out);
  }
  l.lanes = l.shape.empty() || std::llabs(l.in_step) <= std::llabs(l.in.back());
  if (l.shape.empty()) l.shape = {1}, l.in = {0}, l.out = {0};
  return l;
}

template <class In, class Acc, bool IsSum>
void scan_typed(const ScanLayout& l, const In* in, Acc* out) {
  using Op = SumProdOp<In, Acc, IsSum>;
  using W = typename Op::State;
  const int64_t len = l.len;
  const int threads = num_threads();
  if (l.lanes) {
    auto lanes = [&](int64_t k0, int64_t k1) {
      Odometer src(l.shape, l.in, k0), dst(l.shape, l.out, k0);
      for (int64_t k = k0; k < k1; ++k, src.next(), dst.next()) {
        const In* p = in + src.offset();
        Acc* o = out + dst.offset();
        // The first element as it is, not combined with the identity (NumPy's accumulate
        // copies it): 1 * (inf+0j) would be inf+nanj, 0 + -0.0 would be 0.0.
        W acc = Op::load(p[0]);
        o[0] = static_cast<Acc>(acc);
        for (int64_t i = 1; i < len; ++i) {
          acc = Op::combine(acc, Op::load(p[i * l.in_step]));
          o[i * l.out_step] = static_cast<Acc>(acc);
          // NumPy's float16 accumulate rounds every step to half (its add loop writes each),
          // and so does ml_dtypes' bfloat16.
          if constexpr (is_narrow_float_v<Acc>) acc = static_cast<W>(o[i * l.out_step]);
        }
      }
    };
    const int64_t count = shape_size(l.shape);
    if (threads == 1 || count * len < kSerialWork) return lanes(0, count);
    return parallel_for(count, std::max<int64_t>(1, kSerialWork / std::max<int64_t>(len, 1)), lanes);
  }
  // Rows: the fastest other dim, cut into tiles; each output row = previous output row op input row.
  const Shape outer_shape(l.shape.begin(), l.shape.end() - 1);
  const Strides outer_in(l.in.begin(), l.in.end() - 1), outer_out(l.out.begin(), l.out.end() - 1);
  const int64_t row = l.shape.back(), rin = l.in.back(), rout = l.out.back();
  const int64_t tiles = (row + kTile - 1) / kTile;
  auto units = [&](int64_t u0, int64_t u1) {
    for (int64_t u = u0; u < u1; ++u) {
      const int64_t t = u % tiles, n = std::min(kTile, row - t * kTile);
      const In* p = in + Odometer(outer_shape, outer_in, u / tiles).offset() + t * kTile * rin;
      Acc* o = out + Odometer(outer_shape, outer_out, u / tiles).offset() + t * kTile * rout;
      for (int64_t j = 0; j < n; ++j) o[j * rout] = static_cast<Acc>(Op::load(p[j * rin]));
      for (int64_t i = 1; i < len; ++i) {
        const In* pi = p + i * l.in_step;
        const Acc* prev = o + (i - 1) * l.out_step;
        Acc* oi = o + i * l.out_step;
        if (rin == 1 && rout == 1) {
          for (int64_t j = 0; j < n; ++j)
            oi[j] = static_cast<Acc>(Op::combine(static_cast<W>(prev[j]), Op::load(pi[j])));
        } else {
          for (int64_t j = 0; j < n; ++j)
            oi[j * rout] =
                static_cast<Acc>(Op::combine(static_cast<W>(prev[j * rout]), Op::load(pi[j * rin])));
        }
      }
    }
  };
  const int64_t count = shape_size(outer_shape) * tiles;
  if (threads == 1 || shape_size(l.shape) * len < kSerialWork) return units(0, count);
  parallel_for(count, 1, units);
}

}  // namespace

void CpuBackend::scan(ScanOp op, const Array& in, int axis, const Array& out) {
  if (in.size() == 0) return;
  const ScanLayout l = make_scan_layout(in.shape(), in.strides(), out.strides(), axis);
  const bool done = dispatch_dtype(in.dtype(), [&](auto in_tag) {
    using In = typename decltype(in_tag)::type;
    return dispatch_dtype(out.dtype(), [&](auto acc_tag) {
      using Acc = typename decltype(acc_tag)::type;
      if constexpr (kFusedConversion<In, Acc>) {
        const In* src = static_cast<const In*>(in.data());
        Acc* dst = static_cast<Acc*>(out.data());
        if (op == ScanOp::sum) scan_typed<In, Acc, true>(l, src, dst);
        else scan_typed<In, Acc, false>(l, src, dst);
        return true;
      } else {
        return false;
      }
    });
  });
  if (!done) {
    Array converted = Array::empty(in.shape(), out.dtype(), in.device());
    cast(in, converted);
    scan(op, converted, axis, out);
  }
}

}  // namespace accel::cpu
