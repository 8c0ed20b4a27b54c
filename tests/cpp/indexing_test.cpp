// Indexing: basic views (negative steps, new axes, ellipsis), advanced gathers with NumPy's
// placement rule, setitem of each form, take / take_along_axis / put, nonzero and the errors.
// Expected values are computed by direct loops over the C-order host data.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>

#include <accel/accel.h>
#include <accel/backend/cpu/cpu.h>

#include <numeric>
#include <random>
#include <string>

using namespace accel;

namespace {

// 0, 1, 2, ... as float64 of `shape`.
Array arange_f(const Shape& shape) {
  std::vector<double> v(static_cast<size_t>(shape_size(shape)));
  std::iota(v.begin(), v.end(), 0.0);
  return Array::from_vector(v, shape, Device::cpu());
}

Array ints(const std::vector<int64_t>& v, Shape shape = {}) {
  if (shape.empty()) shape = {static_cast<int64_t>(v.size())};
  return Array::from_vector(v, shape, Device::cpu());
}

Array bools(const std::vector<uint8_t>& v, const Shape& shape) {
  return astype(Array::from_vector(v, shape, Device::cpu()), bool_);
}

template <class E> std::string message_of(E&& fn) {
  try {
    fn();
  } catch (const IndexError& e) {
    return e.what();
  }
  return "no IndexError";
}

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

}  // namespace

TEST(Indexing, BasicIndexingIsAViewWithNegativeSteps) {
  Array x = arange_f({2, 3, 4});
  // x[1, ::-2, None, 1:3]
  Array v = getitem(x, {1, Slice{std::nullopt, std::nullopt, -2}, newaxis, Slice{1, 3, std::nullopt}});
  EXPECT_EQ(v.shape(), (Shape{2, 1, 2}));
  EXPECT_TRUE(v.shares_memory_with(x));
  EXPECT_EQ(v.to_vector<double>(), (std::vector<double>{21, 22, 13, 14}));
  // Writes through the view reach x.
  setitem(v, {ellipsis}, Array::scalar(-1.0));
  std::vector<double> xs = x.to_vector<double>();
  EXPECT_EQ(xs[21], -1);
  EXPECT_EQ(xs[14], -1);
  EXPECT_EQ(xs[17], 17);
}

TEST(Indexing, SlicesClampLikePython) {
  Array x = arange_f({5});
  EXPECT_EQ(getitem(x, {Slice{-100, 100, std::nullopt}}).size(), 5);
  EXPECT_EQ(getitem(x, {Slice{3, 1, std::nullopt}}).size(), 0);
  EXPECT_EQ(getitem(x, {Slice{100, std::nullopt, -1}}).to_vector<double>(),
            (std::vector<double>{4, 3, 2, 1, 0}));
  EXPECT_EQ(getitem(x, {Slice{-2, -6, -2}}).to_vector<double>(), (std::vector<double>{3, 1}));
  EXPECT_THROW(getitem(x, {Slice{std::nullopt, std::nullopt, 0}}), ValueError);
}

TEST(Indexing, EllipsisAndNewAxisPlaceAxes) {
  Array x = arange_f({2, 3, 4});
  EXPECT_EQ(getitem(x, {ellipsis, 0}).shape(), (Shape{2, 3}));
  EXPECT_EQ(getitem(x, {newaxis, ellipsis, newaxis}).shape(), (Shape{1, 2, 3, 4, 1}));
  EXPECT_EQ(getitem(x, {}).shape(), (Shape{2, 3, 4}));
  Array scalar = getitem(x, {1, 2, 3});
  EXPECT_EQ(scalar.ndim(), 0);
  EXPECT_EQ(scalar.item<double>(), 23);
}

TEST(Indexing, IntegerArraysBroadcastAndGather) {
  Array x = arange_f({3, 4});
  // x[[[0], [2]], [1, 3]] -> shape (2, 2)
  Array r = getitem(x, {ints({0, 2}, {2, 1}), ints({1, 3})});
  EXPECT_EQ(r.shape(), (Shape{2, 2}));
  EXPECT_EQ(r.to_vector<double>(), (std::vector<double>{1, 3, 9, 11}));
  // Negative indices count from the end.
  EXPECT_EQ(getitem(x, {ints({-1}), -1}).to_vector<double>(), (std::vector<double>{11}));
  Array copy = getitem(x, {ints({0})});
  EXPECT_FALSE(copy.shares_memory_with(x));
}

