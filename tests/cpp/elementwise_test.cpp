// Elementwise ops: every op of ops.def on every dtype, through the whole path (promotion,
// broadcasting, strided and negative-stride views, the CPU loops, casts), checked against the
// op's own scalar functor applied value by value; then NumPy's answers for the edge cases the
// functors must get right (tests/python/test_elementwise.py compares the math with NumPy).
#include <gtest/gtest.h>

#include <accel/accel.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <limits>
#include <string>
#include <vector>

#include "accel/device_src/scalar_ops.h"

using namespace accel;

namespace {

using c64 = std::complex<float>;
using c128 = std::complex<double>;

// Values of every kind an op meets: zeros of both signs, units, halves, extremes, inf, NaN.
std::vector<double> real_samples(Dtype dt) {
  if (is_bool(dt)) return {0, 1, 1, 0};
  if (is_integer(dt)) {
    std::vector<double> v = {0, 1, 2, 3, 7, 100};
    if (!is_unsigned(dt)) v.insert(v.end(), {-1, -2, -7, -100});
    return v;
  }
  const double inf = std::numeric_limits<double>::infinity();
  // 1e18 squared still fits float32: overflow inside a fused a*b - c*d would turn NaN into inf.
  return {0.0, -0.0, 1.0, -1.0, 0.5, -2.5, 2.5, 3.0, 1e-30, 1e18, inf, -inf, std::nan(""), 0.75};
}

// A 1-d array of dt holding the samples, plus the integer edges (min, max) for integer dtypes.
Array sample_array(Dtype dt) {
  std::vector<c128> values;
  for (double r : real_samples(dt)) values.emplace_back(r, is_complex(dt) ? 0.5 - r : 0.0);
  Array a = Array::from_host(values.data(), complex128, {static_cast<int64_t>(values.size())},
                             Device::cpu());
  a = astype(a, dt);
  if (!is_integer(dt)) return a;
  // Integer edges are written through the dtype itself: converting them from complex128 would
  // round them first.
  std::vector<int64_t> edges;
  dispatch_dtype(dt, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
      std::vector<T> v = a.to_vector<T>();
      v.push_back(std::numeric_limits<T>::min());
      v.push_back(std::numeric_limits<T>::max());
      v.push_back(static_cast<T>(std::numeric_limits<T>::max() - 1));
      a = Array::from_vector<T>(v, {static_cast<int64_t>(v.size())}, Device::cpu());
    }
  });
  return a;
}

// Equal up to `tol` relative to `scale`; NaN only matches NaN, infinities only themselves.
template <class R> bool close(R got, R want, double tol, double scale) {
  if (std::isnan(want)) return std::isnan(got);
  if (std::isinf(want)) return got == want;
  return std::fabs(static_cast<double>(got) - static_cast<double>(want)) <= tol * scale;
}

// The library's loops are built with -march=native, where the compiler may fuse a*b - c*d into
// an FMA; the functor here is compiled without. Float results are therefore compared to a few
// ulps of the value's magnitude (for complex: of the larger part) rather than bit for bit.
template <class T> bool same_value(T got, T want, double tol) {
  if constexpr (scalar::is_cplx<T>) {
    double scale = 0;
    for (double part : {std::fabs(double(want.real())), std::fabs(double(want.imag()))})
      if (std::isfinite(part)) scale = std::max(scale, part);
    return close(got.real(), want.real(), tol, scale) && close(got.imag(), want.imag(), tol, scale);
  } else if constexpr (std::is_floating_point_v<T>) {
    return close(got, want, tol, std::fabs(double(want)));
  } else if constexpr (scalar::is_narrow<T>) {
    // The loop's float math (libmvec) and the scalar functor may round to neighbouring values
    // (an ulp: 2^-10 for float16, 2^-7 for bfloat16).
    const double ulp = scalar::is_half<T> ? 1e-3 : 8e-3;
    return close(float(got), float(want), ulp, std::fabs(double(float(want))));
  } else {
    return got == want;
  }
}

