// The shared planning layer (accel/backend/common/): the N-operand coalescer and the reduction
// layout, checked against brute force (a plan must visit exactly the addresses, in the same
// order, that the original shape and strides do), and the kernel table keyed by the full IR.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <random>
#include <set>
#include <vector>

#include "accel/backend/common/coalesce.h"
#include "accel/backend/common/kernel_table.h"
#include "accel/backend/common/reduce_dims.h"

using namespace accel;
using plan::ReduceDim;

namespace {

// Every position of `shape` in C order: operand k's offset.
std::vector<std::vector<int64_t>> walk(const Shape& shape, const std::vector<Strides>& steps) {
  std::vector<std::vector<int64_t>> out;
  const int64_t n = shape_size(shape);
  std::vector<int64_t> idx(shape.size(), 0);
  for (int64_t i = 0; i < n; ++i) {
    std::vector<int64_t> offsets;
    for (const Strides& s : steps) {
      int64_t o = 0;
      for (size_t d = 0; d < shape.size(); ++d) o += idx[d] * s[d];
      offsets.push_back(o);
    }
    out.push_back(offsets);
    for (int d = static_cast<int>(shape.size()) - 1; d >= 0 && ++idx[d] == shape[d]; --d) idx[d] = 0;
  }
  return out;
}

}  // namespace

TEST(Coalesce, ContiguousOperandsBecomeOneRow) {
  // 4 x 5 x 6 C-contiguous, float32 in bytes and float64 in elements: units are per operand.
  const plan::IterSpace s = plan::coalesce({4, 5, 6}, {{120, 24, 4}, {30, 6, 1}});
  EXPECT_EQ(s.shape, (Shape{120}));
  EXPECT_EQ(s.steps, (std::vector<Strides>{{4}, {1}}));
}

TEST(Coalesce, LengthOneAxesDropAndMergesNeedEveryOperand) {
  // Axis 1 of length 1 is dropped whatever its stride; a broadcast operand blocks the merge.
  const plan::IterSpace s = plan::coalesce({3, 1, 4}, {{4, 999, 1}, {0, 7, 1}});
  EXPECT_EQ(s.shape, (Shape{3, 4}));
  EXPECT_EQ(s.steps, (std::vector<Strides>{{4, 1}, {0, 1}}));
  EXPECT_EQ(plan::coalesce({1, 1}, {{5, 6}}).shape, Shape{});  // a single element: no axes
}

TEST(Coalesce, ZeroLengthAxisKeepsTheSpaceEmpty) {
  EXPECT_EQ(plan::coalesce({3, 0, 2}, {{0, 2, 1}}).size(), 0);
}

TEST(Coalesce, VisitsTheSameOffsetsAsTheOriginalSpace) {
  std::mt19937 rng(15);
  for (int trial = 0; trial < 500; ++trial) {
    const int nd = static_cast<int>(rng() % 6), nops = 1 + static_cast<int>(rng() % 4);
    Shape shape;
    for (int d = 0; d < nd; ++d) shape.push_back(static_cast<int64_t>(rng() % 4));
    std::vector<Strides> steps(static_cast<size_t>(nops));
    for (Strides& s : steps) {
      // Mostly C-contiguous (with a random sign and unit), sometimes broadcast or arbitrary.
      int64_t step = 1 + static_cast<int64_t>(rng() % 3);
      s.assign(static_cast<size_t>(nd), 0);
      for (int d = nd - 1; d >= 0; --d) {
        const int kind = static_cast<int>(rng() % 6);
        s[d] = kind == 0 ? 0 : kind == 1 ? static_cast<int64_t>(rng() % 50) - 25 : step;
        step *= std::max<int64_t>(shape[d], 1);
      }
    }
    const plan::IterSpace c = plan::coalesce(shape, steps);
    ASSERT_LE(c.shape.size(), shape.size());
    for (int64_t n : c.shape) EXPECT_NE(n, 1);
    EXPECT_EQ(walk(c.shape, c.steps), walk(shape, steps)) << "trial " << trial;
  }
}

