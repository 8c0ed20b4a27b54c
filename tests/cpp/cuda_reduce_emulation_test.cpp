// The CUDA reduction, scan and nonzero kernels run on the host emulator (simt_host.h) through
// the backend's own orchestration (run_reduce / run_scan / run_nonzero with an emulated
// KernelRunner), checked against the CPU backend: one and two passes, rows and columns, tiled
// scans, views with any strides, empty and 0-d arrays, NaN, ties, wrap-around. A small
// "device" (few resident threads) makes modest arrays take the multi-pass paths.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <cstring>
#include <functional>
#include <limits>
#include <map>
#include <mutex>
#include <set>
#include <thread>
#include <random>
#include <string>
#include <vector>

#include "accel/accel.h"
#include "accel/backend/backend.h"
#include "accel/backend/cuda/reduce_kernels.h"
#include "accel/backend/cuda/reduce_plan.h"
#include "accel/device_src/scalar_ops.h"
// clang-format off
#include "simt_host.h"
#include "accel/device_src/reduce_params.h"
#include "accel/device_src/reduce.cuh"
#include "accel/device_src/scan.cuh"
#include "accel/device_src/nonzero.cuh"
// clang-format on

using namespace accel;
namespace cu = accel::cuda;
namespace kk = accel::kernels;

namespace {

const Device host = Device::cpu();

// Runs the named kernels on the emulator, in host memory.
class EmulatedRunner final : public cu::KernelRunner {
 public:
  using Run = std::function<void(cu::Grid, const void*)>;
  explicit EmulatedRunner(int64_t threads_wanted) : threads_wanted_(threads_wanted) {}

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
  int64_t threads_wanted() const override { return threads_wanted_; }

  std::vector<std::string> launched;