TEST(Indexing, SeparatedAdvancedIndicesGoFirst) {
  Array x = arange_f({2, 3, 4});
  EXPECT_EQ(getitem(x, {0, Slice{}, ints({0, 1})}).shape(), (Shape{2, 3}));
  EXPECT_EQ(getitem(x, {Slice{}, 0, ints({0, 1})}).shape(), (Shape{2, 2}));
  EXPECT_EQ(getitem(x, {ints({0}), newaxis, ints({0})}).shape(), (Shape{1, 1, 4}));
  EXPECT_EQ(getitem(x, {ints({0, 1}), Slice{}, ints({2, 3})}).to_vector<double>(),
            (std::vector<double>{2, 6, 10, 15, 19, 23}));
  // x[:, [0, 2], [1, 3]]: adjacent, stays in place.
  Array r = getitem(x, {Slice{}, ints({0, 2}), ints({1, 3})});
  EXPECT_EQ(r.shape(), (Shape{2, 2}));
  EXPECT_EQ(r.to_vector<double>(), (std::vector<double>{1, 11, 13, 23}));
}

TEST(Indexing, BooleanMasksSelectNonzeroPositions) {
  Array x = arange_f({2, 3});
  Array mask = bools({1, 0, 1, 0, 1, 1}, {2, 3});
  EXPECT_EQ(getitem(x, {mask}).to_vector<double>(), (std::vector<double>{0, 2, 4, 5}));
  Array rows = bools({0, 1}, {2});
  EXPECT_EQ(getitem(x, {rows, Slice{1, std::nullopt, std::nullopt}}).to_vector<double>(),
            (std::vector<double>{4, 5}));
  // A 0-d mask adds an axis of length 1 (true) or 0 (false).
  EXPECT_EQ(getitem(x, {Array::scalar(true)}).shape(), (Shape{1, 2, 3}));
  EXPECT_EQ(getitem(x, {Array::scalar(false)}).shape(), (Shape{0, 2, 3}));
}

// x[mask] over axis 0 is one backend call (compress_rows): on the CPU one pass per chunk of
// rows, chunks on the pool past 512 KB, rows of a fixed size copied without a branch, rows that
// are not contiguous through nonzero + gather. Checked against a loop on both sides of the
// chunk limit, with two threads, for masks that pick nothing, everything, only the last row,
// or random rows, from reversed views and views with strided rows.
TEST(Indexing, MaskOverAxis0MatchesLoopsAcrossChunksAndRowSizes) {
  const int saved = cpu::num_threads();
  cpu::set_num_threads(2);
  std::mt19937_64 rng(7);
  for (int64_t rows : {1, 5, 40000, 150000}) {
    // Rows of 8, 16 and 24 bytes (float64), and of 2 elements 16 bytes apart (not contiguous).
    for (int64_t width : {1, 2, 3, 4}) {
      const bool strided = width == 4;
      const int64_t w = strided ? 2 : width, step = strided ? 2 : 1;
      Array x = arange_f({rows, width});
      for (int pattern = 0; pattern < 4; ++pattern) {
        std::vector<uint8_t> m(static_cast<size_t>(rows));
        for (int64_t i = 0; i < rows; ++i)
          m[i] = pattern == 1 || (pattern == 2 && i == rows - 1) || (pattern == 3 && rng() % 2);
        Array mask = bools(m, {rows});
        for (bool reversed : {false, true}) {
          Array v = reversed ? getitem(x, {Slice{std::nullopt, std::nullopt, -1}}) : x;
          if (strided) v = getitem(v, {Slice{}, Slice{std::nullopt, std::nullopt, 2}});
          std::vector<double> want;
          for (int64_t i = 0; i < rows; ++i) {
            if (!m[i]) continue;
            const int64_t r = reversed ? rows - 1 - i : i;
            for (int64_t j = 0; j < w; ++j) want.push_back(static_cast<double>(r * width + j * step));
          }
          Array got = getitem(width == 1 ? getitem(v, {Slice{}, 0}) : v, {mask});
          ASSERT_EQ(got.shape()[0], static_cast<int64_t>(want.size()) / w)
              << "rows " << rows << " width " << width << " pattern " << pattern;
          EXPECT_EQ(got.to_vector<double>(), want)
              << "rows " << rows << " width " << width << " pattern " << pattern << " reversed " << reversed;
        }
      }
    }
  }
  cpu::set_num_threads(saved);
}

