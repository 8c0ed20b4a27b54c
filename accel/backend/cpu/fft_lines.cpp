// The CPU's FFT of every line of an array along one axis: blocks of lines are gathered into
// contiguous scratch, interleaved (cropped or zero-padded to the transform's input length),
// transformed by a cached plan (fft_plan.h) and written back scaled. Blocks are spread over the
// thread pool; the plans are shared, each thread has its own buffers.
#include "accel/backend/cpu/fft_lines.h"

#include <algorithm>
#include <complex>
#include <type_traits>
#include <vector>

#include "accel/backend/cpu/fft_plan.h"
#include "accel/backend/cpu/reduce_layout.h"
#include "accel/backend/cpu/thread_pool.h"

namespace accel::cpu {
namespace {

// A chunk of lines handed to one thread carries at least this many transformed elements.
constexpr int64_t kChunkElements = 1 << 15;
// Lines are transformed in interleaved blocks of up to kMaxBlock lines and kBlockElements
// elements (a block and its scratch stay in the L2 cache).
constexpr int64_t kMaxBlock = 16;
constexpr int64_t kBlockElements = 1 << 14;
// Gathers and scatters move tiles of kTile elements of each line of a block.
constexpr int64_t kTile = 8;

// The lines: the other axes of in and out, walked in C order, and each line's own step.
struct LineWalk {
  Shape shape;
  Strides in, out;
  int64_t count = 0, in_step = 0, out_step = 0, in_length = 0;
};

LineWalk walk_of(const Array& in, const Array& out, int axis) {
  LineWalk w;
  for (int d = 0; d < in.ndim(); ++d) {
    if (d == axis) continue;
    w.shape.push_back(in.shape()[d]);
    w.in.push_back(in.strides()[d]);
    w.out.push_back(out.strides()[d]);
  }
  w.count = shape_size(w.shape);
  w.in_step = in.strides()[axis];
  w.out_step = out.strides()[axis];
  w.in_length = in.shape()[axis];
  return w;
}

template <class T>
T scaled(T v, double f) {
  return static_cast<T>(v * f);
}
template <class T>
std::complex<T> scaled(std::complex<T> v, double f) {
  return {static_cast<T>(v.real() * f), static_cast<T>(v.imag() * f)};
}

// Runs the transform on every line, a block of lines at a time: the block's input gathered
// interleaved into in_buffer (element k of line b at k * count + b; take elements per line: the
// line's first ones, then zeros), `transform(in_buffer, out_buffer, scratch, count) -> const
// Out*` (the result, interleaved too), then scattered to out times rq.scale. An interleaved
// block is one batched transform (ComplexPlan::execute_interleaved) whose passes' inner loops
// run over the block, so they vectorise; and along a strided axis, where neighbouring lines are
// usually neighbours in memory, each cache line read or written serves the whole block.
// `block` is 1 where the plan cannot interleave (Bluestein).
template <class T, class In, class Out, class Transform>
void for_each_line(const Array& in, const Array& out, const FftLines& rq, int64_t take,
                   int64_t give, int64_t scratch_size, bool interleaves,
                   const Transform& transform) {
  const LineWalk w = walk_of(in, out, rq.axis);
  const int64_t used = std::min(w.in_length, take);
  const In* src = static_cast<const In*>(in.data());
  Out* dst = static_cast<Out*>(out.data());
  const double scale = rq.scale;
  const int64_t per_line = std::max<int64_t>(take, give);
  const int64_t block =
      interleaves ? std::clamp<int64_t>(kBlockElements / per_line, 1, kMaxBlock) : 1;
  auto run = [&](int64_t l0, int64_t l1) {
    const int64_t lines_here = std::min(block, l1 - l0);
    std::vector<In> in_buffer(static_cast<size_t>(lines_here * take));
    // Complex lines are transformed in place in in_buffer.
    std::vector<Out> out_buffer(std::is_same_v<In, Out> ? 0
                                                        : static_cast<size_t>(lines_here * give));
    std::vector<std::complex<T>> scratch(static_cast<size_t>(lines_here * scratch_size));
    std::vector<const In*> lines(lines_here);
    std::vector<Out*> outs(lines_here);
    Odometer at_in(w.shape, w.in, l0), at_out(w.shape, w.out, l0);
    for (int64_t l = l0; l < l1; l += block) {
      const int64_t count = std::min(block, l1 - l);
      for (int64_t b = 0; b < count; ++b, at_in.next(), at_out.next()) {
        lines[b] = src + at_in.offset();
        outs[b] = dst + at_out.offset();
      }
      if (count == 1 && w.in_step == 1) {
        std::copy(lines[0], lines[0] + used, in_buffer.data());
      } else {
        // A tile of kTile elements of every line at a time: contiguous reads along each line
        // and a few buffer rows written, whichever way the lines lie in memory.
        for (int64_t k0 = 0; k0 < used; k0 += kTile) {
          const int64_t k1 = std::min(used, k0 + kTile);
          for (int64_t b = 0; b < count; ++b) {
            const In* line = lines[b];
            for (int64_t k = k0; k < k1; ++k) in_buffer[k * count + b] = line[k * w.in_step];
          }
        }
      }
      std::fill(in_buffer.begin() + used * count, in_buffer.begin() + take * count, In{});
      const Out* result = transform(in_buffer.data(), out_buffer.data(), scratch.data(), count);
      if (count == 1 && w.out_step == 1 && scale == 1.0) {
        std::copy(result, result + give, outs[0]);
      } else {
        for (int64_t k0 = 0; k0 < give; k0 += kTile) {
          const int64_t k1 = std::min(give, k0 + kTile);
          for (int64_t b = 0; b < count; ++b) {
            Out* o = outs[b];
            if (scale == 1.0) {
              for (int64_t k = k0; k < k1; ++k) o[k * w.out_step] = result[k * count + b];
            } else {
              for (int64_t k = k0; k < k1; ++k)
                o[k * w.out_step] = scaled(result[k * count + b], scale);
            }
          }
        }
      }
    }
  };
  parallel_for(w.count, std::max<int64_t>(1, kChunkElements / std::max<int64_t>(per_line, 1)), run);
}

template <class T>
void fft_typed(const Array& in, const Array& out, const FftLines& rq) {
  using C = std::complex<T>;
  const int64_t n = rq.n, half = n / 2 + 1;
  switch (rq.kind) {
    case FftKind::complex: {
      const auto plan = fft::complex_plan<T>(n);
      const bool forward = rq.forward;
      for_each_line<T, C, C>(in, out, rq, n, n, plan->scratch_size(), plan->interleaves(),
                             [&](C* buffer, C*, C* scratch, int64_t count) -> const C* {
                               if (count > 1)
                                 return plan->execute_interleaved(buffer, scratch, count, forward);
                               plan->execute(buffer, scratch, forward);
                               return buffer;
                             });
      return;
    }
    case FftKind::real_forward: {
      const auto plan = fft::real_plan<T>(n);
      for_each_line<T, T, C>(in, out, rq, n, half, plan->scratch_size(), plan->interleaves(),
                             [&](T* buffer, C* result, C* scratch, int64_t count) -> const C* {
                               plan->forward(buffer, result, scratch, count);
                               return result;
                             });
      return;
    }
    case FftKind::real_backward: {
      const auto plan = fft::real_plan<T>(n);
      for_each_line<T, C, T>(in, out, rq, half, n, plan->scratch_size(), plan->interleaves(),
                             [&](C* buffer, T* result, C* scratch, int64_t count) -> const T* {
                               plan->backward(buffer, result, scratch, count);
                               return result;
                             });
      return;
    }
  }
}

}  // namespace

void fft_lines(const Array& in, const Array& out, const FftLines& lines) {
  if (out.size() == 0) return;
  const Dtype dt = in.dtype();
  if (dt == Dtype::float32 || dt == Dtype::complex64)
    fft_typed<float>(in, out, lines);
  else
    fft_typed<double>(in, out, lines);
}

}  // namespace accel::cpu