 private:
  int64_t threads_wanted_;
  std::map<std::string, Run> kernels_;
};

template <class P, class Kernel>
EmulatedRunner::Run emulate(Kernel kernel) {
  return [kernel](cu::Grid g, const void* params) {
    const P p = *static_cast<const P*>(params);
    simt::launch({g.x, g.y, 1}, {kk::kThreads, 1, 1}, [&] { kernel(p); });
  };
}

// Op: the first pass's op; Final: the op whose states the second pass reads.
template <class Op, class Final>
void add_reduce(EmulatedRunner& r, ReduceOp op, Dtype in, Dtype out) {
  const auto n = cu::reduce_kernel_names(op, in, out);
  r.add(n.rows,
        emulate<kk::ReduceParams>([](const kk::ReduceParams& p) { kk::reduce_rows<Op>(p); }));
  r.add(n.columns,
        emulate<kk::ReduceParams>([](const kk::ReduceParams& p) { kk::reduce_columns<Op>(p); }));
  r.add(n.final_rows, emulate<kk::ReduceParams>([](const kk::ReduceParams& p) {
          kk::reduce_rows<kk::StateOp<Final, true>>(p);
        }));
}

template <class Op, class Carry>
void add_scan(EmulatedRunner& r, ScanOp op, Dtype in, Dtype out) {
  using C = kk::StateOp<Carry, false>;
  const auto n = cu::scan_kernel_names(op, in, out);
  r.add(n.serial, emulate<kk::ScanParams>([](const kk::ScanParams& p) { kk::scan_serial<Op>(p); }));
  r.add(n.block_rows,
        emulate<kk::ScanParams>([](const kk::ScanParams& p) { kk::scan_block_rows<Op>(p); }));
  r.add(n.tiles, emulate<kk::ScanParams>([](const kk::ScanParams& p) { kk::scan_tiles<Op>(p); }));
  r.add(n.total_rows,
        emulate<kk::ReduceParams>([](const kk::ReduceParams& p) { kk::reduce_rows<Op>(p); }));
  r.add(n.total_columns,
        emulate<kk::ReduceParams>([](const kk::ReduceParams& p) { kk::reduce_columns<Op>(p); }));
  r.add(n.carry_serial,
        emulate<kk::ScanParams>([](const kk::ScanParams& p) { kk::scan_serial<C>(p); }));
  r.add(n.carry_block_rows,
        emulate<kk::ScanParams>([](const kk::ScanParams& p) { kk::scan_block_rows<C>(p); }));
}

template <class T>
void add_nonzero(EmulatedRunner& r, Dtype dt) {
  const auto n = cu::nonzero_kernel_names(dt);
  r.add(n.count,
        emulate<kk::NonzeroParams>([](const kk::NonzeroParams& p) { kk::nonzero_count<T>(p); }));
  r.add(n.write,
        emulate<kk::NonzeroParams>([](const kk::NonzeroParams& p) { kk::nonzero_write<T>(p); }));
}

// A few thousand resident threads: arrays of ~1e4 elements take the split and tiled paths.
constexpr int64_t kSmallDevice = 4096;

EmulatedRunner& runner() {
  static EmulatedRunner* r = [] {
    auto* e = new EmulatedRunner(kSmallDevice);
    using c64 = std::complex<float>;
    using c128 = std::complex<double>;
    add_reduce<kk::SumProdOp<float, float, true>, kk::SumProdOp<float, float, true>>(
        *e, ReduceOp::sum, Dtype::float32, Dtype::float32);
    add_reduce<kk::SumProdOp<int8_t, int64_t, true>, kk::SumProdOp<int64_t, int64_t, true>>(
        *e, ReduceOp::sum, Dtype::int8, Dtype::int64);
    add_reduce<kk::SumProdOp<bool, int64_t, true>, kk::SumProdOp<int64_t, int64_t, true>>(
        *e, ReduceOp::sum, Dtype::bool_, Dtype::int64);
    add_reduce<kk::SumProdOp<kk::AnyDtype, int16_t, true>, kk::SumProdOp<int16_t, int16_t, true>>(
        *e, ReduceOp::sum, Dtype::float64, Dtype::int16);
    add_reduce<kk::SumProdOp<c64, c64, true>, kk::SumProdOp<c64, c64, true>>(
        *e, ReduceOp::sum, Dtype::complex64, Dtype::complex64);
    add_reduce<kk::SumProdOp<c128, c128, false>, kk::SumProdOp<c128, c128, false>>(
        *e, ReduceOp::prod, Dtype::complex128, Dtype::complex128);
    add_reduce<kk::SumProdOp<int32_t, int64_t, false>, kk::SumProdOp<int64_t, int64_t, false>>(
        *e, ReduceOp::prod, Dtype::int32, Dtype::int64);
    add_reduce<kk::ExtremeOp<float, false>, kk::ExtremeOp<float, false>>(
        *e, ReduceOp::min, Dtype::float32, Dtype::float32);
    add_reduce<kk::ExtremeOp<float, true>, kk::ExtremeOp<float, true>>(
        *e, ReduceOp::max, Dtype::float32, Dtype::float32);
    add_reduce<kk::ExtremeOp<int8_t, false>, kk::ExtremeOp<int8_t, false>>(
        *e, ReduceOp::min, Dtype::int8, Dtype::int8);
    add_reduce<kk::ExtremeOp<c128, true>, kk::ExtremeOp<c128, true>>(
        *e, ReduceOp::max, Dtype::complex128, Dtype::complex128);
    add_reduce<kk::ArgExtremeOp<float, false>, kk::ArgExtremeOp<float, false>>(
        *e, ReduceOp::argmin, Dtype::float32, Dtype::int64);
    add_reduce<kk::ArgExtremeOp<float, true>, kk::ArgExtremeOp<float, true>>(
        *e, ReduceOp::argmax, Dtype::float32, Dtype::int64);
    add_reduce<kk::ArgExtremeOp<c64, true>, kk::ArgExtremeOp<c64, true>>(
        *e, ReduceOp::argmax, Dtype::complex64, Dtype::int64);
    add_reduce<kk::LogicalOp<float, true>, kk::LogicalOp<float, true>>(
        *e, ReduceOp::any, Dtype::float32, Dtype::bool_);
    add_reduce<kk::LogicalOp<float, false>, kk::LogicalOp<float, false>>(
        *e, ReduceOp::all, Dtype::float32, Dtype::bool_);
    add_reduce<kk::LogicalOp<bool, false>, kk::LogicalOp<bool, false>>(*e, ReduceOp::all,
                                                                       Dtype::bool_, Dtype::bool_);
    add_scan<kk::SumProdOp<float, float, true>, kk::SumProdOp<float, float, true>>(
        *e, ScanOp::sum, Dtype::float32, Dtype::float32);
    add_scan<kk::SumProdOp<int8_t, int64_t, true>, kk::SumProdOp<int64_t, int64_t, true>>(
        *e, ScanOp::sum, Dtype::int8, Dtype::int64);
    add_scan<kk::SumProdOp<kk::AnyDtype, float, true>, kk::SumProdOp<float, float, true>>(
        *e, ScanOp::sum, Dtype::uint8, Dtype::float32);
    add_scan<kk::SumProdOp<int32_t, int64_t, false>, kk::SumProdOp<int64_t, int64_t, false>>(
        *e, ScanOp::prod, Dtype::int32, Dtype::int64);
    add_scan<kk::SumProdOp<c128, c128, true>, kk::SumProdOp<c128, c128, true>>(
        *e, ScanOp::sum, Dtype::complex128, Dtype::complex128);
    add_scan<kk::SumProdOp<c128, c128, false>, kk::SumProdOp<c128, c128, false>>(
        *e, ScanOp::prod, Dtype::complex128, Dtype::complex128);
    add_nonzero<float>(*e, Dtype::float32);
    add_nonzero<bool>(*e, Dtype::bool_);
    add_nonzero<c64>(*e, Dtype::complex64);
    return e;
  }();
  return *r;
}

// Random values of dtype dt in `shape`: small integers (so float sums are exact enough to
// compare tightly), with the specials sprinkled in for floats when asked.
Array random_array(const Shape& shape, Dtype dt, unsigned seed, bool specials = false) {
  std::mt19937 rng(seed);
  const size_t n = static_cast<size_t>(shape_size(shape));
  std::vector<std::complex<double>> v(n);
  std::uniform_int_distribution<int> small(-4, 4);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  for (auto& x : v) {
    x = {double(small(rng)), is_complex(dt) ? double(small(rng)) : 0.0};
    if (specials && rng() % 50 == 0) x = {nan, 0};
    if (specials && is_complex(dt) && rng() % 50 == 0) x = {x.real(), nan};
    if (specials && rng() % 50 == 0) x = {-0.0, 0};
  }
  return astype(Array::from_vector(v, shape, host), dt);
}

// A view of x with its axes reversed and, along the first, every other element backwards.
Array strided_view(const Array& x) {
  Shape s(x.shape().rbegin(), x.shape().rend());
  Strides st(x.strides().rbegin(), x.strides().rend());
  int64_t offset = x.offset();
  offset += (s[0] - 1) * st[0];
  st[0] = -2 * st[0];
  s[0] = (s[0] + 1) / 2;
  return Array::view_of(x, s, st, offset);
}

void expect_close(const Array& got, const Array& want, double rtol, const std::string& what) {
  ASSERT_EQ(got.shape(), want.shape()) << what;
  ASSERT_EQ(got.dtype(), want.dtype()) << what;
  auto g = got.to_vector<std::complex<double>>();
  auto w = want.to_vector<std::complex<double>>();
  for (size_t i = 0; i < g.size(); ++i) {
    for (auto [a, b] : {std::pair{g[i].real(), w[i].real()}, std::pair{g[i].imag(), w[i].imag()}}) {
      if (std::isnan(b)) {
        EXPECT_TRUE(std::isnan(a)) << what << " at " << i;
      } else {
        EXPECT_LE(std::abs(a - b), rtol * (1 + std::abs(b)))
            << what << " at " << i << ": " << a << " vs " << b;
      }
    }
  }
}

// The emulated CUDA reduction of x over `axes` against the CPU backend's.
void check_reduce(ReduceOp op, const Array& x, const std::vector<int>& axes, Dtype out_dtype,
                  double rtol, const std::string& what) {
  Shape shape;
  for (int d = 0, next = 0; d < x.ndim(); ++d) {
    if (next < static_cast<int>(axes.size()) && axes[next] == d)
      ++next;
    else
      shape.push_back(x.shape()[d]);
  }
  Array want = Array::empty(shape, out_dtype, host);
  backend_for(host).reduce(op, x, axes, want);
  Array got = Array::empty(shape, out_dtype, host);
  runner().launched.clear();
  cu::run_reduce(runner(), op, x, axes, got);
  expect_close(got, want, rtol, what);
}

std::vector<std::vector<int>> axes_of(int ndim) {
  std::vector<std::vector<int>> all;
  for (int mask = 1; mask < (1 << ndim); ++mask) {
    std::vector<int> a;
    for (int d = 0; d < ndim; ++d)
      if (mask & (1 << d)) a.push_back(d);
    all.push_back(a);
  }
  return all;
}

const std::vector<Shape> kShapes = {{20000},   {3, 7000},   {7000, 3}, {40, 500},
                                    {500, 40}, {6, 5, 300}, {1, 1},    {3, 1, 4}};

}  // namespace

