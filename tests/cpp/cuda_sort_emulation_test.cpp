// The CUDA sort and searchsorted kernels (device_src/sort.cuh) run on the host emulator
// (simt_host.h) through the backend's own orchestration (run_sort / run_searchsorted with an
// emulated KernelRunner), checked bit for bit against the CPU backend's sort: every dtype,
// ascending and descending, NaN / inf / -0.0 and many ties (stability), rows of length 0, 1, 37
// and 100,000, views with any strides, values and / or indices, several block orders. And the
// fold behind ufunc_at (device_src/fold_at.cuh), which sorts its positions with these kernels:
// run_fold_at against the CPU's fold, bit for bit; and reduceat's segmented fold
// (run_fold_segments against the CPU's).
#include <gtest/gtest.h>

#include <array>
#include <complex>
#include <cstring>
#include <functional>
#include <limits>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "accel/accel.h"
#include "accel/backend/cpu/fold_at.h"
#include "accel/backend/cpu/interp.h"
#include "accel/backend/cpu/sort.h"
#include "accel/backend/sorting.h"
#include "accel/backend/cuda/fold_at.h"
#include "accel/backend/cuda/sort_kernels.h"
#include "accel/device_src/scalar_ops.h"
// clang-format off
#include "simt_host.h"
#include "accel/device_src/reduce_params.h"
#include "accel/device_src/reduce.cuh"
#include "accel/device_src/sort_params.h"
#include "accel/device_src/sort_key.h"
#include "accel/device_src/sort.cuh"
#include "accel/device_src/interp.h"
#include "accel/device_src/interp.cuh"
#include "accel/device_src/fold_at.cuh"
// clang-format on

using namespace accel;
namespace cu = accel::cuda;
namespace kk = accel::kernels;

namespace {

const Device host = Device::cpu();

// Runs the sort kernels on the emulator, in host memory, under `options` (block order).
class EmulatedRunner final : public cu::KernelRunner {
 public:
  using Run = std::function<void(cu::Grid, const void*)>;
  void add(const std::string& name, Run run) { kernels_[name] = std::move(run); }
  void launch(const std::string& name, cu::Grid grid, const void* params, size_t) override {
    auto it = kernels_.find(name);
    if (it == kernels_.end()) throw std::runtime_error("no emulated kernel " + name);
    launched.push_back(name);
    it->second(grid, params);
  }
  Array empty(const Shape& shape, Dtype dtype) override { return Array::empty(shape, dtype, host); }
  void to_host(void* dst, const void* src, size_t bytes) override { std::memcpy(dst, src, bytes); }
  void from_host(void* dst, const void* src, size_t bytes) override {
    std::memcpy(dst, src, bytes);
  }
  // A small device: grid-stride kernels loop over several elements per thread.
  int64_t threads_wanted() const override { return 4096; }

  std::vector<std::string> launched;
  simt::Options options;

