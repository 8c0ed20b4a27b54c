// Fusion of elementwise chains: fused results equal unfused ones, regions have the expected
// shape, aliasing and pending-reader semantics hold, and the interpreter matches the IR's
// instruction-by-instruction meaning (Backend::run_kernel's default).
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>

#include "accel/accel.h"
#include "accel/backend/backend.h"
#include "accel/backend/cpu/fused_interpreter.h"
#include "accel/ir/fuse.h"

namespace accel {
namespace {

// These tests are about pending nodes on small arrays: keep small ops lazy (by default they are
// computed at once, eval/eager.h).
const bool small_ops_lazy = [] {
  set_eager_small_enabled(false);
  return true;
}();


// Runs fn with fusion on or off, restoring the previous setting.
template <class F>
auto with_fusion(bool on, F&& fn) {
  bool before = fusion_enabled();
  set_fusion_enabled(on);
  auto r = fn();
  set_fusion_enabled(before);
  return r;
}

Array random_array(const Shape& shape, Dtype dt, uint32_t seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> u(-4.0, 4.0);
  std::vector<double> v(static_cast<size_t>(shape_size(shape)));
  for (double& x : v) x = u(gen);
  return astype(Array::from_vector(v, shape), dt).eval();
}

template <class T>
void expect_ulps(const std::vector<T>& a, const std::vector<T>& b, int ulps) {
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) {
    if (std::isnan(a[i]) && std::isnan(b[i])) continue;
    T tol = ulps * std::numeric_limits<T>::epsilon() * std::max<T>(1, std::fabs(a[i]));
    EXPECT_NEAR(a[i], b[i], tol) << "at " << i;
  }
}

TEST(Fusion, chain_becomes_one_region_of_four_nodes) {
  Array a = random_array({1000}, float32, 1), b = random_array({1000}, float32, 2),
        c = random_array({1000}, float32, 3);
  Array y = 2 * a * b + c - 1;
  Array roots[] = {y};
  ir::FusedRegion r = ir::fuse_elementwise(roots);
  EXPECT_EQ(r.num_nodes(), 4);
  EXPECT_EQ(r.ir.inputs.size(), 5u);  // a, b, c and the two Python-like scalars
  EXPECT_EQ(r.ir.outputs.size(), 1u);
  EXPECT_NE(explain(y).find("group 0: 4 nodes"), std::string::npos) << explain(y);
}

TEST(Fusion, float_chain_matches_unfused_within_ulps) {
  Array a = random_array({3, 257}, float32, 4), b = random_array({257}, float32, 5),
        c = random_array({3, 1}, float64, 6);
  auto expr = [&] { return (sin(a) * sin(a) + cos(a) * cos(a) - exp(-b) * c).to_vector<double>(); };
  auto fused = with_fusion(true, expr);
  auto unfused = with_fusion(false, expr);
  expect_ulps(fused, unfused, 4);
}

TEST(Fusion, integer_and_bool_chains_match_unfused_exactly) {
  Array i = astype(random_array({64, 33}, float64, 7) * 1000, int32).eval();
  Array j = astype(random_array({33}, float64, 8) * 7, int16).eval();
  Array m = greater(random_array({64, 1}, float64, 9), Array::scalar(0.0, true));
  auto expr = [&] {
    Array r = where(m, floor_divide(i, j) + remainder(i, j) * 3, bitwise_xor(i, j) << 2);
    Array bools = logical_and(less(i, j), logical_not(m));
    return std::pair(r.to_vector<int64_t>(), astype(bools, int8).to_vector<int8_t>());
  };
  EXPECT_EQ(with_fusion(true, expr), with_fusion(false, expr));
}

TEST(Fusion, casts_in_chain_match_unfused) {
  Array i = astype(random_array({500}, float64, 10) * 100, int64).eval();
  Array f = random_array({500}, float32, 11);
  auto expr = [&] {
    return astype(astype(i, float32) * f + astype(f, int8), float64).to_vector<double>();
  };
  EXPECT_EQ(with_fusion(true, expr), with_fusion(false, expr));
}

TEST(Fusion, strided_and_transposed_inputs) {
  Array base = random_array({40, 30}, float64, 12);
  Array t = Array::view_of(base, {30, 40}, {1, 30}, 0);          // transposed
  Array s = Array::view_of(base, {20, 15}, {60, 2}, 1);          // every other row/col
  Array s2 = Array::view_of(base, {20, 15}, {-30, 2}, 39 * 30);  // reversed rows
  auto expr = [&] {
    auto x = (t * 2 + exp(t)).to_vector<double>();
    auto y = (s * s2 - s).to_vector<double>();
    x.insert(x.end(), y.begin(), y.end());
    return x;
  };
  expect_ulps(with_fusion(true, expr), with_fusion(false, expr), 2);
}

TEST(Fusion, hash_ignores_sizes_but_not_dtypes_or_layouts) {
  auto key = [](const Array& x) {
    Array roots[] = {x};
    return ir::fuse_elementwise(roots).ir.hash();
  };
  Array a = random_array({100}, float32, 1), b = random_array({7, 9}, float32, 2);
  Array c = random_array({100}, float64, 3);
  EXPECT_EQ(key(sin(a) * 2 + a), key(sin(b) * 3 + b));
  EXPECT_NE(key(sin(a) * 2 + a), key(sin(c) * 2 + c));
  Array bt = Array::view_of(random_array({9, 7}, float32, 4), {7, 9}, {1, 7}, 0);
  EXPECT_NE(key(sin(b) * 2 + b), key(sin(bt) * 2 + bt));
}

TEST(Fusion, shared_intermediate_held_outside_becomes_an_output) {
  Array a = random_array({300}, float64, 13);
  Array t = sin(a) * 2;
  Array y = t + 1;
  Array roots[] = {y};
  ir::FusedRegion r = ir::fuse_elementwise(roots);
  EXPECT_EQ(r.ir.outputs.size(), 2u);  // y, and t that we still hold
  y.eval();
  EXPECT_FALSE(t.is_pending());
  auto tv = t.to_vector<double>(), yv = y.to_vector<double>(), av = a.to_vector<double>();
  for (size_t i = 0; i < av.size(); ++i) {
    EXPECT_NEAR(tv[i], std::sin(av[i]) * 2, 1e-15);  // vector sin: within an ulp or so
    EXPECT_EQ(yv[i], tv[i] + 1);
  }
}

TEST(Fusion, eval_of_several_arrays_runs_one_pass) {
  Array a = random_array({256}, float32, 14), b = random_array({256}, float32, 15);
  Array s = a + b, d = a - b, p = (a + b) * (a - b);
  eval({s, d, p});
  EXPECT_FALSE(s.is_pending());
  EXPECT_FALSE(d.is_pending());
  EXPECT_FALSE(p.is_pending());
  auto sv = s.to_vector<float>(), dv = d.to_vector<float>(), pv = p.to_vector<float>();
  for (size_t i = 0; i < sv.size(); ++i) EXPECT_EQ(pv[i], sv[i] * dv[i]);
}

TEST(Fusion, pending_reader_keeps_old_values_after_inplace_write) {
  Array x = random_array({100}, float64, 16);
  auto before = x.to_vector<double>();
  Array y = x * 2 + 1;  // y = x * 2; x += 1 from the issue, with a longer chain
  assign_inplace(x, x + 1, "iadd");
  auto yv = y.to_vector<double>(), xv = x.to_vector<double>();
  for (size_t i = 0; i < before.size(); ++i) {
    EXPECT_EQ(yv[i], before[i] * 2 + 1);
    EXPECT_EQ(xv[i], before[i] + 1);
  }
}

TEST(Fusion, reader_of_a_pending_array_keeps_old_values_after_a_write_into_it) {
  // Issue 8, bug 2: y read x while x was pending; x got memory later and was written.
  for (bool fused : {true, false}) {
    with_fusion(fused, [] {
      Array a = Array::from_vector<double>({0, 1, 2, 3, 4, 5}, {6});
      Array x = a * 2;
      Array y = x + 1;
      Array c = astype(x, int32);
      setitem(x, {Slice{0, 3, 1}}, Array::scalar(0.0, true));
      EXPECT_EQ(y.to_vector<double>(), (std::vector<double>{1, 3, 5, 7, 9, 11}));
      EXPECT_EQ(c.to_vector<int32_t>(), (std::vector<int32_t>{0, 2, 4, 6, 8, 10}));
      EXPECT_EQ(x.to_vector<double>(), (std::vector<double>{0, 0, 0, 6, 8, 10}));
      return 0;
    });
  }
}

TEST(Fusion, region_cutting_a_pending_input_it_shares_is_computed_once_and_right) {
  // Issue 8, bug 1: a region cut a pending input (past a cap) whose evaluation fused and
  // computed nodes the region already held; the builder then read freed nodes.
  auto program = [] {
    Array a = random_array({16}, float64, 21);
    Array u = sqrt(abs(a)) + 1, v = u * 3;
    auto f = [](const Array& x) {
      Array t = x;
      for (int i = 0; i < 6; ++i) t = t * 0.5 + x;
      return where(x > 0, t, -t);
    };
    return (f(u) - f(v)).to_vector<double>();
  };
  expect_ulps(with_fusion(true, program), with_fusion(false, program), 4);
}

TEST(Fusion, inplace_with_transposed_self_is_correct) {
  Array a = random_array({17, 17}, float64, 17);
  auto v = a.to_vector<double>();
  Array at = Array::view_of(a, {17, 17}, {1, 17}, 0);
  assign_inplace(a, a + at * 2 - 1, "iadd");  // a += a.T * 2 - 1
  auto r = a.to_vector<double>();
  for (int i = 0; i < 17; ++i)
    for (int j = 0; j < 17; ++j) EXPECT_EQ(r[i * 17 + j], v[i * 17 + j] + v[j * 17 + i] * 2 - 1);
}

TEST(Fusion, overlapping_shifted_assignment_reads_old_values) {
  Array x = random_array({50}, float64, 18);
  auto v = x.to_vector<double>();
  Array head = Array::view_of(x, {49}, {1}, 0), tail = Array::view_of(x, {49}, {1}, 1);
  assign(tail, sin(head) * 2 + head);  // x[1:] = sin(x[:-1]) * 2 + x[:-1]
  auto r = x.to_vector<double>();
  EXPECT_EQ(r[0], v[0]);
  for (int i = 1; i < 50; ++i) EXPECT_NEAR(r[i], std::sin(v[i - 1]) * 2 + v[i - 1], 1e-14);
}

TEST(Fusion, value_assigned_in_place_keeps_its_value) {
  Array x = random_array({64}, float64, 19);
  auto v = x.to_vector<double>();
  Array value = x * 3 + 1;
  assign(x, value);                  // computed straight into x
  assign_inplace(x, x + 5, "iadd");  // x changes again; value must not
  auto r = value.to_vector<double>();
  for (size_t i = 0; i < v.size(); ++i) EXPECT_EQ(r[i], v[i] * 3 + 1);
}

TEST(Fusion, long_chains_past_the_caps_are_split_and_correct) {
  Array a = random_array({1000}, float64, 20);
  std::vector<Array> ins;
  for (int k = 0; k < 24; ++k) ins.push_back(random_array({1000}, float64, 100 + k));
  auto expr = [&] {
    Array y = a;
    for (int k = 0; k < 120; ++k) y = k % 3 ? y * 0.999 + ins[k % 24] : sin(y);
    return y.to_vector<double>();
  };
  expect_ulps(with_fusion(true, expr), with_fusion(false, expr), 8);
}

TEST(Fusion, pow_by_literal_two_is_square) {
  Array a = random_array({100}, float32, 21);
  Array y = pow(a, Array::scalar(2.0, true)) + 1;
  EXPECT_NE(explain(y).find("square"), std::string::npos);
  auto yv = y.to_vector<float>(), av = a.to_vector<float>();
  for (size_t i = 0; i < av.size(); ++i) EXPECT_EQ(yv[i], av[i] * av[i] + 1);
}

TEST(Fusion, interpreter_matches_instruction_by_instruction_meaning) {
  Array a = random_array({5, 300}, float64, 22), b = random_array({300}, float32, 23);
  Array m = less(a, Array::scalar(0.5, true));
  // The int16 cast has b's smaller shape: it would be cut from the region, so compute it first.
  Array b16 = astype(b, int16).eval();
  Array y = where(m, tanh(a) * b, b16);
  Array roots[] = {y};
  ir::FusedRegion r = ir::fuse_elementwise(roots);
  ASSERT_TRUE(r.deferred.empty());
  ASSERT_EQ(r.ir.outputs.size(), 2u);  // y, and the mask we still hold
  std::vector<Array> o1, o2;
  for (const ir::Operand& o : r.ir.outputs) {
    o1.push_back(Array::empty(y.shape(), o.dtype));
    o2.push_back(Array::empty(y.shape(), o.dtype));
  }
  cpu::interpret_fused(r.ir, cpu::bind_fused(y.shape(), r.inputs, o1));
  backend_for(Device::cpu()).Backend::run_kernel(r.ir, r.inputs, o2);
  EXPECT_EQ(o1[0].to_vector<double>(), o2[0].to_vector<double>());
  EXPECT_EQ(o1[1].to_vector<int8_t>(), o2[1].to_vector<int8_t>());
}

TEST(Fusion, empty_and_zero_d_arrays) {
  Array e = random_array({0, 3}, float32, 24);
  EXPECT_EQ((sin(e) * 2 + e).eval().size(), 0);
  Array z = Array::scalar(1.5);
  EXPECT_EQ((exp(z) * 2 - z).item<double>(), std::exp(1.5) * 2 - 1.5);
}

}  // namespace
}  // namespace accel