TEST(CudaReduceEmulated, sums_of_every_axis_set_and_view_match_the_cpu_backend) {
  for (const Shape& shape : kShapes) {
    Array x = random_array(shape, Dtype::float32, 1);
    for (const Array& v : {x, strided_view(x)})
      for (const auto& axes : axes_of(v.ndim()))
        check_reduce(
            ReduceOp::sum, v, axes, Dtype::float32, 1e-5,
            "sum " + shape_str(v.shape()) + " axes " + shape_str(Shape(axes.begin(), axes.end())));
  }
}

TEST(CudaReduceEmulated, a_big_full_sum_takes_two_passes) {
  Array x = random_array({50000}, Dtype::float32, 2);
  check_reduce(ReduceOp::sum, x, {0}, Dtype::float32, 1e-6, "sum of 50000");
  const auto& launched = runner().launched;  // by the check above
  ASSERT_EQ(launched.size(), 2u);
  EXPECT_NE(launched[1].find("StateOp"), std::string::npos);
}

TEST(CudaReduceEmulated, integer_sums_and_products_convert_as_read_and_wrap) {
  for (const Shape& shape : {Shape{20000}, Shape{500, 40}, Shape{40, 500}}) {
    Array i8 = random_array(shape, Dtype::int8, 3);
    for (const auto& axes : axes_of(i8.ndim())) {
      check_reduce(ReduceOp::sum, i8, axes, Dtype::int64, 0, "sum int8 -> int64");
      check_reduce(ReduceOp::sum, astype(i8, Dtype::bool_), axes, Dtype::int64, 0,
                   "sum bool -> int64");
      check_reduce(ReduceOp::prod, astype(i8, Dtype::int32), axes, Dtype::int64, 0,
                   "prod int32 -> int64");
      // float64 read into int16 (a conversion read by AnyDtype); the sums wrap at 16 bits.
      check_reduce(ReduceOp::sum,
                   astype(multiply(i8, Array::scalar(int64_t{1000})), Dtype::float64), axes,
                   Dtype::int16, 0, "sum float64 -> int16");
    }
  }
}