 private:
  std::map<std::string, Run> kernels_;
};

EmulatedRunner& runner();

template <class P, class Kernel>
EmulatedRunner::Run emulate(Kernel kernel) {
  return [kernel](cu::Grid g, const void* params) {
    const P p = *static_cast<const P*>(params);
    simt::launch(
        {g.x, g.y, 1}, {kk::kThreads, 1, 1}, [&] { kernel(p); }, runner().options);
  };
}

template <class Bits, int Kind>
void add_typed(EmulatedRunner& r, Dtype dt) {
  const cu::SortKernelNames n = cu::sort_kernel_names(dt);
  r.add(n.keys,
        emulate<kk::SortParams>([](const kk::SortParams& p) { kk::sort_keys<Bits, Kind>(p); }));
  r.add(n.write,
        emulate<kk::SortParams>([](const kk::SortParams& p) { kk::sort_write<Bits, Kind>(p); }));
  r.add(n.search, emulate<kk::SearchParams>(
                      [](const kk::SearchParams& p) { kk::sort_search<Bits, Kind>(p); }));
}

// The folds the tests run: the typed CPU walks (add, multiply, maximum, subtract) and the
// per-element inner loops (divide, fmax, bitwise_xor), float16 through InFloat as on a GPU.
// (Not complex multiply: the library's host build fuses its products where the CPU has FMA,
// as NumPy's loops do, and this test is not built for the CPU's FMA.)
template <class Op, class T>
void add_fold(EmulatedRunner& r, OpId op, Dtype dt) {
  r.add(cu::fold_at_kernel_name(op, dt),
        emulate<kk::FoldAtParams>([](const kk::FoldAtParams& p) { kk::fold_at<Op, T>(p); }));
  r.add(cu::fold_segments_kernel_name(op, dt),
        emulate<kk::FoldSegmentsParams>(
            [](const kk::FoldSegmentsParams& p) { kk::fold_segments<Op, T>(p); }));
}

void add_folds(EmulatedRunner& r) {
  namespace sc = accel::scalar;
  add_fold<sc::AddOp, double>(r, OpId::add, Dtype::float64);
  add_fold<sc::AddOp, float>(r, OpId::add, Dtype::float32);
  add_fold<sc::AddOp, bool>(r, OpId::add, Dtype::bool_);
  add_fold<sc::InFloat<sc::AddOp>, accel::half>(r, OpId::add, Dtype::float16);
  add_fold<sc::AddOp, std::complex<float>>(r, OpId::add, Dtype::complex64);
  add_fold<sc::MultiplyOp, float>(r, OpId::multiply, Dtype::float32);
  add_fold<sc::MaximumOp, double>(r, OpId::maximum, Dtype::float64);
  add_fold<sc::SubtractOp, int8_t>(r, OpId::subtract, Dtype::int8);
  add_fold<sc::DivideOp, double>(r, OpId::divide, Dtype::float64);
  add_fold<sc::FmaxOp, float>(r, OpId::fmax, Dtype::float32);
  add_fold<sc::BitwiseXorOp, uint16_t>(r, OpId::bitwise_xor, Dtype::uint16);
}

EmulatedRunner& runner() {
  static EmulatedRunner* r = [] {
    auto* e = new EmulatedRunner();
    e->add(cu::kSortSegmentKeys,
           emulate<kk::SortParams>([](const kk::SortParams& p) { kk::sort_segment_keys(p); }));
    e->add(cu::kSortCount,
           emulate<kk::SortParams>([](const kk::SortParams& p) { kk::sort_count(p); }));
    e->add(cu::kSortScanCounts,
           emulate<kk::SortParams>([](const kk::SortParams& p) { kk::sort_scan_counts(p); }));
    e->add(cu::kSortScatter,
           emulate<kk::SortParams>([](const kk::SortParams& p) { kk::sort_scatter(p); }));
    add_typed<uint8_t, kk::kSortBool>(*e, Dtype::bool_);
    add_typed<uint8_t, kk::kSortSigned>(*e, Dtype::int8);
    add_typed<uint16_t, kk::kSortSigned>(*e, Dtype::int16);
    add_typed<uint32_t, kk::kSortSigned>(*e, Dtype::int32);
    add_typed<uint64_t, kk::kSortSigned>(*e, Dtype::int64);
    add_typed<uint8_t, kk::kSortUnsigned>(*e, Dtype::uint8);
    add_typed<uint16_t, kk::kSortUnsigned>(*e, Dtype::uint16);
    add_typed<uint32_t, kk::kSortUnsigned>(*e, Dtype::uint32);
    add_typed<uint64_t, kk::kSortUnsigned>(*e, Dtype::uint64);
    add_typed<uint16_t, kk::kSortFloat>(*e, Dtype::float16);
    add_typed<uint16_t, kk::kSortBfloat16>(*e, Dtype::bfloat16);
    add_typed<uint32_t, kk::kSortFloat>(*e, Dtype::float32);
    add_typed<uint64_t, kk::kSortFloat>(*e, Dtype::float64);
    add_typed<uint32_t, kk::kSortComplex>(*e, Dtype::complex64);
    add_typed<uint64_t, kk::kSortComplex>(*e, Dtype::complex128);
    add_folds(*e);
    e->add(cu::kInterpValues, emulate<kk::InterpParams>(
                                  [](const kk::InterpParams& p) { kk::interp_values(p); }));
    return e;
  }();
  return *r;
}

std::vector<Dtype> all_dtypes() {
  std::vector<Dtype> all;
  for (int d = 0; d < kNumDtypes; ++d) all.push_back(static_cast<Dtype>(d));
  return all;
}

// Random elements of dtype dt: for floats and complex a mix of NaN (both signs), +-inf, +-0.0,
// a few repeated small values and random ones; for integers random bits (extremes included),
// small values, the type's limits and copies of earlier elements (ties).
Array random_array(const Shape& shape, Dtype dt, unsigned seed) {
  std::mt19937_64 rng(seed);
  const size_t n = static_cast<size_t>(shape_size(shape));
  const DtypeKind kind = dtype_kind(dt);
  if (kind == DtypeKind::Float || kind == DtypeKind::Complex) {
    const double inf = std::numeric_limits<double>::infinity(), nan = std::nan("");
    const double specials[] = {nan, -nan, inf, -inf, 0.0, -0.0, 1.0, -1.0, 0.5, 2.0};
    auto part = [&] {
      const uint64_t r = rng() % 10;
      if (r < 4) return specials[rng() % 10];
      if (r < 6) return double(int64_t(rng() % 7) - 3);
      return std::ldexp(double(int64_t(rng() % 2000001) - 1000000), -int(rng() % 40));
    };
    std::vector<std::complex<double>> v(n);
    for (auto& x : v) x = {part(), kind == DtypeKind::Complex ? part() : 0.0};
    return astype(Array::from_vector(v, shape, host), dt);
  }
  if (dt == Dtype::bool_) {
    std::vector<int64_t> v(n);
    for (auto& x : v) x = int64_t(rng() % 2);
    return astype(Array::from_vector(v, shape, host), dt);
  }
  Array a = Array::empty(shape, dt, host);
  auto* bytes = static_cast<unsigned char*>(a.data());
  const size_t size = a.itemsize();
  const uint64_t top = uint64_t(1) << (8 * size - 1);
  for (size_t i = 0; i < n; ++i) {
    uint64_t x = rng();
    switch (rng() % 6) {
      case 0:
      case 1:
        break;  // random bits
      case 2:
        x = uint64_t(int64_t(rng() % 7) - 3);
        break;
      case 3: {
        const uint64_t limits[] = {0, ~uint64_t(0), top, top - 1};  // unsigned and signed ends
        x = limits[rng() % 4];
        break;
      }
      default:
        if (i > 0) std::memcpy(&x, bytes + (rng() % i) * size, size);
    }
    std::memcpy(bytes + i * size, &x, size);
  }
  return a;
}

// The elements' bytes in C order (NaN payloads and the sign of zero included).
std::vector<unsigned char> bytes_of(const Array& a) {
  const size_t size = a.itemsize();
  std::vector<unsigned char> out;
  const auto* base = static_cast<const unsigned char*>(a.data());
  std::vector<int64_t> at(static_cast<size_t>(a.ndim()), 0);
  for (int64_t k = 0; k < a.size(); ++k) {
    int64_t off = 0;
    for (int d = 0; d < a.ndim(); ++d) off += at[d] * a.strides()[d];
    out.insert(out.end(), base + off * int64_t(size), base + (off + 1) * int64_t(size));
    for (int d = a.ndim() - 1; d >= 0; --d) {
      if (++at[d] < a.shape()[d]) break;
      at[d] = 0;
    }
  }
  return out;
}

// A view of a fresh array of `shape` whose axes are laid out in reverse and every other
// element of the first axis skipped: strides that nothing merges.
Array strided_out(const Shape& shape, Dtype dt) {
  Shape big(shape.rbegin(), shape.rend());
  if (!big.empty()) big.back() *= 2;
  Array base = Array::empty(big, dt, host);
  Strides st(base.strides().rbegin(), base.strides().rend());
  if (!st.empty()) st[0] *= 2;
  return Array::view_of(base, shape, st, base.offset());
}

// A view of x with its axes reversed and, along the first, every other element backwards.
Array strided_view(const Array& x) {
  Shape s(x.shape().rbegin(), x.shape().rend());
  Strides st(x.strides().rbegin(), x.strides().rend());
  int64_t offset = x.offset();
  if (!s.empty() && s[0] > 0) {
    offset += (s[0] - 1) * st[0];
    st[0] = -2 * st[0];
    s[0] = (s[0] + 1) / 2;
  }
  return Array::view_of(x, s, st, offset);
}

// The emulated CUDA sort of x along `axis` against the CPU's: values and indices both (and
// each alone when `alone`), into outputs of the given kind (contiguous or strided).
void check_sort(const Array& x, int axis, bool descending, bool strided_outputs,
                const std::string& what, bool alone = false) {
  auto make = [&](Dtype dt) {
    return strided_outputs ? strided_out(x.shape(), dt) : Array::empty(x.shape(), dt, host);
  };
  Array want_v = make(x.dtype()), want_i = make(Dtype::int64);
  cpu::sort(x, axis, descending, &want_v, &want_i);
  Array got_v = make(x.dtype()), got_i = make(Dtype::int64);
  cu::run_sort(runner(), x, axis, descending, &got_v, &got_i);
  const std::string where = what + " " + dtype_name(x.dtype()) + " " + shape_str(x.shape()) +
                            " axis " + std::to_string(axis) + (descending ? " descending" : "");
  ASSERT_EQ(bytes_of(got_v), bytes_of(want_v)) << "values of " << where;
  ASSERT_EQ(bytes_of(got_i), bytes_of(want_i)) << "indices of " << where;
  if (!alone) return;
  Array only_v = make(x.dtype()), only_i = make(Dtype::int64);
  cu::run_sort(runner(), x, axis, descending, &only_v, nullptr);
  cu::run_sort(runner(), x, axis, descending, nullptr, &only_i);
  ASSERT_EQ(bytes_of(only_v), bytes_of(want_v)) << "values alone of " << where;
  ASSERT_EQ(bytes_of(only_i), bytes_of(want_i)) << "indices alone of " << where;
}

}  // namespace