TEST(Indexing, SetitemBasicAdvancedAndMasked) {
  Array x = arange_f({3, 4});
  setitem(x, {Slice{}, 1}, Array::scalar(int64_t{-1}, true));
  setitem(x, {ints({0, 2}), ints({3})}, Array::from_vector<float>({7.5f, 8.5f}, {2}));
  Array mask = greater(x, Array::scalar(9.0, true));
  setitem(x, {mask}, Array::scalar(0.0, true));
  EXPECT_EQ(x.to_vector<double>(),
            (std::vector<double>{0, -1, 2, 7.5, 4, -1, 6, 7, 8, -1, 0, 8.5}));
}

TEST(Indexing, SetitemCastsToTheTargetDtype) {
  Array x = Array::from_vector<int32_t>({0, 0, 0}, {3});
  setitem(x, {ints({1, 2})}, Array::from_vector<double>({2.9, -3.9}, {2}));
  EXPECT_EQ(x.to_vector<int32_t>(), (std::vector<int32_t>{0, 2, -3}));
  Array u8 = Array::from_vector<uint8_t>({0, 0}, {2});
  EXPECT_THROW(setitem(u8, {0}, Array::scalar(int64_t{300}, true)), OverflowError);
  // Python floats store into integers as int(v) does; Python complex numbers only into complex
  // or bool arrays (NumPy's rules). A strong (array) value casts unsafely, as before.
  EXPECT_THROW(setitem(x, {0}, Array::scalar(std::nan(""), true)), ValueError);
  EXPECT_THROW(setitem(x, {0}, Array::scalar(HUGE_VAL, true)), OverflowError);
  EXPECT_THROW(setitem(u8, {0}, Array::scalar(-1.5, true)), OverflowError);
  EXPECT_THROW(setitem(u8, {0}, Array::scalar(255.5 + 1, true)), OverflowError);
  EXPECT_THROW(setitem(x, {0}, Array::scalar(std::complex<double>(1, 2), true)), DTypeError);
  setitem(u8, {0}, Array::scalar(255.9, true));
  setitem(u8, {1}, Array::scalar(-0.5, true));
  EXPECT_EQ(u8.to_vector<uint8_t>(), (std::vector<uint8_t>{255, 0}));
}

TEST(Indexing, ShiftedSelfAssignmentReadsOldValues) {
  Array x = arange_f({6});
  setitem(x, {Slice{1, std::nullopt, std::nullopt}},
          getitem(x, {Slice{std::nullopt, -1, std::nullopt}}) * 2.0);
  EXPECT_EQ(x.to_vector<double>(), (std::vector<double>{0, 0, 2, 4, 6, 8}));
  setitem(x, {Slice{std::nullopt, std::nullopt, -1}}, x);
  EXPECT_EQ(x.to_vector<double>(), (std::vector<double>{8, 6, 4, 2, 0, 0}));
  setitem(x, {ints({1, 2, 3})}, getitem(x, {Slice{std::nullopt, 3, std::nullopt}}));
  EXPECT_EQ(x.to_vector<double>(), (std::vector<double>{8, 8, 6, 4, 0, 0}));
}

TEST(Indexing, PendingReadersSeeOldValues) {
  Array x = arange_f({4});
  Array y = x + 1.0;
  setitem(x, {ints({0, 1})}, Array::scalar(100.0, true));
  EXPECT_EQ(y.to_vector<double>(), (std::vector<double>{1, 2, 3, 4}));
}

