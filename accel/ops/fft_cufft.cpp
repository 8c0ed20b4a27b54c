#include "accel/ops/fft_cufft.h"

#include <algorithm>
#include <cstdint>

#include "accel/backend/cuda/fft.h"
#include "accel/backend/cuda/memory.h"
#include "accel/backend/cuda/stream.h"
#include "accel/ops/copy.h"
#include "accel/ops/elementwise.h"
#include "accel/ops/manipulation.h"

namespace accel::fft {
namespace {

// The lines of `moved` (the transform axis last) as cuFFT reads them: contiguous, cropped or
// zero-padded to `length`, 16-byte aligned (a view into a larger buffer may not be). C2R
// overwrites its input, so it always gets a private copy.
Array contiguous_lines(const Array& moved, int64_t length, bool private_copy) {
  const int64_t have = moved.shape().back();
  if (have == length) {
    if (!private_copy && moved.is_contiguous() &&
        reinterpret_cast<uintptr_t>(moved.data()) % 16 == 0)
      return moved;
    Array c = copy(moved);
    c.eval();
    return c;
  }
  Shape shape = moved.shape();
  shape.back() = length;
  Array lines = Array::empty(shape, moved.dtype(), moved.device());
  cuda::memset_async(lines.data(), 0, lines.nbytes(), cuda::current_stream(moved.device().index));
  Shape kept = shape;
  kept.back() = std::min(have, length);
  if (kept.back() > 0)
    assign(Array::view_of(lines, kept, lines.strides(), 0),
           Array::view_of(moved, kept, moved.strides(), moved.offset()), "fft");
  return lines;
}

}  // namespace

void cufft_transform(const Array& in, const Array& out, const FftLines& lines) {
  if (out.size() == 0) return;
  const FftKind kind = lines.kind;
  const bool double_precision = in.dtype() == Dtype::float64 || in.dtype() == Dtype::complex128;
  // The transform axis last, every other axis a batch of contiguous lines.
  const Array moved = moveaxis(in, {lines.axis}, {-1});
  const Array src = contiguous_lines(moved, cuda::fft_input_length(kind, lines.n),
                                     kind == FftKind::real_backward);
  Shape out_shape = moved.shape();
  out_shape.back() = cuda::fft_output_length(kind, lines.n);
  const Array result = Array::empty(out_shape, out.dtype(), out.device());
  cuda::cufft_lines(in.device().index, kind, double_precision, lines.n,
                    out.size() / out_shape.back(), lines.forward, src.data(), result.data());
  const Array scaled = lines.scale == 1.0
                           ? result
                           : multiply(result, Array::scalar(lines.scale, true, out.device()));
  assign(moveaxis(out, {lines.axis}, {-1}), scaled, "fft");
}

}  // namespace accel::fft