TEST(CudaSortEmulated, every_dtype_sorts_rows_like_the_cpu_in_both_directions) {
  // 1000 rows of 37, rows of length 1 and 0, an axis before others, one row of a 3-d array.
  const std::vector<std::pair<Shape, int>> cases = {{{1000, 37}, 1}, {{37, 40}, 0}, {{6, 1}, 1},
                                                    {{4, 0}, 1},     {{0}, 0},      {{1}, 0},
                                                    {{3, 5, 29}, 1}, {{5000}, 0}};
  unsigned seed = 1;
  for (Dtype dt : all_dtypes())
    for (const auto& [shape, axis] : cases) {
      Array x = random_array(shape, dt, seed++);
      for (bool descending : {false, true}) check_sort(x, axis, descending, false, "sort");
    }
}

TEST(CudaSortEmulated, one_row_of_100000_matches_the_cpu) {
  for (Dtype dt : {Dtype::float32, Dtype::float64, Dtype::float16, Dtype::int64, Dtype::uint64,
                   Dtype::complex64, Dtype::bool_}) {
    Array x = random_array({100000}, dt, 100 + static_cast<unsigned>(dt));
    for (bool descending : {false, true}) check_sort(x, 0, descending, false, "long row");
  }
}

TEST(CudaSortEmulated, strided_inputs_and_outputs_match_the_cpu) {
  unsigned seed = 200;
  for (Dtype dt : {Dtype::float32, Dtype::int16, Dtype::complex128, Dtype::uint8})
    for (const Shape& shape : {Shape{300, 20}, Shape{7, 6, 40}}) {
      Array v = strided_view(random_array(shape, dt, seed++));
      for (int axis = 0; axis < v.ndim(); ++axis)
        for (bool descending : {false, true})
          check_sort(v, axis, descending, true, "view", /*alone=*/true);
    }
}