template <class T> std::string show(T v) {
  if constexpr (scalar::is_cplx<T>) return "(" + show(v.real()) + ", " + show(v.imag()) + ")";
  else if constexpr (std::is_same_v<T, bool>) return v ? "true" : "false";
  else if constexpr (scalar::is_narrow<T>) return std::to_string(float(v));
  else return std::to_string(v);
}

// The functor of `op` applied to host values converted to the compute dtype C, the result
// converted to the output dtype O.
template <class F, int Arity, class C, class O>
O reference(const std::vector<std::vector<C>>& in, size_t i, size_t j) {
  // The explicit C(...) turns std::vector<bool>'s bit references into bools.
  // float16 and bfloat16 compute through float, as their loops (scalar_ops.h, InFloat).
  using G = std::conditional_t<scalar::is_narrow<C> && !std::is_same_v<F, scalar::CastOp>,
                               scalar::InFloat<F>, F>;
  if constexpr (Arity == 1) return scalar::convert<O>(G::apply(C(in[0][i])));
  else if constexpr (Arity == 2) return scalar::convert<O>(G::apply(C(in[0][i]), C(in[1][j])));
  else return scalar::convert<O>(G::apply(C(in[0][i]), C(in[1][j]), C(in[2][j])));
}

// The result's C++ type for compute type C, from the op's output rule in ops.def.
template <OpOutput Out, class C>
using output_t = std::conditional_t<Out == OpOutput::Same, C,
                                    std::conditional_t<Out == OpOutput::Bool, bool, scalar::real_of_t<C>>>;

template <class T> std::vector<T> host_values(const Array& a) {
  if constexpr (std::is_same_v<T, bool>) {
    std::vector<uint8_t> raw(static_cast<size_t>(a.size()));
    a.copy_to_host(raw.data(), bool_);
    return {raw.begin(), raw.end()};
  } else {
    return a.to_vector<T>();
  }
}

template <class F, int Arity, class C, class O>
void compare_with_functor(OpId op, const std::vector<Array>& args, const Array& result, bool outer) {
  ASSERT_EQ(result.dtype(), dtype_of<O>) << op_name(op);
  std::vector<std::vector<C>> in;
  for (const Array& a : args) in.push_back(host_values<C>(a));
  const std::vector<O> got = host_values<O>(result);
  const double tol = dtype_of<C> == float32 || dtype_of<C> == complex64 ? 4e-6 : 1e-13;
  const size_t n = in[0].size(), m = outer ? in.back().size() : 1;
  for (size_t i = 0; i < n; ++i)
    for (size_t j = 0; j < m; ++j) {
      const O want = reference<F, Arity, C, O>(in, i, outer ? j : i);
      const O value = got[i * m + j];
      ASSERT_TRUE(same_value(value, want, tol))
          << op_name(op) << " on " << dtype_name(args[0].dtype()) << " at (" << i << ", " << j
          << "): got " << show(value) << ", functor says " << show(want);
    }
}

template <class F, int Arity, BoolInputs B, OpDomain D, OpOutput Out>
void check_against_functor(OpId op, const std::vector<Array>& args, const Array& result,
                           bool outer, Dtype compute) {
  dispatch_dtype(compute, [&](auto ctag) {
    using C = typename decltype(ctag)::type;
    // Only the loops ops.def allows exist (the functor may not compile for the others).
    if constexpr (op_accepts(B, D, dtype_of<C>))
      compare_with_functor<F, Arity, C, output_t<Out, C>>(op, args, result, outer);
    else
      FAIL() << op_name(op) << " resolved to compute dtype " << dtype_name(compute)
             << ", which ops.def does not allow";
  });
}