TEST(CudaReduceEmulated, complex_sums_and_products) {
  for (const Shape& shape : {Shape{9000}, Shape{300, 30}, Shape{30, 300}}) {
    Array c = random_array(shape, Dtype::complex64, 4);
    Array near_one =
        astype(add(multiply(random_array(shape, Dtype::complex128, 5), Array::scalar(1e-3)),
                   Array::scalar(1.0)),
               Dtype::complex128);
    for (const auto& axes : axes_of(c.ndim())) {
      check_reduce(ReduceOp::sum, c, axes, Dtype::complex64, 1e-5, "sum complex64");
      check_reduce(ReduceOp::prod, near_one, axes, Dtype::complex128, 1e-9, "prod complex128");
    }
  }
}

TEST(CudaReduceEmulated, min_max_propagate_nan_and_order_complex_lexicographically) {
  for (const Shape& shape : kShapes) {
    Array f = random_array(shape, Dtype::float32, 6, true);
    Array i = random_array(shape, Dtype::int8, 7);
    Array c = random_array(shape, Dtype::complex128, 8);
    // NaNs in either part, several per reduction: the first one in order is the answer.
    Array cn = random_array(shape, Dtype::complex128, 18, true);
    for (const auto& axes : axes_of(f.ndim())) {
      check_reduce(ReduceOp::min, f, axes, Dtype::float32, 0, "min float32");
      check_reduce(ReduceOp::max, strided_view(f), axes, Dtype::float32, 0, "max float32 view");
      check_reduce(ReduceOp::min, i, axes, Dtype::int8, 0, "min int8");
      check_reduce(ReduceOp::max, c, axes, Dtype::complex128, 0, "max complex128");
      check_reduce(ReduceOp::max, cn, axes, Dtype::complex128, 0, "max complex128 NaN");
    }
  }
}