TEST(CudaSortEmulated, the_result_does_not_depend_on_the_order_of_blocks_and_threads) {
  Array x = random_array({300, 50}, Dtype::float64, 300);
  for (uint64_t seed : {11u, 12u, 13u}) {
    runner().options = simt::Options{seed, 1};
    check_sort(x, 1, false, false, "seed " + std::to_string(seed));
  }
  runner().options = simt::Options{};
}

TEST(CudaSortEmulated, passes_cover_only_the_key_bits_and_the_row_count) {
  auto passes = [](const Array& x) {
    Array out = Array::empty(x.shape(), x.dtype(), host);
    runner().launched.clear();
    cu::run_sort(runner(), x, x.ndim() - 1, false, &out, nullptr);
    int n = 0;
    for (const auto& name : runner().launched) n += name == cu::kSortScatter;
    return n;
  };
  // bool: one bit; float32: 8 digits; complex64: 8 + 8 + the NaN class; 1000 rows: 3 digits more.
  EXPECT_EQ(passes(random_array({50}, Dtype::bool_, 1)), 1);
  EXPECT_EQ(passes(random_array({50}, Dtype::float32, 2)), 8);
  EXPECT_EQ(passes(random_array({50}, Dtype::complex64, 3)), 17);
  EXPECT_EQ(passes(random_array({1000, 3}, Dtype::float32, 4)), 8 + 3);
}