// Runs `op` on dt in three layouts and checks each against the functor.
template <class F, int Arity, BoolInputs B, OpDomain D, OpOutput Out>
void check_op(OpId op, Dtype dt) {
  Array a = sample_array(dt);
  const int64_t n = a.shape(0);
  std::vector<Array> plain(Arity, a);
  if constexpr (Arity == 3) plain[0] = astype(a, bool_);
  OpTypes types{};
  try {
    types = resolve_op_types(op, op == OpId::where ? dt : result_type(plain));
  } catch (const DTypeError& e) {
    EXPECT_THROW(elementwise(op, plain), DTypeError);
    EXPECT_NE(std::string(e.what()).find(std::string("[") + op_name(op) + "] not supported"),
              std::string::npos) << e.what();
    return;
  }
  // Contiguous, same shape.
  Array r = elementwise(op, plain);
  check_against_functor<F, Arity, B, D, Out>(op, plain, r, false, types.compute);
  // Negative strides (a reversed view) and a stride-2 view of a longer array.
  Array reversed = Array::view_of(a, {n}, {-1}, n - 1);
  std::vector<Array> mixed(Arity, reversed);
  if constexpr (Arity == 3) mixed[0] = astype(reversed, bool_);
  check_against_functor<F, Arity, B, D, Out>(op, mixed, elementwise(op, mixed), false, types.compute);
  // Outer broadcasting: the first input as a column, the others as rows, so every pair meets.
  if constexpr (Arity >= 2) {
    std::vector<Array> outer(Arity);
    outer[0] = Array::view_of(plain[0], {n, 1}, {1, 0}, 0);
    for (int k = 1; k < Arity; ++k) outer[k] = Array::view_of(a, {1, n}, {0, 1}, 0);
    Array rr = elementwise(op, outer);
    ASSERT_EQ(rr.shape(), (Shape{n, n}));
    std::vector<Array> flat = {plain[0]};
    for (int k = 1; k < Arity; ++k) flat.push_back(a);
    check_against_functor<F, Arity, B, D, Out>(op, flat, rr, true, types.compute);
  }
}

}  // namespace

// One test per op (named after it), each over every dtype: derived from ops.def, so a new op
// is tested without touching this file.
#define ACCEL_OP(name, arity, functor, bools, domain, output)       \
  TEST(EveryOpEveryDtype, name) {                                  \
    for (int d = 0; d < kNumDtypes; ++d) {                         \
      SCOPED_TRACE(dtype_name(Dtype(d)));                          \
      check_op<scalar::functor, arity, BoolInputs::bools, OpDomain::domain, OpOutput::output>( \
          OpId::name, Dtype(d));                                     \
    }                                                              \
  }
#include "accel/core/ops.def"
#undef ACCEL_OP

// ---- result dtypes NumPy gives ------------------------------------------------------------------

TEST(ResultDtype, FloatMathOnIntegersFollowsNumpy) {
  auto i8 = Array::from_vector<int8_t>({1, 2}, {2}, Device::cpu());
  auto u16 = Array::from_vector<uint16_t>({1, 2}, {2}, Device::cpu());
  auto i32 = Array::from_vector<int32_t>({1, 2}, {2}, Device::cpu());
  EXPECT_EQ(sin(i8).dtype(), float16);
  EXPECT_EQ(sin(i32).dtype(), float64);
  EXPECT_EQ(divide(i8, i8).dtype(), float64);
  EXPECT_EQ(atan2(i8, u16).dtype(), float32);  // both fit float32; their int32 promotion would not
  EXPECT_EQ(hypot(i8, i32).dtype(), float64);
  EXPECT_EQ(atan2(i8, Array::scalar(int64_t{2}, true)).dtype(), float16);
  EXPECT_EQ(atan2(i8, Array::scalar(2.0, true)).dtype(), float64);  // NEP 50: int + float
  auto b = Array::from_host(std::vector<uint8_t>{1, 0}.data(), bool_, {2}, Device::cpu());
  EXPECT_EQ(atan2(b, Array::scalar(int64_t{2}, true)).dtype(), float64);  // the int is int64
  EXPECT_EQ(floor_divide(b, b).dtype(), int8);
  EXPECT_EQ(abs(astype(i8, complex64)).dtype(), float32);
}