TEST(CudaReduceEmulated, argmin_argmax_take_the_first_extreme_or_the_first_nan) {
  for (const Shape& shape : kShapes) {
    Array few = random_array(shape, Dtype::float32, 9);  // values -4..4: many ties
    Array nans = random_array(shape, Dtype::float32, 10, true);
    Array c = random_array(shape, Dtype::complex64, 11);
    Array cn = random_array(shape, Dtype::complex64, 19, true);
    for (int axis = 0; axis < few.ndim(); ++axis) {
      check_reduce(ReduceOp::argmax, cn, {axis}, Dtype::int64, 0, "argmax complex64 NaN");
      check_reduce(ReduceOp::argmin, few, {axis}, Dtype::int64, 0, "argmin ties");
      check_reduce(ReduceOp::argmax, strided_view(few), {axis}, Dtype::int64, 0,
                   "argmax ties, view");
      check_reduce(ReduceOp::argmax, nans, {axis}, Dtype::int64, 0, "argmax NaN");
      check_reduce(ReduceOp::argmin, nans, {axis}, Dtype::int64, 0, "argmin NaN");
      check_reduce(ReduceOp::argmax, c, {axis}, Dtype::int64, 0, "argmax complex64");
    }
  }
}

TEST(CudaReduceEmulated, a_complex_nan_in_the_imaginary_part_wins_max_and_argmax) {
  // NumPy: a NaN in either part makes a complex number NaN, and the first NaN is the extreme.
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const std::vector<std::complex<double>> v = {{4.25, -14.1}, {0.25, nan}, {4.13, 1.1}, {9, 0}};
  Array x = Array::from_vector(v, {4}, host);
  Array m = Array::empty({}, Dtype::complex128, host);
  cu::run_reduce(runner(), ReduceOp::max, x, {0}, m);
  const auto r = m.item<std::complex<double>>();
  EXPECT_EQ(r.real(), 0.25);
  EXPECT_TRUE(std::isnan(r.imag()));
  Array i = Array::empty({}, Dtype::int64, host);
  cu::run_reduce(runner(), ReduceOp::argmax, astype(x, Dtype::complex64), {0}, i);
  EXPECT_EQ(i.item<int64_t>(), 1);
}

TEST(CudaReduceEmulated, any_all_treat_nan_as_true_and_minus_zero_as_false) {
  for (const Shape& shape : kShapes) {
    Array f = random_array(shape, Dtype::float32, 12, true);
    Array mostly_zero = astype(
        equal(random_array(shape, Dtype::int8, 13), Array::scalar(int64_t{4})), Dtype::float32);
    for (const auto& axes : axes_of(f.ndim())) {
      check_reduce(ReduceOp::any, mostly_zero, axes, Dtype::bool_, 0, "any");
      check_reduce(ReduceOp::all, f, axes, Dtype::bool_, 0, "all");
      check_reduce(ReduceOp::all, not_equal(f, Array::scalar(int64_t{4})), axes, Dtype::bool_, 0,
                   "all bool");
    }
  }
  Array specials = Array::from_vector(std::vector<float>{-0.0f, 0.0f, std::nanf("")}, {3}, host);
  check_reduce(ReduceOp::any, Array::view_of(specials, {2}, {1}, 0), {0}, Dtype::bool_, 0,
               "any(-0, 0)");
  check_reduce(ReduceOp::all, Array::view_of(specials, {1}, {1}, 2), {0}, Dtype::bool_, 0,
               "all(NaN)");
}

TEST(CudaReduceEmulated, empty_reductions_write_the_identity) {
  for (const Shape& shape : {Shape{4, 0}, Shape{0}, Shape{0, 3, 0}}) {
    Array x = random_array(shape, Dtype::float32, 14);
    for (const auto& axes : axes_of(x.ndim())) {
      check_reduce(ReduceOp::sum, x, axes, Dtype::float32, 0, "empty sum");
      check_reduce(ReduceOp::any, x, axes, Dtype::bool_, 0, "empty any");
      check_reduce(ReduceOp::all, x, axes, Dtype::bool_, 0, "empty all");
      check_reduce(ReduceOp::prod, astype(x, Dtype::int32), axes, Dtype::int64, 0, "empty prod");
    }
  }
}

// ---------------------------------------------------------------- scans

namespace {

void check_scan(ScanOp op, const Array& x, int axis, Dtype out_dtype, double rtol,
                const std::string& what) {
  Array want = Array::empty(x.shape(), out_dtype, host);
  backend_for(host).scan(op, x, axis, want);
  Array got = Array::empty(x.shape(), out_dtype, host);
  runner().launched.clear();
  cu::run_scan(runner(), op, x, axis, got);
  expect_close(got, want, rtol, what);
}

}  // namespace