TEST(Indexing, RepeatedIndexKeepsLastValue) {
  Array x = arange_f({3});
  setitem(x, {ints({0, 0, 0})}, Array::from_vector<double>({1, 2, 3}, {3}));
  EXPECT_EQ(x.to_vector<double>()[0], 3);
}

TEST(Indexing, OutOfBoundsNamesIndexAxisAndSize) {
  Array x = arange_f({3, 4});
  EXPECT_TRUE(contains(message_of([&] { getitem(x, {0, 4}); }),
                       "[getitem] index 4 is out of bounds for axis 1 with size 4"));
  EXPECT_TRUE(contains(message_of([&] { getitem(x, {Slice{}, ints({0, -5})}); }),
                       "index -5 is out of bounds for axis 1 with size 4"));
  EXPECT_TRUE(contains(message_of([&] { getitem(x, {0, 0, 0}); }),
                       "too many indices for array: array is 2-dimensional, but 3 were indexed"));
  EXPECT_TRUE(contains(message_of([&] { getitem(x, {bools({1, 0}, {2})}); }),
                       "boolean index did not match indexed array along axis 0"));
  EXPECT_TRUE(contains(message_of([&] { getitem(x, {ints({0, 1}), ints({0, 1, 2})}); }),
                       "could not be broadcast together with shapes (2,) (3,)"));
  EXPECT_TRUE(contains(message_of([&] { getitem(x, {ellipsis, ellipsis}); }), "single ellipsis"));
  EXPECT_THROW(getitem(x, {Array::from_vector<double>({0.0}, {1})}), IndexError);
}

TEST(Indexing, BadScatterIndexWritesNothing) {
  Array x = arange_f({5});
  EXPECT_THROW(setitem(x, {ints({0, 1, 9})}, Array::scalar(-1.0, true)), IndexError);
  EXPECT_EQ(x.to_vector<double>(), (std::vector<double>{0, 1, 2, 3, 4}));
}

TEST(Take, MatchesLoopsOnAnyAxisAndMode) {
  Array x = arange_f({3, 4});
  EXPECT_EQ(take(x, ints({2, 0}), 0).to_vector<double>(),
            (std::vector<double>{8, 9, 10, 11, 0, 1, 2, 3}));
  Array r = take(x, ints({3, 1, 0, 0}, {2, 2}), -1);
  EXPECT_EQ(r.shape(), (Shape{3, 2, 2}));
  EXPECT_EQ(r.to_vector<double>()[4], 7);
  EXPECT_EQ(take(x, ints({11, -12})).to_vector<double>(), (std::vector<double>{11, 0}));
  EXPECT_EQ(take(x, ints({13, -13}), std::nullopt, IndexMode::wrap).to_vector<double>(),
            (std::vector<double>{1, 11}));
  EXPECT_EQ(take(x, ints({13, -13}), std::nullopt, IndexMode::clip).to_vector<double>(),
            (std::vector<double>{11, 0}));
  EXPECT_TRUE(contains(message_of([&] { take(x, ints({3}), 0); }),
                       "[take] index 3 is out of bounds for axis 0 with size 3"));
  EXPECT_THROW(take(x, ints({0}), 2), AxisError);
}

TEST(Take, LargeRandomGatherMatchesLoops) {
  std::mt19937_64 rng(7);
  const int64_t rows = 500, cols = 300, n = 200000;
  Array x = arange_f({rows, cols});
  std::vector<int64_t> idx(n);
  for (auto& v : idx) v = static_cast<int64_t>(rng() % (2 * rows)) - rows;
  std::vector<double> got = getitem(x, {ints(idx), 7}).to_vector<double>();
  for (int64_t i = 0; i < n; ++i) {
    int64_t r = idx[i] < 0 ? idx[i] + rows : idx[i];
    ASSERT_EQ(got[i], static_cast<double>(r * cols + 7));
  }
}