// ---- NumPy's answers at the edges ------------------------------------------------------------

TEST(ScalarOps, IntegerDivisionByZeroAndMinOverMinusOne) {
  using scalar::FloorDivideOp, scalar::RemainderOp, scalar::FmodOp;
  constexpr int32_t mn = std::numeric_limits<int32_t>::min();
  EXPECT_EQ(FloorDivideOp::apply<int32_t>(7, 0), 0);
  EXPECT_EQ(RemainderOp::apply<int32_t>(7, 0), 0);
  EXPECT_EQ(FmodOp::apply<int32_t>(7, 0), 0);
  EXPECT_EQ(FloorDivideOp::apply<int32_t>(mn, -1), mn);  // wraps
  EXPECT_EQ(RemainderOp::apply<int32_t>(mn, -1), 0);
  EXPECT_EQ(FloorDivideOp::apply<int32_t>(-7, 2), -4);
  EXPECT_EQ(RemainderOp::apply<int32_t>(-7, 2), 1);
  EXPECT_EQ(FmodOp::apply<int32_t>(-7, 2), -1);
  EXPECT_EQ(FloorDivideOp::apply<uint8_t>(7, 0), 0);
  EXPECT_EQ(scalar::ReciprocalOp::apply<int16_t>(0), 0);
}

TEST(ScalarOps, FloatFloorDivideAndRemainderSigns) {
  using scalar::FloorDivideOp, scalar::RemainderOp;
  EXPECT_EQ(FloorDivideOp::apply(-7.0, 2.0), -4.0);
  EXPECT_EQ(RemainderOp::apply(-7.0, 2.0), 1.0);
  EXPECT_EQ(RemainderOp::apply(7.0, -2.0), -1.0);
  EXPECT_TRUE(std::signbit(RemainderOp::apply(-4.0, 2.0)) == false);
  EXPECT_TRUE(std::signbit(RemainderOp::apply(4.0, -2.0)));
  EXPECT_TRUE(std::signbit(FloorDivideOp::apply(-0.0, 5.0)));
  EXPECT_TRUE(std::isinf(FloorDivideOp::apply(1.0, 0.0)));
  EXPECT_TRUE(std::isnan(RemainderOp::apply(1.0, 0.0)));
}

TEST(ScalarOps, ShiftsPastTheWidth) {
  EXPECT_EQ(scalar::LeftShiftOp::apply<int8_t>(1, 8), 0);
  EXPECT_EQ(scalar::LeftShiftOp::apply<int8_t>(1, -1), 0);
  EXPECT_EQ(scalar::RightShiftOp::apply<int8_t>(-128, 9), -1);
  EXPECT_EQ(scalar::RightShiftOp::apply<int8_t>(5, 100), 0);
  EXPECT_EQ(scalar::LeftShiftOp::apply<uint64_t>(1, 63), uint64_t{1} << 63);
}

TEST(ScalarOps, MaximumAndMinimumPropagateNanFromEitherSide) {
  const double nan = std::nan("");
  EXPECT_TRUE(std::isnan(scalar::MaximumOp::apply(0.0, nan)));
  EXPECT_TRUE(std::isnan(scalar::MaximumOp::apply(nan, 0.0)));
  EXPECT_TRUE(std::isnan(scalar::MinimumOp::apply(0.0, nan)));
  EXPECT_TRUE(std::isnan(scalar::MinimumOp::apply(nan, 0.0)));
  EXPECT_EQ(scalar::FmaxOp::apply(0.0, nan), 0.0);
  EXPECT_EQ(scalar::FminOp::apply(nan, 3.0), 3.0);
  EXPECT_TRUE(std::isnan(scalar::MaximumOp::apply(c128(1, 0), c128(nan, 0)).real()));
}