TEST(CudaSortEmulated, a_view_of_too_many_unmergeable_axes_raises_value_error_naming_the_limit) {
  // 26 axes of 2 with strides 0, 1, 0, 1, ...: no neighbours merge (a broadcast view of two
  // elements, so nothing large is allocated before the check).
  Array two = random_array({2}, Dtype::float32, 600);
  Shape shape(26, 2);
  Strides strides(26);
  for (size_t d = 0; d < strides.size(); ++d) strides[d] = d % 2;
  Array x = Array::view_of(two, shape, strides, two.offset());
  Array out = Array::view_of(Array::empty({1}, Dtype::int64, host), shape, Strides(26, 0), 0);
  try {
    cu::run_sort(runner(), x, 25, false, nullptr, &out);
    FAIL() << "no error";
  } catch (const ValueError& e) {
    EXPECT_NE(std::string(e.what()).find("[sort] the CUDA kernels take at most 24 dimensions"),
              std::string::npos)
        << e.what();
  }
}

TEST(CudaSearchsortedEmulated, every_dtype_finds_the_cpus_positions_left_and_right) {
  unsigned seed = 400;
  for (Dtype dt : all_dtypes()) {
    Array raw = random_array({301}, dt, seed++);
    Array sorted = Array::empty({301}, dt, host);
    cpu::sort(raw, 0, false, &sorted, nullptr);
    // The values: other random ones (specials included) and the sorted elements themselves.
    Array values = random_array({40, 9}, dt, seed++);
    for (const Array& a : {sorted, strided_view(sorted)})
      for (const Array& v : {values, strided_view(values), strided_view(sorted)})
        for (bool right : {false, true}) {
          Array want = Array::empty(v.shape(), Dtype::int64, host);
          cpu::searchsorted(a, v, right, want);
          Array got = strided_out(v.shape(), Dtype::int64);
          cu::run_searchsorted(runner(), a, v, right, got);
          ASSERT_EQ(bytes_of(got), bytes_of(want))
              << "searchsorted " << dtype_name(dt) << " of " << shape_str(v.shape())
              << (right ? " right" : " left");
        }
  }
}

