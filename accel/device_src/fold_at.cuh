// NumPy's ufunc.at on the GPU (backend/fold_at.h): a[i] = op(a[i], b) for each listed position,
// unbuffered, so a position listed k times takes the op k times, in the list's order. The host
// sorted the positions stably first (sort.cuh), so each run of equal positions is one element's
// occurrences in that order; the first thread of a run folds the whole run into the element.
// No two threads write one element, and every element sees its operands in NumPy's order: the
// result is NumPy's to the bit (a float sum is not reassociated), at the price of one thread per
// distinct position (an element listed a million times is a million steps of one thread).
// Op is a scalar functor of scalar_ops.h (InFloat<...> for float16 / bfloat16) taking and
// returning T.
#pragma once

namespace accel::kernels {

template <class Op, class T>
__global__ void __launch_bounds__(kThreads) fold_at(const __grid_constant__ FoldAtParams p) {
  T* dst = static_cast<T*>(p.dst);
  const T* values = static_cast<const T*>(p.values);
  const int64_t step = static_cast<int64_t>(gridDim.x) * kThreads;
  for (int64_t k = static_cast<int64_t>(blockIdx.x) * kThreads + threadIdx.x; k < p.n; k += step) {
    const int64_t at = p.sorted[k];
    if (k > 0 && p.sorted[k - 1] == at) continue;  // not the first of its run
    T acc = dst[at];
    for (int64_t j = k; j < p.n && p.sorted[j] == at; ++j) acc = Op::apply(acc, values[p.order[j] * p.value_step]);
    dst[at] = acc;
  }
}

}  // namespace accel::kernels
