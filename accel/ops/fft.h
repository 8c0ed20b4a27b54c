// Discrete Fourier transforms (NumPy's numpy.fft, the Array API's fft extension). Each
// evaluates its input, converts it to the transform's dtype and runs the device's FFT
// (backend/fft.h) once per transformed axis. Dtypes as NumPy 2 (float16 and float32 in single
// precision, integers and bool in double): see single_precision in fft.cpp.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "accel/core/array.h"

namespace accel::fft {

// Which direction is scaled: "backward" (the inverse by 1/n), "ortho" (both by 1/sqrt(n)),
// "forward" (the forward by 1/n).
enum class Norm { backward, ortho, forward };
// "backward", "ortho" or "forward"; anything else raises ValueError naming it.
Norm norm_from_string(const std::string& name);

// One axis. n crops or zero-pads the input along `axis` (default: its length; for irfft and
// hfft the output length, default 2 (m - 1) for an input of length m); n < 1 raises ValueError.
Array fft(const Array& x, std::optional<int64_t> n = std::nullopt, int64_t axis = -1,
          Norm norm = Norm::backward);
Array ifft(const Array& x, std::optional<int64_t> n = std::nullopt, int64_t axis = -1,
           Norm norm = Norm::backward);
// Real input (complex input raises DTypeError): the n/2 + 1 non-negative frequencies.
Array rfft(const Array& x, std::optional<int64_t> n = std::nullopt, int64_t axis = -1,
           Norm norm = Norm::backward);
// The real signal of length n whose rfft is x (x's imaginary parts at 0 and n/2 ignored).
Array irfft(const Array& x, std::optional<int64_t> n = std::nullopt, int64_t axis = -1,
            Norm norm = Norm::backward);
// The real spectrum of a Hermitian-symmetric signal given by its first half, and its inverse.
Array hfft(const Array& x, std::optional<int64_t> n = std::nullopt, int64_t axis = -1,
           Norm norm = Norm::backward);
Array ihfft(const Array& x, std::optional<int64_t> n = std::nullopt, int64_t axis = -1,
            Norm norm = Norm::backward);

// Several axes, as successive 1-d transforms (NumPy's order: the last axis first). `axes`
// defaults to the last len(s) axes, or all axes; `s` to the input's lengths along `axes`
// (for irfftn the last one to 2 (m - 1)); an entry -1 in s means the input's length.
using Sizes = std::optional<std::vector<int64_t>>;
Array fftn(const Array& x, const Sizes& s = std::nullopt, const Sizes& axes = std::nullopt,
           Norm norm = Norm::backward);
Array ifftn(const Array& x, const Sizes& s = std::nullopt, const Sizes& axes = std::nullopt,
            Norm norm = Norm::backward);
// The real transform on the last of `axes`, complex transforms on the others.
Array rfftn(const Array& x, const Sizes& s = std::nullopt, const Sizes& axes = std::nullopt,
            Norm norm = Norm::backward);
Array irfftn(const Array& x, const Sizes& s = std::nullopt, const Sizes& axes = std::nullopt,
             Norm norm = Norm::backward);

}  // namespace accel::fft
