// The walk of a fused kernel's operands (backend/cpu/fused_rows.h): rows of the coalesced space,
// or square tiles of its last two axes when an operand is transposed. Every element must be
// visited once, with every operand's pointer at that element, however the thread pool cuts the
// units; tests/python/test_fusion.py checks the values of whole kernels against NumPy.
#include <gtest/gtest.h>

#include <accel/accel.h>

#include <vector>

#include "accel/backend/cpu/fused_rows.h"

using namespace accel;

namespace {

// Visits every unit of `w` in ranges of `cut` units and checks each row's pointers: operand 0 is
// read at (i, j) of the output's index space through `in`, operand 1 is the contiguous output.
void expect_each_element_once(const Array& in, const Array& out, int64_t cut) {
  const Array inputs[] = {in}, outputs[] = {out};
  const cpu::FusedSpace s = cpu::bind_fused(out.shape(), inputs, outputs);
  const cpu::TileWalk w = cpu::plan_walk(s);
  const int64_t total = out.size();
  std::vector<int> seen(static_cast<size_t>(total), 0);
  const auto* out0 = static_cast<const float*>(out.data());
  for (int64_t lo = 0; lo < w.units; lo += cut)
    cpu::for_each_walk_row(s, w, lo, std::min(w.units, lo + cut), [&](char* const* row, int64_t n) {
      for (int64_t j = 0; j < n; ++j) {
        const int64_t flat = reinterpret_cast<const float*>(row[1] + j * s.inner[1]) - out0;
        ASSERT_GE(flat, 0);
        ASSERT_LT(flat, total);
        ++seen[static_cast<size_t>(flat)];
        // The input element at the same index: its value is its own flat index in `out`.
        EXPECT_EQ(*reinterpret_cast<const float*>(row[0] + j * s.inner[0]),
                  static_cast<float>(flat));
      }
    });
  for (int64_t k = 0; k < total; ++k) ASSERT_EQ(seen[static_cast<size_t>(k)], 1) << "element " << k;
}

// A float32 array of `shape` whose element at flat index k (C order) holds k.
Array numbered(const Shape& shape) {
  std::vector<float> v(static_cast<size_t>(shape_size(shape)));
  for (size_t k = 0; k < v.size(); ++k) v[k] = static_cast<float>(k);
  return Array::from_vector(v, shape);
}

TEST(TileWalk, a_transposed_input_is_walked_in_tiles_covering_every_element_once) {
  // 3 x 70 x 130 with the input the transpose of a 3 x 130 x 70 array: ragged tiles on both axes.
  Array src = numbered({3, 70, 130});
  Array t = ascontiguousarray(swapaxes(src, 1, 2)).eval();  // holds, at (b, j, i), src[b, i, j]
  Array in = swapaxes(t, 1, 2);                            // at (b, i, j): src's flat index
  Array out = Array::empty({3, 70, 130}, float32);
  const Array inputs[] = {in}, outputs[] = {out};
  const cpu::TileWalk w = cpu::plan_walk(cpu::bind_fused(out.shape(), inputs, outputs));
  ASSERT_TRUE(w.tiled);
  // Tiles shrink (to 64 at least) until each thread has a few: here some tiles are ragged.
  ASSERT_LT(w.tile_c, 130);
  EXPECT_EQ(w.units, 3 * ((70 + w.tile_r - 1) / w.tile_r) * ((130 + w.tile_c - 1) / w.tile_c));
  for (int64_t cut : {1, 2, 7, 1000}) expect_each_element_once(in, out, cut);
}

TEST(TileWalk, contiguous_broadcast_and_narrow_spaces_are_walked_by_rows) {
  Array out = Array::empty({70, 130}, float32);
  Array row = Array::view_of(numbered({130}), {70, 130}, {0, 1}, 0);
  Array col = Array::view_of(numbered({70}), {70, 130}, {1, 0}, 0);
  for (const Array& in : {numbered({70, 130}), row, col}) {
    const Array inputs[] = {in}, outputs[] = {out};
    EXPECT_FALSE(cpu::plan_walk(cpu::bind_fused(out.shape(), inputs, outputs)).tiled);
  }
  // A transposed input of a single column: nothing to reuse across rows.
  Array narrow_out = Array::empty({70, 1}, float32);
  Array narrow = Array::view_of(numbered({70}), {70, 1}, {1, 70}, 0);
  const Array inputs[] = {narrow}, outputs[] = {narrow_out};
  EXPECT_FALSE(cpu::plan_walk(cpu::bind_fused(narrow_out.shape(), inputs, outputs)).tiled);
}

TEST(TileWalk, a_transposed_output_is_tiled_too) {
  // The kernel writes through a transposed view: out[i, j] lands at t[j, i].
  Array in = numbered({90, 66});
  Array t = Array::empty({66, 90}, float32);
  Array out = Array::view_of(t, {90, 66}, {1, 90}, 0);
  const Array inputs[] = {in}, outputs[] = {out};
  const cpu::FusedSpace s = cpu::bind_fused(out.shape(), inputs, outputs);
  const cpu::TileWalk w = cpu::plan_walk(s);
  ASSERT_TRUE(w.tiled);
  std::vector<int> seen(90 * 66, 0);
  cpu::for_each_walk_row(s, w, 0, w.units, [&](char* const* row, int64_t n) {
    for (int64_t j = 0; j < n; ++j) {
      const float v = *reinterpret_cast<const float*>(row[0] + j * s.inner[0]);
      const int64_t at = reinterpret_cast<const float*>(row[1] + j * s.inner[1]) -
                         static_cast<const float*>(t.data());
      const int64_t i = static_cast<int64_t>(v) / 66, k = static_cast<int64_t>(v) % 66;
      EXPECT_EQ(at, k * 90 + i);  // element (i, k) of out is t[k, i]
      ++seen[static_cast<size_t>(v)];
    }
  });
  for (int c : seen) ASSERT_EQ(c, 1);
}

}  // namespace