TEST(CudaSearchsortedEmulated, empty_values_and_an_empty_sorted_array) {
  Array sorted = Array::empty({0}, Dtype::float32, host);
  Array v = random_array({5}, Dtype::float32, 500);
  Array got = Array::empty({5}, Dtype::int64, host);
  cu::run_searchsorted(runner(), sorted, v, false, got);
  for (int64_t i : got.to_vector<int64_t>()) EXPECT_EQ(i, 0);
  Array none = Array::empty({0, 3}, Dtype::float32, host);
  Array out = Array::empty({0, 3}, Dtype::int64, host);
  runner().launched.clear();
  cu::run_searchsorted(runner(), v, none, true, out);
  EXPECT_TRUE(runner().launched.empty());
}

// interp's kernel against the CPU's loop, bit for bit: sample points with NaN (last, as sorted),
// +-inf, -0.0 and repeats; values of fp with the same specials, real and complex; x random and
// at the sample points; left / right given or fp's ends; 1, 2, 3, 37 and 1000 points.
TEST(CudaInterpEmulated, the_kernel_gives_the_cpus_values_bit_for_bit) {
  unsigned seed = 700;
  for (int64_t n : {1, 2, 3, 37, 1000})
    for (Dtype fp_dtype : {Dtype::float64, Dtype::complex128})
      for (int given = 0; given < 4; ++given) {
        Array xp = Array::empty({n}, Dtype::float64, host);
        cpu::sort(random_array({n}, Dtype::float64, seed++), 0, false, &xp, nullptr);
        Array fp = random_array({n}, fp_dtype, seed++);
        const std::array<Array, 2> xs{random_array({517}, Dtype::float64, seed++), xp};
        Array x = concat(xs);
        std::optional<std::complex<double>> left, right;
        if (given & 1) left = std::complex<double>(-7.5, 2.0);
        if (given & 2) right = std::complex<double>(std::nan(""), -0.0);
        Array want = Array::empty(x.shape(), fp_dtype, host);
        Array got = Array::empty(x.shape(), fp_dtype, host);
        cpu::interp(interp_params(x, xp, fp, left, right, want));
        cu::run_interp(runner(), interp_params(x, xp, fp, left, right, got));
        ASSERT_EQ(bytes_of(got), bytes_of(want))
            << "interp of " << n << " points, " << dtype_name(fp_dtype) << ", given " << given;
      }
}

// x with every NaN made one NaN: a NaN's sign after float16 arithmetic is the conversion's
// (F16C on the CPU, software here, the GPU's own there), not part of the value.
Array nan_as_one(const Array& x) {
  if (!is_floating(x.dtype()) && !is_complex(x.dtype())) return x;
  return where(isnan(x), full(x.shape(), Array::scalar(std::nan(""), false, host), x.dtype(), host), x);
}

// The emulated GPU fold against the CPU's, bit for bit (NaNs alike): every listed position takes its values
// in the listed order (a float sum of repeats is not reassociated), with NaN, inf and -0.0
// among the values, positions repeating up to thousands of times, and positions never listed.
// The (op, dtype) pairs add_folds registers, which both fold tests run.
const std::pair<OpId, Dtype> kFoldCases[] = {
    {OpId::add, Dtype::float64},   {OpId::add, Dtype::float32},      {OpId::add, Dtype::bool_},
    {OpId::add, Dtype::float16},   {OpId::add, Dtype::complex64},    {OpId::multiply, Dtype::float32},
    {OpId::maximum, Dtype::float64}, {OpId::subtract, Dtype::int8},  {OpId::divide, Dtype::float64},
    {OpId::fmax, Dtype::float32},  {OpId::bitwise_xor, Dtype::uint16}};