TEST(OrderAxes, AKeyInItsInputsAxisOrderIsWalkedAsOneRow) {
  // A 3 x 4 x 5 result laid out as its input's transpose (2, 0, 1): after ordering by the
  // result's steps, both coalesce into one row; the same (offset, offset) pairs are visited.
  Shape shape{3, 4, 5};
  std::vector<Strides> steps{{4, 1, 12}, {4, 1, 12}, {0, 0, 0}};  // input, output, a scalar
  const auto before = walk(shape, steps);
  plan::order_axes(shape, steps, 1);
  EXPECT_EQ(shape, (Shape{5, 3, 4}));
  EXPECT_EQ(steps[1], (Strides{12, 4, 1}));
  const plan::IterSpace c = plan::coalesce(shape, steps);
  EXPECT_EQ(c.shape, Shape{60});
  EXPECT_EQ(c.steps, (std::vector<Strides>{{1}, {1}, {0}}));
  auto after = walk(shape, steps);
  std::multiset<std::vector<int64_t>> a(before.begin(), before.end()), b(after.begin(), after.end());
  EXPECT_EQ(a, b);
}

TEST(OrderAxes, CKeysAndLengthOneAxesStayInPlace) {
  Shape shape{4, 1, 6};
  std::vector<Strides> steps{{1, 99, 4}, {6, 7, 1}};  // a transposed input, a C output
  plan::order_axes(shape, steps, 1);
  EXPECT_EQ(shape, (Shape{4, 1, 6}));
  EXPECT_EQ(steps[0], (Strides{1, 99, 4}));
}

TEST(MemoryOrder, SortsByStepStablyAndSkipsOrderedOperands) {
  int perm[4];
  // A (2, 3, 4) array stored as its (2, 0, 1) transpose, with negative steps: largest first.
  const int64_t shape[] = {2, 3, 4};
  const int64_t transposed[] = {4, 1, -8};
  ASSERT_TRUE(plan::memory_order(3, shape, transposed, perm));
  EXPECT_EQ(std::vector<int>(perm, perm + 3), (std::vector<int>{2, 0, 1}));
  // Equal steps keep their order; a length-1 axis steps nowhere and goes innermost.
  const int64_t shape4[] = {5, 1, 5, 2};
  const int64_t equal[] = {1, 50, 1, 5};
  ASSERT_TRUE(plan::memory_order(4, shape4, equal, perm));
  EXPECT_EQ(std::vector<int>(perm, perm + 4), (std::vector<int>{3, 0, 2, 1}));
  // C order, gaps and length-1 axes anywhere included, needs no walk.
  const int64_t c_order[] = {40, 99, 8, 2};
  EXPECT_FALSE(plan::memory_order(4, shape4, c_order, perm));
  EXPECT_FALSE(plan::memory_order(0, shape4, c_order, perm));
}

TEST(OrderAxes, RandomLayoutsVisitTheSamePositions) {
  std::mt19937 rng(16);
  for (int trial = 0; trial < 300; ++trial) {
    const int nd = static_cast<int>(rng() % 5);
    Shape shape;
    for (int d = 0; d < nd; ++d) shape.push_back(static_cast<int64_t>(rng() % 4));
    std::vector<int> perm(static_cast<size_t>(nd));
    for (int d = 0; d < nd; ++d) perm[static_cast<size_t>(d)] = d;
    std::shuffle(perm.begin(), perm.end(), rng);
    std::vector<Strides> steps(2, Strides(static_cast<size_t>(nd), 0));
    int64_t step = 1;  // operand 1: dense in the order `perm`; operand 0: anything
    for (int i = nd - 1; i >= 0; --i) {
      const size_t d = static_cast<size_t>(perm[static_cast<size_t>(i)]);
      steps[1][d] = step;
      step *= std::max<int64_t>(shape[d], 1);
      steps[0][d] = static_cast<int64_t>(rng() % 40) - 20;
    }
    const auto before = walk(shape, steps);
    Shape s = shape;
    plan::order_axes(s, steps, 1);
    const auto after = walk(s, steps);
    std::multiset<std::vector<int64_t>> a(before.begin(), before.end()), b(after.begin(), after.end());
    EXPECT_EQ(a, b) << "trial " << trial;
    if (shape_size(shape) > 0) {
      const plan::IterSpace c = plan::coalesce(s, {steps[1]});
      EXPECT_LE(c.shape.size(), 1u) << "trial " << trial;  // the key alone is one row
    }
  }
}

