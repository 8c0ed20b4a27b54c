// NumPy's ufunc.at and ufunc.reduceat on the GPU.
//
// ufunc.at (backend/fold_at.h): a[i] = op(a[i], b) for each listed position,
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

// ufunc.reduceat (FoldSegmentsParams): one thread per output element folds its segment's rows
// in order, so consecutive threads read consecutive elements of a row (inner > 1) and every
// output is NumPy's fold of its operands, left to right. A long segment of a 1-d array is one
// thread's walk: the kernel is for the many-segments case reduceat is used for.
template <class Op, class T>
__global__ void __launch_bounds__(kThreads) fold_segments(const __grid_constant__ FoldSegmentsParams p) {
  T* out = static_cast<T*>(p.out);
  const T* src = static_cast<const T*>(p.src);
  const int64_t total = p.outer * p.segments * p.inner;
  const int64_t step = static_cast<int64_t>(gridDim.x) * kThreads;
  for (int64_t e = static_cast<int64_t>(blockIdx.x) * kThreads + threadIdx.x; e < total; e += step) {
    const int64_t i = e % p.inner;
    const int64_t k = (e / p.inner) % p.segments;
    const int64_t o = e / (p.inner * p.segments);
    const int64_t start = p.starts[k];
    int64_t stop = k + 1 < p.segments ? p.starts[k + 1] : p.n;
    if (stop <= start) stop = start + 1;
    const T* lane = src + o * p.n * p.inner + i;
    const int64_t first = p.rest_first && stop - start > 1 ? start + 1 : start;
    T acc = lane[first * p.inner];
    for (int64_t j = first + 1; j < stop; ++j) acc = Op::apply(acc, lane[j * p.inner]);
    if (first != start) acc = Op::apply(lane[start * p.inner], acc);
    out[e] = acc;
  }
}

}  // namespace accel::kernels
