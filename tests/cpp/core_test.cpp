// Core: dtypes and promotion, shapes and broadcasting, arrays, views, lazy evaluation, the
// host allocator and the thread pool.
#include <gtest/gtest.h>

#include <accel/accel.h>

#include <algorithm>
#include <atomic>
#include <iterator>
#include <numeric>
#include <optional>
#include <stdexcept>

#include "accel/backend/backend.h"
#include "accel/backend/cpu/thread_pool.h"

using namespace accel;

namespace {
// The lazy-evaluation tests here use small arrays: keep small ops lazy (by default they are
// computed at once, eval/eager.h).
const bool small_ops_lazy = [] {
  set_eager_small_enabled(false);
  return true;
}();
}  // namespace

TEST(Dtype, PromotionFollowsNumpy) {
  EXPECT_EQ(promote_types(int8, uint8), int16);
  EXPECT_EQ(promote_types(int64, uint64), float64);
  EXPECT_EQ(promote_types(uint32, int32), int64);
  EXPECT_EQ(promote_types(int16, float32), float32);
  EXPECT_EQ(promote_types(int32, float32), float64);
  EXPECT_EQ(promote_types(complex64, float64), complex128);
  EXPECT_EQ(promote_types(bool_, uint16), uint16);
  EXPECT_EQ(promote_types(complex64, int16), complex64);
  EXPECT_EQ(promote_types(complex64, int32), complex128);
  // bfloat16 (ml_dtypes, JAX): 8-bit ints and bool join it, float16 meets it in float32.
  EXPECT_EQ(promote_types(bfloat16, int8), bfloat16);
  EXPECT_EQ(promote_types(uint8, bfloat16), bfloat16);
  EXPECT_EQ(promote_types(bfloat16, int16), float32);
  EXPECT_EQ(promote_types(bfloat16, int32), float64);
  EXPECT_EQ(promote_types(float16, bfloat16), float32);
  EXPECT_EQ(promote_types(bfloat16, complex64), complex64);
}

TEST(Bfloat16, ConversionsRoundOnceToNearestEven) {
  auto bits = [](auto v) { return bfloat16_t(v).bits; };
  EXPECT_EQ(bits(1.0f), 0x3f80);
  EXPECT_EQ(bits(1.0f + 0x1p-8f), 0x3f80);                  // a tie: to even
  EXPECT_EQ(bits(1.0f + 3 * 0x1p-8f), 0x3f82);              // a tie: to even, upwards
  EXPECT_EQ(bits(1.0 + 0x1p-8 + 0x1p-40), 0x3f81);          // through float: the tie, then 1.0
  EXPECT_EQ(bits(-0.0f), 0x8000);
  EXPECT_EQ(bits(3.4e38f), 0x7f80);                          // past the largest: inf
  EXPECT_EQ(bits(0x1p-133), 0x0001);                         // the smallest subnormal
  EXPECT_EQ(bits(0x1p-134), 0x0000);                         // half of it: to even, zero
  EXPECT_EQ(bits(std::numeric_limits<float>::quiet_NaN()), 0x7fc0);
  EXPECT_EQ(bits(-std::numeric_limits<double>::quiet_NaN()), 0xffc0);
  EXPECT_EQ(bits(int32_t{(1 << 24) + (1 << 16) + 1}), 0x4b81);  // through float: a tie, to 2^24
  EXPECT_EQ(bits(-int64_t{255}), 0xc37f);
  EXPECT_EQ(bits(~uint64_t{0}), 0x5f80);                     // 2^64
  EXPECT_EQ(float(bfloat16_t::from_bits(0x4049)), 3.140625f);
}

TEST(Dtype, PromotionIsSymmetric) {
  for (int i = 0; i < kNumDtypes; ++i)
    for (int j = 0; j < kNumDtypes; ++j)
      EXPECT_EQ(promote_types(Dtype(i), Dtype(j)), promote_types(Dtype(j), Dtype(i)));
}

TEST(Dtype, NamesRoundTrip) {
  for (int i = 0; i < kNumDtypes; ++i) EXPECT_EQ(dtype_from_name(dtype_name(Dtype(i))), Dtype(i));
  EXPECT_EQ(dtype_from_name("f2"), float16);
  EXPECT_EQ(dtype_from_name("bfloat16"), bfloat16);
  EXPECT_THROW(dtype_from_name("bfloat17"), DTypeError);
}

