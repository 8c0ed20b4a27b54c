// Manipulation ops from C++: values against hand-computed NumPy results, which results are views
// of the input's memory, and the errors.
#include <gtest/gtest.h>

#include <complex>
#include <numeric>

#include "accel/accel.h"

namespace accel {
namespace {

Array arange_f64(const Shape& shape) {
  std::vector<double> v(static_cast<size_t>(shape_size(shape)));
  std::iota(v.begin(), v.end(), 0.0);
  return Array::from_vector(v, shape);
}

std::vector<double> values(const Array& a) { return a.to_vector<double>(); }

TEST(Reshape, ContiguousIsAViewAndInfersMinusOne) {
  Array x = arange_f64({2, 3, 4});
  Array r = reshape(x, {4, -1});
  EXPECT_EQ(r.shape(), (Shape{4, 6}));
  EXPECT_TRUE(r.shares_memory_with(x));
  EXPECT_EQ(values(r), values(x));
}

TEST(Reshape, TransposedNeedsACopyUnlessSplittingOneAxis) {
  Array t = transpose(arange_f64({3, 4}));  // shape (4, 3), strides (1, 4)
  Array flat = reshape(t, {12});
  EXPECT_FALSE(flat.shares_memory_with(t));
  EXPECT_EQ(values(flat), (std::vector<double>{0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11}));
  Array split = reshape(t, {2, 2, 3});  // splitting axis 0 keeps a view
  EXPECT_TRUE(split.shares_memory_with(t));
  EXPECT_EQ(values(split), values(t));
  EXPECT_THROW(reshape(t, {12}, false), ValueError);
  EXPECT_FALSE(reshape(arange_f64({6}), {2, 3}, true).shares_memory_with(arange_f64({6})));
}

TEST(Reshape, WrongSizeRaisesShapeErrorWithShapes) {
  Array x = arange_f64({6});
  try {
    reshape(x, {4, 2});
    FAIL() << "no error";
  } catch (const ShapeError& e) {
    EXPECT_STREQ(e.what(), "[reshape] cannot reshape array of size 6 into shape (4, 2)");
  }
  EXPECT_THROW(reshape(x, {-1, -1}), ShapeError);
  EXPECT_THROW(reshape(x, {-2, 3}), ShapeError);
  EXPECT_THROW(reshape(Array::empty({0, 3}, float64), {-1, 0}), ShapeError);
}

TEST(Reshape, EmptyAndZeroDimensional) {
  EXPECT_EQ(reshape(Array::empty({0, 3}, float32), {3, 0, 5}).shape(), (Shape{3, 0, 5}));
  Array s = Array::scalar(2.5);
  EXPECT_EQ(reshape(s, {1, 1}).shape(), (Shape{1, 1}));
  EXPECT_EQ(ravel(s).shape(), (Shape{1}));
  EXPECT_EQ(reshape(arange_f64({1, 1}), {}).item<double>(), 0.0);
}

TEST(Reshape, PendingInputIsComputedFirst) {
  Array x = arange_f64({2, 3});
  Array y = reshape(x * 2.0, {3, 2});
  EXPECT_EQ(values(y), (std::vector<double>{0, 2, 4, 6, 8, 10}));
}

TEST(PermuteDims, ReordersAxesAsAView) {
  Array x = arange_f64({2, 3, 4});
  Array p = permute_dims(x, {2, 0, 1});
  EXPECT_EQ(p.shape(), (Shape{4, 2, 3}));
  EXPECT_TRUE(p.shares_memory_with(x));
  EXPECT_EQ(values(p)[1], 4.0);  // p[0, 0, 1] = x[0, 1, 0]
  EXPECT_THROW(permute_dims(x, {0, 1}), ValueError);
  EXPECT_THROW(permute_dims(x, {0, 0, 1}), AxisError);
  EXPECT_THROW(permute_dims(x, {0, 1, 3}), AxisError);
  EXPECT_EQ(matrix_transpose(x).shape(), (Shape{2, 4, 3}));
  EXPECT_THROW(matrix_transpose(arange_f64({3})), ShapeError);
}

TEST(MoveAxis, MatchesNumPyOrder) {
  Array x = arange_f64({2, 3, 4, 5});
  EXPECT_EQ(moveaxis(x, {0}, {-1}).shape(), (Shape{3, 4, 5, 2}));
  EXPECT_EQ(moveaxis(x, {0, 1}, {-1, -2}).shape(), (Shape{4, 5, 3, 2}));
  EXPECT_EQ(swapaxes(x, 0, 3).shape(), (Shape{5, 3, 4, 2}));
  EXPECT_THROW(moveaxis(x, {0, 1}, {2}), ValueError);
}

TEST(Squeeze, RemovesOnlySizeOneAxes) {
  Array x = arange_f64({1, 3, 1});
  EXPECT_EQ(squeeze(x).shape(), (Shape{3}));
  EXPECT_EQ(squeeze(x, Axes{-1}).shape(), (Shape{1, 3}));
  EXPECT_TRUE(squeeze(x).shares_memory_with(x));
  try {
    squeeze(x, Axes{1});
    FAIL() << "no error";
  } catch (const ShapeError& e) {
    EXPECT_NE(std::string(e.what()).find("axis 1 of size 3"), std::string::npos) << e.what();
  }
  EXPECT_THROW(squeeze(x, Axes{3}), AxisError);
}

TEST(ExpandDims, InsertsAxesAtResultPositions) {
  Array x = arange_f64({2, 3});
  EXPECT_EQ(expand_dims(x, {0}).shape(), (Shape{1, 2, 3}));
  EXPECT_EQ(expand_dims(x, {-1}).shape(), (Shape{2, 3, 1}));
  EXPECT_EQ(expand_dims(x, {0, 3}).shape(), (Shape{1, 2, 3, 1}));
  EXPECT_TRUE(expand_dims(x, {1}).is_contiguous());
  EXPECT_THROW(expand_dims(x, {4}), AxisError);
  EXPECT_THROW(expand_dims(x, {0, 0}), AxisError);
}

TEST(BroadcastTo, IsAStrideZeroView) {
  Array x = arange_f64({3});
  Array b = broadcast_to(x, {2, 3});
  EXPECT_EQ(b.strides(), (Strides{0, 1}));
  EXPECT_EQ(values(b), (std::vector<double>{0, 1, 2, 0, 1, 2}));
  EXPECT_THROW(broadcast_to(x, {4}), ShapeError);
  EXPECT_THROW(broadcast_to(arange_f64({2, 3}), {3}), ShapeError);
  auto both = broadcast_arrays(std::vector<Array>{arange_f64({3, 1}), arange_f64({4})});
  EXPECT_EQ(both[0].shape(), (Shape{3, 4}));
  EXPECT_EQ(both[1].shape(), (Shape{3, 4}));
}

TEST(Concat, JoinsAlongAxisAndPromotes) {
  Array a = arange_f64({2, 2});
  Array b = Array::from_vector(std::vector<int32_t>{7, 8}, {2, 1});
  Array c = concat(std::vector<Array>{a, b}, 1);
  EXPECT_EQ(c.dtype(), float64);
  EXPECT_EQ(values(c), (std::vector<double>{0, 1, 7, 2, 3, 8}));
  Array i8 = Array::from_vector(std::vector<int8_t>{1}, {1});
  Array u8 = Array::from_vector(std::vector<uint8_t>{200}, {1});
  EXPECT_EQ(concat(std::vector<Array>{i8, u8}).dtype(), int16);
  Array flat = concat(std::vector<Array>{a, b}, std::nullopt);
  EXPECT_EQ(values(flat), (std::vector<double>{0, 1, 2, 3, 7, 8}));
}

TEST(Concat, NonContiguousAndPendingInputs) {
  Array t = transpose(arange_f64({2, 3}));  // (3, 2)
  Array c = concat(std::vector<Array>{t, flip(t, Axes{0}) + 1.0}, 0);
  EXPECT_EQ(values(c), (std::vector<double>{0, 3, 1, 4, 2, 5, 3, 6, 2, 5, 1, 4}));
}

TEST(Concat, MismatchedShapesRaise) {
  Array a = arange_f64({2, 2});
  EXPECT_THROW(concat(std::vector<Array>{a, arange_f64({2, 3})}, 0), ShapeError);
  EXPECT_THROW(concat(std::vector<Array>{a, arange_f64({4})}, 0), ShapeError);
  EXPECT_THROW(concat(std::vector<Array>{Array::scalar(1.0)}, 0), ShapeError);
  EXPECT_THROW(concat(std::vector<Array>{}, 0), ValueError);
  EXPECT_THROW(concat(std::vector<Array>{a}, 2), AxisError);
  EXPECT_THROW(concat(std::vector<Array>{a}, 0, int32), DTypeError);  // same_kind
}

TEST(Stack, NewAxisAnywhere) {
  Array a = arange_f64({2}), b = arange_f64({2}) + 10.0;
  EXPECT_EQ(values(stack(std::vector<Array>{a, b}, 0)), (std::vector<double>{0, 1, 10, 11}));
  EXPECT_EQ(values(stack(std::vector<Array>{a, b}, -1)), (std::vector<double>{0, 10, 1, 11}));
  EXPECT_THROW(stack(std::vector<Array>{a, arange_f64({3})}), ShapeError);
  EXPECT_THROW(stack(std::vector<Array>{a, b}, 2), AxisError);
}

TEST(Unstack, AndSplitAreViews) {
  Array x = arange_f64({3, 2});
  auto rows = unstack(x, 0);
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(values(rows[2]), (std::vector<double>{4, 5}));
  EXPECT_TRUE(rows[1].shares_memory_with(x));
  auto cols = unstack(x, 1);
  EXPECT_EQ(values(cols[1]), (std::vector<double>{1, 3, 5}));
  auto parts = split(arange_f64({7}), 3, 0, false);
  EXPECT_EQ(parts[0].shape(), (Shape{3}));
  EXPECT_EQ(parts[2].shape(), (Shape{2}));
  EXPECT_THROW(split(arange_f64({7}), 3, 0, true), ShapeError);
  auto cut = split_at(arange_f64({10}), {3, -2, 20}, 0);
  ASSERT_EQ(cut.size(), 4u);
  EXPECT_EQ(cut[1].shape(), (Shape{5}));
  EXPECT_EQ(cut[2].shape(), (Shape{2}));
  EXPECT_EQ(cut[3].shape(), (Shape{0}));
}

TEST(Flip, NegativeStrideView) {
  Array x = arange_f64({2, 3});
  Array f = flip(x);
  EXPECT_TRUE(f.shares_memory_with(x));
  EXPECT_EQ(values(f), (std::vector<double>{5, 4, 3, 2, 1, 0}));
  EXPECT_EQ(values(flip(x, Axes{1})), (std::vector<double>{2, 1, 0, 5, 4, 3}));
  EXPECT_EQ(flip(Array::empty({0, 2}, float32)).shape(), (Shape{0, 2}));
}

TEST(Roll, ShiftsWrapAround) {
  Array x = arange_f64({2, 3});
  EXPECT_EQ(values(roll(x, {1})), (std::vector<double>{5, 0, 1, 2, 3, 4}));
  EXPECT_EQ(values(roll(x, {1}, Axes{1})), (std::vector<double>{2, 0, 1, 5, 3, 4}));
  EXPECT_EQ(values(roll(x, {-1, 4}, Axes{0, 1})), (std::vector<double>{5, 3, 4, 2, 0, 1}));
  EXPECT_EQ(values(roll(x, {1, 1}, Axes{1})), (std::vector<double>{1, 2, 0, 4, 5, 3}));
  EXPECT_THROW(roll(x, {1, 2, 3}, Axes{0, 1}), ShapeError);
}

TEST(Repeat, ScalarAndPerElementCounts) {
  Array x = arange_f64({2, 2});
  EXPECT_EQ(values(repeat(x, 2)), (std::vector<double>{0, 0, 1, 1, 2, 2, 3, 3}));
  EXPECT_EQ(values(repeat(x, 2, 0)), (std::vector<double>{0, 1, 0, 1, 2, 3, 2, 3}));
  Array counts = Array::from_vector(std::vector<int64_t>{1, 0, 2, 2}, {4});
  EXPECT_EQ(values(repeat(arange_f64({4}), counts)), (std::vector<double>{0, 2, 2, 3, 3}));
  Array col_counts = Array::from_vector(std::vector<int32_t>{3, 1}, {2});
  EXPECT_EQ(values(repeat(x, col_counts, 1)),
            (std::vector<double>{0, 0, 0, 1, 2, 2, 2, 3}));
  EXPECT_THROW(repeat(x, -1), ValueError);
  EXPECT_THROW(repeat(x, col_counts, 5), AxisError);
  EXPECT_THROW(repeat(arange_f64({3}), col_counts, 0), ShapeError);
  EXPECT_THROW(repeat(x, arange_f64({4})), DTypeError);
}

TEST(Tile, PadsRepsAndShape) {
  Array x = arange_f64({2});
  EXPECT_EQ(values(tile(x, {2})), (std::vector<double>{0, 1, 0, 1}));
  Array t = tile(x, {2, 2});
  EXPECT_EQ(t.shape(), (Shape{2, 4}));
  EXPECT_EQ(values(t), (std::vector<double>{0, 1, 0, 1, 0, 1, 0, 1}));
  Array m = tile(arange_f64({2, 2}), {2});
  EXPECT_EQ(values(m), (std::vector<double>{0, 1, 0, 1, 2, 3, 2, 3}));
  EXPECT_FALSE(tile(x, {1}).shares_memory_with(x));
  EXPECT_EQ(tile(x, {0, 3}).shape(), (Shape{0, 6}));
}

TEST(Tile, ManyAxesOfLengthOneAreBroadcastNotSplit) {
  Shape shape(20, 1);
  shape.back() = 2;
  Array t = tile(reshape(arange_f64({2}), shape), Axes(20, 2));
  Shape expected(20, 2);
  expected.back() = 4;
  EXPECT_EQ(t.shape(), expected);
  std::vector<double> v = values(t);
  for (size_t i = 0; i < v.size(); ++i) ASSERT_EQ(v[i], static_cast<double>(i % 2)) << i;
}

TEST(Flatten, AlwaysCopiesRavelOnlyWhenNeeded) {
  Array x = arange_f64({2, 3});
  EXPECT_FALSE(flatten(x).shares_memory_with(x));
  EXPECT_TRUE(ravel(x).shares_memory_with(x));
  EXPECT_FALSE(ravel(transpose(x)).shares_memory_with(x));
  EXPECT_EQ(values(ravel(transpose(x))), (std::vector<double>{0, 3, 1, 4, 2, 5}));
}

TEST(ComplexParts, AreWritableViewsOfTheComplexMemory) {
  using C = std::complex<double>;
  Array z = Array::from_vector(std::vector<C>{{1, 2}, {3, 4}, {5, 6}, {7, 8}, {9, 10}, {11, 12}},
                               {2, 3});
  Array re = real_part(transpose(z)), im = imag_part(transpose(z));
  EXPECT_EQ(re.dtype(), Dtype::float64);
  EXPECT_EQ(values(re), (std::vector<double>{1, 7, 3, 9, 5, 11}));
  EXPECT_EQ(values(im), (std::vector<double>{2, 8, 4, 10, 6, 12}));
  EXPECT_EQ(im.strides(), (Strides{2, 6}));  // in float64 items: twice the complex strides
  assign(im, Array::scalar(-1.0, true));
  EXPECT_EQ(z.to_vector<C>()[4], C(9, -1));
  // A real array's real part is itself; its imaginary part new, read-only zeros.
  Array x = arange_f64({2, 3});
  EXPECT_TRUE(real_part(x).shares_memory_with(x));
  EXPECT_FALSE(imag_part(x).shares_memory_with(x));
  EXPECT_TRUE(is_read_only(imag_part(x)));
  EXPECT_EQ(values(imag_part(x)), std::vector<double>(6, 0.0));
}

TEST(ViewAs, ReinterpretsAndScalesTheLastAxis) {
  Array x = Array::from_vector(std::vector<int32_t>{0, 1065353216, 1073741824, 0, 0, 0}, {2, 3});
  EXPECT_EQ(view_as(x, Dtype::float32).to_vector<float>(),
            (std::vector<float>{0, 1, 2, 0, 0, 0}));
  Array bytes = view_as(x, Dtype::uint8);
  EXPECT_EQ(bytes.shape(), (Shape{2, 12}));
  EXPECT_TRUE(bytes.shares_memory_with(x));
  Array wide = view_as(reshape(x, {3, 2}), Dtype::int64);
  EXPECT_EQ(wide.shape(), (Shape{3, 1}));
  EXPECT_THROW(view_as(transpose(x), Dtype::int64), ValueError);      // last axis strided
  EXPECT_THROW(view_as(x, Dtype::int64), ValueError);                 // 12 bytes per row
  Array row = Array::view_of(reshape(x, {6}), {4}, {1}, 1);  // starts 4 bytes in
  EXPECT_THROW(view_as(row, Dtype::int64), ValueError);
  EXPECT_THROW(view_as(Array::scalar(1.0), Dtype::float32), ValueError);  // 0-d
}

TEST(FieldView, ReadsEachItemsBytesFromAnOffsetAndWritesThrough) {
  // 65536 * k + k: the high int16 of item k is k, the low one k too (little-endian).
  std::vector<int32_t> v;
  for (int32_t k = 0; k < 6; ++k) v.push_back(65536 * k + k);
  Array x = Array::from_vector(v, {2, 3});
  Array high = field_view(transpose(x), Dtype::int16, 2);
  EXPECT_EQ(high.shape(), (Shape{3, 2}));
  EXPECT_EQ(high.to_vector<int16_t>(), (std::vector<int16_t>{0, 3, 1, 4, 2, 5}));
  assign(high, Array::scalar(int64_t{0}, true));
  EXPECT_EQ(x.to_vector<int32_t>(), (std::vector<int32_t>{0, 1, 2, 3, 4, 5}));
  EXPECT_THROW(field_view(x, Dtype::int64, 0), ValueError);  // larger than the item
  EXPECT_THROW(field_view(x, Dtype::int16, 3), ValueError);  // past the item's end
  EXPECT_THROW(field_view(x, Dtype::int16, 1), ValueError);  // not on a whole int16
  EXPECT_THROW(field_view(x, Dtype::bool_, 0), ValueError);  // bools are the bytes 0 and 1
}

TEST(SetWriteable, FreezesOneHandleAndThawsOnlyAFrozenOne) {
  Array x = arange_f64({2, 3});
  Array other = x;  // another handle of the same array
  Array frozen = set_writeable(x, false);
  EXPECT_TRUE(is_read_only(frozen));
  EXPECT_TRUE(frozen.shares_memory_with(x));
  EXPECT_FALSE(is_read_only(other));
  EXPECT_THROW(assign(frozen, Array::scalar(1.0, true)), ValueError);
  EXPECT_TRUE(is_read_only(Array::view_of(frozen, {3}, {1}, 0)));  // its views inherit it
  EXPECT_TRUE(set_writeable(frozen, false).is(frozen));  // already as asked: itself
  Array thawed = set_writeable(frozen, true);
  assign(thawed, Array::scalar(1.0, true));
  EXPECT_EQ(values(x), std::vector<double>(6, 1.0));
  // Read-only by how it was made: never thawed.
  EXPECT_THROW(set_writeable(broadcast_to(x, {4, 2, 3}), true), ValueError);
  EXPECT_THROW(set_writeable(Array::view_of(frozen, {3}, {1}, 0), true), ValueError);
}


TEST(Diagonal, IsAReadOnlyViewOfTheTwoAxes) {
  Array x = arange_f64({2, 3});
  Array d = diagonal(x, 1);  // x[0, 1], x[1, 2]
  EXPECT_EQ(values(d), (std::vector<double>{1, 5}));
  EXPECT_TRUE(d.shares_memory_with(x));
  EXPECT_TRUE(is_read_only(d));
  EXPECT_EQ(d.strides(), (Strides{4}));
  EXPECT_EQ(diagonal(x, 5).shape(), (Shape{0}));
  EXPECT_EQ(values(diagonal(x, -1, 1, 0)), (std::vector<double>{1, 5}));  // axes swapped
  EXPECT_THROW(diagonal(x, 0, 1, -1), ValueError);
  EXPECT_THROW(diagonal(reshape(x, {6})), ValueError);
}

TEST(SlidingWindowView, EveryWindowAsAReadOnlyView) {
  Array x = arange_f64({5});
  Array w = sliding_window_view(x, {3});
  EXPECT_EQ(w.shape(), (Shape{3, 3}));
  EXPECT_EQ(w.strides(), (Strides{1, 1}));
  EXPECT_EQ(values(w), (std::vector<double>{0, 1, 2, 1, 2, 3, 2, 3, 4}));
  EXPECT_TRUE(is_read_only(w));
  Array m = arange_f64({2, 3});
  EXPECT_EQ(sliding_window_view(m, {2, 2}, Axes{1, 1}).shape(), (Shape{2, 1, 2, 2}));
  EXPECT_THROW(sliding_window_view(x, {6}), ValueError);
  EXPECT_THROW(sliding_window_view(x, {-1}), ValueError);
  EXPECT_THROW(sliding_window_view(m, {2}), ValueError);  // one length per axis without axes
}
}  // namespace
}  // namespace accel