TEST(ReduceDims, SortsMergesAndKeepsArgOrder) {
  // Fortran-ordered 4 x 3, everything reduced: one run of 12, or kept in order for argmin.
  EXPECT_EQ(plan::reduce_dims({4, 3}, {1, 4}, {0, 1}, {}, false, false).reduced,
            (std::vector<ReduceDim>{{12, 1, 0}}));
  EXPECT_EQ(plan::reduce_dims({4, 3}, {1, 4}, {0, 1}, {}, true, false).reduced,
            (std::vector<ReduceDim>{{4, 1, 0}, {3, 4, 0}}));
  const plan::ReduceDims d = plan::reduce_dims({2, 1, 0}, {3, 3, 1}, {2}, {1, 1}, false, false);
  EXPECT_TRUE(d.reduced_empty);
  EXPECT_FALSE(d.no_output);
  EXPECT_EQ(d.kept, (std::vector<ReduceDim>{{2, 3, 1}}));
}

TEST(ReduceDims, FlippedDimensionsCoverTheSameElements) {
  // x[::-1, ::-2] of a 5 x 8 array reduced over axis 1: read forwards from the far corner.
  const Shape shape{5, 4};
  const Strides in{-8, -2}, out{-1};
  const plan::ReduceDims d = plan::reduce_dims(shape, in, {1}, out, false, true);
  EXPECT_EQ(d.kept, (std::vector<ReduceDim>{{5, 8, 1}}));
  EXPECT_EQ(d.reduced, (std::vector<ReduceDim>{{4, 2, 0}}));
  EXPECT_EQ(d.in_offset, -4 * 8 - 3 * 2);
  EXPECT_EQ(d.out_offset, -4);
  std::set<std::pair<int64_t, int64_t>> original, planned;
  for (const auto& o : walk(shape, {in, {out[0], 0}})) original.insert({o[0], o[1]});
  Shape ps;
  Strides pi, po;
  for (const auto* v : {&d.kept, &d.reduced})
    for (const ReduceDim& r : *v) ps.push_back(r.size), pi.push_back(r.in), po.push_back(r.out);
  for (const auto& o : walk(ps, {pi, po})) planned.insert({o[0] + d.in_offset, o[1] + d.out_offset});
  EXPECT_EQ(planned, original);
  // argmin/argmax keep a reduced dimension's sign: positions count along it.
  EXPECT_EQ(plan::reduce_dims(shape, in, {1}, out, true, true).reduced,
            (std::vector<ReduceDim>{{4, -2, 0}}));
}

namespace {

// in0 + in1 -> out, all float32 and contiguous.
ir::KernelIR add_ir() {
  ir::KernelIR k;
  k.inputs = {{Dtype::float32, ir::Layout::contiguous}, {Dtype::float32, ir::Layout::contiguous}};
  k.outputs = {{Dtype::float32, ir::Layout::contiguous}};
  ir::Instr load0{ir::InstrKind::load, OpId::cast, Dtype::float32, Dtype::float32, {0, -1, -1}};
  ir::Instr load1{ir::InstrKind::load, OpId::cast, Dtype::float32, Dtype::float32, {1, -1, -1}};
  ir::Instr add{ir::InstrKind::op, OpId::add, Dtype::float32, Dtype::float32, {0, 1, -1}};
  k.instrs = {load0, load1, add};
  k.results = {2};
  return k;
}

}  // namespace

TEST(KernelTable, KeysByDeviceAndTheWholeProgram) {
  plan::KernelTable<int> table;
  const ir::KernelIR a = add_ir();
  ir::KernelIR swapped = a;  // in1 + in0: same ops and dtypes, other arguments
  std::swap(swapped.instrs[2].args[0], swapped.instrs[2].args[1]);
  ir::KernelIR strided = a;
  strided.inputs[1].layout = ir::Layout::strided;
  EXPECT_FALSE(swapped == a);
  EXPECT_FALSE(strided == a);
  EXPECT_EQ(table.find(plan::kHostDevice, a), nullptr);
  EXPECT_EQ(table.insert(plan::kHostDevice, a, 1), 1);
  EXPECT_EQ(table.insert(plan::kHostDevice, a, 2), 1);  // the first kernel stays
  EXPECT_EQ(table.insert(0, a, 3), 3);                  // another device
  EXPECT_EQ(table.insert(plan::kHostDevice, swapped, 4), 4);
  EXPECT_EQ(table.insert(plan::kHostDevice, strided, 5), 5);
  EXPECT_EQ(*table.find(plan::kHostDevice, a), 1);
  EXPECT_EQ(*table.find(0, a), 3);
  EXPECT_EQ(*table.find(plan::kHostDevice, ir::KernelIR(swapped)), 4);
  table.clear();
  EXPECT_EQ(table.find(0, a), nullptr);
}