TEST(ScalarOps, ComplexArithmeticIsNumpysNotAnnexG) {
  const double inf = std::numeric_limits<double>::infinity(), nan = std::nan("");
  // Annex G would recover an infinity here; NumPy's textbook product gives NaN.
  c128 p = scalar::MultiplyOp::apply(c128(2, 1), c128(nan, inf));
  EXPECT_TRUE(std::isnan(p.real()) && std::isnan(p.imag()));
  c128 q = scalar::DivideOp::apply(c128(1, 0), c128(nan, inf));
  EXPECT_TRUE(std::isnan(q.real()) && std::isnan(q.imag()));
  c128 z = scalar::DivideOp::apply(c128(1, 1), c128(0, 0));
  EXPECT_TRUE(std::isinf(z.real()) && std::isinf(z.imag()));
  c128 r = scalar::ReciprocalOp::apply(c128(0, 2));
  EXPECT_DOUBLE_EQ(r.real(), 0);
  EXPECT_DOUBLE_EQ(r.imag(), -0.5);
  c128 d = scalar::DivideOp::apply(c128(3, 4), c128(1, 2));
  EXPECT_DOUBLE_EQ(d.real(), 2.2);
  EXPECT_DOUBLE_EQ(d.imag(), -0.4);
}

TEST(ScalarOps, ComplexPowerEdgeCasesFollowNumpy) {
  const double nan = std::nan("");
  EXPECT_EQ(scalar::PowOp::apply(c128(nan, 1), c128(0, 0)), c128(1, 0));
  EXPECT_EQ(scalar::PowOp::apply(c128(0, 0), c128(1, 2)), c128(0, 0));
  EXPECT_TRUE(std::isnan(scalar::PowOp::apply(c128(0, 0), c128(0, 1)).real()));
  EXPECT_TRUE(std::isnan(scalar::PowOp::apply(c128(0, 0), c128(-1, 0)).real()));
  c128 cube = scalar::PowOp::apply(c128(1, 1), c128(3, 0));
  EXPECT_DOUBLE_EQ(cube.real(), -2);
  EXPECT_DOUBLE_EQ(cube.imag(), 2);
  c128 inv = scalar::PowOp::apply(c128(0, 2), c128(-2, 0));
  EXPECT_DOUBLE_EQ(inv.real(), -0.25);
  c64 f = scalar::PowOp::apply(c64(2, 0), c64(0.5f, 0));
  EXPECT_NEAR(f.real(), std::sqrt(2.0f), 1e-6);
}

TEST(ScalarOps, ComplexSignOfInfinitiesFollowsNumpy) {
  const double inf = std::numeric_limits<double>::infinity(), nan = std::nan("");
  EXPECT_EQ(scalar::SignOp::apply(c128(inf, 7)), c128(1, 0));
  EXPECT_EQ(scalar::SignOp::apply(c128(-inf, 7)), c128(-1, 0));
  EXPECT_EQ(scalar::SignOp::apply(c128(nan, -inf)), c128(0, -1));
  EXPECT_TRUE(std::isnan(scalar::SignOp::apply(c128(inf, inf)).real()));
  EXPECT_TRUE(std::isnan(scalar::SignOp::apply(c128(nan, 1)).real()));
  EXPECT_EQ(scalar::SignOp::apply(c128(0, 0)), c128(0, 0));
  EXPECT_DOUBLE_EQ(scalar::SignOp::apply(c128(3, 4)).real(), 0.6);
}

TEST(ScalarOps, IntegerPowerNegativeExponentTruncates) {
  EXPECT_EQ(scalar::PowOp::apply<int32_t>(2, -1), 0);
  EXPECT_EQ(scalar::PowOp::apply<int32_t>(1, -5), 1);
  EXPECT_EQ(scalar::PowOp::apply<int32_t>(-1, -3), -1);
  EXPECT_EQ(scalar::PowOp::apply<int32_t>(-1, -2), 1);
  EXPECT_EQ(scalar::PowOp::apply<int8_t>(3, 5), static_cast<int8_t>(243));  // wraps
}

