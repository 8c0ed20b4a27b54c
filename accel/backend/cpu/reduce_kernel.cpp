// CpuBackend::reduce_kernel: a reduction of a fused kernel's output that never stores it.
// Blocks of the output are computed into a cache-resident buffer (the compiled kernel or the
// interpreter, as run_kernel would) and reduced there by the ordinary reduce(): sum(a * a),
// any(x > t) and var's squared deviations read their inputs once and write nothing but the
// result. Measured on 2000² float32 before this path: sum(a * a) took 9x as long as sum(a).
#include <algorithm>
#include <vector>

#include "accel/backend/cpu/cpu_backend.h"
#include "accel/backend/cpu/fused_interpreter.h"
#include "accel/backend/cpu/fused_rows.h"
#include "accel/backend/cpu/host_jit.h"
#include "accel/backend/cpu/thread_pool.h"

namespace accel::cpu {
namespace {

// Elements of a block: 64 KB of float32, in L2 while it is reduced.
constexpr int64_t kBlockElements = 16384;

// Blocks' partial results are combined in out's dtype, so that must be the dtype the reduction
// accumulates in: not float16/bfloat16 sums (accumulated in float32, rounded once at the end),
// and not a complex product, whose overflow to inf or NaN depends on the grouping (NumPy
// multiplies in order). argmin/argmax positions are not block-local.
bool blockwise(ReduceOp op, Dtype out) {
  switch (op) {
    case ReduceOp::sum:
    case ReduceOp::prod:
      if (out == Dtype::float16 || out == Dtype::bfloat16) return false;
      return op == ReduceOp::sum || !is_complex(out);
    case ReduceOp::min:
    case ReduceOp::max:
    case ReduceOp::any:
    case ReduceOp::all: return true;
    case ReduceOp::argmin:
    case ReduceOp::argmax: return false;
  }
  return false;
}

// Combines two partial results of leading reductions, element by element, in out's dtype.
OpId combine_op(ReduceOp op) {
  switch (op) {
    case ReduceOp::sum: return OpId::add;
    case ReduceOp::prod: return OpId::multiply;
    case ReduceOp::min: return OpId::minimum;
    case ReduceOp::max: return OpId::maximum;
    case ReduceOp::any: return OpId::logical_or;
    default: return OpId::logical_and;
  }
}

// Where the reduced axes are: the trailing ones (flat element k * R + r is position r of output
// k) or the leading ones (flat element r * K + k), with rows of K outputs short enough for a
// block to hold one (leading) or longer (wide: cut into columns); anything else is not taken.
enum class Axes { trailing, leading, wide, other };

Axes axes_kind(const Shape& shape, const std::vector<int>& axes) {
  const size_t kept = shape.size() - axes.size();
  bool trailing = true, leading = true;
  for (size_t i = 0; i < axes.size(); ++i) {
    trailing = trailing && axes[i] == static_cast<int>(kept + i);
    leading = leading && axes[i] == static_cast<int>(i);
  }
  if (trailing) return Axes::trailing;
  if (!leading) return Axes::other;
  int64_t K = 1;
  for (size_t d = axes.size(); d < shape.size(); ++d) K *= shape[d];
  return K <= kBlockElements ? Axes::leading : Axes::wide;
}

// Columns of a wide leading reduction: a block holds kWideRows rows of this many outputs.
constexpr int64_t kWideColumns = 2048;
constexpr int64_t kWideRows = kBlockElements / kWideColumns;

// A leading reduction whose rows of K outputs are longer than a block: columns of the rows, each
// a thread's own, are computed kWideRows rows at a time and reduced down into out's columns
// (the first rows into out itself, later ones combined into it), so nothing but out is written
// (sum(t * 2 - 1, axis=0) where t's axis 0 is outermost in memory).
void reduce_wide(CpuBackend& be, ReduceOp op, const ir::KernelIR& ir, const FusedSpace& space,
                 HostKernel compiled, int64_t K, int64_t R, const Array& out) {
  const Dtype value = ir.outputs[0].dtype;
  const size_t isz = itemsize(value);
  const FusedRangeRunner interpret = compiled ? nullptr : fused_range_runner(ir, space);
  const Device cpu = Device::cpu();
  const int64_t columns = (K + kWideColumns - 1) / kWideColumns;
  parallel_for(columns, 1, [&](int64_t c0, int64_t c1) {
    FusedSpace s = space;
    const Array buf = Array::empty({kWideRows * kWideColumns}, value, cpu);
    const Array more = Array::empty({kWideColumns}, out.dtype(), cpu);
    auto* base = static_cast<char*>(buf.data());
    for (int64_t c = c0; c < c1; ++c) {
      const int64_t k0 = c * kWideColumns, w = std::min(kWideColumns, K - k0);
      const Array acc = Array::view_of(out, {w}, {1}, out.offset() + k0);
      for (int64_t r0 = 0; r0 < R; r0 += kWideRows) {
        const int64_t rows = std::min(kWideRows, R - r0);
        for (int64_t r = 0; r < rows; ++r) {
          const int64_t begin = (r0 + r) * K + k0;
          char* dst = base + static_cast<size_t>(r * w) * isz;
          set_window(s, dst, begin, isz);
          if (!compiled) {
            interpret(s, begin, begin + w);
          } else {
            for_each_row(s, begin, begin + w,
                         [&](char* const* p, int64_t n) { compiled(p, s.inner.data(), n); });
          }
        }
        const Array block = Array::view_of(buf, {rows, w}, {w, 1}, buf.offset());
        if (r0 == 0) {
          be.reduce(op, block, {0}, acc);
          continue;
        }
        const Array mine = Array::view_of(more, {w}, {1}, more.offset());
        be.reduce(op, block, {0}, mine);
        const Array both[] = {acc, mine};
        be.elementwise(combine_op(op), both, acc);
      }
    }
  });
}

}  // namespace

bool CpuBackend::reduces_kernel_output(ReduceOp op, const Shape& shape,
                                      const std::vector<int>& axes, const Array& out) const {
  return blockwise(op, out.dtype()) && out.is_contiguous() && shape_size(shape) != 0 &&
         axes_kind(shape, axes) != Axes::other;
}

void CpuBackend::reduce_kernel(ReduceOp op, const ir::KernelIR& ir, std::span<const Array> inputs,
                               const Shape& shape, const std::vector<int>& axes,
                               const Array& out) {
  const Axes kind = axes_kind(shape, axes);
  const bool leading = kind == Axes::leading;
  int64_t K = 1, R = 1;
  for (size_t d = 0; d < shape.size(); ++d) {
    const bool reduced = std::find(axes.begin(), axes.end(), static_cast<int>(d)) != axes.end();
    (reduced ? R : K) *= shape[d];
  }
  const Dtype value = ir.outputs[0].dtype;
  const size_t isz = itemsize(value);
  const FusedSpace space = bind_fused_window(shape, inputs, isz);
  const HostKernel compiled = host_kernel_for(ir, K * R);
  if (kind == Axes::wide) return reduce_wide(*this, op, ir, space, compiled, K, R, out);
  const FusedRangeRunner interpret = compiled ? nullptr : fused_range_runner(ir, space);
  auto compute = [&](FusedSpace& s, void* dst, int64_t begin, int64_t end) {
    set_window(s, dst, begin, isz);
    if (!compiled) return interpret(s, begin, end);
    for_each_row(s, begin, end,
                 [&](char* const* row, int64_t n) { compiled(row, s.inner.data(), n); });
  };
  const Device cpu = Device::cpu();
  // Blocks of whole rows: of reduced positions (trailing, when rows are short: each block
  // reduces into its own outputs) or of outputs (leading: each block reduces down its rows
  // into a row of partial results, which its thread combines into its own row). Trailing
  // rows longer than a block are cut into parts whose partial results are reduced after, in
  // order (a sum's pairwise, as reduce() folds runs).
  const int64_t row = leading ? K : R, rows = leading ? R : K;
  const bool whole = row <= kBlockElements;
  const int64_t per = whole ? std::max<int64_t>(1, kBlockElements / row) : 0;
  const int64_t parts = whole ? 1 : (R + kBlockElements - 1) / kBlockElements;
  const int64_t blocks = whole ? (rows + per - 1) / per : K * parts;
  const int64_t chunks = std::min<int64_t>(num_threads(), blocks);
  // One block buffer per chunk of blocks (a thread's share), allocated once up front, and the
  // partial results: per part of a long row, or per chunk of a leading reduction.
  std::vector<Array> bufs;
  for (int64_t c = 0; c < chunks; ++c)
    bufs.push_back(Array::empty({whole ? per * row : kBlockElements}, value, cpu));
  const Array partial = leading  ? Array::empty({chunks, K}, out.dtype(), cpu)
                        : whole ? out
                                : Array::empty({K, parts}, out.dtype(), cpu);
  const Array row_result = leading ? Array::empty({chunks, K}, out.dtype(), cpu) : Array();
  auto run_block = [&](FusedSpace& s, int64_t c, int64_t b, bool first) {
    const Array& buf = bufs[static_cast<size_t>(c)];
    if (leading) {
      const int64_t r0 = b * per, r1 = std::min(R, r0 + per);
      compute(s, buf.data(), r0 * K, r1 * K);
      const Array acc = Array::view_of(partial, {K}, {1}, partial.offset() + c * K);
      const Array mine = first ? acc : Array::view_of(row_result, {K}, {1}, c * K);
      reduce(op, Array::view_of(buf, {r1 - r0, K}, {K, 1}, buf.offset()), {0}, mine);
      if (!first) {
        const Array both[] = {acc, mine};
        elementwise(combine_op(op), both, acc);
      }
    } else if (whole) {
      const int64_t k0 = b * per, k1 = std::min(K, k0 + per);
      compute(s, buf.data(), k0 * R, k1 * R);
      reduce(op, Array::view_of(buf, {k1 - k0, R}, {R, 1}, buf.offset()), {1},
             Array::view_of(out, {k1 - k0}, {1}, out.offset() + k0));
    } else {
      const int64_t k = b / parts, r0 = b % parts * kBlockElements;
      const int64_t n = std::min(kBlockElements, R - r0);
      compute(s, buf.data(), k * R + r0, k * R + r0 + n);
      reduce(op, Array::view_of(buf, {n}, {1}, buf.offset()), {0},
             Array::view_of(partial, {}, {}, partial.offset() + b));
    }
  };
  parallel_for(chunks, 1, [&](int64_t c0, int64_t c1) {
    FusedSpace s = space;
    for (int64_t c = c0; c < c1; ++c) {
      const int64_t b0 = blocks / chunks * c + std::min(c, blocks % chunks);
      const int64_t b1 = blocks / chunks * (c + 1) + std::min(c + 1, blocks % chunks);
      for (int64_t b = b0; b < b1; ++b) run_block(s, c, b, b == b0);
    }
  });
  const Array flat_out = Array::view_of(out, {K}, {1}, out.offset());  // out is contiguous
  if (leading) reduce(op, partial, {0}, flat_out);
  else if (!whole) reduce(op, partial, {1}, flat_out);
}

}  // namespace accel::cpu
