#include "accel/ops/random.h"

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "accel/backend/backend.h"
#include "accel/ops/copy.h"
#include "accel/ops/manipulation.h"
#include "accel/ops/operators.h"
#include "accel/ops/reduction.h"
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

bool is_count(philox::Distribution distribution) {
  return distribution == philox::kPoisson || distribution == philox::kBinomial;
}

void check_dtype(Dtype dtype, philox::Distribution distribution) {
  const bool real = dtype == Dtype::float32 || dtype == Dtype::float64;
  if (is_count(distribution)) {
    if (dtype != Dtype::int64)
      throw DTypeError(std::string("[random] counts are drawn as int64, not ") + dtype_name(dtype));
  } else if (distribution == philox::kIntegers) {
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

// Parameter checks, NumPy's messages: one number, or every element of an array (NaN fails).
bool within(double v, double lo, double hi) { return v >= lo && v <= hi; }
bool within(const Array& values, double lo, double hi) {
  const Device d = values.device();
  return all(logical_and(greater_equal(values, weak_scalar(lo, d)),
                         less_equal(values, weak_scalar(hi, d))))
      .item<bool>();
}

template <class Lam>
void check_poisson(const Lam& lam) {
  if (!within(lam, 0.0, std::numeric_limits<double>::infinity()))
    throw ValueError("[random.poisson] lam < 0 or lam is NaN");
  if (!within(lam, 0.0, kPoissonLamMax))
    throw ValueError("[random.poisson] lam value too large (the largest is about 9.2e18)");
}

template <class N, class P>
void check_binomial(const N& n, const P& p) {
  if (!within(n, 0.0, std::numeric_limits<double>::infinity()))
    throw ValueError("[random.binomial] n < 0");
  if (!within(n, 0.0, kBinomialMaxTrials))
    throw ValueError("[random.binomial] n above 2^53 trials is not supported");
  if (!within(p, 0.0, 1.0)) throw ValueError("[random.binomial] p < 0, p > 1 or p is NaN");
}

template <class A>
void check_gamma(const A& a) {
  if (!within(a, 0.0, std::numeric_limits<double>::max()))
    throw ValueError("[random.gamma] shape < 0 or not finite (shapes must be non-negative finite "
                     "numbers)");
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
  philox::DrawParams p{key_, counter_, low, range, distribution, 0, 1.0, 0.0, {0.0, 0.0},
                       {nullptr, nullptr}};
  counter_ += uint64_t(n);
  return p;
}

Array Generator::draw(const Shape& shape, Dtype dtype, Device device,
                      philox::Distribution distribution, int64_t low, uint64_t range,
                      const double* scale_shift, double param, double param2) {
  check_dtype(dtype, distribution);
  if (distribution == philox::kGamma) check_gamma(param);
  if (distribution == philox::kPoisson) check_poisson(param);
  if (distribution == philox::kBinomial) {
    check_binomial(param, param2);
    param = std::trunc(param);  // as NumPy casts a number of trials to int64
  }
  Array out = Array::empty(shape, dtype, device);
  philox::DrawParams p = take(out.size(), distribution, low, range);
  p.param[0] = param;
  p.param[1] = param2;
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

Array Generator::draw_per_element(const Shape& shape, Dtype dtype,
                                  philox::Distribution distribution,
                                  std::span<const Array> per_element) {
  check_dtype(dtype, distribution);
  const Device device = per_element[0].device();
  std::vector<Array> params;
  for (const Array& a : per_element) {
    if (a.device() != device)
      throw DeviceError("[random] parameter arrays are on " + device.str() + " and " +
                        a.device().str() + "; move them to one device");
    // Contiguous float64, one per element, computed now: the backend reads them raw.
    params.push_back(ascontiguousarray(astype(broadcast_to(a, shape), Dtype::float64, false)));
    params.back().eval();
  }
  Array out = Array::empty(shape, dtype, device);
  const philox::DrawParams p = take(out.size(), distribution, 0, 0);
  if (out.size() > 0) backend_for(device).random(out, p, params);
  return out;
}

Array Generator::standard_gamma(const Array& a, const Shape& shape, Dtype dtype) {
  check_gamma(a);
  return draw_per_element(shape, dtype, philox::kGamma, std::span<const Array>(&a, 1));
}

Array Generator::poisson(double lam, const Shape& shape, Device device) {
  return draw(shape, Dtype::int64, device, philox::kPoisson, 0, 0, nullptr, lam);
}

Array Generator::poisson(const Array& lam, const Shape& shape) {
  check_poisson(lam);
  return draw_per_element(shape, Dtype::int64, philox::kPoisson, std::span<const Array>(&lam, 1));
}

Array Generator::binomial(double n, double p, const Shape& shape, Device device) {
  return draw(shape, Dtype::int64, device, philox::kBinomial, 0, 0, nullptr, n, p);
}

Array Generator::binomial(const Array& n, const Array& p, const Shape& shape) {
  if (!is_integer(n.dtype()) && !is_bool(n.dtype()))
    throw DTypeError(std::string("[random.binomial] n must be an integer array, not ") +
                     dtype_name(n.dtype()));
  check_binomial(n, p);
  const Array both[] = {n, p};
  return draw_per_element(shape, Dtype::int64, philox::kBinomial, both);
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
                     uint64_t range, double param, double param2) {
  if (distribution == philox::kIntegers) check_range(low, range, out.dtype());
  // Drawn into a fresh array and assigned: assign handles views, aliasing and pending readers.
  assign(out,
         draw(out.shape(), out.dtype(), out.device(), distribution, low, range, nullptr, param,
              param2),
         "random");
}

}  // namespace accel::random