TEST(Take, AlongAxisPicksPerRow) {
  Array x = Array::from_vector<double>({3, 1, 2, 9, 7, 8}, {2, 3});
  Array order = ints({1, 2, 0, 1, 2, 0}, {2, 3});
  EXPECT_EQ(take_along_axis(x, order, 1).to_vector<double>(),
            (std::vector<double>{1, 2, 3, 7, 8, 9}));
  EXPECT_EQ(take_along_axis(x, ints({1, 0, 1}, {1, 3}), 0).to_vector<double>(),
            (std::vector<double>{9, 1, 8}));
  EXPECT_THROW(take_along_axis(x, ints({0}), 0), ShapeError);
}

TEST(Put, WritesFlatPositionsWithRepeatedValues) {
  Array x = arange_f({2, 3});
  put(x, ints({0, 5, -2}), Array::from_vector<double>({-1, -2}, {2}));
  EXPECT_EQ(x.to_vector<double>(), (std::vector<double>{-1, 1, 2, 3, -1, -2}));
}

TEST(Nonzero, CoordinatesInCOrder) {
  Array x = Array::from_vector<double>({0, 1.5, 0, -0.0, std::nan(""), 2}, {2, 3});
  std::vector<Array> nz = nonzero(x);
  ASSERT_EQ(nz.size(), 2u);
  EXPECT_EQ(nz[0].to_vector<int64_t>(), (std::vector<int64_t>{0, 1, 1}));
  EXPECT_EQ(nz[1].to_vector<int64_t>(), (std::vector<int64_t>{1, 1, 2}));
  Array aw = argwhere(x);
  EXPECT_EQ(aw.shape(), (Shape{3, 2}));
  EXPECT_EQ(aw.to_vector<int64_t>(), (std::vector<int64_t>{0, 1, 1, 1, 1, 2}));
  // NumPy's transpose(nonzero(x)): a view stepping down the columns of the coordinates.
  EXPECT_EQ(aw.strides(), (Strides{1, 3}));
  EXPECT_FALSE(aw.is_contiguous());
  EXPECT_EQ(flatnonzero(x).to_vector<int64_t>(), (std::vector<int64_t>{1, 4, 5}));
  EXPECT_THROW(nonzero(Array::scalar(1.0)), ValueError);
  EXPECT_EQ(argwhere(Array::scalar(1.0)).shape(), (Shape{1, 0}));
}

TEST(Nonzero, LargeStridedInputMatchesLoops) {
  const int64_t n = 400000;
  std::vector<int32_t> v(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) v[i] = (i * 7919) % 13 == 0;
  Array x = Array::from_vector(v, {n / 2, 2});
  Array col = getitem(x, {Slice{std::nullopt, std::nullopt, -1}, 1});  // strided, reversed
  std::vector<int64_t> want;
  for (int64_t r = 0; r < n / 2; ++r)
    if (v[static_cast<size_t>((n / 2 - 1 - r) * 2 + 1)]) want.push_back(r);
  EXPECT_EQ(flatnonzero(col).to_vector<int64_t>(), want);
}

TEST(Compress, KeepsSlicesWhereConditionHolds) {
  Array x = arange_f({3, 2});
  EXPECT_EQ(compress(bools({1, 0, 1}, {3}), x, 0).to_vector<double>(),
            (std::vector<double>{0, 1, 4, 5}));
  EXPECT_EQ(extract(greater(x, Array::scalar(3.0, true)), x).to_vector<double>(),
            (std::vector<double>{4, 5}));
}

// ufunc_at (ops/ufunc_at.h): every listing folds in, in order; negative positions count from
// the end; a strided x is written through; errors before anything is written.
TEST(UfuncAt, RepeatedPositionsFoldEveryValueInOrder) {
  Array x = zeros({4}, float64, Device::cpu());
  ufunc_at(OpId::add, x, ints({0, 0, 3, -1, 0}), Array::from_vector<double>({1, 2, 4, 8, 16}, {5}, Device::cpu()));
  EXPECT_EQ(x.to_vector<double>(), (std::vector<double>{19, 0, 0, 12}));
  // Sequential float sum: 1e16 + 1 + 1 stays 1e16 in NumPy's order (pairwise would give 1e16+2).
  Array big = full({1}, Array::scalar(1e16, false, Device::cpu()), float64, Device::cpu());
  ufunc_at(OpId::add, big, ints({0, 0}), Array::scalar(1.0, false, Device::cpu()));
  EXPECT_EQ(big.to_vector<double>()[0], 1e16);
  // (((10 - 1) - 2) - 3) on int8, and a maximum fold.
  Array s = full({2}, Array::scalar(int64_t{10}, false, Device::cpu()), int8, Device::cpu());
  ufunc_at(OpId::subtract, s, ints({1, 1, 1}), astype(ints({1, 2, 3}), int8));
  EXPECT_EQ(astype(s, int64).to_vector<int64_t>(), (std::vector<int64_t>{10, 4}));
}