TEST(CudaFoldAtEmulated, folds_every_listing_in_order_like_the_cpu) {
  unsigned seed = 500;
  for (const auto& [op, dt] : kFoldCases)
    for (const auto& [size, count] : {std::pair<int64_t, int64_t>{7, 5000}, {1000, 3000}, {50, 1},
                                     {3, 0}}) {
      std::mt19937_64 rng(seed);
      std::vector<int64_t> at(static_cast<size_t>(count));
      for (auto& p : at) p = static_cast<int64_t>(rng() % static_cast<uint64_t>(size));
      Array positions = Array::from_vector(at, {count}, host);
      Array values = random_array({count}, dt, seed + 1);
      Array start = random_array({size}, dt, seed + 2);
      Array want = copy(start), got = copy(start);
      cpu::fold_at(op, want, positions, values);
      cu::run_fold_at(runner(), op, got, positions, values);
      ASSERT_EQ(bytes_of(nan_as_one(got)), bytes_of(nan_as_one(want)))
          << op_name(op) << " of " << dtype_name(dt) << ", " << count << " listings of " << size;
      // One value for every listing (the fold steps 0 through it).
      Array one = random_array({1}, dt, seed + 4);
      cpu::fold_at(op, want, positions, one);
      cu::run_fold_at(runner(), op, got, positions, one);
      ASSERT_EQ(bytes_of(nan_as_one(got)), bytes_of(nan_as_one(want)))
          << op_name(op) << " of " << dtype_name(dt) << ", one value, " << count << " listings";
      seed += 3;
    }
}

// reduceat's segmented fold on the emulator against the CPU's, bit for bit: segments of every
// length (decreasing and repeated starts: one-element segments), folded along contiguous runs
// (inner 1) and along rows (inner > 1), the sums of floats from their second element with the
// first added last. The CPU adds float32 / float64 / complex segments pairwise (NumPy's
// grouping), the GPU in order: those sums use values whose sums are exact (whole numbers below
// 16), the others any (float16 sums round every step on both).
TEST(CudaFoldSegmentsEmulated, folds_every_segment_in_order_like_the_cpu) {
  const std::tuple<int64_t, int64_t, int64_t, int64_t> shapes[] = {
      {1, 3000, 1, 40}, {3, 40, 5, 9}, {2, 17, 300, 6}, {1, 1, 1, 1}, {4, 9, 1, 12}};
  unsigned seed = 900;
  for (const auto& [op, dt] : kFoldCases)
    for (const auto& [outer, n, inner, m] : shapes) {
      std::mt19937_64 rng(seed);
      std::vector<int64_t> at(static_cast<size_t>(m));
      for (auto& p : at) p = static_cast<int64_t>(rng() % static_cast<uint64_t>(n));
      std::sort(at.begin(), at.end());
      if (m > 3) std::swap(at[1], at[2]);  // a decreasing pair
      if (m > 5) at[4] = at[3];            // a repeated start
      Array starts = Array::from_vector(at, {m}, host);
      Array src = random_array({outer, n, inner}, dt, seed + 1);
      const bool exact_sums = op == OpId::add && (dt == Dtype::float32 || dt == Dtype::float64 ||
                                                  dt == Dtype::complex64);
      if (exact_sums)
        src = astype(remainder(round(random_array({outer, n, inner}, Dtype::float64, seed + 1)),
                               Array::scalar(16.0, false, host)),
                     dt);
      Array want = Array::empty({outer, m, inner}, dt, host);
      Array got = Array::empty({outer, m, inner}, dt, host);
      cpu::fold_segments(op, want, src, starts, outer, n, inner);
      cu::run_fold_segments(runner(), op, got, src, starts, outer, n, inner);
      ASSERT_EQ(bytes_of(nan_as_one(got)), bytes_of(nan_as_one(want)))
          << op_name(op) << " of " << dtype_name(dt) << ", (" << outer << ", " << n << ", "
          << inner << ") in " << m << " segments";
      seed += 3;
    }
}
