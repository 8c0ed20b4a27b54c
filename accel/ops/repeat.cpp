// repeat and tile: the output is seen with extra axes (each repeated axis split in two) and the
// input with stride 0 on them, so one strided Backend::cast writes all the copies at once.
#include <algorithm>
#include <span>
#include <string>

#include "accel/backend/backend.h"
#include "accel/ops/axis_view.h"
#include "accel/ops/copy.h"
#include "accel/ops/manipulation.h"
#include "accel/runtime/errors.h"

namespace accel {
namespace {

void check_count(int64_t count, const char* op, const char* what) {
  if (count < 0)
    throw ValueError(std::string("[") + op + "] " + what + " may not be negative; got " +
                     std::to_string(count));
}

// a + b or a * b of lengths, ShapeError where it wraps (a wrapped length made a small array).
int64_t checked_length(int64_t a, int64_t b, bool multiply, const char* op) {
  int64_t r = 0;
  if (multiply ? __builtin_mul_overflow(a, b, &r) : __builtin_add_overflow(a, b, &r))
    throw ShapeError(std::string("[") + op + "] the result is too big: " + std::to_string(a) +
                     (multiply ? " * " : " + ") + std::to_string(b) + " elements along an axis");
  return r;
}

// Below this many elements, the innermost loop of a copy is dominated by its per-row overhead.
constexpr int64_t kShortRow = 64;

// Writes x[..., i, ...] repeated `count` times into dst (a view whose axis `ax` has length
// x.shape(ax) * count), for every i at once.
void write_repeated(const Array& x, const Array& dst, int ax, int64_t count) {
  Backend& backend = backend_for(x.device());
  const int64_t n = x.shape()[ax];
  Array rows = split_axis(dst, ax, n, count);  // (..., n, count, ...)
  int64_t after = 1;
  for (int d = ax + 1; d < x.ndim(); ++d) after *= x.shape()[d];
  // One copy of x broadcast over `count` loops innermost over what follows the axis (or over
  // `count` when nothing does). When that row is short, `count` copies along the axis itself
  // run long loops instead: repeat(v, 3) is 3 strided copies of v, not n copies of 3 elements.
  const int64_t row = after > 1 ? after : count;
  if (row >= kShortRow || n < kShortRow) {
    backend.cast(insert_axis(x, ax + 1, count, 0), rows);
    return;
  }
  const Array src = moveaxis(x, {ax}, {-1});
  for (int64_t k = 0; k < count; ++k)
    backend.cast(src, moveaxis(axis_index(rows, ax + 1, k), {ax}, {-1}));
}

}  // namespace

Array repeat(const Array& x, int64_t repeats, std::optional<int64_t> axis) {
  check_count(repeats, "repeat", "repeats");
  if (!axis) return repeat(ravel(x), repeats, 0);
  const int ax = normalize_axis(*axis, x.ndim(), "repeat");
  Shape shape = x.shape();
  shape[ax] = checked_length(shape[ax], repeats, true, "repeat");
  Array out = Array::empty(shape, x.dtype(), x.device());
  if (out.size() > 0) write_repeated(x, out, ax, repeats);
  return out;
}

Array repeat(const Array& x, const Array& repeats, std::optional<int64_t> axis) {
  // An empty list of counts arrives as float64 from Python; it holds no fractional counts.
  if (repeats.size() > 0 && !can_cast_safely(repeats.dtype(), Dtype::int64))
    throw DTypeError("[repeat] repeats must be integers; got " + repeats.describe());
  if (repeats.ndim() > 1)
    throw ShapeError("[repeat] repeats must be an integer or a 1-d array; got " +
                     repeats.describe());
  if (repeats.device() != x.device())
    throw DeviceError("[repeat] repeats is on " + repeats.device().str() + " and the array on " +
                      x.device().str() + "; move one with to_device() first");
  // The counts decide the output shape, so they are read on the host (in place where they are
  // host int64s already: a vector copy faulted in fresh pages on every call).
  Array host = to_device(astype(repeats, Dtype::int64, false), Device::cpu());
  if (!host.is_contiguous()) host = copy(host);
  host.eval();
  const std::span<const int64_t> counts(host.data<int64_t>(), static_cast<size_t>(host.size()));
  if (counts.size() == 1) return repeat(x, counts[0], axis);
  if (!axis) return repeat(ravel(x), repeats, 0);
  const int ax = normalize_axis(*axis, x.ndim(), "repeat");
  const int64_t n = x.shape()[ax];
  if (static_cast<int64_t>(counts.size()) != n)
    throw ShapeError("[repeat] repeats has " + std::to_string(counts.size()) +
                     " entries but axis " + std::to_string(ax) + " of the array has length " +
                     std::to_string(n) + " (shape " + shape_str(x.shape()) + ")");
  int64_t total = 0;
  for (int64_t c : counts) {
    check_count(c, "repeat", "repeats");
    total = checked_length(total, c, false, "repeat");
  }
  if (std::all_of(counts.begin(), counts.end(), [&](int64_t c) { return c == counts[0]; }))
    return repeat(x, counts.empty() ? 0 : counts[0], ax);
  Shape shape = x.shape();
  shape[ax] = total;
  Array out = Array::empty(shape, x.dtype(), x.device());
  if (out.size() == 0) return out;
  // Varying counts: one gather, with the source position of every output row along the axis,
  // written on the host straight into an array (a vector filled by a call per count, then
  // copied, was most of repeat(v, counts) of 1e6 small counts).
  // Counts up to 4 (the common small ones) store 4 copies and advance by the count, without a
  // branch on the count (random small counts mispredict), into 4 slots of padding at the end.
  constexpr int64_t kShort = 4;
  Array padded = Array::empty({total + kShort}, Dtype::int64, Device::cpu());
  int64_t* source = padded.data<int64_t>();
  for (int64_t i = 0, pos = 0; i < n; ++i) {
    const int64_t c = counts[static_cast<size_t>(i)];
    if (c <= kShort) {
      for (int64_t k = 0; k < kShort; ++k) source[pos + k] = i;
    } else {
      std::fill_n(source + pos, c, i);
    }
    pos += c;
  }
  Array index = Array::view_of(padded, {total}, {1}, 0);
  if (!x.device().is_cpu()) index = to_device(index, x.device());
  const int axes[] = {ax};
  backend_for(x.device())
      .gather(x, axes, std::span<const Array>(&index, 1), moveaxis(out, {ax}, {0}));
  return out;
}

Array tile(const Array& x, const Axes& reps) {
  for (int64_t r : reps) check_count(r, "tile", "repetitions");
  const int nd = std::max<int>(x.ndim(), static_cast<int>(reps.size()));
  Axes full(nd, 1);
  std::copy(reps.begin(), reps.end(), full.end() - static_cast<int64_t>(reps.size()));
  Shape padded(nd - x.ndim(), 1);
  padded.insert(padded.end(), x.shape().begin(), x.shape().end());
  Array src = reshape(x, padded);
  Shape shape(nd);
  for (int d = 0; d < nd; ++d) shape[d] = checked_length(padded[d], full[d], true, "tile");
  Array out = Array::empty(shape, x.dtype(), x.device());
  if (out.size() == 0) return out;
  // An axis with r > 1 repetitions of length len > 1 is seen as (r, len) in the output, with
  // stride 0 over r on the input; an axis of length 1 is simply broadcast to r.
  Shape loop_shape;
  Strides dst_strides, src_strides;
  const Strides& os = out.strides();
  for (int d = 0; d < nd; ++d) {
    const int64_t r = full[d], len = padded[d], xs = src.strides()[d];
    if (r > 1 && len > 1) {
      loop_shape.insert(loop_shape.end(), {r, len});
      dst_strides.insert(dst_strides.end(), {len * os[d], os[d]});
      src_strides.insert(src_strides.end(), {0, xs});
    } else {
      loop_shape.push_back(shape[d]);
      dst_strides.push_back(os[d]);
      src_strides.push_back(r > 1 ? 0 : xs);
    }
  }
  const Array dst = Array::view_of(out, loop_shape, dst_strides, 0);
  src = Array::view_of(src, loop_shape, src_strides, src.offset());
  backend_for(x.device()).cast(src, dst);
  return out;
}

}  // namespace accel
