#include "accel/ops/random.h"

#include <cmath>
#include <string>

#include "accel/backend/backend.h"
#include "accel/ops/copy.h"
#include "accel/runtime/errors.h"

namespace accel::random {
namespace {

uint64_t splitmix64(uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

constexpr uint64_t kSpawnTag = 0x737061776eull;  // "spawn": a child's words differ from a seed's

void check_dtype(Dtype dtype, philox::Distribution distribution) {
  const bool real = dtype == Dtype::float32 || dtype == Dtype::float64;
  if (distribution == philox::kIntegers) {
    if (!is_integer(dtype) && dtype != Dtype::bool_)
      throw DTypeError(std::string("[random.integers] dtype must be an integer type or bool, not ") +
                       dtype_name(dtype));
  } else if (!real) {
    throw DTypeError(std::string("[random] dtype must be float32 or float64, not ") +
                     dtype_name(dtype));
  }
}

// [low, low + range) must lie within the dtype (range 0: 2^64 values, uint64 or int64 only).
void check_range(int64_t low, uint64_t range, Dtype dtype) {
  using Wide = __int128;
  const int bits = is_bool(dtype) ? 1 : int(itemsize(dtype)) * 8;
  const Wide lo = is_integer(dtype) && !is_unsigned(dtype) ? -(Wide(1) << (bits - 1)) : 0;
  const Wide hi = lo + (Wide(1) << bits);  // one past the largest value
  const Wide first = low, end = Wide(low) + (range == 0 ? Wide(1) << 64 : Wide(range));
  if (first < lo || end > hi)
    throw ValueError("[random.integers] [" + std::to_string(low) + ", " + std::to_string(low) +
                     " + " + std::to_string(range) + ") is out of bounds for " + dtype_name(dtype));
}

}  // namespace

uint64_t key_from_words(std::span<const uint64_t> words) {
  uint64_t h = splitmix64(words.size());
  for (uint64_t w : words) h = splitmix64(h ^ w);
  return h;
}

Generator::Generator(uint64_t seed) : key_(key_from_words(std::span<const uint64_t>(&seed, 1))) {}

Generator Generator::from_key(uint64_t key, uint64_t counter) { return Generator(key, counter); }

Generator Generator::spawn() {
  const uint64_t words[] = {key_, children_++, kSpawnTag};
  return Generator(key_from_words(words), 0);
}

philox::DrawParams Generator::take(int64_t n, philox::Distribution distribution, int64_t low,
                                   uint64_t range) {
  if (uint64_t(n) > ~counter_)
    throw ValueError("[random] the stream's 2^64 counters are used up (" +
                     std::to_string(counter_) + " used, " + std::to_string(n) + " asked); spawn a new stream");
  philox::DrawParams p{key_, counter_, low, range, distribution, 0, 1.0, 0.0, 0.0};
  counter_ += uint64_t(n);
  return p;
}

Array Generator::draw(const Shape& shape, Dtype dtype, Device device,
                      philox::Distribution distribution, int64_t low, uint64_t range,
                      const double* scale_shift, double param) {
  check_dtype(dtype, distribution);
  if (distribution == philox::kGamma && !(param > 0 && std::isfinite(param)))
    throw ValueError("[random.gamma] the shape must be a positive finite number, got " +
                     std::to_string(param));
  Array out = Array::empty(shape, dtype, device);
  philox::DrawParams p = take(out.size(), distribution, low, range);
  p.param = param;
  if (scale_shift) {
    p.affine = 1;
    p.scale = scale_shift[0];
    p.shift = scale_shift[1];
  }
  if (out.size() > 0) backend_for(device).random(out, p);
  return out;
}

Array Generator::scaled(philox::Distribution distribution, double scale, double shift,
                        const Shape& shape, Dtype dtype, Device device, double param) {
  if (distribution == philox::kIntegers)
    throw ValueError("[random] integers are drawn in their range, not scaled");
  const double scale_shift[2] = {scale, shift};
  return draw(shape, dtype, device, distribution, 0, 0, scale_shift, param);
}

Array Generator::standard_gamma(double a, const Shape& shape, Dtype dtype, Device device) {
  return draw(shape, dtype, device, philox::kGamma, 0, 0, nullptr, a);
}

Array Generator::random(const Shape& shape, Dtype dtype, Device device) {
  return draw(shape, dtype, device, philox::kUniform, 0, 0);
}
Array Generator::standard_normal(const Shape& shape, Dtype dtype, Device device) {
  return draw(shape, dtype, device, philox::kNormal, 0, 0);
}
Array Generator::standard_exponential(const Shape& shape, Dtype dtype, Device device) {
  return draw(shape, dtype, device, philox::kExponential, 0, 0);
}
Array Generator::integers(int64_t low, uint64_t range, const Shape& shape, Dtype dtype,
                          Device device) {
  check_dtype(dtype, philox::kIntegers);
  check_range(low, range, dtype);
  return draw(shape, dtype, device, philox::kIntegers, low, range);
}

void Generator::fill(const Array& out, philox::Distribution distribution, int64_t low,
                     uint64_t range, double param) {
  if (distribution == philox::kIntegers) check_range(low, range, out.dtype());
  // Drawn into a fresh array and assigned: assign handles views, aliasing and pending readers.
  assign(out, draw(out.shape(), out.dtype(), out.device(), distribution, low, range, nullptr, param),
         "random");
}

}  // namespace accel::random
