// accel::fft against a direct O(n^2) DFT in long double: every length 1..64, lengths of each
// algorithm (radix 2, 3, 4, 5, generic primes, Bluestein), float and double, complex and real,
// strided lines, norms, round trips and the typed errors.
#include <accel/accel.h>
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "accel/backend/cpu/fft_plan.h"

using accel::Array;
using accel::Dtype;
namespace af = accel::fft;

namespace {

using CD = std::complex<double>;

// X_k = sum_j x_j exp(-+2 pi i jk/n), from a table of the n roots computed in long double with
// the exact index jk mod n, summed in long double: well below the transforms' rounding.
std::vector<CD> direct_dft(const std::vector<CD>& x, bool forward) {
  const int64_t n = static_cast<int64_t>(x.size());
  std::vector<long double> cos_table(n), sin_table(n);
  for (int64_t m = 0; m < n; ++m) {
    const long double a = (forward ? -2 : 2) * M_PIl * static_cast<long double>(m) / n;
    cos_table[m] = std::cos(a);
    sin_table[m] = std::sin(a);
  }
  std::vector<CD> out(n);
  for (int64_t k = 0; k < n; ++k) {
    long double re = 0, im = 0;
    for (int64_t j = 0, m = 0; j < n; ++j, m = (m + k) % n) {
      re += x[j].real() * cos_table[m] - x[j].imag() * sin_table[m];
      im += x[j].real() * sin_table[m] + x[j].imag() * cos_table[m];
    }
    out[k] = CD(static_cast<double>(re), static_cast<double>(im));
  }
  return out;
}

std::vector<CD> random_complex(int64_t n, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<CD> v(n);
  for (auto& z : v) z = CD(u(gen), u(gen));
  return v;
}

// max |a - b| / max |b|, the measure the tests bound by a few ulp times log2(n).
double relative_error(const std::vector<CD>& a, const std::vector<CD>& b) {
  double diff = 0, scale = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    diff = std::max(diff, std::abs(a[i] - b[i]));
    scale = std::max(scale, std::abs(b[i]));
  }
  return scale == 0 ? diff : diff / scale;
}

double tolerance(Dtype dt, int64_t n) {
  const double eps = dt == Dtype::complex64 || dt == Dtype::float32 ? 0x1p-23 : 0x1p-52;
  return 8 * eps * std::max(1.0, std::log2(static_cast<double>(n)));
}

Array complex_array(const std::vector<CD>& v, Dtype dt) {
  return accel::astype(Array::from_vector(v, {static_cast<int64_t>(v.size())}), dt);
}

std::vector<CD> values_of(const Array& a) { return a.to_vector<CD>(); }

// Every length 1..64 and lengths that exercise each pass and Bluestein.
std::vector<int64_t> lengths() {
  std::vector<int64_t> ns;
  for (int64_t n = 1; n <= 64; ++n) ns.push_back(n);
  for (int64_t n : {81, 97, 101, 125, 128, 210, 243, 256, 625, 1009, 1024, 2310, 4093})
    ns.push_back(n);
  return ns;
}

TEST(Fft, complex_matches_direct_dft_for_every_length_and_precision) {
  for (Dtype dt : {Dtype::complex64, Dtype::complex128}) {
    for (int64_t n : lengths()) {
      const auto x = random_complex(n, static_cast<unsigned>(n));
      const Array xa = complex_array(x, dt);
      // The oracle sees the values the transform sees (rounded to complex64 first).
      const auto xs = values_of(xa);
      EXPECT_LE(relative_error(values_of(af::fft(xa)), direct_dft(xs, true)), tolerance(dt, n))
          << "fft n=" << n << " " << accel::dtype_name(dt);
      const auto inverse = direct_dft(xs, false);
      std::vector<CD> scaled(inverse.size());
      for (size_t i = 0; i < inverse.size(); ++i) scaled[i] = inverse[i] / static_cast<double>(n);
      EXPECT_LE(relative_error(values_of(af::ifft(xa)), scaled), tolerance(dt, n))
          << "ifft n=" << n << " " << accel::dtype_name(dt);
    }
  }
}