TEST(UfuncAt, StridedTargetsAndOtherOps) {
  // x is the transpose of a 3x2 array: flat C-order positions of the (2, 3) view.
  Array base = zeros({3, 2}, float64, Device::cpu());
  Array x = permute_dims(base, {1, 0});
  ufunc_at(OpId::add, x, ints({1, 1, 5}), Array::scalar(1.5, false, Device::cpu()));
  EXPECT_EQ(x.to_vector<double>(), (std::vector<double>{0, 3, 0, 0, 0, 1.5}));
  EXPECT_EQ(base.to_vector<double>(), (std::vector<double>{0, 0, 3, 0, 0, 1.5}));
  // An op without a typed walk (the inner loop per element), on float16.
  Array h = astype(arange_f({3}), float16);
  ufunc_at(OpId::divide, h, ints({2, 2}), astype(Array::from_vector<double>({2, 4}, {2}, Device::cpu()), float16));
  EXPECT_EQ(astype(h, float64).to_vector<double>(), (std::vector<double>{0, 1, 0.25}));
}

TEST(UfuncAt, BadArgumentsRaiseBeforeWriting) {
  Array x = arange_f({3});
  EXPECT_TRUE(contains(message_of([&] {
    ufunc_at(OpId::add, x, ints({0, 3}), Array::scalar(1.0, false, Device::cpu()));
  }), "index 3 is out of bounds for an array of size 3"));
  EXPECT_TRUE(contains(message_of([&] {
    ufunc_at(OpId::add, x, ints({-4}), Array::scalar(1.0, false, Device::cpu()));
  }), "index -4"));
  EXPECT_EQ(x.to_vector<double>(), (std::vector<double>{0, 1, 2}));
  EXPECT_THROW(ufunc_at(OpId::less, x, ints({0}), x), DTypeError);   // gives bool
  EXPECT_THROW(ufunc_at(OpId::negative, x, ints({0}), x), ValueError);  // unary
  EXPECT_THROW(ufunc_at(OpId::add, x, arange_f({1}), x), DTypeError);  // float indices
  EXPECT_THROW(ufunc_at(OpId::add, x, ints({0, 1}), arange_f({3})), ShapeError);
  EXPECT_EQ(x.to_vector<double>(), (std::vector<double>{0, 1, 2}));
}

// ufunc_reduceat (ops/ufunc_at.h): each segment starts as its first row and takes the rest in
// order; a start not before the next is its row alone; the last runs to the end.
TEST(UfuncReduceat, SegmentsFoldFromTheirFirstRow) {
  Array x = Array::from_vector<double>({1, 2, 3, 4, 5, 6}, {6}, Device::cpu());
  EXPECT_EQ(ufunc_reduceat(OpId::add, x, ints({0, 2, 2, 1, 5}), 0).to_vector<double>(),
            (std::vector<double>{3, 3, 3, 14, 6}));
  // subtract in order along each axis of a 3x4 array: x0 - x1 - x2 (columns), and rows.
  Array m = arange_f({3, 4});
  EXPECT_EQ(ufunc_reduceat(OpId::subtract, m, ints({0}), 0).to_vector<double>(),
            (std::vector<double>{-12, -13, -14, -15}));
  EXPECT_EQ(ufunc_reduceat(OpId::subtract, m, ints({1, 3}), -1).to_vector<double>(),
            (std::vector<double>{-1, 3, -1, 7, -1, 11}));
  // A transposed (strided) x folds through a contiguous copy; maximum keeps NaN.
  Array t = permute_dims(m, {1, 0});
  EXPECT_EQ(ufunc_reduceat(OpId::maximum, t, ints({0, 2}), 0).to_vector<double>(),
            (std::vector<double>{1, 5, 9, 3, 7, 11}));
  Array nan = Array::from_vector<double>({1, std::nan(""), 0}, {3}, Device::cpu());
  EXPECT_TRUE(std::isnan(ufunc_reduceat(OpId::maximum, nan, ints({0}), 0).to_vector<double>()[0]));
  // Sums of floats add the rest first (NumPy's grouping): 1 + (1e16 + -1e16) is 1.
  Array g = Array::from_vector<double>({1, 1e16, -1e16}, {3}, Device::cpu());
  EXPECT_EQ(ufunc_reduceat(OpId::add, g, ints({0}), 0).to_vector<double>()[0], 1.0);
  // No indices: an empty axis.
  EXPECT_EQ(ufunc_reduceat(OpId::add, m, ints({}), 1).shape(), (Shape{3, 0}));
}