TEST(CudaScanEmulated, every_scan_kernel_matches_the_cpu_backend) {
  // (20000,): chunks of one tile; (70000,): of two; (2000, 6) over 0: serial tiles with a
  // reduce_columns total; (50, 300): a block per row; (100, 5): a thread per row.
  for (const Shape& shape : {Shape{20000}, Shape{70000}, Shape{2000, 6}, Shape{50, 300},
                             Shape{100, 5}, Shape{2, 9000}}) {
    Array f = random_array(shape, Dtype::float32, 15);
    Array i8 = random_array(shape, Dtype::int8, 16);
    Array c = random_array(shape, Dtype::complex128, 17);
    for (int axis = 0; axis < f.ndim(); ++axis) {
      const std::string where = shape_str(shape) + " axis " + std::to_string(axis);
      check_scan(ScanOp::sum, f, axis, Dtype::float32, 1e-5, "cumsum float32 " + where);
      check_scan(ScanOp::sum, strided_view(f), axis, Dtype::float32, 1e-5, "cumsum view " + where);
      check_scan(ScanOp::sum, i8, axis, Dtype::int64, 0, "cumsum int8 " + where);
      check_scan(ScanOp::sum, astype(i8, Dtype::uint8), axis, Dtype::float32, 1e-5,
                 "cumsum uint8 -> float32 " + where);
      check_scan(ScanOp::sum, c, axis, Dtype::complex128, 1e-12, "cumsum complex128 " + where);
      check_scan(ScanOp::prod, astype(i8, Dtype::int32), axis, Dtype::int64, 0,
                 "cumprod int32 " + where);
    }
  }
}

TEST(CudaScanEmulated, a_rows_first_element_is_copied_not_combined_with_the_identity) {
  // NumPy's accumulate copies the first element: 0 + -0.0 would lose the sign of every
  // partial sum of zeros, 1 * (inf+0j) would be inf+nanj. Every scan kernel, as above.
  for (const Shape& shape : {Shape{20000}, Shape{2000, 6}, Shape{50, 300}, Shape{100, 5}}) {
    for (int axis = 0; axis < static_cast<int>(shape.size()); ++axis) {
      const std::string where = shape_str(shape) + " axis " + std::to_string(axis);
      Array zeros = astype(full(shape, Array::scalar(-0.0)), Dtype::float32);
      Array sums = Array::empty(shape, Dtype::float32, host);
      cu::run_scan(runner(), ScanOp::sum, zeros, axis, sums);
      // (Rows cut into chunks start each chunk after a reduced total, which starts from +0:
      // there only the first chunk keeps the sign of -0.0 sums.)
      const auto v = sums.to_vector<float>();
      EXPECT_TRUE(std::signbit(v[0])) << "cumsum " << where;
      if (shape_size(shape) < 12000)  // (50, 300) and (100, 5): a row is never cut
        for (float f : v) ASSERT_TRUE(std::signbit(f)) << "cumsum " << where;
      Array ones = full(shape, Array::scalar(std::complex<double>(1, 0)));
      Array inf = Array::view_of(ones, {1}, {1}, 0);
      assign(inf, Array::scalar(std::complex<double>(INFINITY, 0)));
      Array prods = Array::empty(shape, Dtype::complex128, host);
      cu::run_scan(runner(), ScanOp::prod, ones, axis, prods);
      const auto first = prods.to_vector<std::complex<double>>()[0];
      EXPECT_EQ(first, std::complex<double>(INFINITY, 0)) << "cumprod " << where;
    }
  }
}

TEST(CudaScanEmulated, long_rows_and_slow_axes_take_the_three_phase_paths) {
  check_scan(ScanOp::sum, random_array({20000}, Dtype::float32, 18), 0, Dtype::float32, 1e-5,
             "tiles");
  const auto& launched = runner().launched;
  ASSERT_EQ(launched.size(), 3u);
  EXPECT_EQ(launched[0].rfind("accel::kernels::reduce_rows<", 0), 0u);
  EXPECT_EQ(launched[1].rfind("accel::kernels::scan_block_rows<accel::kernels::StateOp<", 0), 0u);
  EXPECT_EQ(launched[2].rfind("accel::kernels::scan_tiles<", 0), 0u);
  check_scan(ScanOp::sum, random_array({2000, 6}, Dtype::float32, 18), 0, Dtype::float32, 1e-5,
             "serial tiles");
  ASSERT_EQ(launched.size(), 3u);
  EXPECT_EQ(launched[0].rfind("accel::kernels::reduce_columns<", 0), 0u);
  EXPECT_EQ(launched[2].rfind("accel::kernels::scan_serial<", 0), 0u);
}

