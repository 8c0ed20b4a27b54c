// Small elementwise ops on computed CPU arrays run at once, as NumPy's do: for a few thousand
// elements, recording a node, fusing and hashing a region cost more than the op itself, and
// waiting gains nothing (the data is in cache; a fused pass saves no memory traffic).
#pragma once
#include <cstdint>
#include <optional>
#include <span>

#include "accel/core/array.h"

namespace accel {

// Outputs of at most this many elements run at once (when the inputs are computed and on the CPU).
inline constexpr int64_t kEagerMaxElements = 4096;

// ACCEL_EAGER_SMALL=0 starts it off: every elementwise op is then recorded lazily, as on large
// arrays (the tests of lazy values and of fusion use that to run on small data).
bool eager_small_enabled();
void set_eager_small_enabled(bool on);

// The op's result computed now, or nullopt when it should be recorded lazily (a pending or
// non-CPU input, a large result, eager mode off). `compute` is the loop's dtype (inputs are cast
// to it), `out_dtype` the result's; OpId::cast converts inputs[0] to out_dtype. `layout` is the
// result's strides, empty for C order (ops/result_layout.h).
std::optional<Array> try_eager(OpId op, Dtype compute, Dtype out_dtype, const Shape& shape,
                               std::span<const Array> inputs, const Strides& layout);

// `x < 0.5`, `s == 1` between a computed 0-d float32/float64 CPU array and a Python number (a
// weak 0-d int64/float64, on either side), answered from the two values: `bool(a.sum() > 0)` in
// a loop would otherwise pay for promotion, broadcasting and a loop call for one element. The
// number is converted to the array's dtype as the loop would (NEP 50); nullopt for every other
// case (which the general path takes). `op` must be a comparison.
std::optional<Array> try_eager_scalar_compare(OpId op, std::span<const Array> inputs);

// A Python number as the comparison above takes it: an int that fits int64, or a float.
struct PlainNumber {
  bool is_int;
  int64_t i;
  double d;
};
// The same before any array is made of the number (the Python comparison slot's path:
// making the weak 0-d array costs as much as the rest): `x op number`, or `number op x` when
// number_first. nullopt where try_eager_scalar_compare would give nullopt, or while profiling
// (the profiler records the op through the general path). The result is a 0-d bool array.
std::optional<Array> eager_compare_with_number(OpId op, const Array& x, PlainNumber number,
                                              bool number_first);

}  // namespace accel