TEST(Bincount, CountsAndSumsInInputOrder) {
  Array x = ints({3, 0, 3, 1, 3});
  EXPECT_EQ(bincount(x).to_vector<int64_t>(), (std::vector<int64_t>{1, 1, 0, 3}));
  EXPECT_EQ(bincount(x, std::nullopt, 6).to_vector<int64_t>(), (std::vector<int64_t>{1, 1, 0, 3, 0, 0}));
  // Weights add in float64 in input order: 1e16 + 1 + -1e16 is 0 for value 3, as NumPy's.
  Array w = Array::from_vector<float>({1e16f, 2, 1, 4, -1e16f}, {5}, Device::cpu());
  const std::vector<double> sums = bincount(x, w).to_vector<double>();
  EXPECT_EQ(sums, (std::vector<double>{2, 4, 0, static_cast<double>(1e16f) + 1 - static_cast<double>(1e16f)}));
  EXPECT_EQ(bincount(ints({}), std::nullopt, 2).to_vector<int64_t>(), (std::vector<int64_t>{0, 0}));
  // Many values fold on every thread (integer sums in any order are the same).
  std::vector<int64_t> many(200000);
  for (size_t i = 0; i < many.size(); ++i) many[i] = static_cast<int64_t>((i * 7919) % 97);
  std::vector<int64_t> want(97, 0);
  for (int64_t v : many) ++want[static_cast<size_t>(v)];
  EXPECT_EQ(bincount(ints(many)).to_vector<int64_t>(), want);
  EXPECT_THROW(bincount(ints({1, -2})), ValueError);
  EXPECT_THROW(bincount(arange_f({3})), DTypeError);
  EXPECT_THROW(bincount(x, std::nullopt, -1), ValueError);
  EXPECT_THROW(bincount(x, arange_f({2})), ValueError);
  EXPECT_THROW(bincount(Array::scalar(int64_t{1}, false, Device::cpu())), ValueError);
}

TEST(UfuncReduceat, BadArgumentsRaise) {
  Array m = arange_f({3, 4});
  EXPECT_TRUE(contains(message_of([&] { ufunc_reduceat(OpId::add, m, ints({0, 3}), 0); }),
                       "index 3 is out of bounds for axis 0 of size 3"));
  EXPECT_TRUE(contains(message_of([&] { ufunc_reduceat(OpId::add, m, ints({-1}), 1); }),
                       "index -1"));
  EXPECT_THROW(ufunc_reduceat(OpId::add, m, ints({0}), 2), AxisError);
  EXPECT_THROW(ufunc_reduceat(OpId::less, m, ints({0}), 0), DTypeError);  // gives bool
  EXPECT_THROW(ufunc_reduceat(OpId::negative, m, ints({0}), 0), ValueError);  // unary
  EXPECT_THROW(ufunc_reduceat(OpId::add, m, arange_f({1}), 0), DTypeError);  // float indices
  EXPECT_THROW(ufunc_reduceat(OpId::add, Array::scalar(1.0, false, Device::cpu()), ints({0}), 0),
               ValueError);
}