// ---------------------------------------------------------------- nonzero

namespace {

void check_nonzero(const Array& x, const std::string& what) {
  Array want = backend_for(host).nonzero(x);
  runner().launched.clear();
  Array got = cu::run_nonzero(runner(), x);
  ASSERT_EQ(got.shape(), want.shape()) << what;
  EXPECT_EQ(got.to_vector<int64_t>(), want.to_vector<int64_t>()) << what;
}

}  // namespace

TEST(CudaNonzeroEmulated, coordinates_in_c_order_for_views_nan_and_minus_zero) {
  for (const Shape& shape :
       {Shape{20000}, Shape{20, 30, 7}, Shape{300, 40}, Shape{0, 4}, Shape{}}) {
    Array f = random_array(shape, Dtype::float32, 19, true);
    check_nonzero(f, "float32 " + shape_str(shape));
    if (f.ndim() > 0) check_nonzero(strided_view(f), "float32 view " + shape_str(shape));
    check_nonzero(not_equal(f, Array::scalar(int64_t{0})), "bool " + shape_str(shape));
    check_nonzero(random_array(shape, Dtype::complex64, 20), "complex64 " + shape_str(shape));
  }
}

// The emulator itself (simt_host.h), on which every kernel test here and in cuda_linalg_test and
// cuda_elementwise_host_test relies.

TEST(SimtHost, three_dimensional_grids_and_blocks_run_every_thread_once) {
  const simt::Index grid{2, 3, 4}, block{4, 2, 8};  // warps span the y and z of the block
  std::vector<int> runs(2 * 3 * 4 * 4 * 2 * 8, 0);
  std::vector<unsigned> counts(2, 0);
  simt::launch(grid, block, [&] {
    const unsigned t = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
    const unsigned b = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
    atomicAdd(&runs[b * 64 + t], 1);
    __shared__ unsigned arrived;
    if (t == 0) arrived = 0;
    __syncthreads();
    atomicAdd(&arrived, 1u);
    __syncthreads();
    // Every thread of the block sees all 64 arrivals; a warp (32 threads) meets at __syncwarp.
    atomicMax(&counts[0], arrived);
    __syncwarp();
    atomicCAS(&counts[1], 0u, t / 32 + 1);
  });
  for (size_t i = 0; i < runs.size(); ++i) ASSERT_EQ(runs[i], 1) << "thread " << i;
  EXPECT_EQ(counts[0], 64u);
  EXPECT_NE(counts[1], 0u);
}

TEST(SimtHost, a_barrier_that_cannot_open_fails_instead_of_hanging) {
  // Thread 0 waits for its warp while the rest of the block waits for thread 0.
  const auto kernel = [] {
    if (threadIdx.x == 0)
      __syncwarp();
    else
      __syncthreads();
  };
  try {
    simt::launch({2, 1, 1}, {64, 1, 1}, kernel);
    FAIL() << "the launch returned";
  } catch (const std::logic_error& e) {
    EXPECT_NE(std::string(e.what()).find(") is stuck: its threads wait"), std::string::npos)
        << e.what();
  }
  // The emulator runs the next launch normally.
  int ran = 0;
  simt::launch({1, 1, 1}, {64, 1, 1}, [&] {
    __syncthreads();
    atomicAdd(&ran, 1);
  });
  EXPECT_EQ(ran, 64);
}

TEST(SimtHost, blocks_run_at_once_on_several_workers_and_atomics_contend) {
  std::mutex mutex;
  std::set<std::thread::id> workers;
  unsigned long long count = 0;
  simt::launch({64, 1, 1}, {128, 1, 1}, [&] {
    if (threadIdx.x == 0) {
      std::lock_guard<std::mutex> lock(mutex);
      workers.insert(std::this_thread::get_id());
    }
    atomicAdd(&count, 1ull);
  }, simt::Options{7, 4});
  EXPECT_EQ(count, 64u * 128u);
  EXPECT_GT(workers.size(), 1u) << "every block ran on one thread";
}