// ---- the op layer ------------------------------------------------------------------------------

TEST(Elementwise, WhereTestsAConditionOfAnyDtypeForNonZero) {
  auto cond = Array::from_vector<double>({0.5, 0.0, -0.0, std::nan("")}, {4}, Device::cpu());
  auto x = Array::from_vector<int8_t>({1, 1, 1, 1}, {4}, Device::cpu());
  auto y = Array::from_vector<int8_t>({2, 2, 2, 2}, {4}, Device::cpu());
  EXPECT_EQ(where(cond, x, y).to_vector<int8_t>(), (std::vector<int8_t>{1, 2, 2, 1}));
}

TEST(Elementwise, ComparisonWithAnOutOfRangePythonIntAnswers) {
  auto x = Array::from_vector<int8_t>({-128, 0, 127}, {3}, Device::cpu());
  auto big = Array::scalar(int64_t{300}, true), neg = Array::scalar(int64_t{-300}, true);
  auto all = [](const Array& a) {
    std::vector<uint8_t> v(3);
    a.copy_to_host(v.data(), bool_);
    return v;
  };
  EXPECT_EQ(all(less(x, big)), (std::vector<uint8_t>{1, 1, 1}));
  EXPECT_EQ(all(less(big, x)), (std::vector<uint8_t>{0, 0, 0}));
  EXPECT_EQ(all(equal(x, big)), (std::vector<uint8_t>{0, 0, 0}));
  EXPECT_EQ(all(not_equal(neg, x)), (std::vector<uint8_t>{1, 1, 1}));
  EXPECT_EQ(all(greater_equal(x, neg)), (std::vector<uint8_t>{1, 1, 1}));
  EXPECT_THROW(add(x, big), OverflowError);
}

TEST(Elementwise, InPlaceSameKindCasting) {
  EXPECT_TRUE(can_cast_same_kind(uint16, int8));
  EXPECT_FALSE(can_cast_same_kind(int8, uint16));
  EXPECT_FALSE(can_cast_same_kind(float32, int64));
  EXPECT_TRUE(can_cast_same_kind(float64, float32));
  auto u = Array::from_vector<uint16_t>({1, 2}, {2}, Device::cpu());
  auto i = Array::from_vector<int8_t>({1, 2}, {2}, Device::cpu());
  EXPECT_THROW(assign_inplace(u, add(u, i), "add"), DTypeError);
  assign_inplace(i, add(i, u), "add");
  EXPECT_EQ(i.to_vector<int8_t>(), (std::vector<int8_t>{2, 4}));
}

TEST(Elementwise, PendingReadersSeeOldValuesAfterInPlaceWrite) {
  auto x = Array::from_vector<float>({1, 2, 3}, {3}, Device::cpu());
  Array y = x * 2.0f;
  assign_inplace(x, x + 1.0f, "add");
  EXPECT_EQ(y.to_vector<float>(), (std::vector<float>{2, 4, 6}));
  EXPECT_EQ(x.to_vector<float>(), (std::vector<float>{2, 3, 4}));
}

TEST(Elementwise, ErrorsNameTheOpShapesAndDtypes) {
  auto a = Array::from_vector<float>({1, 2, 3, 4, 5, 6}, {2, 3}, Device::cpu());
  auto b = Array::from_vector<float>({1, 2, 3, 4}, {4}, Device::cpu());
  try {
    add(a, b);
    FAIL();
  } catch (const ShapeError& e) {
    EXPECT_NE(std::string(e.what()).find("[add]"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("(4,)"), std::string::npos) << e.what();
  }
  try {
    bitwise_and(a, a);
    FAIL();
  } catch (const DTypeError& e) {
    EXPECT_EQ(std::string(e.what()), "[bitwise_and] not supported for dtype float32");
  }
}