TEST(Fft, plans_pick_bluestein_for_large_prime_factors_only) {
  EXPECT_STREQ(accel::cpu::fft::complex_plan<double>(1009)->algorithm(), "bluestein");
  EXPECT_STREQ(accel::cpu::fft::complex_plan<double>(4093)->algorithm(), "bluestein");
  EXPECT_STREQ(accel::cpu::fft::complex_plan<double>(1024)->algorithm(), "stockham");
  EXPECT_STREQ(accel::cpu::fft::complex_plan<float>(7 * 11 * 13)->algorithm(), "stockham");
}

TEST(Fft, unit_roots_are_accurate_at_every_octant) {
  for (int64_t n : {7, 8, 1000, 1 << 20}) {
    for (int64_t k = 0; k < n; k += std::max<int64_t>(1, n / 97)) {
      const long double a = -2 * M_PIl * k / n;
      const CD w = accel::cpu::fft::unit_root(k, n);
      EXPECT_NEAR(w.real(), static_cast<double>(std::cos(a)), 2e-16) << k << "/" << n;
      EXPECT_NEAR(w.imag(), static_cast<double>(std::sin(a)), 2e-16) << k << "/" << n;
    }
  }
}

TEST(Fft, real_transforms_match_direct_dft_and_round_trip) {
  for (Dtype dt : {Dtype::float32, Dtype::float64}) {
    for (int64_t n : {1, 2, 3, 4, 5, 6, 7, 8, 15, 16, 30, 64, 97, 100, 101, 1009, 1024}) {
      auto x = random_complex(n, static_cast<unsigned>(n) + 7);
      std::vector<double> re(n);
      for (int64_t i = 0; i < n; ++i) re[i] = x[i].real();
      const Array xa = accel::astype(Array::from_vector(re, {n}), dt);
      const auto xr = xa.to_vector<double>();
      std::vector<CD> xc(xr.begin(), xr.end());
      auto expected = direct_dft(xc, true);
      expected.resize(n / 2 + 1);
      const Array spectrum = af::rfft(xa);
      ASSERT_EQ(spectrum.shape(), accel::Shape{n / 2 + 1});
      EXPECT_LE(relative_error(values_of(spectrum), expected), tolerance(dt, n)) << "rfft n=" << n;
      const auto back = af::irfft(spectrum, n).to_vector<double>();
      std::vector<CD> back_c(back.begin(), back.end());
      EXPECT_LE(relative_error(back_c, xc), 2 * tolerance(dt, n)) << "irfft n=" << n;
    }
  }
}

TEST(Fft, irfft_ignores_the_imaginary_parts_a_real_signal_cannot_have) {
  const std::vector<CD> spectrum = {{4, 9}, {1, 2}, {3, -5}};
  std::vector<CD> hermitian = {{4, 0}, {1, 2}, {3, 0}, {1, -2}};
  auto expected = direct_dft(hermitian, false);
  const auto got = af::irfft(complex_array(spectrum, Dtype::complex128)).to_vector<double>();
  ASSERT_EQ(got.size(), 4u);
  for (int i = 0; i < 4; ++i) EXPECT_NEAR(got[i], expected[i].real() / 4, 1e-15);
}

TEST(Fft, transforms_strided_lines_along_any_axis) {
  // A (5, 6) complex array viewed transposed: lines along axis 0 of the view have stride 1
  // in memory, along axis 1 stride 6; every line must match its own direct DFT.
  const auto v = random_complex(30, 3);
  const Array base = accel::reshape(complex_array(v, Dtype::complex128), {5, 6});
  const Array t = accel::permute_dims(base, {1, 0});  // shape (6, 5)
  for (int axis : {0, 1}) {
    const auto got = values_of(af::fft(t, std::nullopt, axis));
    const int64_t len = t.shape()[axis], other = t.shape()[1 - axis];
    for (int64_t o = 0; o < other; ++o) {
      std::vector<CD> line(len), out(len);
      for (int64_t k = 0; k < len; ++k) {
        const int64_t i = axis == 0 ? k : o, j = axis == 0 ? o : k;  // (i, j) of t = base[j][i]
        line[k] = v[j * 6 + i];
        out[k] = got[i * 5 + j];
      }
      EXPECT_LE(relative_error(out, direct_dft(line, true)), tolerance(Dtype::complex128, len));
    }
  }
}

