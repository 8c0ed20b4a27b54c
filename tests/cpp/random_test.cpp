// accel::random: Philox4x32-10 against Random123's known answers, accel's own log, cosine and
// sine against the C library, draws that do not depend on the thread count or on how calls are
// split, NVRTC compiles of the CUDA kernel for sm_90, and that kernel's source run on the host
// emulator (simt_host.h) giving the CPU's values bit for bit.
#include <accel/accel.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "accel/backend/cpu/cpu.h"
#include "accel/backend/cpu/philox_blocks.h"
#include "accel/backend/cuda/compiler.h"
#include "accel/backend/cuda/nvrtc.h"
#include "accel/backend/cuda/random.h"
#include "accel/device_src/philox.h"
#include "ptxas_resources.h"

// clang-format off
#include "simt_host.h"
#include "accel/device_src/random.cuh"
// clang-format on

namespace cu = accel::cuda;
namespace px = accel::philox;
using accel::Array;
using accel::Dtype;
using accel::random::Generator;

namespace {

// Random123's tests/kat_vectors, the three philox4x32 10 lines: counter, key, expected.
TEST(Philox, matches_random123_known_answers) {
  struct Kat {
    px::Block counter;
    uint32_t k0, k1;
    px::Block expected;
  };
  const Kat kats[] = {
      {{{0, 0, 0, 0}}, 0, 0, {{0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8}}},
      {{{0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff}},
       0xffffffff,
       0xffffffff,
       {{0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd}}},
      {{{0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344}},
       0xa4093822,
       0x299f31d0,
       {{0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1}}},
  };
  for (const Kat& k : kats) {
    const px::Block got = px::philox4x32_10(k.counter, k.k0, k.k1);
    for (int i = 0; i < 4; ++i) EXPECT_EQ(got.v[i], k.expected.v[i]) << "word " << i;
  }
}

// The CPU's chunks of blocks (8 at a time in AVX2 lanes where the library has AVX2) are
// philox.h's blocks: every count up to a chunk, counters that carry into the high word, and
// the word2 / domain words every draw uses.
TEST(Philox, chunks_of_blocks_equal_one_block_at_a_time) {
  accel::cpu::PhiloxChunk chunk;
  const uint64_t key = 0x0123456789ABCDEFull;
  const uint64_t starts[] = {0, 5, 0xFFFFFFFFull - 6, 0xFFFFFFFFFFFFFFF0ull};
  for (uint64_t q0 : starts)
    for (int64_t count : {0, 1, 7, 8, 9, 17, 255, 256})
      for (uint32_t word2 : {0u, 3u})
        for (uint32_t domain : {0u, 1u, 9u}) {
          chunk.fill(key, q0, count, word2, domain);
          for (int64_t i = 0; i < count; ++i) {
            const px::Block want = px::element_block(key, q0 + uint64_t(i), word2, domain);
            const px::Block got = chunk.block(i);
            for (int w = 0; w < 4; ++w)
              ASSERT_EQ(got.v[w], want.v[w]) << "q0 " << q0 << " block " << i << " word " << w;
          }
        }
}

double ulps(double got, double want) {
  return std::fabs(got - want) / std::fabs(std::nextafter(want, INFINITY) - want);
}

TEST(Philox, own_log_is_within_one_ulp_of_the_c_library) {
  Generator g(7);
  std::vector<double> u = g.random({100000}).to_vector<double>();
  u.push_back(1.0);
  u.push_back(0x1.0p-53);
  u.push_back(0.7071067811865476);
  for (double x : u) {
    if (x == 0) continue;
    if (x == 1.0) {
      EXPECT_EQ(px::log_unit(x), 0.0);
      continue;
    }
    EXPECT_LE(ulps(px::log_unit(x), std::log(x)), 1.0) << x;
  }
}

TEST(Philox, own_cosine_and_sine_of_a_turn_are_accurate) {
  for (int i = 0; i < 4096; ++i) {
    const double u = i / 4096.0;
    // The reference in long double: 2 pi u itself rounds by up to 4e-16 in double.
    const long double angle = 2 * 3.141592653589793238462643383279503L * u;
    const px::CosSin got = px::cos_sin_two_pi(u);
    EXPECT_NEAR(got.cos, static_cast<double>(std::cos(angle)), 3e-16) << u;
    EXPECT_NEAR(got.sin, static_cast<double>(std::sin(angle)), 3e-16) << u;
  }
}

struct Case {
  px::Distribution distribution;
  Dtype dtype;
  int64_t low;
  uint64_t range;
  double param = 0;   // DrawParams::param[0]: gamma's shape, Poisson's mean, binomial's n
  double param2 = 0;  // binomial's p
};

const Case kCases[] = {
    {px::kUniform, Dtype::float32, 0, 0},       {px::kUniform, Dtype::float64, 0, 0},
    {px::kNormal, Dtype::float32, 0, 0},        {px::kNormal, Dtype::float64, 0, 0},
    {px::kExponential, Dtype::float32, 0, 0},   {px::kExponential, Dtype::float64, 0, 0},
    {px::kIntegers, Dtype::int64, -5, 11},      {px::kIntegers, Dtype::int64, INT64_MIN, 0},
    {px::kIntegers, Dtype::uint64, 0, 0},       {px::kIntegers, Dtype::int8, -128, 256},
    {px::kIntegers, Dtype::uint16, 3, 60000},   {px::kIntegers, Dtype::int64, 0, (1ull << 31) + 1},
    {px::kIntegers, Dtype::uint32, 0, 3},       {px::kIntegers, Dtype::bool_, 0, 2},
    {px::kIntegers, Dtype::int16, -1000, 7},    {px::kIntegers, Dtype::uint8, 250, 6},
    // The CPU's vectorised path takes ranges below 2^32: its largest and the next one up.
    {px::kIntegers, Dtype::int64, 0, 0xFFFFFFFFull}, {px::kIntegers, Dtype::int64, 0, 1ull << 32},
    // Gamma: below 1 (the u^(1/a) boost), 1, and large; both dtypes.
    {px::kGamma, Dtype::float64, 0, 0, 0.3}, {px::kGamma, Dtype::float32, 0, 0, 1.0},
    {px::kGamma, Dtype::float64, 0, 0, 7.5},  {px::kGamma, Dtype::float64, 0, 0, 0.0},
    // Counts: Poisson by inversion (below 10) and by PTRS, huge means; binomial by inversion,
    // by BTRS, with p above 1/2 (drawn as n - k) and at its edges.
    {px::kPoisson, Dtype::int64, 0, 0, 0.0},    {px::kPoisson, Dtype::int64, 0, 0, 3.5},
    {px::kPoisson, Dtype::int64, 0, 0, 9.99},   {px::kPoisson, Dtype::int64, 0, 0, 10.0},
    {px::kPoisson, Dtype::int64, 0, 0, 1234.5}, {px::kPoisson, Dtype::int64, 0, 0, 1e15},
    {px::kBinomial, Dtype::int64, 0, 0, 20, 0.3},   {px::kBinomial, Dtype::int64, 0, 0, 1000, 0.3},
    {px::kBinomial, Dtype::int64, 0, 0, 1000, 0.97}, {px::kBinomial, Dtype::int64, 0, 0, 1e12, 1e-3},
    {px::kBinomial, Dtype::int64, 0, 0, 7, 1.0},    {px::kBinomial, Dtype::int64, 0, 0, 7, 0.0},
};

Array cpu_draw(const Case& c, uint64_t seed, int64_t n) {
  Array out = Array::empty({n}, c.dtype, accel::Device::cpu());
  Generator(seed).fill(out, c.distribution, c.low, c.range, c.param, c.param2);
  return out;
}

bool same_bytes(const Array& a, const Array& b) {
  return a.nbytes() == b.nbytes() && std::memcmp(a.data(), b.data(), a.nbytes()) == 0;
}

TEST(Random, values_do_not_depend_on_the_thread_count) {
  const int threads = accel::cpu::num_threads();
  for (const Case& c : kCases) {
    accel::cpu::set_num_threads(1);
    const Array one = cpu_draw(c, 42, 100003);
    accel::cpu::set_num_threads(4);
    const Array four = cpu_draw(c, 42, 100003);
    EXPECT_TRUE(same_bytes(one, four)) << dtype_name(c.dtype);
  }
  accel::cpu::set_num_threads(threads);
}

TEST(Random, element_k_uses_counter_k_so_split_calls_equal_one_call) {
  Generator whole(3), split(3);
  const Array all = whole.standard_normal({30});
  // Odd sizes: the middle call starts and ends inside a pair of normals.
  const Array first = split.standard_normal({9}), middle = split.standard_normal({1, 7}),
              rest = split.standard_normal({2, 7});
  std::vector<double> parts = first.to_vector<double>();
  for (const Array* x : {&middle, &rest}) {
    const std::vector<double> v = x->to_vector<double>();
    parts.insert(parts.end(), v.begin(), v.end());
  }
  EXPECT_EQ(all.to_vector<double>(), parts);
  EXPECT_EQ(whole.counter(), 30u);
  EXPECT_EQ(split.counter(), 30u);
}

TEST(Random, uniforms_take_every_word_of_a_block_and_split_calls_equal_one_call) {
  // float32: elements 4q..4q+3 are block q's four words; float64: 2q, 2q+1 its two 64-bit words.
  for (Dtype dt : {Dtype::float32, Dtype::float64}) {
    Generator whole(11), split(11);
    Array all = Array::empty({41}, dt, accel::Device::cpu());
    whole.fill(all, px::kUniform, 0, 0);
    const uint32_t domain = dt == Dtype::float32 ? px::kUniformFloat32Domain
                                                 : px::kUniformFloat64Domain;
    const int per = dt == Dtype::float32 ? 4 : 2;
    const std::vector<double> v = all.to_vector<double>();
    for (int64_t g = 0; g < 41; ++g) {
      const px::Block b = px::uniform_block(whole.key(), uint64_t(g / per), domain);
      const double want = per == 4 ? double(px::uniform_float32(b, int(g % per)))
                                   : px::uniform_float64(b, int(g % per));
      ASSERT_EQ(v[size_t(g)], want) << dtype_name(dt) << " element " << g;
    }
    // Calls that start and end inside blocks give the same elements as one call.
    std::vector<double> parts;
    for (int64_t n : {3, 1, 6, 31}) {
      Array part = Array::empty({n}, dt, accel::Device::cpu());
      split.fill(part, px::kUniform, 0, 0);
      const std::vector<double> p = part.to_vector<double>();
      parts.insert(parts.end(), p.begin(), p.end());
    }
    EXPECT_EQ(v, parts) << dtype_name(dt);
  }
}

TEST(Random, integers_stay_in_range_for_every_dtype) {
  for (const Case& c : kCases) {
    if (c.distribution != px::kIntegers || c.range == 0) continue;
    const std::vector<double> v = accel::astype(cpu_draw(c, 9, 5000), Dtype::float64).to_vector<double>();
    for (double x : v) {
      EXPECT_GE(x, double(c.low));
      EXPECT_LT(x, double(c.low) + double(c.range));
    }
  }
}

TEST(Philox, own_exp_is_within_one_ulp_of_the_c_library) {
  for (double x = -744.0; x <= 0.0; x += 0.37) {
    const double want = std::exp(x), got = px::exp_nonpositive(x);
    if (want >= 0x1.0p-1022) EXPECT_LE(std::abs(got - want), std::abs(std::nextafter(want, 0.0) - want)) << x;
    else EXPECT_LE(std::abs(got - want), 0x1.0p-1074 * 2) << x;  // subnormal: absolute
  }
  EXPECT_EQ(px::exp_nonpositive(0.0), 1.0);
  EXPECT_EQ(px::exp_nonpositive(-800.0), 0.0);
}

TEST(Random, gamma_draws_are_positive_with_the_shapes_mean_and_variance) {
  for (double a : {0.05, 0.3, 1.0, 2.5, 30.0}) {
    const Array x = Generator(5).standard_gamma(a, {200000});
    const std::vector<double> v = x.to_vector<double>();
    double mean = 0, var = 0;
    for (double e : v) {
      ASSERT_TRUE(e >= 0 && std::isfinite(e)) << a;
      mean += e;
    }
    mean /= double(v.size());
    for (double e : v) var += (e - mean) * (e - mean);
    var /= double(v.size() - 1);
    // Gamma(a): mean a, variance a; the sample mean's spread is sqrt(a / n).
    EXPECT_NEAR(mean, a, 5 * std::sqrt(a / double(v.size()))) << a;
    EXPECT_NEAR(var, a, 0.05 * a + 5 * std::sqrt(2 * a * a / double(v.size()))) << a;
  }
  // Shape 0 is the limit, all zeros (as NumPy's); NaN and negative shapes are errors.
  EXPECT_EQ(Generator(0).standard_gamma(0.0, {3}).to_vector<double>(), std::vector<double>(3, 0.0));
  EXPECT_THROW(Generator(0).standard_gamma(std::nan(""), {3}), accel::ValueError);
  EXPECT_THROW(Generator(0).standard_gamma(-1.0, {3}), accel::ValueError);
}

TEST(Random, spawned_streams_differ_from_the_parent_and_each_other) {
  Generator parent(1);
  Generator a = parent.spawn(), b = parent.spawn();
  EXPECT_NE(a.key(), parent.key());
  EXPECT_NE(a.key(), b.key());
  EXPECT_NE(Generator(1).spawn().key(), Generator(2).spawn().key());
  EXPECT_EQ(Generator(1).spawn().key(), a.key());
}

TEST(Random, bad_dtype_or_range_raises_typed_errors) {
  Generator g(0);
  EXPECT_THROW(g.random({3}, Dtype::int32), accel::DTypeError);
  EXPECT_THROW(g.standard_normal({3}, Dtype::complex64), accel::DTypeError);
  EXPECT_THROW(g.integers(0, 3, {3}, Dtype::float64), accel::DTypeError);
  EXPECT_THROW(g.integers(0, 300, {3}, Dtype::uint8), accel::ValueError);
  EXPECT_THROW(g.integers(-1, 2, {3}, Dtype::uint8), accel::ValueError);
  EXPECT_THROW(g.integers(0, 0, {3}, Dtype::int32), accel::ValueError);
}

// ------------------------------------------------ the CUDA kernel: NVRTC and the host emulator

TEST(RandomCuda, kernel_compiles_for_every_dtype_without_spills) {
  const std::string why = cu::nvrtc_unavailable_reason();
  ASSERT_TRUE(why.empty()) << why;  // NVRTC is a build requirement of CI
  cu::CompileOptions o;
  o.arch = "sm_90";
  o.use_cache = false;
  o.options = cu::random_compile_options();
  o.options.push_back("--ptxas-options=-v");
  const auto names = cu::random_kernel_names();
  o.name_expressions = names;
  const std::string source = cu::random_kernel_source();
  auto m = cu::compile(source, o);
  EXPECT_TRUE(m->cubin);
  for (const auto& n : names) EXPECT_EQ(m->lowered_names.count(n), 1u) << n;
  const auto kernels = ptxas::parse(m->log);
  EXPECT_GE(kernels.size(), names.size()) << m->log;
  for (const auto& p : ptxas::problems(kernels, 256, source)) ADD_FAILURE() << p;
}

template <class T>
void emulate(const Array& out, const px::DrawParams& p, const double* first = nullptr,
             const double* second = nullptr) {
  // A small grid, so the grid-stride loop takes several turns per thread.
  const auto n = static_cast<long long>(out.size());
  const bool counts = p.distribution == px::kPoisson || p.distribution == px::kBinomial;
  simt::launch({3, 1, 1}, {32, 1, 1}, [&] {
    if (counts)  // the counts kernel (int64 only), as backend/cuda/random.cpp launches it
      accel_random_counts(reinterpret_cast<long long*>(out.data<int64_t>()), n, p, first, second);
    else
      accel_random<T>(out.data<T>(), n, p, first, second);
  });
}

void emulate_any(const Array& out, const px::DrawParams& p) {
  switch (out.dtype()) {
#define ACCEL_DTYPE(name, ctype, str, kind)                    \
  case Dtype::name:                                            \
    if constexpr (!accel::is_complex_v<ctype>) emulate<ctype>(out, p); \
    break;
#include "accel/core/dtype.def"
#undef ACCEL_DTYPE
  }
}

TEST(RandomCuda, kernel_on_the_emulator_equals_the_cpu_bit_for_bit) {
  for (const Case& c : kCases) {
    const int64_t n = 1000;
    Generator cpu(2026), gpu(2026);
    cpu.random({5});  // a later call: the offset counts
    gpu.random({5});
    Array want = Array::empty({n}, c.dtype, accel::Device::cpu());
    cpu.fill(want, c.distribution, c.low, c.range, c.param, c.param2);
    Array got = accel::zeros({n}, c.dtype, accel::Device::cpu());
    const px::DrawParams p{gpu.key(), gpu.counter(), c.low,      c.range,
                           c.distribution, 0, 1.0, 0.0, {c.param, c.param2}, {nullptr, nullptr}};
    emulate_any(got, p);
    EXPECT_TRUE(same_bytes(want, got)) << dtype_name(c.dtype) << " distribution " << c.distribution
                                       << " parameters " << c.param << ", " << c.param2;
  }
}

// Parameters given per element (arrays of means, trials and probabilities, shapes): the
// kernel reads element k's from the arrays, as the CPU does.
TEST(RandomCuda, per_element_parameters_on_the_emulator_equal_the_cpu_bit_for_bit) {
  const int64_t n = 777;
  std::vector<double> means(n), probabilities(n), trials(n), shapes(n);
  for (int64_t k = 0; k < n; ++k) {
    means[k] = double(k % 37) * 1.7;             // 0 .. 61: both Poisson methods
    probabilities[k] = double(k % 11) / 10.0;    // 0 .. 1
    trials[k] = double((k * 7919) % 5000);       // inversion and BTRS
    shapes[k] = double(k % 13) * 0.6;            // 0, below 1 and above
  }
  const auto cpu_array = [&](const std::vector<double>& v) {
    return Array::from_vector(v, {n}, accel::Device::cpu());
  };
  for (const px::Distribution d : {px::kPoisson, px::kBinomial, px::kGamma}) {
    Generator cpu(7), gpu(7);
    cpu.random({3});  // a later call: the offset counts
    gpu.random({3});
    Array want;
    if (d == px::kPoisson) want = cpu.poisson(cpu_array(means), {n});
    if (d == px::kBinomial)
      want = cpu.binomial(accel::astype(cpu_array(trials), Dtype::int64), cpu_array(probabilities), {n});
    if (d == px::kGamma) want = cpu.standard_gamma(cpu_array(shapes), {n});
    const px::DrawParams p{gpu.key(), gpu.counter(), 0, 0, d, 0, 1.0, 0.0, {0.0, 0.0},
                           {nullptr, nullptr}};
    Array got = accel::zeros({n}, want.dtype(), accel::Device::cpu());
    if (d == px::kPoisson) emulate<int64_t>(got, p, means.data());
    if (d == px::kBinomial) emulate<int64_t>(got, p, trials.data(), probabilities.data());
    if (d == px::kGamma) emulate<double>(got, p, shapes.data());
    EXPECT_TRUE(same_bytes(want, got)) << "distribution " << d;
  }
}

}  // namespace