// Shape is a SmallVector: inline up to 6 dimensions, on the heap past them. Every operation
// is checked against std::vector doing the same, across the inline/heap boundary.
TEST(Shape, SmallVectorBehavesAsStdVectorAcrossTheInlineLimit) {
  for (size_t n : {0u, 1u, 5u, 6u, 7u, 20u}) {
    std::vector<int64_t> ref(n);
    std::iota(ref.begin(), ref.end(), 1);
    Shape s(ref.begin(), ref.end());
    ASSERT_EQ(std::vector<int64_t>(s), ref);
    s.push_back(s.empty() ? 0 : s[0]);  // an element of the vector itself, while it grows
    ref.push_back(ref.empty() ? 0 : ref[0]);
    s.insert(s.begin(), 3, -1);
    ref.insert(ref.begin(), 3, -1);
    s.insert(s.begin() + 1, s.begin() + 2, s.end());  // a range inside the vector
    const std::vector<int64_t> tail(ref.begin() + 2, ref.end());
    for (size_t i = 0; i < tail.size(); ++i) ref.insert(ref.begin() + 1 + i, tail[i]);
    s.erase(s.begin() + 2, s.begin() + 4);
    ref.erase(ref.begin() + 2, ref.begin() + 4);
    ASSERT_EQ(std::vector<int64_t>(s), ref) << "n = " << n;
    Shape moved(std::move(s));
    EXPECT_EQ(std::vector<int64_t>(moved), ref);
    EXPECT_TRUE(s.empty());
    Shape copy;
    copy = moved;
    EXPECT_EQ(copy, moved);
    copy.resize(2);
    ref.resize(2);
    EXPECT_EQ(std::vector<int64_t>(copy), ref);
    copy.resize(9, 4);
    ref.resize(9, 4);
    EXPECT_EQ(std::vector<int64_t>(copy), ref);
    EXPECT_EQ(std::vector<int64_t>(copy.rbegin(), copy.rend()),
              std::vector<int64_t>(ref.rbegin(), ref.rend()));
    // Copies of a few elements copy N at a time, whoever holds them: a heap block cut back to
    // 3 copied inline, and 3 inline elements copied into a heap block.
    copy.resize(3);
    ref.resize(3);
    const Shape from_heap(copy);
    EXPECT_EQ(std::vector<int64_t>(from_heap), ref);
    Shape onto_heap(20, 7);
    onto_heap = from_heap;
    EXPECT_EQ(std::vector<int64_t>(onto_heap), ref);
    onto_heap.push_back(8);
    ref.push_back(8);
    EXPECT_EQ(std::vector<int64_t>(onto_heap), ref);
  }
  EXPECT_EQ(shape_str(Shape{2, 3}), "(2, 3)");
  EXPECT_LT(Shape({1, 2}), Shape({1, 3}));
}