TEST(Fft, n_crops_or_zero_pads_and_norms_scale) {
  const auto x = random_complex(12, 5);
  const Array xa = complex_array(x, Dtype::complex128);
  std::vector<CD> padded = x;
  padded.resize(20);
  EXPECT_LE(relative_error(values_of(af::fft(xa, 20)), direct_dft(padded, true)), 1e-14);
  std::vector<CD> cropped(x.begin(), x.begin() + 7);
  EXPECT_LE(relative_error(values_of(af::fft(xa, 7)), direct_dft(cropped, true)), 1e-14);
  const auto plain = values_of(af::fft(xa));
  const auto ortho = values_of(af::fft(xa, std::nullopt, -1, af::Norm::ortho));
  const auto fwd = values_of(af::fft(xa, std::nullopt, -1, af::Norm::forward));
  for (size_t k = 0; k < plain.size(); ++k) {
    EXPECT_NEAR(std::abs(ortho[k] - plain[k] / std::sqrt(12.0)), 0, 1e-14);
    EXPECT_NEAR(std::abs(fwd[k] - plain[k] / 12.0), 0, 1e-14);
  }
}

TEST(Fft, fftn_is_successive_one_axis_transforms) {
  const auto v = random_complex(4 * 6 * 5, 11);
  const Array x = accel::reshape(complex_array(v, Dtype::complex128), {4, 6, 5});
  const Array expected =
      af::fft(af::fft(af::fft(x, std::nullopt, 2), std::nullopt, 1), std::nullopt, 0);
  EXPECT_LE(relative_error(values_of(af::fftn(x)), values_of(expected)), 1e-14);
  const Array round = af::irfftn(af::rfftn(accel::real(x)), std::vector<int64_t>{4, 6, 5});
  const auto r = round.to_vector<double>();
  const auto re = accel::real(x).to_vector<double>();
  for (size_t i = 0; i < r.size(); ++i) EXPECT_NEAR(r[i], re[i], 1e-14);
}

TEST(Fft, threads_sharing_the_plan_cache_get_the_same_answers) {
  // More lengths than the cache holds, asked for by several threads at once: plans are built,
  // shared and evicted concurrently; every answer must still be the direct DFT's.
  std::vector<int64_t> ns;
  for (int64_t n = 100; n < 160; ++n) ns.push_back(n);
  std::vector<std::vector<CD>> inputs, expected;
  for (int64_t n : ns) {
    inputs.push_back(random_complex(n, static_cast<unsigned>(n)));
    expected.push_back(direct_dft(inputs.back(), true));
  }
  std::vector<int> failures(4, 0);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&, t] {
      for (int round = 0; round < 3; ++round)
        for (size_t i = (t * 7) % ns.size(), c = 0; c < ns.size(); ++c, i = (i + 1) % ns.size()) {
          const auto got = values_of(af::fft(complex_array(inputs[i], Dtype::complex128)));
          if (relative_error(got, expected[i]) > tolerance(Dtype::complex128, ns[i])) ++failures[t];
        }
    });
  for (auto& th : threads) th.join();
  for (int t = 0; t < 4; ++t) EXPECT_EQ(failures[t], 0) << "thread " << t;
}

TEST(Fft, bad_arguments_raise_typed_errors_naming_them) {
  const Array x = complex_array(random_complex(8, 1), Dtype::complex128);
  try {
    af::fft(x, 0);
    FAIL() << "n=0 accepted";
  } catch (const accel::ValueError& e) {
    EXPECT_NE(std::string(e.what()).find("n=0"), std::string::npos) << e.what();
  }
  EXPECT_THROW(af::fft(x, std::nullopt, 1), accel::AxisError);
  EXPECT_THROW(af::rfft(x), accel::DTypeError);
  EXPECT_THROW(af::norm_from_string("unitary"), accel::ValueError);
  EXPECT_THROW(af::irfft(complex_array({CD(1, 0)}, Dtype::complex128)), accel::ValueError);
}

}  // namespace
