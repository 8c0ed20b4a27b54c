// Random numbers from a counter-based generator (Philox4x32-10, device_src/philox.h): a stream
// is a 64-bit key and the next unused counter; element k of a draw uses counter + k, and the
// counter then moves past the draw. The values for a given seed, call sequence, shape, dtype and
// distribution are the same on every device and for any number of threads. NumPy's streams
// (PCG64, ziggurat) are not reproduced.
#pragma once
#include <cstdint>
#include <span>

#include "accel/core/array.h"
#include "accel/device_src/philox.h"

namespace accel::random {

// NumPy's limit on Poisson means (the int64 maximum less ten of its standard deviations), and
// the most binomial trials a draw takes (counts are computed in float64).
inline constexpr double kPoissonLamMax = 9223372006484771000.0;
inline constexpr double kBinomialMaxTrials = 9007199254740992.0;  // 2^53

// A 64-bit Philox key from any number of 64-bit seed words (SplitMix64 folding: every word
// and the word count change every bit of the key).
uint64_t key_from_words(std::span<const uint64_t> words);

class Generator {
 public:
  explicit Generator(uint64_t seed);
  static Generator from_key(uint64_t key, uint64_t counter = 0);

  uint64_t key() const { return key_; }
  uint64_t counter() const { return counter_; }

  // Uniform on [0, 1), float32 (24 bits) or float64 (53 bits).
  Array random(const Shape& shape, Dtype dtype = Dtype::float64, Device device = default_device());
  Array standard_normal(const Shape& shape, Dtype dtype = Dtype::float64,
                        Device device = default_device());
  Array standard_exponential(const Shape& shape, Dtype dtype = Dtype::float64,
                             Device device = default_device());
  // Integers in [low, low + range) (range 0 means 2^64), unbiased; dtype an integer type or
  // bool that holds every value of the range.
  Array integers(int64_t low, uint64_t range, const Shape& shape, Dtype dtype = Dtype::int64,
                 Device device = default_device());
  // Standard gamma of shape `a` >= 0 (Marsaglia-Tsang, philox::standard_gamma; shape 0 gives
  // 0), one shape for every element or an array of shapes broadcast to `shape`.
  Array standard_gamma(double a, const Shape& shape, Dtype dtype = Dtype::float64,
                       Device device = default_device());
  Array standard_gamma(const Array& a, const Shape& shape, Dtype dtype = Dtype::float64);
  // Poisson counts (int64) of mean lam in [0, kPoissonLamMax] (philox::poisson).
  Array poisson(double lam, const Shape& shape, Device device = default_device());
  Array poisson(const Array& lam, const Shape& shape);
  // Binomial counts (int64) of n trials (an integer in [0, 2^53]) with probability p in [0, 1]
  // (philox::binomial).
  Array binomial(double n, double p, const Shape& shape, Device device = default_device());
  Array binomial(const Array& n, const Array& p, const Shape& shape);
  // A real distribution (uniform, normal, exponential, gamma of shape `param`) times `scale`
  // plus `shift`, applied in the draw's own pass: the bits of `draw * scale + shift` computed as
  // separate float64 ops.
  Array scaled(philox::Distribution distribution, double scale, double shift, const Shape& shape,
               Dtype dtype = Dtype::float64, Device device = default_device(), double param = 0);
  // Any distribution into an existing array (each element of `out` in C order takes the
  // next counter); out's dtype as above; `param` and `param2` are DrawParams::param (checked
  // as the distribution's own method checks them).
  void fill(const Array& out, philox::Distribution distribution, int64_t low = 0,
            uint64_t range = 0, double param = 0, double param2 = 0);
  // A child stream with its own key (derived from this key and the child's number), so
  // spawned streams are independent of this one and of each other.
  Generator spawn();

 private:
  Generator(uint64_t key, uint64_t counter) : key_(key), counter_(counter) {}
  Array draw(const Shape& shape, Dtype dtype, Device device, philox::Distribution distribution,
             int64_t low, uint64_t range, const double* scale_shift = nullptr, double param = 0,
             double param2 = 0);
  // A draw whose parameters are arrays broadcast to `shape` (on their device), one per
  // element: parameter i of element k is per_element[i]'s element k.
  Array draw_per_element(const Shape& shape, Dtype dtype, philox::Distribution distribution,
                         std::span<const Array> per_element);
  philox::DrawParams take(int64_t n, philox::Distribution distribution, int64_t low,
                          uint64_t range);

  uint64_t key_ = 0;
  uint64_t counter_ = 0;
  uint64_t children_ = 0;
};

}  // namespace accel::random