// A kernel whose result depends on the order of its blocks (the last writer wins) or of its
// threads between barriers is racy, and the emulator says so.
TEST(SimtHost, a_racy_kernel_gives_different_results_under_different_seeds) {
  const auto last_block = [](simt::Options o) {
    unsigned last = 0;
    simt::launch({16, 1, 1}, {32, 1, 1}, [&] {
      if (threadIdx.x == 0) last = blockIdx.x;
    }, o);
    return last;
  };
  EXPECT_FALSE(simt::launch_is_order_independent(last_block));
  const auto last_thread = [](simt::Options o) {
    std::vector<unsigned> out(4);
    simt::launch({4, 1, 1}, {64, 1, 1}, [&] {
      using Slot = unsigned;
      ACCEL_SHARED(Slot, slot);
      slot = threadIdx.x;  // every thread writes the one slot
      __syncthreads();
      if (threadIdx.x == 0) out[blockIdx.x] = slot;
    }, o);
    return out;
  };
  EXPECT_FALSE(simt::launch_is_order_independent(last_thread));
  const auto summed = [](simt::Options o) {
    unsigned sum = 0;
    simt::launch({16, 1, 1}, {32, 1, 1}, [&] { atomicAdd(&sum, blockIdx.x + threadIdx.x); }, o);
    return sum;
  };
  EXPECT_TRUE(simt::launch_is_order_independent(summed));
}

// A shared-memory tree sum: with a barrier between the levels it is exact under every seed;
// without, threads read partial sums not yet written (garbage from the block's start). Unsigned,
// so that sums of garbage wrap instead of overflowing (undefined behaviour UBSan reports).
TEST(SimtHost, a_missing_syncthreads_gives_a_wrong_sum) {
  const auto tree_sum = [](bool barrier, uint64_t seed) {
    std::vector<unsigned long long> out(2);
    simt::launch({2, 1, 1}, {128, 1, 1}, [&] {
      using Partials = unsigned long long[128];
      ACCEL_SHARED(Partials, partial);
      const unsigned t = threadIdx.x;
      partial[t] = t + 1;
      for (unsigned w = 64; w > 0; w /= 2) {
        if (barrier) __syncthreads();
        if (t < w) partial[t] += partial[t + w];
      }
      if (t == 0) out[blockIdx.x] = partial[0];
    }, simt::Options{seed, 2});
    return out;
  };
  for (uint64_t seed : {1, 2, 3}) {
    EXPECT_EQ(tree_sum(true, seed), (std::vector<unsigned long long>{128 * 129 / 2, 128 * 129 / 2}));
    EXPECT_NE(tree_sum(false, seed), (std::vector<unsigned long long>{128 * 129 / 2, 128 * 129 / 2}))
        << "seed " << seed;
  }
}

TEST(SimtHost, shared_memory_starts_each_block_as_garbage_that_varies_with_the_seed) {
  const auto first_read = [](uint64_t seed) {
    std::vector<unsigned> seen(3);
    simt::launch({3, 1, 1}, {32, 1, 1}, [&] {
      using Word = unsigned;
      ACCEL_SHARED(Word, never_written);
      if (threadIdx.x == 0) seen[blockIdx.x] = never_written;
    }, simt::Options{seed, 1});
    return seen;
  };
  EXPECT_NE(first_read(1), first_read(2));
  EXPECT_NE(first_read(1)[0], first_read(1)[1]) << "blocks must not see each other's leftovers";
}

TEST(SimtHost, launches_past_cudas_limits_are_refused) {
  const auto nothing = [] {};
  EXPECT_THROW(simt::launch({1, 1, 1}, {1025, 1, 1}, nothing), std::invalid_argument);
  EXPECT_THROW(simt::launch({1, 1, 1}, {32, 32, 2}, nothing), std::invalid_argument);
  EXPECT_THROW(simt::launch({1, 1, 1}, {1, 1, 65}, nothing), std::invalid_argument);
  EXPECT_THROW(simt::launch({1, 65536, 1}, {32, 1, 1}, nothing), std::invalid_argument);
  EXPECT_THROW(simt::launch({1, 1, 65536}, {32, 1, 1}, nothing), std::invalid_argument);
  try {
    simt::launch({2, 1, 1}, {32, 1, 1}, [] {
      using Big = char[40 * 1024];
      using More = char[10 * 1024];
      ACCEL_SHARED(Big, big);
      ACCEL_SHARED(More, more);
      big[threadIdx.x] = more[threadIdx.x];
    });
    ADD_FAILURE() << "50 KiB of static shared memory was accepted";
  } catch (const std::length_error& e) {
    EXPECT_NE(std::string(e.what()).find("48 KiB"), std::string::npos) << e.what();
  }
}