TEST(Shape, BroadcastMismatchRaisesShapeErrorNamingShapes) {
  EXPECT_EQ(broadcast_shapes(Shape{2, 1, 3}, Shape{4, 1}), (Shape{2, 4, 3}));
  try {
    broadcast_shapes(Shape{2, 3}, Shape{4}, "add");
    FAIL();
  } catch (const ShapeError& e) {
    EXPECT_NE(std::string(e.what()).find("[add]"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("(2, 3)"), std::string::npos);
  }
}

TEST(Shape, AxisOutOfRangeRaisesAxisError) {
  EXPECT_EQ(normalize_axis(-1, 3, "sum"), 2);
  EXPECT_THROW(normalize_axis(3, 3, "sum"), AxisError);
  EXPECT_THROW(normalize_axes({0, -3}, 3, "sum"), AxisError);
}

TEST(Array, WeakScalarsKeepArrayDtype) {
  Array x = Array::from_vector<float>({1, 2, 3}, {3}, Device::cpu());
  EXPECT_EQ((x * 2.0).dtype(), float32);
  EXPECT_EQ((x + 1).dtype(), float32);
  Array i8 = Array::from_vector<int8_t>({1, 2}, {2}, Device::cpu());
  EXPECT_EQ((i8 + 1).dtype(), int8);
  EXPECT_EQ((i8 + 1.5).dtype(), float64);
  EXPECT_THROW(i8 + 300, OverflowError);
}

TEST(Array, ElementwiseIsLazyUntilRead) {
  Array x = Array::from_vector<double>({1, 2, 3, 4}, {2, 2}, Device::cpu());
  Array y = x * 2 + 1;
  EXPECT_TRUE(y.is_pending());
  EXPECT_EQ(y.to_vector<double>(), (std::vector<double>{3, 5, 7, 9}));
  EXPECT_FALSE(y.is_pending());
}

TEST(Array, SmallOpOnComputedInputsRunsAtOnceWithEagerSmallOps) {
  set_eager_small_enabled(true);
  Array x = Array::from_vector<double>({1, 2, 3, 4}, {2, 2}, Device::cpu());
  Array y = x * 2 + 1;
  Array big = ones({kEagerMaxElements + 1}, Dtype::float64, Device::cpu()) + 1;
  set_eager_small_enabled(false);
  EXPECT_FALSE(y.is_pending());
  EXPECT_TRUE(big.is_pending());
  assign_inplace(x, x + 1, "iadd");
  EXPECT_EQ(y.to_vector<double>(), (std::vector<double>{3, 5, 7, 9}));
}

TEST(Array, PendingReaderSeesOldValuesAfterInPlaceWrite) {
  Array x = Array::from_vector<double>({1, 2, 3}, {3}, Device::cpu());
  Array y = x * 2;
  assign_inplace(x, x + 1, "iadd");
  EXPECT_EQ(y.to_vector<double>(), (std::vector<double>{2, 4, 6}));
  EXPECT_EQ(x.to_vector<double>(), (std::vector<double>{2, 3, 4}));
}

TEST(Array, InPlaceWithOverlappingTransposeMatchesCopySemantics) {
  Array a = Array::from_vector<double>({1, 2, 3, 4}, {2, 2}, Device::cpu());
  Array at = Array::view_of(a, {2, 2}, {1, 2}, 0);
  assign_inplace(a, a + at, "iadd");
  EXPECT_EQ(a.to_vector<double>(), (std::vector<double>{2, 5, 5, 8}));
}

TEST(Array, ViewsShareMemory) {
  Array a = Array::from_vector<int32_t>({0, 1, 2, 3, 4, 5}, {6}, Device::cpu());
  Array rev = Array::view_of(a, {6}, {-1}, 5);
  EXPECT_EQ(rev.to_vector<int32_t>(), (std::vector<int32_t>{5, 4, 3, 2, 1, 0}));
  EXPECT_TRUE(rev.shares_memory_with(a));
  assign(rev, Array::scalar(int64_t{7}, true, Device::cpu()));
  EXPECT_EQ(a.to_vector<int32_t>(), (std::vector<int32_t>(6, 7)));
}

TEST(Array, StridedAndBroadcastInputs) {
  Array a = Array::from_vector<float>({0, 1, 2, 3, 4, 5}, {2, 3}, Device::cpu());
  Array col = Array::from_vector<float>({10, 20}, {2, 1}, Device::cpu());
  Array t = Array::view_of(a, {3, 2}, {1, 3}, 0);  // a.T
  Array r = t + Array::view_of(col, {1, 2}, {1, 1}, 0);
  EXPECT_EQ(r.to_vector<float>(), (std::vector<float>{10, 23, 11, 24, 12, 25}));
}

TEST(Array, CrossDeviceOpRaisesDeviceError) {
  Array a = Array::from_vector<float>({1}, {1}, Device::cpu());
  // A CPU-only build has no cuda backend: creating on cuda is a clear BackendUnavailable.
  if (!backend_available(Device::cuda(0))) {
    EXPECT_THROW(Array::empty({1}, float32, Device::cuda(0)), BackendUnavailable);
  } else {
    Array b = Array::empty({1}, float32, Device::cuda(0));
    EXPECT_THROW(a + b, DeviceError);
  }
}

TEST(Array, DtypeErrorsNameOpAndDtype) {
  Array b = Array::from_vector<float>({1}, {1}, Device::cpu());
  try {
    bitwise_and(b, b);
    FAIL();
  } catch (const DTypeError& e) {
    EXPECT_NE(std::string(e.what()).find("[bitwise_and]"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("float32"), std::string::npos);
  }
}

TEST(Array, LongChainsStayBoundedAndCorrect) {
  Array x = Array::from_vector<double>({0, 0}, {2}, Device::cpu());
  for (int i = 0; i < 1000; ++i) x = x + 1;
  EXPECT_EQ(x.to_vector<double>(), (std::vector<double>{1000, 1000}));
}

TEST(HostAllocator, ReusesFreedBlocks) {
  Backend& be = backend_for(Device::cpu());
  size_t hits = be.memory_stats().cache_hits;
  { auto b = be.allocate(1 << 20); }
  { auto b = be.allocate(1 << 20); }
  EXPECT_GT(be.memory_stats().cache_hits, hits);
}

TEST(HostAllocator, ImpossibleAllocationRaisesOutOfMemoryWithNumbers) {
  try {
    backend_for(Device::cpu()).allocate(size_t{1} << 62);
    FAIL();
  } catch (const OutOfMemoryError& e) {
    EXPECT_EQ(e.requested, size_t{1} << 62);
    EXPECT_NE(std::string(e.what()).find("out of memory"), std::string::npos);
  }
}

TEST(ThreadPool, ParallelForCoversRangeExactlyOnce) {
  std::vector<std::atomic<int>> hits(100003);
  cpu::parallel_for(static_cast<int64_t>(hits.size()), 1000, [&](int64_t b, int64_t e) {
    for (int64_t i = b; i < e; ++i) hits[i]++;
  });
  for (auto& h : hits) EXPECT_EQ(h.load(), 1);
}

TEST(ThreadPool, ExceptionsPropagateToCaller) {
  EXPECT_THROW(cpu::parallel_for(1 << 20, 1, [](int64_t b, int64_t) {
                 if (b > 0) throw std::runtime_error("boom");
               }),
               std::runtime_error);
  // The pool still works afterwards.
  std::atomic<int64_t> sum{0};
  cpu::parallel_for(1000, 1, [&](int64_t b, int64_t e) { sum += e - b; });
  EXPECT_EQ(sum.load(), 1000);
}

// shares_memory_exactly: interleaved views share an address range but no element; the search
// decides by the strides, itemsizes and offsets, against a brute-force count of shared bytes.
TEST(MemoryOverlap, ExactAgainstEveryByte) {
  Array x = arange(int64_t{0}, int64_t{60}, int64_t{1}, Dtype::float32, Device::cpu());
  x.eval();
  auto bytes_of = [](const Array& v) {
    std::vector<intptr_t> out;
    const auto base = reinterpret_cast<intptr_t>(v.data());
    const auto isz = static_cast<int64_t>(v.itemsize());
    std::vector<int64_t> idx(static_cast<size_t>(v.ndim()), 0);
    for (int64_t n = 0; n < v.size(); ++n) {
      int64_t off = 0;
      for (int d = 0; d < v.ndim(); ++d) off += idx[d] * v.strides()[d];
      for (int64_t b = 0; b < isz; ++b) out.push_back(base + off * isz + b);
      for (int d = v.ndim(); d-- > 0;) {
        if (++idx[d] < v.shape()[d]) break;
        idx[d] = 0;
      }
    }
    std::sort(out.begin(), out.end());
    return out;
  };
  auto view = [&](int64_t offset, Shape shape, Strides strides) {
    return Array::view_of(x, std::move(shape), std::move(strides), offset);
  };
  const std::vector<Array> views = {
      view(0, {30}, {2}), view(1, {30}, {2}), view(0, {12}, {5}), view(3, {4, 5}, {12, 2}),
      view(59, {20}, {-3}), view(2, {5, 3}, {1, 5}), view(10, {1}, {1}), view(7, {3, 4}, {4, -1}),
      Array::view_of(x, {15}, {1}, 0)};
  for (size_t i = 0; i < views.size(); ++i)
    for (size_t j = 0; j < views.size(); ++j) {
      std::vector<intptr_t> a = bytes_of(views[i]), b = bytes_of(views[j]), both;
      std::set_intersection(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(both));
      EXPECT_EQ(shares_memory_exactly(views[i], views[j]), std::optional<bool>(!both.empty()))
          << i << " vs " << j;
    }
  // Too little work allowed to decide: no answer.
  EXPECT_EQ(shares_memory_exactly(views[0], views[0], 0), std::nullopt);
}
